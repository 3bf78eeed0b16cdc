import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PinoLogger } from 'nestjs-pino';
import { symbols } from 'pino';
import request from 'supertest';
import { eventually } from './support/eventually';
import { journal, type IssuedKey } from './support/fixtures';
import { closeSuite, openSuite, type Suite } from './support/suite';
import { bearer, startTestApp, type TestApp } from './support/test-app';

/** Request lines logged (each case reads them), no workers. */
const ENV = { LOG_LEVEL: 'info', OUTBOX_WORKER: 'false', WEBHOOK_WORKER: 'false' };

/** Keeps the lines of the last app made's log (PinoLogger.root) in `lines` instead of writing them out. */
function captureLog(lines: string[]): void {
  const stream = (PinoLogger.root as unknown as Record<symbol, { write(line: string): void }>)[symbols.streamSym];
  jest.spyOn(stream, 'write').mockImplementation((line: string) => void lines.push(line));
}

interface Case {
  trustProxy?: string;
  /** X-Forwarded-For as the service receives it: what the client sent, then what each proxy appended. */
  forwardedFor: string;
  /** The client address the service must use. */
  address: string;
  /** An address earlier in the chain, which a client could have written itself. */
  spoofed: string;
}

/**
 * Contract §12: the client address is the connection's peer, or with TRUST_PROXY the rightmost
 * X-Forwarded-For entry no trusted proxy wrote, and the allowlist, lastUsedIp, the journal and the
 * request log all use that one address. The service's peer here is 127.0.0.1, the proxy in front.
 */
describe('client address behind proxies (TRUST_PROXY)', () => {
  let s: Suite;
  let brand: number;
  /** The request log of the suite's app, which is also the case without TRUST_PROXY. */
  const suiteLogged: string[] = [];

  beforeAll(async () => {
    s = await openSuite({ env: ENV });
    brand = await s.fx.brand();
    captureLog(suiteLogged);
  });
  afterAll(async () => {
    await closeSuite(s);
    jest.restoreAllMocks();
  });

  const cases: Array<[string, Case]> = [
    [
      'unset: the peer, X-Forwarded-For ignored',
      { forwardedFor: '10.1.2.3', address: '127.0.0.1', spoofed: '10.1.2.3' },
    ],
    [
      'true: the entry the one proxy in front appended, not one the client sent ahead of it',
      { trustProxy: 'true', forwardedFor: '10.1.2.3, 203.0.113.9', address: '203.0.113.9', spoofed: '10.1.2.3' },
    ],
    [
      '2: the entry two hops back',
      {
        trustProxy: '2',
        forwardedFor: '198.51.100.1, 10.1.2.3, 203.0.113.9',
        address: '10.1.2.3',
        spoofed: '198.51.100.1',
      },
    ],
    [
      'a list of proxies: the rightmost entry none of them is',
      {
        trustProxy: '127.0.0.1/8,203.0.113.0/24',
        forwardedFor: '198.51.100.1, 10.1.2.3, 203.0.113.9',
        address: '10.1.2.3',
        spoofed: '198.51.100.1',
      },
    ],
    [
      'a list of proxies: an untrusted hop in the chain is the client',
      {
        trustProxy: '127.0.0.1,203.0.113.0/24',
        forwardedFor: '10.1.2.3, 198.51.100.7, 203.0.113.9',
        address: '198.51.100.7',
        spoofed: '10.1.2.3',
      },
    ],
  ];

  describe.each(cases)('TRUST_PROXY %s', (_name, c) => {
    let proxied: TestApp | undefined;
    let baseUrl: string;
    let logged: string[];

    beforeAll(async () => {
      // Unset, the suite's own app has the case's settings.
      let app = s.t;
      logged = suiteLogged;
      if (c.trustProxy !== undefined) {
        app = proxied = await startTestApp({ databaseUrl: s.db.url, env: { ...ENV, TRUST_PROXY: c.trustProxy } });
        logged = [];
        captureLog(logged);
      }
      const server = (await app.app.listen(0, '127.0.0.1')) as Server;
      baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await proxied?.close();
    });

    const pinned = async (allowedIps: string[]): Promise<IssuedKey> => {
      const issued = await request(s.t.http)
        .post(`/admin/brands/${brand}/integration-keys`)
        .set(bearer(s.fx.admin))
        .send({ name: 'pinned', permissions: ['orders.read'], allowedIps })
        .expect(201);
      return { id: issued.body.id, key: issued.body.key, headers: { Authorization: `Bearer ${issued.body.key}` } };
    };
    const call = (key: IssuedKey) =>
      request(baseUrl).get('/orders/admin/all?limit=1').set(key.headers).set('X-Forwarded-For', c.forwardedFor);

    it('a key pinned to the client address works from it, and records it as lastUsedIp', async () => {
      const key = await pinned([c.address]);
      await call(key).expect(200);
      await eventually(async () => {
        const read = await request(s.t.http)
          .get(`/admin/brands/${brand}/integration-keys/${key.id}`)
          .set(bearer(s.fx.admin))
          .expect(200);
        expect(read.body.lastUsedIp).toBe(c.address);
      });
    });

    it('a key pinned to an address the client could write itself is refused and journaled with the client address', async () => {
      const key = await pinned([c.spoofed.replace(/\.\d+$/, '.0/24')]);
      const refused = await call(key).expect(403);
      expect(refused.body.error).toBe('Forbidden: address not allowed');
      const entry = (await journal(s.fx)).find((e) => e.type === 'ip_not_allowed' && e.details.keyId === key.id);
      expect(entry).toMatchObject({ ip: c.address, details: { ip: c.address } });
    });

    it('the request log names the client address', async () => {
      const key = await pinned([c.address]);
      const answer = await call(key).expect(200);
      const requestId = answer.headers['x-request-id'];
      const line = await eventually(() => {
        const found = logged.map((l) => JSON.parse(l)).find((l) => l.req?.id === requestId);
        expect(found).toBeDefined();
        return found;
      });
      expect(line.req.remoteAddress).toBe(c.address);
    });
  });
});
