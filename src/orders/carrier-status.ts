/** The statuses the carrier reports (contract §7); what each does to an order is in order-transitions.ts. */
export const CARRIER_STATUSES = [
  'registered',
  'accepted',
  'in_transit',
  'arrived',
  'delivered',
  'not_delivered',
  'returned',
] as const;
export type CarrierStatus = (typeof CARRIER_STATUSES)[number];
