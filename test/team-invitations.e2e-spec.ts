import { PinoLogger } from 'nestjs-pino';
import { symbols } from 'pino';
import request from 'supertest';
import { ErrorText } from '../src/common/errors/error-texts';
import type { BrandPermission } from '../src/common/context/permissions';
import { eventually } from './support/eventually';
import { journal } from './support/fixtures';
import { SmtpSink, type ReceivedMail } from './support/smtp-sink';
import { closeSuite, openSuite, type Suite } from './support/suite';
import { withClient } from './support/test-database';
import { bearer, login, type Session } from './support/test-app';

const PUBLIC_URL = 'https://shop.example/team-test';
const LINK = /https:\/\/shop\.example\/team-test\/dashboard\/#\/invitation\/(csh_inv_[A-Za-z0-9_-]{43})/;

/** The mail's text as written: quoted-printable soft breaks joined and escapes decoded. */
function mailText(mail: ReceivedMail): string {
  return mail.raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Keeps the lines of the apps' log (PinoLogger.root) in `lines` instead of writing them out. */
function captureLog(lines: string[]): void {
  const stream = (PinoLogger.root as unknown as Record<symbol, { write(line: string): void }>)[symbols.streamSym];
  jest.spyOn(stream, 'write').mockImplementation((line: string) => void lines.push(line));
}

/**
 * Contract §19's team: invitations mailed through a real SMTP server, their links used once, the
 * two ways to accept, revocation and replacement, the members list, membership_changed and the
 * last-manager rule, recent authentication on inviting; no token in a log line or a journal entry.
 */
describe('the store team: invitations and members', () => {
  let s: Suite;
  const sink = new SmtpSink();
  const logged: string[] = [];
  /** Every token a mail carried, to look for in the log and the journal at the end. */
  const tokens: string[] = [];
  let brand: number;
  let manager: Session;

  beforeAll(async () => {
    const smtpUrl = await sink.start();
    s = await openSuite({
      env: {
        SMTP_URL: smtpUrl,
        PUBLIC_URL: `${PUBLIC_URL}/`,
        OUTBOX_POLL_MS: '100',
        LOG_LEVEL: 'debug',
        WEBHOOK_WORKER: 'false',
      },
    });
    captureLog(logged);
    brand = await s.fx.brand('Northwind Team');
    manager = await s.fx.member(brand, ['settings.manage']);
  });
  afterAll(async () => {
    await closeSuite(s);
    await sink.stop();
    jest.restoreAllMocks();
  });

  const invite = (as: Session, email: string, permissions: BrandPermission[], brandId = brand) =>
    request(s.t.http).post(`/admin/brands/${brandId}/invitations`).set(bearer(as)).send({ email, permissions });

  /** The link of the newest mail to `email` once it has arrived (after `before` mails to it), and its token. */
  async function linkFor(email: string, before = 0): Promise<{ token: string; mail: ReceivedMail; link: string }> {
    const mail = await eventually(() => {
      const mails = sink.to(email);
      expect(mails.length).toBeGreaterThan(before);
      return mails[mails.length - 1];
    });
    const match = LINK.exec(mailText(mail));
    if (!match) throw new Error(`no invitation link in the mail:\n${mailText(mail)}`);
    tokens.push(match[1]);
    return { token: match[1], mail, link: match[0] };
  }

  const info = (token: string) => request(s.t.http).get(`/auth/invitations/${token}`);
  const accept = (token: string) => request(s.t.http).post(`/auth/invitations/${token}/accept`);
  const expectInvalid = (response: request.Response) =>
    expect({ status: response.status, error: response.body.error }).toEqual({
      status: 404,
      error: ErrorText.invalidInvitation,
    });

  it('invites by mail; a new account accepts with a password, is signed in, and the link works once', async () => {
    const invited = await invite(manager, 'New.Clerk@Example.COM', ['orders.read', 'products.read']).expect(201);
    expect(invited.body).toEqual({
      id: expect.any(Number),
      email: 'new.clerk@example.com',
      permissions: ['orders.read', 'products.read'],
      status: 'pending',
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
      invitedBy: { id: manager.userId, email: expect.stringMatching(/@example\.com$/) },
    });
    const week = Date.parse(invited.body.expiresAt) - Date.parse(invited.body.createdAt);
    expect(week).toBe(7 * 24 * 3600 * 1000);

    const { token, mail, link } = await linkFor('new.clerk@example.com');
    expect(link.startsWith(`${PUBLIC_URL}/dashboard/#/invitation/csh_inv_`)).toBe(true);
    const text = mailText(mail);
    expect(mail.subject).toContain('Northwind Team');
    expect(text).toContain(invited.body.invitedBy.email);
    expect(text).toContain('orders.read, products.read');
    expect(text).toContain(invited.body.expiresAt);
    // The mail holds this link and no other (contract §19).
    expect(new Set(text.match(/https?:\/\/[^\s"<>]+/g))).toEqual(new Set([link]));

    const shown = await info(token).expect(200);
    expect(shown.body).toEqual({
      brandName: 'Northwind Team',
      email: 'new.clerk@example.com',
      permissions: ['orders.read', 'products.read'],
      accountExists: false,
    });

    // The body is {password} and nothing else; the password follows the rule of §19.
    const extra = await accept(token).send({ password: 'a-long-enough-password-1', name: 'x' }).expect(400);
    expect(extra.body.details).toContain('property name should not exist');
    expect((await accept(token).send({}).expect(400)).body.error).toBe(ErrorText.invitationPasswordRequired);
    expect((await accept(token).send({ password: 'short' }).expect(400)).body.error).toBe(ErrorText.passwordLength);
    expect((await accept(token).send({ password: 'xxnew.clerkxx-2024' }).expect(400)).body.error).toBe(
      ErrorText.passwordTooWeak,
    );

    const accepted = await accept(token).send({ password: 'a-long-enough-password-1' }).expect(200);
    expect(accepted.body).toEqual({
      token: expect.any(String),
      csrfToken: expect.any(String),
      user: { id: expect.any(Number), email: 'new.clerk@example.com', isSuperadmin: false },
    });
    const cookie = ([] as string[]).concat(accepted.headers['set-cookie'] ?? [])[0] ?? '';
    expect(cookie).toMatch(/^session=[^;]+;.*HttpOnly/i);
    const me = await request(s.t.http).get('/auth/me').set('Cookie', cookie.split(';')[0]).expect(200);
    expect(me.body.memberships).toEqual([
      {
        brandId: brand,
        brandName: 'Northwind Team',
        brandSlug: expect.any(String),
        permissions: ['orders.read', 'products.read'],
        secondFactorRequired: false,
      },
    ]);
    // The new password signs in too.
    await login(s.t.http, 'new.clerk@example.com', 'a-long-enough-password-1');

    expectInvalid(await accept(token).send({ password: 'a-long-enough-password-1' }));
    expectInvalid(await info(token));

    const entries = await journal(s.fx);
    const userId = accepted.body.user.id as number;
    expect(
      entries.find((e) => e.type === 'member_invited' && e.details.invitationId === invited.body.id),
    ).toMatchObject({
      brandId: brand,
      actor: { kind: 'user', id: manager.userId },
      details: {
        invitationId: invited.body.id,
        email: 'new.clerk@example.com',
        permissions: ['orders.read', 'products.read'],
      },
    });
    expect(
      entries.find((e) => e.type === 'invitation_accepted' && e.details.invitationId === invited.body.id),
    ).toMatchObject({
      brandId: brand,
      actor: { kind: 'user', id: userId },
    });
    expect(entries.find((e) => e.type === 'membership_changed' && e.details.userId === userId)).toMatchObject({
      brandId: brand,
      actor: { kind: 'user', id: userId },
      details: { userId, before: [], after: ['orders.read', 'products.read'] },
    });
    expect(entries.find((e) => e.type === 'user_signed_in' && e.actor?.id === userId)).toBeDefined();
  });

  it('an existing account accepts only while signed in as itself (401, 403, then 200)', async () => {
    const account = await s.fx.user();
    const other = await s.fx.user();
    await invite(manager, account.email, ['returns.read']).expect(201);
    const { token } = await linkFor(account.email);
    expect((await info(token).expect(200)).body.accountExists).toBe(true);

    const anonymous = await accept(token).send({});
    expect({ status: anonymous.status, error: anonymous.body.error }).toEqual({
      status: 401,
      error: ErrorText.unauthorized,
    });
    // A password does not stand in for the session.
    expect((await accept(token).send({ password: account.password })).status).toBe(401);
    const otherSession = await login(s.t.http, other.email, other.password);
    const wrong = await accept(token).set(bearer(otherSession)).send({});
    expect({ status: wrong.status, error: wrong.body.error }).toEqual({
      status: 403,
      error: ErrorText.invitationForAnotherAccount,
    });
    const own = await login(s.t.http, account.email, account.password);
    // A cookie session follows the CSRF rule.
    const noCsrf = await accept(token).set('Cookie', own.cookie).send({});
    expect({ status: noCsrf.status, error: noCsrf.body.error }).toEqual({
      status: 403,
      error: ErrorText.invalidCsrfToken,
    });
    const joined = await accept(token).set('Cookie', own.cookie).set('X-CSRF-Token', own.csrfToken).send({});
    expect({ status: joined.status, body: joined.body }).toEqual({
      status: 200,
      body: { brandId: brand, permissions: ['returns.read'] },
    });
    expect(joined.headers['set-cookie']).toBeUndefined();
    const me = await request(s.t.http).get('/auth/me').set(bearer(own)).expect(200);
    expect(me.body.memberships).toEqual([expect.objectContaining({ brandId: brand, permissions: ['returns.read'] })]);
    expectInvalid(await accept(token).set(bearer(own)).send({}));

    // Now a member: inviting the address again is refused.
    const again = await invite(manager, account.email.toUpperCase(), ['orders.read']);
    expect({ status: again.status, error: again.body.error }).toEqual({ status: 409, error: ErrorText.alreadyMember });
  });

  it('revoking kills the link at once; a second invitation replaces the first', async () => {
    const first = await invite(manager, 'twice@example.com', ['orders.read']).expect(201);
    const firstLink = await linkFor('twice@example.com');
    await info(firstLink.token).expect(200);
    const second = await invite(manager, 'twice@example.com', ['orders.write']).expect(201);
    const secondLink = await linkFor('twice@example.com', 1);
    expectInvalid(await info(firstLink.token));
    expect((await info(secondLink.token).expect(200)).body.permissions).toEqual(['orders.write']);

    const listed = await request(s.t.http).get(`/admin/brands/${brand}/invitations`).set(bearer(manager)).expect(200);
    const ids = listed.body.items.map((i: { id: number }) => i.id);
    expect(ids).toContain(second.body.id);
    expect(ids).not.toContain(first.body.id);
    expect(listed.body.items.every((i: { status: string }) => i.status === 'pending')).toBe(true);
    const created = listed.body.items.map((i: { createdAt: string }) => Date.parse(i.createdAt));
    expect([...created].sort((a, b) => b - a)).toEqual(created);

    const revoke = (id: number) =>
      request(s.t.http).post(`/admin/brands/${brand}/invitations/${id}/revoke`).set(bearer(manager));
    const replaced = await revoke(first.body.id);
    expect({ status: replaced.status, error: replaced.body.error }).toEqual({
      status: 409,
      error: ErrorText.invitationNotRevocable('replaced'),
    });
    const revoked = await revoke(second.body.id).expect(200);
    expect(revoked.body).toEqual({ ...second.body, status: 'revoked' });
    expectInvalid(await info(secondLink.token));
    expectInvalid(await accept(secondLink.token).send({ password: 'a-long-enough-password-1' }));
    // Revoking it again answers it again and records nothing more.
    expect((await revoke(second.body.id).expect(200)).body.status).toBe('revoked');
    const revocations = (await journal(s.fx)).filter(
      (e) => e.type === 'invitation_revoked' && e.details.invitationId === second.body.id,
    );
    expect(revocations).toHaveLength(1);
    expect(revocations[0]).toMatchObject({ brandId: brand, actor: { kind: 'user', id: manager.userId } });
    await revoke(999_999).expect(404);
  });

  it("another brand's invitation is refused with 403 and journaled as a brand violation", async () => {
    const other = await s.fx.brand();
    const foreign = await invite(s.fx.admin, 'foreign@example.com', ['orders.read'], other).expect(201);
    const refused = await request(s.t.http)
      .post(`/admin/brands/${brand}/invitations/${foreign.body.id}/revoke`)
      .set(bearer(manager));
    expect({ status: refused.status, error: refused.body.error }).toEqual({
      status: 403,
      error: ErrorText.brandNotAllowed,
    });
    const violation = (await journal(s.fx)).find(
      (e) => e.type === 'brand_violation' && e.details.resource === 'invitation',
    );
    expect(violation).toMatchObject({
      brandId: brand,
      targetBrandId: other,
      details: { resource: 'invitation', id: foreign.body.id },
    });
    // And a manager of this brand cannot list or invite in the other one.
    const listed = await request(s.t.http).get(`/admin/brands/${other}/invitations`).set(bearer(manager));
    expect(listed.status).toBe(403);
  });

  it('refuses unknown, empty or malformed input with 400, and malformed tokens with 404', async () => {
    expect((await invite(manager, 'x@example.com', ['nope' as BrandPermission])).status).toBe(400);
    expect((await invite(manager, 'x@example.com', [])).status).toBe(400);
    expect((await invite(manager, 'not-an-address', ['orders.read'])).status).toBe(400);
    for (const token of ['csh_inv_short', 'csh_pwr_' + 'a'.repeat(43), `csh_inv_${'a'.repeat(43)}`, '1']) {
      expectInvalid(await info(token));
      expectInvalid(await accept(token).send({ password: 'a-long-enough-password-1' }));
    }
  });

  it('lists the members by e-mail, journals membership changes with before and after, keeps the last manager', async () => {
    const team = await s.fx.brand();
    const boss = await s.fx.user({ email: 'a-boss@example.com' });
    const clerk = await s.fx.user({ email: 'b-clerk@example.com' });
    await s.fx.grant(team, boss.id, ['settings.manage']);
    await s.fx.grant(team, clerk.id, ['orders.read']);
    const bossSession = await login(s.t.http, boss.email, boss.password);

    const members = await request(s.t.http).get(`/admin/brands/${team}/members`).set(bearer(bossSession)).expect(200);
    expect(members.body).toEqual({
      items: [
        {
          userId: boss.id,
          email: boss.email,
          permissions: ['settings.manage'],
          secondFactor: false,
          lastSignInAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
        { userId: clerk.id, email: clerk.email, permissions: ['orders.read'], secondFactor: false, lastSignInAt: null },
      ],
    });

    const put = (as: Session, userId: number, permissions: BrandPermission[]) =>
      request(s.t.http).put(`/admin/brands/${team}/members/${userId}`).set(bearer(as)).send({ permissions });
    await put(bossSession, clerk.id, ['orders.write', 'orders.read']).expect(200);
    await put(bossSession, clerk.id, ['orders.read', 'orders.write']).expect(200);
    const last = await put(bossSession, boss.id, ['orders.read']);
    expect({ status: last.status, error: last.body.error }).toEqual({
      status: 409,
      error: ErrorText.lastSettingsManager,
    });
    // A superadministrator is held to it too, removal included.
    expect((await put(s.fx.admin, boss.id, [])).status).toBe(409);
    await put(bossSession, clerk.id, ['settings.manage']).expect(200);
    await put(bossSession, boss.id, []).expect(200);

    const changes = (await journal(s.fx))
      .filter((e) => e.type === 'membership_changed' && e.brandId === team)
      .reverse()
      .map((e) => ({ actor: e.actor?.id, details: e.details }));
    expect(changes).toEqual([
      { actor: s.fx.admin.userId, details: { userId: boss.id, before: [], after: ['settings.manage'] } },
      { actor: s.fx.admin.userId, details: { userId: clerk.id, before: [], after: ['orders.read'] } },
      {
        actor: boss.id,
        details: { userId: clerk.id, before: ['orders.read'], after: ['orders.read', 'orders.write'] },
      },
      {
        actor: boss.id,
        details: { userId: clerk.id, before: ['orders.read', 'orders.write'], after: ['settings.manage'] },
      },
      { actor: boss.id, details: { userId: boss.id, before: ['settings.manage'], after: [] } },
    ]);
  });

  it("switching off a brand's last active settings.manage member is refused as removing it is", async () => {
    const team = await s.fx.brand();
    const boss = await s.fx.user();
    const deputy = await s.fx.user();
    await s.fx.grant(team, boss.id, ['settings.manage']);
    await s.fx.grant(team, deputy.id, ['settings.manage', 'orders.read']);
    const patch = (userId: number, body: { active?: boolean; isSuperadmin?: boolean }) =>
      request(s.t.http).patch(`/admin/users/${userId}`).set(bearer(s.fx.admin)).send(body);
    const put = (userId: number, permissions: BrandPermission[]) =>
      request(s.t.http).put(`/admin/brands/${team}/members/${userId}`).set(bearer(s.fx.admin)).send({ permissions });
    const refusal = (response: request.Response) => ({ status: response.status, error: response.body.error });
    const lastManager = { status: 409, error: ErrorText.lastSettingsManager };

    // One of two managers may be switched off; then the other is the last active one.
    await patch(deputy.id, { active: false }).expect(200);
    expect(refusal(await patch(boss.id, { active: false }))).toEqual(lastManager);
    expect(refusal(await patch(boss.id, { active: false, isSuperadmin: false }))).toEqual(lastManager);
    // A switched-off manager does not count for the members rule either.
    expect(refusal(await put(boss.id, ['orders.read']))).toEqual(lastManager);
    expect(refusal(await put(boss.id, []))).toEqual(lastManager);
    // Refused, the account still works; a change that switches nothing off passes.
    await login(s.t.http, boss.email, boss.password);
    await patch(boss.id, { active: true }).expect(200);
    // Switching off an account already off changes no manager count.
    await patch(deputy.id, { active: false }).expect(200);

    // Back on, the deputy counts again, and the boss may go.
    await patch(deputy.id, { active: true }).expect(200);
    const off = await patch(boss.id, { active: false }).expect(200);
    expect(off.body).toMatchObject({ id: boss.id, active: false });
    expect(refusal(await patch(deputy.id, { active: false }))).toEqual(lastManager);
    // A superadministrator's own membership does not count: the deputy stays the last manager.
    await put(s.fx.admin.userId, ['settings.manage']).expect(200);
    expect(refusal(await patch(deputy.id, { active: false }))).toEqual(lastManager);
  });

  it('inviting needs a recent sign-in, and a missing permission is answered first', async () => {
    const stale = await s.fx.member(brand, ['settings.manage']);
    const reader = await s.fx.member(brand, ['orders.read']);
    await withClient(s.db.url, (client) =>
      client.query(`UPDATE sessions SET authenticated_at = now() - interval '1 hour' WHERE user_id = ANY($1)`, [
        [stale.userId, reader.userId],
      ]),
    );
    const refused = await invite(stale, 'late@example.com', ['orders.read']);
    expect({ status: refused.status, error: refused.body.error }).toEqual({
      status: 403,
      error: ErrorText.recentAuthRequired,
    });
    const missing = await invite(reader, 'late@example.com', ['orders.read']);
    expect({ status: missing.status, error: missing.body.error }).toEqual({
      status: 403,
      error: ErrorText.missingPermission('settings.manage'),
    });
    // Reading the team is no sensitive action.
    await request(s.t.http).get(`/admin/brands/${brand}/invitations`).set(bearer(stale)).expect(200);
    // A fresh sign-in may invite again.
    const fresh = await login(s.t.http, (await meOf(stale)).email, 'user-password-1');
    await invite(fresh, 'late@example.com', ['orders.read']).expect(201);
  });

  const meOf = async (session: Session) =>
    (await request(s.t.http).get('/auth/me').set(bearer(session)).expect(200)).body as { email: string };

  it('no token appears in a log line or in any journal entry', async () => {
    expect(tokens.length).toBeGreaterThanOrEqual(4);
    expect(logged.length).toBeGreaterThan(0);
    // The request log does write the accept routes' paths, scrubbed.
    expect(logged.some((line) => line.includes('/auth/invitations/[redacted]'))).toBe(true);
    const entries = JSON.stringify(await journal(s.fx));
    expect(entries).toContain('/auth/invitations/[redacted]/accept');
    for (const token of tokens) {
      const secret = token.slice('csh_inv_'.length);
      expect(logged.filter((line) => line.includes(secret))).toEqual([]);
      expect(entries).not.toContain(secret);
    }
    const outbox = await withClient(s.db.url, (client) =>
      client.query(`SELECT payload::text AS payload FROM outbox WHERE kind = 'mail.invitation'`),
    );
    expect(outbox.rows.length).toBeGreaterThan(0);
    for (const row of outbox.rows as Array<{ payload: string }>)
      expect(row.payload).toMatch(/^\{"invitationId": \d+\}$/);
  });
});
