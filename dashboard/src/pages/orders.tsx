import { useState } from 'preact/hooks';
import { get, post } from '../api';
import type { OrderListResponse, OrderResponse } from '../types';
import { Confirm } from '../ui/dialog';
import { money, when } from '../ui/format';
import { attempt, ErrorNote, useLoad } from '../ui/use-load';

/** The brand's orders, newest first, and one order in detail (contract §6, §9). */
export function OrdersPage() {
  const [offset, setOffset] = useState(0);
  const orders = useLoad(() => get<OrderListResponse>(`/orders/admin/all?limit=50&offset=${offset}`), [offset]);
  const [open, setOpen] = useState<number | null>(null);
  if (open !== null) return <OrderDetail id={open} onBack={() => setOpen(null)} />;
  return (
    <section aria-labelledby="orders-title">
      <h1 id="orders-title">Orders</h1>
      <ErrorNote text={orders.error} />
      <table>
        <thead>
          <tr>
            <th>Number</th>
            <th>Status</th>
            <th>Payment</th>
            <th>Delivery</th>
            <th>Recipient</th>
            <th>Total</th>
            <th>Created</th>
            <th>
              <span class="visually-hidden">Open</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {orders.data?.items.map((order) => (
            <tr key={order.id}>
              <td>{order.orderNumber}</td>
              <td>{order.status}</td>
              <td>{order.paymentStatus}</td>
              <td>{order.deliveryStatus ?? '—'}</td>
              <td>{order.recipientName}</td>
              <td>{money(order.totalKopeks)}</td>
              <td>{when(order.createdAt)}</td>
              <td>
                <button type="button" aria-label={`View order ${order.orderNumber}`} onClick={() => setOpen(order.id)}>
                  View
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager offset={offset} total={orders.data?.total ?? 0} onOffset={setOffset} />
    </section>
  );
}

export function Pager(props: { offset: number; total: number; onOffset: (offset: number) => void }) {
  return (
    <nav class="pager" aria-label="Pages">
      <button
        type="button"
        disabled={props.offset === 0}
        onClick={() => props.onOffset(Math.max(0, props.offset - 50))}
      >
        Newer
      </button>
      <span>
        {props.total === 0 ? 0 : props.offset + 1}–{Math.min(props.offset + 50, props.total)} of {props.total}
      </span>
      <button
        type="button"
        disabled={props.offset + 50 >= props.total}
        onClick={() => props.onOffset(props.offset + 50)}
      >
        Older
      </button>
    </nav>
  );
}

function OrderDetail(props: { id: number; onBack: () => void }) {
  const order = useLoad(() => get<OrderResponse>(`/orders/admin/${props.id}`), [props.id]);
  const [cancelling, setCancelling] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const o = order.data;
  return (
    <section aria-labelledby="order-title">
      <button type="button" onClick={props.onBack}>
        Back to orders
      </button>
      <ErrorNote text={order.error ?? error} />
      {o && (
        <>
          <h1 id="order-title">Order {o.orderNumber}</h1>
          <dl class="facts">
            <dt>Status</dt>
            <dd>{o.status}</dd>
            <dt>Payment</dt>
            <dd>{o.paymentStatus}</dd>
            <dt>Delivery</dt>
            <dd>
              {o.deliveryStatus ?? 'not yet with the carrier'} · {o.delivery.city || '—'}
              {o.delivery.pvzAddress && `, ${o.delivery.pvzAddress}`}
            </dd>
            <dt>Tracking</dt>
            <dd>{o.carrierTrackingNumber ?? '—'}</dd>
            <dt>Recipient</dt>
            <dd>
              {o.recipient.fullName}, {o.recipient.phone}
              {o.recipient.email && `, ${o.recipient.email}`}
            </dd>
            <dt>Total</dt>
            <dd>{money(o.totalKopeks)}</dd>
          </dl>
          <table>
            <thead>
              <tr>
                <th>Article</th>
                <th>Size</th>
                <th>Quantity</th>
                <th>Price</th>
                <th>Line total</th>
                <th>Returned</th>
              </tr>
            </thead>
            <tbody>
              {o.items.map((item) => (
                <tr key={item.id}>
                  <td>{item.article}</td>
                  <td>{item.size}</td>
                  <td>{item.quantity}</td>
                  <td>{money(item.priceKopeks)}</td>
                  <td>{money(item.lineTotalKopeks)}</td>
                  <td>{item.returnedQuantity}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {(o.status === 'new' || o.status === 'paid') && (
            <button type="button" class="danger" onClick={() => setCancelling(true)}>
              Cancel order
            </button>
          )}
          {cancelling && (
            <Confirm
              title={`Cancel order ${o.orderNumber}?`}
              action="Cancel order"
              onClose={() => setCancelling(false)}
              onConfirm={async () => {
                await attempt(() => post(`/orders/admin/${o.id}/cancel`, {}), setError);
                order.reload();
              }}
            >
              The order will not be shipped, and the stock it took goes back on the shelves.
            </Confirm>
          )}
        </>
      )}
    </section>
  );
}
