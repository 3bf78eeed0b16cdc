import { Fragment } from 'preact';
import { get } from '../api';
import type { IntegrationKeyResponse, KeyRequestListResponse, KeyUsageResponse } from '../types';
import { DataTable } from '../ui/data-table';
import { Dialog } from '../ui/dialog';
import { when } from '../ui/format';
import { Pager, useCursorPages } from '../ui/pager';
import { ErrorNote, useLoad } from '../ui/use-load';

/**
 * What one key was answered (contract §15): its requests of the last 24 hours by status, its most
 * frequent errors, and its recent failures, newest first, paged with `before`.
 */
export function KeyRequestsDialog(props: { base: string; apiKey: IntegrationKeyResponse; onClose: () => void }) {
  const path = `${props.base}/${props.apiKey.id}`;
  const pages = useCursorPages();
  const usage = useLoad(() => get<KeyUsageResponse>(`${path}/usage`), [path]);
  const failures = useLoad(() => get<KeyRequestListResponse>(`${path}/requests?${pages.query}`), [path, pages.query]);
  const items = failures.data?.items ?? [];
  const counts = usage.data?.last24h;
  return (
    <Dialog title={`Requests of ${props.apiKey.name}`} wide onClose={props.onClose}>
      <ErrorNote text={usage.error ?? failures.error} />
      <h3>Last 24 hours</h3>
      {counts && (
        <dl class="facts">
          <dt>All requests</dt>
          <dd>{counts.total}</dd>
          {Object.entries(counts.byStatus).map(([status, count]) => (
            <Fragment key={status}>
              <dt>Status {status}</dt>
              <dd>{count}</dd>
            </Fragment>
          ))}
        </dl>
      )}
      {usage.data && usage.data.topErrors.length > 0 && (
        <>
          <h3>Most frequent errors</h3>
          <ul>
            {usage.data.topErrors.map((e) => (
              <li key={`${e.status} ${e.error}`}>
                {e.status} {e.error ?? '—'}: {e.count} × <small>(last {when(e.lastAt)})</small>
              </li>
            ))}
          </ul>
        </>
      )}
      <h3>Recent failures</h3>
      {failures.data && items.length === 0 && <p>No failed requests in the last 30 days.</p>}
      <DataTable
        rows={items}
        columns={[
          { header: 'Time', cell: (r) => when(r.at) },
          {
            header: 'Route',
            cell: (r) => (
              <>
                {r.method} <code>{r.route ?? r.path}</code>
              </>
            ),
          },
          { header: 'Status', cell: (r) => r.status },
          { header: 'Error', cell: (r) => r.error ?? '—' },
          { header: 'Request id', cell: (r) => <code>{r.requestId}</code> },
        ]}
      />
      <Pager {...pages.pager(items)} />
      <div class="actions">
        <button type="button" onClick={props.onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
