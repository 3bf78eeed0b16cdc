import { PreparedStatements } from '../../src/database/prepared';
import { IdentityModule } from '../../src/identity/identity.module';
import { LedgerSql } from '../../src/stock-ledger/stock-ledger';
import { openMedium, type MediumSuite } from '../support/medium';
import { mediumBrand } from '../support/medium-fixtures';
import { withClient } from '../support/test-database';

/*
 * The service runs every statement with a generic plan (plan_cache_mode), made once per
 * connection from the statistics of that moment. A part that a small catalog's statistics could
 * turn into a scan of the whole table must not depend on them: these plans are checked on such a
 * catalog, analysed.
 */
describe('statement parts under generic plans', () => {
  let s: MediumSuite;
  let brandId: number;

  beforeAll(async () => {
    // The database layer is the service's own (its pool and pipelined connections); a brand is all it needs.
    s = await openMedium([IdentityModule]);
    brandId = await mediumBrand(s);
    await withClient(s.db.url, async (client) => {
      await client.query(
        `WITH p AS (INSERT INTO products (brand_id, name, article, price_kopeks) VALUES ($1, 'Plan probe', 'PLAN-1', 100) RETURNING id)
         INSERT INTO product_sizes (product_id, brand_id, name, name_key, stock)
         SELECT p.id, $1, 'S' || n, 's' || n, 10 FROM p, generate_series(1, 1000) AS n`,
        [brandId],
      );
      await client.query('ANALYZE products, product_sizes');
    });
  }, 60_000);

  afterAll(() => s?.close());

  it("the pipelined reads connect as TypeORM's pool does: generic plans, the service named", async () => {
    const statements = s.get(PreparedStatements);
    const probe = {
      name: 'connection_settings_probe',
      text: "SELECT current_setting('plan_cache_mode') AS plans, current_setting('application_name') AS app",
    };
    const [pooled] = await s.dataSource.query<Array<{ plans: string; app: string }>>(probe.text);
    const [pipelined] = await statements.read<{ plans: string; app: string }>(probe, []);
    expect(pooled).toEqual({ plans: 'force_generic_plan', app: 'commerce-integration-layer' });
    expect(pipelined).toEqual(pooled);
  });

  it("the ledger's stock change reaches the locked sizes by primary key, not by scanning every size", async () => {
    const plan = await withClient(s.db.url, async (client) => {
      await client.query('SET plan_cache_mode = force_generic_plan');
      await client.query(
        `PREPARE apply_probe(int[], int[], int) AS
         WITH locked AS (${LedgerSql.lockSizes('$1')}),
              updated AS (${LedgerSql.addDeltas({ locked: 'locked', changes: 'unnest($1::int[], $2::int[])', brandId: '$3' })})
         SELECT id, stock FROM updated`,
      );
      const sizes = await client.query<{ id: number }>(`SELECT id FROM product_sizes WHERE brand_id = $1 LIMIT 2`, [
        brandId,
      ]);
      const ids = sizes.rows.map((row) => row.id);
      // EXECUTE takes no bind parameters: the values are integers the database just gave.
      const rows = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN EXECUTE apply_probe('{${ids.join(',')}}', '{0,0}', ${Number(brandId)})`,
      );
      return rows.rows.map((row) => row['QUERY PLAN']).join('\n');
    });
    expect(plan).toMatch(/Index Scan using \w+ on product_sizes s\b/);
    expect(plan).not.toMatch(/Seq Scan on product_sizes/);
  });
});
