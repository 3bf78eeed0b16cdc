import { nextOrderStatus } from './order-status-from-carrier';

describe('nextOrderStatus', () => {
  it.each([
    ['paid', 'registered', 'paid'],
    ['paid', 'accepted', 'shipped'],
    ['paid', 'in_transit', 'shipped'],
    ['shipped', 'arrived', 'shipped'],
    ['shipped', 'delivered', 'completed'],
    ['paid', 'delivered', 'completed'],
    ['shipped', 'returned', 'returned'],
    ['new', 'in_transit', 'new'],
    ['cancelled', 'delivered', 'cancelled'],
  ] as const)('%s + %s → %s', (current, delivery, expected) => {
    expect(nextOrderStatus(current, delivery)).toBe(expected);
  });
});
