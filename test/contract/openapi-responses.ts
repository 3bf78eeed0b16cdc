import { randomBytes } from 'node:crypto';
import request, { type Response, type Test } from 'supertest';
import { eventually } from '../support/eventually';
import { issueKey, siteWithKey } from '../support/fixtures';
import { OpenApiCheck } from '../support/openapi-check';
import { CARRIER_SECRET, PAYMENT_SECRET, postSigned } from '../support/signed';
import { type SharedSuite, type Suite } from '../support/suite';
import { invitationToken } from '../support/invitation-token';
import { answerSecondFactorRoutes } from './openapi-second-factor';
import { ADMIN, bearer, login } from '../support/test-app';
import { withClient } from '../support/test-database';

/**
 * Every documented success of every route, and a sample of its failures, as the service really
 * answers them, checked against the OpenAPI document it publishes (contract §14, issue 11): a
 * client generated from /docs-json type-checks against these bodies.
 */
/** The shared app's PUBLIC_URL (test/contract.e2e-spec.ts): passkeys are bound to its origin. */
export const CONTRACT_PUBLIC_URL = 'https://docs.shop.example';

/** `carrierUrl` is the stub the shared app's CARRIER_API_URL names (test/contract.e2e-spec.ts). */
export function describeOpenApiResponses(shared: SharedSuite, carrierUrl: () => string): void {
  describe('the OpenAPI document describes the real answers', () => {
    let suite: Suite;
    let doc: OpenApiCheck;
    const problems: string[] = [];

    /** Sends, then holds the answer to the document. */
    async function call(test: Test, status: number): Promise<Response> {
      const response = await test;
      const sent = response.request as unknown as { method: string; url: string };
      problems.push(...doc.problems(sent.method, new URL(sent.url).pathname, response.status, response.body));
      expect(response.status).toBe(status);
      return response;
    }

    beforeAll(async () => {
      suite = shared.suite;
      doc = await OpenApiCheck.load(suite.t.http);
    });

    it('answers every route as documented', async () => {
      const { http } = suite.t;
      const { fx } = suite;
      const admin = bearer(fx.admin);
      const get = (path: string, headers: Record<string, string>, status = 200) =>
        call(request(http).get(path).set(headers), status);
      const send = (
        method: 'post' | 'patch' | 'put',
        path: string,
        headers: Record<string, string>,
        body: object,
        status: number,
      ) => call(request(http)[method](path).set(headers).send(body), status);

      await get('/health', {});
      const session = await login(http, ADMIN.email, ADMIN.password);
      await call(request(http).post('/auth/login').send(ADMIN), 200);
      await call(
        request(http)
          .post('/auth/login')
          .send({ ...ADMIN, password: 'wrong-password' }),
        401,
      );
      await get('/auth/me', bearer(session));

      const brand = (
        await send(
          'post',
          '/admin/brands',
          admin,
          { name: 'Docs', slug: 'docs', staffEmail: 'staff@docs.example' },
          201,
        )
      ).body.id as number;
      await send('post', '/admin/brands', admin, { name: 'Docs', slug: 'docs' }, 409);
      await get('/admin/brands', admin);
      const user = (
        await send('post', '/admin/users', admin, { email: 'clerk@docs.example', password: 'ledger-keeper-1' }, 201)
      ).body.id as number;
      await get('/admin/users', admin);
      await send('patch', `/admin/users/${user}`, admin, { active: true }, 200);
      await send('put', `/admin/brands/${brand}/members/${user}`, admin, { permissions: ['orders.read'] }, 200);
      await send('put', `/admin/brands/${brand}/members/${user}`, admin, { permissions: ['nope'] }, 400);

      // The team (contract §19). The suite reads no mail: each link's token is set by the test.
      const invitations = `/admin/brands/${brand}/invitations`;
      const invite = (email: string, status: number, permissions = ['orders.read']) =>
        send('post', invitations, admin, { email, permissions }, status);
      const newcomer = (await invite('newcomer@docs.example', 201)).body.id as number;
      await invite('clerk@docs.example', 409);
      await invite('newcomer@docs.example', 400, []);
      await get(invitations, admin);
      const signUp = await invitationToken(suite.db.url, newcomer);
      await get(`/auth/invitations/${signUp}`, {});
      await call(request(http).post(`/auth/invitations/${signUp}/accept`).send({ password: 'brass-lantern-71' }), 200);
      await get(`/auth/invitations/${signUp}`, {}, 404);
      await call(request(http).post(`/auth/invitations/${signUp}/accept`).send({ password: 'x' }), 404);
      await send('post', '/admin/users', admin, { email: 'joiner@docs.example', password: 'copper-kettle-42' }, 201);
      const joiner = (await invite('joiner@docs.example', 201)).body.id as number;
      const join = await invitationToken(suite.db.url, joiner);
      await call(request(http).post(`/auth/invitations/${join}/accept`).send({}), 401);
      const joinerSession = await login(http, 'joiner@docs.example', 'copper-kettle-42');
      await call(request(http).post(`/auth/invitations/${join}/accept`).set(bearer(session)).send({}), 403);
      await call(request(http).post(`/auth/invitations/${join}/accept`).set(bearer(joinerSession)).send({}), 200);
      const gone = (await invite('gone@docs.example', 201)).body.id as number;
      await call(request(http).post(`${invitations}/${gone}/revoke`).set(admin), 200);
      await call(request(http).post(`${invitations}/${newcomer}/revoke`).set(admin), 409);
      await call(request(http).post(`${invitations}/999999/revoke`).set(admin), 404);
      await get(`/admin/brands/${brand}/members`, admin);

      const keysPath = `/admin/brands/${brand}/integration-keys`;
      const spare = (
        await send(
          'post',
          keysPath,
          admin,
          { name: 'Spare', permissions: ['orders.read'], expiresAt: '2099-01-01T00:00:00Z' },
          201,
        )
      ).body.id as number;
      await get(keysPath, admin);
      await call(request(http).post(`${keysPath}/${spare}/revoke`).set(admin), 200);
      await get(`${keysPath}/${spare}`, admin);
      const pinned = (
        await send(
          'post',
          keysPath,
          admin,
          { name: 'Pinned', permissions: ['orders.read'], allowedIps: ['127.0.0.1'] },
          201,
        )
      ).body.id as number;
      await send('patch', `${keysPath}/${pinned}`, admin, { name: 'Pinned ERP', allowedIps: ['127.0.0.0/8'] }, 200);
      await send('post', `${keysPath}/${pinned}/roll`, admin, {}, 201);
      await send('post', `${keysPath}/${pinned}/roll`, admin, {}, 409);
      await call(request(http).post(`${keysPath}/999999/revoke`).set(admin), 404);
      await get(keysPath, { Authorization: 'Bearer csh_at_wrong' }, 401);

      const writer = await issueKey(fx, brand, {
        permissions: [
          'products.read',
          'products.write',
          'stock.read',
          'stock.write',
          'orders.read',
          'orders.write',
          'returns.read',
          'returns.write',
        ],
      });
      const product = (
        await send(
          'post',
          '/catalog/products',
          writer.headers,
          {
            name: 'Shirt',
            article: 'SH-1',
            storefrontArticle: 'SF-SH-1',
            priceKopeks: 150000,
            attributes: { colour: 'white' },
            sizes: [
              { name: 'M', stock: 1 },
              { name: 'L', priceKopeks: 160000 },
            ],
          },
          201,
        )
      ).body as { id: number; sizes: Array<{ id: number }> };
      await get('/catalog/products', writer.headers);
      await get(`/catalog/products/${product.id}`, writer.headers);
      await send('patch', `/catalog/products/${product.id}`, writer.headers, { name: 'Linen shirt' }, 200);
      await get('/catalog/products/999999', writer.headers, 404);
      const importCsv = (file: string, status: number, query = '', type = 'text/csv') =>
        call(
          request(http)
            .post(`/catalog/products/import${query}`)
            .set(writer.headers)
            .set('Content-Type', type)
            .send(file),
          status,
        );
      await importCsv('article,name,priceKopeks,size\nSH-2,Cap,100,One size\n', 200, '?dryRun=true');
      await importCsv('article,name,priceKopeks\nSH-2,Cap,100\n', 200);
      await importCsv('article,priceKopeks\nSH-3,-1\n', 422);
      await importCsv('article,colour\nSH-3,red\n', 400);
      await importCsv('article\nSH-3\n', 415, '', 'text/plain; charset=utf-16');
      await get('/catalog/products/export', writer.headers);
      await get('/inventory/stock', writer.headers);
      await send(
        'post',
        '/inventory/adjustments',
        writer.headers,
        { sizeId: product.sizes[0].id, delta: 5, reason: 'count' },
        201,
      );
      await get(`/inventory/movements?sizeId=${product.sizes[0].id}`, writer.headers);
      await get('/inventory/movements?limit=0x1', writer.headers, 400);

      const platform = await send(
        'post',
        '/orders/admin',
        writer.headers,
        {
          recipient: { fullName: 'Sidorov Semyon', phone: '+7 900 111 22 33' },
          items: [{ sizeId: product.sizes[1].id, quantity: 3 }],
          delivery: { city: 'Omsk', cityCode: 44, deliveryCostKopeks: 500 },
        },
        201,
      );
      await send(
        'post',
        '/orders/admin',
        writer.headers,
        { recipient: { fullName: 'X', phone: '1' }, items: [{ sizeId: 999999, quantity: 1 }] },
        422,
      );
      await get('/orders/admin/all?limit=5', writer.headers);
      await get(`/orders/admin/${platform.body.order.id}`, writer.headers);

      const storefront = await issueKey(fx, brand, { permissions: ['orders.create_partner'] });
      const order = {
        partnerOrderId: 'DOC-1',
        recipient: { fullName: 'Ivanova Maria Petrovna', phone: '+7 912 345-67-89', email: 'maria@example.com' },
        items: [{ article: 'SF-SH-1', size: 'm', quantity: 2, priceKopeks: 150000 }],
      };
      const webhook = '/orders/integrations/partner/webhook';
      const accepted = await send('post', webhook, storefront.headers, order, 201);
      await send('post', webhook, storefront.headers, { ...order, comment: 'changed' }, 200);
      await send(
        'post',
        webhook,
        storefront.headers,
        { ...order, partnerOrderId: 'DOC-2', items: [{ article: 'NONE', size: 'm', quantity: 1 }] },
        422,
      );
      await send('post', webhook, writer.headers, order, 403);
      const preflight = '/orders/integrations/partner/preflight';
      await send(
        'post',
        preflight,
        storefront.headers,
        { ...order, items: [...order.items, { article: 'NONE', size: 'm', quantity: 1 }] },
        200,
      );
      await send('post', preflight, storefront.headers, { partnerOrderId: 'DOC-3' }, 400);
      await send('post', preflight, writer.headers, order, 403);
      // The storefront's 422 reaches its key's request log (contract §15) within seconds.
      await eventually(async () =>
        expect((await get(`${keysPath}/${storefront.id}/requests?limit=5`, admin)).body.items).not.toEqual([]),
      );
      await get(`${keysPath}/${storefront.id}/usage`, admin);
      await get(`${keysPath}/${storefront.id}/requests?limit=0`, admin, 400);

      const sfOrder = await get(`/orders/admin/${accepted.body.order.id}`, writer.headers);
      const line = { orderItemId: sfOrder.body.items[0].id, quantity: 1 };
      const newReturn = (externalReturnId: string, status: number) =>
        send(
          'post',
          '/returns',
          writer.headers,
          { orderId: sfOrder.body.id, externalReturnId, items: [line], reasonCode: 'defective' },
          status,
        );
      const ret = (await newReturn('doc-r1', 201)).body.return as { id: number; items: Array<{ id: number }> };
      await newReturn('doc-r1', 200);
      await get('/returns?limit=5', writer.headers);
      await get(`/returns/${ret.id}`, writer.headers);
      await send('post', `/returns/${ret.id}/approve`, writer.headers, {}, 200);
      await send('post', `/returns/${ret.id}/approve`, writer.headers, {}, 409);
      const receipt = { items: [{ returnItemId: ret.items[0].id, quantity: 1, disposition: 'restock' }] };
      await send('post', `/returns/${ret.id}/receive`, writer.headers, receipt, 200);
      await send('post', `/returns/${ret.id}/refund`, writer.headers, {}, 200);
      await send('post', `/returns/${ret.id}/close`, writer.headers, {}, 200);
      const declined = (await newReturn('doc-r2', 201)).body.return as { id: number };
      await send('post', `/returns/${declined.id}/decline`, writer.headers, { reasonNote: 'worn' }, 200);
      const canceled = (await newReturn('doc-r3', 201)).body.return as { id: number };
      await send('post', `/returns/${canceled.id}/cancel`, writer.headers, {}, 200);
      await newReturn('doc-r4', 201);
      await newReturn('doc-r5', 422);

      // The events API (contract §16): the changes above are the brand's events.
      const events = await eventually(async () => {
        const page = await get('/events?limit=3&types=order.*,return.*', writer.headers);
        expect(page.body.items).toHaveLength(3);
        return page;
      });
      await get(`/events?after=${events.body.nextCursor}`, writer.headers);
      await get(`/events/${events.body.items[0].id}`, writer.headers);
      await get('/events?after=not-a-cursor', writer.headers, 400);
      await get('/events/999999999', writer.headers, 404);

      const second = await send(
        'post',
        '/orders/admin',
        writer.headers,
        {
          recipient: { fullName: 'Second Buyer', phone: '+7 900 111 22 44' },
          items: [{ sizeId: product.sizes[1].id, quantity: 1 }],
        },
        201,
      );
      await send('post', `/orders/admin/${second.body.order.id}/cancel`, writer.headers, { reason: 'duplicate' }, 200);
      await send('post', `/orders/admin/${second.body.order.id}/cancel`, writer.headers, {}, 409);

      const orderNumber = platform.body.order.orderNumber as string;
      const paid = await postSigned(http, '/payments/webhook', PAYMENT_SECRET, {
        eventId: 'doc-pay-1',
        orderNumber,
        amountKopeks: platform.body.order.totalKopeks,
        status: 'succeeded',
        paidAt: new Date().toISOString(),
      });
      problems.push(...doc.problems('POST', '/payments/webhook', paid.status, paid.body));
      expect(paid.status).toBe(200);
      const unsigned = await request(http).post('/payments/webhook').send({ eventId: 'x' });
      problems.push(...doc.problems('POST', '/payments/webhook', unsigned.status, unsigned.body));
      const shipped = await eventually(async () => {
        const current = await request(http).get(`/orders/admin/${platform.body.order.id}`).set(writer.headers);
        expect(current.body.carrierOrderUuid).toEqual(expect.any(String));
        return current.body as { carrierOrderUuid: string };
      });
      const delivered = await postSigned(http, '/carrier/webhook', CARRIER_SECRET, {
        eventId: 'doc-carrier-1',
        carrierOrderUuid: shipped.carrierOrderUuid,
        status: 'in_transit',
        occurredAt: new Date().toISOString(),
      });
      problems.push(...doc.problems('POST', '/carrier/webhook', delivered.status, delivered.body));
      expect(delivered.status).toBe(200);
      await get(`/orders/admin/${platform.body.order.id}`, writer.headers);

      const sitesPath = `/admin/brands/${brand}/production-sites`;
      const site = await siteWithKey(fx, brand, 'Ivanovo workshop');
      await call(request(http).post(sitesPath).set(admin).send({ name: 'Second workshop' }), 201);
      await call(request(http).post(`${sitesPath}/${site.siteId}/keys`).set(admin), 201);
      await get(sitesPath, admin);
      await get(`${sitesPath}/${site.siteId}/keys`, admin);
      await send('patch', `${sitesPath}/${site.siteId}`, admin, { name: 'Ivanovo' }, 200);
      await get('/production-api/me', site.headers);
      await get('/production-api/catalog', site.headers);
      await get('/production-api/queue', site.headers);
      await send(
        'post',
        '/production-api/acceptances',
        site.headers,
        { items: [{ article: 'SH-1', size: 'L', quantity: 2 }] },
        201,
      );
      await send(
        'post',
        '/production-api/acceptances',
        site.headers,
        { items: [{ article: 'NONE', size: 'L', quantity: 2 }] },
        422,
      );
      await call(request(http).post(`${sitesPath}/${site.siteId}/keys/${site.keyId}/revoke`).set(admin), 200);
      // A revoked site key may still work for SITE_KEY_CACHE_SECONDS (spec); an unknown one never does.
      await get('/production-api/me', { Authorization: 'Bearer not-a-site-key' }, 401);

      const personal = `/admin/brands/${brand}/personal-data`;
      await get(`${personal}/export?phone=${encodeURIComponent('+7 912 345-67-89')}`, admin);
      await get(`${personal}/export`, admin, 400);
      await send('post', `${personal}/erasures`, admin, { orderId: second.body.order.id }, 200);
      await send('post', `${personal}/erasures`, admin, {}, 400);
      await send('put', `${personal}/retention`, admin, { days: 365 }, 200);
      await send('put', `${personal}/retention`, admin, { days: -1 }, 400);
      await get(`${personal}/retention`, admin);
      await get(`/admin/brands/${brand}/security-journal?limit=5`, admin);
      await get('/admin/security-journal?limit=5', admin);
      await get('/admin/outbox?state=done', admin);

      const hooks = `/admin/brands/${brand}/webhook-endpoints`;
      const hook = (await send('post', hooks, admin, { url: `${carrierUrl()}/hooks`, eventTypes: ['*'] }, 201))
        .body as {
        id: number;
      };
      await send('post', hooks, admin, { url: 'ftp://example.com', eventTypes: ['*'] }, 400);
      await get(hooks, admin);
      await get(`${hooks}/${hook.id}`, admin);
      await get(`${hooks}/${hook.id}/secret`, admin);
      await send('patch', `${hooks}/${hook.id}`, admin, { description: 'ERP' }, 200);
      await send('post', `${hooks}/${hook.id}/rotate-secret`, admin, { oldSecretExpiresInSeconds: 60 }, 200);
      const message = (await send('post', `${hooks}/${hook.id}/test`, admin, {}, 202)).body as { messageId: string };
      await get(`${hooks}/${hook.id}/deliveries?limit=5`, admin);
      await send('post', `${hooks}/${hook.id}/deliveries/${message.messageId}/retry`, admin, {}, 202);
      await call(request(http).delete(`${hooks}/${hook.id}`).set(admin), 204);
      await get(`${hooks}/${hook.id}`, admin, 404);
      // The account's own security (contract §19), as the clerk made above.
      const clerk = await login(http, 'clerk@docs.example', 'ledger-keeper-1');
      const clerkElsewhere = await login(http, 'clerk@docs.example', 'ledger-keeper-1');
      await send('post', '/auth/step-up', bearer(clerk), { password: 'ledger-keeper-1' }, 204);
      await send('post', '/auth/step-up', bearer(clerk), { password: 'not-the-password' }, 403);
      const sessions = (await get('/auth/sessions', bearer(clerk))).body.items as Array<{
        id: string;
        current: boolean;
      }>;
      const elsewhere = sessions.find((entry) => !entry.current)!.id;
      await call(request(http).delete(`/auth/sessions/${elsewhere}`).set(bearer(clerk)), 204);
      await call(request(http).delete(`/auth/sessions/${elsewhere}`).set(bearer(clerk)), 404);
      await get('/auth/me', bearer(clerkElsewhere), 401);
      await login(http, 'clerk@docs.example', 'ledger-keeper-1');
      await call(request(http).post('/auth/sessions/end-others').set(bearer(clerk)), 204);
      await get('/auth/activity?limit=5', bearer(clerk));
      const newPassword = { currentPassword: 'ledger-keeper-1', newPassword: 'ledger-keeper-2' };
      await send('post', '/auth/password', bearer(clerk), newPassword, 204);
      await send('post', '/auth/password', bearer(clerk), newPassword, 403);
      await send(
        'post',
        '/auth/password',
        bearer(clerk),
        { currentPassword: 'ledger-keeper-2', newPassword: 'short' },
        400,
      );
      await send('post', '/auth/password-reset', {}, { email: 'clerk@docs.example' }, 202);
      // The mailed token is the outbox's to mint; here one is set on the reset just asked for.
      const token = `csh_pwr_${randomBytes(32).toString('base64url')}`;
      // The outbox's job makes the reset a moment after the 202, so the test waits for it.
      await eventually(() =>
        withClient(suite.db.url, async (client) => {
          const set = await client.query(
            `UPDATE password_resets SET token_hash = sha256(convert_to($1, 'UTF8'))
              WHERE ended_at IS NULL AND user_id = (SELECT id FROM users WHERE email = 'clerk@docs.example')`,
            [token],
          );
          expect(set.rowCount).toBe(1);
        }),
      );
      await send('post', `/auth/password-reset/${token}`, {}, { newPassword: 'ledger-keeper-3' }, 204);
      await send('post', `/auth/password-reset/${token}`, {}, { newPassword: 'ledger-keeper-3' }, 404);
      // The second factor (contract §19), as a manager of the brand made here.
      const manager = { email: 'manager@docs.example', password: 'second-factor-docs-1' };
      const managerId = (await send('post', '/admin/users', admin, manager, 201)).body.id as number;
      await send(
        'put',
        `/admin/brands/${brand}/members/${managerId}`,
        admin,
        { permissions: ['settings.manage'] },
        200,
      );
      await answerSecondFactorRoutes(http, call, CONTRACT_PUBLIC_URL, manager, brand);
      await call(request(http).post('/auth/logout').set(bearer(session)), 204);

      expect(problems).toEqual([]);
      expect(doc.unseenSuccesses()).toEqual([]);
    });
  });
}
