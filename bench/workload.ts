import type { NextRequest } from './load';

/** What the bench seeds and sends: a brand with keys and a catalog, and storefront orders. */
const PRODUCTS = 200;
const SIZES = ['XS', 'S', 'M', 'L', 'XL'];

/** The superadministrator the bench's service starts with (service-process.ts); the password passes the rule. */
export const BENCH_ADMIN = { email: 'bench@example.com', password: 'load-run-phrase-1' };

/** A JSON call to the service; throws on any answer of 300 and above. */
export async function api(base: string, method: string, url: string, token: string | undefined, body?: unknown) {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as Record<string, unknown>;
  if (response.status >= 300) throw new Error(`${method} ${url} → ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/** The session token of BENCH_ADMIN. */
export async function adminToken(base: string): Promise<string> {
  return (await api(base, 'POST', '/auth/login', undefined, BENCH_ADMIN)).token as string;
}

export async function seedData(base: string) {
  const admin = await adminToken(base);
  const brand = (await api(base, 'POST', '/admin/brands', admin, { name: 'Bench', slug: 'bench' })).id as number;
  const issue = async (permissions: string[]) =>
    (await api(base, 'POST', `/admin/brands/${brand}/integration-keys`, admin, { name: 'bench', permissions }))
      .key as string;
  const catalogKey = await issue(['products.write']);
  for (let p = 0; p < PRODUCTS; p++) {
    await api(base, 'POST', '/catalog/products', catalogKey, {
      name: `Product ${p}`,
      article: `A-${p}`,
      storefrontArticle: `SF-${p}`,
      priceKopeks: 10000 + p,
      sizes: SIZES.map((name) => ({ name, stock: 1000 })),
    });
  }
  const site = (await api(base, 'POST', `/admin/brands/${brand}/production-sites`, admin, { name: 'Bench site' }))
    .id as number;
  const siteKey = (await api(base, 'POST', `/admin/brands/${brand}/production-sites/${site}/keys`, admin))
    .key as string;
  const subscribe = async (url: string) =>
    api(base, 'POST', `/admin/brands/${brand}/webhook-endpoints`, admin, { url, eventTypes: ['order.created'] });
  return {
    brandId: brand,
    storefrontKey: await issue(['orders.create_partner']),
    readerKey: await issue(['orders.read']),
    siteKey,
    subscribe,
  };
}

let orderSeq = 0;
/** A new order, or (repeatShare of the time) a storefront's retry: the same body sent again. */
export function webhookRequest(key: string, sent: string[], repeatShare: number) {
  const request = {
    method: 'POST',
    path: '/orders/integrations/partner/webhook',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
  };
  if (sent.length > 0 && Math.random() < repeatShare)
    return { ...request, body: sent[Math.floor(Math.random() * sent.length)] };
  const partnerOrderId = `B-${process.pid}-${++orderSeq}`;
  const lines = 1 + Math.floor(Math.random() * 3);
  const items = Array.from({ length: lines }, () => ({
    article: `SF-${Math.floor(Math.random() * PRODUCTS)}`,
    size: SIZES[Math.floor(Math.random() * SIZES.length)],
    quantity: 1 + Math.floor(Math.random() * 2),
  }));
  const body = JSON.stringify({
    partnerOrderId,
    recipient: { fullName: 'Bench Buyer Testovich', phone: '+7 912 345-67-89' },
    items,
    delivery: { city: 'Kazan', deliveryCostKopeks: 30000 },
  });
  sent.push(body);
  return { ...request, body };
}

/** Each scenario's requests over one seeded brand, in the order the bench runs them. */
export function scenarioRequests(
  seed: Awaited<ReturnType<typeof seedData>>,
  sent: string[],
): Record<string, NextRequest> {
  return {
    webhook_unique: () => webhookRequest(seed.storefrontKey, sent, 0),
    webhook_dup30: () => webhookRequest(seed.storefrontKey, sent, 0.3),
    webhook_unique_subscribed: () => webhookRequest(seed.storefrontKey, sent, 0),
    admin_list: {
      method: 'GET',
      path: '/orders/admin/all?limit=1',
      headers: { authorization: `Bearer ${seed.readerKey}` },
    },
    site_me: { method: 'GET', path: '/production-api/me', headers: { authorization: `Bearer ${seed.siteKey}` } },
  };
}
