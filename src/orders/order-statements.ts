import { KeyCheckSql } from '../access-keys/verify-key.query';
import { CatalogSql } from '../catalog/catalog.sql';
import type { DomainEventsSql } from '../domain-events/domain-events.sql';
import { orderEventData } from './order-event-data.sql';
import { countOrderSql, ORDER_COUNTED } from './order-count.sql';
import { LedgerSql } from '../stock-ledger/stock-ledger';
import { enqueueSql } from '../outbox/outbox';
import { NamedParameters } from '../database/named-parameters';
import type { Prepared } from '../database/prepared';
import { newOrderHash } from './order-identity';
import type { NewOrder, OrderFacts } from './new-order';
import { normalizePhone, parseFullName } from './recipient-parsing';
import { normalizeEmail } from '../common/validation/email';

/*
 * The statements that write orders, and the parameters they take by name: the order's own values
 * (orderValues), then each statement's lines and extras.
 */

/** What orderValues() gives, first in both statements, and the column each is written to. */
const ORDER_COLUMN_OF = {
  brandId: 'brand_id',
  hash: 'hash',
  source: 'source',
  partnerOrderId: 'partner_order_id',
  status: 'status',
  paymentStatus: 'payment_status',
  orderedAt: 'ordered_at',
  deliveryCostKopeks: 'delivery_cost_kopeks',
  promoCode: 'promo_code',
  comment: 'comment',
  recipientFullName: 'recipient_full_name',
  recipientSurname: 'recipient_surname',
  recipientFirstName: 'recipient_first_name',
  recipientPatronymic: 'recipient_patronymic',
  recipientPhone: 'recipient_phone',
  recipientPhoneNormalized: 'recipient_phone_normalized',
  recipientEmail: 'recipient_email',
  deliveryCity: 'delivery_city',
  deliveryCityCode: 'delivery_city_code',
  deliveryPvzCode: 'delivery_pvz_code',
  deliveryPvzAddress: 'delivery_pvz_address',
  carrierOrderUuid: 'carrier_order_uuid',
  carrierTrackingNumber: 'carrier_tracking_number',
  waybillUrl: 'waybill_url',
  requestFingerprint: 'request_fingerprint',
} as const;
type OrderField = keyof typeof ORDER_COLUMN_OF;
const ORDER_FIELDS = Object.keys(ORDER_COLUMN_OF) as OrderField[];

export const INSERT_ORDER_PARAMS = new NamedParameters([
  ...ORDER_FIELDS,
  'itemsTotalKopeks',
  'totalKopeks',
  'lineNumbers',
  'productIds',
  'sizeIds',
  'articles',
  'storefrontArticles',
  'sizes',
  'quantities',
  'prices',
] as const);

const STOREFRONT_PARAMS = [
  ...ORDER_FIELDS,
  'storefrontArticles',
  'sizeKeys',
  'quantities',
  'givenPrices',
  'actorKind',
  'actorId',
  'acceptanceMail',
] as const;

export const ACCEPT_STOREFRONT_ORDER_PARAMS = new NamedParameters(STOREFRONT_PARAMS);

/** The same with the key check in the statement: brand and actor come from the key. */
export const ACCEPT_STOREFRONT_ORDER_WITH_KEY_PARAMS = new NamedParameters([
  ...STOREFRONT_PARAMS.filter(
    (name): name is Exclude<(typeof STOREFRONT_PARAMS)[number], 'brandId' | 'actorId'> =>
      name !== 'brandId' && name !== 'actorId',
  ),
  'keyFingerprint',
  'keyPermission',
  'settingsManage',
] as const);

/** The columns orderValues() fills, the order number, then the two sums (items, total) each statement computes its own way. */
const ORDER_COLUMNS = [
  ...ORDER_FIELDS.map((field) => ORDER_COLUMN_OF[field]),
  'order_number',
  'items_total_kopeks',
  'total_kopeks',
].join(', ');
/** orderValues() and the order number drawn, in ORDER_COLUMNS' order. */
const orderValuesSql = (p: Readonly<Record<OrderField, string>>) =>
  [...ORDER_FIELDS.map((field) => p[field]), `nextval('order_number_seq')::text`].join(', ');

/** An order of brand `brand` by its partnerOrderId, with the fingerprint of the request that created it. */
const earlierOrderSql = (brand: string, partnerOrderId: string) =>
  `SELECT id, order_number, hash, total_kopeks, request_fingerprint FROM orders WHERE brand_id = ${brand} AND partner_order_id = ${partnerOrderId}`;

export const FIND_BY_PARTNER_ID: Prepared = { name: 'find_order_by_partner_id', text: earlierOrderSql('$1', '$2') };

const I = INSERT_ORDER_PARAMS.$;

/** A platform order: its lines resolved and priced by the caller (lineArrays()). */
export const INSERT_ORDER: Prepared = {
  name: 'insert_order_with_lines',
  text: `WITH created AS (
         INSERT INTO orders (${ORDER_COLUMNS}, ${ORDER_COUNTED.column})
         VALUES (${orderValuesSql(I)}, ${I.itemsTotalKopeks}, ${I.totalKopeks}, ${ORDER_COUNTED.value})
         ON CONFLICT (brand_id, partner_order_id) DO NOTHING
         RETURNING id, order_number, hash, brand_id
       ), counted AS (${countOrderSql('created')}),
       lines AS (
         INSERT INTO order_items (order_id, line, product_id, size_id, article, storefront_article, size, quantity, price_kopeks, line_total_kopeks)
         SELECT created.id, l.line, l.product_id, l.size_id, l.article, l.storefront_article, l.size, l.quantity, l.price, l.price * l.quantity
           FROM created,
                unnest(${I.lineNumbers}::int[], ${I.productIds}::int[], ${I.sizeIds}::int[], ${I.articles}::text[],
                       ${I.storefrontArticles}::text[], ${I.sizes}::text[], ${I.quantities}::int[], ${I.prices}::bigint[])
                AS l(line, product_id, size_id, article, storefront_article, size, quantity, price)
       )
       SELECT id, order_number, hash FROM created`,
};

/**
 * A storefront order, paid, with its stock, in one statement and so in one implicit transaction:
 * its lines matched to the brand's catalog by storefront article and size, priced
 * (the given price, else the size's, else the product's), the sizes locked in the ledger's order,
 * the order written with stockShortage known, then the stock, the lines, the ledger rows and the
 * acceptance mail, and the events (contract §16): `order.created` and one `stock.changed` a size,
 * with what their subscribers write (DomainEvents), which for a brand with no endpoint is nothing.
 * An order the brand already has with this partnerOrderId is read instead (the
 * repeat check) and nothing is matched, locked or written; so is nothing when a line matches no
 * size ("unmatched": the caller asks the matcher which, for the 422). One round trip instead of
 * a lookup, a matching query, BEGIN, order, stock, mail, COMMIT (docs/performance.md, PERF-17).
 *
 * The answer is one row; its `outcome` is null when nothing happened: a twin committed first
 * (read it with a new snapshot) or, with the key check, the key did not pass. One row with a
 * CASE rather than a UNION ALL arm per outcome: PostgreSQL sets up every arm on every run,
 * whatever it returns.
 */
function acceptStorefrontOrderSql(
  A: Readonly<Record<(typeof STOREFRONT_PARAMS)[number], string>>,
  key: { ctes: string; ok: string; outcome: string } | null,
  events: DomainEventsSql,
  heard: boolean,
): string {
  // Without the subscribers' parts, a brand that listens for one of the statement's events gets no
  // order at all: the answer is `listens`, and the caller runs the statement with them.
  const wanted = events.wanted(A.brandId, [`'order.created'`, `'stock.changed'`]);
  const listens = heard ? 'false' : wanted;
  const parts = heard ? events : events.alone;
  return `WITH ${key ? `${key.ctes},` : ''}
       listens AS (SELECT ${listens} AS yes),
       earlier AS (${earlierOrderSql(A.brandId, A.partnerOrderId)}),
       matched AS (${CatalogSql.matchStorefrontLines({
         brandId: A.brandId,
         lines: CatalogSql.storefrontLinesFrom({
           articles: A.storefrontArticles,
           sizeKeys: A.sizeKeys,
           quantities: A.quantities,
           prices: A.givenPrices,
         }),
         condition: 'NOT EXISTS (SELECT 1 FROM earlier)',
       })}),
       ready AS (SELECT NOT EXISTS (SELECT 1 FROM earlier) AND NOT (SELECT yes FROM listens)
                        AND (SELECT count(*) FROM matched) = cardinality(${A.storefrontArticles}::text[]) AS ok),
       per_size AS (SELECT size_id AS id, -sum(quantity)::int AS delta, min(article) AS article,
                           min(storefront_article) AS storefront_article
                      FROM matched WHERE (SELECT ok FROM ready) GROUP BY size_id),
       locked AS (${LedgerSql.lockSizes('(SELECT array_agg(id) FROM per_size)')}),
       created AS (
         INSERT INTO orders (${ORDER_COLUMNS}, stock_shortage, stock_deducted_at, ${ORDER_COUNTED.column})
         SELECT ${orderValuesSql(A)}, money.items, money.items + ${A.deliveryCostKopeks}::bigint,
                EXISTS (SELECT 1 FROM locked l JOIN per_size d ON d.id = l.id WHERE l.stock + d.delta < 0),
                now(), ${ORDER_COUNTED.value}
           FROM (SELECT sum(price * quantity)::bigint AS items FROM matched) AS money
          WHERE (SELECT ok FROM ready)
         ON CONFLICT (brand_id, partner_order_id) DO NOTHING
         RETURNING id, order_number, hash, total_kopeks, brand_id, partner_order_id, source, status, payment_status,
                   delivery_status, carrier_tracking_number
       ),
       counted AS (${countOrderSql('created')}),
       updated AS (${LedgerSql.addDeltas({ locked: 'locked', changes: 'per_size', brandId: A.brandId, condition: 'EXISTS (SELECT 1 FROM created)', withArticles: true })}),
       lines AS (
         INSERT INTO order_items (order_id, line, product_id, size_id, article, storefront_article, size, quantity, price_kopeks, line_total_kopeks)
         SELECT created.id, m.line, m.product_id, m.size_id, m.article, m.storefront_article, m.size, m.quantity, m.price, m.price * m.quantity
           FROM created, matched m
       ),
       moved AS (${LedgerSql.recordMovements(
         `SELECT ${A.brandId}::int, m.size_id, -m.quantity, 'order', created.id, NULL::int, NULL::text, ${A.actorKind}::text, ${A.actorId}::int
            FROM created, matched m`,
       )}),
       ${parts.appendCtes([
         {
           subject: 'order',
           brandId: 'c.brand_id',
           subjectId: 'c.id',
           type: `'order.created'`,
           data: orderEventData('c'),
           from: 'created AS c',
           first: true,
         },
         LedgerSql.stockEvents({
           updated: 'updated',
           brandId: A.brandId,
           cause: { reason: `'order'`, orderId: '(SELECT id FROM created)', returnId: 'NULL' },
           withArticles: true,
         }),
       ])},
       mail AS (${enqueueSql(
         `SELECT 'mail.order_accepted', jsonb_build_object('orderId', created.id), 'order_accepted:' || created.id FROM created WHERE ${A.acceptanceMail}::boolean`,
       )})
       SELECT CASE WHEN c.id IS NOT NULL THEN 'created'
                   WHEN e.id IS NOT NULL THEN 'earlier'
                   WHEN (SELECT yes FROM listens) THEN 'listens'
                   WHEN NOT (SELECT ok FROM ready)${key ? ` AND ${key.ok}` : ''} THEN 'unmatched' END AS outcome,
              COALESCE(c.id, e.id) AS id, COALESCE(c.order_number, e.order_number) AS order_number,
              COALESCE(c.hash, e.hash) AS hash, COALESCE(c.total_kopeks, e.total_kopeks) AS total_kopeks,
              e.request_fingerprint, ${parts.written} AS written${key ? `, ${key.outcome} AS key_check` : ''}
         FROM (SELECT 1) AS one LEFT JOIN created c ON true LEFT JOIN earlier e ON true`;
}

const K = ACCEPT_STOREFRONT_ORDER_WITH_KEY_PARAMS.$;

/** The storefront statement with the integration key check (PendingKeyCheck) in it. */
const withKey = (events: DomainEventsSql, heard: boolean) =>
  acceptStorefrontOrderSql(
    { ...K, brandId: '(SELECT brand_id FROM key_ok)', actorId: '(SELECT id FROM key_ok)' },
    {
      ctes: KeyCheckSql.ctes({
        fingerprint: K.keyFingerprint,
        permission: K.keyPermission,
        settingsManage: K.settingsManage,
      }),
      ok: 'EXISTS (SELECT 1 FROM key_ok)',
      outcome: KeyCheckSql.outcome,
    },
    events,
    heard,
  );

/**
 * The storefront statements, with the domain events' parts as the application's subscribers
 * made them (DomainEvents.sql), so they are built on first use.
 */
export function storefrontStatements(events: DomainEventsSql) {
  const A = ACCEPT_STOREFRONT_ORDER_PARAMS.$;
  return {
    /** Takes ACCEPT_STOREFRONT_ORDER_PARAMS. */
    plain: {
      full: { name: 'accept_storefront_order', text: acceptStorefrontOrderSql(A, null, events, true) },
      /**
       * The same without the subscribers' parts (the events are recorded all the same), for a
       * brand that has no subscriber for them: PostgreSQL sets up every part of a statement on
       * each run, written to or not (docs/performance.md, PERF-17). Answers `listens`, writing
       * nothing, for a brand that has one.
       */
      unheard: { name: 'accept_storefront_order_unheard', text: acceptStorefrontOrderSql(A, null, events, false) },
    },
    /**
     * Takes ACCEPT_STOREFRONT_ORDER_WITH_KEY_PARAMS. The brand and the ledger's actor are the
     * key's, so for a key that fails the check every part finds nothing and writes nothing; the
     * answer's row also carries `key_check`, the check's outcome. One round trip for a new
     * order instead of two.
     */
    withKey: {
      full: { name: 'accept_storefront_order_with_key', text: withKey(events, true) },
      unheard: { name: 'accept_storefront_order_with_key_unheard', text: withKey(events, false) },
    },
  } satisfies Record<string, StorefrontPair>;
}

/** A storefront statement with its subscribers' parts and without them (for a brand none listens to). */
export interface StorefrontPair {
  full: Prepared;
  unheard: Prepared;
}

/** The order's own parameters of both statements: everything but the lines and the two sums. */
export function orderValues(order: OrderFacts): Record<OrderField, unknown> {
  const name = parseFullName(order.recipient.fullName);
  return {
    brandId: order.brandId,
    hash: newOrderHash(),
    source: order.source,
    partnerOrderId: order.partnerOrderId,
    status: order.status,
    paymentStatus: order.paymentStatus,
    orderedAt: order.orderedAt,
    deliveryCostKopeks: order.delivery?.deliveryCostKopeks ?? 0,
    promoCode: order.promoCode ?? null,
    comment: order.comment ?? null,
    recipientFullName: order.recipient.fullName.trim(),
    recipientSurname: name.surname,
    recipientFirstName: name.firstName,
    recipientPatronymic: name.patronymic,
    recipientPhone: order.recipient.phone,
    recipientPhoneNormalized: normalizePhone(order.recipient.phone),
    recipientEmail: order.recipient.email ? normalizeEmail(order.recipient.email) : null,
    deliveryCity: order.delivery?.city ?? '',
    deliveryCityCode: order.delivery?.cityCode ?? null,
    deliveryPvzCode: order.delivery?.pvzCode ?? null,
    deliveryPvzAddress: order.delivery?.pvzAddress ?? null,
    carrierOrderUuid: order.carrierOrderUuid ?? null,
    carrierTrackingNumber: order.carrierTrackingNumber ?? null,
    waybillUrl: order.waybillUrl ?? null,
    requestFingerprint: order.requestFingerprint ?? null,
  };
}

/** The lines as parallel arrays, for unnest in INSERT_ORDER. */
export function lineArrays(order: NewOrder) {
  return {
    lineNumbers: order.lines.map((_, i) => i + 1),
    productIds: order.lines.map((l) => l.productId),
    sizeIds: order.lines.map((l) => l.sizeId),
    articles: order.lines.map((l) => l.article),
    storefrontArticles: order.lines.map((l) => l.storefrontArticle),
    sizes: order.lines.map((l) => l.size),
    quantities: order.lines.map((l) => l.quantity),
    prices: order.lines.map((l) => l.priceKopeks),
  };
}
