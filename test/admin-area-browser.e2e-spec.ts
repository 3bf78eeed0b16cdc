import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import request from 'supertest';
import { AdminAreaBrowser, hasFocus } from './support/admin-browser';
import { eventually } from './support/eventually';
import { createProduct, issueKey, journal } from './support/fixtures';
import { closeSuite, openSuite, type Suite } from './support/suite';
import { ADMIN, bearer } from './support/test-app';
import { withClient } from './support/test-database';

/** The page's document as code run in it sees it (this suite compiles without the DOM's types). */
interface PageDocument {
  activeElement: PageElement | null;
  body: PageElement;
}
interface PageElement {
  tagName: string;
  textContent: string | null;
  getAttribute(name: string): string | null;
}

/**
 * The admin area in a real browser (Debian's Chromium through playwright-core): the storefront
 * set-up of spec §5.10 clicked through, the one-time key, revocation, a second tab, the CSRF
 * refusal, a member without settings.manage, and axe on every screen and open dialog.
 */
describe('the admin area in a browser', () => {
  let suite: Suite;
  let area: AdminAreaBrowser;
  let base: string;
  let brand: { id: number; name: string };
  const newContext = () => area.newContext();
  const check = (page: Page, name: string) => area.check(page, name);
  const signIn = (...args: Parameters<AdminAreaBrowser['signIn']>) => area.signIn(...args);

  /**
   * A secret's dialog says inside itself that it is shown once, then closes at once with Done or
   * Escape: no question after, native or in-page.
   */
  async function closesAtOnce(page: Page, name: string | RegExp, how: 'Done' | 'Escape') {
    const shown = page.getByRole('dialog', { name });
    await shown
      .getByRole('note')
      .filter({ hasText: /shown once/i })
      .waitFor();
    if (how === 'Done') await shown.getByRole('button', { name: 'Done' }).click();
    else await page.keyboard.press('Escape');
    await shown.waitFor({ state: 'detached', timeout: 5000 });
  }

  beforeAll(async () => {
    suite = await openSuite({ env: { OUTBOX_WORKER: 'false', WEBHOOK_WORKER: 'false' } });
    const server = await suite.t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const created = await request(suite.t.http)
      .post('/admin/brands')
      .set(bearer(suite.fx.admin))
      .send({ name: 'Northwind', slug: 'northwind', staffEmail: 'staff@northwind.example' })
      .expect(201);
    brand = { id: created.body.id, name: 'Northwind' };
    area = await AdminAreaBrowser.launch(base);
  });
  afterEach(() => expect(area.native.splice(0)).toEqual([]));
  afterAll(async () => {
    await area?.close();
    if (suite) await closeSuite(suite);
  });

  it('sets up a storefront by clicking, and its first order shows up in the list', async () => {
    const context = await newContext();
    const page = await signIn(context, ADMIN.email, ADMIN.password, 'sign-in');
    await page.getByLabel('Store', { exact: true }).selectOption({ label: brand.name });
    await check(page, 'keys-empty');

    // A product with its storefront article and a size with stock.
    await page.getByRole('link', { name: 'Products' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Linen shirt');
    await page.getByLabel('Article', { exact: true }).fill('LS-001');
    await page.getByLabel('Storefront article').fill('TILDA-77');
    await page.getByLabel('Price (₽)').fill('4500');
    await page.getByRole('button', { name: 'Add size' }).click();
    await page.getByLabel('Size', { exact: true }).fill('M');
    await page.getByLabel('Stock').fill('10');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('cell', { name: 'TILDA-77' }).waitFor();
    await check(page, 'products');

    // The storefront's key, shown once.
    await page.getByRole('link', { name: 'Integration keys' }).click();
    await page.getByRole('button', { name: 'Issue key' }).click();
    const form = page.getByRole('dialog', { name: 'Issue key' });
    await form.getByLabel('Name').fill('Storefront');
    await form.getByLabel('orders.create_partner').check();
    await form.getByLabel('Expires').fill('2030-01-01');
    await check(page, 'issue-key-dialog');
    await form.getByRole('button', { name: 'Issue key' }).click();
    const shown = page.getByRole('dialog', { name: /Key for Storefront/ });
    const key = (await shown.locator('code').textContent())!.trim();
    expect(key).toMatch(/^csh_at_[0-9a-f]{64}$/);
    await check(page, 'key-shown-once');
    await shown.getByRole('button', { name: 'Copy' }).click();
    await shown.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('cell', { name: 'Storefront', exact: true }).waitFor();
    await check(page, 'keys');

    // The storefront sends its first order with that key; the page lists it.
    const order = await request(suite.t.http)
      .post('/orders/integrations/partner/webhook')
      .set({ Authorization: `Bearer ${key}` })
      .send({
        partnerOrderId: 'T-1',
        recipient: { fullName: 'Ivanova Maria', phone: '+79123456789' },
        items: [{ article: 'TILDA-77', size: 'm', quantity: 1 }],
      })
      .expect(201);
    await page.getByRole('link', { name: 'Orders' }).click();
    await page.getByRole('cell', { name: order.body.order.orderNumber, exact: true }).waitFor();
    await check(page, 'orders');
    await page.getByRole('button', { name: `View order ${order.body.order.orderNumber}` }).click();
    await page.getByRole('heading', { name: `Order ${order.body.order.orderNumber}` }).waitFor();
    await check(page, 'order-detail');
    await page.getByRole('button', { name: 'Cancel order' }).click();
    await check(page, 'cancel-order-dialog');
    await page.getByRole('dialog').getByRole('button', { name: 'Keep' }).click();

    // Gone after a reload: not in the page, the address or the browser's storage.
    await page.reload();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(await page.content()).not.toContain(key);
    expect(page.url()).not.toContain(key);
    const stored = await page.evaluate<string>(
      'JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })',
    );
    expect(stored).not.toContain(key);

    // Revoke, confirmed in a dialog that says what stops working; the key then gets 401.
    await page.getByLabel('Store', { exact: true }).selectOption({ label: brand.name });
    await page.getByRole('link', { name: 'Integration keys' }).click();
    await page.getByRole('button', { name: 'Revoke Storefront' }).click();
    const confirm = page.getByRole('dialog', { name: /Revoke Storefront/ });
    await expect(confirm.textContent()).resolves.toContain('stops working');
    await check(page, 'revoke-dialog');
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('cell', { name: 'revoked' }).waitFor();
    await request(suite.t.http)
      .get('/orders/admin/all?limit=1')
      .set({ Authorization: `Bearer ${key}` })
      .expect(401);

    // A second tab of the same session makes changes (its CSRF token comes from /auth/me).
    const tab = await context.newPage();
    await tab.goto(`${base}/dashboard/#/sites`);
    await tab.getByLabel('Store', { exact: true }).selectOption({ label: brand.name });
    await tab.getByLabel('Name').fill('Ivanovo workshop');
    await tab.getByRole('button', { name: 'Create' }).click();
    await tab.getByRole('heading', { name: /Ivanovo workshop/ }).waitFor();
    await tab.getByRole('button', { name: 'Issue site key' }).click();
    await tab.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
    await check(tab, 'sites');

    // Without the token, the cookie alone changes nothing.
    const refused = await tab.evaluate(async (brandId) => {
      const response = await fetch(`/admin/brands/${brandId}/production-sites`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'forged' }),
      });
      return { status: response.status, body: (await response.json()) as { error: string } };
    }, brand.id);
    expect(refused).toEqual({ status: 403, body: expect.objectContaining({ error: 'Invalid CSRF token' }) });
    await context.close();
  });

  it('exports the catalog, checks a CSV file (its counts, or every wrong line), imports it, and lists what the storefront cannot sell', async () => {
    const store = (
      await request(suite.t.http)
        .post('/admin/brands')
        .set(bearer(suite.fx.admin))
        .send({ name: 'Eastwind', slug: 'eastwind' })
        .expect(201)
    ).body.id as number;
    await createProduct(suite.fx, store, {
      name: 'Linen shirt',
      article: 'E-1',
      storefrontArticle: 'SF-E1',
      priceKopeks: 450000,
      sizes: [{ name: 'M', stock: 3 }],
    });
    const context = await newContext();
    const page = await signIn(context, ADMIN.email, ADMIN.password);
    await page.getByLabel('Store', { exact: true }).selectOption({ label: 'Eastwind' });
    await page.getByRole('link', { name: 'Products' }).click();
    await page.getByRole('cell', { name: 'SF-E1' }).waitFor();

    const [exported] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export' }).click(),
    ]);
    expect(exported.suggestedFilename()).toBe('catalog.csv');
    expect(readFileSync(await exported.path(), 'utf8')).toBe(
      'article,name,storefrontArticle,priceKopeks,size,sizePriceKopeks\nE-1,Linen shirt,SF-E1,450000,M,\n',
    );

    const choose = (text: string) =>
      page
        .getByLabel('CSV file')
        .setInputFiles({ name: 'catalog.csv', mimeType: 'text/csv', buffer: Buffer.from(text) });
    const status = page.getByRole('status');
    await choose('article;name;priceKopeks;size\nE-2;Cap;-5;\nE-3;;100;S\n');
    await page.getByRole('button', { name: 'Check' }).click();
    const wrong = page.getByRole('list', { name: 'Wrong lines' });
    await wrong.waitFor();
    expect(await wrong.getByRole('listitem').allTextContents()).toEqual([
      'line 2: priceKopeks must be an integer from 0 to 100000000',
      'line 3: name is required on the first line of a new product',
    ]);
    await check(page, 'products-import-errors');

    await choose('article;name;priceKopeks;size\nE-2;Cap;9000;\nE-1;;;L\n');
    await page.getByRole('button', { name: 'Check' }).click();
    await status.getByText('The import would create 1 products, update 1, leave 0 unchanged and add 1 sizes').waitFor();
    await check(page, 'products-import-check');
    await expect(page.getByRole('cell', { name: 'Cap', exact: true }).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await status.getByText('Imported: 1 created, 1 updated, 0 unchanged, 1 sizes added.').waitFor();
    await page.getByRole('cell', { name: 'Cap', exact: true }).waitFor();

    // The storefront cannot sell the cap yet: it has no storefront article.
    await page.getByLabel('Only those the storefront cannot sell yet').check();
    await page.getByRole('cell', { name: 'SF-E1' }).waitFor({ state: 'detached' });
    await expect(page.getByRole('cell', { name: 'Cap', exact: true }).count()).resolves.toBe(1);
    await check(page, 'products-unsellable');
    await context.close();
  });

  it('shows the other screens, and their dialogs, without accessibility violations', async () => {
    await createProduct(suite.fx, brand.id, {
      article: 'CAP',
      storefrontArticle: 'SF-CAP',
      priceKopeks: 90000,
      sizes: [{ name: 'One', stock: 5 }],
    });
    const storefront = await issueKey(suite.fx, brand.id, { permissions: ['orders.create_partner'] });
    const order = await request(suite.t.http)
      .post('/orders/integrations/partner/webhook')
      .set(storefront.headers)
      .send({
        partnerOrderId: 'T-2',
        recipient: { fullName: 'Petrov Ivan', phone: '+79001234567' },
        items: [{ article: 'SF-CAP', size: 'One', quantity: 1 }],
      })
      .expect(201);
    const clerk = await issueKey(suite.fx, brand.id, { permissions: ['returns.write', 'orders.read'] });
    const detail = await request(suite.t.http).get(`/orders/admin/${order.body.order.id}`).set(clerk.headers);
    await request(suite.t.http)
      .post('/returns')
      .set(clerk.headers)
      .send({
        orderId: order.body.order.id,
        externalReturnId: 'RMA-1',
        items: [{ orderItemId: detail.body.items[0].id, quantity: 1 }],
        reasonCode: 'defective',
      })
      .expect(201);

    const context = await newContext();
    const page = await signIn(context, ADMIN.email, ADMIN.password);
    await page.getByLabel('Store', { exact: true }).selectOption({ label: brand.name });

    await page.getByRole('link', { name: 'Returns' }).click();
    await page
      .getByRole('button', { name: /View return/ })
      .first()
      .click();
    await page.getByRole('heading', { name: /Return R-/ }).waitFor();
    await check(page, 'return-detail');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('button', { name: 'Receive' }).click();
    const receive = page.getByRole('dialog', { name: 'Receive returned units' });
    await receive.getByLabel('Quantity').fill('1');
    await check(page, 'receive-dialog');
    await receive.getByRole('button', { name: 'Receive' }).click();
    await page.getByRole('definition').filter({ hasText: 'received' }).first().waitFor();

    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('URL').fill('https://93.184.216.34/hooks');
    await page.getByLabel('order.created').check();
    await page.getByLabel('Description').fill('ERP');
    await check(page, 'webhooks');
    await page.getByRole('button', { name: 'Create' }).click();
    const secret = page.getByRole('dialog', { name: 'Signing secret' });
    await expect(secret.textContent()).resolves.toMatch(/whsec_/);
    await check(page, 'webhook-secret-dialog');
    await secret.getByRole('button', { name: 'Copy' }).click();
    await secret.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Send test' }).click();
    // The dialog lists what is stored when it opens: wait until the test message is.
    await page.getByRole('status').filter({ hasText: 'webhook.test' }).waitFor();
    await page.getByRole('button', { name: 'Deliveries' }).click();
    const deliveries = page.getByRole('dialog', { name: /Deliveries to/ });
    await deliveries.getByText('webhook.test').waitFor();
    await check(page, 'deliveries-dialog');
    await deliveries.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('link', { name: 'Security journal' }).click();
    await page.getByRole('cell', { name: 'integration_key_issued' }).first().waitFor();
    await check(page, 'journal');
    await context.close();
  });

  it("shows a key's requests: its recent failures and its 24-hour counts by status", async () => {
    const key = await issueKey(suite.fx, brand.id, {
      name: 'Watched storefront',
      permissions: ['orders.create_partner'],
    });
    const refused = await request(suite.t.http)
      .post('/orders/integrations/partner/webhook')
      .set({ ...key.headers, 'X-Request-Id': 'browser-log-1' })
      .send({
        partnerOrderId: 'LOG-1',
        recipient: { fullName: 'Sidorova Anna', phone: '+79005554433' },
        items: [{ article: 'NO-SUCH', size: 'M', quantity: 1 }],
      })
      .expect(422);
    await request(suite.t.http).get('/orders/admin/all?limit=1').set(key.headers).expect(403);
    // Written by the next flush, within seconds.
    await eventually(async () => {
      const usage = await request(suite.t.http)
        .get(`/admin/brands/${brand.id}/integration-keys/${key.id}/usage`)
        .set(bearer(suite.fx.admin))
        .expect(200);
      expect(usage.body.last24h.total).toBe(2);
    });

    const context = await newContext();
    const page = await signIn(context, ADMIN.email, ADMIN.password);
    await page.getByLabel('Store', { exact: true }).selectOption({ label: brand.name });
    await page.getByRole('link', { name: 'Integration keys' }).click();
    await page.getByRole('button', { name: 'Requests of Watched storefront' }).click();
    const dialog = page.getByRole('dialog', { name: 'Requests of Watched storefront' });
    const failure = dialog.getByRole('row').filter({ hasText: 'browser-log-1' });
    await failure.waitFor();
    // As the request log keeps it: the answer's error, the request's own values left out.
    expect(refused.body.error).toContain('"NO-SUCH"');
    await expect(failure.textContent()).resolves.toContain((refused.body.error as string).replace('"NO-SUCH"', '"…"'));
    await expect(failure.textContent()).resolves.toContain('/orders/integrations/partner/webhook');
    await expect(failure.getByRole('cell', { name: '422', exact: true }).count()).resolves.toBe(1);
    await expect(dialog.getByRole('row').count()).resolves.toBe(3);
    await dialog.getByText('Status 422').waitFor();
    await dialog.getByText('Status 403').waitFor();
    await check(page, 'key-requests-dialog');
    expect(await dialog.textContent()).not.toContain(key.key);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 5000 });
    await context.close();
  });

  it('closes every dialog that shows a secret with Done and with Escape, asking nothing', async () => {
    const context = await newContext();
    const page = await signIn(context, ADMIN.email, ADMIN.password);
    await page.getByLabel('Store', { exact: true }).selectOption({ label: brand.name });

    // Integration keys: issued, then rolled; neither copied nor downloaded before closing.
    for (const how of ['Done', 'Escape'] as const) {
      await page.getByRole('button', { name: 'Issue key', exact: true }).click();
      const form = page.getByRole('dialog', { name: 'Issue key' });
      await form.getByLabel('Name').fill(`Closed by ${how}`);
      await form.getByLabel('orders.read').check();
      await form.getByRole('button', { name: 'Issue key' }).click();
      await closesAtOnce(page, `Key for Closed by ${how}`, how);
      await page.getByRole('button', { name: `Roll Closed by ${how}` }).click();
      await page.getByRole('dialog', { name: /Roll/ }).getByRole('button', { name: 'Roll' }).click();
      await closesAtOnce(page, `Key for Closed by ${how}`, how);
    }

    // A production site's key.
    await page.getByRole('link', { name: 'Production sites' }).click();
    await page.getByLabel('Name').fill('Closing workshop');
    await page.getByRole('button', { name: 'Create' }).click();
    const site = page.getByRole('article', { name: 'Site Closing workshop' });
    for (const how of ['Done', 'Escape'] as const) {
      await site.getByRole('button', { name: 'Issue site key' }).click();
      await closesAtOnce(page, 'Site key for Closing workshop', how);
    }

    // A webhook endpoint's signing secret: at creation, then rotated.
    await page.getByRole('link', { name: 'Webhooks' }).click();
    for (const how of ['Done', 'Escape'] as const) {
      const url = `https://93.184.216.34/closed-by-${how.toLowerCase()}`;
      await page.getByLabel('URL').fill(url);
      await page.getByLabel('order.created').check();
      await page.getByRole('button', { name: 'Create' }).click();
      await closesAtOnce(page, 'Signing secret', how);
      await page.getByRole('row').filter({ hasText: url }).getByRole('button', { name: 'Rotate secret' }).click();
      await page
        .getByRole('dialog', { name: /Rotate/ })
        .getByRole('button', { name: 'Rotate' })
        .click();
      await closesAtOnce(page, 'Signing secret', how);
    }
    await context.close();
  });

  it('gives focus back, after every secret dialog, to the control that started it or the nearest one left', async () => {
    const context = await newContext();
    const page = await signIn(context, ADMIN.email, ADMIN.password);
    await page.getByLabel('Store', { exact: true }).selectOption({ label: brand.name });
    /** What has focus, as a keyboard or screen-reader user would be told: `body` is nowhere. */
    const focused = () =>
      page.evaluate(() => {
        const { document } = globalThis as unknown as { document: PageDocument };
        const element = document.activeElement;
        if (!element || element === document.body) return 'body';
        const name = element.getAttribute('aria-label') ?? element.textContent?.trim();
        return `${element.tagName.toLowerCase()} ${name}`;
      });

    // An issued key: its dialog opens as the issue form's closes, and Done goes back to the page's Issue key.
    const issue = page.getByRole('button', { name: 'Issue key', exact: true });
    await issue.click();
    const form = page.getByRole('dialog', { name: 'Issue key' });
    await form.getByLabel('Name').fill('Focus kept');
    await form.getByLabel('orders.read').check();
    await form.getByRole('button', { name: 'Issue key' }).click();
    await closesAtOnce(page, 'Key for Focus kept', 'Done');
    await hasFocus(issue);

    // A rolled key: the roll revokes the old key, whose row loses its Roll button; focus goes to what is left there.
    const oldRow = page.getByRole('row').filter({ hasText: 'Focus kept' });
    const hint = (await oldRow.locator('code').textContent())!.trim();
    await oldRow.getByRole('button', { name: 'Roll Focus kept' }).click();
    await page.getByRole('dialog', { name: /Roll/ }).getByRole('button', { name: 'Roll' }).click();
    await closesAtOnce(page, 'Key for Focus kept', 'Escape');
    const rolled = page.getByRole('row').filter({ hasText: hint });
    await rolled.getByRole('button', { name: 'Roll Focus kept' }).waitFor({ state: 'detached' });
    await hasFocus(rolled.getByRole('button', { name: 'Requests of Focus kept' }));

    // A revoked key's Revoke button goes as the list reloads after the dialog: focus stays in the row all the same.
    const current = page.getByRole('row').filter({ hasText: 'Focus kept' }).filter({ hasText: 'active' });
    await current.getByRole('button', { name: 'Revoke Focus kept' }).click();
    await page
      .getByRole('dialog', { name: /Revoke/ })
      .getByRole('button', { name: 'Revoke' })
      .click();
    await eventually(async () => expect(await focused()).toBe('button Requests of Focus kept'));
    expect(await page.getByRole('button', { name: 'Revoke Focus kept' }).count()).toBe(0);

    // A production site's key: back to its Issue site key.
    await page.getByRole('link', { name: 'Production sites' }).click();
    await page.getByLabel('Name').fill('Focus workshop');
    await page.getByRole('button', { name: 'Create' }).click();
    const siteKey = page
      .getByRole('article', { name: 'Site Focus workshop' })
      .getByRole('button', { name: 'Issue site key' });
    await siteKey.click();
    await closesAtOnce(page, 'Site key for Focus workshop', 'Escape');
    await hasFocus(siteKey);

    // A webhook endpoint's secret: back to the form's Create; a rotated one, back to the row's Rotate secret.
    await page.getByRole('link', { name: 'Webhooks' }).click();
    const url = 'https://93.184.216.34/focus-kept';
    await page.getByLabel('URL').fill(url);
    await page.getByLabel('order.created').check();
    const create = page.getByRole('button', { name: 'Create' });
    await create.click();
    await closesAtOnce(page, 'Signing secret', 'Done');
    await hasFocus(create);
    const rotate = page.getByRole('row').filter({ hasText: url }).getByRole('button', { name: 'Rotate secret' });
    await rotate.click();
    await page
      .getByRole('dialog', { name: /Rotate/ })
      .getByRole('button', { name: 'Rotate' })
      .click();
    await closesAtOnce(page, 'Signing secret', 'Done');
    await hasFocus(rotate);
    expect(await focused()).toBe('button Rotate secret');
    await context.close();
  });

  it('erases a buyer after a preview of what goes and what stays, exports a file, and sets the retention', async () => {
    await createProduct(suite.fx, brand.id, {
      article: 'PD',
      storefrontArticle: 'SF-PD',
      priceKopeks: 1000,
      sizes: [{ name: 'One', stock: 10 }],
    });
    const storefront = await issueKey(suite.fx, brand.id, { permissions: ['orders.create_partner'] });
    const clerk = await issueKey(suite.fx, brand.id, { permissions: ['orders.write', 'orders.read'] });
    const place = async (partnerOrderId: string) =>
      (
        await request(suite.t.http)
          .post('/orders/integrations/partner/webhook')
          .set(storefront.headers)
          .send({
            partnerOrderId,
            recipient: { fullName: 'Sokolova Irina', phone: '+7 900 555-12-34', email: 'irina@example.org' },
            comment: 'Ring twice',
            items: [{ article: 'SF-PD', size: 'One', quantity: 1 }],
          })
          .expect(201)
      ).body.order as { id: number; orderNumber: string };
    const done = await place('PD-1');
    await request(suite.t.http).post(`/orders/admin/${done.id}/cancel`).set(clerk.headers).send({}).expect(200);
    const open = await place('PD-2');

    const context = await newContext();
    const page = await signIn(context, ADMIN.email, ADMIN.password);
    await page.getByLabel('Store', { exact: true }).selectOption({ label: brand.name });
    await page.getByRole('link', { name: 'Personal data' }).click();
    await page.getByLabel('Retention in days').waitFor();
    await check(page, 'personal-data');

    await page.getByLabel('Find by').selectOption({ label: 'Phone' });
    await page.getByLabel('Buyer').fill('8 (900) 555 12 34');
    await page.getByRole('button', { name: 'Erase' }).click();
    const dialog = page.getByRole('dialog', { name: 'Erase this buyer’s data?' });
    await dialog.getByRole('cell', { name: done.orderNumber, exact: true }).waitFor();
    await dialog.getByRole('cell', { name: open.orderNumber, exact: true }).waitFor();
    await check(page, 'erasure-dialog');
    // A confirming button works once: a double click erases (and journals) once.
    await dialog.getByRole('button', { name: 'Erase' }).dblclick();
    await page.getByRole('status').filter({ hasText: 'Erased 1 order(s); kept 1 in progress.' }).waitFor();
    const erasures = (await journal(suite.fx)).filter(
      (e) => e.type === 'personal_data_erased' && e.brandId === brand.id,
    );
    expect(erasures).toHaveLength(1);
    const erased = await request(suite.t.http).get(`/orders/admin/${done.id}`).set(clerk.headers).expect(200);
    expect(erased.body.recipient).toMatchObject({ fullName: '', phone: '', email: null });

    await page.getByLabel('Find by').selectOption({ label: 'E-mail' });
    await page.getByLabel('Buyer').fill('IRINA@example.org');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download export' }).click(),
    ]);
    const exported = JSON.parse(readFileSync(await download.path(), 'utf8')) as { orders: Array<{ id: number }> };
    expect(exported.orders.map((o) => o.id)).toEqual([open.id]);

    await page.getByLabel('Retention in days').fill('30');
    await page.getByRole('button', { name: 'Save retention' }).click();
    await page.getByRole('status').filter({ hasText: 'Retention saved: 30 days.' }).waitFor();
    await request(suite.t.http)
      .get(`/admin/brands/${brand.id}/personal-data/retention`)
      .set(bearer(suite.fx.admin))
      .expect(200, { days: 30 });
    await context.close();
  });

  it("tells a member without settings.manage that the store's settings are not theirs", async () => {
    await createProduct(suite.fx, brand.id, {
      article: 'MEMBER',
      storefrontArticle: 'SF-MEMBER',
      priceKopeks: 100,
      sizes: [{ name: 'One' }],
    });
    const storefront = await issueKey(suite.fx, brand.id, { permissions: ['orders.create_partner'] });
    const order = await request(suite.t.http)
      .post('/orders/integrations/partner/webhook')
      .set(storefront.headers)
      .send({
        partnerOrderId: 'M-1',
        recipient: { fullName: 'Member Test', phone: '+79001112233' },
        items: [{ article: 'SF-MEMBER', size: 'One', quantity: 1 }],
      })
      .expect(201);

    // The superadministrator creates the user and grants orders.read in the Platform screen.
    const member = { email: 'clerk@northwind.example', password: 'northwind-orders-desk' };
    const adminContext = await newContext();
    const admin = await signIn(adminContext, ADMIN.email, ADMIN.password);
    await admin.getByLabel('Store', { exact: true }).selectOption({ label: brand.name });
    await admin.getByRole('link', { name: 'Platform' }).click();
    await admin.getByLabel('User e-mail').fill(member.email);
    await admin.getByLabel('Initial password').fill(member.password);
    await admin.getByRole('button', { name: 'Create user' }).click();
    await admin.getByRole('status').filter({ hasText: 'created' }).waitFor();
    await admin.getByLabel('User', { exact: true }).selectOption({ label: member.email });
    await admin
      .getByRole('form', { name: /Membership in Northwind/ })
      .getByLabel('orders.read')
      .check();
    await check(admin, 'platform');
    await admin.getByRole('button', { name: 'Save permissions' }).click();
    await admin.getByRole('status').filter({ hasText: 'Permissions saved.' }).waitFor();
    await adminContext.close();

    const context = await newContext();
    const page = await signIn(context, member.email, member.password);
    await page.getByRole('alert').filter({ hasText: 'Forbidden: Missing permission settings.manage' }).waitFor();
    await page.getByRole('link', { name: 'Orders' }).click();
    await page.getByRole('cell', { name: order.body.order.orderNumber, exact: true }).waitFor();
    await check(page, 'member-orders');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await context.close();
  });

  it('pages the orders and the returns by `before`, past where `offset` stops, with the position and total', async () => {
    const made = await request(suite.t.http)
      .post('/admin/brands')
      .set(bearer(suite.fx.admin))
      .send({ name: 'Longhaul', slug: 'longhaul', staffEmail: 'staff@longhaul.example' })
      .expect(201);
    const brandId = made.body.id as number;
    await withClient(suite.db.url, async (client) => {
      await client.query(
        `INSERT INTO orders (brand_id, order_number, hash, source, partner_order_id, status, payment_status, ordered_at,
                             items_total_kopeks, total_kopeks, recipient_full_name, recipient_phone)
         SELECT $1, 'LH-' || n, md5('LH-' || n), 'storefront', 'LH-' || n, 'completed', 'paid', now(), 100, 100,
                'Buyer', '+7' FROM generate_series(1, 120) AS n`,
        [brandId],
      );
      await client.query(
        `INSERT INTO returns (brand_id, return_number, order_id, order_number, external_return_id, origin, status,
                              reason_code, refund_kopeks, refund_status)
         SELECT brand_id, 'R-' || id, id, order_number, 'X-' || id, 'customer', 'requested', 'other', 0, 'pending'
           FROM orders WHERE brand_id = $1 AND id % 2 = 0`,
        [brandId],
      );
    });
    const context = await newContext();
    const page = await signIn(context, ADMIN.email, ADMIN.password);
    const asked: string[] = [];
    page.on('request', (sent) => asked.push(sent.url()));
    await page.getByLabel('Store', { exact: true }).selectOption({ label: 'Longhaul' });
    const pager = page.getByRole('navigation', { name: 'Pages' });
    const older = pager.getByRole('button', { name: 'Older' });
    const newer = pager.getByRole('button', { name: 'Newer' });

    // Each page's newest order shown, before the next click: Older takes the last id of the page shown.
    const shows = (orderNumber: string) => page.getByRole('cell', { name: orderNumber, exact: true }).waitFor();
    await page.getByRole('link', { name: 'Orders' }).click();
    await shows('LH-120');
    await pager.getByText('1–50 of 120').waitFor();
    await older.click();
    await shows('LH-70');
    await pager.getByText('51–100 of 120').waitFor();
    await older.click();
    await shows('LH-20');
    await pager.getByText('101–120 of 120').waitFor();
    expect(await older.isDisabled()).toBe(true);
    await shows('LH-1');
    expect(asked.filter((url) => url.includes('/orders/admin/all?')).every((url) => !url.includes('offset'))).toBe(
      true,
    );
    expect(asked.filter((url) => url.includes('before=')).length).toBeGreaterThanOrEqual(2);
    await newer.click();
    await shows('LH-70');
    await newer.click();
    await shows('LH-120');
    await pager.getByText('1–50 of 120').waitFor();

    await page.getByRole('link', { name: 'Returns' }).click();
    await pager.getByText('1–50 of 60').waitFor();
    const lastShown = await page.getByRole('row').nth(50).textContent();
    await older.click();
    await pager.getByText('51–60 of 60').waitFor();
    expect(await page.getByRole('row').nth(1).textContent()).not.toBe(lastShown);
    expect(await older.isDisabled()).toBe(true);
    await context.close();
  });
});
