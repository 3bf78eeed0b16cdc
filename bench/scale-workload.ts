import { sql } from './database';
import type { BenchRequest, NextRequest } from './load';
import { adminToken, api, seedData, webhookRequest } from './workload';

/** What bench:scale seeds through the API on each database: a large brand (the bench's own) and a small one. */
export interface ScaleSeed {
  bigBrandId: number;
  bigStorefrontKey: string;
  bigStorefrontKeyId: number;
  /** orders.read and returns.read. */
  bigReaderKey: string;
  /** Full access: the events of every family. */
  bigFullKey: string;
  siteKey: string;
  smallBrandId: number;
  smallReaderKey: string;
}

const SMALL_ORDERS = 50;

export async function seedScale(base: string): Promise<ScaleSeed> {
  const admin = await adminToken(base);
  const big = await seedData(base);
  const bigBrandId = big.brandId;
  const issueWithId = async (brand: number, grant: object) => {
    const issued = await api(base, 'POST', `/admin/brands/${brand}/integration-keys`, admin, {
      name: 'scale',
      ...grant,
    });
    return { key: issued.key as string, id: issued.id as number };
  };
  const issue = async (brand: number, grant: object) => (await issueWithId(brand, grant)).key;
  const storefront = await issueWithId(bigBrandId, { permissions: ['orders.create_partner'] });
  const smallBrandId = (await api(base, 'POST', '/admin/brands', admin, { name: 'Small', slug: 'small' })).id as number;
  const smallCatalog = await issue(smallBrandId, { permissions: ['products.write'] });
  await api(base, 'POST', '/catalog/products', smallCatalog, {
    name: 'Small product',
    article: 'A-0',
    storefrontArticle: 'SF-0',
    priceKopeks: 10000,
    sizes: ['XS', 'S', 'M', 'L', 'XL'].map((name) => ({ name, stock: 1000 })),
  });
  const smallStorefront = await issue(smallBrandId, { permissions: ['orders.create_partner'] });
  for (let i = 0; i < SMALL_ORDERS; i++) {
    await api(base, 'POST', '/orders/integrations/partner/webhook', smallStorefront, {
      partnerOrderId: `SMALL-${i}`,
      recipient: { fullName: 'Small Buyer', phone: '+7 912 000-00-00' },
      items: [{ article: 'SF-0', size: 'M', quantity: 1 }],
    });
  }
  return {
    bigBrandId,
    bigStorefrontKey: storefront.key,
    bigStorefrontKeyId: storefront.id,
    bigReaderKey: await issue(bigBrandId, { permissions: ['orders.read', 'returns.read'] }),
    bigFullKey: await issue(bigBrandId, { fullAccess: true }),
    siteKey: big.siteKey,
    smallBrandId,
    smallReaderKey: await issue(smallBrandId, { permissions: ['orders.read'] }),
  };
}

/** How many entries a list's first page holds in the scenarios (the events API's is 100: the warm-up writes more). */
const FIRST_PAGE = 50;

/**
 * A new database's lists filled to a full first page (returns, journal entries, request-log
 * failures), so that a first page costs there what a page costs, not what an empty answer costs:
 * the ratio then tells what the large store adds. Written by SQL into the service's own tables,
 * each as the service writes it, for the large brand's newest orders and its storefront key.
 */
export async function fillFirstPages(url: string, seed: ScaleSeed): Promise<void> {
  const brand = seed.bigBrandId;
  await sql(
    url,
    `WITH picked AS (SELECT o.id, o.order_number, o.items_total_kopeks FROM orders o
                      WHERE o.brand_id = $1::int AND NOT EXISTS (SELECT 1 FROM returns r WHERE r.order_id = o.id)
                      ORDER BY o.id DESC LIMIT $2::int),
          numbered AS (SELECT p.*, COALESCE((SELECT last FROM return_numbers WHERE brand_id = $1::int), 0)
                                   + row_number() OVER (ORDER BY p.id) AS n FROM picked p),
          made AS (INSERT INTO returns (brand_id, return_number, order_id, order_number, external_return_id, origin,
                                        status, reason_code, refund_kopeks, refund_status)
                   SELECT $1::int, 'R-' || lpad(n::text, 6, '0'), id, order_number, 'RMA-' || id, 'customer', 'requested',
                          'wrong_size', items_total_kopeks, 'pending' FROM numbered RETURNING id, order_id)
     INSERT INTO return_items (return_id, order_item_id, product_id, size_id, article, size, quantity, received_quantity,
                               restocked_quantity, price_kopeks)
     SELECT m.id, i.id, i.product_id, i.size_id, i.article, i.size, i.quantity, 0, 0, i.price_kopeks
       FROM made m JOIN order_items i ON i.order_id = m.order_id`,
    [brand, FIRST_PAGE],
  );
  await sql(
    url,
    `INSERT INTO return_numbers (brand_id, last) VALUES ($1::int, (SELECT count(*) FROM returns WHERE brand_id = $1::int))
     ON CONFLICT (brand_id) DO UPDATE SET last = EXCLUDED.last`,
    [brand],
  );
  await sql(
    url,
    `INSERT INTO security_journal (type, brand_id, actor_kind, actor_id, method, path, ip, details, at)
     SELECT 'integration_key_issued', $1::int, 'user', 1, 'POST', '/admin/brands/' || $1::int || '/integration-keys', '127.0.0.1',
            jsonb_build_object('keyId', $3::int, 'name', 'scale ' || n, 'permissions', jsonb_build_array('orders.read')),
            now() - n * interval '1 minute'
       FROM generate_series(1, $2::int) AS n`,
    [brand, FIRST_PAGE, seed.bigStorefrontKeyId],
  );
  await sql(
    url,
    `INSERT INTO request_failures (key_id, at, method, route, path, status, error, request_id, duration_ms, ip)
     SELECT $1::int, now() - n * interval '1 minute', 'POST', '/orders/integrations/partner/webhook',
            '/orders/integrations/partner/webhook', 422, 'Unknown storefront article', 'scale-' || n, 3.5, '127.0.0.1'
       FROM generate_series(1, $2::int) AS n`,
    [seed.bigStorefrontKeyId, FIRST_PAGE],
  );
}

const get = (path: string, token: string): BenchRequest => ({
  method: 'GET',
  path,
  headers: { authorization: `Bearer ${token}` },
});

/**
 * The scenarios bench:scale runs on each database, in this order: the hot paths, the first page
 * of each list, a deep page of the large brand's orders, and the small brand's lists beside it.
 * Read once the warm-up has written orders: the deep page starts near the large brand's oldest.
 */
export async function scaleScenarios(base: string, url: string, seed: ScaleSeed): Promise<Record<string, NextRequest>> {
  const session = await adminToken(base);
  const { rows: old } = await sql(url, 'SELECT id FROM orders WHERE brand_id = $1 ORDER BY id OFFSET 100 LIMIT 1', [
    seed.bigBrandId,
  ]);
  // The key whose request log is the longest: one of the large store's thousand, else the storefront's.
  const { rows: logged } = await sql(
    url,
    `SELECT k.id FROM integration_keys k LEFT JOIN request_failures f ON f.key_id = k.id
      WHERE k.brand_id = $1 GROUP BY k.id ORDER BY count(f.id) DESC, (k.id = $2) DESC LIMIT 1`,
    [seed.bigBrandId, seed.bigStorefrontKeyId],
  );
  const sent: string[] = [];
  const orders = '/orders/admin/all?limit=50';
  return {
    webhook_unique: () => webhookRequest(seed.bigStorefrontKey, sent, 0),
    webhook_repeat: () => webhookRequest(seed.bigStorefrontKey, sent, 1),
    site_me: get('/production-api/me', seed.siteKey),
    orders_first_page: get(orders, seed.bigReaderKey),
    orders_deep_before: get(`${orders}&before=${(old[0]?.id as number | undefined) ?? 1}`, seed.bigReaderKey),
    returns_first_page: get('/returns?limit=50', seed.bigReaderKey),
    journal_first_page: get(`/admin/brands/${seed.bigBrandId}/security-journal?limit=50`, session),
    events_first_page: get('/events?limit=100', seed.bigFullKey),
    request_log_first_page: get(
      `/admin/brands/${seed.bigBrandId}/integration-keys/${logged[0].id as number}/requests?limit=50`,
      session,
    ),
    small_first_page: get(orders, seed.smallReaderKey),
    small_filtered: get(`${orders}&status=completed`, seed.smallReaderKey),
    small_deep_offset: get(`${orders}&offset=9000`, seed.smallReaderKey),
  };
}

const LOOKUPS = 15;

/** Each lookup of a buyer nobody is on the large brand, LOOKUPS times in a row: the median's milliseconds. */
export async function timeLookups(base: string, seed: ScaleSeed): Promise<Record<string, number>> {
  const session = await adminToken(base);
  const data = `/admin/brands/${seed.bigBrandId}/personal-data`;
  const phone = '+7 999 000-00-01';
  const email = 'nobody-at-all@example.com';
  const lookups: Record<string, () => Promise<unknown>> = {
    erasureByPhone: () => api(base, 'POST', `${data}/erasures`, session, { phone }),
    erasureByEmail: () => api(base, 'POST', `${data}/erasures`, session, { email }),
    exportByPhone: () => api(base, 'GET', `${data}/export?phone=${encodeURIComponent(phone)}`, session),
    exportByEmail: () => api(base, 'GET', `${data}/export?email=${encodeURIComponent(email)}`, session),
  };
  const medians: Record<string, number> = {};
  for (const [name, lookup] of Object.entries(lookups)) {
    await lookup();
    const times: number[] = [];
    for (let i = 0; i < LOOKUPS; i++) {
      const started = process.hrtime.bigint();
      await lookup();
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    times.sort((a, b) => a - b);
    medians[name] = Math.round(times[Math.floor(LOOKUPS / 2)] * 10) / 10;
  }
  return medians;
}
