import { KeyCheckSql } from '../access-keys/verify-key.query';
import type { Prepared } from '../database/prepared';

// Kept by triggers on orders (migration BrandOrderCounts): a handful of rows, whatever the number of orders.
export const BRAND_TOTAL = 'SELECT COALESCE(sum(orders), 0) FROM brand_order_counts WHERE brand_id = $1';

const SUMMARY_COLUMNS = `id, order_number, source, partner_order_id, status, payment_status, delivery_status, stock_shortage,
                recipient_full_name, total_kopeks, ordered_at, created_at`;

/** A page of a brand's orders, newest first, with the brand's total ($1 brand, $2 limit, $3 offset). */
export const LIST_ORDERS: Prepared = {
  name: 'list_orders',
  text: `SELECT ${SUMMARY_COLUMNS}, (${BRAND_TOTAL}) AS total
           FROM orders WHERE brand_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`,
};

/**
 * LIST_ORDERS carrying the integration key check (PendingKeyCheck; $1 fingerprint, $2 the
 * permission, $3 SETTINGS_MANAGE, $4 limit, $5 offset): the brand is the key's, so a key that
 * fails reads nothing. One row at least, even past the end: the key's outcome and the brand's
 * total, then the page's columns (null when the page is empty).
 */
export const LIST_ORDERS_WITH_KEY: Prepared = {
  name: 'list_orders_with_key',
  text: `WITH ${KeyCheckSql.ctes({ fingerprint: '$1', permission: '$2', settingsManage: '$3' })},
       page AS (SELECT ${SUMMARY_COLUMNS} FROM orders
                 WHERE brand_id = (SELECT brand_id FROM key_ok) ORDER BY id DESC LIMIT $4 OFFSET $5)
       SELECT head.key_check, head.total, page.*
         FROM (SELECT ${KeyCheckSql.outcome} AS key_check,
                      (SELECT COALESCE(sum(orders), 0) FROM brand_order_counts
                        WHERE brand_id = (SELECT brand_id FROM key_ok)) AS total) AS head
         LEFT JOIN page ON true
        ORDER BY page.id DESC`,
};
