import { withClient } from './test-database';

/** Stock of a size and the sum of its ledger, read straight from the database. */
export async function stockAndLedger(databaseUrl: string, sizeId: number): Promise<{ stock: number; ledger: number }> {
  return withClient(databaseUrl, async (c) => {
    const stock = await c.query('SELECT stock FROM product_sizes WHERE id = $1', [sizeId]);
    const ledger = await c.query(
      'SELECT COALESCE(sum(delta), 0)::int AS total FROM stock_movements WHERE size_id = $1',
      [sizeId],
    );
    return { stock: stock.rows[0].stock, ledger: ledger.rows[0].total };
  });
}

export async function countRows(
  databaseUrl: string,
  table: string,
  where = 'true',
  params: unknown[] = [],
): Promise<number> {
  return withClient(
    databaseUrl,
    async (c) => (await c.query(`SELECT count(*)::int AS n FROM "${table}" WHERE ${where}`, params)).rows[0].n,
  );
}
