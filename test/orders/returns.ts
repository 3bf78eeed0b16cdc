import request from 'supertest';
import { createProduct, issueKey, journal, type IssuedKey } from '../support/fixtures';
import { countRows, stockAndLedger } from '../support/stock-probe';
import { type SharedSuite, type Suite } from '../support/suite';
import { withClient } from '../support/test-database';

let seq = 0;

/** Returns (contract §9): every endpoint, state and error, and the races the contract names. */
export function describeReturns(shared: SharedSuite): void {
  describe('returns', () => {
    let suite: Suite;
    let brand: number;
    let storefront: IssuedKey;
    let clerk: IssuedKey;
    let reader: IssuedKey;
    let otherBrandKey: IssuedKey;
    let sizeM: number;
    let sizeL: number;

    const http = () => suite.t.http;
    const dbUrl = () => suite.db.url;

    /** A paid storefront order of `m` units of M and `l` of L; stock left the shelves. */
    async function paidOrder(m = 2, l = 1) {
      const items = [
        ...(m > 0 ? [{ article: 'SF-TEE', size: 'M', quantity: m }] : []),
        ...(l > 0 ? [{ article: 'SF-TEE', size: 'L', quantity: l }] : []),
      ];
      const created = await request(http())
        .post('/orders/integrations/partner/webhook')
        .set(storefront.headers)
        .send({ partnerOrderId: `RET-${++seq}`, recipient: { fullName: 'Petrov Ivan', phone: '+79001234567' }, items })
        .expect(201);
      const order = await request(http()).get(`/orders/admin/${created.body.order.id}`).set(reader.headers).expect(200);
      return order.body as {
        id: number;
        status: string;
        items: Array<{ id: number; sizeId: number; quantity: number }>;
      };
    }

    const lineOf = (order: Awaited<ReturnType<typeof paidOrder>>, sizeId: number) =>
      order.items.find((i) => i.sizeId === sizeId)!.id;

    const createReturn = (body: Record<string, unknown>, key: IssuedKey = clerk) =>
      request(http())
        .post('/returns')
        .set(key.headers)
        .send({ reasonCode: 'wrong_size', ...body });

    const act = (id: number, action: string, body: object = {}, key: IssuedKey = clerk) =>
      request(http()).post(`/returns/${id}/${action}`).set(key.headers).send(body);

    beforeAll(async () => {
      suite = shared.suite;
      const { fx } = suite;
      brand = await fx.brand();
      const other = await fx.brand();
      storefront = await issueKey(fx, brand, { permissions: ['orders.create_partner'] });
      clerk = await issueKey(fx, brand, {
        permissions: ['returns.read', 'returns.write', 'orders.read', 'orders.write'],
      });
      reader = await issueKey(fx, brand, { permissions: ['orders.read', 'returns.read', 'stock.read'] });
      otherBrandKey = await issueKey(fx, other, { fullAccess: true });
      const tee = await createProduct(fx, brand, {
        article: 'TEE',
        storefrontArticle: 'SF-TEE',
        priceKopeks: 150000,
        sizes: [
          { name: 'M', stock: 100 },
          { name: 'L', stock: 100, priceKopeks: 170000 },
        ],
      });
      sizeM = tee.sizes.find((s) => s.name === 'M')!.id;
      sizeL = tee.sizes.find((s) => s.name === 'L')!.id;
    });

    it('creates a requested customer return priced from the order, and reads it back', async () => {
      const order = await paidOrder(2, 1);
      const response = await createReturn({
        orderId: order.id,
        externalReturnId: ` ext-${seq} `,
        items: [
          { orderItemId: lineOf(order, sizeM), quantity: 1 },
          { orderItemId: lineOf(order, sizeL), quantity: 1 },
        ],
        reasonNote: 'too small',
      }).expect(201);
      expect(response.body).toMatchObject({
        duplicate: false,
        return: {
          orderId: order.id,
          externalReturnId: `ext-${seq}`,
          origin: 'customer',
          status: 'requested',
          reasonCode: 'wrong_size',
          reasonNote: 'too small',
          refundKopeks: 150000 + 170000,
          refundStatus: 'pending',
          approvedAt: null,
          receivedAt: null,
          closedAt: null,
          canceledAt: null,
        },
      });
      expect(response.body.return.returnNumber).toMatch(/^R-\d{6}$/);
      expect(response.body.return.items).toEqual([
        expect.objectContaining({ orderItemId: lineOf(order, sizeM), sizeId: sizeM, quantity: 1, receivedQuantity: 0 }),
        expect.objectContaining({
          orderItemId: lineOf(order, sizeL),
          sizeId: sizeL,
          quantity: 1,
          restockedQuantity: 0,
        }),
      ]);
      const read = await request(http()).get(`/returns/${response.body.return.id}`).set(reader.headers).expect(200);
      expect(read.body).toEqual(response.body.return);
    });

    it('numbers returns per brand', async () => {
      const order = await paidOrder(2, 0);
      const first = await createReturn({
        orderId: order.id,
        externalReturnId: `n1-${seq}`,
        items: [{ orderItemId: lineOf(order, sizeM), quantity: 1 }],
      }).expect(201);
      const second = await createReturn({
        orderId: order.id,
        externalReturnId: `n2-${seq}`,
        items: [{ orderItemId: lineOf(order, sizeM), quantity: 1 }],
      }).expect(201);
      const n = (r: { body: { return: { returnNumber: string } } }) => Number(r.body.return.returnNumber.slice(2));
      expect(n(second)).toBe(n(first) + 1);
    });

    it('answers a repeated externalReturnId with the first return, also for 20 identical creates at once', async () => {
      const order = await paidOrder(3, 0);
      const body = {
        orderId: order.id,
        externalReturnId: `same-${seq}`,
        items: [{ orderItemId: lineOf(order, sizeM), quantity: 1 }],
      };
      const answers = await Promise.all(Array.from({ length: 20 }, () => createReturn(body)));
      expect(answers.map((a) => a.status).sort()).toEqual([...Array(19).fill(200), 201]);
      const ids = new Set(answers.map((a) => a.body.return.id));
      expect(ids.size).toBe(1);
      expect(answers.filter((a) => a.body.duplicate === true)).toHaveLength(19);
      expect(await countRows(dbUrl(), 'returns', 'external_return_id = $1', [`same-${seq}`])).toBe(1);
    });

    it('refuses what the order cannot give back, creating nothing (422, 400)', async () => {
      const order = await paidOrder(1, 0);
      const line = lineOf(order, sizeM);
      const before = await countRows(dbUrl(), 'returns');
      const notALine = await createReturn({
        orderId: order.id,
        externalReturnId: `x1-${seq}`,
        items: [{ orderItemId: line + 100000, quantity: 1 }],
      }).expect(422);
      expect(notALine.body.error).toBe(`items.0: order item ${line + 100000} is not a line of this order`);
      const tooMany = await createReturn({
        orderId: order.id,
        externalReturnId: `x2-${seq}`,
        items: [{ orderItemId: line, quantity: 2 }],
      }).expect(422);
      expect(tooMany.body.error).toBe(`items.0: order item ${line} has 1 unit(s) left to return`);
      const refund = await createReturn({
        orderId: order.id,
        externalReturnId: `x3-${seq}`,
        items: [{ orderItemId: line, quantity: 1 }],
        refundKopeks: 150001,
      }).expect(400);
      expect(refund.body.details).toEqual(["refundKopeks must not exceed the lines' total, 150000"]);
      const malformed = await createReturn({
        orderId: 'x',
        externalReturnId: '',
        items: [],
        reasonCode: 'bored',
      }).expect(400);
      expect(malformed.body.details.length).toBeGreaterThanOrEqual(4);
      const platform = await request(http())
        .post('/orders/admin')
        .set(clerk.headers)
        .send({ recipient: { fullName: 'A B', phone: '+79001112233' }, items: [{ sizeId: sizeM, quantity: 1 }] })
        .expect(201);
      const unpaid = await createReturn({
        orderId: platform.body.order.id,
        externalReturnId: `x4-${seq}`,
        items: [{ orderItemId: platform.body.order.items[0].id, quantity: 1 }],
      }).expect(422);
      expect(unpaid.body.error).toBe('An order that is new cannot be returned');
      const twice = await createReturn({
        orderId: order.id,
        externalReturnId: `x5-${seq}`,
        items: [
          { orderItemId: line, quantity: 1 },
          { orderItemId: line, quantity: 1 },
        ],
      }).expect(422);
      expect(twice.body.error).toBe(`items.1: line ${line} is listed twice`);
      expect(await countRows(dbUrl(), 'returns')).toBe(before);
    });

    it('gives the last unit to one of two returns arriving at the same moment', async () => {
      const order = await paidOrder(1, 0);
      const line = lineOf(order, sizeM);
      const [a, b] = await Promise.all(
        ['a', 'b'].map((x) =>
          createReturn({
            orderId: order.id,
            externalReturnId: `last-${x}-${seq}`,
            items: [{ orderItemId: line, quantity: 1 }],
          }),
        ),
      );
      expect([a.status, b.status].sort()).toEqual([201, 422]);
    });

    it('frees the units of a declined or canceled return for another one', async () => {
      const order = await paidOrder(1, 0);
      const line = lineOf(order, sizeM);
      const first = await createReturn({
        orderId: order.id,
        externalReturnId: `f1-${seq}`,
        items: [{ orderItemId: line, quantity: 1 }],
      }).expect(201);
      const declined = await act(first.body.return.id, 'decline', { reasonNote: 'worn' }).expect(200);
      expect(declined.body).toMatchObject({ status: 'declined', reasonNote: 'worn' });
      const second = await createReturn({
        orderId: order.id,
        externalReturnId: `f2-${seq}`,
        items: [{ orderItemId: line, quantity: 1 }],
      }).expect(201);
      const canceled = await act(second.body.return.id, 'cancel').expect(200);
      expect(canceled.body.status).toBe('canceled');
      expect(canceled.body.canceledAt).toEqual(expect.any(String));
      await createReturn({
        orderId: order.id,
        externalReturnId: `f3-${seq}`,
        items: [{ orderItemId: line, quantity: 1 }],
      }).expect(201);
    });

    it('moves only along the table: every other move is a 409 that changes nothing', async () => {
      const order = await paidOrder(1, 0);
      const created = await createReturn({
        orderId: order.id,
        externalReturnId: `t-${seq}`,
        items: [{ orderItemId: lineOf(order, sizeM), quantity: 1 }],
      }).expect(201);
      const id = created.body.return.id;
      await act(id, 'close').expect(409);
      const approved = await act(id, 'approve').expect(200);
      expect(approved.body.approvedAt).toEqual(expect.any(String));
      const again = await act(id, 'approve').expect(409);
      expect(again.body.error).toBe('A return that is approved cannot become approved');
      await act(id, 'decline').expect(409);
      const current = await request(http()).get(`/returns/${id}`).set(reader.headers).expect(200);
      expect(current.body).toEqual(approved.body);
    });

    it('receives in parts: restocked units reach stock through the ledger, the order counts them, then closes', async () => {
      const order = await paidOrder(2, 1);
      const created = await createReturn({
        orderId: order.id,
        externalReturnId: `r-${seq}`,
        items: [
          { orderItemId: lineOf(order, sizeM), quantity: 2 },
          { orderItemId: lineOf(order, sizeL), quantity: 1 },
        ],
      }).expect(201);
      const ret = created.body.return;
      const [itemM, itemL] = ret.items;
      const stockM = await stockAndLedger(dbUrl(), sizeM);

      const partial = await act(ret.id, 'receive', {
        items: [
          { returnItemId: itemM.id, quantity: 1, disposition: 'restock' },
          { returnItemId: itemM.id, quantity: 1, disposition: 'damaged' },
        ],
      }).expect(200);
      expect(partial.body.status).toBe('partially_received');
      expect(partial.body.items[0]).toMatchObject({ receivedQuantity: 2, restockedQuantity: 1 });
      expect(await stockAndLedger(dbUrl(), sizeM)).toEqual({ stock: stockM.stock + 1, ledger: stockM.ledger + 1 });

      const over = await act(ret.id, 'receive', {
        items: [{ returnItemId: itemL.id, quantity: 2, disposition: 'restock' }],
      }).expect(422);
      expect(over.body.error).toBe(`items.0: return item ${itemL.id} has 1 unit(s) still expected`);
      await act(ret.id, 'receive', { items: [{ returnItemId: 999999, quantity: 1, disposition: 'restock' }] }).expect(
        422,
      );
      await act(ret.id, 'cancel').expect(409);

      const done = await act(ret.id, 'receive', {
        items: [{ returnItemId: itemL.id, quantity: 1, disposition: 'missing' }],
      }).expect(200);
      expect(done.body.status).toBe('received');
      expect(done.body.receivedAt).toEqual(expect.any(String));
      const back = await request(http()).get(`/orders/admin/${order.id}`).set(reader.headers).expect(200);
      expect(back.body.status).toBe('returned');
      expect(back.body.items.map((i: { returnedQuantity: number }) => i.returnedQuantity)).toEqual([2, 1]);

      const movements = await request(http()).get(`/inventory/movements?sizeId=${sizeM}&limit=5`).set(reader.headers);
      expect(movements.body.items[0]).toMatchObject({
        reason: 'return',
        delta: 1,
        orderId: order.id,
        note: ret.returnNumber,
      });
      await act(ret.id, 'receive', { items: [{ returnItemId: itemM.id, quantity: 1, disposition: 'restock' }] }).expect(
        409,
      );
      const closed = await act(ret.id, 'close').expect(200);
      expect(closed.body).toMatchObject({ status: 'closed', closedAt: expect.any(String) });
    });

    it('never over-receives a line under parallel receipts', async () => {
      const order = await paidOrder(3, 0);
      const created = await createReturn({
        orderId: order.id,
        externalReturnId: `pr-${seq}`,
        items: [{ orderItemId: lineOf(order, sizeM), quantity: 3 }],
      }).expect(201);
      const item = created.body.return.items[0];
      const before = await stockAndLedger(dbUrl(), sizeM);
      const answers = await Promise.all(
        Array.from({ length: 4 }, () =>
          act(created.body.return.id, 'receive', {
            items: [{ returnItemId: item.id, quantity: 2, disposition: 'restock' }],
          }),
        ),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 422, 422, 422]);
      const after = await request(http()).get(`/returns/${created.body.return.id}`).set(reader.headers);
      expect(after.body.items[0]).toMatchObject({ receivedQuantity: 2, restockedQuantity: 2 });
      expect(await stockAndLedger(dbUrl(), sizeM)).toEqual({ stock: before.stock + 2, ledger: before.ledger + 2 });
    });

    it('records a refund once, at most the return amount', async () => {
      const order = await paidOrder(1, 0);
      const created = await createReturn({
        orderId: order.id,
        externalReturnId: `rf-${seq}`,
        items: [{ orderItemId: lineOf(order, sizeM), quantity: 1 }],
        refundKopeks: 100000,
      }).expect(201);
      const id = created.body.return.id;
      const tooMuch = await act(id, 'refund', { refundKopeks: 100001 }).expect(400);
      expect(tooMuch.body.details).toEqual(["refundKopeks must not exceed the return's refundKopeks, 100000"]);
      const refunded = await act(id, 'refund', { refundKopeks: 90000 }).expect(200);
      expect(refunded.body).toMatchObject({ refundStatus: 'refunded', refundKopeks: 90000, status: 'requested' });
      await act(id, 'refund').expect(409);

      const other = await paidOrder(1, 0);
      const declined = await createReturn({
        orderId: other.id,
        externalReturnId: `rf-d-${seq}`,
        items: [{ orderItemId: lineOf(other, sizeM), quantity: 1 }],
      }).expect(201);
      await act(declined.body.return.id, 'decline').expect(200);
      const refused = await act(declined.body.return.id, 'refund').expect(409);
      expect(refused.body.error).toBe('A return that is declined cannot be refunded');
    });

    it('lists newest first with filters and a total', async () => {
      const order = await paidOrder(2, 0);
      const line = lineOf(order, sizeM);
      const one = await createReturn({
        orderId: order.id,
        externalReturnId: `l1-${seq}`,
        items: [{ orderItemId: line, quantity: 1 }],
      });
      const two = await createReturn({
        orderId: order.id,
        externalReturnId: `l2-${seq}`,
        items: [{ orderItemId: line, quantity: 1 }],
      });
      await act(two.body.return.id, 'approve').expect(200);
      const ofOrder = await request(http()).get(`/returns?orderId=${order.id}`).set(reader.headers).expect(200);
      expect(ofOrder.body.total).toBe(2);
      expect(ofOrder.body.items.map((r: { id: number }) => r.id)).toEqual([two.body.return.id, one.body.return.id]);
      const approved = await request(http())
        .get(`/returns?orderId=${order.id}&status=approved&limit=1`)
        .set(reader.headers)
        .expect(200);
      expect(approved.body).toMatchObject({ total: 1, items: [{ id: two.body.return.id }] });
      const page = await request(http()).get(`/returns?orderId=${order.id}&limit=1&offset=1`).set(reader.headers);
      expect(page.body.items.map((r: { id: number }) => r.id)).toEqual([one.body.return.id]);
      await request(http()).get('/returns?status=lost').set(reader.headers).expect(400);
      await request(http()).get('/returns?limit=201').set(reader.headers).expect(400);
    });

    it("keeps brands apart: another brand's return is a journaled 403, a missing one 404", async () => {
      const order = await paidOrder(1, 0);
      const created = await createReturn({
        orderId: order.id,
        externalReturnId: `iso-${seq}`,
        items: [{ orderItemId: lineOf(order, sizeM), quantity: 1 }],
      }).expect(201);
      const id = created.body.return.id;
      const denied = await request(http()).get(`/returns/${id}`).set(otherBrandKey.headers).expect(403);
      expect(denied.body.error).toBe('Forbidden: brand not allowed');
      await act(id, 'approve', {}, otherBrandKey).expect(403);
      const entries = await journal(suite.fx);
      expect(entries.find((e) => e.type === 'brand_violation' && e.details.resource === 'return')).toMatchObject({
        targetBrandId: brand,
        details: { id },
      });
      await request(http()).get('/returns/999999').set(reader.headers).expect(404);
      const other = await createReturn(
        {
          orderId: order.id,
          externalReturnId: `iso2-${seq}`,
          items: [{ orderItemId: lineOf(order, sizeM), quantity: 1 }],
        },
        otherBrandKey,
      ).expect(403);
      expect(other.body.error).toBe('Forbidden: brand not allowed');
      await request(http()).get(`/returns/${id}`).set(storefront.headers).expect(403);
    });

    it('records every transition as a domain event of the return, numbered from 1', async () => {
      const order = await paidOrder(1, 0);
      const created = await createReturn({
        orderId: order.id,
        externalReturnId: `ev-${seq}`,
        items: [{ orderItemId: lineOf(order, sizeM), quantity: 1 }],
      }).expect(201);
      const id = created.body.return.id;
      await act(id, 'approve').expect(200);
      await act(id, 'receive', {
        items: [{ returnItemId: created.body.return.items[0].id, quantity: 1, disposition: 'restock' }],
      }).expect(200);
      await act(id, 'refund').expect(200);
      await act(id, 'close').expect(200);
      await act(id, 'close').expect(409);
      const events = await withClient(
        dbUrl(),
        async (c) =>
          (
            await c.query(
              `SELECT type, sequence, data FROM domain_events WHERE subject = 'return' AND subject_id = $1 ORDER BY sequence`,
              [id],
            )
          ).rows,
      );
      expect(events.map((e) => [e.sequence, e.type])).toEqual([
        [1, 'return.requested'],
        [2, 'return.approved'],
        [3, 'return.received'],
        [4, 'return.refunded'],
        [5, 'return.closed'],
      ]);
      expect(events[4].data).toEqual({
        returnId: id,
        returnNumber: created.body.return.returnNumber,
        orderId: order.id,
        externalReturnId: `ev-${seq}`,
        origin: 'customer',
        status: 'closed',
        refundStatus: 'refunded',
        sequence: 5,
      });
      const orderEvents = await countRows(
        dbUrl(),
        'domain_events',
        `subject = 'order' AND subject_id = $1 AND type = 'order.returned'`,
        [order.id],
      );
      expect(orderEvents).toBe(1);
    });
  });
}
