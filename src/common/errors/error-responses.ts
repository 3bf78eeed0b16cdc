import type { OpenAPIObject } from '@nestjs/swagger';
import { ErrorBody } from '../dto/error-body';

const ERROR_BODY = { $ref: `#/components/schemas/${ErrorBody.name}` };

/**
 * Gives every error answer of the document its body: each documented 4xx and 5xx, and a
 * `default` for the ones every route can give (400 for a malformed body or parameter, 413, 415,
 * 429, 503), so a generated client types every failure as ErrorBody.
 */
export function describeErrorBodies(document: OpenAPIObject): OpenAPIObject {
  for (const item of Object.values(document.paths)) {
    for (const operation of [item.get, item.put, item.post, item.delete, item.patch]) {
      if (!operation) continue;
      operation.responses.default ??= { description: 'Any other error' };
      for (const [status, response] of Object.entries(operation.responses)) {
        if (response && (status === 'default' || Number(status) >= 400) && !('$ref' in response)) {
          response.content = { 'application/json': { schema: ERROR_BODY } };
        }
      }
    }
  }
  return document;
}
