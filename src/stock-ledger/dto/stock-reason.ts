/** Why a size's stock changed: a ledger row's reason, and a stock event's (contract §16). */
export const STOCK_REASONS = ['initial', 'order', 'acceptance', 'adjustment', 'return', 'cancellation'] as const;
export type StockReason = (typeof STOCK_REASONS)[number];
