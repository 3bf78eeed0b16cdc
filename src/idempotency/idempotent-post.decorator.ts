import { applyDecorators, Post, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { IdempotencyInterceptor } from './idempotency.interceptor';

export const IDEMPOTENCY_KEY_PARAMETER = 'Idempotency-Key';

/**
 * `@Post` with Idempotency-Key (contract §11: any POST a key makes may carry one). Bound per
 * route rather than globally: an interceptor costs every request Nest's observable pipeline,
 * which slowed the key-checked reads that can never use it (docs/performance.md, PERF-4).
 * test/idempotency-keys.e2e-spec.ts holds every POST route to it.
 */
export const IdempotentPost = (path?: string): MethodDecorator =>
  applyDecorators(
    Post(path),
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: IDEMPOTENCY_KEY_PARAMETER,
      required: false,
      description:
        'With an integration or site key: any unique text per intended change; a retry with the same key and body gets the first answer again (24 hours), another request with it 422',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
    }),
  );
