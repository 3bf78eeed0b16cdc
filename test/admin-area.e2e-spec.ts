import request from 'supertest';
import { closeSuite, openSuite, type Suite } from './support/suite';
import { ADMIN } from './support/test-app';

/** The page, its redirect and its script: every kind of answer the admin area gives. */
async function adminAreaPaths(suite: Suite): Promise<string[]> {
  const page = await request(suite.t.http).get('/dashboard/').expect(200);
  return ['/dashboard', '/dashboard/', `/dashboard/${/src="(assets\/[^"]+\.js)"/.exec(page.text)![1]}`];
}

/**
 * How the service serves the admin area (contract §13): files, headers, nothing else. Behind TLS
 * (SESSION_COOKIE_SECURE=true), which only adds HSTS; platform.e2e-spec holds that plain HTTP has none.
 */
describe('the admin area is served at /dashboard/', () => {
  let suite: Suite;
  beforeAll(async () => {
    suite = await openSuite({ env: { SESSION_COOKIE_SECURE: 'true' } });
  });
  afterAll(() => closeSuite(suite));

  it('redirects /dashboard and sends the page uncached, under a strict Content-Security-Policy', async () => {
    const redirect = await request(suite.t.http).get('/dashboard').expect(302);
    expect(redirect.headers.location).toBe('/dashboard/');
    const page = await request(suite.t.http).get('/dashboard/').expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-store');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.text).not.toMatch(/<script>|<script [^>]*>[^<]+<\/script>/);
    const script = /src="(assets\/[^"]+\.js)"/.exec(page.text)![1];
    const styles = /href="(assets\/[^"]+\.css)"/.exec(page.text)![1];
    const js = await request(suite.t.http).get(`/dashboard/${script}`).expect(200);
    expect(js.headers['content-type']).toMatch(/^text\/javascript/);
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    await request(suite.t.http)
      .get(`/dashboard/${styles}`)
      .expect(200)
      .expect('content-type', /^text\/css/);
  });

  it('serves only the built files', async () => {
    for (const path of [
      '/dashboard/assets/nope.js',
      '/dashboard/assets/..%2F..%2Fpackage.json',
      '/dashboard/index.html',
    ]) {
      const response = await request(suite.t.http).get(path);
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
    }
  });

  it('tells browsers to come back over HTTPS only, for a year, on every answer', async () => {
    for (const path of await adminAreaPaths(suite)) {
      const response = await request(suite.t.http).get(path);
      expect({ path, hsts: response.headers['strict-transport-security'] }).toEqual({
        path,
        hsts: 'max-age=31536000',
      });
    }
  });

  it('signs its users in with a Secure session cookie', async () => {
    const response = await request(suite.t.http).post('/auth/login').send(ADMIN).expect(200);
    const cookie = ([] as string[]).concat(response.headers['set-cookie'])[0];
    expect(cookie).toContain(`session=${response.body.token}`);
    expect(cookie).toMatch(/;\s*Secure/i);
  });
});
