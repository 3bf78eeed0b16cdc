import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createTestDatabase, withClient, type TestDatabase } from './support/test-database';
import { ADMIN, bearer, login, startTestApp } from './support/test-app';

describe('restarts keep users, brands and sessions', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('a second start keeps the data, the session works on, and there is still one superadministrator', async () => {
    const first = await startTestApp({ databaseUrl: db.url });
    const session = await login(first.http, ADMIN.email, ADMIN.password);
    const brand = await request(first.http)
      .post('/admin/brands')
      .set(bearer(session))
      .send({ name: 'Kept', slug: 'kept' })
      .expect(201);
    await first.close();

    const second = await startTestApp({ databaseUrl: db.url });
    try {
      await request(second.http).get('/auth/me').set(bearer(session)).expect(200);
      const brands = await request(second.http).get('/admin/brands').set(bearer(session)).expect(200);
      expect(brands.body.items).toContainEqual(expect.objectContaining({ id: brand.body.id, slug: 'kept' }));
      const users = await request(second.http).get('/admin/users').set(bearer(session)).expect(200);
      expect(users.body.items.filter((u: { email: string }) => u.email === ADMIN.email)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('instances starting together create the superadministrator once and agree on the schema', async () => {
    const other = await createTestDatabase();
    try {
      const apps = await Promise.all([1, 2, 3].map(() => startTestApp({ databaseUrl: other.url })));
      await Promise.all(apps.map((a) => a.close()));
      const rows = await withClient(other.url, (c) =>
        c.query('SELECT count(*)::int AS n FROM users WHERE is_superadmin'),
      );
      expect(rows.rows[0].n).toBe(1);
    } finally {
      await other.drop();
    }
  });

  it('without SESSION_SECRET the generated secret is kept in the data folder, so sessions survive a restart', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cil-secret-'));
    const env = { SESSION_SECRET: '', DATA_DIR: dataDir };
    const first = await startTestApp({ databaseUrl: db.url, env });
    const session = await login(first.http, ADMIN.email, ADMIN.password);
    await first.close();
    const second = await startTestApp({ databaseUrl: db.url, env });
    try {
      await request(second.http).get('/auth/me').set(bearer(session)).expect(200);
    } finally {
      await second.close();
    }
    const otherDir = mkdtempSync(path.join(tmpdir(), 'cil-secret-'));
    const third = await startTestApp({ databaseUrl: db.url, env: { SESSION_SECRET: '', DATA_DIR: otherDir } });
    try {
      const response = await request(third.http).get('/auth/me').set(bearer(session)).expect(401);
      expect(response.body.error).toBe('Invalid token');
    } finally {
      await third.close();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(otherDir, { recursive: true, force: true });
    }
  });
});
