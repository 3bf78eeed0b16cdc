import { useState } from 'preact/hooks';
import { get, post } from '../api';
import type { ReturnListResponse, ReturnResponse } from '../types';
import { DataTable } from '../ui/data-table';
import { Confirm, Dialog } from '../ui/dialog';
import { money, when } from '../ui/format';
import { Pager, useCountedPages } from '../ui/pager';
import { attempt, ErrorNote, useLoad } from '../ui/use-load';

const STATUSES = [
  '',
  'requested',
  'approved',
  'declined',
  'in_transit',
  'partially_received',
  'received',
  'closed',
  'canceled',
];

/** Returns of the brand's orders (contract §9). */
export function ReturnsPage() {
  const [status, setStatus] = useState('');
  const pages = useCountedPages();
  const returns = useLoad(
    () => get<ReturnListResponse>(`/returns?${pages.query}${status ? `&status=${status}` : ''}`),
    [status, pages.query],
  );
  const [open, setOpen] = useState<number | null>(null);
  if (open !== null) return <ReturnDetail id={open} onBack={() => setOpen(null)} />;
  return (
    <section aria-labelledby="returns-title">
      <h1 id="returns-title">Returns</h1>
      <label>
        Status
        <select value={status} onChange={(e) => (setStatus(e.currentTarget.value), pages.reset())}>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s || 'any'}
            </option>
          ))}
        </select>
      </label>
      <ErrorNote text={returns.error} />
      <DataTable
        rows={returns.data?.items}
        columns={[
          { header: 'Number', cell: (r) => r.returnNumber },
          { header: 'Order', cell: (r) => r.orderNumber },
          { header: 'Status', cell: (r) => r.status },
          { header: 'Origin', cell: (r) => r.origin },
          { header: 'Reason', cell: (r) => r.reasonCode },
          { header: 'Refund', cell: (r) => `${money(r.refundKopeks)} (${r.refundStatus})` },
          { header: 'Created', cell: (r) => when(r.createdAt) },
          {
            header: 'Open',
            hideHeader: true,
            cell: (r) => (
              <button type="button" aria-label={`View return ${r.returnNumber}`} onClick={() => setOpen(r.id)}>
                View
              </button>
            ),
          },
        ]}
      />
      <Pager {...pages.pager(returns.data?.total ?? 0, returns.data?.items)} />
    </section>
  );
}

function ReturnDetail(props: { id: number; onBack: () => void }) {
  const path = `/returns/${props.id}`;
  const ret = useLoad(() => get<ReturnResponse>(path), [path]);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<'decline' | 'cancel' | null>(null);
  const [receiving, setReceiving] = useState(false);
  const act = async (action: string, body: object = {}) => {
    await attempt(() => post(`${path}/${action}`, body), setError);
    ret.reload();
  };
  const r = ret.data;
  return (
    <section aria-labelledby="return-title">
      <button type="button" onClick={props.onBack}>
        Back to returns
      </button>
      <ErrorNote text={ret.error ?? error} />
      {r && (
        <>
          <h1 id="return-title">
            Return {r.returnNumber} of order {r.orderNumber}
          </h1>
          <dl class="facts">
            <dt>Status</dt>
            <dd>{r.status}</dd>
            <dt>Origin</dt>
            <dd>{r.origin}</dd>
            <dt>Reason</dt>
            <dd>
              {r.reasonCode}
              {r.reasonNote && `: ${r.reasonNote}`}
            </dd>
            <dt>Refund</dt>
            <dd>
              {money(r.refundKopeks)} ({r.refundStatus})
            </dd>
          </dl>
          <DataTable
            rows={r.items}
            columns={[
              { header: 'Article', cell: (item) => item.article },
              { header: 'Size', cell: (item) => item.size },
              { header: 'Quantity', cell: (item) => item.quantity },
              { header: 'Received', cell: (item) => item.receivedQuantity },
              { header: 'Restocked', cell: (item) => item.restockedQuantity },
            ]}
          />
          <div class="actions">
            <button type="button" onClick={() => act('approve')}>
              Approve
            </button>
            <button type="button" class="danger" onClick={() => setConfirming('decline')}>
              Decline
            </button>
            <button type="button" onClick={() => setReceiving(true)}>
              Receive
            </button>
            <button type="button" onClick={() => act('close')}>
              Close
            </button>
            <button type="button" onClick={() => act('refund')}>
              Refund
            </button>
            <button type="button" class="danger" onClick={() => setConfirming('cancel')}>
              Cancel return
            </button>
          </div>
          {confirming && (
            <Confirm
              title={confirming === 'decline' ? 'Decline this return?' : 'Cancel this return?'}
              action={confirming === 'decline' ? 'Decline' : 'Cancel return'}
              onClose={() => setConfirming(null)}
              onConfirm={() => act(confirming)}
            >
              Its units become free to return again; this cannot be undone.
            </Confirm>
          )}
          {receiving && (
            <ReceiveDialog
              ret={r}
              onClose={() => setReceiving(false)}
              onDone={() => (setReceiving(false), ret.reload())}
            />
          )}
        </>
      )}
    </section>
  );
}

function ReceiveDialog(props: { ret: ReturnResponse; onClose: () => void; onDone: () => void }) {
  const [rows, setRows] = useState(
    props.ret.items.map((item) => ({ id: item.id, quantity: '', disposition: 'restock' })),
  );
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog title="Receive returned units" onClose={props.onClose}>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          const items = rows
            .filter((row) => Number(row.quantity) > 0)
            .map((row) => ({ returnItemId: row.id, quantity: Number(row.quantity), disposition: row.disposition }));
          if (await attempt(() => post(`/returns/${props.ret.id}/receive`, { items }), setError)) props.onDone();
        }}
      >
        {props.ret.items.map((item, index) => (
          <fieldset key={item.id}>
            <legend>
              {item.article} {item.size}: {item.quantity - item.receivedQuantity} expected
            </legend>
            <label>
              Quantity
              <input
                inputMode="numeric"
                value={rows[index].quantity}
                onInput={(e) =>
                  setRows(rows.map((row, i) => (i === index ? { ...row, quantity: e.currentTarget.value } : row)))
                }
              />
            </label>
            <label>
              Disposition
              <select
                value={rows[index].disposition}
                onChange={(e) =>
                  setRows(rows.map((row, i) => (i === index ? { ...row, disposition: e.currentTarget.value } : row)))
                }
              >
                <option value="restock">restock</option>
                <option value="damaged">damaged</option>
                <option value="missing">missing</option>
              </select>
            </label>
          </fieldset>
        ))}
        <ErrorNote text={error} />
        <div class="actions">
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit">Receive</button>
        </div>
      </form>
    </Dialog>
  );
}
