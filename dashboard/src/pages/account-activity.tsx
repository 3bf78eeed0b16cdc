import { get } from '../api';
import type { JournalListResponse } from '../types';
import { DataTable } from '../ui/data-table';
import { when } from '../ui/format';
import { Pager, useCursorPages } from '../ui/pager';
import { ErrorNote, useLoad } from '../ui/use-load';

/** The account's own journal entries (sign-ins, failures, password changes, ended sessions), newest first. */
export function AccountActivity(props: { version: number }) {
  const pages = useCursorPages();
  const entries = useLoad(
    () => get<JournalListResponse>(`/auth/activity?${pages.query}`),
    [pages.query, props.version],
  );
  const items = entries.data?.items ?? [];
  return (
    <section class="card" aria-labelledby="activity-title">
      <h2 id="activity-title">Recent activity</h2>
      <ErrorNote text={entries.error} />
      <DataTable
        rows={items}
        columns={[
          { header: 'When', cell: (e) => when(e.at) },
          { header: 'What', cell: (e) => e.type.replaceAll('_', ' ') },
          { header: 'Address', cell: (e) => e.ip ?? '—' },
          {
            header: 'Details',
            cell: (e) => (Object.keys(e.details).length > 0 ? <code>{JSON.stringify(e.details)}</code> : '—'),
          },
        ]}
      />
      <Pager {...pages.pager(items)} />
    </section>
  );
}
