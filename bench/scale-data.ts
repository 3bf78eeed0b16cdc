import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { SecretBox } from '../src/common/secrets/secret-box';
import { isoTimestampSql } from '../src/database/iso-timestamp.sql';
import { eventDataOf } from '../src/domain-events/domain-events.sql';
import { orderEventData } from '../src/orders/order-event-data.sql';
import type { ReturnEventData } from '../src/returns/dto/return-event-data';
import { STOCK_EVENT_COLUMNS } from '../src/stock-ledger/stock-event-columns';
import { messageBody } from '../src/webhooks/webhooks.sql';

/*
 * The large store of `npm run bench:scale`: years of one brand's history written by bulk SQL, as
 * the service would hold it. Every row passes the schema's constraints, domains, triggers and
 * foreign keys as they are; nothing is switched off. The per-row foreign key checks are most of
 * the cost, so two connections share the large tables, each its half, with explicit ids.
 *
 * An order's life (payment, carrier steps, a return) is drawn from its number by a hash, so
 * either connection writes any order, its lines or its return without the other. The ledger and
 * the events are then read back from the rows written: an order's events from its state columns
 * (orderTimeline), a size's from its ledger rows. Those of the last EVENTS_WINDOW_DAYS are
 * written; the older ones count as pruned (and give the subjects' floors). addPrunableMonth
 * writes a month of them back, with ids in a gap left below the build's and positions below its
 * positions, as if the pruning were a month behind.
 */

export interface LargeStoreTarget {
  url: string;
  bigBrandId: number;
  endpointId?: never;
}

type Log = (line: string) => void;

const SIZES_IN_ALL = 100_000;
const SIZE_NAMES = ['XS', 'S', 'M', 'L', 'XL'];
/** How often each size is bought, in SIZE_NAMES' order (cumulative). */
const SIZE_POPULARITY = [0.1, 0.3, 0.6, 0.85];
const ORDERS = 1_000_000;
/** Uniform picks among these give about 300 000 distinct buyers over ORDERS. */
const BUYERS = 311_000;
const PLATFORM_SHARE = 0.1;
const MOVEMENTS_IN_ALL = 5_000_000;
const KEYS = 1_000;
const JOURNAL_ENTRIES = 200_000;
const HISTORY_DAYS = 1095;
/** The events kept: the default retention is 90 days, and a bench run lasts hours, not days. */
const EVENTS_WINDOW_DAYS = 85;
/** The webhook messages kept (retention 30 days), and at most how many. */
const MESSAGES_WINDOW_DAYS = 29;
const MESSAGES = 500_000;
/** The request log kept (retention 30 days). */
const REQUEST_LOG_DAYS = 29.5;
const FAILURES_PER_KEY = 300;
/** The order events the brand's endpoint was subscribed to: about MESSAGES in MESSAGES_WINDOW_DAYS. */
const ENDPOINT_EVENT_TYPES = [
  'order.created',
  'order.paid',
  'order.delivery_status_changed',
  'order.shipped',
  'order.completed',
  'order.returned',
  'order.cancelled',
];
/** Ids left free below the build's rows, for addPrunableMonth (which needs fewer). */
const RESERVED_IDS = {
  domain_events: 2_500_000,
  webhook_messages: 800_000,
  webhook_deliveries: 800_000,
  request_failures: 500_000,
};
/**
 * Events written a transaction: positions are transaction ids consumed for them (a busy store's
 * transactions write a handful each; what matters is that they only grow with time). The first
 * PRUNABLE_POSITIONS of those consumed are left to the pruned month.
 */
const EVENTS_PER_POSITION = 150;
const PRUNABLE_POSITIONS = 10_000;
const CHUNK = 500_000;

/**
 * The share of all orders taken by each moment (days ago): a brand that grew to about 5 000 orders
 * a day in its last four months, which gives the events API its 3 million order events in 85 days.
 */
const ORDER_GROWTH: ReadonlyArray<readonly [daysAgo: number, share: number]> = [
  [HISTORY_DAYS, 0],
  [730, 0.06],
  [365, 0.17],
  [180, 0.3],
  [120, 0.39],
  [0.003, 1],
];

const CARRIER_STEPS = ['accepted', 'in_transit', 'arrived', 'delivered'];

/** Fills the big brand (already created through the API, with ~200 products of 5 sizes each, a few integration keys, a production site) with years of data, by bulk SQL (INSERT … SELECT generate_series), in a few minutes. */
export async function buildLargeStore(url: string, bigBrandId: number, log: (line: string) => void): Promise<void> {
  const started = Date.now();
  const [a, b] = await Promise.all([Session.open(url, log), Session.open(url, log)]);
  try {
    const p = await planFor(a, bigBrandId);
    await fillCatalog(a, p);
    await fillOrders(a, b, p);
    await Promise.all([
      fillReturns(a, p),
      (async () => {
        await fillKeys(b, p);
        await fillEndpoint(b, p);
      })(),
    ]);
    await fillRequestLog(a, b, p);
    await fillLedger(a, b, p);
    const events = await fillEvents(a, b, p);
    await Promise.all([
      (async () => {
        await fillFloors(a, p, events);
        await settleSizes(a, p, events);
      })(),
      fillMessages(b, p),
    ]);
    await Promise.all([a.vacuum(VACUUMED_BY_FIRST), b.vacuum(VACUUMED_BY_SECOND)]);
    log(`large store built in ${seconds(started)} s`);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
}

/** Adds one month of history that is past its retention: domain events 91–120 days old (about 1 million), request-log rows 31–60 days old for the same 1000 keys, webhook messages + deliveries 31–60 days old (about 500 000): what a month of pruning removes. Returns counts inserted per table. */
export async function addPrunableMonth(
  url: string,
  bigBrandId: number,
  log: (line: string) => void,
): Promise<Record<string, number>> {
  const [a, b] = await Promise.all([Session.open(url, log), Session.open(url, log)]);
  try {
    const brand = await brandOf(a, bigBrandId);
    const t0 = `'${(await a.one<{ now: Date }>('SELECT now()')).now.toISOString()}'::timestamptz`;
    const [events, rest] = await Promise.all([
      prunableEvents(a, brand, t0),
      (async () => ({ ...(await prunableMessages(b, brand, t0)), ...(await prunableRequestLog(b, brand, t0)) }))(),
    ]);
    return { domain_events: events, ...rest };
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
}

/** The tables the build fills, in two shares of about the same size: one for each connection to vacuum. */
const VACUUMED_BY_FIRST = ['domain_events', 'order_items', 'products', 'product_sizes', 'returns', 'return_items'];
const VACUUMED_BY_SECOND = [
  'orders',
  'stock_movements',
  'webhook_messages',
  'webhook_deliveries',
  'request_counts',
  'request_failures',
  'security_journal',
  'integration_keys',
  'webhook_endpoints',
  'acceptances',
  'brand_order_counts',
  'return_numbers',
  'domain_event_floors',
];

/** A connection of the build: its temporary tables carry what it drew from one step to the next. */
class Session {
  private constructor(
    private readonly client: Client,
    readonly log: Log,
  ) {}

  static async open(url: string, log: Log): Promise<Session> {
    const client = new Client({ connectionString: url });
    await client.connect();
    // A crash loses the last commits, which a rebuild writes again; the sorts and hashes of a
    // million rows stay in memory; temporary tables are this connection's working set; JIT
    // would compile the long expressions below again for every statement.
    await client.query(`SET synchronous_commit = off; SET work_mem = '256MB'; SET maintenance_work_mem = '512MB';
                        SET temp_buffers = '1GB'; SET jit = off`);
    return new Session(client, log);
  }

  /** Statements without an answer, several in one text when need be. */
  async exec(text: string): Promise<void> {
    await this.client.query(text);
  }

  async rows<T>(text: string, params: unknown[] = []): Promise<T[]> {
    return (await this.client.query(text, params)).rows as T[];
  }

  async one<T>(text: string, params: unknown[] = []): Promise<T> {
    return (await this.rows<T>(text, params))[0];
  }

  /** Runs statements (each its own transaction) and gives how many rows they wrote. */
  async fill(...texts: string[]): Promise<number> {
    let rows = 0;
    for (const text of texts) rows += (await this.client.query(text)).rowCount ?? 0;
    return rows;
  }

  /** The same over `total` rows numbered from 1, a statement per `size` of them. */
  inChunks(total: number, text: (from: number, to: number) => string, size = CHUNK): Promise<number> {
    const texts: string[] = [];
    for (let from = 1; from <= total; from += size) texts.push(text(from, Math.min(total, from + size - 1)));
    return this.fill(...texts);
  }

  async transaction(texts: string[]): Promise<number> {
    await this.client.query('BEGIN');
    try {
      const rows = await this.fill(...texts);
      await this.client.query('COMMIT');
      return rows;
    } catch (error) {
      await this.client.query('ROLLBACK');
      throw error;
    }
  }

  /** VACUUM ANALYZE of those of `tables` the schema has. */
  async vacuum(tables: readonly string[]): Promise<void> {
    for (const table of tables) {
      const started = Date.now();
      if (!(await this.one<{ found: boolean }>(`SELECT to_regclass($1) IS NOT NULL AS found`, [table])).found) continue;
      await this.exec(`VACUUM (ANALYZE) ${table}`);
      this.report(`VACUUM ANALYZE ${table}`, 1, started, 'tbl ');
    }
  }

  report(what: string, rows: number, started: number, unit = 'rows'): void {
    this.log(`${what.padEnd(36)} ${String(rows).padStart(9)} ${unit} ${seconds(started).padStart(7)} s`);
  }

  async close(): Promise<void> {
    await this.client.end();
  }
}

/**
 * Waits for the parts that fill `table` (on one connection or both), then analyzes it (the next
 * statements join it: a plan made on the statistics of an empty table loops over millions of
 * rows) and logs its rows and time.
 */
async function step(db: Session, table: string, ...parts: Array<Promise<number>>): Promise<number> {
  const started = Date.now();
  const rows = (await Promise.all(parts)).reduce((sum, n) => sum + n, 0);
  if (/^\w+$/.test(table)) await db.exec(`ANALYZE ${table}`);
  db.report(table, rows, started);
  return rows;
}

const seconds = (since: number) => ((Date.now() - since) / 1000).toFixed(1);
const quoted = (text: string) => `'${text.replace(/'/g, "''")}'`;
const array = (values: readonly string[]) => `ARRAY[${values.map(quoted).join(', ')}]`;
/** values[index mod length], `index` an SQL integer expression that is never negative. */
const pick = (values: readonly string[], index: string) => `(${array(values)})[1 + ((${index}) % ${values.length})]`;
/** The first index (0-based) whose cumulative share `r` falls below, the last one else. */
const bucket = (r: string, cumulative: readonly number[]) =>
  `(CASE ${cumulative.map((c, i) => `WHEN ${r} < ${c} THEN ${i}`).join(' ')} ELSE ${cumulative.length} END)`;
const TWO_53 = 2 ** 53;
/** A uniform draw in [0, 1) for row `i` (an SQL integer): the same for the same `i` and `k`, in every statement. */
const draw = (i: string, k: number) => `((hashint8extended((${i})::bigint, ${k}) & ${TWO_53 - 1})::float8 / ${TWO_53})`;
const HOUR = `interval '1 hour'`;
const DAY = `interval '1 day'`;
const ago = (t0: string, days: string | number) => `(${t0} - (${days}) * ${DAY})`;

/** The days ago of a moment drawn by `u` in [0, 1) along ORDER_GROWTH. */
const daysAgoAt = (u: string) => {
  const parts = ORDER_GROWTH.slice(1).map(([days, share], k) => {
    const [fromDays, fromShare] = ORDER_GROWTH[k];
    return `WHEN ${u} < ${share} THEN ${fromDays} + (${u} - ${fromShare}) / ${share - fromShare} * (${days - fromDays})`;
  });
  return `(CASE ${parts.join(' ')} ELSE ${ORDER_GROWTH[ORDER_GROWTH.length - 1][0]} END)`;
};

interface Brand {
  id: number;
}

interface Plan extends Brand {
  /** The build's now, as an SQL literal: every time is placed from it. */
  t0: string;
  admin: number;
  site: number;
  siteKey: number | null;
  storefrontKey: number | null;
  catalogKey: number | null;
  /** Products added; where the new ids of each table start. */
  products: number;
  firstProduct: number;
  firstSize: number;
  firstOrder: number;
  firstOrderNumber: number;
  firstAcceptance: number;
  firstMovement: number;
  firstKey: number;
  endpoint: number;
}

async function brandOf(db: Session, brandId: number): Promise<Brand> {
  if (!Number.isSafeInteger(brandId)) throw new Error(`brand id ${brandId} is not an integer`);
  const found = await db.one<{ id: number } | undefined>(`SELECT id FROM brands WHERE id = $1`, [brandId]);
  if (!found) throw new Error(`brand ${brandId} does not exist`);
  return { id: brandId };
}

/** Who acts in the history (the brand's keys, its site, a staff member) and where each table's new ids start. */
async function planFor(db: Session, brandId: number): Promise<Plan> {
  const { id } = await brandOf(db, brandId);
  const keyWith = (permission: string) =>
    `(SELECT id FROM integration_keys WHERE brand_id = ${id} AND revoked_at IS NULL
         AND (full_access OR '${permission}' = ANY (permissions)) ORDER BY id LIMIT 1)`;
  const next = (table: string) => `(SELECT COALESCE(max(id), 0) + 1 FROM ${table})`;
  const found = await db.one<Omit<Plan, 'id' | 't0' | 'products' | 'endpoint'> & { t0: Date; sizes: number }>(
    `SELECT now() AS t0,
            COALESCE((SELECT user_id FROM memberships WHERE brand_id = ${id} ORDER BY user_id LIMIT 1),
                     (SELECT id FROM users WHERE is_superadmin AND active ORDER BY id LIMIT 1)) AS admin,
            (SELECT id FROM production_sites WHERE brand_id = ${id} ORDER BY id LIMIT 1) AS site,
            (SELECT k.id FROM site_keys k JOIN production_sites s ON s.id = k.site_id
              WHERE s.brand_id = ${id} AND k.revoked_at IS NULL ORDER BY k.id LIMIT 1) AS "siteKey",
            ${keyWith('orders.create_partner')} AS "storefrontKey", ${keyWith('products.write')} AS "catalogKey",
            (SELECT count(*)::int FROM product_sizes WHERE brand_id = ${id}) AS sizes,
            ${next('products')} AS "firstProduct", ${next('product_sizes')} AS "firstSize",
            ${next('orders')} AS "firstOrder", nextval('order_number_seq')::int AS "firstOrderNumber",
            ${next('acceptances')} AS "firstAcceptance", ${next('stock_movements')}::int AS "firstMovement",
            ${next('integration_keys')} AS "firstKey"`,
  );
  if (found.admin === null) throw new Error('no superadministrator and no member of the brand to act in its history');
  if (found.site === null) throw new Error(`brand ${id} has no production site`);
  const products = Math.ceil((SIZES_IN_ALL - found.sizes) / SIZE_NAMES.length);
  if (products < 1000) throw new Error(`brand ${id} has ${found.sizes} sizes already`);
  const { sizes: _sizes, t0, ...rest } = found;
  return { ...rest, id, t0: `'${t0.toISOString()}'::timestamptz`, products, endpoint: 0 };
}

/* ---------------------------------------------------------------------------------------------
 * The catalog. Product j (0-based) has the id firstProduct + j and sizes firstSize + 5j + s; a
 * quarter of them were there when the first order came, the rest added until 100 days ago. What
 * an order may buy at a moment is then a prefix of them, so lines are drawn without a lookup.
 */

const INITIAL_CATALOG = 0.25;

const catalogShape = (p: Plan) => {
  const initial = Math.round(p.products * INITIAL_CATALOG);
  const later = p.products - initial;
  const span = HISTORY_DAYS - 105;
  return {
    /** Days ago product `j` was created. */
    createdDaysAgo: (j: string) =>
      `(CASE WHEN ${j} < ${initial} THEN ${HISTORY_DAYS + 5} - ${j} * 5.0 / ${initial}
             ELSE ${HISTORY_DAYS - 5} - (${j} - ${initial})::float8 / ${later} * ${span} END)`,
    /** How many products existed `days` ago. */
    existing: (days: string) =>
      `(${initial} + floor(${later} * LEAST(1, GREATEST(0, (${HISTORY_DAYS - 5} - (${days})) / ${span}))))::int`,
  };
};

const productId = (p: Plan, j: string) => `(${p.firstProduct} + ${j})`;
const sizeId = (p: Plan, j: string, s: string) => `(${p.firstSize} + 5 * (${j}) + ${s})`;
const articleOf = (j: string) => `('A-' || (100000 + ${j}))`;
const storefrontArticleOf = (j: string) => `('SF-' || (100000 + ${j}))`;
const priceOf = (j: string) => `((19 + ((${j})::bigint * 7919) % 111) * 10000)`;
const sizeNameOf = (s: string) => pick(SIZE_NAMES, s);

const KINDS = ['Футболка', 'Худи', 'Свитшот', 'Джинсы', 'Брюки', 'Платье', 'Юбка', 'Куртка', 'Рубашка', 'Шорты'];
const LINES = ['Nord', 'Urban', 'Basic', 'Soft', 'Studio', 'Line', 'Core', 'Wave', 'Field', 'Metro', 'Dune'];
const COLOURS = ['графит', 'молоко', 'хаки', 'индиго', 'песок', 'бордо', 'олива', 'антрацит', 'пудра', 'айвори'];

async function fillCatalog(db: Session, p: Plan): Promise<void> {
  const shape = catalogShape(p);
  const created = `${ago(p.t0, shape.createdDaysAgo('j'))}`;
  const materials = ['хлопок 100%', 'хлопок 95%, эластан 5%', 'вискоза 70%, полиэстер 30%', 'шерсть 50%, акрил 50%'];
  await step(
    db,
    'products',
    db.fill(
      `INSERT INTO products (id, brand_id, name, article, storefront_article, price_kopeks, attributes, created_at, updated_at)
       SELECT ${productId(p, 'j')}, ${p.id},
              ${pick(KINDS, 'j')} || ' ' || ${pick(LINES, 'j / 10')} || ' ' || ${pick(COLOURS, 'j / 110')},
              ${articleOf('j')}, ${storefrontArticleOf('j')}, ${priceOf('j')},
              jsonb_build_object('colour', ${pick(COLOURS, 'j / 110')}, 'composition', ${pick(materials, 'j / 7')}),
              ${created}, ${created}
         FROM generate_series(0, ${p.products - 1}) AS j ORDER BY j`,
    ),
  );
  await step(
    db,
    'product_sizes',
    db.fill(
      `INSERT INTO product_sizes (id, product_id, brand_id, name, name_key, stock, created_at)
       SELECT ${sizeId(p, 'j', 's')}, ${productId(p, 'j')}, ${p.id}, ${sizeNameOf('s')}, lower(${sizeNameOf('s')}), 0, ${created}
         FROM generate_series(0, ${p.products - 1}) AS j, generate_series(0, 4) AS s ORDER BY j, s`,
    ),
  );
  await db.exec(`SELECT setval(pg_get_serial_sequence('products', 'id'), (SELECT max(id) FROM products));
                 SELECT setval(pg_get_serial_sequence('product_sizes', 'id'), (SELECT max(id) FROM product_sizes))`);
}

/* ---------------------------------------------------------------------------------------------
 * The orders. Each has the life drawn for it by orderPlan: payment, carrier steps over a few
 * days, maybe a return; what stands at t0 is written, the rest is to come.
 */

/**
 * Order number `i` (an SQL integer, 1 to ORDERS) and the life drawn for it, as the row `o`: its
 * lines (j, s, q: product, size, quantity), when each step was to come in hours after its
 * creation (`_h`), and where it stands at t0. Each level is computed once a row (OFFSET 0): the
 * planner would otherwise inline every column into those built on it, over and over (0.4 ms an order).
 */
function orderPlan(p: Plan, i: string): string {
  const shape = catalogShape(p);
  const draws = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 18, 19, 20, 21, 22, 23]
    .map((k) => `${draw(i, k)} AS r${k}`)
    .join(', ');
  const size = (k: number) => bucket(`a.r${k}`, SIZE_POPULARITY);
  const quantity = (k: number) => `(${bucket(`a.r${k}`, [0.78, 0.96])} + 1)`;
  const lines = (value: (line: 1 | 2 | 3) => string) =>
    `${value(1)} + CASE WHEN b.n >= 2 THEN ${value(2)} ELSE 0 END + CASE WHEN b.n >= 3 THEN ${value(3)} ELSE 0 END`;
  const at = (hours: string) => `e.created_at + ${hours} * ${HOUR}`;
  // Return steps, in days after the delivery: created, decided (declined or cancelled), approved, received, refunded, closed.
  const returned = (days: string) => `d.deliv_h + 24 * (${days})`;
  const received = '4.2 + 13 * d.r7 + 1.8 * d.r8 + 7 * d.r9';
  // Each level reads the one before it, named in its columns.
  const levels: Array<[alias: string, columns: string]> = [
    ['u', `${shape.existing('t.days')} AS catalog`],
    [
      'a',
      `${i} AS i, ${p.firstOrder} + ${i} - 1 AS id, ${p.firstOrderNumber} + ${i} - 1 AS order_number,
       ${ago(p.t0, 'u.days')} AS created_at, u.days * 24 AS now_h, ${draw(i, 1)} < ${PLATFORM_SHARE} AS platform,
       floor(${draw(i, 15)} * ${BUYERS})::int AS buyer,
       1 + (${draw(i, 16)} >= 0.4)::int + (${draw(i, 16)} >= 0.75)::int AS n,
       floor(${draw(i, 17)} * u.catalog)::int AS j1, ${draws}`,
    ],
    [
      'b',
      `(a.j1 + 97) % a.catalog AS j2, (a.j1 + 194) % a.catalog AS j3,
       ${size(18)} AS s1, ${size(19)} AS s2, ${size(20)} AS s3,
       ${quantity(21)} AS q1, ${quantity(22)} AS q2, ${quantity(23)} AS q3,
       CASE WHEN a.platform AND a.r2 < 0.86 THEN 0.05 + 47.95 * a.r3 * a.r3 END AS paid_h,
       CASE WHEN a.platform AND a.r2 >= 0.86 AND a.r2 < 0.94 THEN 1 + 71 * a.r3
            WHEN NOT a.platform AND a.r2 < 0.025 THEN (0.5 + 23.5 * a.r4) * a.r3 END AS cancel_h`,
    ],
    [
      'c',
      `(${lines((l) => `${priceOf(`b.j${l}`)} * b.q${l}`)})::bigint AS items_total, ${lines((l) => `b.q${l}`)} AS units,
       CASE WHEN b.cancel_h IS NULL
            THEN CASE WHEN b.platform THEN b.paid_h ELSE 0 END + 0.5 + 23.5 * b.r4 END AS reg_h`,
    ],
    [
      'd',
      `c.reg_h + 24 * (1.5 + 8 * c.r5) AS deliv_h,
       CASE WHEN c.reg_h IS NULL THEN 0 WHEN c.r6 < 0.009 THEN 1 WHEN c.r6 < 0.021 THEN 2 ELSE 0 END AS ret_kind_plan,
       CASE WHEN c.r6 < 0.009 OR (c.units > 1 AND c.r12 >= 0.25) THEN 'received'
            WHEN c.r12 < 0.15 OR (c.units = 1 AND c.r12 < 0.6) THEN 'declined' ELSE 'canceled' END AS ret_path`,
    ],
    [
      'e',
      `CASE WHEN d.reg_h <= d.now_h
            THEN LEAST(4, floor(4 * (d.now_h - d.reg_h) / (d.deliv_h - d.reg_h)))::int ELSE 0 END AS steps,
       ${returned('1 + 13 * d.r7')} AS ret_created_h, ${returned('1.5 + 13 * d.r7 + 2.5 * d.r8')} AS ret_decided_h,
       ${returned('1.2 + 13 * d.r7 + 1.8 * d.r8')} AS ret_approved_h, ${returned(received)} AS ret_received_h,
       ${returned(`${received} + 2 * d.r10`)} AS ret_refunded_h,
       CASE WHEN d.r11 < 0.5 THEN ${returned(`${received} + 1 + 2 * d.r10 + 4 * d.r11`)} END AS ret_closed_h`,
    ],
    [
      'o',
      `CASE WHEN e.paid_h <= e.now_h THEN ${at('e.paid_h')} END AS paid_at,
       CASE WHEN e.cancel_h <= e.now_h THEN ${at('e.cancel_h')} END AS cancelled_at,
       CASE WHEN e.reg_h <= e.now_h THEN ${at('e.reg_h')} END AS reg_at,
       CASE WHEN e.steps > 0 THEN ${at('(e.reg_h + (e.deliv_h - e.reg_h) * e.steps / 4.0)')} END AS delivery_status_at,
       CASE WHEN e.ret_kind_plan > 0 AND e.ret_created_h <= e.now_h THEN e.ret_kind_plan ELSE 0 END AS ret_kind,
       CASE WHEN e.ret_kind_plan = 1 AND e.ret_received_h <= e.now_h THEN ${at('e.ret_received_h')} END AS returned_at`,
    ],
  ];
  const base = `(SELECT ${daysAgoAt(`((${i}) - 0.5) / ${ORDERS}`)} AS days OFFSET 0) AS t`;
  const plan = levels.reduce(
    (inner, [alias, columns], k) =>
      `(SELECT ${k === 0 ? 't' : levels[k - 1][0]}.*, ${columns}\n FROM ${inner} OFFSET 0) AS ${alias}`,
    base,
  );
  return `LATERAL ${plan}`;
}

/** [from, to] in ranges of `size`. */
function ranges(from: number, to: number, size: number): Array<[number, number]> {
  const all: Array<[number, number]> = [];
  for (let start = from; start <= to; start += size) all.push([start, Math.min(to, start + size - 1)]);
  return all;
}

async function fillOrders(a: Session, b: Session, p: Plan): Promise<void> {
  const status = `CASE WHEN o.cancelled_at IS NOT NULL THEN 'cancelled' WHEN o.platform AND o.paid_at IS NULL THEN 'new'
                       WHEN o.steps = 0 THEN 'paid' WHEN o.steps < 4 THEN 'shipped'
                       WHEN o.returned_at IS NOT NULL THEN 'returned' ELSE 'completed' END`;
  const delivery = `CASE WHEN o.items_total >= 500000 THEN 0 ELSE (ARRAY[29900, 34900, 39900])[1 + o.buyer % 3] END`;
  const orders = (from: number, to: number) =>
    `INSERT INTO orders (id, brand_id, order_number, hash, source, partner_order_id, status, payment_status, delivery_status,
                         ordered_at, created_at, items_total_kopeks, delivery_cost_kopeks, total_kopeks, promo_code, comment,
                         recipient_full_name, recipient_surname, recipient_first_name, recipient_patronymic, recipient_phone,
                         recipient_phone_normalized, recipient_email, delivery_city, delivery_city_code, delivery_pvz_code,
                         delivery_pvz_address, carrier_order_uuid, carrier_tracking_number, stock_deducted_at,
                         request_fingerprint, paid_at, delivery_status_at, carrier_registration_started_at, cancelled_at,
                         cancel_reason, updated_at, counted)
     SELECT o.id, ${p.id}, o.order_number::text, rtrim(translate(encode(uuid_send(gen_random_uuid()), 'base64'), '+/', '-_'), '='),
            CASE WHEN o.platform THEN 'platform' ELSE 'storefront' END,
            CASE WHEN NOT o.platform THEN (10000000 + o.i)::text END,
            ${status}, CASE WHEN o.platform AND o.paid_at IS NULL THEN 'pending' ELSE 'paid' END,
            (${array(CARRIER_STEPS)})[NULLIF(o.steps, 0)],
            o.created_at - CASE WHEN o.platform THEN interval '0' ELSE o.r14 * interval '10 minutes' END, o.created_at,
            o.items_total, ${delivery}, o.items_total + ${delivery},
            CASE WHEN NOT o.platform AND o.r13 < 0.08 THEN ${pick(PROMO_CODES, 'o.i')} END,
            CASE WHEN o.r14 < 0.05 THEN ${pick(COMMENTS, 'o.i')} END,
            u.full_name, u.surname, u.first_name, u.patronymic, u.phone, u.phone_normalized, u.email,
            u.city, u.city_code, u.pvz_code, u.pvz_address,
            CASE WHEN o.reg_at IS NOT NULL THEN gen_random_uuid()::text END,
            CASE WHEN o.reg_at IS NOT NULL THEN (1000000000 + o.id)::text END,
            CASE WHEN o.platform THEN o.paid_at ELSE o.created_at END,
            CASE WHEN NOT o.platform THEN encode(sha256(convert_to('order ' || o.id || ' ' || o.buyer, 'UTF8')), 'hex') END,
            o.paid_at, o.delivery_status_at, o.reg_at, o.cancelled_at,
            CASE WHEN o.cancelled_at IS NOT NULL AND o.i % 3 < 2
                 THEN CASE WHEN o.platform THEN 'Заказ не оплачен' ELSE ${pick(CANCEL_REASONS, 'o.i')} END END,
            GREATEST(o.created_at, o.paid_at, o.delivery_status_at, o.cancelled_at, o.returned_at), true
       FROM generate_series(${from}, ${to}) AS g(i) CROSS JOIN ${orderPlan(p, 'g.i')}
            CROSS JOIN LATERAL ${buyerOf('o.buyer')} AS u
      ORDER BY g.i`;
  // Counted by the statement's transaction itself (ORDER_COUNTED), as the service's statements count theirs.
  const counted = (from: number, to: number) =>
    `INSERT INTO brand_order_counts (brand_id, slot, orders) VALUES (${p.id}, pg_backend_pid() % 64, ${to - from + 1})
     ON CONFLICT (brand_id, slot) DO UPDATE SET orders = brand_order_counts.orders + EXCLUDED.orders`;
  const write = async (db: Session, from: number, to: number) => {
    let rows = 0;
    for (const [start, end] of ranges(from, to, 250_000))
      rows += (await db.transaction([orders(start, end), counted(start, end)])) - 1;
    return rows;
  };
  const half = ORDERS / 2;
  await step(a, 'orders', write(a, 1, half), write(b, half + 1, ORDERS));
  await a.exec(`SELECT setval(pg_get_serial_sequence('orders', 'id'), (SELECT max(id) FROM orders));
                SELECT setval('order_number_seq', ${p.firstOrderNumber + ORDERS - 1})`);

  // A line's units are back once its return was received (a partial return takes one unit of the first line).
  const returned = `CASE WHEN o.returned_at IS NOT NULL THEN l.q
                         WHEN o.ret_kind = 2 AND o.ret_path = 'received' AND o.ret_received_h <= o.now_h AND l.line = 1 THEN 1
                         ELSE 0 END`;
  const items = (from: number, to: number) =>
    `INSERT INTO order_items (order_id, line, product_id, size_id, article, storefront_article, size, quantity,
                              price_kopeks, line_total_kopeks, returned_quantity)
     SELECT o.id, l.line, ${productId(p, 'l.j')}, ${sizeId(p, 'l.j', 'l.s')}, ${articleOf('l.j')},
            ${storefrontArticleOf('l.j')}, ${sizeNameOf('l.s')}, l.q, ${priceOf('l.j')}, ${priceOf('l.j')} * l.q, ${returned}
       FROM generate_series(${from}, ${to}) AS g(i) CROSS JOIN ${orderPlan(p, 'g.i')}
            CROSS JOIN LATERAL (VALUES (1, o.j1, o.s1, o.q1), (2, o.j2, o.s2, o.q2), (3, o.j3, o.s3, o.q3)) AS l(line, j, s, q)
      WHERE l.line <= o.n ORDER BY g.i, l.line`;
  const lines = (db: Session, from: number, to: number) =>
    db.fill(...ranges(from, to, 250_000).map(([start, end]) => items(start, end)));
  await step(a, 'order_items', lines(a, 1, half), lines(b, half + 1, ORDERS));
}

const PROMO_CODES = ['WELCOME10', 'SALE15', 'SPRING20', 'VIP', 'FRIENDS', 'BLACKFRIDAY'];
const COMMENTS = [
  'Позвонить за час до доставки',
  'Подарочная упаковка, пожалуйста',
  'Домофон не работает, звонить на телефон',
  'Оставить у двери',
];
const CANCEL_REASONS = ['Покупатель передумал', 'Покупатель оформил заказ повторно', 'Нет нужного размера'];

const SURNAMES = [
  'Иванов:ivanov',
  'Смирнов:smirnov',
  'Кузнецов:kuznetsov',
  'Попов:popov',
  'Васильев:vasiliev',
  'Петров:petrov',
  'Соколов:sokolov',
  'Михайлов:mikhailov',
  'Новиков:novikov',
  'Фёдоров:fedorov',
  'Морозов:morozov',
  'Волков:volkov',
  'Алексеев:alekseev',
  'Лебедев:lebedev',
  'Семёнов:semenov',
  'Егоров:egorov',
  'Павлов:pavlov',
  'Козлов:kozlov',
  'Степанов:stepanov',
  'Николаев:nikolaev',
  'Орлов:orlov',
  'Андреев:andreev',
  'Макаров:makarov',
  'Никитин:nikitin',
  'Захаров:zakharov',
  'Зайцев:zaitsev',
  'Соловьёв:solovyev',
  'Борисов:borisov',
  'Яковлев:yakovlev',
  'Григорьев:grigoriev',
  'Романов:romanov',
  'Воробьёв:vorobyev',
  'Сергеев:sergeev',
  'Кузьмин:kuzmin',
  'Фролов:frolov',
  'Александров:aleksandrov',
  'Дмитриев:dmitriev',
  'Королёв:korolev',
  'Гусев:gusev',
  'Киселёв:kiselev',
  'Ильин:ilyin',
  'Максимов:maksimov',
  'Поляков:polyakov',
  'Сорокин:sorokin',
  'Виноградов:vinogradov',
  'Ковалёв:kovalev',
  'Белов:belov',
  'Медведев:medvedev',
  'Антонов:antonov',
  'Тарасов:tarasov',
];
const MEN = [
  'Александр:aleksandr',
  'Дмитрий:dmitry',
  'Максим:maksim',
  'Сергей:sergey',
  'Андрей:andrey',
  'Алексей:aleksey',
  'Артём:artem',
  'Илья:ilya',
  'Кирилл:kirill',
  'Михаил:mikhail',
  'Никита:nikita',
  'Матвей:matvey',
  'Роман:roman',
  'Егор:egor',
  'Иван:ivan',
  'Павел:pavel',
  'Владимир:vladimir',
  'Денис:denis',
  'Евгений:evgeny',
  'Тимофей:timofey',
];
const WOMEN = [
  'Анна:anna',
  'Мария:maria',
  'Елена:elena',
  'Ольга:olga',
  'Наталья:natalya',
  'Екатерина:ekaterina',
  'Татьяна:tatyana',
  'Ирина:irina',
  'Светлана:svetlana',
  'Юлия:yulia',
  'Анастасия:anastasia',
  'Дарья:daria',
  'Полина:polina',
  'Виктория:viktoria',
  'Ксения:ksenia',
  'Алина:alina',
  'Валерия:valeria',
  'Вероника:veronika',
  'Софья:sofya',
  'Марина:marina',
];
const FATHERS = [
  'Александров',
  'Дмитриев',
  'Сергеев',
  'Андреев',
  'Алексеев',
  'Михайлов',
  'Иванов',
  'Павлов',
  'Владимиров',
  'Николаев',
  'Викторов',
  'Олегов',
  'Петров',
  'Борисов',
  'Романов',
];
const EMAIL_DOMAINS = ['mail.ru', 'yandex.ru', 'gmail.com', 'bk.ru', 'list.ru', 'inbox.ru'];
/** City, its carrier code, the prefix of its pickup points, its share of buyers (%). */
const CITIES: ReadonlyArray<readonly [string, number, string, number]> = [
  ['Москва', 44, 'MSK', 30],
  ['Санкт-Петербург', 137, 'SPB', 15],
  ['Новосибирск', 270, 'NSK', 5],
  ['Екатеринбург', 250, 'EKB', 6],
  ['Казань', 424, 'KZN', 5],
  ['Нижний Новгород', 414, 'NNV', 4],
  ['Краснодар', 435, 'KRD', 5],
  ['Самара', 430, 'SMR', 4],
  ['Ростов-на-Дону', 438, 'RND', 4],
  ['Уфа', 256, 'UFA', 3],
  ['Воронеж', 506, 'VRN', 3],
  ['Пермь', 248, 'PRM', 3],
  ['Челябинск', 259, 'CHL', 3],
  ['Тюмень', 252, 'TMN', 2],
  ['Калининград', 152, 'KGD', 2],
  ['Владивосток', 288, 'VVO', 2],
  ['Тула', 426, 'TUL', 4],
];
const STREETS = [
  'Ленина',
  'Мира',
  'Советская',
  'Гагарина',
  'Пушкина',
  'Садовая',
  'Лесная',
  'Набережная',
  'Кирова',
  'Московская',
  'Октябрьская',
  'Победы',
  'Строителей',
  'Молодёжная',
  'Центральная',
];

/**
 * A buyer's contact data, the same on each of their orders: a name in the storefront's order
 * (surname first, as parseFullName reads it), a mobile as sent and in E.164 (a bijection of the
 * buyer's number, so buyers never share one), an e-mail for about half of them.
 */
function buyerOf(b: string): string {
  const cyrillic = (list: readonly string[]) => list.map((entry) => entry.split(':')[0]);
  const latin = (list: readonly string[]) => list.map((entry) => entry.split(':')[1]);
  const female = `(${b} % 2 = 1)`;
  const surname = `${pick(cyrillic(SURNAMES), `${b} / 2`)} || CASE WHEN ${female} THEN 'а' ELSE '' END`;
  const first = `CASE WHEN ${female} THEN ${pick(cyrillic(WOMEN), `${b} / 100`)} ELSE ${pick(cyrillic(MEN), `${b} / 100`)} END`;
  const patronymic = `CASE WHEN ${b} % 10 = 3 THEN NULL
                           ELSE ${pick(FATHERS, `${b} / 2000`)} || CASE WHEN ${female} THEN 'на' ELSE 'ич' END END`;
  const email = `CASE WHEN (${b} / 3) % 2 = 0
       THEN CASE WHEN ${female} THEN ${pick(latin(WOMEN), `${b} / 100`)} ELSE ${pick(latin(MEN), `${b} / 100`)} END || '.' ||
            ${pick(latin(SURNAMES), `${b} / 2`)} || CASE WHEN ${female} THEN 'a' ELSE '' END || (${b} % 9973) || '@' ||
            ${pick(EMAIL_DOMAINS, `${b} / 7`)} END`;
  const cityOf = (field: 0 | 1 | 2) => {
    let share = 0;
    const cases = CITIES.map((city) => {
      share += city[3];
      const value = city[field];
      return `WHEN (${b} * 31 + 7) % 100 < ${share} THEN ${typeof value === 'number' ? value : quoted(value)}`;
    });
    return `(CASE ${cases.join(' ')} END)`;
  };
  return `(SELECT n.surname || ' ' || n.first_name || COALESCE(' ' || n.patronymic, '') AS full_name, n.*,
                  '+7 9' || substr(n.digits, 1, 2) || ' ' || substr(n.digits, 3, 3) || '-' || substr(n.digits, 6, 2) || '-' ||
                  substr(n.digits, 8, 2) AS phone,
                  '+79' || n.digits AS phone_normalized, ${email} AS email,
                  ${cityOf(0)} AS city, ${cityOf(1)} AS city_code,
                  ${cityOf(2)} || lpad((${b} % 500)::text, 3, '0') AS pvz_code,
                  'ул. ' || ${pick(STREETS, `${b} / 11`)} || ', д. ' || (${b} % 97 + 1) AS pvz_address
             FROM (SELECT ${surname} AS surname, ${first} AS first_name, ${patronymic} AS patronymic,
                          lpad(((${b}::bigint * 7919 + 123456789) % 1000000000)::text, 9, '0') AS digits) AS n)`;
}

/* ---------------------------------------------------------------------------------------------
 * Returns: about 2 % of the delivered orders. A full one (every unit) makes its order `returned`
 * once received; a partial one asks for one unit of the first line (or, for an order of one unit,
 * is declined or cancelled, which leaves the order completed).
 */

/** The first return fillReturns wrote (their external ids are RMA- and the order's id), as SQL. */
const firstReturnOf = (brand: number) =>
  `COALESCE((SELECT min(id) FROM returns WHERE brand_id = ${brand} AND external_return_id LIKE 'RMA-%'), 0)`;

async function fillReturns(db: Session, p: Plan): Promise<void> {
  const { last } = await db.one<{ last: number }>(
    `SELECT COALESCE((SELECT last FROM return_numbers WHERE brand_id = ${p.id}), 0) AS last`,
  );
  // Only the orders whose draw gave them a return have their plan computed (the plan's r6).
  const returning = `generate_series(1, ${ORDERS}) AS g(i) CROSS JOIN ${orderPlan(p, 'g.i')}`;
  const picked = `${draw('g.i', 6)} < 0.021 AND o.ret_kind > 0`;
  const passed = (hours: string) => `o.${hours} <= o.now_h`;
  const at = (hours: string, path?: string) =>
    `CASE WHEN ${path ? `o.ret_path = '${path}' AND ` : ''}${passed(hours)} THEN o.created_at + o.${hours} * ${HOUR} END`;
  const status = `CASE WHEN o.ret_path <> 'received' THEN CASE WHEN ${passed('ret_decided_h')} THEN o.ret_path ELSE 'requested' END
                       WHEN ${passed('ret_closed_h')} THEN 'closed' WHEN ${passed('ret_received_h')} THEN 'received'
                       WHEN ${passed('ret_approved_h')} THEN 'approved' ELSE 'requested' END`;
  const reasons = ['wrong_size', 'changed_mind', 'not_as_described', 'defective', 'wrong_item', 'other'];
  const notes = ['Маломерит', 'Не подошёл цвет', 'Шов разошёлся', 'Пришёл другой артикул'];
  await step(
    db,
    'returns',
    db.fill(
      `INSERT INTO returns (brand_id, return_number, order_id, order_number, external_return_id, origin, status, reason_code,
                            reason_note, refund_kopeks, refund_status, created_at, approved_at, declined_at, received_at,
                            closed_at, canceled_at, refunded_at)
       SELECT ${p.id}, 'R-' || lpad((${last} + row_number() OVER (ORDER BY o.ret_created_h - o.now_h, o.id))::text, 6, '0'),
              o.id, o.order_number::text, 'RMA-' || o.id, 'customer', ${status}, ${pick(reasons, 'o.id')},
              CASE WHEN o.id % 4 = 0 THEN ${pick(notes, 'o.id / 4')} END,
              CASE WHEN o.ret_kind = 1 THEN o.items_total ELSE ${priceOf('o.j1')} END,
              CASE WHEN ${at('ret_refunded_h', 'received')} IS NOT NULL THEN 'refunded' ELSE 'pending' END,
              o.created_at + o.ret_created_h * ${HOUR}, ${at('ret_approved_h', 'received')}, ${at('ret_decided_h', 'declined')},
              ${at('ret_received_h', 'received')}, ${at('ret_closed_h', 'received')}, ${at('ret_decided_h', 'canceled')},
              ${at('ret_refunded_h', 'received')}
         FROM ${returning} WHERE ${picked} ORDER BY o.ret_created_h - o.now_h, o.id`,
    ),
  );
  const { count } = await db.one<{ count: number }>(
    `SELECT count(*)::int AS count FROM returns WHERE brand_id = ${p.id} AND id >= ${firstReturnOf(p.id)}`,
  );
  await db.exec(
    `INSERT INTO return_numbers (brand_id, last) VALUES (${p.id}, ${last + count})
     ON CONFLICT (brand_id) DO UPDATE SET last = EXCLUDED.last`,
  );
  // A tenth of the units that come back are damaged: received, not restocked.
  await step(
    db,
    'return_items',
    db.fill(
      `INSERT INTO return_items (return_id, order_item_id, product_id, size_id, article, size, quantity, received_quantity,
                                 restocked_quantity, price_kopeks)
       SELECT r.id, i.id, i.product_id, i.size_id, i.article, i.size, u.quantity,
              CASE WHEN r.received_at IS NOT NULL THEN u.quantity ELSE 0 END,
              CASE WHEN r.received_at IS NOT NULL AND i.id % 10 <> 0 THEN u.quantity ELSE 0 END, i.price_kopeks
         FROM ${returning}
         JOIN returns r ON r.brand_id = ${p.id} AND r.external_return_id = 'RMA-' || o.id
         JOIN order_items i ON i.order_id = o.id AND (o.ret_kind = 1 OR i.line = 1)
              CROSS JOIN LATERAL (SELECT CASE WHEN o.ret_kind = 1 THEN i.quantity ELSE 1 END AS quantity) AS u
        WHERE ${picked} ORDER BY r.id, i.line`,
    ),
  );
}

/* ---------------------------------------------------------------------------------------------
 * The stock ledger, ids in time order: each size's initial stock, the order lines taken (a
 * storefront order's at once, a platform order's when paid), the stock of cancelled orders given
 * back, restocked returns, the production site's deliveries (nine lines in ten restocked within
 * days, an acceptance every four hours) and stock-takes to make up MOVEMENTS_IN_ALL. Each row is
 * one statement's change of one size, as the ledger writes them, so a size's stock_events is its
 * count of rows and its stock their sum. The two connections take a time portion each.
 */

/** A stretch of time, as SQL timestamps (null: unbounded). */
interface Portion {
  from: string | null;
  to: string | null;
}

const within = (portion: Portion, at: string) =>
  [portion.from && `${at} >= ${portion.from}`, portion.to && `${at} < ${portion.to}`].filter(Boolean).join(' AND ') ||
  'true';

/** The ledger's actor of a change, as (kind, id) SQL. */
const actor = (kind: string | null, id: number | null) => ({
  kind: kind === null ? 'NULL::text' : `${quoted(kind)}::text`,
  id: id === null ? 'NULL::int' : `${id}::int`,
});

/** The start of the four-hour slots of the site's acceptances. */
const acceptanceEpoch = (p: Plan) => ago(p.t0, HISTORY_DAYS + 10);

/** Every ledger row of the portion but the stock-takes, into ls_moves_unsorted; gives their count. */
async function drawMoves(db: Session, p: Plan, portion: Portion): Promise<number> {
  const catalog = p.catalogKey === null ? actor('user', p.admin) : actor('integration_key', p.catalogKey);
  const storefront = actor(p.storefrontKey === null ? null : 'integration_key', p.storefrontKey);
  const staff = actor('user', p.admin);
  const site = actor(p.siteKey === null ? null : 'site_key', p.siteKey);
  const lines = `order_items i JOIN orders o ON o.id = i.order_id
                 WHERE o.brand_id = ${p.id} AND o.id >= ${p.firstOrder} AND o.stock_deducted_at IS NOT NULL`;
  const slot = `floor((extract(epoch FROM o.stock_deducted_at - ${acceptanceEpoch(p)})
                       + 86400 * (1 + 4 * ${draw('i.id', 101)})) / 14400)::int`;
  const slotAt = (slot: string) => `${acceptanceEpoch(p)} + (${slot} + 1) * interval '4 hours'`;
  await db.exec(`DROP TABLE IF EXISTS ls_moves_unsorted`);
  await db.exec(
    `CREATE TEMP TABLE ls_moves_unsorted AS
     SELECT s.created_at AS at, 0 AS rank, s.id AS size_id, 30 + (s.id * 7) % 171 AS delta, 'initial' AS reason,
            NULL::int AS order_id, NULL::int AS acceptance_id, NULL::text AS note, ${catalog.kind} AS actor_kind,
            ${catalog.id} AS actor_id
       FROM product_sizes s WHERE s.brand_id = ${p.id} AND s.id >= ${p.firstSize} AND ${within(portion, 's.created_at')}
     UNION ALL
     SELECT o.stock_deducted_at, 1, i.size_id, -i.quantity, 'order', o.id, NULL, NULL,
            CASE WHEN o.source = 'platform' THEN 'webhook' ELSE ${storefront.kind} END,
            CASE WHEN o.source = 'platform' THEN NULL ELSE ${storefront.id} END
       FROM ${lines} AND ${within(portion, 'o.stock_deducted_at')}
     UNION ALL
     SELECT o.cancelled_at, 2, i.size_id, i.quantity, 'cancellation', o.id, NULL, NULL, ${staff.kind}, ${staff.id}
       FROM ${lines} AND o.cancelled_at IS NOT NULL AND ${within(portion, 'o.cancelled_at')}
     UNION ALL
     SELECT r.received_at, 3, i.size_id, i.restocked_quantity, 'return', r.order_id, NULL, r.return_number, ${staff.kind},
            ${staff.id}
       FROM returns r JOIN return_items i ON i.return_id = r.id
      WHERE r.brand_id = ${p.id} AND r.id >= ${firstReturnOf(p.id)} AND i.restocked_quantity > 0
        AND ${within(portion, 'r.received_at')}
     UNION ALL
     SELECT ${slotAt('a.slot')}, 4, a.size_id, a.delta, 'acceptance', NULL, ${p.firstAcceptance} + a.slot, NULL,
            ${site.kind}, ${site.id}
       FROM (SELECT ${slot} AS slot, i.size_id, sum(i.quantity + 1)::int AS delta FROM ${lines} AND ${draw('i.id', 102)} < 0.9
              GROUP BY 1, 2) AS a
      WHERE ${slotAt('a.slot')} < ${p.t0} - ${HOUR} AND ${within(portion, slotAt('a.slot'))}`,
  );
  return (await db.one<{ n: number }>(`SELECT count(*)::int AS n FROM ls_moves_unsorted`)).n;
}

/** The portion's stock-takes among `takes` (numbered, each drawn from its number), then ls_moves in time order (k). */
async function sortMoves(db: Session, p: Plan, portion: Portion, takes: number): Promise<number> {
  const shape = catalogShape(p);
  const reasons = ['Инвентаризация', 'Пересорт', 'Брак', 'Образцы для фотосъёмки', 'Найдено при инвентаризации'];
  const staff = actor('user', p.admin);
  await db.exec(
    `INSERT INTO ls_moves_unsorted
     SELECT x.at, 5, ${sizeId(p, 'floor(x.rj * x.catalog)::int', 'floor(x.rs * 5)::int')},
            CASE WHEN x.r < 0.5 THEN -1 - floor(x.r * 6) ELSE 1 + floor((x.r - 0.5) * 6) END, 'adjustment', NULL, NULL,
            ${pick(reasons, 'x.n')}, ${staff.kind}, ${staff.id}
       FROM (SELECT d.*, ${ago(p.t0, 'd.days')} AS at, ${shape.existing('d.days')} AS catalog
               FROM (SELECT n, ${daysAgoAt(draw('n', 201))} AS days, ${draw('n', 202)} AS rj, ${draw('n', 203)} AS rs,
                            ${draw('n', 204)} AS r
                       FROM generate_series(1, ${takes}) AS n OFFSET 0) AS d) AS x
      WHERE ${within(portion, 'x.at')};
     DROP TABLE IF EXISTS ls_moves;
     CREATE TEMP TABLE ls_moves AS
     SELECT row_number() OVER (ORDER BY at, rank, size_id)::int AS k, * FROM ls_moves_unsorted;
     DROP TABLE ls_moves_unsorted; CREATE UNIQUE INDEX ON ls_moves (k); ANALYZE ls_moves`,
  );
  return (await db.one<{ n: number }>(`SELECT count(*)::int AS n FROM ls_moves`)).n;
}

async function fillLedger(a: Session, b: Session, p: Plan): Promise<void> {
  const started = Date.now();
  // Where half the orders had come: the ledger grows with them.
  const split = ago(p.t0, daysAgoAt('0.5'));
  const portions: [Portion, Portion] = [
    { from: null, to: split },
    { from: split, to: null },
  ];
  const others = await Promise.all([drawMoves(a, p, portions[0]), drawMoves(b, p, portions[1])]);
  const takes = Math.max(0, MOVEMENTS_IN_ALL - others[0] - others[1]);
  const [first, second] = await Promise.all([sortMoves(a, p, portions[0], takes), sortMoves(b, p, portions[1], takes)]);
  a.report('(ledger drawn)', first + second, started);

  const acceptances = (db: Session) =>
    db.fill(`INSERT INTO acceptances (id, brand_id, site_id, created_at)
             SELECT DISTINCT acceptance_id, ${p.id}, ${p.site}, at FROM ls_moves WHERE acceptance_id IS NOT NULL ORDER BY 1`);
  await step(a, 'acceptances', acceptances(a), acceptances(b));
  const movements = (db: Session, count: number, before: number) =>
    db.inChunks(
      count,
      (from, to) =>
        `INSERT INTO stock_movements (id, brand_id, size_id, delta, reason, order_id, acceptance_id, note, actor_kind,
                                      actor_id, created_at)
         SELECT ${p.firstMovement + before} + k - 1, ${p.id}, size_id, delta, reason, order_id, acceptance_id, note,
                actor_kind, actor_id, at
           FROM ls_moves WHERE k BETWEEN ${from} AND ${to} ORDER BY k`,
    );
  await step(a, 'stock_movements', movements(a, first, 0), movements(b, second, first));
  await a.exec(`SELECT setval(pg_get_serial_sequence('acceptances', 'id'), (SELECT max(id) FROM acceptances));
                SELECT setval(pg_get_serial_sequence('stock_movements', 'id'), (SELECT max(id) FROM stock_movements))`);
}

/* ---------------------------------------------------------------------------------------------
 * Domain events, read back from the rows: an order's from its state columns (orderTimeline), a
 * return's from its times, a size's from its ledger rows; a time portion for each connection,
 * then written in time order with explicit ids and positions.
 */

const STOCK_COLUMNS = Object.values(STOCK_EVENT_COLUMNS.columns);
const EVENT_COLUMNS = ['brand_id', 'subject', 'subject_id', 'sequence', 'type', 'data', 'occurred_at'];

/**
 * An order's events from its row (alias `o`), as OrderLifecycle wrote them: its creation, the
 * payment of a platform order, each carrier status between registration and the last one applied
 * (spread evenly: the stored delivery_status_at is the last step's time) with the status moves
 * they made, a return that brought every unit back (its time is the order's updated_at), or the
 * cancellation: rows s(type, at, seq, status, payment, delivery, tracked), `at` null for the steps
 * that did not happen.
 */
function orderSteps(o: string): string {
  const steps = `(CASE ${o}.delivery_status ${CARRIER_STEPS.map((s, i) => `WHEN '${s}' THEN ${i + 1}`).join(' ')} ELSE 0 END)`;
  const step = (k: number) =>
    `CASE WHEN ${steps} >= ${k} THEN ${o}.carrier_registration_started_at
           + (${o}.delivery_status_at - ${o}.carrier_registration_started_at) * (${k}.0 / ${steps})::float8 END`;
  const paid = `(${o}.paid_at IS NOT NULL)::int`;
  const carrier = (k: number, type: string, seq: number, status: string, delivery: string) =>
    `('${type}', ${step(k)}, ${seq} + ${paid}, '${status}', 'paid', '${delivery}', true)`;
  return `(VALUES
      ('order.created', ${o}.created_at, 1, CASE WHEN ${o}.source = 'platform' THEN 'new' ELSE 'paid' END,
       CASE WHEN ${o}.source = 'platform' THEN 'pending' ELSE 'paid' END, NULL::text, false),
      ('order.paid', CASE WHEN ${o}.source = 'platform' THEN ${o}.paid_at END, 2, 'paid', 'paid', NULL, false),
      ${carrier(1, 'order.delivery_status_changed', 2, 'shipped', 'accepted')},
      ${carrier(1, 'order.shipped', 3, 'shipped', 'accepted')},
      ${carrier(2, 'order.delivery_status_changed', 4, 'shipped', 'in_transit')},
      ${carrier(3, 'order.delivery_status_changed', 5, 'shipped', 'arrived')},
      ${carrier(4, 'order.delivery_status_changed', 6, 'completed', 'delivered')},
      ${carrier(4, 'order.completed', 7, 'completed', 'delivered')},
      ('order.returned', CASE WHEN ${o}.status = 'returned' THEN ${o}.updated_at END, 8 + ${paid}, 'returned', 'paid',
       'delivered', true),
      ('order.cancelled', ${o}.cancelled_at, 2 + ${paid}, 'cancelled', ${o}.payment_status, NULL, false)
    ) AS s(type, at, seq, status, payment, delivery, tracked)`;
}

/** The events that happened of orderSteps, as `ev`. */
const orderTimeline = (o: string) => `LATERAL (SELECT s.* FROM ${orderSteps(o)} WHERE s.at IS NOT NULL) AS ev`;

/**
 * A return's events from its row (alias `r`), as orderSteps: requested, then approved, declined
 * or cancelled, received, refunded, closed.
 */
function returnSteps(r: string): string {
  const approved = `(${r}.approved_at IS NOT NULL)::int`;
  return `(VALUES
      ('return.requested', ${r}.created_at, 1, 'requested', 'pending'),
      ('return.approved', ${r}.approved_at, 2, 'approved', 'pending'),
      ('return.declined', ${r}.declined_at, 2 + ${approved}, 'declined', 'pending'),
      ('return.canceled', ${r}.canceled_at, 2 + ${approved}, 'canceled', 'pending'),
      ('return.received', ${r}.received_at, 2 + ${approved}, 'received', 'pending'),
      ('return.refunded', ${r}.refunded_at, 3 + ${approved}, 'received', 'refunded'),
      ('return.closed', ${r}.closed_at, 4 + ${approved}, 'closed', 'refunded')
    ) AS s(type, at, seq, status, refund)`;
}

const returnTimeline = (r: string) => `LATERAL (SELECT s.* FROM ${returnSteps(r)} WHERE s.at IS NOT NULL) AS ev`;

const noStock = STOCK_COLUMNS.map(([column, type]) => `NULL::${type} AS ${column}`).join(', ');

/**
 * Rows (occurred_at, rank, subject, subject_id, sequence, type, data, the stock columns) of the
 * brand's events between `from` and `to` (SQL timestamps). `rank` orders the events of one moment
 * as their statements wrote them: an order's creation, then its stock, then the other changes.
 */
/** The first ids (SQL) of the rows whose events are read: a build's own, or 0 for all. */
interface Since {
  order: string;
  return: string;
  movement: string;
}

function eventRows(brand: number, from: string, to: string, since: Since): string {
  const orderData = orderEventData('x')('ev.seq');
  const returnData = eventDataOf<ReturnEventData>({
    returnId: 'x.id',
    returnNumber: 'x.return_number',
    orderId: 'x.order_id',
    externalReturnId: 'x.external_return_id',
    origin: 'x.origin',
    status: 'x.status',
    refundStatus: 'x.refund_status',
  })('ev.seq');
  return `
    SELECT ev.at AS occurred_at, CASE WHEN ev.seq = 1 THEN 0 ELSE 2 END AS rank, 'order' AS subject, o.id AS subject_id,
           ev.seq AS sequence, ev.type, ${orderData} AS data, ${noStock}
      FROM orders o CROSS JOIN ${orderTimeline('o')}
           CROSS JOIN LATERAL (SELECT o.id, o.order_number, o.partner_order_id, o.source, ev.status,
                                      ev.payment AS payment_status, ev.delivery AS delivery_status,
                                      CASE WHEN ev.tracked THEN o.carrier_tracking_number END AS carrier_tracking_number,
                                      o.total_kopeks) AS x
     WHERE o.brand_id = ${brand} AND o.id >= ${since.order} AND o.updated_at >= ${from} AND o.created_at < ${to}
       AND ev.at >= ${from} AND ev.at < ${to}
    UNION ALL
    SELECT ev.at, 3, 'return', r.id, ev.seq, ev.type, ${returnData}, ${noStock}
      FROM returns r CROSS JOIN ${returnTimeline('r')}
           CROSS JOIN LATERAL (SELECT r.id, r.return_number, r.order_id, r.external_return_id, r.origin, ev.status,
                                      ev.refund AS refund_status) AS x
     WHERE r.brand_id = ${brand} AND r.id >= ${since.return} AND r.created_at < ${to} AND ev.at >= ${from} AND ev.at < ${to}
    UNION ALL
    SELECT m.created_at, 1, 'size', m.size_id, (COALESCE(b.n, 0) + m.nth)::int, 'stock.changed', NULL::jsonb,
           s.product_id, p.article, p.storefront_article, s.name, m.delta, (COALESCE(b.stock, 0) + m.running)::int, m.reason,
           CASE WHEN m.reason IN ('order', 'cancellation', 'return') THEN m.order_id END, rt.id
      FROM (SELECT mv.*, sum(mv.delta) OVER w AS running, row_number() OVER w AS nth FROM stock_movements mv
             WHERE mv.brand_id = ${brand} AND mv.id >= ${since.movement} AND mv.created_at >= ${from} AND mv.created_at < ${to}
            WINDOW w AS (PARTITION BY mv.size_id ORDER BY mv.id)) AS m
      LEFT JOIN (SELECT size_id, sum(delta) AS stock, count(*) AS n FROM stock_movements
                  WHERE brand_id = ${brand} AND created_at < ${from} GROUP BY size_id) AS b ON b.size_id = m.size_id
      JOIN product_sizes s ON s.id = m.size_id
      JOIN products p ON p.id = s.product_id
      LEFT JOIN returns rt ON m.reason = 'return' AND rt.brand_id = ${brand} AND rt.return_number = m.note`;
}

/** The events of a portion of time into ls_events, numbered in time order (k); gives their count. */
async function drawEvents(db: Session, brand: number, from: string, to: string, since: Since): Promise<number> {
  await db.exec(
    `DROP TABLE IF EXISTS ls_events;
     CREATE TEMP TABLE ls_events AS
     SELECT row_number() OVER (ORDER BY e.occurred_at, e.rank, e.subject_id, e.sequence)::int AS k, e.*
       FROM (${eventRows(brand, from, to, since)}) AS e;
     CREATE UNIQUE INDEX ON ls_events (k); ANALYZE ls_events`,
  );
  return (await db.one<{ n: number }>(`SELECT count(*)::int AS n FROM ls_events`)).n;
}

/**
 * Consumes `count` transaction ids, so that positions among them are below every transaction to
 * come and the readers' horizon is past them all; gives the first.
 */
async function reservePositions(db: Session, count: number): Promise<number> {
  const { next } = await db.one<{ next: string }>(`SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS next`);
  await db.exec(`DO $$ BEGIN FOR i IN 1..${count} LOOP PERFORM pg_current_xact_id(); COMMIT; END LOOP; END $$`);
  return Number(next);
}

/** Where the build's events start: their first id, and the first of the positions reserved (the pruned month's). */
interface Written {
  firstEvent: string;
  positions: number;
}

/** Rows of ls_events as events, ids from `firstId`, positions from `firstPosition`, after `before` others. */
const eventsFrom = (brand: number, firstId: string, firstPosition: number, before: number) => {
  const columns = [...EVENT_COLUMNS, ...STOCK_COLUMNS.map(([column]) => column)];
  return (from: number, to: number) =>
    `INSERT INTO domain_events (id, position, ${columns.join(', ')})
     SELECT ${firstId} + ${before} + k - 1, ${firstPosition} + (${before} + k - 1) / ${EVENTS_PER_POSITION},
            ${brand}, ${columns.slice(1).join(', ')}
       FROM ls_events WHERE k BETWEEN ${from} AND ${to} ORDER BY k`;
};

async function fillEvents(a: Session, b: Session, p: Plan): Promise<Written> {
  const started = Date.now();
  const since: Since = { order: String(p.firstOrder), return: firstReturnOf(p.id), movement: String(p.firstMovement) };
  const middle = ago(p.t0, EVENTS_WINDOW_DAYS / 2);
  const counts = await Promise.all([
    drawEvents(a, p.id, ago(p.t0, EVENTS_WINDOW_DAYS), middle, since),
    drawEvents(b, p.id, middle, `(${p.t0} + interval '1 second')`, since),
  ]);
  a.report('(events drawn)', counts[0] + counts[1], started);
  // Ids below the build's are left for the month addPrunableMonth puts back, older than all of these.
  const { first } = await a.one<{ first: string }>(reserveIds('domain_events'));
  const positions = await reservePositions(
    a,
    Math.ceil((counts[0] + counts[1]) / EVENTS_PER_POSITION) + PRUNABLE_POSITIONS,
  );
  const firstPosition = positions + PRUNABLE_POSITIONS;
  await step(
    a,
    'domain_events',
    a.inChunks(counts[0], eventsFrom(p.id, first, firstPosition, 0), 250_000),
    b.inChunks(counts[1], eventsFrom(p.id, first, firstPosition, counts[0]), 250_000),
  );
  await a.exec(`SELECT setval(pg_get_serial_sequence('domain_events', 'id'), (SELECT max(id) FROM domain_events))`);
  return { firstEvent: first, positions };
}

/**
 * The numbers the pruning kept of each subject whose events before the window were pruned
 * (domain_event_floors, when the schema has it): an order's or return's last pruned sequence, a
 * product's creation; at the lowest position reserved, below every kept event's.
 */
async function fillFloors(db: Session, p: Plan, written: Written): Promise<void> {
  const { floors } = await db.one<{ floors: boolean }>(
    `SELECT to_regclass('domain_event_floors') IS NOT NULL AS floors`,
  );
  if (!floors) return;
  const before = ago(p.t0, EVENTS_WINDOW_DAYS);
  await step(
    db,
    'domain_event_floors',
    db.fill(
      `INSERT INTO domain_event_floors AS f (subject, subject_id, sequence, position)
       SELECT 'order', o.id, (SELECT max(s.seq) FROM ${orderSteps('o')} WHERE s.at < ${before}), ${written.positions}
         FROM orders o WHERE o.brand_id = ${p.id} AND o.id >= ${p.firstOrder} AND o.created_at < ${before}
       UNION ALL
       SELECT 'return', r.id, (SELECT max(s.seq) FROM ${returnSteps('r')} WHERE s.at < ${before}), ${written.positions}
         FROM returns r WHERE r.brand_id = ${p.id} AND r.id >= ${firstReturnOf(p.id)} AND r.created_at < ${before}
       UNION ALL
       SELECT 'product', id, 1, ${written.positions} FROM products WHERE brand_id = ${p.id} AND id >= ${p.firstProduct}
       ON CONFLICT (subject, subject_id) DO UPDATE
         SET sequence = GREATEST(f.sequence, EXCLUDED.sequence), position = GREATEST(f.position, EXCLUDED.position)`,
    ),
  );
}

/**
 * Each new size's stock (its ledger's sum), its count of stock events (of ledger rows) and the
 * position of its last: its last kept event's, or for one whose events were all pruned, the
 * lowest reserved.
 */
async function settleSizes(db: Session, p: Plan, written: Written): Promise<void> {
  await step(
    db,
    'product_sizes (stock)',
    db.fill(
      `UPDATE product_sizes s SET stock = s.stock + m.delta, stock_events = s.stock_events + m.n,
              stock_event_position = COALESCE(e.position, ${written.positions})
         FROM (SELECT size_id, sum(delta)::int AS delta, count(*)::int AS n FROM stock_movements
                WHERE brand_id = ${p.id} AND size_id >= ${p.firstSize} GROUP BY size_id) AS m
         LEFT JOIN (SELECT subject_id, max(position) AS position FROM domain_events
                     WHERE id >= ${written.firstEvent} AND brand_id = ${p.id} AND subject = 'size' GROUP BY subject_id) AS e
                ON e.subject_id = m.size_id
        WHERE s.id = m.size_id`,
    ),
  );
}

/* ---------------------------------------------------------------------------------------------
 * Outbound webhooks: the brand's ERP endpoint, subscribed to its orders' status events, got each
 * at once (one delivery a message, succeeded at the first attempt, kept on the delivery) until an
 * administrator disabled it: new orders of the bench fan out to nothing.
 */

/**
 * A signing secret sealed as the service seals it, when this process has the service's key; else
 * bytes of its shape (the endpoint is disabled: nothing opens it).
 */
function sealedSecret(): Buffer {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const key = process.env.SECRETS_ENCRYPTION_KEY;
  return key ? new SecretBox(Buffer.from(key, 'hex')).seal(secret) : randomBytes(12 + 16 + secret.length);
}

const ENDPOINT_URL = 'https://erp.example.com/hooks/orders';
const ENDPOINT_CREATED_DAYS_AGO = 300;
const ENDPOINT_DISABLED = `interval '20 minutes'`;

async function fillEndpoint(db: Session, p: Plan): Promise<void> {
  const endpoint = await db.one<{ id: number }>(
    `INSERT INTO webhook_endpoints (brand_id, url, event_types, description, enabled, secret_sealed, created_at)
     VALUES (${p.id}, '${ENDPOINT_URL}', ${array(ENDPOINT_EVENT_TYPES)}, 'ERP: статусы заказов', false, $1,
             ${ago(p.t0, ENDPOINT_CREATED_DAYS_AGO)})
     RETURNING id`,
    [sealedSecret()],
  );
  p.endpoint = endpoint.id;
}

/** The endpoint's messages, from this connection's share of the events (the newest: fillEvents), and deliveries. */
async function fillMessages(db: Session, p: Plan): Promise<void> {
  const { first } = await db.one<{ first: string }>(reserveIds('webhook_messages'));
  await db.one(reserveIds('webhook_deliveries'));
  await step(
    db,
    'webhook_messages',
    db.fill(
      messagesOf(
        `SELECT * FROM (SELECT k AS event_id, type, occurred_at, data FROM ls_events
                         WHERE subject = 'order' AND type = ANY (${array(ENDPOINT_EVENT_TYPES)})
                           AND occurred_at >= ${ago(p.t0, MESSAGES_WINDOW_DAYS)} AND occurred_at < ${p.t0} - ${ENDPOINT_DISABLED}
                         ORDER BY k DESC LIMIT ${MESSAGES}) AS e`,
        p.id,
      ),
    ),
  );
  await step(db, 'webhook_deliveries', db.fill(deliveriesOf(`m.id >= ${first} AND m.brand_id = ${p.id}`, p.endpoint)));
}

/** The statement that moves a table's identity past `RESERVED_IDS` free ids; its row's `first` is the next id. */
const reserveIds = (table: keyof typeof RESERVED_IDS) =>
  `SELECT setval(pg_get_serial_sequence('${table}', 'id'),
                 (SELECT COALESCE(max(id), 0) FROM ${table}) + ${RESERVED_IDS[table]}) + 1 AS first`;

/**
 * Messages of events (rows event_id, type, occurred_at, data), in the events' order, as the
 * statement of each event wrote them (WebhooksSql.fanOut).
 */
const messagesOf = (events: string, brand: number, ids?: { from: string }) =>
  `INSERT INTO webhook_messages (${ids ? 'id, ' : ''}msg_id, brand_id, event_type, payload, created_at)
   SELECT ${ids ? `${ids.from} + row_number() OVER (ORDER BY e.event_id) - 1, ` : ''}
          'msg_' || replace(gen_random_uuid()::text, '-', ''), ${brand}, e.type,
          ${messageBody({ type: 'e.type', timestamp: isoTimestampSql('e.occurred_at'), data: 'e.data' })}, e.occurred_at
     FROM (${events}) AS e ORDER BY e.event_id`;

/** A delivery that succeeded at once for each message `where` picks (as WebhookDeliveriesRepository settles a 2xx). */
const deliveriesOf = (where: string, endpoint: number, ids?: { from: string }) =>
  `INSERT INTO webhook_deliveries (${ids ? 'id, ' : ''}message_id, endpoint_id, status, attempts, next_attempt_at, created_at,
                                   succeeded_at, success_status, success_duration_ms, success_body)
   SELECT ${ids ? `${ids.from} + row_number() OVER (ORDER BY m.id) - 1, ` : ''}m.id, ${endpoint}, 'succeeded', 1, NULL,
          m.created_at, m.created_at + (0.05 + r.r) * interval '1 second',
          CASE WHEN m.id % 10 = 0 THEN 204 ELSE 200 END, (30 + r.r * r.r * 900)::int,
          CASE WHEN m.id % 10 = 0 THEN '' ELSE '{"ok":true}' END
     FROM webhook_messages m, LATERAL (SELECT random() + 0 * m.id AS r) AS r
    WHERE ${where} ORDER BY m.id`;

/* ---------------------------------------------------------------------------------------------
 * A thousand integration keys of the brand's integrations (issued over the last year, used until
 * now), and their request log: a couple of routes an hour each, and the failures, one in every
 * two hours and a bit.
 */

/** A key's integration by its number: name, permissions, full access, the route pair it calls. */
const KEY_KINDS: ReadonlyArray<{
  name: string;
  permissions: string[];
  routes: [method: string, route: string, status: number][];
  failing: [method: string, route: string, path: string];
}> = [
  {
    name: 'Аналитика',
    permissions: ['orders.read'],
    routes: [
      ['GET', '/orders/admin/all', 200],
      ['GET', '/orders/admin/:orderId', 200],
    ],
    failing: ['GET', '/orders/admin/:orderId', `'/orders/admin/' || (1000 + n * 37 + i)`],
  },
  {
    name: 'Витрина',
    permissions: ['orders.create_partner'],
    routes: [
      ['POST', '/orders/integrations/partner/webhook', 201],
      ['POST', '/orders/integrations/partner/webhook', 200],
    ],
    failing: ['POST', '/orders/integrations/partner/webhook', `'/orders/integrations/partner/webhook'`],
  },
  {
    name: 'Склад',
    permissions: ['stock.read', 'stock.write'],
    routes: [
      ['GET', '/inventory/stock', 200],
      ['GET', '/inventory/movements', 200],
    ],
    failing: ['GET', '/inventory/movements', `'/inventory/movements'`],
  },
  {
    name: 'Маркетплейс',
    permissions: ['products.read', 'stock.read'],
    routes: [
      ['GET', '/catalog/products', 200],
      ['GET', '/catalog/products/:productId', 200],
    ],
    failing: ['GET', '/catalog/products/:productId', `'/catalog/products/' || (n * 11 + i)`],
  },
  {
    name: 'Возвраты',
    permissions: ['returns.read', 'returns.write'],
    routes: [
      ['GET', '/returns', 200],
      ['POST', '/returns', 201],
    ],
    failing: ['POST', '/returns', `'/returns'`],
  },
  {
    name: 'ERP',
    permissions: [],
    routes: [
      ['GET', '/events', 200],
      ['GET', '/orders/admin/all', 200],
    ],
    failing: ['GET', '/events', `'/events'`],
  },
];
/** Keys whose number is this modulo 10 work from their allowlist only (and are refused elsewhere, journaled). */
const PINNED = 5;
const keyKind = (n: string) => `((${n}) % ${KEY_KINDS.length})`;
const keyIp = (n: string) => `('10.20.' || (${n}) / 250 || '.' || (${n}) % 250 + 1)`;
const FAILURES: ReadonlyArray<readonly [status: number, share: number, error: string]> = [
  [404, 0.4, `'Not found'`],
  [422, 0.25, `'items.0: product "SF-' || (100000 + i * 13) || '" has no size "XXL"'`],
  [400, 0.15, `'limit must not be greater than 200'`],
  [429, 0.1, `'Too many requests'`],
  [409, 0.05, `'Idempotency key reused with a different request'`],
  [403, 0.05, `'Forbidden: brand not allowed'`],
];

/** Per key kind (the CASE's index), the SQL of `pick(kind)`. */
const byKind = (n: string, value: (kind: (typeof KEY_KINDS)[number]) => string) =>
  `(CASE ${keyKind(n)} ${KEY_KINDS.map((kind, i) => `WHEN ${i} THEN ${value(kind)}`).join(' ')} END)`;

async function fillKeys(db: Session, p: Plan): Promise<void> {
  await step(
    db,
    'integration_keys',
    db.fill(
      `INSERT INTO integration_keys (id, brand_id, name, fingerprint, key_hint, permissions, full_access, expires_at,
                                     created_at, created_by, issued_as_superadmin, last_used_at, last_used_ip, allowed_ips)
       SELECT ${p.firstKey} + n, ${p.id}, ${byKind('n', (k) => quoted(k.name))} || ' ' || lpad((n + 1)::text, 4, '0'),
              sha256(uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid())),
              'csh_at_...' || substr(md5(random()::text), 1, 4), ${byKind('n', (k) => `${array(k.permissions)}::text[]`)},
              ${keyKind('n')} = ${KEY_KINDS.findIndex((k) => k.permissions.length === 0)},
              CASE WHEN n % 5 = 0 THEN ${p.t0} + (30 + n % 300) * ${DAY} END,
              ${keyCreated(p.t0, 'n')}, ${p.admin}, (SELECT is_superadmin FROM users WHERE id = ${p.admin}),
              ${p.t0} - (n % 50) * interval '1 minute', ${keyIp('n')},
              CASE WHEN n % 10 = ${PINNED} THEN ARRAY['10.20.0.0/16'] END
         FROM generate_series(0, ${KEYS - 1}) AS n ORDER BY n`,
    ),
  );
  await db.exec(
    `SELECT setval(pg_get_serial_sequence('integration_keys', 'id'), (SELECT max(id) FROM integration_keys))`,
  );
}

/** The keys' request counts, half the keys on each connection, then their failures beside the journal. */
async function fillRequestLog(a: Session, b: Session, p: Plan): Promise<void> {
  const keys = `(SELECT id, id - ${p.firstKey} AS n FROM integration_keys
                  WHERE id BETWEEN ${p.firstKey} AND ${p.firstKey + KEYS - 1})`;
  const hours = Math.floor(REQUEST_LOG_DAYS * 24);
  const last = `date_trunc('hour', ${p.t0}) - ${HOUR}`;
  const counts = (db: Session, from: number, to: number) =>
    db.fill(...ranges(from, to, 250).map(([f, t]) => requestCounts(keys, last, hours, `k.n BETWEEN ${f} AND ${t}`)));
  await step(a, 'request_counts', counts(a, 0, KEYS / 2 - 1), counts(b, KEYS / 2, KEYS - 1));
  await a.one(reserveIds('request_failures'));
  await Promise.all([
    step(a, 'request_failures', a.fill(requestFailures(keys, p.t0, REQUEST_LOG_DAYS))),
    fillJournal(b, p),
  ]);
}

const keyCreated = (t0: string, n: string) => `${t0} - (361 - 0.3 * (${n})) * ${DAY}`;

/** Each key's two rows an hour for `hours` hours back from `last` (an hour's start), on its own minute of the hour. */
const requestCounts = (keys: string, last: string, hours: number, where: string) =>
  `INSERT INTO request_counts (key_id, minute, method, route, status, count)
   SELECT k.id, ${last} - h * interval '1 hour' + (k.n % 60) * interval '1 minute',
          ${byKind('k.n', (kind) => `(${array(kind.routes.map((r) => r[0]))})[1 + pair]`)},
          ${byKind('k.n', (kind) => `(${array(kind.routes.map((r) => r[1]))})[1 + pair]`)},
          ${byKind('k.n', (kind) => `(ARRAY[${kind.routes.map((r) => r[2]).join(', ')}])[1 + pair]`)},
          CASE WHEN pair = 0 THEN 20 + floor(random() * 400) ELSE 1 + floor(random() * 40) END
     FROM ${keys} AS k, generate_series(0, ${hours - 1}) AS h, generate_series(0, 1) AS pair
    WHERE ${where} ORDER BY k.id, h DESC, pair`;

/** FAILURES_PER_KEY failures of each key in the `days` before `end`, each in its own stretch (so no two share a minute). */
const requestFailures = (keys: string, end: string, days: number, ids?: { from: string }) => {
  let share = 0;
  const statusOf = `(CASE ${FAILURES.map(([status, s]) => `WHEN x.r < ${(share += s)} THEN ${status}`).join(' ')} ELSE 404 END)`;
  const errorOf = `(CASE f.status ${FAILURES.map(([status, , error]) => `WHEN ${status} THEN ${error}`).join(' ')} END)`;
  return `INSERT INTO request_failures (${ids ? 'id, ' : ''}key_id, at, method, route, path, status, error, request_id,
                                         idempotency_key, duration_ms, ip, count, fold_minute, fold_slot)
   SELECT ${ids ? `${ids.from} + row_number() OVER (ORDER BY f.at, f.key_id) - 1, ` : ''}f.key_id, f.at, f.method, f.route,
          f.path, f.status, ${errorOf}, gen_random_uuid()::text,
          CASE WHEN f.method = 'POST' AND f.i % 2 = 0 THEN gen_random_uuid()::text END,
          (0.8 + f.r * f.r * 40)::real, ${keyIp('f.n')}, 1,
          CASE WHEN f.status = 429 THEN date_trunc('minute', f.at) END, CASE WHEN f.status = 429 THEN 0 END
     FROM (SELECT k.id AS key_id, k.n, i, x.r, ${statusOf} AS status,
                  ${end} - (i + x.r) * ${days} * ${DAY} / ${FAILURES_PER_KEY} AS at,
                  ${byKind('k.n', (kind) => quoted(kind.failing[0]))} AS method,
                  ${byKind('k.n', (kind) => quoted(kind.failing[1]))} AS route,
                  ${byKind('k.n', (kind) => kind.failing[2])} AS path
             FROM ${keys} AS k, generate_series(0, ${FAILURES_PER_KEY - 1}) AS i,
                  LATERAL (SELECT random() + 0 * i AS r) AS x) AS f
    ORDER BY f.at, f.key_id`;
};

/* ---------------------------------------------------------------------------------------------
 * The brand's security journal over the last year: its keys' issue, the endpoint's creation and
 * disabling, payments that did not match, exports of buyers' data, keys reaching for another
 * brand's orders and, most of all, pinned keys refused from other addresses (counted a minute).
 */

async function fillJournal(db: Session, p: Plan): Promise<void> {
  const keys = `(SELECT id, id - ${p.firstKey} AS n, name, permissions, full_access, expires_at, allowed_ips, created_at
                   FROM integration_keys WHERE id BETWEEN ${p.firstKey} AND ${p.firstKey + KEYS - 1})`;
  const office = `'198.51.100.7'`;
  const violations = 40_000;
  const mismatches = 2_000;
  const exports = 1_000;
  const refusals = JOURNAL_ENTRIES - KEYS - 2 - violations - mismatches - exports;
  const minutesInYear = 365 * 24 * 60;
  const spread = (count: number, i: string) =>
    `${p.t0} - ((${i}) + random()) * ${minutesInYear / count} * interval '1 minute'`;
  await step(
    db,
    'security_journal',
    db.fill(
      `INSERT INTO security_journal (at, type, brand_id, target_brand_id, actor_kind, actor_id, method, path, ip, details, count,
                                   repeat_of, repeat_minute)
     SELECT * FROM (
       SELECT k.created_at, 'integration_key_issued', ${p.id}, NULL::int, 'user', ${p.admin}, 'POST',
              '/admin/brands/${p.id}/integration-keys', ${office},
              jsonb_build_object('keyId', k.id, 'name', k.name, 'permissions', to_jsonb(k.permissions),
                                 'fullAccess', k.full_access, 'expiresAt', k.expires_at, 'allowedIps', to_jsonb(k.allowed_ips)),
              1, NULL::text, NULL::timestamptz
         FROM ${keys} AS k
       UNION ALL
       SELECT w.created_at, 'webhook_endpoint_created', ${p.id}, NULL, 'user', ${p.admin}, 'POST',
              '/admin/brands/${p.id}/webhook-endpoints', ${office},
              jsonb_build_object('endpointId', w.id, 'url', w.url, 'eventTypes', to_jsonb(w.event_types)), 1, NULL, NULL
         FROM webhook_endpoints w WHERE w.id = ${p.endpoint}
       UNION ALL
       SELECT ${p.t0} - ${ENDPOINT_DISABLED}, 'webhook_endpoint_updated', ${p.id}, NULL, 'user', ${p.admin}, 'PATCH',
              '/admin/brands/${p.id}/webhook-endpoints/' || w.id, ${office},
              jsonb_build_object('endpointId', w.id, 'url', w.url, 'eventTypes', to_jsonb(w.event_types),
                                 'description', w.description, 'enabled', false), 1, NULL, NULL
         FROM webhook_endpoints w WHERE w.id = ${p.endpoint}
       UNION ALL
       SELECT ${spread(violations, 'i')}, 'brand_violation', ${p.id}, ${p.id + 1} + i % 3, 'integration_key',
              ${p.firstKey} + (i * 6) % ${KEYS}, 'GET', '/orders/admin/' || (5000000 + i * 7), ${keyIp(`(i * 6) % ${KEYS}`)},
              jsonb_build_object('resource', 'order', 'id', 5000000 + i * 7), 1, NULL, NULL
         FROM generate_series(0, ${violations - 1}) AS i
       UNION ALL
       SELECT ${spread(mismatches, 'i')}, 'payment_amount_mismatch', ${p.id}, NULL, 'webhook', NULL, 'POST', '/payments/webhook',
              '185.71.76.' || (i % 30 + 1),
              jsonb_build_object('eventId', 'pay_' || md5(i::text), 'orderNumber', (${p.firstOrderNumber} + i * 397)::text,
                                 'expectedKopeks', 259900 + i * 100, 'receivedKopeks', 250000 + i * 100),
              1, NULL, NULL
         FROM generate_series(0, ${mismatches - 1}) AS i
       UNION ALL
       SELECT ${spread(exports, 'i')}, 'personal_data_exported', ${p.id}, NULL, 'user', ${p.admin}, 'GET',
              '/admin/brands/${p.id}/personal-data/export', ${office},
              jsonb_build_object('by', ${pick(['phone', 'email'], 'i')}, 'count', 1 + i % 7), 1, NULL, NULL
         FROM generate_series(0, ${exports - 1}) AS i
       UNION ALL
       SELECT r.at, 'ip_not_allowed', ${p.id}, NULL, 'integration_key', ${p.firstKey} + r.n, r.method, r.path, r.ip,
              jsonb_build_object('keyId', ${p.firstKey} + r.n, 'name', k.name, 'ip', r.ip), 1 + (r.i % 17) * (r.i % 3),
              'ip_not_allowed:' || (${p.firstKey} + r.n) || ':' || r.ip, date_trunc('minute', r.at)
         FROM (SELECT i, (i * 10 + ${PINNED}) % ${KEYS} AS n, '203.0.113.' || (i % 200 + 1) AS ip,
                      ${p.t0} - (i + 0.5) * ${minutesInYear / refusals} * interval '1 minute' AS at,
                      ${byKind(`(i * 10 + ${PINNED}) % ${KEYS}`, (kind) => quoted(kind.failing[0]))} AS method,
                      ${byKind(`(i * 10 + ${PINNED}) % ${KEYS}`, (kind) => quoted(kind.routes[0][1]))} AS path
                 FROM generate_series(0, ${refusals - 1}) AS i) AS r
         JOIN ${keys} AS k ON k.n = r.n
     ) AS entry ORDER BY 1`,
    ),
  );
}

/* ---------------------------------------------------------------------------------------------
 * The month past its retention, put back with ids in the gaps the build left below its own rows
 * and, for events, positions among those it reserved below its own: older than everything kept,
 * in every order the service reads.
 */

/** The first of `count` free ids in the lowest gap of at least that many in `table`'s ids. */
async function freeIds(db: Session, table: string, count: number): Promise<string> {
  if (count === 0) return '0';
  const gap = await db.one<{ from: string } | undefined>(
    // From 0 too: the build may have left its gap below its first row.
    `SELECT id + 1 AS from
       FROM (SELECT id, lead(id) OVER (ORDER BY id) AS next FROM (SELECT 0::bigint AS id UNION ALL SELECT id FROM ${table}) AS t) AS g
      WHERE next - id > ${count} ORDER BY id LIMIT 1`,
  );
  if (!gap)
    throw new Error(`${table} has no ${count} free ids below its rows: was the store built by buildLargeStore?`);
  return gap.from;
}

async function prunableEvents(db: Session, brand: Brand, t0: string): Promise<number> {
  const started = Date.now();
  const everything: Since = { order: '0', return: '0', movement: '0' };
  await db.exec(
    `DROP TABLE IF EXISTS ls_pruned;
     CREATE TEMP TABLE ls_pruned AS
     SELECT row_number() OVER (ORDER BY e.occurred_at, e.rank, e.subject_id, e.sequence)::int AS k, e.*
       FROM (${eventRows(brand.id, ago(t0, 120), ago(t0, 91), everything)}) AS e;
     CREATE UNIQUE INDEX ON ls_pruned (k)`,
  );
  const { total } = await db.one<{ total: number }>(`SELECT count(*)::int AS total FROM ls_pruned`);
  db.report('(pruned events drawn)', total, started);
  const ids = await freeIds(db, 'domain_events', total);
  // The build's first event is the first above the gap; the positions below its are the pruned month's.
  const { position } = await db.one<{ position: string }>(
    `SELECT position FROM domain_events WHERE id = (SELECT min(id) FROM domain_events WHERE id > ${ids})`,
  );
  const lowest = Number(position) - PRUNABLE_POSITIONS;
  const columns = [...EVENT_COLUMNS, ...STOCK_COLUMNS.map(([column]) => column)];
  return step(
    db,
    'domain_events',
    db.inChunks(
      total,
      (from, to) =>
        `INSERT INTO domain_events (id, position, ${columns.join(', ')})
         SELECT ${ids} + k - 1, ${lowest} + ((k - 1)::bigint * ${PRUNABLE_POSITIONS}) / ${total}, ${brand.id},
                ${columns.slice(1).join(', ')}
           FROM ls_pruned WHERE k BETWEEN ${from} AND ${to} ORDER BY k`,
    ),
  );
}

async function prunableMessages(db: Session, brand: Brand, t0: string): Promise<Record<string, number>> {
  const endpoint = await db.one<{ id: number; event_types: string[] } | undefined>(
    `SELECT id, event_types FROM webhook_endpoints WHERE brand_id = $1 AND url = $2 ORDER BY id LIMIT 1`,
    [brand.id, ENDPOINT_URL],
  );
  if (!endpoint) throw new Error(`brand ${brand.id} has no endpoint of the large store`);
  const events = `SELECT e.id AS event_id, e.type, e.occurred_at, e.data FROM domain_events e
                   WHERE e.brand_id = ${brand.id} AND e.subject = 'order' AND e.type = ANY (${array(endpoint.event_types)})
                     AND e.occurred_at >= ${ago(t0, 60)} AND e.occurred_at < ${ago(t0, 31)}
                   ORDER BY e.id LIMIT ${MESSAGES}`;
  const { count } = await db.one<{ count: number }>(`SELECT count(*)::int AS count FROM (${events}) AS e`);
  const messageIds = await freeIds(db, 'webhook_messages', count);
  const messages = await step(db, 'webhook_messages', db.fill(messagesOf(events, brand.id, { from: messageIds })));
  const deliveryIds = await freeIds(db, 'webhook_deliveries', messages);
  const deliveries = await step(
    db,
    'webhook_deliveries',
    db.fill(
      deliveriesOf(`m.id BETWEEN ${messageIds} AND ${messageIds} + ${messages - 1}`, endpoint.id, {
        from: deliveryIds,
      }),
    ),
  );
  return { webhook_messages: messages, webhook_deliveries: deliveries };
}

async function prunableRequestLog(db: Session, brand: Brand, t0: string): Promise<Record<string, number>> {
  // The build's keys: issued more than 60 days ago and logged since (the bench's own keys are new).
  const keys = `(SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM integration_keys k
                  WHERE k.brand_id = ${brand.id} AND k.created_at < ${ago(t0, 60)}
                    AND EXISTS (SELECT 1 FROM request_counts c WHERE c.key_id = k.id))`;
  const counts = await step(
    db,
    'request_counts',
    db.fill(requestCounts(keys, `date_trunc('hour', ${ago(t0, 31)})`, 29 * 24, 'true')),
  );
  const { keyCount } = await db.one<{ keyCount: number }>(`SELECT count(*)::int AS "keyCount" FROM ${keys} AS k`);
  const ids = await freeIds(db, 'request_failures', keyCount * FAILURES_PER_KEY);
  const failures = await step(db, 'request_failures', db.fill(requestFailures(keys, ago(t0, 31), 29, { from: ids })));
  return { request_counts: counts, request_failures: failures };
}
