import path from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/database/data-source-options';
import { runMigrationsExclusively } from '../src/database/migration-runner';
import { createTestDatabase, type TestDatabase } from './support/test-database';

/** Migrations are the only path to the schema; the entities must describe exactly what they build. */
describe('entities and migrations', () => {
  let db: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    // Empty: the migrations below build the schema from nothing, as on a first start.
    db = await createTestDatabase({ empty: true });
    dataSource = new DataSource({
      ...dataSourceOptions(db.url),
      entities: [path.resolve(__dirname, '../src/**/*.entity.ts')],
    });
    await dataSource.initialize();
    await runMigrationsExclusively(dataSource);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it('a schema diff after all migrations is empty (migration:generate would find nothing)', async () => {
    const pending = await dataSource.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((q) => q.query)).toEqual([]);
  });

  it("keeps an event's subject to its four values by the column's domain", async () => {
    const insert = (subject: string) =>
      dataSource.query(
        `INSERT INTO domain_events (brand_id, subject, subject_id, sequence, type, data) VALUES (1, $1, 1, 1, 'x', '{}')`,
        [subject],
      );
    await expect(insert('bogus')).rejects.toMatchObject({ code: '23514', constraint: 'ck_domain_event_subject' });
    await insert('size');
    await dataSource.query(`DELETE FROM domain_events`);
  });

  // Checks of domains, not of the tables an order writes (migration OrderPathCheckDomains, PERF-29).
  it.each([
    ['orders', 'source', 'order_source', `'market'`, `'platform'`],
    ['order_items', 'quantity', 'line_quantity', '0', '1'],
    ['order_items', 'price_kopeks', 'kopeks', '-1', '0'],
    ['product_sizes', 'price_kopeks', 'kopeks', '-1', 'NULL'],
    ['stock_movements', 'delta', 'stock_delta', '0', '-1'],
    ['stock_movements', 'reason', 'stock_reason', `'theft'`, `'cancellation'`],
  ])('keeps %s.%s by the domain %s: refuses %s, takes %s', async (table, column, domain, refused, taken) => {
    const [{ domain_name }] = await dataSource.query(
      `SELECT domain_name FROM information_schema.columns WHERE table_name = $1 AND column_name = $2`,
      [table, column],
    );
    expect(domain_name).toBe(domain);
    // The domain's check runs as the value is written, before the row's other columns are looked at.
    await expect(dataSource.query(`INSERT INTO ${table} (${column}) VALUES (${refused})`)).rejects.toMatchObject({
      code: '23514',
      constraint: `ck_${domain}`,
    });
    await expect(dataSource.query(`INSERT INTO ${table} (${column}) VALUES (${taken})`)).rejects.not.toMatchObject({
      code: '23514',
    });
  });

  it("keeps each subject's sequences unique but a size's, which its row's counter numbers", async () => {
    const insert = (subject: string) =>
      dataSource.query(
        `INSERT INTO domain_events (brand_id, subject, subject_id, sequence, type, data) VALUES (1, $1, 1, 1, 'x', '{}')`,
        [subject],
      );
    for (const subject of ['order', 'return', 'product']) {
      await insert(subject);
      await expect(insert(subject)).rejects.toMatchObject({ code: '23505', constraint: 'uq_domain_events_sequence' });
    }
    await insert('size');
    await insert('size');
    await dataSource.query(`DELETE FROM domain_events`);
  });

  it('every migration can be reverted and applied again', async () => {
    const count = dataSource.migrations.length;
    for (let i = 0; i < count; i++) await dataSource.undoLastMigration({ transaction: 'each' });
    expect(await dataSource.query(`SELECT to_regclass('public.users') AS t`)).toEqual([{ t: null }]);
    await runMigrationsExclusively(dataSource);
    const pending = await dataSource.driver.createSchemaBuilder().log();
    expect(pending.upQueries).toEqual([]);
  });
});
