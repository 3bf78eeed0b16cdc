import { useState } from 'preact/hooks';
import { get } from '../api';
import type { JournalListResponse } from '../types';
import { DataTable } from '../ui/data-table';
import { when } from '../ui/format';
import { Pager, useCursorPages } from '../ui/pager';
import { ErrorNote, useLoad } from '../ui/use-load';

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
  'personal_data_erased',
  'personal_data_exported',
];

/** The brand's security journal, newest first, filtered by type, paged with `before` (contract §8). */
export function JournalPage(props: { brandId: number }) {
  const [type, setType] = useState('');
  const pages = useCursorPages();
  const entries = useLoad(
    () =>
      get<JournalListResponse>(
        `/admin/brands/${props.brandId}/security-journal?${pages.query}${type ? `&type=${type}` : ''}`,
      ),
    [props.brandId, type, pages.query],
  );
  const items = entries.data?.items ?? [];
  return (
    <section aria-labelledby="journal-title">
      <h1 id="journal-title">Security journal</h1>
      <label>
        Type
        <select value={type} onChange={(e) => (setType(e.currentTarget.value), pages.reset())}>
          {TYPES.map((t) => (
            <option key={t} value={t}>
              {t || 'all'}
            </option>
          ))}
        </select>
      </label>
      <ErrorNote text={entries.error} />
      <DataTable
        rows={items}
        columns={[
          { header: 'When', cell: (e) => when(e.at) },
          { header: 'Type', cell: (e) => e.type },
          { header: 'Who', cell: (e) => (e.actor ? `${e.actor.kind} ${e.actor.id ?? ''}` : '—') },
          { header: 'Address', cell: (e) => e.ip ?? '—' },
          { header: 'Details', cell: (e) => <code>{JSON.stringify(e.details)}</code> },
        ]}
      />
      <Pager {...pages.pager(items)} />
    </section>
  );
}
