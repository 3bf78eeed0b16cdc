import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fc from 'fast-check';
import request from 'supertest';
import { CarrierStub } from './support/carrier-stub';
import { databaseAsText } from './support/database-text';
import { hostileValue } from './support/openapi-values';
import { eventually } from './support/eventually';
import { createProduct, Fixtures, issueKey, journal, type IssuedKey } from './support/fixtures';
import { CARRIER_SECRET, PAYMENT_SECRET, postSigned } from './support/signed';
import { SmtpSink } from './support/smtp-sink';
import { stockAndLedger } from './support/stock-probe';
import { createTestDatabase, withClient, type TestDatabase } from './support/test-database';
import { OutboxWorker } from '../src/notifications/outbox-worker';
import { bearer, startTestApp, type TestApp } from './support/test-app';

const run = promisify(execFile);
let seq = 0;
const next = () => `${process.pid}-${++seq}`;

/**
 * What a data dump of the whole database shows, lower-cased (an e-mail may be stored as written or
 * lowered): `pg_dump --data-only`, as an auditor would run it, when the machine's pg_dump can read
 * this server; a newer server than it (the embedded PostgreSQL of `npm test` without DATABASE_URL)
 * is read row by row as text instead, which shows every column of every table the same way.
 */
async function dump(url: string): Promise<string> {
  const [server, tool] = await Promise.all([
    withClient(url, async (c) =>
      Number((await c.query<{ server_version_num: string }>('SHOW server_version_num')).rows[0].server_version_num),
    ),
    run('pg_dump', ['--version']).then(
      ({ stdout }) => Number(/(\d+)\./.exec(stdout)?.[1] ?? 0) * 10_000,
      () => 0,
    ),
  ]);
  if (tool < Math.floor(server / 10_000) * 10_000) return (await databaseAsText(url)).toLowerCase();
  const { stdout } = await run('pg_dump', ['--data-only', '--no-owner', url], { maxBuffer: 256 * 1024 * 1024 });
  return stdout.toLowerCase();
}

/** Each piece of a buyer's data that must be gone from the dump. */
function piecesOf(buyer: Buyer): string[] {
  const [surname, firstName, patronymic] = buyer.fullName.split(' ');
  return [buyer.phone, buyer.normalized, surname, firstName, patronymic, buyer.email, buyer.comment].map((piece) =>
    piece.toLowerCase(),
  );
}

interface Buyer {
  fullName: string;
  phone: string;
  normalized: string;
  email: string;
  comment: string;
}

/** A buyer whose every piece of data is unique to this run, so the dump can be searched for it. */
function buyer(): Buyer {
  const n = String(100_000 + ++seq).slice(-6);
  return {
    fullName: `Zvyagintseva${n} Varvara${n} Ostapovna${n}`,
    phone: `8 (915) ${n.slice(0, 3)}-${n.slice(3, 5)}-${n.slice(5)}0`,
    normalized: `+7915${n}0`,
    email: `Varvara.${n}@Example.org`,
    comment: `Leave it with the concierge ${n}`,
  };
}

/**
 * Buyers' personal data (contract §17) on a real database, with the payment, carrier and mail
 * flows running: erasure leaves no copy a dump could show, keeps the books and orders in
 * progress, and names no buyer in its journal entry; export and retention. A copy written after an
 * erasure, an order another transaction holds, and the retention sweep:
 * test/medium/personal-data-erasure.medium-spec.ts and personal-data-retention.medium-spec.ts.
 */
describe('buyers’ personal data', () => {
  let db: TestDatabase;
  let t: TestApp;
  let fx: Fixtures;
  let sink: SmtpSink;
  let carrier: CarrierStub;
  let brand: number;
  let other: number;
  let clerk: IssuedKey;
  let storefront: IssuedKey;
  let sizeId: number;

  beforeAll(async () => {
    db = await createTestDatabase();
    sink = new SmtpSink();
    carrier = new CarrierStub({ token: 'carrier-token' });
    const [smtpUrl, carrierUrl] = await Promise.all([sink.start(), carrier.start()]);
    t = await startTestApp({
      databaseUrl: db.url,
      env: {
        PAYMENT_WEBHOOK_SECRET: PAYMENT_SECRET,
        CARRIER_WEBHOOK_SECRET: CARRIER_SECRET,
        CARRIER_API_URL: carrierUrl,
        CARRIER_API_TOKEN: 'carrier-token',
        SMTP_URL: smtpUrl,
        OUTBOX_POLL_MS: '100',
        OUTBOX_RETRY_BASE_MS: '100',
        OUTBOX_RETRY_MAX_MS: '400',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        WEBHOOK_WORKER: 'false',
      },
    });
    fx = await Fixtures.create(t.http);
    brand = (
      await request(t.http)
        .post('/admin/brands')
        .set(bearer(fx.admin))
        .send({ name: 'Northwind', slug: `northwind-${process.pid}`, staffEmail: 'staff@northwind.example' })
        .expect(201)
    ).body.id;
    other = await fx.brand();
    clerk = await issueKey(fx, brand, { permissions: ['orders.write', 'orders.read'] });
    storefront = await issueKey(fx, brand, { permissions: ['orders.create_partner'] });
    const product = await createProduct(fx, brand, {
      article: 'PD-1',
      storefrontArticle: 'SF-PD-1',
      priceKopeks: 100000,
      sizes: [{ name: 'M', stock: 1000 }],
    });
    sizeId = product.sizes[0].id;
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([sink?.stop(), carrier?.stop()]);
    await db?.drop();
  });

  const admin = () => bearer(fx.admin);
  const erase = (body: object, brandId = brand) =>
    request(t.http).post(`/admin/brands/${brandId}/personal-data/erasures`).set(admin()).send(body);
  const order = async (id: number) =>
    (await request(t.http).get(`/orders/admin/${id}`).set(clerk.headers).expect(200)).body;
  const cancel = (id: number, key?: string) =>
    request(t.http)
      .post(`/orders/admin/${id}/cancel`)
      .set({ ...clerk.headers, ...(key ? { 'Idempotency-Key': key } : {}) })
      .send({})
      .expect(200);
  const carrierEvent = (over: Record<string, unknown>) =>
    postSigned(t.http, '/carrier/webhook', CARRIER_SECRET, {
      eventId: `evt-${next()}`,
      occurredAt: new Date().toISOString(),
      ...over,
    });

  async function storefrontOrder(who: Buyer) {
    const response = await request(t.http)
      .post('/orders/integrations/partner/webhook')
      .set({ ...storefront.headers, 'Idempotency-Key': `sf-${next()}` })
      .send({
        partnerOrderId: `PD-${next()}`,
        recipient: { fullName: who.fullName, phone: who.phone, email: who.email },
        comment: who.comment,
        items: [{ article: 'SF-PD-1', size: 'M', quantity: 1 }],
      })
      .expect(201);
    return response.body.order as { id: number; orderNumber: string };
  }

  async function platformOrder(who: Buyer) {
    const response = await request(t.http)
      .post('/orders/admin')
      .set({ ...clerk.headers, 'Idempotency-Key': `po-${next()}` })
      .send({
        recipient: { fullName: who.fullName, phone: who.phone, email: who.email },
        comment: who.comment,
        items: [{ sizeId, quantity: 2 }],
        delivery: { city: 'Kazan', pvzCode: 'KZN1', pvzAddress: 'Kazan, Baumana 1' },
      })
      .expect(201);
    return response.body.order as { id: number; orderNumber: string; totalKopeks: number };
  }

  /** A platform order paid, registered with the carrier, mailed about, and in transit. */
  async function shippedOrder(who: Buyer) {
    const created = await platformOrder(who);
    await postSigned(t.http, '/payments/webhook', PAYMENT_SECRET, {
      eventId: `pay-${next()}`,
      orderNumber: created.orderNumber,
      amountKopeks: created.totalKopeks,
      status: 'succeeded',
      paidAt: new Date().toISOString(),
    }).expect(200);
    const shipped = await eventually(async () => {
      const current = await order(created.id);
      expect(current.carrierOrderUuid).toEqual(expect.any(String));
      return current as { id: number; orderNumber: string; carrierOrderUuid: string };
    });
    await carrierEvent({ carrierOrderUuid: shipped.carrierOrderUuid, status: 'in_transit' }).expect(200);
    return shipped;
  }

  /** Waits until every follow-up job (carrier, mails) is done, so none is left holding a copy. */
  const settled = () =>
    eventually(async () => {
      const jobs = await request(t.http).get('/admin/outbox?state=pending').set(admin()).expect(200);
      expect(jobs.body.counts.pending).toBe(0);
    });

  /** Every job of an order, as text. */
  const outboxText = (orderId: number) =>
    withClient(db.url, async (c) =>
      (await c.query(`SELECT o::text AS row FROM outbox o WHERE payload->>'orderId' = $1`, [String(orderId)])).rows
        .map((r: { row: string }) => r.row)
        .join('\n'),
    );

  const entriesOf = async (type: string) => (await journal(fx)).filter((entry) => entry.type === type);

  it('erases a storefront order’s buyer by phone in another format: no copy is left in a dump', async () => {
    const who = buyer();
    const created = await storefrontOrder(who);
    await cancel(created.id, `cancel-${next()}`);
    await settled();
    const before = await dump(db.url);
    for (const piece of piecesOf(who)) expect(before).toContain(piece);

    const byOtherFormat = `+7 915 ${who.normalized.slice(5, 8)} ${who.normalized.slice(8)}`;
    const erased = await erase({ phone: byOtherFormat }).expect(200);
    expect(erased.body).toEqual({ erased: [created.id], kept: [] });

    const after = await dump(db.url);
    for (const piece of piecesOf(who)) expect(after).not.toContain(piece);
    const anonymised = await order(created.id);
    expect(anonymised).toMatchObject({
      status: 'cancelled',
      comment: '',
      recipient: { fullName: '', surname: '', firstName: '', patronymic: '', phone: '', email: null },
      personalDataErasedAt: expect.any(String),
    });
  });

  it('erases a platform order that went through payment, carrier and mails, by e-mail in any case; the books stay', async () => {
    const who = buyer();
    // The carrier refuses the first registration quoting the recipient: the job's error holds a copy.
    carrier.quoteOnFailure = true;
    carrier.failNext(1);
    const shipped = await shippedOrder(who);
    await carrierEvent({ carrierOrderUuid: shipped.carrierOrderUuid, status: 'delivered' }).expect(200);
    await settled();
    expect(await outboxText(shipped.id)).toContain(who.phone);
    expect(sink.received.filter((mail) => mail.raw.includes(shipped.orderNumber)).length).toBeGreaterThanOrEqual(3);
    expect(carrier.shipments.get(shipped.orderNumber)).toBeDefined();
    const before = await order(shipped.id);
    const stock = await stockAndLedger(db.url, sizeId);
    const list = async () =>
      (await request(t.http).get('/orders/admin/all?limit=200').set(clerk.headers).expect(200)).body.items.find(
        (item: { id: number }) => item.id === shipped.id,
      );
    expect((await list()).personalDataErasedAt).toBeNull();
    expect(before.personalDataErasedAt).toBeNull();

    const endpoint = await request(t.http)
      .post(`/admin/brands/${brand}/webhook-endpoints`)
      .set(admin())
      .send({ url: 'http://127.0.0.1:9/erasures', eventTypes: ['order.personal_data_erased'] })
      .expect(201);

    const response = await erase({ email: who.email.toUpperCase() }).expect(200);
    expect(response.body).toEqual({ erased: [shipped.id], kept: [] });

    const dumped = await dump(db.url);
    for (const piece of piecesOf(who)) expect(dumped).not.toContain(piece);
    const after = await order(shipped.id);
    const { recipient: _r, comment: _c, personalDataErasedAt, ...books } = after;
    const { recipient: _r0, comment: _c0, personalDataErasedAt: _p0, ...booksBefore } = before;
    expect(books).toEqual(booksBefore);
    expect(personalDataErasedAt).toEqual(expect.any(String));
    expect((await list()).personalDataErasedAt).toBe(personalDataErasedAt);
    expect(await stockAndLedger(db.url, sizeId)).toEqual(stock);

    // The record of destruction names orders, never the buyer.
    const [entry] = await entriesOf('personal_data_erased');
    expect(entry).toMatchObject({
      brandId: brand,
      details: { by: 'email', erased: [shipped.id], kept: [] },
      path: `/admin/brands/${brand}/personal-data/erasures`,
    });
    for (const piece of piecesOf(who)) expect(JSON.stringify(entry).toLowerCase()).not.toContain(piece);

    // Integrations hear of it: an event of the order's data, readable with orders.read.
    // An event shows once every transaction that could precede it has ended (§16): read until it does.
    const ofOrder = await eventually(async () => {
      const events = await request(t.http).get('/events?types=order.personal_data_erased').set(clerk.headers);
      const found = events.body.items.filter((e: { data: { orderId: number } }) => e.data.orderId === shipped.id);
      expect(found).toHaveLength(1);
      return found;
    });
    expect(ofOrder).toEqual([
      expect.objectContaining({
        type: 'order.personal_data_erased',
        data: expect.objectContaining({ orderId: shipped.id, orderNumber: shipped.orderNumber, status: 'completed' }),
      }),
    ]);
    expect(ofOrder[0].data).not.toHaveProperty('recipient');
    const deliveries = await request(t.http)
      .get(`/admin/brands/${brand}/webhook-endpoints/${endpoint.body.id}/deliveries`)
      .set(admin())
      .expect(200);
    expect(deliveries.body.items.map((d: { eventType: string }) => d.eventType)).toContain(
      'order.personal_data_erased',
    );
  });

  it('empties every stored answer that quotes the buyer: a keyed return’s note, a keyed cancellation’s waybill link', async () => {
    const who = buyer();
    const [surname, firstName] = who.fullName.split(' ');
    const returnsKey = await issueKey(fx, brand, { permissions: ['returns.write', 'returns.read'] });
    // A storefront order whose waybill link has the buyer's phone in a format of its own, cancelled with a key:
    // its stored answer is the order, whose recipient the map empties; only the phone's digits find the link.
    const phoneAsLinked = `8-${who.normalized.slice(2, 5)}-${who.normalized.slice(5, 8)}-${who.normalized.slice(8)}`;
    const waybillUrl = `https://carrier.example/waybill?tel=${phoneAsLinked}`;
    const ordered = await request(t.http)
      .post('/orders/integrations/partner/webhook')
      .set({ ...storefront.headers, 'Idempotency-Key': `sf-${next()}` })
      .send({
        partnerOrderId: `PD-${next()}`,
        recipient: { fullName: who.fullName, phone: who.phone, email: who.email },
        waybillUrl,
        items: [{ article: 'SF-PD-1', size: 'M', quantity: 1 }],
      })
      .expect(201);
    const cancelKey = `cancel-${next()}`;
    const cancelled = await cancel(ordered.body.order.id, cancelKey);
    expect(cancelled.body.waybillUrl).toBe(waybillUrl);
    // A completed order returned with a key, the note quoting the buyer.
    const delivered = await shippedOrder(who);
    await carrierEvent({ carrierOrderUuid: delivered.carrierOrderUuid, status: 'delivered' }).expect(200);
    const line = ((await order(delivered.id)) as { items: Array<{ id: number }> }).items[0].id;
    const returnKey = `return-${next()}`;
    const returnBody = {
      orderId: delivered.id,
      externalReturnId: `RET-${next()}`,
      reasonCode: 'wrong_size',
      reasonNote: `${surname} ${firstName} asks to be called at ${who.phone} or ${who.email}`,
      items: [{ orderItemId: line, quantity: 1 }],
    };
    const sendReturn = () =>
      request(t.http)
        .post('/returns')
        .set({ ...returnsKey.headers, 'Idempotency-Key': returnKey })
        .send(returnBody);
    const returned = await sendReturn().expect(201);
    expect(returned.body.return.reasonNote).toContain(surname);
    // Another buyer's keyed return whose note shares the surname: it is about another order, and stays as answered.
    const neighbour = buyer();
    const theirs = await shippedOrder(neighbour);
    await carrierEvent({ carrierOrderUuid: theirs.carrierOrderUuid, status: 'delivered' }).expect(200);
    const theirLine = ((await order(theirs.id)) as { items: Array<{ id: number }> }).items[0].id;
    const theirKey = `return-${next()}`;
    const theirNote = `Same family as ${surname}, call ${neighbour.phone}`;
    const theirBody = {
      orderId: theirs.id,
      externalReturnId: `RET-${next()}`,
      reasonCode: 'wrong_size',
      reasonNote: theirNote,
      items: [{ orderItemId: theirLine, quantity: 1 }],
    };
    const sendTheirs = () =>
      request(t.http)
        .post('/returns')
        .set({ ...returnsKey.headers, 'Idempotency-Key': theirKey })
        .send(theirBody);
    await sendTheirs().expect(201);
    await settled();
    const before = await dump(db.url);
    for (const piece of piecesOf(who).filter((p) => p !== who.comment.toLowerCase())) expect(before).toContain(piece);
    expect(before).toContain(phoneAsLinked);

    const erased = await erase({ email: who.email }).expect(200);
    expect(erased.body).toEqual({ erased: [ordered.body.order.id, delivered.id].sort((a, b) => a - b), kept: [] });

    const after = await dump(db.url);
    const shared = surname.toLowerCase();
    for (const piece of piecesOf(who).filter((p) => p !== shared)) expect(after).not.toContain(piece);
    // The surname is left only where the neighbour's order holds it (§17: another order not anonymised).
    const occurrences = (text: string) => after.split(text).length - 1;
    expect(occurrences(theirNote.toLowerCase())).toBeGreaterThan(0);
    expect(occurrences(shared)).toBe(occurrences(theirNote.toLowerCase()));
    expect(after).not.toContain(phoneAsLinked);
    // The replays answer what is left: the same change, without the buyer.
    const replayedReturn = await sendReturn().expect(201);
    expect(replayedReturn.headers['idempotent-replayed']).toBe('true');
    expect(replayedReturn.body.return).toMatchObject({
      id: returned.body.return.id,
      orderId: delivered.id,
      reasonNote: '',
    });
    const theirReplay = await sendTheirs().expect(201);
    expect(theirReplay.headers['idempotent-replayed']).toBe('true');
    expect(theirReplay.body.return.reasonNote).toBe(theirNote);
    const replayedCancel = await cancel(ordered.body.order.id, cancelKey);
    expect(replayedCancel.headers['idempotent-replayed']).toBe('true');
    expect(replayedCancel.body).toMatchObject({
      id: ordered.body.order.id,
      status: 'cancelled',
      waybillUrl: '',
      recipient: { fullName: '', phone: '', email: null },
    });
  });

  it('keeps orders in progress as they are and lists them; a repeat erases nothing more', async () => {
    const who = buyer();
    const done = await storefrontOrder(who);
    await cancel(done.id);
    const inProgress = await platformOrder(who);
    const untouched = await order(inProgress.id);

    const response = await erase({ phone: who.normalized }).expect(200);
    expect(response.body).toEqual({ erased: [done.id], kept: [{ orderId: inProgress.id, status: 'new' }] });
    expect(await order(inProgress.id)).toEqual(untouched);
    const [entry] = await entriesOf('personal_data_erased');
    expect(entry.details).toEqual({ by: 'phone', erased: [done.id], kept: [inProgress.id] });

    // The anonymised order no longer carries the phone: only the order in progress matches.
    expect((await erase({ phone: who.phone }).expect(200)).body).toEqual({
      erased: [],
      kept: [{ orderId: inProgress.id, status: 'new' }],
    });
    expect((await erase({ orderId: done.id }).expect(200)).body).toEqual({ erased: [done.id], kept: [] });
    await eventually(async () => {
      const events = await request(t.http).get('/events?types=order.personal_data_erased').set(clerk.headers);
      expect(events.body.items.filter((e: { data: { orderId: number } }) => e.data.orderId === done.id)).toHaveLength(
        1,
      );
    });
  });

  it('answers 400 unless exactly one of phone, email and orderId is given; no match is 200 and journaled', async () => {
    for (const body of [{}, { phone: '+79150000000', email: 'a@example.org' }, { orderId: 1, email: 'a@b.c' }]) {
      const refused = await erase(body).expect(400);
      expect(refused.body.error).toBe('Exactly one of phone, email, orderId must be given');
    }
    await erase({ phone: '' }).expect(400);
    await erase({ orderId: 'seven' }).expect(400);
    expect((await erase({ email: 'nobody@nowhere.example' }).expect(200)).body).toEqual({ erased: [], kept: [] });
    expect((await erase({ orderId: 2_000_000_000 }).expect(200)).body).toEqual({ erased: [], kept: [] });
    const [entry] = await entriesOf('personal_data_erased');
    expect(entry.details).toEqual({ by: 'orderId', erased: [], kept: [] });
  });

  it('refuses another brand’s order by id (403, journaled) and leaves it whole', async () => {
    const who = buyer();
    const created = await storefrontOrder(who);
    await cancel(created.id);
    const member = await fx.member(other, ['settings.manage']);
    const refused = await erase({ orderId: created.id }, other).set(bearer(member)).expect(403);
    expect(refused.body.error).toBe('Forbidden: brand not allowed');
    const [violation] = await entriesOf('brand_violation');
    expect(violation).toMatchObject({
      brandId: other,
      targetBrandId: brand,
      details: { resource: 'order', id: created.id },
    });
    expect((await order(created.id)).recipient.fullName).toBe(who.fullName);
  });

  it('never answers a 5xx nor touches another brand’s buyer, whatever names the buyer', async () => {
    const who = buyer();
    const otherStorefront = await issueKey(fx, other, { permissions: ['orders.create_partner', 'orders.write'] });
    await createProduct(fx, other, {
      article: 'PD-O',
      storefrontArticle: 'SF-PD-O',
      priceKopeks: 100,
      sizes: [{ name: 'M', stock: 5 }],
    });
    const theirs = await request(t.http)
      .post('/orders/integrations/partner/webhook')
      .set(otherStorefront.headers)
      .send({
        partnerOrderId: `O-${next()}`,
        recipient: { fullName: who.fullName, phone: who.phone, email: who.email },
        items: [{ article: 'SF-PD-O', size: 'M', quantity: 1 }],
      })
      .expect(201);
    await request(t.http)
      .post(`/orders/admin/${theirs.body.order.id}/cancel`)
      .set(otherStorefront.headers)
      .send({})
      .expect(200);
    const digits = who.normalized.slice(2);
    const phone = fc.constantFrom(
      who.phone,
      who.normalized,
      `8${digits}`,
      `+7 (${digits.slice(0, 3)}) ${digits.slice(3)}`,
      digits,
      '',
    );
    const email = fc.constantFrom(who.email, who.email.toUpperCase(), ` ${who.email} `, '@', 'a@b');
    const body = fc.oneof(
      fc.record({ phone: fc.oneof(phone, fc.string()) }),
      fc.record({ email: fc.oneof(email, fc.string()) }),
      fc.record({ orderId: fc.oneof(fc.constant(theirs.body.order.id), fc.integer()) }),
      fc.record({ phone, email }, { requiredKeys: [] }),
      hostileValue,
    );
    await fc.assert(
      fc.asyncProperty(body, async (sent) => {
        const response = await request(t.http)
          .post(`/admin/brands/${brand}/personal-data/erasures`)
          .set({ ...admin(), 'Content-Type': 'application/json' })
          .send(JSON.stringify(sent));
        expect([200, 400, 403]).toContain(response.status);
        if (response.status === 200) expect(response.body.erased).not.toContain(theirs.body.order.id);
      }),
      { numRuns: 80 },
    );
    const kept = await request(t.http)
      .get(`/orders/admin/${theirs.body.order.id}`)
      .set({ ...bearer(fx.admin), 'X-Brand-Id': String(other) })
      .expect(200);
    expect(kept.body).toMatchObject({
      personalDataErasedAt: null,
      recipient: { fullName: who.fullName, phone: who.phone },
    });
  });

  it('settles an erasure racing a carrier status on the same order either way, consistently', async () => {
    for (let round = 0; round < 4; round++) {
      const who = buyer();
      const shipped = await shippedOrder(who);
      const [erased, delivered] = await Promise.all([
        erase({ orderId: shipped.id }),
        carrierEvent({ carrierOrderUuid: shipped.carrierOrderUuid, status: 'delivered' }),
      ]);
      expect(erased.status).toBe(200);
      expect(delivered.status).toBe(200);
      const after = await order(shipped.id);
      expect(after.status).toBe('completed');
      if (erased.body.erased.length === 1) {
        // Delivered first: the erasure saw a completed order.
        expect(after.recipient.fullName).toBe('');
        expect(after.personalDataErasedAt).toEqual(expect.any(String));
      } else {
        // Erasure first: the order was in progress and kept whole.
        expect(erased.body.kept).toEqual([{ orderId: shipped.id, status: 'shipped' }]);
        expect(after.recipient.fullName).toBe(who.fullName);
        expect(after.personalDataErasedAt).toBeNull();
      }
      // The order's events in the order they happened: the erasure, if any, after the completion.
      const events = await withClient(db.url, (c) =>
        c.query<{ type: string; sequence: number }>(
          `SELECT type, sequence FROM domain_events WHERE subject = 'order' AND subject_id = $1 ORDER BY sequence`,
          [shipped.id],
        ),
      );
      expect(events.rows.map((e) => e.sequence)).toEqual(events.rows.map((_, i) => i + 1));
      const types = events.rows.map((e) => e.type);
      expect(types.slice(-(erased.body.erased.length + 1))).toEqual(
        erased.body.erased.length ? ['order.completed', 'order.personal_data_erased'] : ['order.completed'],
      );
    }
  });

  it('exports every order of a buyer, not the anonymised ones, and journals it without the buyer', async () => {
    const who = buyer();
    const first = await platformOrder(who);
    const second = await storefrontOrder(who);
    const gone = await storefrontOrder(who);
    await cancel(gone.id);
    await erase({ orderId: gone.id }).expect(200);

    const exported = await request(t.http)
      .get(`/admin/brands/${brand}/personal-data/export`)
      .query({ phone: who.phone })
      .set(admin())
      .expect(200);
    expect(exported.body.orders.map((o: { id: number }) => o.id)).toEqual([first.id, second.id]);
    expect(exported.body.orders[0]).toEqual(await order(first.id));
    const byEmail = await request(t.http)
      .get(`/admin/brands/${brand}/personal-data/export`)
      .query({ email: who.email.toLowerCase() })
      .set(admin())
      .expect(200);
    expect(byEmail.body.orders).toHaveLength(2);

    const [entry] = await entriesOf('personal_data_exported');
    expect(entry).toMatchObject({
      details: { by: 'email', count: 2 },
      path: `/admin/brands/${brand}/personal-data/export`,
    });
    for (const piece of piecesOf(who)) expect(JSON.stringify(entry).toLowerCase()).not.toContain(piece);
    await request(t.http).get(`/admin/brands/${brand}/personal-data/export`).set(admin()).expect(400);
    await request(t.http)
      .get(`/admin/brands/${brand}/personal-data/export`)
      .query({ phone: who.phone, email: who.email })
      .set(admin())
      .expect(400);
  });

  it('clears a done follow-up job’s copy once it is OUTBOX_RETENTION_DAYS old', async () => {
    const who = buyer();
    carrier.quoteOnFailure = true;
    carrier.failNext(1);
    const shipped = await shippedOrder(who);
    await settled();
    expect(await outboxText(shipped.id)).toContain(who.phone);
    const age = (days: number) =>
      withClient(db.url, (c) =>
        c.query(`UPDATE outbox SET done_at = now() - make_interval(days => $2) WHERE payload->>'orderId' = $1`, [
          String(shipped.id),
          days,
        ]),
      );
    const worker = t.app.get(OutboxWorker);
    await age(6);
    await worker.forgetOldCopies();
    expect(await outboxText(shipped.id)).toContain(who.phone);
    await age(8);
    expect(await worker.forgetOldCopies()).toBeGreaterThanOrEqual(1);
    const left = await outboxText(shipped.id);
    for (const piece of piecesOf(who)) expect(left.toLowerCase()).not.toContain(piece);
    // The order itself is in progress and keeps its buyer.
    expect((await order(shipped.id)).recipient.fullName).toBe(who.fullName);
  });

  it('keeps the retention setting: a whole number of days up to 3650, or null', async () => {
    // What the sweep does with it: test/medium/personal-data-retention.medium-spec.ts.
    const path = `/admin/brands/${brand}/personal-data/retention`;
    expect((await request(t.http).get(path).set(admin()).expect(200)).body).toEqual({ days: null });
    for (const days of [-1, 3651, 1.5, '30', undefined])
      await request(t.http).put(path).set(admin()).send({ days }).expect(400);
    await request(t.http).put(path).set(admin()).send({ days: 30 }).expect(200, { days: 30 });
    expect((await request(t.http).get(path).set(admin()).expect(200)).body).toEqual({ days: 30 });
    await request(t.http).put(path).set(admin()).send({ days: 0 }).expect(200, { days: 0 });
    await request(t.http).put(path).set(admin()).send({ days: null }).expect(200, { days: null });
    expect((await request(t.http).get(path).set(admin()).expect(200)).body).toEqual({ days: null });
  });
});
