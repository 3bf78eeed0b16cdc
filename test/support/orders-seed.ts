import { randomBytes } from 'node:crypto';
import type { Client } from 'pg';
import { withClient } from './test-database';

let counter = 0;

/**
 * Inserts an order row directly. Only for suites that need orders before the storefront
 * webhook exists to create them; the webhook's own suites create orders through it.
 */
export async function seedOrder(
  databaseUrl: string,
  brandId: number,
  overrides: { partnerOrderId?: string } = {},
): Promise<number> {
  // Taken now: concurrent calls read it only after they have connected.
  const n = ++counter;
  return withClient(databaseUrl, (c) => insertOrder(c, brandId, overrides, n));
}

/** seedOrder on a connection the caller holds (in its transaction, if it opened one). */
export function seedOrderOn(client: Client, brandId: number): Promise<number> {
  return insertOrder(client, brandId, {}, ++counter);
}

async function insertOrder(
  client: Client,
  brandId: number,
  overrides: { partnerOrderId?: string },
  n: number,
): Promise<number> {
  const rows = await client.query(
    `INSERT INTO orders (brand_id, order_number, hash, source, partner_order_id, status, payment_status, ordered_at,
                         items_total_kopeks, delivery_cost_kopeks, total_kopeks, recipient_full_name, recipient_phone)
     VALUES ($1, $2, $3, 'storefront', $4, 'paid', 'paid', now(), 150000, 30000, 180000, 'Ivanov Ivan Ivanovich', '+7 900 000-00-00')
     RETURNING id`,
    [brandId, `T-${process.pid}-${n}`, randomBytes(16).toString('hex'), overrides.partnerOrderId ?? `P-${n}`],
  );
  return rows.rows[0].id;
}
