import { IdentityModule } from '../../src/identity/identity.module';
import { ReturnsModule } from '../../src/returns/returns.module';
import { ReturnsRepository } from '../../src/returns/returns.repository';
import { openMedium, type MediumSuite } from '../support/medium';
import { mediumBrand } from '../support/medium-fixtures';

/*
 * The returns list's total reads brand_return_counts, which triggers keep (contract §21). Whatever
 * writes the returns table, the counts must equal a count of the returns themselves, and writers
 * moving returns both ways between two states at once must not deadlock on them.
 */
describe("a brand's return counts", () => {
  let s: MediumSuite;
  let brand: number;
  let other: number;

  const query = <T>(text: string, values: unknown[] = []) => s.dataSource.query<T[]>(text, values);

  /** The counts as kept and as counted from the returns, per brand and status, for both brands. */
  async function countsKeptAndCounted() {
    const kept = await query<{ brand_id: number; status: string; n: number }>(
      `SELECT brand_id, status, returns::int AS n FROM brand_return_counts
        WHERE brand_id = ANY($1) AND returns <> 0 ORDER BY 1, 2`,
      [[brand, other]],
    );
    const counted = await query<{ brand_id: number; status: string; n: number }>(
      `SELECT brand_id, status, count(*)::int AS n FROM returns WHERE brand_id = ANY($1) GROUP BY 1, 2 ORDER BY 1, 2`,
      [[brand, other]],
    );
    return { kept, counted };
  }

  async function returnsOf(brandId: number, n: number, status: string): Promise<number[]> {
    const rows = await query<{ id: number }>(
      `WITH o AS (
         INSERT INTO orders (brand_id, order_number, hash, source, partner_order_id, status, payment_status, ordered_at,
                             items_total_kopeks, total_kopeks, recipient_full_name, recipient_phone)
         SELECT $1::int, t.tag, md5(t.tag), 'storefront', t.tag, 'completed', 'paid', now(), 100, 100, 'Buyer', '+7'
           FROM generate_series(1, $2::int) AS g CROSS JOIN LATERAL (SELECT concat_ws('-', 'RC', $1::int, g, $3::text) AS tag) t
         RETURNING id, order_number)
       INSERT INTO returns (brand_id, return_number, order_id, order_number, external_return_id, origin, status,
                            reason_code, refund_kopeks, refund_status)
       SELECT $1::int, 'R-' || o.id, o.id, o.order_number, 'X-' || o.id, 'customer', $3::text, 'other', 0, 'pending' FROM o
       RETURNING id`,
      [brandId, n, status],
    );
    return rows.map((r) => r.id);
  }

  beforeAll(async () => {
    s = await openMedium([IdentityModule, ReturnsModule]);
    brand = await mediumBrand(s);
    other = await mediumBrand(s);
  }, 60_000);

  afterAll(() => s?.close());

  it('follow every insert, move, brand change and delete', async () => {
    const requested = await returnsOf(brand, 30, 'requested');
    await returnsOf(brand, 5, 'closed');
    await returnsOf(other, 7, 'requested');
    await query(`UPDATE returns SET status = 'approved' WHERE id = ANY($1)`, [requested.slice(0, 12)]);
    // A write that names the status without changing it counts nothing twice.
    await query(`UPDATE returns SET status = status, reason_note = 'x' WHERE id = ANY($1)`, [requested.slice(12, 20)]);
    await query(`UPDATE returns SET brand_id = $2 WHERE id = ANY($1)`, [requested.slice(20, 23), other]);
    await query(`DELETE FROM returns WHERE id = ANY($1)`, [requested.slice(23, 26)]);

    const { kept, counted } = await countsKeptAndCounted();
    expect(kept).toEqual(counted);
    expect(kept).toEqual([
      { brand_id: brand, status: 'approved', n: 12 },
      { brand_id: brand, status: 'closed', n: 5 },
      { brand_id: brand, status: 'requested', n: 12 },
      { brand_id: other, status: 'requested', n: 10 },
    ]);

    const page = await s.get(ReturnsRepository).page(brand, { limit: 5, offset: 0 });
    expect(page.total).toBe(29);
    const approved = await s.get(ReturnsRepository).page(brand, { status: 'approved', limit: 5, offset: 0 });
    expect(approved.total).toBe(12);
    expect(approved.rows).toHaveLength(5);
  });

  it('stay exact under writers moving returns both ways at once, with no deadlock', async () => {
    const a = await returnsOf(brand, 40, 'in_transit');
    const b = await returnsOf(brand, 40, 'received');
    // Each transaction moves one return each way, in opposite orders: count rows locked in the
    // order of the writes would deadlock, the sorted single statement does not.
    const move = async (one: number, two: number, forward: boolean) => {
      const runner = s.dataSource.createQueryRunner();
      await runner.connect();
      try {
        await runner.startTransaction();
        const [first, firstTo, second, secondTo] = forward
          ? [one, 'received', two, 'in_transit']
          : [two, 'in_transit', one, 'received'];
        await runner.query(`UPDATE returns SET status = $2 WHERE id = $1`, [first, firstTo]);
        await new Promise((resolve) => setTimeout(resolve, 5));
        await runner.query(`UPDATE returns SET status = $2 WHERE id = $1`, [second, secondTo]);
        await runner.commitTransaction();
      } finally {
        await runner.release();
      }
    };
    await Promise.all(a.map((id, i) => move(id, b[i], i % 2 === 0)));

    const { kept, counted } = await countsKeptAndCounted();
    expect(kept).toEqual(counted);
    expect(kept.filter((row) => row.brand_id === brand && ['in_transit', 'received'].includes(row.status))).toEqual([
      { brand_id: brand, status: 'in_transit', n: 40 },
      { brand_id: brand, status: 'received', n: 40 },
    ]);
  }, 30_000);
});
