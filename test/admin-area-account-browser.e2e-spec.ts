import type { Page } from 'playwright-core';
import request from 'supertest';
import { AdminAreaBrowser, hasFocus } from './support/admin-browser';
import { eventually } from './support/eventually';
import { freePort } from './support/service-process';
import { readableText, SmtpSink } from './support/smtp-sink';
import { closeSuite, openSuite, type Suite } from './support/suite';
import { withClient } from './support/test-database';
import { bearer } from './support/test-app';

const STRONG = 'a-long-new-pass-phrase';

/** The page's document as code run in it sees it (this suite compiles without the DOM's types). */
interface PageDocument {
  activeElement: { tagName: string } | null;
  body: unknown;
}

/**
 * Contract §19's admin area in a real browser: the Account page (password, sessions, activity),
 * a reset by mail from the sign-in page, and the step-up dialog a sensitive action opens, with
 * axe on every new screen and dialog. The app is opened at `localhost`, as PUBLIC_URL names it,
 * so the mailed links are followed as a person would.
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
});
