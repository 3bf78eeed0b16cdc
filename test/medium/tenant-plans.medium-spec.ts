import type { Client } from 'pg';
import { IdentityModule } from '../../src/identity/identity.module';
import { filteredList, LIST_ORDERS, type OrderListFilter } from '../../src/orders/order-list.query';
import { buyerOrdersSql, FINAL_STATUSES } from '../../src/personal-data/personal-data.repository';
import { returnListStatements, type ReturnListFilter } from '../../src/returns/return-list.query';
import { COLUMNS as RETURN_COLUMNS } from '../../src/returns/returns.repository';
import { journalPageSql } from '../../src/security-journal/security-journal.repository';
import { openMedium, type MediumSuite } from '../support/medium';
import { mediumBrand } from '../support/medium-fixtures';
import { withClient } from '../support/test-database';

/*
 * Contract §21: a brand's lists and lookups cost what its own data makes them cost. On a database
 * where one brand holds 60 000 orders (with returns and journal entries) and another 40, every
 * list and lookup statement of the small brand, run as the service runs it (a generic plan), must
 * read through the brand's own index: the pages it touches are counted, the plan's scans looked
 * at. Walking the primary key and filtering by brand, as generic plans did, reads the large
 * brand's pages and fails both checks.
 */
const BIG_ORDERS = 60_000;
const SMALL_ORDERS = 40;
/** Pages a statement of the small brand may touch: its rows, its index's path, the brand counts. */
const SMALL_BUFFERS = 120;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Shared Hit Blocks': number;
  'Shared Read Blocks': number;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** A literal of a value, for EXECUTE (which takes no bind parameters): the test's own constants only. */
function literal(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return `ARRAY[${value.map(literal).join(', ')}]`;
  return `'${String(value).replace(/'/g, "''")}'`;
}

describe('tenants under generic plans (contract §21)', () => {
  let s: MediumSuite;
  let big: number;
  let small: number;
  let smallOrder: number;

  /** The statement prepared and run once with a generic plan; its plan with what each node read. */
  async function planOf(client: Client, text: string, values: unknown[]): Promise<PlanNode> {
    await client.query('DEALLOCATE ALL');
    await client.query(`PREPARE probe AS ${text}`);
    const args = values.length ? `(${values.map(literal).join(', ')})` : '';
    const result = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
      `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE probe${args}`,
    );
    return result.rows[0]['QUERY PLAN'][0].Plan;
  }

  /** The small brand's statement reads its own rows: few pages, and no scan that walks a table or its primary key. */
  async function expectOwnRows(text: string, values: unknown[]) {
    const plan = await withClient(s.db.url, async (client) => {
      await client.query('SET plan_cache_mode = force_generic_plan');
      return planOf(client, text, values);
    });
    // The brand counts are a few rows a brand: scanned whole, they are no walk.
    const walks = nodesOf(plan).filter(
      (node) =>
        node['Relation Name'] !== undefined &&
        !['brand_order_counts', 'brand_return_counts'].includes(node['Relation Name']) &&
        (node['Node Type'] === 'Seq Scan' || /_pkey$|^PK_/.test(node['Index Name'] ?? '')),
    );
    expect(walks.map((node) => `${node['Node Type']} ${node['Index Name'] ?? ''} on ${node['Relation Name']}`)).toEqual(
      [],
    );
    expect(plan['Shared Hit Blocks'] + plan['Shared Read Blocks']).toBeLessThan(SMALL_BUFFERS);
  }

  beforeAll(async () => {
    s = await openMedium([IdentityModule]);
    big = await mediumBrand(s);
    small = await mediumBrand(s);
    await withClient(s.db.url, async (client) => {
      const orders = (brand: number, n: number, tag: string) =>
        client.query(
          `INSERT INTO orders (brand_id, order_number, hash, source, partner_order_id, status, payment_status, ordered_at,
                               items_total_kopeks, total_kopeks, recipient_full_name, recipient_phone,
                               recipient_phone_normalized, recipient_email, updated_at)
           SELECT $1, $3 || n, md5($3 || n), 'storefront', $3 || n,
                  (ARRAY['new', 'paid', 'shipped', 'completed', 'completed', 'cancelled'])[1 + n % 6],
                  'paid', now(), 100, 100, 'Buyer', '+7 900 ' || n, '+7900' || lpad(n::text, 7, '0'),
                  'buyer' || n || '@example.com', now() - n * interval '1 minute'
             FROM generate_series(1, $2) AS n`,
          [brand, n, tag],
        );
      await orders(big, BIG_ORDERS, `BIG-${big}-`);
      await orders(small, SMALL_ORDERS, `SMALL-${small}-`);
      // Returns and journal entries: many of the big brand's, a few of the small one's.
      for (const [brand, every] of [
        [big, 4],
        [small, 8],
      ] as const) {
        await client.query(
          `INSERT INTO returns (brand_id, return_number, order_id, order_number, external_return_id, origin, status,
                                reason_code, refund_kopeks, refund_status)
           SELECT o.brand_id, 'R-' || o.id, o.id, o.order_number, 'X-' || o.id, 'customer',
                  (ARRAY['requested', 'approved', 'closed'])[1 + o.id % 3], 'other', 0, 'pending'
             FROM orders o WHERE o.brand_id = $1 AND o.id % $2 = 0`,
          [brand, every],
        );
        await client.query(
          `INSERT INTO security_journal (type, brand_id, actor_kind, actor_id, method, path, ip, details, at)
           SELECT (ARRAY['integration_key_issued', 'brand_violation'])[1 + n % 2], $1, 'user', 1, 'POST', '/x', '127.0.0.1',
                  '{}', now() - n * interval '1 minute'
             FROM generate_series(1, $2) AS n`,
          [brand, brand === big ? BIG_ORDERS : SMALL_ORDERS],
        );
      }
      await client.query('VACUUM ANALYZE orders, returns, security_journal');
      smallOrder = (await client.query<{ id: number }>('SELECT max(id) AS id FROM orders WHERE brand_id = $1', [small]))
        .rows[0].id;
    });
  }, 120_000);

  afterAll(() => s?.close());

  it('a page of the orders, unfiltered and deep (offset 10 000)', async () => {
    await expectOwnRows(LIST_ORDERS.text, [small, 50, 0]);
    await expectOwnRows(LIST_ORDERS.text, [small, 50, 10_000]);
  });

  const orderFilters: Array<[string, OrderListFilter]> = [
    ['status', { status: 'completed' }],
    ['partnerOrderId', { partnerOrderId: 'SMALL-x-1' }],
    ['updatedSince', { updatedSince: '2000-01-01T00:00:00Z' }],
    ['before', { before: 1 }],
    ['status and before', { status: 'completed', before: 1 }],
    ['every filter', { status: 'paid', partnerOrderId: 'P', updatedSince: '2000-01-01T00:00:00Z', before: 1 }],
  ];
  it.each(orderFilters)('a page of the orders by %s, deep too', async (_, filter) => {
    const list = filteredList({ ...filter, ...(filter.before ? { before: smallOrder } : {}) })!;
    await expectOwnRows(list.plain.text, [small, 50, 0, ...list.values]);
    await expectOwnRows(list.plain.text, [small, 50, 10_000, ...list.values]);
  });

  const returnFilters: Array<[string, ReturnListFilter]> = [
    ['no filter', {}],
    ['status', { status: 'closed' }],
    ['before', { before: 1 }],
    ['status and before', { status: 'approved', before: 1 }],
  ];
  it.each(returnFilters)('a page of the returns by %s and its total', async (_, filter) => {
    const list = returnListStatements(RETURN_COLUMNS, { ...filter, ...(filter.before ? { before: 2 ** 30 } : {}) });
    await expectOwnRows(list.page, [small, 50, 0, ...list.values]);
    await expectOwnRows(list.page, [small, 50, 10_000, ...list.values]);
    await expectOwnRows(list.total, [small, ...list.totalValues]);
  });

  it("the returns' total of the large brand reads its counts, not its returns", async () => {
    for (const filter of [{}, { status: 'closed' as const }]) {
      const list = returnListStatements(RETURN_COLUMNS, filter);
      await expectOwnRows(list.total, [big, ...list.totalValues]);
    }
  });

  it("a page of the brand's journal, of some types, and older than an entry", async () => {
    const page = journalPageSql({ brandId: small, limit: 50 });
    await expectOwnRows(page.text, page.values);
    const typed = journalPageSql({ brandId: small, limit: 50, types: ['brand_violation'] });
    await expectOwnRows(typed.text, typed.values);
  });

  it.each([
    ['phone', { by: 'phone', asSent: '+7 999 000', normalized: '+79990000000' }],
    ['phone that is no number', { by: 'phone', asSent: 'call me', normalized: null }],
    ['e-mail', { by: 'email', email: 'nobody@example.com' }],
  ] as const)('the erasure and export lookups of a buyer by %s nobody has', async (_, match) => {
    const statements = buyerOrdersSql(match);
    await expectOwnRows(statements.locked, [small, ...statements.values, FINAL_STATUSES]);
    await expectOwnRows(statements.others, [small, ...statements.values, [0]]);
    await expectOwnRows(statements.unerased, [small, ...statements.values]);
    // By the index in the large brand too: a lookup does not grow with the brand's orders.
    const plan = await withClient(s.db.url, async (client) => {
      await client.query('SET plan_cache_mode = force_generic_plan');
      return planOf(client, statements.unerased, [big, ...statements.values]);
    });
    expect(plan['Shared Hit Blocks'] + plan['Shared Read Blocks']).toBeLessThan(SMALL_BUFFERS);
  });
});
