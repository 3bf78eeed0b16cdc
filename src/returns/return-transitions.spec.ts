import { RETURN_STATUSES, type ReturnStatus } from './return-states';
import { canReturnMove, holdsUnits, RETURN_TRANSITIONS } from './return-transitions';

const listed: Array<[ReturnStatus, ReturnStatus]> = [
  ['requested', 'approved'],
  ['requested', 'declined'],
  ['requested', 'received'],
  ['requested', 'partially_received'],
  ['requested', 'canceled'],
  ['approved', 'received'],
  ['approved', 'partially_received'],
  ['approved', 'canceled'],
  ['in_transit', 'received'],
  ['in_transit', 'partially_received'],
  ['in_transit', 'canceled'],
  ['partially_received', 'received'],
  ['received', 'closed'],
];

describe('return transitions (contract §9)', () => {
  it('allows exactly the moves the contract lists', () => {
    for (const from of RETURN_STATUSES) {
      for (const to of RETURN_STATUSES) {
        const expected = listed.some(([a, b]) => a === from && b === to);
        expect({ from, to, allowed: canReturnMove(from, to) }).toEqual({ from, to, allowed: expected });
      }
    }
  });

  it('has a row for every status, and declined, canceled and closed are final', () => {
    expect(Object.keys(RETURN_TRANSITIONS).sort()).toEqual([...RETURN_STATUSES].sort());
    for (const final of ['declined', 'canceled', 'closed'] as const) expect(RETURN_TRANSITIONS[final]).toEqual([]);
  });

  it('cannot cancel once anything was received', () => {
    expect(canReturnMove('partially_received', 'canceled')).toBe(false);
    expect(canReturnMove('received', 'canceled')).toBe(false);
  });

  it('counts every return against the order line but the declined and the canceled', () => {
    expect(RETURN_STATUSES.filter((s) => !holdsUnits(s)).sort()).toEqual(['canceled', 'declined']);
  });
});
