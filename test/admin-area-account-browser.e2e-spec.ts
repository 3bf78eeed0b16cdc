import type { Page } from 'playwright-core';
import request from 'supertest';
import { AdminAreaBrowser, hasFocus, submitPassword, virtualAuthenticator } from './support/admin-browser';
import { eventually } from './support/eventually';
import { freePort } from './support/service-process';
import { readableText, SmtpSink } from './support/smtp-sink';
import { closeSuite, openSuite, type Suite } from './support/suite';
import { withClient } from './support/test-database';
import { bearer } from './support/test-app';
import { base32Bytes, totpCode } from './support/totp-code';

const STRONG = 'a-long-new-pass-phrase';
const RECOVERY_CODE = /^[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$/;

/** The page's document as code run in it sees it (this suite compiles without the DOM's types). */
interface PageDocument {
  activeElement: { tagName: string } | null;
  body: unknown;
}

/**
 * Contract §19's admin area in a real browser: the Account page (password, sessions, activity, an
 * authenticator app, passkeys), a reset by mail from the sign-in page, the two-step sign-in, the
 * step-up dialog a sensitive action opens, and the store's second-factor policy, with axe on every
 * new screen and dialog. The app is opened at `localhost`, as PUBLIC_URL names it, so the mailed
 * links are followed as a person would, and WebAuthn (which refuses an IP address) takes it as
 * the relying party.
 */
describe('the admin area in a browser: accounts', () => {
  let suite: Suite;
  let area: AdminAreaBrowser;
  let base: string;
  const smtp = new SmtpSink();
  const check = (page: Page, name: string) => area.check(page, name);
  const signedIn = async (email: string, password: string) => area.signIn(await area.newContext(), email, password);
  /** Every session of the account proved it an hour ago: sensitive actions then need a step-up. */
  const age = (userId: number) =>
    withClient(suite.db.url, (client) =>
      client.query("UPDATE sessions SET authenticated_at = now() - interval '1 hour' WHERE user_id = $1", [userId]),
    );
  /** What a mail's link to the admin area holds after `#/<kind>/`. */
  const linkIn = async (email: string, kind: 'reset' | 'invitation', count = 1) => {
    const mail = (await smtp.waitFor(email, count))[count - 1];
    const link = new RegExp(`${base}/dashboard/#/${kind}/[A-Za-z0-9_-]+`).exec(readableText(mail));
    if (!link) throw new Error(`no ${kind} link in:\n${readableText(mail)}`);
    return link[0];
  };
  /** Rows of a table, the header's included. */
  const rowsOf = (page: Page, region: string) => page.getByRole('region', { name: region }).getByRole('row');
  const signOut = async (page: Page) => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
  };
  /**
   * The authenticator app set up on the Account page (open on `page`) as a person would: the key
   * read off the page, its code computed here (RFC 6238, the test's own), the recovery codes read
   * from their dialog. `shots` checks the enrolment and the dialog.
   */
  const setUpApp = async (page: Page, shots = false) => {
    const app = page.getByRole('region', { name: 'Authenticator app' });
    await app.getByRole('button', { name: 'Set up authenticator app' }).click();
    const enrolment = page.getByRole('form', { name: 'Scan the QR code with your app' });
    const qr = enrolment.getByRole('img', { name: 'QR code to scan with the authenticator app' });
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml,%3Csvg/);
    const secret = (await enrolment.locator('code').textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const key = base32Bytes(secret);
    if (shots) {
      // A code of ten minutes on is no code now: refused with the API's text, the form stays.
      await enrolment.getByLabel('Code').fill(totpCode(key, Date.now() + 600_000));
      await enrolment.getByRole('button', { name: 'Verify' }).click();
      await enrolment.getByRole('alert').filter({ hasText: 'Invalid code' }).waitFor();
      await check(page, 'authenticator-enrolment');
    }
    const confirmedAt = Date.now();
    await enrolment.getByLabel('Code').fill(totpCode(key, confirmedAt));
    await enrolment.getByRole('button', { name: 'Verify' }).click();
    const shown = page.getByRole('dialog', { name: 'Recovery codes' });
    await shown.getByRole('listitem').first().waitFor();
    const recoveryCodes = (await shown.getByRole('listitem').allTextContents()).map((code) => code.trim());
    if (shots) await check(page, 'recovery-codes-dialog');
    await shown.getByRole('button', { name: 'Done' }).click();
    await app.getByRole('button', { name: 'Remove authenticator app' }).waitFor();
    return { key, confirmedAt, recoveryCodes };
  };
  const policyOf = async (brandId: number) =>
    (
      await request(suite.t.http)
        .get(`/admin/brands/${brandId}/security-policy`)
        .set(bearer(suite.fx.admin))
        .expect(200)
    ).body as { requireSecondFactor: boolean };

  beforeAll(async () => {
    const port = await freePort();
    base = `http://localhost:${port}`;
    suite = await openSuite({
      env: { SMTP_URL: await smtp.start(), OUTBOX_POLL_MS: '50', PUBLIC_URL: base, WEBHOOK_WORKER: 'false' },
    });
    await suite.t.app.listen(port, '127.0.0.1');
    area = await AdminAreaBrowser.launch(base);
  });
  afterEach(() => expect(area.native.splice(0)).toEqual([]));
  afterAll(async () => {
    await area?.close();
    if (suite) await closeSuite(suite);
    await smtp.stop();
  });

  it("changes the password (a wrong or weak one refused with the API's text), and the other session ends", async () => {
    const user = await suite.fx.user();
    const other = await signedIn(user.email, user.password);
    const page = await signedIn(user.email, user.password);
    await page.getByRole('link', { name: 'Account' }).click();
    await eventually(async () => expect(await rowsOf(page, 'Sessions').count()).toBe(3));
    await page.getByRole('region', { name: 'Sessions' }).getByText('This session').waitFor();
    await check(page, 'account');

    const change = page.getByRole('form', { name: 'Password' });
    const submit = async (current: string, next: string) => {
      await change.getByLabel('Current password').fill(current);
      await change.getByLabel('New password').fill(next);
      await change.getByRole('button', { name: 'Change password' }).click();
    };
    await submit('not-the-password', STRONG);
    await change.getByRole('alert').filter({ hasText: 'Wrong password' }).waitFor();
    await submit(user.password, 'short');
    await change.getByRole('alert').filter({ hasText: 'Password must have 12 to 256 characters' }).waitFor();
    await submit(user.password, `my ${user.email.split('@')[0]} password`);
    await change.getByRole('alert').filter({ hasText: 'Password too weak' }).waitFor();
    await check(page, 'account-password-refused');
    await submit(user.password, STRONG);
    await change.getByRole('status').filter({ hasText: 'Password changed' }).waitFor();
    await eventually(async () => expect(await rowsOf(page, 'Sessions').count()).toBe(2));
    await page
      .getByRole('region', { name: 'Recent activity' })
      .getByRole('cell', { name: 'password changed' })
      .first()
      .waitFor();

    // The other browser is signed out; the new password lets it in again.
    await other.reload();
    await other.getByRole('button', { name: 'Sign in' }).waitFor();
    await other.getByLabel('E-mail').fill(user.email);
    await other.getByLabel('Password').fill(STRONG);
    await other.getByRole('button', { name: 'Sign in' }).click();
    await other.getByRole('button', { name: 'Sign out' }).waitFor();
    await other.context().close();
    await page.context().close();
  });

  it('ends one session from the list after a confirmation, then all the others', async () => {
    const user = await suite.fx.user();
    const first = await signedIn(user.email, user.password);
    const second = await signedIn(user.email, user.password);
    const page = await signedIn(user.email, user.password);
    await page.getByRole('link', { name: 'Account' }).click();
    await eventually(async () => expect(await rowsOf(page, 'Sessions').count()).toBe(4));

    // Newest first: after this one comes the second browser's.
    await page.getByRole('button', { name: 'End session' }).first().click();
    const confirm = page.getByRole('dialog', { name: 'End this session?' });
    await check(page, 'end-session-dialog');
    await confirm.getByRole('button', { name: 'End session' }).click();
    await confirm.waitFor({ state: 'detached' });
    await eventually(async () => expect(await rowsOf(page, 'Sessions').count()).toBe(3));
    // Its button went with its row: focus stays in the list, never on the page's body.
    await eventually(async () =>
      expect(
        await page.evaluate(() => {
          const { document } = globalThis as unknown as { document: PageDocument };
          return document.activeElement !== null && document.activeElement !== document.body;
        }),
      ).toBe(true),
    );
    await second.reload();
    await second.getByRole('button', { name: 'Sign in' }).waitFor();
    await first.reload();
    await first.getByRole('button', { name: 'Sign out' }).waitFor();

    await page.getByRole('button', { name: 'End all other sessions' }).click();
    await check(page, 'end-other-sessions-dialog');
    await page
      .getByRole('dialog', { name: 'End every other session?' })
      .getByRole('button', { name: 'End all other sessions' })
      .click();
    await eventually(async () => expect(await rowsOf(page, 'Sessions').count()).toBe(2));
    await first.reload();
    await first.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    for (const browser of [first, second, page]) await browser.context().close();
  });

  it('resets a forgotten password from the sign-in page through the mailed link, then signs in with it', async () => {
    const user = await suite.fx.user();
    const context = await area.newContext();
    const page = await context.newPage();
    await page.goto(`${base}/dashboard`);
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    await page.getByLabel('E-mail').fill(user.email);
    await check(page, 'reset-request');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('status').filter({ hasText: 'If an account exists' }).waitFor();
    const link = await linkIn(user.email, 'reset');

    // A link that works no more (or never did) gets the API's text.
    await page.goto(`${base}/dashboard/#/reset/csh_pwr_${'x'.repeat(43)}`);
    await page.getByLabel('New password').fill(STRONG);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid or expired token' }).waitFor();

    await page.goto(link);
    await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
    await page.getByLabel('New password').fill(STRONG);
    await check(page, 'reset-page');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('status').filter({ hasText: 'new password is set' }).waitFor();
    expect(page.url()).not.toContain('/reset/');
    await check(page, 'sign-in-after-reset');
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Password').fill(STRONG);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await request(suite.t.http).post('/auth/login').send({ email: user.email, password: user.password }).expect(401);
    await context.close();
  });

  it('asks for the password when a key is issued on an aged session, then issues it; declined, the refusal stands', async () => {
    const brandId = await suite.fx.brand();
    const user = await suite.fx.user();
    await suite.fx.grant(brandId, user.id, ['settings.manage']);
    const page = await signedIn(user.email, user.password);
    await age(user.id);

    const issue = page.getByRole('button', { name: 'Issue key', exact: true });
    await issue.click();
    const form = page.getByRole('dialog', { name: 'Issue key' });
    await form.getByLabel('Name').fill('Aged session');
    await form.getByLabel('orders.read').check();
    await form.getByRole('button', { name: 'Issue key' }).click();
    const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
    await stepUp.getByLabel('Password').fill('not-the-password');
    await check(page, 'step-up-dialog');
    await stepUp.getByRole('button', { name: 'Confirm' }).click();
    await stepUp.getByRole('alert').filter({ hasText: 'Wrong password' }).waitFor();
    await stepUp.getByLabel('Password').fill(user.password);
    await stepUp.getByRole('button', { name: 'Confirm' }).click();
    const shown = page.getByRole('dialog', { name: 'Key for Aged session' });
    expect((await shown.locator('code').textContent())!.trim()).toMatch(/^csh_at_[0-9a-f]{64}$/);
    await stepUp.waitFor({ state: 'detached' });
    await shown.getByRole('button', { name: 'Done' }).click();
    await hasFocus(issue);
    await page.getByRole('cell', { name: 'Aged session', exact: true }).waitFor();

    // Declined: the roll is not done, and the page says why.
    await age(user.id);
    await page.getByRole('button', { name: 'Roll Aged session' }).click();
    await page.getByRole('dialog', { name: /Roll/ }).getByRole('button', { name: 'Roll' }).click();
    await stepUp.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('alert').filter({ hasText: 'Forbidden: recent authentication required' }).waitFor();
    await expect(page.getByRole('cell', { name: 'active' }).count()).resolves.toBe(1);
    await page.context().close();
  });

  it('invites by clicking; the invitee sets a password from the mail and arrives in the store; the inviter sees them and revokes another', async () => {
    const brandId = await suite.fx.brand('Harbor');
    const manager = await suite.fx.user();
    await suite.fx.grant(brandId, manager.id, ['settings.manage', 'orders.read']);
    const clerk = await suite.fx.user();
    await suite.fx.grant(brandId, clerk.id, ['orders.read']);
    const newcomer = 'newcomer@harbor.example';
    const second = 'second@harbor.example';

    // Team is a settings page: a member without settings.manage is not offered it.
    const clerkPage = await signedIn(clerk.email, clerk.password);
    await clerkPage.getByRole('link', { name: 'Orders' }).waitFor();
    await expect(clerkPage.getByRole('link', { name: 'Team' }).count()).resolves.toBe(0);
    await clerkPage.context().close();

    const page = await signedIn(manager.email, manager.password);
    await page.getByRole('link', { name: 'Team' }).click();
    const members = page.getByRole('region', { name: 'Members' });
    await members.getByRole('cell', { name: `${manager.email} (you)`, exact: true }).waitFor();
    await check(page, 'team');

    const invite = page.getByRole('form', { name: 'Invite someone' });
    const inviteAs = async (email: string, permissions: string[]) => {
      await invite.getByLabel('E-mail').fill(email);
      for (const permission of permissions) await invite.getByLabel(permission).check();
      await invite.getByRole('button', { name: 'Invite' }).click();
    };
    await inviteAs(clerk.email, ['orders.write']);
    await invite.getByRole('alert').filter({ hasText: 'Already a member' }).waitFor();
    await invite.getByLabel('orders.write').uncheck();
    await inviteAs(newcomer, ['orders.read', 'products.read']);
    await invite
      .getByRole('status')
      .filter({ hasText: `Invitation sent to ${newcomer}` })
      .waitFor();
    await inviteAs(second, ['returns.read']);
    await invite
      .getByRole('status')
      .filter({ hasText: `Invitation sent to ${second}` })
      .waitFor();
    const pending = page.getByRole('region', { name: 'Pending invitations' });
    await pending.getByRole('cell', { name: newcomer, exact: true }).waitFor();
    await pending.getByRole('cell', { name: second, exact: true }).waitFor();
    await check(page, 'team-invitations');

    // The invitee, in a browser of their own: the mailed link, a password, and the store's shell.
    const invitee = await (await area.newContext()).newPage();
    await invitee.goto(await linkIn(newcomer, 'invitation'));
    await invitee.getByRole('heading', { name: 'Join Harbor' }).waitFor();
    await invitee.getByText(newcomer).waitFor();
    await invitee.getByText('orders.read, products.read').waitFor();
    await invitee.getByLabel('New password').fill('my newcomer password');
    await invitee.getByRole('button', { name: 'Set password' }).click();
    await invitee.getByRole('alert').filter({ hasText: 'Password too weak' }).waitFor();
    await check(invitee, 'invitation-page');
    await invitee.getByLabel('New password').fill(STRONG);
    await invitee.getByRole('button', { name: 'Set password' }).click();
    await invitee.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(invitee.url()).not.toContain('/invitation/');
    await expect(invitee.getByLabel('Store', { exact: true }).inputValue()).resolves.toBe(String(brandId));
    await invitee.getByRole('link', { name: 'Orders' }).click();
    await invitee.getByRole('heading', { name: 'Orders' }).waitFor();
    await expect(invitee.getByRole('alert').count()).resolves.toBe(0);
    await invitee.context().close();

    // The inviter sees the new member; the other invitation is revoked, and its link dies.
    await page.reload();
    await members.getByRole('row').filter({ hasText: newcomer }).getByText('orders.read, products.read').waitFor();
    await pending.getByRole('cell', { name: newcomer, exact: true }).waitFor({ state: 'detached' });
    await pending.getByRole('button', { name: `Revoke the invitation of ${second}` }).click();
    const revoke = page.getByRole('dialog', { name: `Revoke the invitation of ${second}?` });
    await check(page, 'revoke-invitation-dialog');
    await revoke.getByRole('button', { name: 'Revoke' }).click();
    await pending.getByText('No invitation is waiting.').waitFor();
    const dead = await (await area.newContext()).newPage();
    await dead.goto(await linkIn(second, 'invitation'));
    await dead.getByRole('alert').filter({ hasText: 'Invalid or expired invitation' }).waitFor();
    await dead.context().close();

    // Permissions changed in a dialog; the last settings.manage member stays; a member removed.
    await members.getByRole('button', { name: `Edit permissions of ${newcomer}` }).click();
    const edit = page.getByRole('dialog', { name: `Permissions of ${newcomer}` });
    await edit.getByLabel('returns.read').check();
    await check(page, 'edit-permissions-dialog');
    await edit.getByRole('button', { name: 'Save' }).click();
    await members.getByRole('row').filter({ hasText: newcomer }).getByText('returns.read').waitFor();
    await members.getByRole('button', { name: `Remove ${manager.email}` }).click();
    await page
      .getByRole('dialog', { name: /Remove/ })
      .getByRole('button', { name: 'Remove' })
      .click();
    await page.getByRole('alert').filter({ hasText: 'The last settings.manage member cannot be removed' }).waitFor();
    await members.getByRole('button', { name: `Remove ${newcomer}` }).click();
    await check(page, 'remove-member-dialog');
    await page
      .getByRole('dialog', { name: /Remove/ })
      .getByRole('button', { name: 'Remove' })
      .click();
    await members.getByRole('cell', { name: newcomer, exact: true }).waitFor({ state: 'detached' });
    await page.context().close();
  });

  it('lets an existing account accept an invitation by signing in on its page', async () => {
    const brandId = await suite.fx.brand('Lighthouse');
    const person = await suite.fx.user();
    await request(suite.t.http)
      .post(`/admin/brands/${brandId}/invitations`)
      .set(bearer(suite.fx.admin))
      .send({ email: person.email, permissions: ['products.read'] })
      .expect(201);
    const page = await (await area.newContext()).newPage();
    await page.goto(await linkIn(person.email, 'invitation'));
    await page.getByRole('heading', { name: 'Join Lighthouse' }).waitFor();
    await expect(page.getByLabel('E-mail').inputValue()).resolves.toBe(person.email);
    await check(page, 'invitation-existing-account');
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await expect(page.getByLabel('Store', { exact: true }).inputValue()).resolves.toBe(String(brandId));
    await page.context().close();
  });

  it('sets up the authenticator app from a QR code drawn in the page, then signs in with its code or a recovery code', async () => {
    const user = await suite.fx.user();
    const context = await area.newContext();
    // Every request of every page: the secret (in the QR code) must go nowhere but this service.
    const requested: string[] = [];
    context.on('request', (sent) => requested.push(sent.url()));
    const page = await area.signIn(context, user.email, user.password);
    await page.getByRole('link', { name: 'Account' }).click();
    const { key, recoveryCodes } = await setUpApp(page, true);
    expect(recoveryCodes).toHaveLength(10);
    for (const code of recoveryCodes) expect(code).toMatch(RECOVERY_CODE);
    expect(new Set(recoveryCodes).size).toBe(10);
    await page
      .getByRole('region', { name: 'Recovery codes' })
      .getByRole('button', { name: 'New recovery codes' })
      .waitFor();
    await page
      .getByRole('region', { name: 'Recent activity' })
      .getByRole('cell', { name: 'second factor enabled' })
      .waitFor();

    // The password is not enough now: the code, for the step after the one the set-up spent.
    await signOut(page);
    await submitPassword(page, user.email, user.password);
    const step = page.getByRole('region', { name: 'Second factor' });
    // Where the password form had focus, the code's field has it.
    await hasFocus(step.getByLabel('Code'));
    await expect(step.getByRole('button', { name: 'Use a passkey' }).count()).resolves.toBe(0);
    await check(page, 'sign-in-code');
    await step.getByLabel('Code').fill(totpCode(key, Date.now() + 600_000));
    await step.getByRole('button', { name: 'Verify' }).click();
    await step.getByRole('alert').filter({ hasText: 'Invalid code' }).waitFor();
    // A challenge that died (its minutes are up) takes the page back to the password.
    await withClient(suite.db.url, (client) =>
      client.query("UPDATE login_challenges SET expires_at = now() - interval '1 second' WHERE user_id = $1", [
        user.id,
      ]),
    );
    await step.getByLabel('Code').fill(totpCode(key, Date.now() + 30_000));
    await step.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').filter({ hasText: 'The sign-in expired' }).waitFor();
    await expect(page.getByLabel('Password').inputValue()).resolves.toBe('');
    await submitPassword(page, user.email, user.password);
    await step.getByLabel('Code').fill(totpCode(key, Date.now() + 30_000));
    await step.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();

    // A recovery code, typed in the same field, signs in once.
    await signOut(page);
    await submitPassword(page, user.email, user.password);
    await step.getByLabel('Code').fill(recoveryCodes[3]);
    await step.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    const second = await request(suite.t.http)
      .post('/auth/login')
      .send({ email: user.email, password: user.password })
      .expect(200);
    expect(second.body).toMatchObject({ secondFactorRequired: true, methods: ['totp', 'recovery_code'] });
    await request(suite.t.http)
      .post('/auth/login/second-factor')
      .send({ challengeToken: second.body.challengeToken, recoveryCode: recoveryCodes[3] })
      .expect(401);

    const elsewhere = requested.filter((url) => !url.startsWith(`${base}/`) && !url.startsWith('data:'));
    expect(elsewhere).toEqual([]);
    await context.close();
  });

  it("adds a passkey with Chromium's virtual authenticator, signs in with it, and confirms a removal with it", async () => {
    const user = await suite.fx.user();
    const page = await signedIn(user.email, user.password);
    const authenticator = await virtualAuthenticator(page);
    await page.getByRole('link', { name: 'Account' }).click();
    const passkeys = page.getByRole('region', { name: 'Passkeys' });
    await passkeys.getByText('No passkey yet.').waitFor();
    await passkeys.getByLabel('Name').fill('Test laptop');
    await passkeys.getByRole('button', { name: 'Add passkey' }).click();
    await passkeys.getByRole('status').filter({ hasText: 'Passkey Test laptop added.' }).waitFor();
    await passkeys.getByRole('cell', { name: 'Test laptop', exact: true }).waitFor();
    const stored = await authenticator.credentials();
    expect(stored.map((credential) => [credential.rpId, credential.isResidentCredential])).toEqual([
      ['localhost', true],
    ]);
    // A passkey is a second factor; the authenticator app is still not set up.
    await page.getByRole('region', { name: 'Recovery codes' }).waitFor();
    await page
      .getByRole('region', { name: 'Authenticator app' })
      .getByRole('button', { name: 'Set up authenticator app' })
      .waitFor();
    await check(page, 'account-passkeys');

    // Sign-in: the password, then the passkey (no code: the account holds neither an app nor recovery codes).
    await signOut(page);
    await submitPassword(page, user.email, user.password);
    const step = page.getByRole('region', { name: 'Second factor' });
    await step.getByRole('button', { name: 'Use a passkey' }).waitFor();
    await expect(step.getByLabel('Code').count()).resolves.toBe(0);
    await check(page, 'sign-in-passkey');
    await step.getByRole('button', { name: 'Use a passkey' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect((await authenticator.credentials())[0].signCount).toBeGreaterThan(0);

    // Removing it needs a recent sign-in: the step-up asks for the passkey, not the password.
    await age(user.id);
    await page.getByRole('link', { name: 'Account' }).click();
    await passkeys.getByRole('button', { name: 'Remove passkey Test laptop' }).click();
    await page
      .getByRole('dialog', { name: 'Remove the passkey Test laptop?' })
      .getByRole('button', { name: 'Remove' })
      .click();
    const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
    await stepUp.getByRole('button', { name: 'Use a passkey' }).waitFor();
    await expect(stepUp.getByLabel('Password').count()).resolves.toBe(0);
    await check(page, 'step-up-passkey');
    await stepUp.getByRole('button', { name: 'Use a passkey' }).click();
    await stepUp.waitFor({ state: 'detached' });
    await passkeys.getByText('No passkey yet.').waitFor();
    await expect(page.getByRole('region', { name: 'Recovery codes' }).count()).resolves.toBe(0);

    // No second factor left: the password signs in alone again.
    await signOut(page);
    await submitPassword(page, user.email, user.password);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await page.context().close();
  });

  it("turns on the store's Require a second factor switch for a manager with a factor, sends a member without one to Account, and steps up with a recovery code", async () => {
    const brandId = await suite.fx.brand('Fjord');
    const manager = await suite.fx.user();
    await suite.fx.grant(brandId, manager.id, ['settings.manage', 'orders.read']);
    const clerk = await suite.fx.user();
    await suite.fx.grant(brandId, clerk.id, ['orders.read']);

    // Without a second factor of their own the manager is refused, with the way to set one up.
    const page = await signedIn(manager.email, manager.password);
    await page.getByRole('link', { name: 'Team' }).click();
    const policy = page.getByRole('switch', { name: 'Require a second factor' });
    await eventually(async () => expect(await policy.isEnabled()).toBe(true));
    await expect(policy.isChecked()).resolves.toBe(false);
    await policy.click();
    await page.getByRole('alert').filter({ hasText: 'Set up a second factor first' }).waitFor();
    await expect(policy.isChecked()).resolves.toBe(false);
    await check(page, 'team-policy-refused');
    await page.getByRole('link', { name: 'Set up your own second factor on the Account page' }).click();
    await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
    const { recoveryCodes } = await setUpApp(page);

    await page.getByRole('link', { name: 'Team' }).click();
    await page
      .getByRole('region', { name: 'Members' })
      .getByRole('row')
      .filter({ hasText: `${manager.email} (you)` })
      .getByRole('cell', { name: 'Yes', exact: true })
      .waitFor();
    await eventually(async () => expect(await policy.isEnabled()).toBe(true));
    await policy.click();
    await eventually(async () => expect(await policy.isChecked()).toBe(true));
    await check(page, 'team-policy-on');
    await expect(policyOf(brandId)).resolves.toEqual({ requireSecondFactor: true });
    const journal = await request(suite.t.http)
      .get(`/admin/brands/${brandId}/security-journal?type=security_policy_changed`)
      .set(bearer(suite.fx.admin))
      .expect(200);
    expect(journal.body.items).toEqual([
      expect.objectContaining({
        type: 'security_policy_changed',
        actor: { kind: 'user', id: manager.id },
        details: { requireSecondFactor: { before: false, after: true } },
      }),
    ]);

    // A member without a factor gets the store no more, but a clear way to the Account page.
    const clerkPage = await signedIn(clerk.email, clerk.password);
    await clerkPage.getByRole('heading', { name: 'Second factor required' }).waitFor();
    await check(clerkPage, 'second-factor-needed');
    await clerkPage.getByRole('link', { name: 'Orders' }).click();
    await clerkPage.getByRole('heading', { name: 'Second factor required' }).waitFor();
    await clerkPage.getByRole('link', { name: /on the Account page/ }).click();
    await clerkPage.getByRole('region', { name: 'Authenticator app' }).waitFor();
    await clerkPage.context().close();

    // Turning it off on an aged session: the step-up asks for the second factor, and a wrong code
    // is only refused (the session stays); a recovery code in the Code field proves the account.
    await age(manager.id);
    await policy.click();
    const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
    await hasFocus(stepUp.getByLabel('Code'));
    await expect(stepUp.getByLabel('Password').count()).resolves.toBe(0);
    await expect(stepUp.getByRole('button', { name: 'Use a passkey' }).count()).resolves.toBe(0);
    await check(page, 'step-up-code');
    await stepUp.getByLabel('Code').fill('abcd-efgh-ijkl-mnop');
    await stepUp.getByRole('button', { name: 'Confirm' }).click();
    await stepUp.getByRole('alert').filter({ hasText: 'Invalid code' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await stepUp.getByLabel('Code').fill(recoveryCodes[0]);
    await stepUp.getByRole('button', { name: 'Confirm' }).click();
    await stepUp.waitFor({ state: 'detached' });
    await eventually(async () => expect(await policy.isChecked()).toBe(false));
    await expect(policyOf(brandId)).resolves.toEqual({ requireSecondFactor: false });
    await page.context().close();
  });
});
