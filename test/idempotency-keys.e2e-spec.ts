import { createHash } from 'node:crypto';
import request from 'supertest';
import { eventually } from './support/eventually';
import { createProduct, issueKey, siteWithKey, type IssuedKey } from './support/fixtures';
import { countRows, stockAndLedger } from './support/stock-probe';
import { routeTable, type RouteEntry } from './support/route-table';
import { closeSuite, openSuite, type Suite } from './support/suite';
import { bearer } from './support/test-app';
import { withClient } from './support/test-database';

let seq = 0;
const newKey = () => `key-${process.pid}-${++seq}`;

/** Idempotency-Key (contract §11): stored in PostgreSQL, scoped to the calling key. */
describe('idempotency keys', () => {
  let suite: Suite;
  let stocker: IssuedKey;
  let otherStocker: IssuedKey;
  let site: { headers: Record<string, string> };
  let sizeId: number;

  const http = () => suite.t.http;
  const dbUrl = () => suite.db.url;
  const adjust = (key: string | null, body: object, as: IssuedKey = stocker) => {
    const test = request(http()).post('/inventory/adjustments').set(as.headers);
    return (key === null ? test : test.set('Idempotency-Key', key)).send(body);
  };
  const stock = () => stockAndLedger(dbUrl(), sizeId);
  const rowsOf = (key: string) => countRows(dbUrl(), 'idempotency_keys', 'key = $1', [key]);
  const hashOf = (path: string, body: object) =>
    createHash('sha256')
      .update(`POST ${path}\n${JSON.stringify(body)}`)
      .digest();

  beforeAll(async () => {
    suite = await openSuite();
    const brand = await suite.fx.brand();
    stocker = await issueKey(suite.fx, brand, { permissions: ['stock.read', 'stock.write'] });
    otherStocker = await issueKey(suite.fx, brand, { permissions: ['stock.read', 'stock.write'] });
    site = await siteWithKey(suite.fx, brand);
    const product = await createProduct(suite.fx, brand, {
      article: 'SOCK',
      priceKopeks: 1000,
      sizes: [{ name: 'M', stock: 10 }],
    });
    sizeId = product.sizes[0].id;
    // An answer kept longer than 24 hours, for the sweep to remove.
    await withClient(dbUrl(), (c) =>
      c.query(
        `INSERT INTO idempotency_keys (scope, key, request_hash, response_status, response_body, created_at, claim_id)
         VALUES ('integration_key:1', 'ancient', '\\x00', 201, '{}', now() - interval '25 hours', gen_random_uuid())`,
      ),
    );
  });
  afterAll(() => closeSuite(suite));

  it('is bound to every POST route that changes anything (per route, not globally: see IdempotentPost)', () => {
    const posts = routeTable().filter((route) => route.method === 'POST');
    expect(posts.length).toBeGreaterThan(20);
    const bound = (route: RouteEntry) => route.interceptors.includes('IdempotencyInterceptor');
    expect(posts.filter((route) => !route.readOnlyPost && !bound(route))).toEqual([]);
    // A POST that writes nothing (ReadOnlyPost) records no key; each is reviewed here.
    expect(posts.filter((route) => route.readOnlyPost || !bound(route)).map((route) => route.path)).toEqual([
      '/orders/integrations/partner/preflight',
    ]);
  });

  it('replays the first answer to a retry, marked Idempotent-Replayed, and changes stock once', async () => {
    const key = newKey();
    const before = await stock();
    const body = { sizeId, delta: 3, reason: 'recount' };
    const first = await adjust(key, body).expect(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const retry = await adjust(key, body).expect(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(await stock()).toEqual({ stock: before.stock + 3, ledger: before.ledger + 3 });
  });

  it('applies parallel requests with one key once: the others wait their turn or are told it is in progress', async () => {
    const key = newKey();
    const before = await stock();
    const body = { sizeId, delta: 1, reason: 'parallel' };
    const answers = await Promise.all(Array.from({ length: 8 }, () => adjust(key, body)));
    expect(answers.every((a) => a.status === 201 || a.status === 409)).toBe(true);
    const fresh = answers.filter((a) => a.status === 201 && a.headers['idempotent-replayed'] === undefined);
    expect(fresh).toHaveLength(1);
    for (const busy of answers.filter((a) => a.status === 409)) {
      expect(busy.body.error).toBe('A request with this idempotency key is in progress');
    }
    expect(await stock()).toEqual({ stock: before.stock + 1, ledger: before.ledger + 1 });
  });

  it('refuses the key with another request (422), and answers 409 while the first is in progress', async () => {
    const key = newKey();
    await adjust(key, { sizeId, delta: 1, reason: 'a' }).expect(201);
    const reused = await adjust(key, { sizeId, delta: 2, reason: 'a' }).expect(422);
    expect(reused.body.error).toBe('Idempotency key reused with a different request');
    const otherPath = await request(http())
      .post('/production-api/acceptances')
      .set(site.headers)
      .set('Idempotency-Key', key)
      .send({ items: [{ article: 'SOCK', size: 'M', quantity: 1 }] })
      .expect(201);
    expect(otherPath.headers['idempotent-replayed']).toBeUndefined();

    const busy = newKey();
    const body = { sizeId, delta: 5, reason: 'busy' };
    await withClient(dbUrl(), (c) =>
      c.query(
        `INSERT INTO idempotency_keys (scope, key, request_hash, claim_id) VALUES ($1, $2, $3, gen_random_uuid())`,
        [`integration_key:${stocker.id}`, busy, hashOf('/inventory/adjustments', body)],
      ),
    );
    const before = await stock();
    const inProgress = await adjust(busy, body).expect(409);
    expect(inProgress.body.error).toBe('A request with this idempotency key is in progress');
    expect(await stock()).toEqual(before);
  });

  it('takes over a claim its instance left behind, and replaces an answer older than 24 hours', async () => {
    const abandoned = newKey();
    const body = { sizeId, delta: 2, reason: 'abandoned' };
    await withClient(dbUrl(), (c) =>
      c.query(
        `INSERT INTO idempotency_keys (scope, key, request_hash, locked_at, claim_id)
         VALUES ($1, $2, $3, now() - interval '10 minutes', gen_random_uuid())`,
        [`integration_key:${stocker.id}`, abandoned, hashOf('/inventory/adjustments', body)],
      ),
    );
    const before = await stock();
    await adjust(abandoned, body).expect(201);
    expect(await stock()).toEqual({ stock: before.stock + 2, ledger: before.ledger + 2 });

    const old = newKey();
    await adjust(old, { sizeId, delta: 1, reason: 'old' }).expect(201);
    await withClient(dbUrl(), (c) =>
      c.query(`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = $1`, [old]),
    );
    const reusedLater = await adjust(old, { sizeId, delta: 4, reason: 'new' }).expect(201);
    expect(reusedLater.body.delta).toBe(4);
  });

  it('stores nothing for a refusal before the work began (400) nor for a bad key; keeps a 404', async () => {
    const key = newKey();
    const before = await stock();
    await adjust(key, { sizeId, delta: 'x', reason: 'bad' }).expect(400);
    expect(await rowsOf(key)).toBe(0);
    await adjust(key, { sizeId, delta: 1, reason: 'fixed' }).expect(201);
    expect(await stock()).toEqual({ stock: before.stock + 1, ledger: before.ledger + 1 });

    for (const bad of ['', 'x'.repeat(256), 'caf\u00e9', 'a\tb']) {
      const response = await adjust(bad, { sizeId, delta: 1, reason: 'bad key' });
      expect({ status: response.status, error: response.body.error }).toEqual({
        status: 400,
        error: 'Idempotency-Key must be 1 to 255 printable ASCII characters',
      });
    }
    expect(await stock()).toEqual({ stock: before.stock + 1, ledger: before.ledger + 1 });

    const missing = newKey();
    const first = await adjust(missing, { sizeId: 999999, delta: 1, reason: 'nothing' }).expect(404);
    const again = await adjust(missing, { sizeId: 999999, delta: 1, reason: 'nothing' }).expect(404);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual({ ...first.body, requestId: again.headers['x-request-id'] });
  });

  it('scopes keys to the calling key, and retried acceptances add stock once', async () => {
    const key = newKey();
    const before = await stock();
    await adjust(key, { sizeId, delta: 1, reason: 'mine' }).expect(201);
    const theirs = await adjust(key, { sizeId, delta: 1, reason: 'mine' }, otherStocker).expect(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(await stock()).toEqual({ stock: before.stock + 2, ledger: before.ledger + 2 });

    const accept = newKey();
    const send = () =>
      request(http())
        .post('/production-api/acceptances')
        .set(site.headers)
        .set('Idempotency-Key', accept)
        .send({ items: [{ article: 'SOCK', size: 'm', quantity: 5 }] });
    const first = await send().expect(201);
    const retry = await send().expect(201);
    expect(retry.body).toEqual(first.body);
    expect(await stock()).toEqual({ stock: before.stock + 7, ledger: before.ledger + 7 });
    expect(await countRows(dbUrl(), 'acceptances', 'id = $1', [first.body.id])).toBe(1);
  });

  it('leaves requests without the header, and sessions, as they were', async () => {
    const before = await stock();
    await adjust(null, { sizeId, delta: 1, reason: 'plain' }).expect(201);
    await adjust(null, { sizeId, delta: 1, reason: 'plain' }).expect(201);
    const key = newKey();
    await request(http())
      .post(`/admin/brands/999999/production-sites`)
      .set(bearer(suite.fx.admin))
      .set('Idempotency-Key', key)
      .send({ name: 'x' });
    expect(await rowsOf(key)).toBe(0);
    expect(await stock()).toEqual({ stock: before.stock + 2, ledger: before.ledger + 2 });
  });

  describe('a run cut short after its change committed (the answer never stored)', () => {
    /** What a crash between the change's commit and the answer's leaves: the record of the change alone. */
    const cutShort = (key: string) =>
      withClient(dbUrl(), (c) =>
        c.query(
          `UPDATE idempotency_keys SET response_status = NULL, response_body = NULL,
                  locked_at = now() - interval '10 minutes'
            WHERE key = $1 AND cardinality(effects) > 0`,
          [key],
        ),
      ).then((result) => expect(result.rowCount).toBe(1));

    it('is finished by a retry from what it committed: the first answer, the change once (adjustment)', async () => {
      const key = newKey();
      const before = await stock();
      const body = { sizeId, delta: 3, reason: 'cut short' };
      const first = await adjust(key, body).expect(201);
      // Stock moves on before the retry: the answer must still be the first run's, not a new read.
      await adjust(null, { sizeId, delta: 1, reason: 'meanwhile' }).expect(201);
      await cutShort(key);
      const retry = await adjust(key, body).expect(201);
      expect(retry.body).toEqual(first.body);
      expect(await stock()).toEqual({ stock: before.stock + 4, ledger: before.ledger + 4 });
      const again = await adjust(key, body).expect(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
    });

    it('finishes platform orders, acceptances and return actions without a second change', async () => {
      const brand = await suite.fx.brand();
      const product = await createProduct(suite.fx, brand, {
        article: 'CUT',
        storefrontArticle: 'SF-CUT',
        priceKopeks: 500,
        sizes: [{ name: 'L', stock: 50 }],
      });
      const cutSize = product.sizes[0].id;
      const clerk = await issueKey(suite.fx, brand, {
        permissions: ['orders.write', 'orders.read', 'returns.write', 'returns.read', 'orders.create_partner'],
      });
      const workshop = await siteWithKey(suite.fx, brand);
      const keyed = (path: string, key: string, body: object, headers: Record<string, string> = clerk.headers) =>
        request(http()).post(path).set(headers).set('Idempotency-Key', key).send(body);
      const resumed = async (path: string, body: object, status: number, headers?: Record<string, string>) => {
        const key = newKey();
        const first = await keyed(path, key, body, headers).expect(status);
        await cutShort(key);
        const retry = await keyed(path, key, body, headers).expect(status);
        expect(retry.body).toEqual(first.body);
        return first.body;
      };
      const count = (table: string) => countRows(dbUrl(), table, 'brand_id = $1', [brand]);

      const recipient = { fullName: 'Cut Short', phone: '+79120000001' };
      const order = await resumed('/orders/admin', { recipient, items: [{ sizeId: cutSize, quantity: 1 }] }, 201);
      expect(await count('orders')).toBe(1);
      await resumed(`/orders/admin/${order.order.id}/cancel`, {}, 200);

      const before = (await stockAndLedger(dbUrl(), cutSize)).stock;
      await resumed('/production-api/acceptances', { items: [{ article: 'CUT', size: 'L', quantity: 2 }] }, 201, {
        ...workshop.headers,
      });
      expect(await count('acceptances')).toBe(1);
      expect((await stockAndLedger(dbUrl(), cutSize)).stock).toBe(before + 2);

      const paid = await request(http())
        .post('/orders/integrations/partner/webhook')
        .set(clerk.headers)
        .send({ partnerOrderId: 'cut-1', recipient, items: [{ article: 'SF-CUT', size: 'L', quantity: 2 }] })
        .expect(201);
      const items = (await request(http()).get(`/orders/admin/${paid.body.order.id}`).set(clerk.headers)).body.items;
      const created = await request(http())
        .post('/returns')
        .set(clerk.headers)
        .send({
          orderId: paid.body.order.id,
          externalReturnId: 'ret-cut-1',
          items: [{ orderItemId: items[0].id, quantity: 2 }],
          reasonCode: 'wrong_size',
        })
        .expect(201);
      const returnId = created.body.return.id;
      await resumed(`/returns/${returnId}/approve`, {}, 200);
      const stocked = (await stockAndLedger(dbUrl(), cutSize)).stock;
      const receipt = {
        items: [{ returnItemId: created.body.return.items[0].id, quantity: 2, disposition: 'restock' }],
      };
      await resumed(`/returns/${returnId}/receive`, receipt, 200);
      expect((await stockAndLedger(dbUrl(), cutSize)).stock).toBe(stocked + 2);
      await resumed(`/returns/${returnId}/close`, {}, 200);
    });
    // A late write under a claim taken over is refused: test/medium/idempotency-claims.medium-spec.ts.
  });

  it('sweeps answers older than 24 hours', async () => {
    await eventually(async () => expect(await rowsOf('ancient')).toBe(0));
  });
});
