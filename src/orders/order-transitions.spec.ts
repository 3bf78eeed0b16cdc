import { CARRIER_STATUSES } from './carrier-status';
import type { OrderStatus } from './order.entity';
import { canMove, ORDER_TRANSITIONS, statusAfterCarrier } from './order-transitions';

const STATUSES = Object.keys(ORDER_TRANSITIONS) as OrderStatus[];

describe('order transitions', () => {
  it('allows exactly the listed moves, and nothing else', () => {
    const allowed = STATUSES.flatMap((from) => STATUSES.filter((to) => canMove(from, to)).map((to) => `${from}→${to}`));
    expect(allowed).toEqual([
      'new→paid',
      'new→cancelled',
      'paid→shipped',
      'paid→completed',
      'paid→returned',
      'paid→cancelled',
      'shipped→completed',
      'shipped→returned',
      'completed→returned',
    ]);
  });

  it('never moves back to new, never leaves returned or cancelled, never stays by a "move"', () => {
    for (const from of STATUSES) {
      expect(canMove(from, 'new')).toBe(false);
      expect(canMove(from, from)).toBe(false);
    }
    for (const to of STATUSES) {
      expect(canMove('returned', to)).toBe(false);
      expect(canMove('cancelled', to)).toBe(false);
    }
  });

  it.each([
    ['paid', 'registered', 'paid'],
    ['paid', 'accepted', 'shipped'],
    ['paid', 'in_transit', 'shipped'],
    ['paid', 'not_delivered', 'shipped'],
    ['shipped', 'arrived', 'shipped'],
    ['shipped', 'delivered', 'completed'],
    ['paid', 'delivered', 'completed'],
    ['shipped', 'returned', 'returned'],
    ['completed', 'returned', 'returned'],
    ['completed', 'in_transit', 'completed'],
    ['new', 'in_transit', 'new'],
    ['new', 'delivered', 'new'],
    ['cancelled', 'delivered', 'cancelled'],
    ['returned', 'delivered', 'returned'],
  ] as const)('%s + carrier %s → %s', (current, carrier, expected) => {
    expect(statusAfterCarrier(current, carrier)).toBe(expected);
  });

  it('a carrier status only ever makes a move the table lists', () => {
    for (const current of STATUSES) {
      for (const carrier of CARRIER_STATUSES) {
        const next = statusAfterCarrier(current, carrier);
        if (next !== current) expect(canMove(current, next)).toBe(true);
      }
    }
  });
});
