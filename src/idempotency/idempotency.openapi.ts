import type { OpenAPIObject } from '@nestjs/swagger';
import { IDEMPOTENCY_KEY_PARAMETER } from './idempotent-post.decorator';

type Operation = {
  security?: Array<Record<string, unknown>>;
  parameters?: Array<{ name?: string; in?: string }>;
  responses?: Record<string, { headers?: object }>;
};

/**
 * `Idempotent-Replayed: true` on the 2xx answers of every route that takes an Idempotency-Key
 * (contract §11); a route no key may call (a session's own, a public one) ignores the header, so
 * the document does not offer it there.
 */
export function describeIdempotentReplays(document: OpenAPIObject): OpenAPIObject {
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item) as Operation[]) {
      const keyed = operation?.parameters?.some((p) => p.in === 'header' && p.name === IDEMPOTENCY_KEY_PARAMETER);
      if (!keyed || !operation.responses) continue;
      if (!(operation.security ?? []).some((requirement) => 'bearer' in requirement)) {
        operation.parameters = operation.parameters!.filter((p) => p.name !== IDEMPOTENCY_KEY_PARAMETER);
        continue;
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!status.startsWith('2') || '$ref' in response) continue;
        response.headers = {
          ...response.headers,
          'Idempotent-Replayed': {
            description: 'true when this is the stored answer of an earlier request with the same Idempotency-Key',
            schema: { type: 'string', enum: ['true'] },
          },
        };
      }
    }
  }
  return document;
}
