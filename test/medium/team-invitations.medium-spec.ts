import { randomBytes } from 'node:crypto';
import type { BrandPermission } from '../../src/common/context/permissions';
import type { BrandContext, RequestContext } from '../../src/common/context/request-context';
import { AppError } from '../../src/common/errors/app-error';
import { ErrorText } from '../../src/common/errors/error-texts';
import { IdentityModule } from '../../src/identity/identity.module';
import { InvitationMail } from '../../src/identity/invitation-mail';
import { InvitationsService } from '../../src/identity/invitations.service';
import { MembershipsService } from '../../src/identity/memberships.service';
import { UsersService } from '../../src/identity/users.service';
import { appErrorOf, mediumBrand, mediumLogin, mediumRequest, superadminContext } from '../support/medium-fixtures';
import { openMedium, type MediumSuite } from '../support/medium';

/** The answer of a call as a word: what it gave, or the refusal's status and text. */
const outcomeOf = (work: Promise<unknown>) =>
  work.then(
    () => 'done',
    (error: unknown) => {
      if (error instanceof AppError) return `${error.status} ${error.message}`;
      throw error;
    },
  );

/** The context of a request to a public route (an invitation's page), as the guard chain leaves it. */
const publicContext = (): RequestContext => ({
  requestId: `medium-${randomBytes(4).toString('hex')}`,
  ip: '127.0.0.1',
  method: 'POST',
  path: '/auth/invitations/[redacted]/accept',
  principal: null,
  brandId: null,
});

const CLIENT = { ip: '127.0.0.1', userAgent: 'medium-test' };
const PASSWORD = 'a-medium-team-password';
const INVALID = `404 ${ErrorText.invalidInvitation}`;

/**
 * Invitations and the team's rules with the identity module's services on a real database (the
 * HTTP side: test/team-invitations.e2e-spec.ts): a replaced invitation's link and a retried mail's
 * earlier link die, two accepts of one link give one account, expiry, and the last settings.manage
 * member under concurrent removals.
 */
describe('the store team in the identity module', () => {
  let suite: MediumSuite;
  let invitations: InvitationsService;
  let mail: InvitationMail;
  let memberships: MembershipsService;
  let brand: number;
  let admin: BrandContext;

  beforeAll(async () => {
    suite = await openMedium([IdentityModule]);
    invitations = suite.get(InvitationsService);
    mail = suite.get(InvitationMail);
    memberships = suite.get(MembershipsService);
    brand = await mediumBrand(suite);
    admin = await superadminContext(suite, brand);
  });
  afterAll(() => suite?.close());

  const uniqueEmail = (name: string) => `${name}-${randomBytes(3).toString('hex')}@example.com`;
  const invite = (email: string, permissions: BrandPermission[] = ['orders.read']) =>
    invitations.invite(admin, { email, permissions });
  /** The token the invitation's mail would carry, minted as the mail job mints it. */
  async function tokenOf(invitationId: number): Promise<string> {
    const prepared = await mail.prepare(invitationId);
    if (!prepared) throw new Error(`invitation ${invitationId} gets no mail`);
    return /\/dashboard\/#\/invitation\/(csh_inv_[\w-]{43})$/.exec(prepared.link)![1];
  }
  const signUp = (token: string, password = PASSWORD) =>
    invitations.accept(publicContext(), token, password, mediumRequest('127.0.0.1', { method: 'POST' }), CLIENT);
  const statusOf = async (invitationId: number) =>
    (await suite.dataSource.query('SELECT status FROM invitations WHERE id = $1', [invitationId]))[0].status as string;

  it('a new invitation of the same e-mail replaces the pending one: the old link dies, the old mail is not sent', async () => {
    const email = uniqueEmail('replaced');
    const first = await invite(email);
    const oldToken = await tokenOf(first.id);
    expect((await invitations.info(oldToken)).email).toBe(email);

    const second = await invite(email, ['orders.write']);
    expect(await statusOf(first.id)).toBe('replaced');
    expect(await outcomeOf(invitations.info(oldToken))).toBe(INVALID);
    expect(await outcomeOf(signUp(oldToken))).toBe(INVALID);
    // The replaced one's mail job, should it run late, sends nothing.
    expect(await mail.prepare(first.id)).toBeNull();

    const newToken = await tokenOf(second.id);
    expect(await invitations.info(newToken)).toMatchObject({ email, permissions: ['orders.write'] });
    expect((await invitations.listPending(admin)).filter((i) => i.email === email).map((i) => i.id)).toEqual([
      second.id,
    ]);
  });

  it('two administrators inviting one e-mail at once leave one pending invitation', async () => {
    const email = uniqueEmail('together');
    const outcomes = await Promise.all([invite(email), invite(email), invite(email)].map(outcomeOf));
    expect(outcomes).toEqual(['done', 'done', 'done']);
    const rows: Array<{ status: string }> = await suite.dataSource.query(
      'SELECT status FROM invitations WHERE email = $1 ORDER BY id',
      [email],
    );
    expect(rows.map((r) => r.status).sort()).toEqual(['pending', 'replaced', 'replaced']);
  });

  it("a retried mail mints a new token, and the earlier attempt's link dies", async () => {
    const invitation = await invite(uniqueEmail('retried'));
    const firstAttempt = await tokenOf(invitation.id);
    const secondAttempt = await tokenOf(invitation.id);
    expect(secondAttempt).not.toBe(firstAttempt);
    expect(await outcomeOf(invitations.info(firstAttempt))).toBe(INVALID);
    await invitations.info(secondAttempt);
  });

  it('two accepts of one link at once: one account, one membership, the other accept finds the link dead', async () => {
    const email = uniqueEmail('racing');
    const invitation = await invite(email, ['products.read', 'orders.read']);
    const token = await tokenOf(invitation.id);
    const outcomes = await Promise.all([signUp(token), signUp(token), signUp(token)].map(outcomeOf));
    expect(outcomes.sort()).toEqual([INVALID, INVALID, 'done']);
    const users: Array<{ id: number }> = await suite.dataSource.query('SELECT id FROM users WHERE email = $1', [email]);
    expect(users).toHaveLength(1);
    expect(
      await suite.dataSource.query('SELECT permissions FROM memberships WHERE user_id = $1', [users[0].id]),
    ).toEqual([{ permissions: ['orders.read', 'products.read'] }]);
    expect(await statusOf(invitation.id)).toBe('accepted');
    // The account signs in with the password it set.
    await mediumLogin(suite, email, PASSWORD);
  });

  it('two accepts by the existing account at once: its membership is set once', async () => {
    const email = uniqueEmail('existing');
    const account = await suite.get(UsersService).create({ email, password: PASSWORD });
    const session = (await mediumLogin(suite, email, PASSWORD)).session;
    const invitation = await invite(email, ['returns.read']);
    const token = await tokenOf(invitation.id);
    const asAccount = () =>
      invitations.accept(
        publicContext(),
        token,
        undefined,
        mediumRequest('127.0.0.1', { method: 'POST', headers: { authorization: `Bearer ${session.token}` } }),
        CLIENT,
      );
    const outcomes = await Promise.all([asAccount(), asAccount()].map(outcomeOf));
    expect(outcomes.sort()).toEqual([INVALID, 'done']);
    const changes: unknown[] = await suite.dataSource.query(
      `SELECT details FROM security_journal WHERE type = 'membership_changed' AND (details->>'userId')::int = $1`,
      [account.id],
    );
    expect(changes).toEqual([{ details: { userId: account.id, before: [], after: ['returns.read'] } }]);
    // Without a session the existing account cannot accept (a new invitation: the first is used).
    const next = await invite(uniqueEmail('nobody'));
    await suite
      .get(UsersService)
      .create({ email: (await invitations.info(await tokenOf(next.id))).email, password: PASSWORD });
    const anonymous = await appErrorOf(signUp(await tokenOf(next.id)));
    expect({ status: anonymous.status, error: anonymous.message }).toEqual({
      status: 401,
      error: ErrorText.unauthorized,
    });
  });

  it('an expired invitation is no longer listed, shown, accepted or mailed', async () => {
    const invitation = await invite(uniqueEmail('expired'));
    const token = await tokenOf(invitation.id);
    await suite.dataSource.query(`UPDATE invitations SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      invitation.id,
    ]);
    expect(await outcomeOf(invitations.info(token))).toBe(INVALID);
    expect(await outcomeOf(signUp(token))).toBe(INVALID);
    expect((await invitations.listPending(admin)).map((i) => i.id)).not.toContain(invitation.id);
    expect(await mail.prepare(invitation.id)).toBeNull();
    // Revoking it still ends it for good.
    expect((await invitations.revoke(admin, invitation.id)).status).toBe('revoked');
  });

  it('the last settings.manage member under two concurrent removals: one passes, one gets 409', async () => {
    const users = suite.get(UsersService);
    for (let round = 0; round < 5; round++) {
      const team = await mediumBrand(suite);
      const ctx = { ...admin, brandId: team };
      const [a, b] = await Promise.all(
        ['a', 'b'].map((name) => users.create({ email: uniqueEmail(`manager-${name}`), password: PASSWORD })),
      );
      await memberships.put(ctx, team, a.id, ['settings.manage']);
      await memberships.put(ctx, team, b.id, ['settings.manage', 'orders.read']);
      // One removal, one demotion, at once, in both orders of start.
      const calls = [
        () => memberships.put(ctx, team, a.id, []),
        () => memberships.put(ctx, team, b.id, ['orders.read']),
      ];
      if (round % 2) calls.reverse();
      const outcomes = await Promise.all(calls.map((call) => outcomeOf(call())));
      expect(outcomes.sort()).toEqual([`409 ${ErrorText.lastSettingsManager}`, 'done']);
      const managers: unknown[] = await suite.dataSource.query(
        `SELECT user_id FROM memberships WHERE brand_id = $1 AND 'settings.manage' = ANY (permissions)`,
        [team],
      );
      expect(managers).toHaveLength(1);
    }
  });

  it('switching off one of the last two managers while the other is removed or switched off: one passes, one gets 409', async () => {
    const users = suite.get(UsersService);
    for (let round = 0; round < 6; round++) {
      const team = await mediumBrand(suite);
      const ctx = { ...admin, brandId: team };
      const [a, b] = await Promise.all(
        ['a', 'b'].map((name) => users.create({ email: uniqueEmail(`manager-${name}`), password: PASSWORD })),
      );
      await memberships.put(ctx, team, a.id, ['settings.manage']);
      await memberships.put(ctx, team, b.id, ['settings.manage', 'orders.read']);
      // A's switching off against B's demotion, then against B's switching off, in both orders of start.
      const calls = [
        () => users.update(a.id, { active: false }),
        round < 4
          ? () => memberships.put(ctx, team, b.id, ['orders.read'])
          : () => users.update(b.id, { active: false }),
      ];
      if (round % 2) calls.reverse();
      const outcomes = await Promise.all(calls.map((call) => outcomeOf(call())));
      expect(outcomes.sort()).toEqual([`409 ${ErrorText.lastSettingsManager}`, 'done']);
      const managers: unknown[] = await suite.dataSource.query(
        `SELECT m.user_id FROM memberships m JOIN users u ON u.id = m.user_id
          WHERE m.brand_id = $1 AND 'settings.manage' = ANY (m.permissions) AND u.active`,
        [team],
      );
      expect(managers).toHaveLength(1);
    }
  });

  it("a superadministrator's own membership does not count as the brand's manager", async () => {
    const team = await mediumBrand(suite);
    const ctx = { ...admin, brandId: team };
    const member = await suite.get(UsersService).create({ email: uniqueEmail('only'), password: PASSWORD });
    await memberships.put(ctx, team, member.id, ['settings.manage']);
    await memberships.put(ctx, team, admin.principal!.id, ['settings.manage']);
    expect(await outcomeOf(memberships.put(ctx, team, member.id, []))).toBe(`409 ${ErrorText.lastSettingsManager}`);
    expect(await outcomeOf(memberships.put(ctx, team, admin.principal!.id, []))).toBe('done');
  });
});
