import type { OpenAPIObject } from '@nestjs/swagger';

type Components = NonNullable<OpenAPIObject['components']>;
type Header = NonNullable<Components['headers']>[string];
type Operation = { security?: Array<Record<string, unknown>>; responses?: Record<string, { headers?: object }> };

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
 * The headers every answer carries, declared where they are sent (contract §20: a generated
 * client can read them): X-Request-Id on every answer, Retry-After on every 429 and 503, the
 * rate-limit fields on every answer of a route a key may call (one with Bearer security).
 */
export function describeResponseHeaders(document: OpenAPIObject): OpenAPIObject {
  document.components = { ...document.components, headers: { ...document.components?.headers, ...HEADERS } };
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item) as Operation[]) {
      if (!operation?.responses) continue;
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
