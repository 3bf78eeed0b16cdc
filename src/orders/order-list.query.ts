import { KeyCheckSql } from '../access-keys/verify-key.query';
import { isoTimestampSql } from '../database/iso-timestamp.sql';
import type { Prepared } from '../database/prepared';

/**
 * The list's answer (OrderListResponse) as JSON text, built by PostgreSQL: a page of the brand's
 * orders, newest first, and the brand's total, kept by triggers on orders (migration
 * BrandOrderCounts: a handful of rows, whatever the number of orders). Built here rather than
 * from rows, the answer costs the service no row description, row or date parsing and no
 * serialisation (docs/performance.md, PERF-21). `json`, not `jsonb`, keeps the keys in the order
 * below.
 */
const pageJson = (brandId: string, limit: string, offset: string) =>
  `json_build_object(
     'items', COALESCE((
        SELECT json_agg(json_build_object(
                 'id', o.id, 'orderNumber', o.order_number, 'source', o.source, 'partnerOrderId', o.partner_order_id,
                 'status', o.status, 'paymentStatus', o.payment_status, 'deliveryStatus', o.delivery_status,
                 'stockShortage', o.stock_shortage, 'recipientName', o.recipient_full_name, 'totalKopeks', o.total_kopeks,
                 'orderedAt', ${isoTimestampSql('o.ordered_at')},
                 'createdAt', ${isoTimestampSql('o.created_at')}) ORDER BY o.id DESC)
          FROM (SELECT * FROM orders WHERE brand_id = ${brandId} ORDER BY id DESC LIMIT ${limit} OFFSET ${offset}) o
     ), '[]'::json),
     'total', (SELECT COALESCE(sum(c.orders), 0) FROM brand_order_counts c WHERE c.brand_id = ${brandId})
   )::text`;

/** A page of a brand's orders ($1 brand, $2 limit, $3 offset): one row, `body`. */
export const LIST_ORDERS: Prepared = {
  name: 'list_orders',
  text: `SELECT ${pageJson('$1', '$2', '$3')} AS body`,
};

/**
 * LIST_ORDERS carrying the integration key check (PendingKeyCheck; $1 fingerprint, $2 the
 * permission, $3 SETTINGS_MANAGE, $4 limit, $5 offset): the brand is the key's, so a key that
 * fails reads nothing. One row: the key's outcome and `body`, null unless the key acted.
 */
export const LIST_ORDERS_WITH_KEY: Prepared = {
  name: 'list_orders_with_key',
  text: `WITH ${KeyCheckSql.ctes({ fingerprint: '$1', permission: '$2', settingsManage: '$3' })}
       SELECT ${KeyCheckSql.outcome} AS key_check,
              (SELECT ${pageJson('k.brand_id', '$4', '$5')} FROM key_ok k) AS body`,
};
