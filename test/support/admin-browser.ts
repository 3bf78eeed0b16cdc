import AxeBuilder from '@axe-core/playwright';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { eventually } from './eventually';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = path.resolve(__dirname, '../../artifacts/screenshots');

/**
 * The admin area's browser suites' common ground: Debian's Chromium through playwright-core,
 * contexts that report native dialogs (contract §13 allows only in-page ones), axe on a screen
 * with a screenshot for review, and signing in by the page's own names.
 */
export class AdminAreaBrowser {
  /** Native dialogs any page opened since the last look: each is a failure (`afterEach` checks). */
  readonly native: string[] = [];

  private constructor(
    private readonly browser: Browser,
    /** The app's origin, as the pages open it. */
    readonly base: string,
  ) {}

  static async launch(base: string): Promise<AdminAreaBrowser> {
    if (!existsSync(CHROMIUM)) {
      throw new Error(
        `Chromium is missing at ${CHROMIUM}: apt-get install -y chromium fonts-dejavu-core (.ci/run does)`,
      );
    }
    mkdirSync(SHOTS, { recursive: true });
    return new AdminAreaBrowser(await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }), base);
  }

  close(): Promise<void> {
    return this.browser.close();
  }

  /** A context whose every page reports a native alert/confirm/prompt (and dismisses it, as by default). */
  async newContext(): Promise<BrowserContext> {
    const context = await this.browser.newContext();
    context.on('page', (page) =>
      page.on('dialog', (dialog) => {
        this.native.push(`${dialog.type()}: ${dialog.message()}`);
        void dialog.dismiss();
      }),
    );
    return context;
  }

  /** No accessibility violation on what the page shows now; a screenshot for review. */
  async check(page: Page, name: string): Promise<void> {
    const results = await new AxeBuilder({ page }).analyze();
    const violations = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect({ screen: name, violations }).toEqual({ screen: name, violations: [] });
    await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  }

  /** A new page of `context`, signed in through the sign-in form; `shot` checks that form first. */
  async signIn(context: BrowserContext, email: string, password: string, shot?: string): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${this.base}/dashboard`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    if (shot) await this.check(page, shot);
    await submitPassword(page, email, password);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    return page;
  }
}

/** The sign-in form on `page` filled and sent: signed in, or (with a second factor) at its step. */
export async function submitPassword(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * Chromium's virtual authenticator (CDP's WebAuthn domain) for `page`: a platform authenticator
 * with discoverable credentials that verifies its user at once, so passkey ceremonies run unattended.
 * It lives as long as the page; `credentials` lists what the page's ceremonies stored in it.
 */
export async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
  return {
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
  };
}

/** Waits until `control` has focus: where a keyboard or screen-reader user is, after a dialog. */
export function hasFocus(control: Locator): Promise<void> {
  return eventually(async () =>
    expect(
      await control.evaluate(
        (element) =>
          element === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement,
      ),
    ).toBe(true),
  );
}
