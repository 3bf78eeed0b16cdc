import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AppError } from '../../src/common/errors/app-error';
import { ErrorText } from '../../src/common/errors/error-texts';
import { migrations } from '../../src/database/migrations';
import { BrandsService } from '../../src/identity/brands.service';
import { IdentityModule } from '../../src/identity/identity.module';
import type { UserPrincipal } from '../../src/identity/user-principal';
import { SessionCredentialResolver } from '../../src/identity/session-credential.resolver';
import { UsersService } from '../../src/identity/users.service';
import { openMedium, type MediumSuite } from '../support/medium';
import { mediumRequest, mediumLogin } from '../support/medium-fixtures';
import { ADMIN } from '../support/test-app';
import { createTestDatabase, withClient, type TestDatabase } from '../support/test-database';

const BOOTSTRAP = { BOOTSTRAP_ADMIN_EMAIL: ADMIN.email, BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password };

/** An instance of the identity module on `db`, as the service starts it with a first superadministrator. */
const start = (db: TestDatabase, env: Record<string, string> = {}) =>
  openMedium([IdentityModule], { db, env: { ...BOOTSTRAP, ...env } });

/** What the guard chain makes of a session token on `GET /auth/me`: the user, or the AppError it answers. */
function sessionOf(instance: MediumSuite, token: string): Promise<UserPrincipal> {
  return instance
    .get(SessionCredentialResolver)
    .resolve({ token, source: 'header' }, mediumRequest('127.0.0.1', { path: '/auth/me' }));
}

const superadmins = async (db: TestDatabase) =>
  (await withClient(db.url, (c) => c.query(`SELECT email FROM users WHERE is_superadmin`))).rows.map((r) => r.email);

describe('restarts keep users, brands and sessions', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('a second start keeps the data, the session works on, and there is still one superadministrator', async () => {
    const first = await start(db);
    const { session } = await mediumLogin(first, ADMIN.email, ADMIN.password);
    const brand = await first.get(BrandsService).create({ name: 'Kept', slug: 'kept' });
    await first.close();

    const second = await start(db);
    try {
      expect((await sessionOf(second, session.token)).email).toBe(ADMIN.email);
      expect(await second.get(BrandsService).list()).toContainEqual(
        expect.objectContaining({ id: brand.id, slug: 'kept' }),
      );
      const users = await second.get(UsersService).list();
      expect(users.filter((u) => u.email === ADMIN.email)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('without SESSION_SECRET the generated secret is kept in the data folder, so sessions survive a restart', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cil-secret-'));
    const otherDir = mkdtempSync(path.join(tmpdir(), 'cil-secret-'));
    try {
      const first = await start(db, { SESSION_SECRET: '', DATA_DIR: dataDir });
      const { session } = await mediumLogin(first, ADMIN.email, ADMIN.password);
      await first.close();
      const second = await start(db, { SESSION_SECRET: '', DATA_DIR: dataDir });
      try {
        expect((await sessionOf(second, session.token)).email).toBe(ADMIN.email);
      } finally {
        await second.close();
      }
      const third = await start(db, { SESSION_SECRET: '', DATA_DIR: otherDir });
      try {
        const refused = await sessionOf(third, session.token).catch((error: unknown) => error);
        expect(refused).toBeInstanceOf(AppError);
        expect(refused).toMatchObject({ status: 401, message: ErrorText.invalidToken });
      } finally {
        await third.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(otherDir, { recursive: true, force: true });
    }
  });
});

describe('instances starting together on a database without a schema', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase({ empty: true });
  });
  afterAll(async () => {
    await db?.drop();
  });

  const recorded = async () =>
    (await withClient(db.url, (c) => c.query('SELECT name FROM migrations ORDER BY id'))).rows.map((r) => r.name);

  it('apply each migration once and create the superadministrator once', async () => {
    const instances = await Promise.all([1, 2, 3].map(() => start(db)));
    await Promise.all(instances.map((instance) => instance.close()));
    expect(await recorded()).toEqual(migrations.map((migration) => migration.name));
    expect(await superadmins(db)).toEqual([ADMIN.email]);
  });

  it('a later start applies nothing again', async () => {
    const before = await recorded();
    await (await start(db)).close();
    expect(await recorded()).toEqual(before);
    expect(await superadmins(db)).toEqual([ADMIN.email]);
  });
});
