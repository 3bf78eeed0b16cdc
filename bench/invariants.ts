import { sql } from './database';

/**
 * Orders = 201 answers, up to the requests still in flight when a scenario's time ran out (the
 * server completes them; the load generator no longer counts them). No partner order twice, and
 * the ledger matches the stock consumed.
 */
export async function checkInvariants(url: string, created201: number, inFlightAtStop: number) {
  const orders = Number((await sql(url, 'SELECT count(*) FROM orders')).rows[0].count);
  const duplicates = Number(
    (await sql(url, 'SELECT count(*) - count(DISTINCT (brand_id, partner_order_id)) AS n FROM orders')).rows[0].n,
  );
  const consumed = Number((await sql(url, 'SELECT COALESCE(sum(quantity), 0) AS q FROM order_items')).rows[0].q);
  const ledgerOrders = Number(
    (await sql(url, `SELECT COALESCE(-sum(delta), 0) AS q FROM stock_movements WHERE reason = 'order'`)).rows[0].q,
  );
  const drift = Number(
    (
      await sql(
        url,
        `SELECT count(*) AS n FROM product_sizes s
          WHERE s.stock <> (SELECT COALESCE(sum(delta), 0) FROM stock_movements m WHERE m.size_id = s.id)`,
      )
    ).rows[0].n,
  );
  const ok =
    orders >= created201 &&
    orders <= created201 + inFlightAtStop &&
    duplicates === 0 &&
    consumed === ledgerOrders &&
    drift === 0;
  return {
    ok,
    orders,
    created201,
    inFlightAtStop,
    duplicates,
    stockConsumed: consumed,
    ledgerConsumed: ledgerOrders,
    sizesOffLedger: drift,
  };
}
