import { useState } from 'preact/hooks';
import { get } from '../api';
import type { JournalListResponse } from '../types';
import { when } from '../ui/format';
import { useLoad } from '../ui/use-load';
import { ErrorNote } from '../ui/use-load';

const TYPES = [
  '',
  'brand_violation',
  'ip_not_allowed',
  'integration_key_issued',
  'integration_key_revoked',
  'integration_key_rolled',
  'integration_key_updated',
  'integration_key_expiring',
  'site_key_issued',
  'site_key_revoked',
  'production_site_updated',
  'payment_amount_mismatch',
  'payment_for_cancelled_order',
  'webhook_endpoint_created',
  'webhook_endpoint_updated',
  'webhook_endpoint_deleted',
  'webhook_endpoint_secret_rotated',
  'webhook_endpoint_disabled',
];

/** The brand's security journal, newest first, filtered by type, paged with `before` (contract §8). */
export function JournalPage(props: { brandId: number }) {
  const [type, setType] = useState('');
  const [pages, setPages] = useState<number[]>([]);
  const before = pages.at(-1);
  const entries = useLoad(
    () =>
      get<JournalListResponse>(
        `/admin/brands/${props.brandId}/security-journal?limit=50${type ? `&type=${type}` : ''}${before ? `&before=${before}` : ''}`,
      ),
    [props.brandId, type, before],
  );
  const items = entries.data?.items ?? [];
  return (
    <section aria-labelledby="journal-title">
      <h1 id="journal-title">Security journal</h1>
      <label>
        Type
        <select value={type} onChange={(e) => (setType(e.currentTarget.value), setPages([]))}>
          {TYPES.map((t) => (
            <option key={t} value={t}>
              {t || 'all'}
            </option>
          ))}
        </select>
      </label>
      <ErrorNote text={entries.error} />
      <table>
        <thead>
          <tr>
            <th>When</th>
            <th>Type</th>
            <th>Who</th>
            <th>Address</th>
            <th>Details</th>
          </tr>
        </thead>
        <tbody>
          {items.map((e) => (
            <tr key={e.id}>
              <td>{when(e.at)}</td>
              <td>{e.type}</td>
              <td>{e.actor ? `${e.actor.kind} ${e.actor.id ?? ''}` : '—'}</td>
              <td>{e.ip ?? '—'}</td>
              <td>
                <code>{JSON.stringify(e.details)}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <nav class="pager" aria-label="Pages">
        <button type="button" disabled={pages.length === 0} onClick={() => setPages(pages.slice(0, -1))}>
          Newer
        </button>
        <button
          type="button"
          disabled={items.length < 50}
          onClick={() => setPages([...pages, items[items.length - 1].id])}
        >
          Older
        </button>
      </nav>
    </section>
  );
}
