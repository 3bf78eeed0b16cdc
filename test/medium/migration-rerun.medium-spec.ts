import { DataThatGrows1763772900000 } from '../../src/database/migrations/1763772900000-data-that-grows';
import { IdentityModule } from '../../src/identity/identity.module';
import { openMedium, type MediumSuite } from '../support/medium';

/*
 * A start cut off while DataThatGrows builds its indexes (a crash, a probe that kills a slow start)
 * runs it again on the next start. It must keep what was finished, build again only an index that
 * a cut-off build left invalid, and find its table already there without failing.
 */
describe('DataThatGrows run again after a cut-off start', () => {
  let s: MediumSuite;

  const indexes = () =>
    s.dataSource.query<Array<{ name: string; oid: number; valid: boolean }>>(
      `SELECT c.relname AS name, c.oid::int AS oid, i.indisvalid AS valid
         FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE c.relname IN ('ix_orders_brand_status', 'ix_orders_brand_email', 'ix_domain_events_occurred')
        ORDER BY 1`,
    );

  beforeAll(async () => {
    s = await openMedium([IdentityModule]);
  }, 60_000);

  afterAll(() => s?.close());

  it('keeps the valid indexes, builds the invalid one again, and leaves the table', async () => {
    const before = await indexes();
    expect(before.map((index) => index.valid)).toEqual([true, true, true]);
    // What a CREATE INDEX CONCURRENTLY cut off leaves behind.
    await s.dataSource.query(
      `UPDATE pg_index SET indisvalid = false WHERE indexrelid = 'ix_orders_brand_email'::regclass`,
    );

    const runner = s.dataSource.createQueryRunner();
    try {
      await new DataThatGrows1763772900000().up(runner);
    } finally {
      await runner.release();
    }

    const after = await indexes();
    expect(after.map((index) => index.valid)).toEqual([true, true, true]);
    const oid = (list: typeof before, name: string) => list.find((index) => index.name === name)?.oid;
    expect(oid(after, 'ix_domain_events_occurred')).toBe(oid(before, 'ix_domain_events_occurred'));
    expect(oid(after, 'ix_orders_brand_status')).toBe(oid(before, 'ix_orders_brand_status'));
    expect(oid(after, 'ix_orders_brand_email')).not.toBe(oid(before, 'ix_orders_brand_email'));
  });
});
