import request from 'supertest';
import { Fixtures, issueKey, siteWithKey } from './support/fixtures';
import { seedOrder } from './support/orders-seed';
import { closeSuite, openSuite } from './support/suite';
import { type TestDatabase, withClient } from './support/test-database';
import { bearer, type TestApp } from './support/test-app';

describe('security journal', () => {
  let db: TestDatabase;
  let t: TestApp;
  let fx: Fixtures;
  let brandA: number;
  let brandB: number;
  let brandC: number;

  beforeAll(async () => {
    ({ db, t, fx } = await openSuite());
    brandA = await fx.brand();
    brandB = await fx.brand();
    brandC = await fx.brand();
  });
  afterAll(() => closeSuite({ db, t }));

  it('a brand’s journal holds entries with that brand as actor’s brand or as target, newest first', async () => {
    const keyA = await issueKey(fx, brandA, { name: 'A reader', permissions: ['orders.read'] });
    await issueKey(fx, brandC, { name: 'C only', permissions: ['orders.read'] });
    const orderB = await seedOrder(db.url, brandB);
    await request(t.http).get(`/orders/admin/${orderB}`).set(keyA.headers).expect(403);
    await siteWithKey(fx, brandB, 'B site');

    const managerB = await fx.member(brandB, ['settings.manage']);
    const journalB = await request(t.http)
      .get(`/admin/brands/${brandB}/security-journal`)
      .set(bearer(managerB))
      .expect(200);
    const types = journalB.body.items.map((e: { type: string }) => e.type);
    // The manager's own membership, made last, is a change of the team (contract §19).
    expect(types).toEqual(['membership_changed', 'site_key_issued', 'brand_violation']);
    expect(journalB.body.items[2]).toMatchObject({
      id: expect.any(Number),
      at: expect.any(String),
      type: 'brand_violation',
      brandId: brandA,
      targetBrandId: brandB,
      actor: { kind: 'integration_key', id: keyA.id },
      method: 'GET',
      path: `/orders/admin/${orderB}`,
      ip: expect.any(String),
    });

    const journalA = await request(t.http)
      .get(`/admin/brands/${brandA}/security-journal`)
      .set(bearer(fx.admin))
      .expect(200);
    expect(journalA.body.items.map((e: { type: string }) => e.type)).toEqual([
      'brand_violation',
      'integration_key_issued',
    ]);
    expect(journalA.body.items[1].details.name).toBe('A reader');
    expect(JSON.stringify(journalA.body)).not.toContain('C only');
  });

  it('pages with limit and before; limit is 1–200', async () => {
    const all = await request(t.http).get('/admin/security-journal').set(bearer(fx.admin)).expect(200);
    expect(all.body.items.length).toBeGreaterThanOrEqual(4);
    const first = await request(t.http).get('/admin/security-journal?limit=1').set(bearer(fx.admin)).expect(200);
    expect(first.body.items).toHaveLength(1);
    const next = await request(t.http)
      .get(`/admin/security-journal?limit=1&before=${first.body.items[0].id}`)
      .set(bearer(fx.admin))
      .expect(200);
    expect(Date.parse(next.body.items[0].at)).toBeLessThanOrEqual(Date.parse(first.body.items[0].at));
    expect(next.body.items[0].id).not.toBe(first.body.items[0].id);
    for (const limit of ['0', '201', 'x']) {
      await request(t.http).get(`/admin/security-journal?limit=${limit}`).set(bearer(fx.admin)).expect(400);
    }
  });

  it('is readable by settings.manage in the brand and by superadministrators only', async () => {
    const reader = await fx.member(brandA, ['orders.read']);
    const denied = await request(t.http)
      .get(`/admin/brands/${brandA}/security-journal`)
      .set(bearer(reader))
      .expect(403);
    expect(denied.body.error).toBe('Forbidden: Missing permission settings.manage');
    const managerA = await fx.member(brandA, ['settings.manage']);
    const global = await request(t.http).get('/admin/security-journal').set(bearer(managerA)).expect(403);
    expect(global.body.error).toBe('Forbidden: Missing permission platform.admin');
    const key = await issueKey(fx, brandA, { fullAccess: true });
    await request(t.http).get(`/admin/brands/${brandA}/security-journal`).set(key.headers).expect(403);
  });

  it('the record of a denied attempt survives the denial', async () => {
    const key = await issueKey(fx, brandA, { permissions: ['orders.read'] });
    const orderC = await seedOrder(db.url, brandC);
    for (let i = 0; i < 3; i++) await request(t.http).get(`/orders/admin/${orderC}`).set(key.headers).expect(403);
    const journalC = await request(t.http)
      .get(`/admin/brands/${brandC}/security-journal`)
      .set(bearer(fx.admin))
      .expect(200);
    const attempts = journalC.body.items.filter(
      (e: { type: string; actor: { id: number } }) => e.type === 'brand_violation' && e.actor.id === key.id,
    );
    expect(attempts).toHaveLength(3);
  });

  it('newest first means by time, even when a transaction that began earlier commits later', async () => {
    // The earlier transaction takes the larger id: ordered by id, its entry would come first.
    await withClient(db.url, (early) =>
      withClient(db.url, async (late) => {
        await early.query('BEGIN');
        await early.query('SELECT now()');
        await new Promise((resolve) => setTimeout(resolve, 30));
        await late.query(
          `INSERT INTO security_journal (type, brand_id, details) VALUES ('integration_key_issued', $1, '{"name":"late"}')`,
          [brandC],
        );
        await early.query(
          `INSERT INTO security_journal (type, brand_id, details) VALUES ('integration_key_issued', $1, '{"name":"early"}')`,
          [brandC],
        );
        await early.query('COMMIT');
      }),
    );
    const items: Array<{ id: number; at: string; details: { name?: string } }> = (
      await request(t.http).get(`/admin/brands/${brandC}/security-journal?limit=200`).set(bearer(fx.admin)).expect(200)
    ).body.items;
    const times = items.map((e) => Date.parse(e.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const names = items.map((e) => e.details.name);
    expect(names.indexOf('late')).toBeLessThan(names.indexOf('early'));
    const early = items.find((e) => e.details.name === 'early')!;
    const late = items.find((e) => e.details.name === 'late')!;
    expect(early.id).toBeGreaterThan(late.id);

    // Paging follows the same order: after "late" comes "early", though its id is larger.
    const next = await request(t.http)
      .get(`/admin/brands/${brandC}/security-journal?limit=1&before=${late.id}`)
      .set(bearer(fx.admin))
      .expect(200);
    expect(next.body.items[0].id).toBe(early.id);
  });
});
