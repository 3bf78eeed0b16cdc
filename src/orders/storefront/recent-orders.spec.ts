import { RecentOrders } from './recent-orders';

const order = (id: number) => ({
  id,
  orderNumber: String(100000 + id),
  hash: `h${id}`,
  totalKopeks: 100 * id,
  fingerprint: `f${id}`,
});

describe('RecentOrders', () => {
  it('finds an order by brand and partnerOrderId, and only in its brand', () => {
    const recent = new RecentOrders();
    recent.remember(1, 'A-1', order(1));
    expect(recent.find(1, 'A-1')).toEqual(order(1));
    expect(recent.find(2, 'A-1')).toBeUndefined();
    expect(recent.find(1, 'A-2')).toBeUndefined();
  });

  it('keeps the first answer for a key', () => {
    const recent = new RecentOrders();
    recent.remember(1, 'A-1', order(1));
    recent.remember(1, 'A-1', order(2));
    expect(recent.find(1, 'A-1')).toEqual(order(1));
  });

  it('holds 10 000 orders and forgets the oldest first', () => {
    const recent = new RecentOrders();
    for (let i = 0; i < 10_001; i++) recent.remember(1, `A-${i}`, order(i));
    expect(recent.find(1, 'A-0')).toBeUndefined();
    expect(recent.find(1, 'A-1')).toEqual(order(1));
    expect(recent.find(1, 'A-10000')).toEqual(order(10_000));
  });
});
