import type { OpenAPIObject } from '@nestjs/swagger';

type Components = NonNullable<OpenAPIObject['components']>;
type Header = NonNullable<Components['headers']>[string];
type Parameter = { name: string; in: string; required?: boolean; description?: string; schema?: object };
type Operation = {
  security?: Array<Record<string, unknown>>;
  parameters?: Parameter[];
  responses?: Record<string, { headers?: object }>;
};

/** The headers the service reads of a request beside its credential, declared where they count. */
const REQUEST_ID: Parameter = {
  name: 'X-Request-Id',
  in: 'header',
  required: false,
  description: "The caller's own id for the request (kept when it is plain), else one is made; either comes back",
  schema: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,64}$' },
};
const BRAND_ID: Parameter = {
  name: 'X-Brand-Id',
  in: 'header',
  required: false,
  description: 'With a session: the brand it acts in (default its first); a key acts in its own brand and ignores it',
  schema: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
};
const CSRF_TOKEN: Parameter = {
  name: 'X-CSRF-Token',
  in: 'header',
  required: false,
  description: "With the session cookie (not with Authorization): the session's csrfToken, or 403",
  schema: { type: 'string' },
};
const UNSAFE = new Set(['post', 'put', 'patch', 'delete']);

const HEADERS: Record<string, Header> = {
  'X-Request-Id': {
    description: "This request's id, also in every error body and log line: quote it when asking about a request",
    schema: { type: 'string' },
  },
  'Retry-After': {
    description: 'Seconds until the request may be tried again',
    schema: { type: 'integer', minimum: 1 },
  },
  'RateLimit-Policy': {
    description:
      'On answers to integration and site keys: the key\'s policies, `"burst";q=<n>;w=1, "window";q=<n>;w=10` (draft-ietf-httpapi-ratelimit-headers, structured fields)',
    schema: { type: 'string' },
  },
  RateLimit: {
    description:
      'On answers to integration and site keys: the policy closest to refusing, `"<policy>";r=<requests left>;t=<seconds until back>`',
    schema: { type: 'string' },
  },
};

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });

/**
 * The headers the service reads and sends, declared where they count (contract §20: a generated
 * client can set and read them). Read: a caller's X-Request-Id on every route, X-Brand-Id on a
 * session's routes whose path names no brand, X-CSRF-Token on a session's writes. Sent:
 * X-Request-Id on every answer, Retry-After on every 429 and 503, the rate-limit fields on every
 * answer of a route a key may call (one with Bearer security).
 */
export function describeResponseHeaders(document: OpenAPIObject): OpenAPIObject {
  document.components = { ...document.components, headers: { ...document.components?.headers, ...HEADERS } };
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item) as Array<[string, Operation]>) {
      if (!operation?.responses) continue;
      const session = (operation.security ?? []).some((requirement) => 'session' in requirement);
      operation.parameters = [
        ...(operation.parameters ?? []),
        REQUEST_ID,
        ...(session && !path.includes('{brandId}') ? [BRAND_ID] : []),
        ...(session && UNSAFE.has(method) ? [CSRF_TOKEN] : []),
      ];
      const keyed = (operation.security ?? []).some((requirement) => 'bearer' in requirement);
      for (const [status, response] of Object.entries(operation.responses)) {
        if ('$ref' in response) continue;
        response.headers = {
          ...response.headers,
          'X-Request-Id': ref('X-Request-Id'),
          ...(status === '429' || status === '503' ? { 'Retry-After': ref('Retry-After') } : {}),
          ...(keyed ? { 'RateLimit-Policy': ref('RateLimit-Policy'), RateLimit: ref('RateLimit') } : {}),
        };
      }
    }
  }
  return document;
}
