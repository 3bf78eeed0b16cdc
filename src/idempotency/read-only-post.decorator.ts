import { applyDecorators, Post, SetMetadata } from '@nestjs/common';

export const READ_ONLY_POST = 'readOnlyPost';

/**
 * `@Post` for a route that changes nothing (a POST only because its input is a body): not bound
 * to the Idempotency-Key interceptor, so a key it is sent with is neither claimed nor recorded,
 * and a repeat is simply answered again. test/idempotency-keys.e2e-spec.ts holds every other POST
 * route to IdempotentPost.
 */
export const ReadOnlyPost = (path?: string): MethodDecorator =>
  applyDecorators(Post(path), SetMetadata(READ_ONLY_POST, true));
