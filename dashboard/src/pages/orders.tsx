import { useState } from 'preact/hooks';
import { get, post } from '../api';
import type { OrderListResponse, OrderResponse } from '../types';
import { DataTable } from '../ui/data-table';
import { Confirm } from '../ui/dialog';
import { money, when } from '../ui/format';
import { Pager, useCountedPages } from '../ui/pager';
import { attempt, ErrorNote, useLoad } from '../ui/use-load';

/** The brand's orders, newest first, and one order in detail (contract §6, §9). */
export function OrdersPage() {
  const pages = useCountedPages();
  const orders = useLoad(() => get<OrderListResponse>(`/orders/admin/all?${pages.query}`), [pages.query]);
  const [open, setOpen] = useState<number | null>(null);
  if (open !== null) return <OrderDetail id={open} onBack={() => setOpen(null)} />;
  return (
    <section aria-labelledby="orders-title">
      <h1 id="orders-title">Orders</h1>
      <ErrorNote text={orders.error} />
      <DataTable
        rows={orders.data?.items}
        columns={[
          { header: 'Number', cell: (order) => order.orderNumber },
          { header: 'Status', cell: (order) => order.status },
          { header: 'Payment', cell: (order) => order.paymentStatus },
          { header: 'Delivery', cell: (order) => order.deliveryStatus ?? '—' },
          { header: 'Recipient', cell: (order) => order.recipientName },
          { header: 'Total', cell: (order) => money(order.totalKopeks) },
          { header: 'Created', cell: (order) => when(order.createdAt) },
          {
            header: 'Open',
            hideHeader: true,
            cell: (order) => (
              <button type="button" aria-label={`View order ${order.orderNumber}`} onClick={() => setOpen(order.id)}>
                View
              </button>
            ),
          },
        ]}
      />
      <Pager {...pages.pager(orders.data?.total ?? 0, orders.data?.items)} />
    </section>
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
          <DataTable
            rows={o.items}
            columns={[
              { header: 'Article', cell: (item) => item.article },
              { header: 'Size', cell: (item) => item.size },
              { header: 'Quantity', cell: (item) => item.quantity },
              { header: 'Price', cell: (item) => money(item.priceKopeks) },
              { header: 'Line total', cell: (item) => money(item.lineTotalKopeks) },
              { header: 'Returned', cell: (item) => item.returnedQuantity },
            ]}
          />
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
