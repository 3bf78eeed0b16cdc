import { MigrationInterface, QueryRunner } from 'typeorm';

/** Column, its base type, the domain it moves to and the domain's rule, and the table CHECK it replaces (for down). */
const MOVES: Array<{
  table: string;
  column: string;
  base: string;
  domain: string;
  rule: string;
  check: { name: string; text: string };
}> = [
  {
    table: 'orders',
    column: 'source',
    base: 'character varying(16)',
    domain: 'order_source',
    rule: `VALUE IN ('storefront', 'platform')`,
    check: { name: 'ck_orders_source', text: `"source" IN ('storefront', 'platform')` },
  },
  {
    table: 'order_items',
    column: 'quantity',
    base: 'integer',
    domain: 'line_quantity',
    rule: 'VALUE > 0',
    check: { name: 'ck_order_items_quantity', text: '"quantity" > 0' },
  },
  {
    table: 'order_items',
    column: 'price_kopeks',
    base: 'bigint',
    domain: 'kopeks',
    rule: 'VALUE >= 0',
    check: { name: 'ck_order_items_price', text: '"price_kopeks" >= 0' },
  },
  {
    table: 'product_sizes',
    column: 'price_kopeks',
    base: 'bigint',
    domain: 'kopeks',
    rule: 'VALUE >= 0',
    check: { name: 'ck_product_sizes_price', text: '"price_kopeks" IS NULL OR "price_kopeks" >= 0' },
  },
  {
    table: 'stock_movements',
    column: 'delta',
    base: 'integer',
    domain: 'stock_delta',
    rule: 'VALUE <> 0',
    check: { name: 'ck_stock_movements_delta', text: '"delta" <> 0' },
  },
  {
    table: 'stock_movements',
    column: 'reason',
    base: 'character varying(16)',
    domain: 'stock_reason',
    rule: `VALUE IN ('initial', 'order', 'acceptance', 'adjustment', 'return', 'cancellation')`,
    check: {
      name: 'ck_stock_movements_reason',
      text: `"reason" IN ('initial', 'order', 'acceptance', 'adjustment', 'return', 'cancellation')`,
    },
  },
];

const distinctDomains = () => [...new Map(MOVES.map((m) => [m.domain, m])).values()];

/**
 * The one-column CHECKs of the tables a storefront order writes become the checks of domains, as
 * the events' subject did (migration DomainEventSubjectType): PostgreSQL reads a table's CHECKs
 * from their stored text and plans them again in every statement that inserts into or updates the
 * table, which was about 5 % of an order's PostgreSQL CPU, while a domain's checks are planned once
 * a connection (docs/performance.md, PERF-29). A NULL passes a domain's check, as it passed the
 * table's (`price_kopeks IS NULL OR …`). Each column moves to a bare domain over its own type
 * first, which rewrites neither the table nor its indexes; the check added to the domain then reads
 * the rows once. Checks over two columns stay the table's.
 */
export class OrderPathCheckDomains1763772400000 implements MigrationInterface {
  name = 'OrderPathCheckDomains1763772400000';

  public async up(q: QueryRunner): Promise<void> {
    for (const d of distinctDomains()) await q.query(`CREATE DOMAIN "${d.domain}" AS ${d.base}`);
    for (const m of MOVES) await q.query(`ALTER TABLE "${m.table}" ALTER COLUMN "${m.column}" TYPE "${m.domain}"`);
    for (const d of distinctDomains()) {
      await q.query(`ALTER DOMAIN "${d.domain}" ADD CONSTRAINT "ck_${d.domain}" CHECK (${d.rule})`);
    }
    for (const m of MOVES) await q.query(`ALTER TABLE "${m.table}" DROP CONSTRAINT "${m.check.name}"`);
  }

  public async down(q: QueryRunner): Promise<void> {
    for (const m of MOVES) {
      await q.query(`ALTER TABLE "${m.table}" ADD CONSTRAINT "${m.check.name}" CHECK (${m.check.text})`);
    }
    for (const m of MOVES) await q.query(`ALTER TABLE "${m.table}" ALTER COLUMN "${m.column}" TYPE ${m.base}`);
    for (const d of distinctDomains()) await q.query(`DROP DOMAIN "${d.domain}"`);
  }
}
