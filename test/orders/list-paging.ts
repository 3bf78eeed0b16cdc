import request from 'supertest';
import { createProduct, issueKey, type IssuedKey } from '../support/fixtures';
import { type SharedSuite, type Suite } from '../support/suite';

let seq = 0;

interface Page {
  items: Array<{ id: number; status: string }>;
  total: number;
}

/**
 * Paging by `before` on the orders and returns lists (contract §21): a page costs the same at any
 * depth, and walking the pages while orders arrive skips and repeats nothing; `offset` stays up to
 * 10 000, beyond which the answer names `before`.
 */
export function describeListPaging(shared: SharedSuite): void {
  describe('paging the orders and returns lists by before', () => {
    let s: Suite;
    let storefront: IssuedKey;
    let clerk: IssuedKey;
    let other: IssuedKey;
    const first: number[] = [];

    const order = async (key: IssuedKey = storefront) =>
      (
        await request(s.t.http)
          .post('/orders/integrations/partner/webhook')
          .set(key.headers)
          .send({
            partnerOrderId: `PG-${process.pid}-${++seq}`,
            recipient: { fullName: 'Petrov Ivan', phone: '+79001234567' },
            items: [{ article: 'SF-PAGE', size: 'M', quantity: 1 }],
          })
          .expect(201)
      ).body.order.id as number;

    const get = async (path: string, key: IssuedKey = clerk) =>
      (await request(s.t.http).get(path).set(key.headers).expect(200)).body as Page;

    beforeAll(async () => {
      s = shared.suite;
      const brand = await s.fx.brand();
      storefront = await issueKey(s.fx, brand, { permissions: ['orders.create_partner'] });
      clerk = await issueKey(s.fx, brand, { permissions: ['orders.read', 'returns.read', 'returns.write'] });
      await createProduct(s.fx, brand, {
        article: 'PAGE',
        storefrontArticle: 'SF-PAGE',
        priceKopeks: 1000,
        sizes: [{ name: 'M', stock: 10_000 }],
      });
      // Another brand's orders between this brand's: no page of this brand holds them.
      const otherBrand = await s.fx.brand();
      other = await issueKey(s.fx, otherBrand, { permissions: ['orders.create_partner', 'orders.read'] });
      await createProduct(s.fx, otherBrand, {
        article: 'PAGE',
        storefrontArticle: 'SF-PAGE',
        priceKopeks: 1000,
        sizes: [{ name: 'M', stock: 10_000 }],
      });
      for (let i = 0; i < 23; i++) {
        first.push(await order());
        if (i % 5 === 0) await order(other);
      }
    }, 60_000);

    it('walks every order once, newest first, while orders arrive between the pages', async () => {
      const seen: number[] = [];
      const arrived: number[] = [];
      let page = await get('/orders/admin/all?limit=4');
      const total = page.total;
      for (;;) {
        seen.push(...page.items.map((item) => item.id));
        // Orders taken between two pages are newer than every page yet to come: they stay out.
        arrived.push(await order());
        if (page.items.length < 4) break;
        page = await get(`/orders/admin/all?limit=4&before=${page.items.at(-1)!.id}`);
        // `total` counts the brand's orders, whatever page is asked for.
        expect(page.total).toBe(total + arrived.length);
      }
      expect(seen).toEqual([...first].reverse());
      expect(new Set(seen).size).toBe(seen.length);
      // The next walk from the top starts with what arrived.
      expect((await get('/orders/admin/all?limit=1')).items[0].id).toBe(arrived.at(-1));
    });

    it('pages by before under a filter too, its total the filter’s', async () => {
      const newest = first.at(-1)!;
      const paid = await get(`/orders/admin/all?status=paid&limit=5&before=${newest}`);
      expect(paid.items.map((item) => item.id)).toEqual(first.slice(-6, -1).reverse());
      expect(paid.items.every((item) => item.status === 'paid')).toBe(true);
      expect(paid.total).toBe((await get('/orders/admin/all?status=paid&limit=1')).total);
      // Past the oldest: nothing, and no error.
      expect((await get(`/orders/admin/all?before=${first[0]}`)).items).toEqual([]);
      // Another brand's key pages its own orders only, whatever id it names.
      const theirs = await get(`/orders/admin/all?before=${newest + 1000}`, other);
      expect(theirs.items.some((item) => first.includes(item.id))).toBe(false);
    });

    it('keeps offset up to 10 000; beyond, a 400 that names before', async () => {
      expect((await get('/orders/admin/all?offset=10000')).items).toEqual([]);
      for (const path of ['/orders/admin/all', '/returns']) {
        const refused = await request(s.t.http).get(`${path}?offset=10001`).set(clerk.headers).expect(400);
        expect(JSON.stringify(refused.body)).toContain('before');
        await request(s.t.http).get(`${path}?before=0`).set(clerk.headers).expect(400);
        await request(s.t.http).get(`${path}?before=x`).set(clerk.headers).expect(400);
      }
    });

    it('pages the returns by before, each once, newest first', async () => {
      const returns: number[] = [];
      for (const orderId of first.slice(0, 7)) {
        const detail = await request(s.t.http).get(`/orders/admin/${orderId}`).set(clerk.headers).expect(200);
        const created = await request(s.t.http)
          .post('/returns')
          .set(clerk.headers)
          .send({
            orderId,
            externalReturnId: `PG-R-${orderId}`,
            reasonCode: 'wrong_size',
            items: [{ orderItemId: detail.body.items[0].id, quantity: 1 }],
          })
          .expect(201);
        returns.push(created.body.return.id);
      }
      const seen: number[] = [];
      let page = await get('/returns?limit=3');
      expect(page.total).toBe(7);
      for (;;) {
        seen.push(...page.items.map((item) => item.id));
        if (page.items.length < 3) break;
        page = await get(`/returns?limit=3&before=${page.items.at(-1)!.id}`);
        expect(page.total).toBe(7);
      }
      expect(seen).toEqual([...returns].reverse());
      const requested = await get(`/returns?status=requested&limit=2&before=${returns[4]}`);
      expect(requested.items.map((item) => item.id)).toEqual([returns[3], returns[2]]);
    });
  });
}
