import { execFileSync } from 'node:child_process';
import path from 'node:path';
import request from 'supertest';
import { createProduct, issueKey, siteWithKey } from '../support/fixtures';
import { type SharedSuite, type Suite } from '../support/suite';

type Schema = {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  nullable?: boolean;
  anyOf?: Schema[];
  format?: string;
};
type Parameter = { name: string; in: string; schema: Schema };
type Document = {
  paths: Record<
    string,
    Record<string, { requestBody?: { content: Record<string, { schema: Schema }> }; parameters?: Parameter[] }>
  >;
  components: { schemas: Record<string, Schema> };
};

/** The integration reads whose query parameters are checked, with a key that may call each. */
const KEY_READS = [
  '/events',
  '/orders/admin/all',
  '/returns',
  '/catalog/products',
  '/inventory/stock',
  '/inventory/movements',
];

/** The integration routes a generated client calls with a key (contract §20), with the key each takes. */
const KEY_ROUTES: Array<{ method: 'post' | 'patch'; path: string; as: 'key' | 'site' }> = [
  { method: 'post', path: '/catalog/products', as: 'key' },
  { method: 'patch', path: '/catalog/products/{productId}', as: 'key' },
  { method: 'post', path: '/inventory/adjustments', as: 'key' },
  { method: 'post', path: '/orders/integrations/partner/webhook', as: 'key' },
  { method: 'post', path: '/orders/integrations/partner/preflight', as: 'key' },
  { method: 'post', path: '/orders/admin', as: 'key' },
  { method: 'post', path: '/returns', as: 'key' },
  { method: 'post', path: '/returns/{returnId}/receive', as: 'key' },
  { method: 'post', path: '/production-api/acceptances', as: 'site' },
];

const SAMPLES_PER_ROUTE = 25;

/** `schema` with every `$ref` replaced by what it names (the DTOs' schemas have no cycles). */
function resolved(schema: Schema, document: Document): Schema {
  if (schema.$ref) return resolved(document.components.schemas[schema.$ref.split('/').pop()!], document);
  const out: Schema = { ...schema };
  if (schema.properties)
    out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, resolved(v, document)]));
  if (schema.items) out.items = resolved(schema.items, document);
  return out;
}

/**
 * Ways a valid body stops matching its schema, one property at a time: each is a request the
 * document says is wrong, so the service must refuse it with a 400.
 */
function violations(body: Record<string, unknown>, schema: Schema, at = ''): Array<{ what: string; body: unknown }> {
  const found: Array<{ what: string; body: unknown }> = [];
  const withValue = (name: string, value: unknown) => ({ ...body, [name]: value });
  for (const name of schema.required ?? []) {
    const { [name]: _dropped, ...rest } = body;
    found.push({ what: `${at}${name} missing`, body: rest });
  }
  if (schema.additionalProperties === false) found.push({ what: `${at}unknown property`, body: withValue('zz', 1) });
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (property.anyOf) continue;
    const where = `${at}${name}`;
    if (property.type === 'string') {
      found.push({ what: `${where} not a string`, body: withValue(name, 5) });
      if (property.maxLength !== undefined)
        found.push({ what: `${where} too long`, body: withValue(name, 'x'.repeat(property.maxLength + 1)) });
      if (property.minLength) found.push({ what: `${where} too short`, body: withValue(name, '') });
      if (property.enum) found.push({ what: `${where} outside its enum`, body: withValue(name, 'not-in-enum') });
    }
    if (property.type === 'integer') {
      found.push({ what: `${where} not an integer`, body: withValue(name, 1.5) });
      found.push({ what: `${where} a string`, body: withValue(name, '1') });
      if (property.maximum !== undefined)
        found.push({ what: `${where} above its maximum`, body: withValue(name, property.maximum + 1) });
      if (property.minimum !== undefined)
        found.push({ what: `${where} below its minimum`, body: withValue(name, property.minimum - 1) });
    }
    if (property.type === 'boolean') found.push({ what: `${where} not a boolean`, body: withValue(name, 'true') });
    if (property.type === 'array') {
      found.push({ what: `${where} not a list`, body: withValue(name, {}) });
      if (property.minItems) found.push({ what: `${where} too few items`, body: withValue(name, []) });
      const held = body[name];
      if (property.maxItems !== undefined && Array.isArray(held) && held.length > 0)
        found.push({
          what: `${where} too many items`,
          body: withValue(
            name,
            Array.from({ length: property.maxItems + 1 }, () => held[0]),
          ),
        });
      if (property.items?.type === 'object' && Array.isArray(held) && held.length > 0)
        for (const wrong of violations(held[0] as Record<string, unknown>, property.items, `${where}[0].`))
          found.push({ what: wrong.what, body: withValue(name, [wrong.body, ...held.slice(1)]) });
    }
    if (property.type === 'object' && property.properties && body[name] && typeof body[name] === 'object')
      for (const wrong of violations(body[name] as Record<string, unknown>, property, `${where}.`))
        found.push({ what: wrong.what, body: withValue(name, wrong.body) });
  }
  return found;
}

/**
 * The served document as a property-based tester uses it (contract §20, after Schemathesis):
 * bodies json-schema-faker makes from each key route's schema are never refused as malformed (a
 * 400 would mean the document allows what the service refuses), and each way of breaking one
 * rule of the schema is (a 2xx would mean the service takes what the document forbids).
 */
export function describeOpenApiDataChecks(shared: SharedSuite): void {
  describe("the OpenAPI document's data, checked against the service", () => {
    let s: Suite;
    let document: Document;
    const ids: Record<string, string> = {};
    const auth: Record<'key' | 'site', Record<string, string>> = { key: {}, site: {} };
    const send = (method: 'post' | 'patch', route: string, as: 'key' | 'site', body: unknown) => {
      const url = route.replace(/\{(\w+)\}/g, (_m, name: string) => ids[name]);
      const call = method === 'post' ? request(s.t.http).post(url) : request(s.t.http).patch(url);
      return call.set(auth[as]).send(body as object);
    };
    const samplesOf = (schemas: Schema[]) =>
      JSON.parse(
        execFileSync(process.execPath, [path.join(__dirname, '../support/schema-samples.mjs')], {
          input: JSON.stringify({ schemas, components: document.components, count: SAMPLES_PER_ROUTE, seed: 20 }),
          encoding: 'utf8',
        }),
      ) as unknown[][];
    const bodySchema = (route: (typeof KEY_ROUTES)[number]) =>
      document.paths[route.path][route.method].requestBody!.content['application/json'].schema;

    beforeAll(async () => {
      s = shared.suite;
      document = (await request(s.t.http).get('/docs-json').expect(200)).body;
      const brand = await s.fx.brand();
      auth.key = (await issueKey(s.fx, brand, { fullAccess: true })).headers;
      auth.site = (await siteWithKey(s.fx, brand, 'data checks')).headers;
      const product = await createProduct(s.fx, brand, {
        article: 'DC-1',
        storefrontArticle: 'SF-DC-1',
        priceKopeks: 1000,
        sizes: [{ name: 'One', stock: 1000 }],
      });
      ids.productId = String(product.id);
      const order = await send('post', '/orders/integrations/partner/webhook', 'key', {
        partnerOrderId: 'DC-ORDER',
        recipient: { fullName: 'Data Checks', phone: '+79120000000' },
        items: [{ article: 'SF-DC-1', size: 'One', quantity: 3 }],
      }).expect(201);
      ids.orderId = String(order.body.order.id);
      const placed = await request(s.t.http).get(`/orders/admin/${ids.orderId}`).set(auth.key).expect(200);
      const made = await send('post', '/returns', 'key', {
        orderId: order.body.order.id,
        externalReturnId: 'DC-RETURN',
        reasonCode: document.components.schemas.CreateReturnDto.properties!.reasonCode.enum![0],
        items: [{ orderItemId: placed.body.items[0].id, quantity: 1 }],
      }).expect(201);
      ids.returnId = String(made.body.return.id);
    });

    it('refuses none of the bodies the schemas allow as malformed', async () => {
      const samples = samplesOf(KEY_ROUTES.map(bodySchema));
      const refused: string[] = [];
      for (const [i, route] of KEY_ROUTES.entries()) {
        for (const body of samples[i]) {
          const response = await send(route.method, route.path, route.as, body);
          if (response.status === 400 || response.status >= 500)
            refused.push(
              `${route.method.toUpperCase()} ${route.path} ${JSON.stringify(body).slice(0, 200)} → ${response.status} ${JSON.stringify(response.body.details ?? response.body.error)}`,
            );
        }
      }
      expect(refused).toEqual([]);
    });

    it('refuses every body that breaks one rule of its schema with a 400', async () => {
      const samples = samplesOf(KEY_ROUTES.map(bodySchema));
      const taken: string[] = [];
      for (const [i, route] of KEY_ROUTES.entries()) {
        const schema = resolved(bodySchema(route), document);
        for (const wrong of violations(samples[i][0] as Record<string, unknown>, schema)) {
          const response = await send(route.method, route.path, route.as, wrong.body);
          if (response.status !== 400)
            taken.push(`${route.method.toUpperCase()} ${route.path}: ${wrong.what} → ${response.status}`);
        }
      }
      expect(taken).toEqual([]);
    });

    it("takes each key read's query values at the ends of their ranges and refuses those past them", async () => {
      const wrong: string[] = [];
      for (const route of KEY_READS) {
        for (const { name, schema } of (document.paths[route].get.parameters ?? []).filter((p) => p.in === 'query')) {
          const cases: Array<[string, boolean]> = [];
          if (schema.type === 'integer') {
            // The longest wait is the long-poll suites' to spend, not this one's.
            const high = name === 'waitSeconds' ? undefined : schema.maximum;
            cases.push([String(schema.minimum ?? 1), true], ['1.5', false], ['x', false]);
            if (high !== undefined) cases.push([String(high), true]);
            if (schema.maximum !== undefined) cases.push([String(schema.maximum + 1), false]);
            if (schema.minimum !== undefined) cases.push([String(schema.minimum - 1), false]);
          }
          if (schema.enum)
            cases.push(...schema.enum.map((v): [string, boolean] => [String(v), true]), ['not-in-enum', false]);
          if (schema.format === 'date-time') cases.push(['2026-01-02T03:04:05Z', true], ['yesterday', false]);
          for (const [value, valid] of cases) {
            const response = await request(s.t.http)
              .get(`${route}?${name}=${encodeURIComponent(value)}`)
              .set(auth.key);
            if ((response.status === 400) === valid) wrong.push(`GET ${route}?${name}=${value} → ${response.status}`);
          }
        }
      }
      expect(wrong).toEqual([]);
    });
  });
}
