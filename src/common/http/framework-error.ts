import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { describeError } from '../errors/error-description';
import { malformedUrl } from './malformed-url';

/**
 * Fastify's own refusals before routing (a path that does not decode, …) in the contract's
 * shape, with the request id in the body and X-Request-Id: no hook has run for these requests.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const { status, body, headers } = describeError(error.code === 'FST_ERR_BAD_URL' ? malformedUrl() : error);
  void reply
    .code(status)
    .headers({ ...headers, 'X-Request-Id': request.id })
    .send({ ...body, requestId: request.id });
}
