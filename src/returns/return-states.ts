/** A return's states (contract §9). */
export const RETURN_STATUSES = [
  'requested',
  'approved',
  'declined',
  'in_transit',
  'partially_received',
  'received',
  'closed',
  'canceled',
] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];

export const RETURN_ORIGINS = ['customer', 'carrier'] as const;
export type ReturnOrigin = (typeof RETURN_ORIGINS)[number];

export const REASON_CODES = [
  'changed_mind',
  'defective',
  'wrong_item',
  'wrong_size',
  'not_as_described',
  'not_delivered',
  'other',
] as const;
export type ReasonCode = (typeof REASON_CODES)[number];

export const REFUND_STATUSES = ['pending', 'refunded', 'not_required'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

export const DISPOSITIONS = ['restock', 'damaged', 'missing'] as const;
export type Disposition = (typeof DISPOSITIONS)[number];

const quoted = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');
/** For the tables' CHECK constraints. */
export const SQL_IN = {
  status: quoted(RETURN_STATUSES),
  origin: quoted(RETURN_ORIGINS),
  reason: quoted(REASON_CODES),
  refund: quoted(REFUND_STATUSES),
};
