import { useState } from 'preact/hooks';
import { get, post } from '../api';
import type { ReturnListResponse, ReturnResponse } from '../types';
import { Confirm, Dialog } from '../ui/dialog';
import { money, when } from '../ui/format';
import { attempt, ErrorNote, useLoad } from '../ui/use-load';
import { Pager } from './orders';

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
  const [offset, setOffset] = useState(0);
  const returns = useLoad(
    () => get<ReturnListResponse>(`/returns?limit=50&offset=${offset}${status ? `&status=${status}` : ''}`),
    [status, offset],
  );
  const [open, setOpen] = useState<number | null>(null);
  if (open !== null) return <ReturnDetail id={open} onBack={() => setOpen(null)} />;
  return (
    <section aria-labelledby="returns-title">
      <h1 id="returns-title">Returns</h1>
      <label>
        Status
        <select value={status} onChange={(e) => (setStatus(e.currentTarget.value), setOffset(0))}>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s || 'any'}
            </option>
          ))}
        </select>
      </label>
      <ErrorNote text={returns.error} />
      <table>
        <thead>
          <tr>
            <th>Number</th>
            <th>Order</th>
            <th>Status</th>
            <th>Origin</th>
            <th>Reason</th>
            <th>Refund</th>
            <th>Created</th>
            <th>
              <span class="visually-hidden">Open</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {returns.data?.items.map((r) => (
            <tr key={r.id}>
              <td>{r.returnNumber}</td>
              <td>{r.orderNumber}</td>
              <td>{r.status}</td>
              <td>{r.origin}</td>
              <td>{r.reasonCode}</td>
              <td>
                {money(r.refundKopeks)} ({r.refundStatus})
              </td>
              <td>{when(r.createdAt)}</td>
              <td>
                <button type="button" aria-label={`View return ${r.returnNumber}`} onClick={() => setOpen(r.id)}>
                  View
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager offset={offset} total={returns.data?.total ?? 0} onOffset={setOffset} />
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
          <table>
            <thead>
              <tr>
                <th>Article</th>
                <th>Size</th>
                <th>Quantity</th>
                <th>Received</th>
                <th>Restocked</th>
              </tr>
            </thead>
            <tbody>
              {r.items.map((item) => (
                <tr key={item.id}>
                  <td>{item.article}</td>
                  <td>{item.size}</td>
                  <td>{item.quantity}</td>
                  <td>{item.receivedQuantity}</td>
                  <td>{item.restockedQuantity}</td>
                </tr>
              ))}
            </tbody>
          </table>
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
