import { useState } from 'preact/hooks';
import { get, post, put } from '../api';
import type { ErasureResponse, OrderResponse, PersonalDataExportResponse, RetentionResponse } from '../types';
import { DataTable } from '../ui/data-table';
import { Confirm } from '../ui/dialog';
import { attempt, ErrorNote, useLoad } from '../ui/use-load';

type Field = 'phone' | 'email' | 'orderId';
const FIELDS: ReadonlyArray<[Field, string]> = [
  ['phone', 'Phone'],
  ['email', 'E-mail'],
  ['orderId', 'Order id'],
];
const FINAL = ['completed', 'returned', 'cancelled'];

/** How a buyer is named: one field and its value, as the API takes it. */
function buyerBody(field: Field, value: string): Record<string, string | number> {
  return { [field]: field === 'orderId' ? Number(value) : value.trim() };
}

/** Buyers' personal data (contract §17): erase with a preview, export as a file, the retention. */
export function PersonalDataPage(props: { brandId: number }) {
  const base = `/admin/brands/${props.brandId}/personal-data`;
  const retention = useLoad(() => get<RetentionResponse>(`${base}/retention`), [base]);
  const [field, setField] = useState<Field>('phone');
  const [value, setValue] = useState('');
  const [preview, setPreview] = useState<OrderResponse[] | null>(null);
  const [days, setDays] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  /** The orders the erasure would find: the export's (phone, e-mail) or the one order. */
  const find = async (): Promise<OrderResponse[]> => {
    if (field === 'orderId') return [await get<OrderResponse>(`/orders/admin/${Number(value)}`)];
    return (await get<PersonalDataExportResponse>(`${base}/export?${field}=${encodeURIComponent(value.trim())}`))
      .orders;
  };

  return (
    <section aria-labelledby="personal-data-title">
      <h1 id="personal-data-title">Personal data</h1>
      <ErrorNote text={retention.error ?? error} />
      {done && <p role="status">{done}</p>}
      <form
        class="card"
        aria-label="Erase or export"
        onSubmit={(event) => {
          event.preventDefault();
          void attempt(async () => setPreview(await find()), setError);
        }}
      >
        <label>
          Find by
          <select value={field} onChange={(e) => setField(e.currentTarget.value as Field)}>
            {FIELDS.map(([id, label]) => (
              <option key={id} value={id}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Buyer
          <input
            required
            type={field === 'email' ? 'email' : field === 'orderId' ? 'number' : 'tel'}
            min={field === 'orderId' ? 1 : undefined}
            value={value}
            onInput={(e) => setValue(e.currentTarget.value)}
          />
        </label>
        <div class="actions">
          <button type="submit" class="danger">
            Erase
          </button>
          <button
            type="button"
            disabled={field === 'orderId'}
            onClick={() =>
              void attempt(async () => {
                const exported = await get<PersonalDataExportResponse>(
                  `${base}/export?${field}=${encodeURIComponent(value.trim())}`,
                );
                download(JSON.stringify(exported, null, 2), 'personal-data-export.json');
                setDone(`Exported ${exported.orders.length} order(s).`);
              }, setError)
            }
          >
            Download export
          </button>
        </div>
      </form>
      <form
        class="card"
        aria-label="Retention"
        onSubmit={(event) => {
          event.preventDefault();
          const text = days ?? String(retention.data?.days ?? '');
          void attempt(async () => {
            const saved = await put<RetentionResponse>(`${base}/retention`, {
              days: text.trim() === '' ? null : Number(text),
            });
            setDone(saved.days === null ? 'Kept until erased.' : `Retention saved: ${saved.days} days.`);
            retention.reload();
          }, setError);
        }}
      >
        <label>
          Retention in days
          <input
            type="number"
            min={0}
            max={3650}
            step={1}
            aria-describedby="retention-hint"
            value={days ?? String(retention.data?.days ?? '')}
            onInput={(e) => setDays(e.currentTarget.value)}
          />
        </label>
        <small id="retention-hint">
          Orders in a final state are anonymised this many days after their last change; empty keeps them until erased.
        </small>
        <button type="submit">Save retention</button>
      </form>
      {preview && (
        <ErasureDialog
          orders={preview}
          onClose={() => setPreview(null)}
          onConfirm={async () => {
            await attempt(async () => {
              const result = await post<ErasureResponse>(`${base}/erasures`, buyerBody(field, value));
              setDone(`Erased ${result.erased.length} order(s); kept ${result.kept.length} in progress.`);
              setValue('');
            }, setError);
          }}
        />
      )}
    </section>
  );
}

/** What the erasure will do: final orders anonymised (number, lines and totals stay), orders in progress kept. */
function ErasureDialog(props: { orders: OrderResponse[]; onClose: () => void; onConfirm: () => Promise<void> }) {
  const erased = props.orders.filter((order) => FINAL.includes(order.status) && !order.personalDataErasedAt);
  const kept = props.orders.filter((order) => !FINAL.includes(order.status));
  return (
    <Confirm
      title="Erase this buyer’s data?"
      action="Erase"
      onClose={props.onClose}
      onConfirm={props.onConfirm}
      describedBy="erasure-summary"
      wide
    >
      <p id="erasure-summary">
        {erased.length} order(s) will be anonymised: name, phone, e-mail and comment go; number, lines, totals,
        statuses, dates and delivery point stay. {kept.length} order(s) in progress will be kept as they are.
      </p>
      <h3>Will be erased</h3>
      <DataTable
        rows={erased}
        columns={[
          { header: 'Order', cell: (order) => order.orderNumber },
          { header: 'Status', cell: (order) => order.status },
          { header: 'Recipient', cell: (order) => order.recipient.fullName },
        ]}
      />
      <h3>Will be kept</h3>
      <DataTable
        rows={kept}
        columns={[
          { header: 'Order', cell: (order) => order.orderNumber },
          { header: 'Status', cell: (order) => order.status },
        ]}
      />
    </Confirm>
  );
}

/** Hands the browser a file to save: the export, as JSON. */
function download(text: string, name: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
