import { compileErrors, validate } from '@readme/openapi-parser';
import fc from 'fast-check';
import request from 'supertest';
import { signPayload } from '../../src/common/webhooks/webhook-signature';
import { createProduct, issueKey, siteWithKey } from '../support/fixtures';
import { hostileValue, valueOf, type Schema } from '../support/openapi-values';
import { CARRIER_SECRET, PAYMENT_SECRET } from '../support/signed';
import { type SharedSuite, type Suite } from '../support/suite';
import { withClient } from '../support/test-database';
import { bearer, login } from '../support/test-app';
import { base32Bytes, totpCode } from '../support/totp-code';
import { IMPORT_COLUMNS } from '../../src/catalog/catalog-csv';

interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  pathParams: string[];
  query: Array<{ name: string; schema: Schema }>;
  body?: Schema;
  /** The operation takes a CSV file (the catalog import) rather than JSON. */
  csv: boolean;
}

/** The signed-in account's own password, step-up, sessions and second factor (contract §19). */
const SELF_ROUTES = /^\/auth\/(password|step-up|sessions|second-factor|passkeys)(\/|$)/;

/** Texts that must never address a record or reach the database as a number. */
const HOSTILE_IDS = [
  '0',
  '01',
  '0x1',
  '+1',
  '1e0',
  '0.1e1',
  '1.0',
  '-1',
  '%00',
  '%20',
  'abc',
  '9'.repeat(25),
  '2147483648',
  '%C3%BC',
];
/**
 * A valid `waitSeconds` goes out as 0: a poll would wait its seconds out here, and what waiting
 * does is the long-poll suites' (events-long-polls).
 */
const withoutWaiting = ([name, value]: [string, string]): [string, string] =>
  name === 'waitSeconds' && /^([1-9]|[12]\d|30)$/.test(value) ? [name, '0'] : [name, value];

/** Query values as decoded: the fuzz encodes each (NUL goes out as `%00`). */
const HOSTILE_QUERY = [
  '',
  '1e2',
  '0x10',
  '+5',
  '05',
  '-1',
  '1.5',
  '\u0000',
  'T-1\u0000x',
  '%00',
  'abc',
  '9'.repeat(25),
  '9223372036854775808',
  '2147483648',
];

/** Pieces of CSV files that once were, or could be, trouble: quotes, separators, line ends, marks, NUL, big numbers. */
const CSV_PIECES = [
  ...IMPORT_COLUMNS,
  ',',
  ';',
  '"',
  '""',
  '\n',
  '\r\n',
  '\r',
  '\ufeff',
  '\u0000',
  'A-1',
  'F-1',
  'SF-F',
  '-1',
  '1e3',
  '100000001',
  '9'.repeat(30),
  ' ',
  'é',
  '\u{1F600}',
  'x'.repeat(70),
];
const csvText = fc
  .array(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...CSV_PIECES) }, fc.string()), { maxLength: 60 })
  .map((parts) => parts.join(''));
/** Hostile CSV bodies: data lines under a valid header, anything at all, and bytes that are not UTF-8. */
const csvBody = fc.oneof(
  {
    weight: 3,
    arbitrary: csvText.map((text) => `article,name,priceKopeks,size,sizePriceKopeks,storefrontArticle\n${text}`),
  },
  csvText,
  fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
);

/**
 * Every operation of the OpenAPI document, called with generated path ids, query strings and
 * bodies (from the operation's own schemas, mixed with the hostile values that once gave 500s),
 * with valid credentials so the input reaches validation and the services. No answer may be a
 * 5xx, and every error has the contract's shape.
 */
export function describeOpenApiFuzz(shared: SharedSuite): void {
  describe('every route in the OpenAPI document, fuzzed', () => {
    let s: Suite;
    let document: {
      paths: Record<string, Record<string, unknown>>;
      components?: { securitySchemes?: Record<string, unknown> };
    };
    let operations: Operation[];
    const ids: Record<string, string[]> = {};
    const auth: Record<'admin' | 'site' | 'logout' | 'self', Record<string, string>> = {
      admin: {},
      site: {},
      logout: {},
      self: {},
    };
    let spare: { email: string; password: string };

    beforeAll(async () => {
      s = shared.suite;
      const brand = await s.fx.brand();
      // Records the fuzz may change or switch off; the credentials it acts with are kept apart from them.
      const victim = await s.fx.user();
      const site = await siteWithKey(s.fx, brand, 'victim site');
      const key = await issueKey(s.fx, brand, { fullAccess: true });
      const product = await createProduct(s.fx, brand, {
        article: 'F-1',
        storefrontArticle: 'SF-F',
        priceKopeks: 100,
        sizes: [{ name: 'S', stock: 3 }],
      });
      const order = await request(s.t.http)
        .post('/orders/admin')
        .set(key.headers)
        .send({
          recipient: { fullName: 'A B', phone: '+79120000000' },
          items: [{ sizeId: product.sizes[0].id, quantity: 1 }],
        })
        .expect(201);
      Object.assign(ids, {
        brandId: [String(brand)],
        userId: [String(victim.id)],
        siteId: [String(site.siteId)],
        keyId: [String(site.keyId), String(key.id)],
        productId: [String(product.id)],
        orderId: [String(order.body.order.id)],
      });
      const working = await siteWithKey(s.fx, brand, 'working site');
      auth.admin = { Authorization: `Bearer ${s.fx.admin.token}`, 'X-Brand-Id': String(brand) };
      auth.site = working.headers;
      spare = await s.fx.user({ isSuperadmin: true });
      auth.logout = { Authorization: `Bearer ${(await login(s.t.http, spare.email, spare.password)).token}` };
      // The account's own security routes end sessions and count wrong passwords as failed logins:
      // fuzzed as an account of their own, so the superadministrator's sessions and logins stay usable.
      const self = await s.fx.user();
      auth.self = { Authorization: `Bearer ${(await login(s.t.http, self.email, self.password)).token}` };

      document = (await request(s.t.http).get('/docs-json').expect(200)).body;
      operations = operationsOf(document);
    });

    it('the document is valid OpenAPI, and every security requirement names a defined scheme', async () => {
      const result = await validate(structuredClone(document) as Parameters<typeof validate>[0]);
      expect(result.valid ? '' : compileErrors(result)).toBe('');
      const schemes = new Set(Object.keys(document.components?.securitySchemes ?? {}));
      const used = Object.values(document.paths).flatMap((ops) =>
        Object.values(ops).flatMap((op) =>
          ((op as { security?: Array<Record<string, unknown>> }).security ?? []).flatMap(Object.keys),
        ),
      );
      expect(used.filter((name) => !schemes.has(name))).toEqual([]);
    });

    it('no generated request gets a 5xx, and every error has the contract shape', async () => {
      expect(operations.length).toBeGreaterThan(30);
      for (const op of operations) {
        const input = fc.record({
          pathValues: fc.tuple(
            ...op.pathParams.map((name) =>
              fc.oneof(
                { weight: 3, arbitrary: fc.constantFrom(...(ids[name] ?? ['1'])) },
                fc.constantFrom(...HOSTILE_IDS),
              ),
            ),
          ),
          query: fc.array(
            fc
              .tuple(
                fc.oneof(
                  fc.constantFrom(...(op.query.length ? op.query.map((q) => q.name) : ['limit'])),
                  fc.constantFrom('x', '__proto__', 'limit'),
                ),
                fc.oneof(fc.constantFrom(...HOSTILE_QUERY), fc.integer({ min: 0, max: 300 }).map(String)),
              )
              .map(withoutWaiting),
            { maxLength: 3 },
          ),
          body: op.csv
            ? csvBody
            : op.body
              ? fc.oneof({ weight: 6, arbitrary: valueOf(op.body) }, hostileValue)
              : fc.constant(undefined),
          contentType: fc.oneof(
            { weight: 8, arbitrary: fc.constant(op.csv ? 'text/csv' : 'application/json') },
            fc.constantFrom('application/json; charset=utf-16', 'text/plain', 'text/csv; charset=latin1'),
          ),
        });
        await fc.assert(
          fc.asyncProperty(input, async ({ pathValues, query, body, contentType }) => {
            let path = op.path;
            op.pathParams.forEach((name, i) => (path = path.replace(`{${name}}`, pathValues[i])));
            const search = query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
            const url = search ? `${path}?${search}` : path;
            const raw = body === undefined ? undefined : op.csv ? (body as string | Buffer) : JSON.stringify(body);
            let call = request(s.t.http)[op.method](url).set(headersFor(op, raw));
            if (raw !== undefined) call = call.set('Content-Type', contentType).send(raw);
            const response = await call;
            checkAnswer(response, `${op.method.toUpperCase()} ${url} ${JSON.stringify(raw)?.slice(0, 300)}`);
          }),
          { numRuns: 60 },
        );
      }
    });

    /**
     * The pass above reaches the second step of a sign-in only with made-up challenge tokens, so
     * only as far as a dead challenge's 401. Here an account holds a confirmed authenticator app,
     * and each generated body goes out with a live challenge (a password sign-in just before) or,
     * for a step-up, on a session of that account; most bodies give exactly one answer, so codes,
     * recovery codes and passkey assertions reach the second factor's checks. Bad input gets a
     * 4xx, never a 5xx; only the code the app shows now would pass.
     */
    it('fuzzes the second step and the step-up of an account holding an authenticator app, with live challenges', async () => {
      const account = await s.fx.user();
      const session = await login(s.t.http, account.email, account.password);
      const enrolment = await request(s.t.http).post('/auth/second-factor/totp').set(bearer(session)).send({});
      const key = base32Bytes((enrolment.body as { secret: string }).secret);
      await request(s.t.http)
        .post('/auth/second-factor/totp/confirm')
        .set(bearer(session))
        .send({ code: totpCode(key, Date.now()) })
        .expect(200);
      const challenge = async () =>
        (
          (await request(s.t.http).post('/auth/login').send({ email: account.email, password: account.password }))
            .body as { challengeToken: string }
        ).challengeToken;
      /** Whether a body holds the code the app shows now (one step either side): the only answer let through. */
      const right = (body: unknown) =>
        isObject(body) &&
        typeof body.code === 'string' &&
        [-30_000, 0, 30_000].some((offset) => totpCode(key, Date.now() + offset) === body.code);

      const passes: Array<{ path: string; runs: number; live: 'challenge' | 'session' }> = [
        { path: '/auth/login/second-factor', runs: 20, live: 'challenge' },
        { path: '/auth/login/passkey-options', runs: 6, live: 'challenge' },
        { path: '/auth/step-up', runs: 25, live: 'session' },
      ];
      await withClient(s.db.url, async (db) => {
        for (const pass of passes) {
          const op = operations.find((o) => o.method === 'post' && o.path === pass.path);
          if (!op?.body) throw new Error(`${pass.path} takes no JSON body in the document`);
          await fc.assert(
            fc.asyncProperty(secondFactorBody(op.body), async (generated) => {
              // Every answer is a failed login of the account (10 in 15 minutes, then 429): each
              // run starts with none, as account-security's suite does, so none stops at the throttle.
              await db.query('DELETE FROM login_failures WHERE email = $1', [account.email]);
              let body = generated;
              let call = request(s.t.http).post(op.path);
              if (pass.live === 'session') call = call.set(bearer(session));
              else if (isObject(generated)) body = { ...generated, challengeToken: await challenge() };
              const raw = JSON.stringify(body);
              const response = await call.set('Content-Type', 'application/json').send(raw);
              const summary = `POST ${op.path} ${raw?.slice(0, 300)}`;
              checkAnswer(response, summary);
              if (response.status < 400 && !right(body))
                throw new Error(`let through: ${summary} → ${response.status} ${JSON.stringify(response.body)}`);
            }),
            { numRuns: pass.runs },
          );
        }
      });
    });

    /** No 5xx, and every error in the contract's shape (a 400 with its details). */
    function checkAnswer(response: request.Response, call: string): void {
      const summary = `${call} → ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`;
      if (response.status >= 500) throw new Error(summary);
      if (response.status >= 400) {
        const errorBody = response.body as { error?: unknown; requestId?: unknown; details?: unknown };
        if (
          typeof errorBody.error !== 'string' ||
          errorBody.error.length === 0 ||
          typeof errorBody.requestId !== 'string'
        )
          throw new Error(`shape: ${summary}`);
        if (response.status === 400 && !Array.isArray(errorBody.details)) throw new Error(`no details: ${summary}`);
      }
    }

    it('answers a NUL in each query parameter of each operation with a 400 or what the route answers anyway', async () => {
      for (const op of operations) {
        for (const { name } of op.query) {
          let path = op.path;
          for (const param of op.pathParams) path = path.replace(`{${param}}`, (ids[param] ?? ['1'])[0]);
          const url = `${path}?${encodeURIComponent(name)}=a%00b`;
          const response = await request(s.t.http)[op.method](url).set(headersFor(op, undefined));
          expect(`${op.method.toUpperCase()} ${url} → ${response.status}`).not.toMatch(/→ 5\d\d$/);
          if (response.status === 400)
            expect(response.body.details).toContain(`${name} must not contain NUL characters`);
        }
      }
    });

    /** One call of an operation at its fixtures' ids, with a JSON body sent as given (logout with a session of its own). */
    async function send(op: Operation, raw: string | undefined) {
      if (op.path === '/auth/logout')
        auth.logout = { Authorization: `Bearer ${(await login(s.t.http, spare.email, spare.password)).token}` };
      let path = op.path;
      for (const param of op.pathParams) path = path.replace(`{${param}}`, (ids[param] ?? ['1'])[0]);
      let call = request(s.t.http)[op.method](path).set(headersFor(op, raw));
      if (raw !== undefined) call = call.set('Content-Type', 'application/json').send(raw);
      const response = await call;
      const summary = `${op.method.toUpperCase()} ${path} ${raw?.slice(0, 200)} → ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`;
      return { status: response.status, details: (response.body as { details?: string[] }).details ?? [], summary };
    }

    const writes = () => operations.filter((op) => op.method !== 'get' && !op.csv);
    const tolerant = (op: Operation) => op.body?.additionalProperties !== false && op.body !== undefined;

    it('answers a null, a list or a bare value as the body of every route that takes JSON (or none) with a 400', async () => {
      const answers: string[] = [];
      for (const op of writes()) {
        for (const raw of ['null', '[]', '"x"', '1']) {
          const { status, details, summary } = await send(op, raw);
          if (status !== 400 || details[0] !== 'Request body must be a JSON object') answers.push(summary);
        }
      }
      expect(answers).toEqual([]);
    });

    it('answers a property a strict route does not know with a 400 naming it; the storefront and inbound event routes ignore it', async () => {
      const answers: string[] = [];
      for (const op of writes()) {
        const { status, details, summary } = await send(op, JSON.stringify({ storefrontArticel: 'X', zz: null }));
        const named =
          details.includes('property storefrontArticel should not exist') &&
          details.includes('property zz should not exist');
        if (tolerant(op) ? status >= 500 || named : status !== 400 || !named) answers.push(summary);
      }
      expect(answers).toEqual([]);
      const storefront = writes().filter(tolerant);
      // The storefront's, and the bank's and the carrier's signed events, whose senders may add fields we do not read.
      expect(storefront.map((op) => op.path).sort()).toEqual([
        '/carrier/webhook',
        '/orders/integrations/partner/preflight',
        '/orders/integrations/partner/webhook',
        '/payments/webhook',
      ]);
    });

    it('answers null for a field that is not nullable with a 400 naming it, and accepts it where it is', async () => {
      const answers: string[] = [];
      for (const op of writes()) {
        for (const [name, property] of Object.entries(op.body?.properties ?? {})) {
          const { status, details, summary } = await send(op, JSON.stringify({ [name]: null }));
          const named = details.some((detail) => detail.split(' ').includes(name));
          if (status >= 500) answers.push(summary);
          else if (property.nullable === true && named) answers.push(`nullable, refused: ${summary}`);
          else if (!tolerant(op) && property.nullable !== true && (status !== 400 || !named))
            answers.push(`not nullable, let through: ${summary}`);
        }
      }
      expect(answers).toEqual([]);
    });

    it('answers a lone surrogate in any text field of any body with a 400 naming the field', async () => {
      const answers: string[] = [];
      for (const op of writes()) {
        for (const [path, body] of textFieldsOf(op.body)) {
          const { status, details, summary } = await send(op, JSON.stringify(body));
          if (status !== 400 || details[0] !== `${path} must be valid Unicode text (it holds a lone surrogate)`)
            answers.push(summary);
        }
      }
      expect(answers).toEqual([]);
    });

    function headersFor(op: Operation, raw: string | Buffer | undefined): Record<string, string> {
      const signed = { '/payments/webhook': PAYMENT_SECRET, '/carrier/webhook': CARRIER_SECRET }[op.path];
      if (signed) return { 'X-Signature': signPayload(signed, String(raw ?? ''), Math.floor(Date.now() / 1000)) };
      if (op.path.startsWith('/production-api/')) return auth.site;
      if (op.path === '/auth/logout') return auth.logout;
      if (SELF_ROUTES.test(op.path)) return auth.self;
      return auth.admin;
    }
  });

  function operationsOf(document: { paths: Record<string, Record<string, unknown>> }): Operation[] {
    const operations: Operation[] = [];
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, raw] of Object.entries(methods)) {
        const op = raw as {
          parameters?: Array<{ name: string; in: string; schema: Schema }>;
          requestBody?: { content?: Record<string, { schema: Schema }> };
        };
        operations.push({
          method: method as Operation['method'],
          path,
          pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]),
          query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema })),
          body: resolve(document, op.requestBody?.content?.['application/json']?.schema),
          csv: op.requestBody?.content?.['text/csv'] !== undefined,
        });
      }
    }
    return operations;
  }

  /** The schema with its `$ref`s replaced by what they name (the DTO graphs here have no cycles). */
  function resolve(document: unknown, schema: Schema | undefined): Schema | undefined {
    if (!schema) return undefined;
    if (schema.$ref) {
      const target = schema.$ref
        .slice(2)
        .split('/')
        .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], document) as Schema;
      return resolve(document, target);
    }
    const out: Schema = { ...schema };
    if (schema.properties)
      out.properties = Object.fromEntries(
        Object.entries(schema.properties).map(([k, v]) => [k, resolve(document, v)!]),
      );
    if (schema.items) out.items = resolve(document, schema.items);
    if (schema.allOf) out.allOf = schema.allOf.map((part) => resolve(document, part)!);
    return out;
  }

  /** Each text field of a body schema, by its path, with a body that holds a lone surrogate there. */
  function textFieldsOf(schema: Schema | undefined, path: string[] = []): Array<[string, unknown]> {
    if (!schema || path.length > 6) return [];
    const part = schema.allOf?.[0] ?? schema;
    if (part.type === 'string' && path.length > 0) return [[path.join('.'), nest(path, '\ud800')]];
    if (part.type === 'array' && part.items) return textFieldsOf(part.items, [...path, '0']);
    return Object.entries(part.properties ?? {}).flatMap(([name, property]) => textFieldsOf(property, [...path, name]));
  }

  /**
   * A body of a second factor's answer (schema: the operation's): mostly exactly one answer, a
   * code, a recovery code or a passkey assertion, in shapes near the real ones, else the schema's
   * own values or a hostile one.
   */
  function secondFactorBody(schema: Schema): fc.Arbitrary<unknown> {
    const properties = schema.properties ?? {};
    const near = {
      code: fc.oneof(
        fc.stringMatching(/^\d{6}$/),
        fc.stringMatching(/^\d{1,16}$/),
        fc.constantFrom(' 123456', '123456\n', '12 34 56', '١٢٣٤٥٦', '１２３４５６', '-12345', '1e5', '0x1234'),
      ),
      recoveryCode: fc.oneof(
        fc.stringMatching(/^[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$/),
        fc.stringMatching(/^[A-Za-z0-9]{16}$/),
        fc.constantFrom('ABCD-EFGH-IJKL-MNOP', 'abcd-efgh-ijkl-mnop ', 'abcd--efgh-ijkl-mnop'),
      ),
      passkey: fc.record(
        {
          id: fc.base64String({ maxLength: 64 }),
          rawId: fc.oneof(fc.base64String({ maxLength: 64 }), hostileValue),
          type: fc.oneof(fc.constant('public-key'), hostileValue),
          response: fc.record(
            {
              clientDataJSON: fc.oneof(fc.base64String({ maxLength: 120 }), hostileValue),
              authenticatorData: fc.oneof(fc.base64String({ maxLength: 80 }), hostileValue),
              signature: fc.oneof(fc.base64String({ maxLength: 100 }), hostileValue),
              userHandle: fc.oneof(fc.base64String({ maxLength: 40 }), hostileValue),
            },
            { requiredKeys: [] },
          ),
          clientExtensionResults: fc.oneof(fc.constant({}), hostileValue),
        },
        { requiredKeys: ['id', 'response'] },
      ),
    };
    const oneAnswer = (Object.keys(near) as Array<keyof typeof near>)
      .filter((name) => name in properties)
      .map((name) =>
        fc.oneof({ weight: 3, arbitrary: near[name] }, valueOf(properties[name])).map((value) => ({ [name]: value })),
      );
    return fc.oneof(
      ...(oneAnswer.length ? [{ weight: 6, arbitrary: fc.oneof(...oneAnswer) }] : []),
      { weight: 2, arbitrary: valueOf(schema) },
      hostileValue,
    );
  }

  function isObject(value: unknown): value is Record<string, unknown> {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  }

  /** `{a: [{b: value}]}` for the path `a.0.b`. */
  function nest(path: string[], value: unknown): unknown {
    if (path.length === 0) return value;
    const inner = nest(path.slice(1), value);
    return path[0] === '0' ? [inner] : { [path[0]]: inner };
  }
}
