import { applyDecorators, Post, UseInterceptors } from '@nestjs/common';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/**
 * `@Post` with Idempotency-Key (contract §11: any POST a key makes may carry one). Bound per
 * route rather than globally: an interceptor costs every request Nest's observable pipeline,
 * which slowed the key-checked reads that can never use it (docs/performance.md, PERF-4).
 * test/idempotency-keys.e2e-spec.ts holds every POST route to it.
 */
export const IdempotentPost = (path?: string): MethodDecorator =>
  applyDecorators(Post(path), UseInterceptors(IdempotencyInterceptor));
