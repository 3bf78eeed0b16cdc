import request from 'supertest';
import { Fixtures, issueKey, journal, siteWithKey } from './support/fixtures';
import { databaseAsText } from './support/database-text';
import { createTestDatabase, type TestDatabase } from './support/test-database';
import { bearer, startTestApp, type TestApp } from './support/test-app';

describe('production sites, site keys and the production API', () => {
  let db: TestDatabase;
  let t: TestApp;
  let fx: Fixtures;
  let brandA: number;
  let brandB: number;

  beforeAll(async () => {
    db = await createTestDatabase();
    // Production settings: the site-key cache at its default.
    t = await startTestApp({ databaseUrl: db.url });
    fx = await Fixtures.create(t.http);
    brandA = await fx.brand('Alpha Wear');
    brandB = await fx.brand();
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  it('creates a site (201 {id, name, active: true}) and a key (201 {id, key, siteId, createdAt}, 48 lowercase hex)', async () => {
    const site = await request(t.http)
      .post(`/admin/brands/${brandA}/production-sites`)
      .set(bearer(fx.admin))
      .send({ name: 'Ivanovo' })
      .expect(201);
    expect(site.body).toMatchObject({ id: expect.any(Number), name: 'Ivanovo', active: true });
    const key = await request(t.http)
      .post(`/admin/brands/${brandA}/production-sites/${site.body.id}/keys`)
      .set(bearer(fx.admin))
      .expect(201);
    expect(key.body).toMatchObject({
      id: expect.any(Number),
      key: expect.stringMatching(/^[0-9a-f]{48}$/),
      siteId: site.body.id,
      createdAt: expect.any(String),
    });
    const entry = (await journal(fx)).find((e) => e.type === 'site_key_issued' && e.details.keyId === key.body.id);
    expect(entry).toMatchObject({ brandId: brandA, details: { siteId: site.body.id, name: 'Ivanovo' } });
    // Only a fingerprint is stored: no table holds the key.
    const dump = await databaseAsText(db.url);
    expect(dump).toContain('Ivanovo');
    expect(dump).not.toContain(key.body.key);
    expect(dump).not.toContain(Buffer.from(key.body.key, 'utf8').toString('hex'));
  });

  it('GET /production-api/me names the site and its brand; Bearer is matched case-insensitively', async () => {
    const site = await siteWithKey(fx, brandA, 'Kostroma');
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
      const response = await request(t.http)
        .get('/production-api/me')
        .set('Authorization', `${scheme} ${site.key}`)
        .expect(200);
      const brand = await request(t.http).get('/admin/brands').set(bearer(fx.admin));
      const alpha = brand.body.items.find((b: { id: number }) => b.id === brandA);
      expect(response.body).toEqual({
        site: { id: site.siteId, name: 'Kostroma' },
        brand: { id: brandA, name: alpha.name, slug: alpha.slug },
      });
    }
  });

  it('answers its own texts: no header → Missing Authorization: Bearer <apiKey>; any other header → Invalid or inactive API key', async () => {
    const missing = await request(t.http).get('/production-api/me').expect(401);
    expect(missing.body.error).toBe('Missing Authorization: Bearer <apiKey>');
    const notBearer = await request(t.http).get('/production-api/me').set('Authorization', 'Basic abc').expect(401);
    expect(notBearer.body.error).toBe('Invalid or inactive API key');
    const integration = await issueKey(fx, brandA, { fullAccess: true });
    for (const value of ['0'.repeat(48), 'not-a-key', 'ABCDEF'.repeat(8), integration.key, fx.admin.token]) {
      const response = await request(t.http)
        .get('/production-api/me')
        .set('Authorization', `Bearer ${value}`)
        .expect(401);
      expect(response.body.error).toBe('Invalid or inactive API key');
    }
    // A browser session cookie opens nothing here either.
    const cookie = await request(t.http).get('/production-api/me').set('Cookie', fx.admin.cookie).expect(401);
    expect(cookie.body.error).toBe('Missing Authorization: Bearer <apiKey>');
  });

  it('a site key never opens the brand API', async () => {
    const site = await siteWithKey(fx, brandA);
    const response = await request(t.http).get('/orders/admin/all?limit=1').set(site.headers).expect(401);
    expect(response.body.error).toBe('Unauthorized');
  });

  // How soon every instance sees a revocation or a switch-off (the cache's bound) is the medium suite's.
  it('a revoked key, or a key of a site switched off, answers 401 Invalid or inactive API key', async () => {
    const revokedSite = await siteWithKey(fx, brandA, 'Revoked workshop');
    const revoke = () =>
      request(t.http)
        .post(`/admin/brands/${brandA}/production-sites/${revokedSite.siteId}/keys/${revokedSite.keyId}/revoke`)
        .set(bearer(fx.admin))
        .expect(200);
    const revoked = await revoke();
    expect(revoked.body).toMatchObject({
      id: revokedSite.keyId,
      siteId: revokedSite.siteId,
      revokedAt: expect.any(String),
    });
    expect((await revoke()).body.revokedAt).toBe(revoked.body.revokedAt);
    const seasonal = await siteWithKey(fx, brandA, 'Seasonal');
    const off = await request(t.http)
      .patch(`/admin/brands/${brandA}/production-sites/${seasonal.siteId}`)
      .set(bearer(fx.admin))
      .send({ active: false })
      .expect(200);
    expect(off.body).toMatchObject({ id: seasonal.siteId, active: false });
    // Keys this instance has not seen yet: no cached answer stands between the change and the refusal.
    for (const headers of [revokedSite.headers, seasonal.headers]) {
      const response = await request(t.http).get('/production-api/me').set(headers).expect(401);
      expect(response.body.error).toBe('Invalid or inactive API key');
    }
  });

  it("another brand's site or key addressed through this brand: 403 Forbidden: brand not allowed, journaled", async () => {
    const foreign = await siteWithKey(fx, brandB, 'Foreign');
    const manager = await fx.member(brandA, ['settings.manage']);
    const attempts = [
      request(t.http)
        .patch(`/admin/brands/${brandA}/production-sites/${foreign.siteId}`)
        .set(bearer(manager))
        .send({ active: false }),
      request(t.http).post(`/admin/brands/${brandA}/production-sites/${foreign.siteId}/keys`).set(bearer(manager)),
      request(t.http)
        .post(`/admin/brands/${brandA}/production-sites/${foreign.siteId}/keys/${foreign.keyId}/revoke`)
        .set(bearer(manager)),
    ];
    for (const attempt of attempts) {
      const response = await attempt.expect(403);
      expect(response.body.error).toBe('Forbidden: brand not allowed');
    }
    const ownSite = await siteWithKey(fx, brandA);
    const keyThroughOwnSite = await request(t.http)
      .post(`/admin/brands/${brandA}/production-sites/${ownSite.siteId}/keys/${foreign.keyId}/revoke`)
      .set(bearer(manager))
      .expect(403);
    expect(keyThroughOwnSite.body.error).toBe('Forbidden: brand not allowed');
    await request(t.http).get('/production-api/me').set(foreign.headers).expect(200);
    const violations = (await journal(fx)).filter(
      (e) => e.type === 'brand_violation' && e.actor?.id === manager.userId,
    );
    expect(violations).toHaveLength(4);
    for (const v of violations) expect(v).toMatchObject({ brandId: brandA, targetBrandId: brandB });
  });

  it('unknown sites and keys get 404', async () => {
    await request(t.http)
      .patch(`/admin/brands/${brandA}/production-sites/999999`)
      .set(bearer(fx.admin))
      .send({ active: false })
      .expect(404);
    const own = await siteWithKey(fx, brandA);
    await request(t.http)
      .post(`/admin/brands/${brandA}/production-sites/${own.siteId}/keys/999999/revoke`)
      .set(bearer(fx.admin))
      .expect(404);
  });

  it('a member without settings.manage cannot manage sites', async () => {
    const member = await fx.member(brandA, ['orders.read', 'products.write']);
    const response = await request(t.http)
      .post(`/admin/brands/${brandA}/production-sites`)
      .set(bearer(member))
      .send({ name: 'x' })
      .expect(403);
    expect(response.body.error).toBe('Forbidden: Missing permission settings.manage');
  });
});
