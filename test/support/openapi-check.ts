import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import request from 'supertest';
import type { TestApp } from './test-app';

interface Operation {
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}
interface MessageEntry {
  post: { requestBody: { content: { 'application/json': { schema: unknown } } } };
}
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
  'x-webhooks'?: Record<string, MessageEntry>;
};

/**
 * Holds the OpenAPI document the service publishes at /docs-json to its real answers: every
 * answer checked must have its status documented for its operation, and its body must match the
 * documented schema exactly (no field missing, none extra, types, enums and nullability as
 * written). What a client generated from the document expects is then what it gets.
 */
export class OpenApiCheck {
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly seen = new Set<string>();

  private constructor(private readonly document: Document) {}

  static async load(http: TestApp['http']): Promise<OpenApiCheck> {
    const response = await request(http).get('/docs-json').expect(200);
    return new OpenApiCheck(response.body as Document);
  }

  /** Problems of one answer: an undocumented status, or a body that differs from the schema. */
  problems(method: string, url: string, status: number, body: unknown): string[] {
    const route = this.route(url.split('?')[0]);
    if (!route) return [`${method} ${url}: no such path in the document`];
    const operation = this.document.paths[route]?.[method.toLowerCase()];
    if (!operation) return [`${method} ${route}: no such operation in the document`];
    const key = `${method.toUpperCase()} ${route} ${status}`;
    const response = operation.responses[String(status)] ?? (status >= 400 ? operation.responses.default : undefined);
    if (!response) return [`${key}: status not documented`];
    this.seen.add(key);
    const schema = response.content?.['application/json']?.schema;
    // A body of another documented type (the catalog export's CSV) is text, not JSON to validate.
    if (!schema && Object.keys(response.content ?? {}).length > 0) return [];
    if (!schema) return status === 204 || body === undefined || body === '' ? [] : [`${key}: body not documented`];
    const validate = this.validator(key, schema);
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${key}: ${e.instancePath || '/'} ${e.message}`);
  }

  /** The event types whose messages the document describes (`x-webhooks`). */
  messageTypes(): string[] {
    return Object.keys(this.document['x-webhooks'] ?? {});
  }

  /** Problems of a webhook message's body, held to the `x-webhooks` entry of its type. */
  messageProblems(body: Record<string, unknown>): string[] {
    const type = String(body.type);
    const entry = this.document['x-webhooks']?.[type];
    if (!entry) return [`${type}: no x-webhooks entry`];
    const validate = this.validator(`message ${type}`, entry.post.requestBody.content['application/json'].schema);
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${type}: ${e.instancePath || '/'} ${e.message}`);
  }

  /** The documented 2xx answers of every operation that no check has seen. */
  unseenSuccesses(): string[] {
    const unseen: string[] = [];
    for (const [path, item] of Object.entries(this.document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const status of Object.keys(operation.responses).filter((s) => /^2\d\d$/.test(s))) {
          const key = `${method.toUpperCase()} ${path} ${status}`;
          if (!this.seen.has(key)) unseen.push(key);
        }
      }
    }
    return unseen;
  }

  private route(path: string): string | undefined {
    return Object.keys(this.document.paths).find((template) =>
      new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path),
    );
  }

  private validator(key: string, schema: unknown): ValidateFunction {
    let validate = this.validators.get(key);
    if (!validate) {
      const ajv = new Ajv({ strict: false, allErrors: true });
      addFormats(ajv);
      const components = strict(this.document.components);
      validate = ajv.compile({ ...(strict(schema) as object), components });
      this.validators.set(key, validate);
    }
    return validate;
  }
}

/**
 * The schema as an exact contract: objects with listed properties take no others. A nullable
 * enum must list null itself (OpenAPI 3.0.3: `nullable` does not extend an enum), as clients'
 * validators read it.
 */
function strict(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strict);
  if (!node || typeof node !== 'object') return node;
  const copy = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, strict(v)])) as Record<string, unknown>;
  if (copy.properties && copy.additionalProperties === undefined) copy.additionalProperties = false;
  if (copy.nullable === true && copy.allOf) return { anyOf: [{ allOf: copy.allOf }, { type: 'null' }] };
  return copy;
}
