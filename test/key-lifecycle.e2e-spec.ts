import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { eventually } from './support/eventually';
import { issueKey, journal, siteWithKey } from './support/fixtures';
import { countRows } from './support/stock-probe';
import { closeSuite, openSuite, type Suite } from './support/suite';
import { bearer } from './support/test-app';
import { withClient } from './support/test-database';

/** A GET from a chosen local address (127.0.0.1 and 127.0.0.2 are both this machine). */
function getFrom(port: number, localAddress: string, path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, headers, localAddress }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString() || '{}') }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

/**
 * The key lifecycle beyond issue and revoke (contract §1, §4, §8, §12). The expiry reminders are
 * test/medium/key-lifecycle-reminders; X-Forwarded-For under TRUST_PROXY is client-address.e2e-spec.
 */
describe('key lifecycle', () => {
  let suite: Suite;
  let brand: number;
  let admin: Record<string, string>;
  let port: number;
  const keysPath = () => `/admin/brands/${brand}/integration-keys`;
  const http_ = () => suite.t.http;

  beforeAll(async () => {
    suite = await openSuite({ env: { OUTBOX_WORKER: 'false', WEBHOOK_WORKER: 'false' } });
    admin = bearer(suite.fx.admin);
    brand = await suite.fx.brand();
    // A real listening socket, so requests can come from a chosen loopback address.
    const server = (await suite.t.app.listen(0, '127.0.0.1')) as http.Server;
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => closeSuite(suite));

  describe('roll', () => {
    it('replaces a key with one of the same grants; the old one ends on the next request; the roller is the author', async () => {
      const manager = await suite.fx.member(brand, ['settings.manage']);
      const old = await issueKey(suite.fx, brand, {
        name: 'Storefront',
        permissions: ['orders.read'],
        expiresAt: inHours(24 * 30),
      });
      await request(http_())
        .patch(`${keysPath()}/${old.id}`)
        .set(admin)
        .send({ allowedIps: ['127.0.0.0/8'] })
        .expect(200);
      const rolled = await request(http_())
        .post(`${keysPath()}/${old.id}/roll`)
        .set(bearer(manager))
        .send({})
        .expect(201);
      const before = (await request(http_()).get(`${keysPath()}/${old.id}`).set(admin).expect(200)).body;
      const issuedExpiry = (
        await withClient(suite.db.url, (c) =>
          c.query('SELECT expires_at FROM integration_keys WHERE id = $1', [rolled.body.id]),
        )
      ).rows[0].expires_at as Date;
      expect(rolled.body).toMatchObject({
        name: 'Storefront',
        permissions: ['orders.read'],
        fullAccess: false,
        allowedIps: ['127.0.0.0/8'],
        rolledFromId: old.id,
        status: 'active',
        createdBy: { id: manager.userId },
      });
      // The new key keeps the old one's own expiry (30 days), not the end the roll gave the old key.
      expect(new Date(rolled.body.expiresAt).getTime()).toBe(issuedExpiry.getTime());
      expect(new Date(rolled.body.expiresAt).getTime()).toBeGreaterThan(Date.now() + 29 * 24 * 3_600_000);
      expect(rolled.body.key).toMatch(/^csh_at_[0-9a-f]{64}$/);
      await request(http_()).get('/orders/admin/all?limit=1').set(old.headers).expect(401);
      await request(http_())
        .get('/orders/admin/all?limit=1')
        .set({ Authorization: `Bearer ${rolled.body.key}` })
        .expect(200);
      expect(before.status).toBe('expired');
      const entry = (await journal(suite.fx)).find((e) => e.type === 'integration_key_rolled');
      expect(entry).toMatchObject({
        brandId: brand,
        details: { name: 'Storefront', keyId: old.id, newKeyId: rolled.body.id },
      });
    });

    it('keeps the old key until the grace ends, at most 7 days and never past its own expiry', async () => {
      const old = await issueKey(suite.fx, brand, { permissions: ['orders.read'], expiresAt: inHours(48) });
      const tooLong = await request(http_())
        .post(`${keysPath()}/${old.id}/roll`)
        .set(admin)
        .send({ oldKeyExpiresAt: inHours(24 * 8) });
      expect(tooLong.status).toBe(400);
      const pastExpiry = await request(http_())
        .post(`${keysPath()}/${old.id}/roll`)
        .set(admin)
        .send({ oldKeyExpiresAt: inHours(49) });
      expect(pastExpiry.status).toBe(400);
      const rolled = await request(http_())
        .post(`${keysPath()}/${old.id}/roll`)
        .set(admin)
        .send({ oldKeyExpiresAt: inHours(1) })
        .expect(201);
      await request(http_()).get('/orders/admin/all?limit=1').set(old.headers).expect(200);
      await request(http_())
        .get('/orders/admin/all?limit=1')
        .set({ Authorization: `Bearer ${rolled.body.key}` })
        .expect(200);
      const again = await request(http_()).post(`${keysPath()}/${old.id}/roll`).set(admin).send({}).expect(409);
      expect(again.body.error).toBe('A rolled key cannot be rolled');
    });

    it('refuses to roll a revoked or expired key (409), and of two rolls at once exactly one succeeds', async () => {
      const revoked = await issueKey(suite.fx, brand, { permissions: ['orders.read'] });
      await request(http_()).post(`${keysPath()}/${revoked.id}/revoke`).set(admin).expect(200);
      expect((await request(http_()).post(`${keysPath()}/${revoked.id}/roll`).set(admin).send({})).body.error).toBe(
        'A revoked key cannot be rolled',
      );
      const expired = await issueKey(suite.fx, brand, { permissions: ['orders.read'], expiresAt: inHours(1) });
      await withClient(suite.db.url, (c) =>
        c.query(`UPDATE integration_keys SET expires_at = now() - interval '1 minute' WHERE id = $1`, [expired.id]),
      );
      await request(http_()).post(`${keysPath()}/${expired.id}/roll`).set(admin).send({}).expect(409);

      const contested = await issueKey(suite.fx, brand, { permissions: ['orders.read'] });
      const answers = await Promise.all(
        [1, 2].map(() => request(http_()).post(`${keysPath()}/${contested.id}/roll`).set(admin).send({})),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
      expect(await countRows(suite.db.url, 'integration_keys', 'rolled_from_id = $1', [contested.id])).toBe(1);
    });
  });

  describe('address allowlists', () => {
    it('lets a key in from its addresses only, from two real loopback addresses, journaling refusals', async () => {
      const key = await issueKey(suite.fx, brand, { permissions: ['orders.read'] });
      await request(http_())
        .patch(`${keysPath()}/${key.id}`)
        .set(admin)
        .send({ allowedIps: ['127.0.0.1'] })
        .expect(200);
      expect((await getFrom(port, '127.0.0.1', '/orders/admin/all?limit=1', key.headers)).status).toBe(200);
      const refused = await getFrom(port, '127.0.0.2', '/orders/admin/all?limit=1', {
        ...key.headers,
        'X-Forwarded-For': '127.0.0.1',
      });
      expect(refused).toEqual({
        status: 403,
        body: expect.objectContaining({ error: 'Forbidden: address not allowed' }),
      });
      const entry = (await journal(suite.fx)).find((e) => e.type === 'ip_not_allowed');
      expect(entry).toMatchObject({ brandId: brand, ip: '127.0.0.2', actor: { kind: 'integration_key', id: key.id } });

      await request(http_())
        .patch(`${keysPath()}/${key.id}`)
        .set(admin)
        .send({ allowedIps: ['127.0.0.2/32', '::1'] })
        .expect(200);
      expect((await getFrom(port, '127.0.0.2', '/orders/admin/all?limit=1', key.headers)).status).toBe(200);
      expect((await getFrom(port, '127.0.0.1', '/orders/admin/all?limit=1', key.headers)).status).toBe(403);
      const cleared = await request(http_())
        .patch(`${keysPath()}/${key.id}`)
        .set(admin)
        .send({ allowedIps: null })
        .expect(200);
      expect(cleared.body.allowedIps).toBeNull();
      expect((await getFrom(port, '127.0.0.1', '/orders/admin/all?limit=1', key.headers)).status).toBe(200);
    });

    it('takes allowedIps at issue, validated: addresses and CIDR blocks, at most 20', async () => {
      const issued = await request(http_())
        .post(keysPath())
        .set(admin)
        .send({
          name: 'pinned',
          permissions: ['orders.read'],
          allowedIps: ['10.0.0.0/8', '2001:DB8::/32', '10.0.0.0/8'],
        })
        .expect(201);
      expect(issued.body.allowedIps).toEqual(['10.0.0.0/8', '2001:db8::/32']);
      expect(
        (await getFrom(port, '127.0.0.1', '/orders/admin/all?limit=1', { Authorization: `Bearer ${issued.body.key}` }))
          .status,
      ).toBe(403);
      for (const allowedIps of [
        ['localhost'],
        ['10.0.0.0/33'],
        Array.from({ length: 21 }, (_, i) => `10.0.0.${i}`),
        'x',
      ]) {
        const response = await request(http_())
          .post(keysPath())
          .set(admin)
          .send({ name: 'bad', permissions: ['orders.read'], allowedIps });
        expect({ allowedIps, status: response.status }).toEqual({ allowedIps, status: 400 });
      }
      await request(http_()).patch(`${keysPath()}/${issued.body.id}`).set(admin).send({ name: null }).expect(400);
      const renamed = await request(http_())
        .patch(`${keysPath()}/${issued.body.id}`)
        .set(admin)
        .send({ name: 'Pinned ERP' })
        .expect(200);
      expect(renamed.body).toMatchObject({
        name: 'Pinned ERP',
        permissions: ['orders.read'],
        allowedIps: ['10.0.0.0/8', '2001:db8::/32'],
      });
    });

    it('records the address of the last use beside its time', async () => {
      const key = await issueKey(suite.fx, brand, { permissions: ['orders.read'] });
      await getFrom(port, '127.0.0.2', '/orders/admin/all?limit=1', key.headers);
      await eventually(async () => {
        const read = await request(http_()).get(`${keysPath()}/${key.id}`).set(admin).expect(200);
        expect(read.body).toMatchObject({ lastUsedIp: '127.0.0.2', lastUsedAt: expect.any(String) });
      });
      const other = await suite.fx.brand();
      await request(http_()).get(`/admin/brands/${other}/integration-keys/${key.id}`).set(admin).expect(403);
    });
  });

  it('lists site keys with hint, status and last use, never the key', async () => {
    const site = await siteWithKey(suite.fx, brand, 'Hinted');
    await request(http_()).get('/production-api/me').set(site.headers).expect(200);
    const sitesPath = `/admin/brands/${brand}/production-sites`;
    const listed = await eventually(async () => {
      const response = await request(http_()).get(`${sitesPath}/${site.siteId}/keys`).set(admin).expect(200);
      expect(response.body.items[0].lastUsedAt).toEqual(expect.any(String));
      return response.body;
    });
    expect(listed.items).toEqual([
      {
        id: site.keyId,
        keyHint: site.key.slice(-4),
        siteId: site.siteId,
        status: 'active',
        createdAt: expect.any(String),
        revokedAt: null,
        lastUsedAt: expect.any(String),
      },
    ]);
    expect(JSON.stringify(listed)).not.toContain(site.key);
    await request(http_()).post(`${sitesPath}/${site.siteId}/keys/${site.keyId}/revoke`).set(admin).expect(200);
    const after = await request(http_()).get(`${sitesPath}/${site.siteId}/keys`).set(admin);
    expect(after.body.items[0]).toMatchObject({ status: 'revoked', revokedAt: expect.any(String) });
  });

  it('filters the journal by type, newest first, and pages with before', async () => {
    const path = `/admin/brands/${brand}/security-journal`;
    const only = await request(http_())
      .get(`${path}?type=integration_key_rolled,ip_not_allowed&limit=200`)
      .set(admin)
      .expect(200);
    expect(only.body.items.length).toBeGreaterThan(2);
    expect(new Set(only.body.items.map((e: { type: string }) => e.type))).toEqual(
      new Set(['integration_key_rolled', 'ip_not_allowed']),
    );
    const ats = only.body.items.map((e: { at: string }) => e.at);
    expect([...ats].sort().reverse()).toEqual(ats);
    const next = await request(http_())
      .get(`${path}?type=integration_key_rolled,ip_not_allowed&before=${only.body.items[0].id}`)
      .set(admin);
    expect(next.body.items.map((e: { id: number }) => e.id)).toEqual(
      only.body.items.slice(1).map((e: { id: number }) => e.id),
    );
    await request(http_()).get(`${path}?type=Bad-Type`).set(admin).expect(400);
  });

  it("gives a new tab the session's CSRF token through /auth/me, derived from the session, not stored", async () => {
    const manager = await suite.fx.member(brand, ['settings.manage']);
    const me = await request(http_()).get('/auth/me').set('Cookie', manager.cookie).expect(200);
    expect(me.body.csrfToken).toBe(manager.csrfToken);
    await request(http_())
      .post(`/admin/brands/${brand}/production-sites`)
      .set('Cookie', manager.cookie)
      .set('X-CSRF-Token', me.body.csrfToken)
      .send({ name: 'From a second tab' })
      .expect(201);
    await request(http_())
      .post(`/admin/brands/${brand}/production-sites`)
      .set('Cookie', manager.cookie)
      .send({ name: 'x' })
      .expect(403);
    const columns = await withClient(suite.db.url, async (c) =>
      (await c.query(`SELECT column_name FROM information_schema.columns WHERE table_name = 'sessions'`)).rows.map(
        (r) => r.column_name,
      ),
    );
    expect(columns.join(' ')).not.toMatch(/csrf/);
  });
});
