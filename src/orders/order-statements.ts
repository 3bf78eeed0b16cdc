import { LedgerSql } from '../stock-ledger/stock-ledger';
import { enqueueSql } from '../outbox/outbox';
import type { Prepared } from '../database/prepared';
import { newOrderHash } from './order-identity';
import type { NewOrder, OrderFacts } from './new-order';
import { normalizePhone, parseFullName } from './recipient-parsing';

/*
 * The statements that write orders, and the parameters they take: the order's own values at
 * $1..$25 (orderValues), then each statement's lines and extras.
 */

/** The columns orderValues() fills, then the two sums (items, total) each statement computes its own way. */
const ORDER_COLUMNS = `brand_id, order_number, hash, source, partner_order_id, status, payment_status, ordered_at,
  delivery_cost_kopeks, promo_code, comment,
  recipient_full_name, recipient_surname, recipient_first_name, recipient_patronymic,
  recipient_phone, recipient_phone_normalized, recipient_email,
  delivery_city, delivery_city_code, delivery_pvz_code, delivery_pvz_address,
  carrier_order_uuid, carrier_tracking_number, waybill_url, request_fingerprint,
  items_total_kopeks, total_kopeks`;
/** $1..$25: orderValues(), with the order number drawn in between. */
const ORDER_VALUES = `$1, nextval('order_number_seq')::text, ${Array.from({ length: 24 }, (_, i) => `$${i + 2}`).join(', ')}`;
/** Where orderValues() puts the delivery cost (the total adds it to the items). */
const DELIVERY_COST = '$8';

/** An order of brand `brand` by its partnerOrderId, with the fingerprint of the request that created it. */
const earlierOrderSql = (brand: string, partnerOrderId: string) =>
  `SELECT id, order_number, hash, total_kopeks, request_fingerprint FROM orders WHERE brand_id = ${brand} AND partner_order_id = ${partnerOrderId}`;

export const FIND_BY_PARTNER_ID: Prepared = { name: 'find_order_by_partner_id', text: earlierOrderSql('$1', '$2') };

/** A platform order: its lines resolved and priced by the caller ($28..$35, lineArrays()). */
export const INSERT_ORDER: Prepared = {
  name: 'insert_order_with_lines',
  text: `WITH created AS (
         INSERT INTO orders (${ORDER_COLUMNS})
         VALUES (${ORDER_VALUES}, $26, $27)
         ON CONFLICT (brand_id, partner_order_id) DO NOTHING
         RETURNING id, order_number, hash
       ), lines AS (
         INSERT INTO order_items (order_id, line, product_id, size_id, article, storefront_article, size, quantity, price_kopeks, line_total_kopeks)
         SELECT created.id, l.line, l.product_id, l.size_id, l.article, l.storefront_article, l.size, l.quantity, l.price, l.price * l.quantity
           FROM created,
                unnest($28::int[], $29::int[], $30::int[], $31::text[], $32::text[], $33::text[], $34::int[], $35::bigint[])
                AS l(line, product_id, size_id, article, storefront_article, size, quantity, price)
       )
       SELECT id, order_number, hash FROM created`,
};

/**
 * A storefront order, paid, with its stock, in one statement and so in one implicit transaction:
 * its lines matched to the brand's catalog by storefront article and size ($26..$29), priced
 * (the given price, else the size's, else the product's), the sizes locked in the ledger's order,
 * the order written with stockShortage known, then the stock, the lines, the ledger rows and the
 * acceptance mail. An order the brand already has with this partnerOrderId is read instead (the
 * repeat check) and nothing is matched, locked or written; so is nothing when a line matches no
 * size ("unmatched": the caller asks the matcher which, for the 422). One round trip instead of
 * a lookup, a matching query, BEGIN, order, stock, mail, COMMIT.
 */
export const ACCEPT_STOREFRONT_ORDER: Prepared = {
  name: 'accept_storefront_order',
  text: `WITH earlier AS (${earlierOrderSql('$1', '$4')}),
       matched AS (
         SELECT l.line::int AS line, p.id AS product_id, s.id AS size_id, p.article, p.storefront_article, s.name AS size,
                l.quantity, COALESCE(l.price, s.price_kopeks, p.price_kopeks) AS price
           FROM unnest($26::text[], $27::text[], $28::int[], $29::bigint[]) WITH ORDINALITY AS l(article, size_key, quantity, price, line)
           JOIN products p ON p.brand_id = $1 AND p.storefront_article = l.article
           JOIN product_sizes s ON s.product_id = p.id AND s.name_key = l.size_key
          WHERE NOT EXISTS (SELECT 1 FROM earlier)
       ),
       ready AS (SELECT NOT EXISTS (SELECT 1 FROM earlier) AND (SELECT count(*) FROM matched) = cardinality($26::text[]) AS ok),
       per_size AS (SELECT size_id AS id, -sum(quantity)::int AS delta FROM matched WHERE (SELECT ok FROM ready) GROUP BY size_id),
       locked AS (${LedgerSql.lockSizes('(SELECT array_agg(id) FROM per_size)')}),
       created AS (
         INSERT INTO orders (${ORDER_COLUMNS}, stock_shortage, stock_deducted_at)
         SELECT ${ORDER_VALUES}, money.items, money.items + ${DELIVERY_COST}::bigint,
                EXISTS (SELECT 1 FROM locked l JOIN per_size d ON d.id = l.id WHERE l.stock + d.delta < 0),
                now()
           FROM (SELECT sum(price * quantity)::bigint AS items FROM matched) AS money
          WHERE (SELECT ok FROM ready)
         ON CONFLICT (brand_id, partner_order_id) DO NOTHING
         RETURNING id, order_number, hash, total_kopeks
       ),
       updated AS (${LedgerSql.addDeltas({ locked: 'locked', changes: 'per_size', brandId: '$1', condition: 'EXISTS (SELECT 1 FROM created)' })}),
       lines AS (
         INSERT INTO order_items (order_id, line, product_id, size_id, article, storefront_article, size, quantity, price_kopeks, line_total_kopeks)
         SELECT created.id, m.line, m.product_id, m.size_id, m.article, m.storefront_article, m.size, m.quantity, m.price, m.price * m.quantity
           FROM created, matched m
       ),
       moved AS (${LedgerSql.recordMovements(
         `SELECT $1::int, m.size_id, -m.quantity, 'order', created.id, NULL::int, NULL::text, $30::text, $31::int
            FROM created, matched m`,
       )}),
       mail AS (${enqueueSql(
         `SELECT 'mail.order_accepted', jsonb_build_object('orderId', created.id), 'order_accepted:' || created.id FROM created WHERE $32::boolean`,
       )})
       SELECT 'created' AS outcome, id, order_number, hash, total_kopeks, NULL::text AS request_fingerprint FROM created
       UNION ALL
       SELECT 'earlier', id, order_number, hash, total_kopeks, request_fingerprint FROM earlier
       UNION ALL
       SELECT 'unmatched', NULL, NULL, NULL, NULL, NULL WHERE NOT (SELECT ok FROM ready) AND NOT EXISTS (SELECT 1 FROM earlier)`,
};

/** $1..$25 of both statements: everything but the two sums. */
export function orderValues(order: OrderFacts): unknown[] {
  const name = parseFullName(order.recipient.fullName);
  return [
    order.brandId,
    newOrderHash(),
    order.source,
    order.partnerOrderId,
    order.status,
    order.paymentStatus,
    order.orderedAt,
    order.delivery?.deliveryCostKopeks ?? 0,
    order.promoCode ?? null,
    order.comment ?? null,
    order.recipient.fullName.trim(),
    name.surname,
    name.firstName,
    name.patronymic,
    order.recipient.phone,
    normalizePhone(order.recipient.phone),
    order.recipient.email?.trim().toLowerCase() ?? null,
    order.delivery?.city ?? '',
    order.delivery?.cityCode ?? null,
    order.delivery?.pvzCode ?? null,
    order.delivery?.pvzAddress ?? null,
    order.carrierOrderUuid ?? null,
    order.carrierTrackingNumber ?? null,
    order.waybillUrl ?? null,
    order.requestFingerprint ?? null,
  ];
}

/** The lines as eight parallel arrays, for unnest ($28..$35 of INSERT_ORDER). */
export function lineArrays(order: NewOrder): unknown[] {
  return [
    order.lines.map((_, i) => i + 1),
    order.lines.map((l) => l.productId),
    order.lines.map((l) => l.sizeId),
    order.lines.map((l) => l.article),
    order.lines.map((l) => l.storefrontArticle),
    order.lines.map((l) => l.size),
    order.lines.map((l) => l.quantity),
    order.lines.map((l) => l.priceKopeks),
  ];
}
