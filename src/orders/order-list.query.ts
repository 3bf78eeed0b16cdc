import type { Prepared } from '../database/prepared';

// Kept by triggers on orders (migration BrandOrderCounts): a handful of rows, whatever the number of orders.
export const BRAND_TOTAL = 'SELECT COALESCE(sum(orders), 0) FROM brand_order_counts WHERE brand_id = $1';

/** A page of a brand's orders, newest first, with the brand's total ($1 brand, $2 limit, $3 offset). */
export const LIST_ORDERS: Prepared = {
  name: 'list_orders',
  text: `SELECT id, order_number, source, partner_order_id, status, payment_status, delivery_status, stock_shortage,
                recipient_full_name, total_kopeks, ordered_at, created_at,
                (${BRAND_TOTAL}) AS total
           FROM orders WHERE brand_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`,
};
