import { parseList } from 'structured-headers';
import request, { type Response } from 'supertest';
import { Fixtures, issueKey, journal, siteWithKey, type IssuedKey } from './support/fixtures';
import { closeSuite, openSuite } from './support/suite';
import { type TestDatabase } from './support/test-database';
import { bearer, type TestApp } from './support/test-app';

const LIMITS = { RATE_LIMIT_PER_SECOND: '5', RATE_LIMIT_BURST: '10' };

/**
 * The answers of the per-key rate limit. Its windows over ten seconds, and what instances share
 * (Redis counters, the journal of address refusals), are test/medium/rate-limit-*.
 */
describe('rate limits per key', () => {
  let db: TestDatabase;
  let t: TestApp;
  let fx: Fixtures;
  let brand: number;

  beforeAll(async () => {
    ({ db, t, fx } = await openSuite({ env: LIMITS }));
    brand = await fx.brand();
  });
  afterAll(() => closeSuite({ db, t }));

  const burst = (http: TestApp['http'], path: string, headers: Record<string, string>, count: number) =>
    Promise.all(Array.from({ length: count }, () => request(http).get(path).set(headers)));

  it('a key gets its burst, then 429 Too many requests with Retry-After; other keys and sessions are not affected', async () => {
    const key = await issueKey(fx, brand, { permissions: ['orders.read'] });
    const other = await issueKey(fx, brand, { permissions: ['orders.read'] });
    const responses = await burst(t.http, '/orders/admin/all?limit=1', key.headers, 15);
    expect(responses.filter((r) => r.status === 200)).toHaveLength(10);
    const limited = responses.filter((r) => r.status === 429);
    expect(limited).toHaveLength(5);
    expect(limited[0].body.error).toBe('Too many requests');
    expect(Number(limited[0].headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const headerNames = responses.flatMap((r) => Object.keys(r.headers));
    expect(headerNames.filter((name) => name.startsWith('x-ratelimit') || name.startsWith('retry-after-'))).toEqual([]);
    await request(t.http).get('/orders/admin/all?limit=1').set(other.headers).expect(200);
    const sessions = await burst(t.http, '/auth/me', bearer(fx.admin), 15);
    expect(sessions.every((r) => r.status === 200)).toBe(true);
  });

  /** The two fields of contract §20, read as RFC 9651 lists: each policy's name and parameters. */
  const fieldsOf = (response: Response) => {
    const read = (name: string) =>
      parseList(String(response.headers[name])).map(([item, params]): Record<string, unknown> => ({
        policy: String(item),
        ...Object.fromEntries(params),
      }));
    return { policies: read('ratelimit-policy'), limit: read('ratelimit') };
  };

  it('answers each key request with the RateLimit fields; r falls by one a request; a 429 carries them', async () => {
    const key = await issueKey(fx, brand, { permissions: ['orders.read'] });
    const left: number[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await request(t.http).get('/orders/admin/all?limit=1').set(key.headers).expect(200);
      const { policies, limit } = fieldsOf(response);
      expect(policies).toEqual([
        { policy: 'burst', q: 10, w: 1 },
        { policy: 'window', q: 50, w: 10 },
      ]);
      expect(limit).toHaveLength(1);
      expect(limit[0].policy).toBe('burst');
      expect(limit[0].t).toBeGreaterThanOrEqual(1);
      left.push(limit[0].r as number);
    }
    // Counted within one second's window (the fourth may fall into the next: then r starts again).
    expect(left.slice(0, 2)).toEqual([left[0], left[0] - 1]);
    const responses = await burst(t.http, '/orders/admin/all?limit=1', key.headers, 12);
    const refused = responses.find((response) => response.status === 429)!;
    expect(fieldsOf(refused).limit).toEqual([{ policy: 'burst', r: 0, t: expect.any(Number) }]);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(fieldsOf(refused).policies).toHaveLength(2);
  });

  it('answers a site key with the fields too, and a session without them', async () => {
    const site = await siteWithKey(fx, brand);
    const response = await request(t.http).get('/production-api/me').set(site.headers).expect(200);
    expect(fieldsOf(response).policies.map((entry) => entry.policy)).toEqual(['burst', 'window']);
    const session = await request(t.http).get('/auth/me').set(bearer(fx.admin)).expect(200);
    expect(session.headers.ratelimit).toBeUndefined();
    expect(session.headers['ratelimit-policy']).toBeUndefined();
  });

  it('the limit counts across routes, and comes back after the window', async () => {
    const key = await issueKey(fx, brand, { permissions: ['orders.read', 'products.read'] });
    await burst(t.http, '/orders/admin/all?limit=1', key.headers, 10);
    await request(t.http).get('/catalog/products').set(key.headers).expect(429);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await request(t.http).get('/catalog/products').set(key.headers).expect(200);
  });

  // The order list checks a known key in its own statement (KeyCheckedByStatement); a refusal that
  // comes first must not tell a revoked key's holder anything but 401.
  it('a key this instance knows, revoked, over its limit: 401, not 429', async () => {
    const key = await issueKey(fx, brand, { permissions: ['orders.read'] });
    const first = await burst(t.http, '/orders/admin/all?limit=1', key.headers, 10);
    expect(first.every((r) => r.status === 200)).toBe(true);
    await request(t.http)
      .post(`/admin/brands/${brand}/integration-keys/${key.id}/revoke`)
      .set(bearer(fx.admin))
      .expect(200);
    const refused = await request(t.http).get('/orders/admin/all?limit=1').set(key.headers).expect(401);
    expect(refused.body.error).toBe('Unauthorized');
    expect(refused.headers['retry-after']).toBeUndefined();
  });

  const pinnedElsewhere = async (): Promise<IssuedKey> => {
    const issued = await request(t.http)
      .post(`/admin/brands/${brand}/integration-keys`)
      .set(bearer(fx.admin))
      .send({ name: 'pinned', permissions: ['orders.read', 'products.read'], allowedIps: ['10.0.0.0/8'] })
      .expect(201);
    return { id: issued.body.id, key: issued.body.key, headers: { Authorization: `Bearer ${issued.body.key}` } };
  };
  const refusalsOf = async (key: IssuedKey) =>
    (await journal(fx)).filter((e) => e.type === 'ip_not_allowed' && e.details.keyId === key.id) as Array<
      Awaited<ReturnType<typeof journal>>[number] & { count: number }
    >;

  it('a key used from an address it is not allowed at is limited too: 403 within its limit, then 429', async () => {
    const key = await pinnedElsewhere();
    for (const path of ['/orders/admin/all?limit=1', '/catalog/products']) {
      const responses = await burst(t.http, path, key.headers, 15);
      const statuses = responses.map((r) => r.status).sort();
      expect(statuses).toEqual([...Array(10).fill(403), ...Array(5).fill(429)]);
      expect(responses.find((r) => r.status === 429)?.body.error).toBe('Too many requests');
      await new Promise((resolve) => setTimeout(resolve, 1100));
    }
    // One entry per minute for the repeated refusal, counting each 403 (a burst may straddle a minute).
    const entries = await refusalsOf(key);
    expect(entries.length).toBeLessThanOrEqual(2);
    expect(entries.reduce((sum, e) => sum + e.count, 0)).toBe(20);
    expect(entries[0]).toMatchObject({ ip: expect.any(String), details: { keyId: key.id, name: 'pinned' } });
  });

  it('site keys are limited the same way', async () => {
    const site = await siteWithKey(fx, brand);
    const responses = await burst(t.http, '/production-api/me', site.headers, 12);
    expect(responses.filter((r) => r.status === 429)).toHaveLength(2);
  });
});
