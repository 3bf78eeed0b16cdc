import type { ReturnStatus } from './return-states';

/**
 * Every move a return's status may make (contract §9), and nothing else: ReturnsService refuses
 * any other with a 409 and changes nothing. Cancelling is possible only before anything was
 * received; `declined`, `canceled` and `closed` are final.
 */
export const RETURN_TRANSITIONS: Readonly<Record<ReturnStatus, readonly ReturnStatus[]>> = {
  requested: ['approved', 'declined', 'received', 'partially_received', 'canceled'],
  approved: ['received', 'partially_received', 'canceled'],
  in_transit: ['received', 'partially_received', 'canceled'],
  partially_received: ['received'],
  received: ['closed'],
  declined: [],
  canceled: [],
  closed: [],
};

export function canReturnMove(from: ReturnStatus, to: ReturnStatus): boolean {
  return RETURN_TRANSITIONS[from].includes(to);
}

/** The states whose units count against what is left to return of an order line. */
export function holdsUnits(status: ReturnStatus): boolean {
  return status !== 'declined' && status !== 'canceled';
}
