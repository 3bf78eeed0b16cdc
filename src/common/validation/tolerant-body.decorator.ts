import { createParamDecorator, type ExecutionContext, type Type } from '@nestjs/common';
import { ApiBody, ApiExtension } from '@nestjs/swagger';
import { READS_BODY } from './unread-body.guard';
import { createValidationPipe } from './validation.pipe';

/** The OpenAPI extension that marks an operation whose body may carry properties it does not read. */
export const TOLERANT_BODY_EXTENSION = 'x-ignores-unknown-properties';

const requestBody = createParamDecorator(
  (_data: unknown, context: ExecutionContext): unknown => context.switchToHttp().getRequest<{ body?: unknown }>().body,
);

/**
 * `@Body()` for a route whose callers send more than it reads (the storefront webhook and its
 * preflight: a storefront posts its whole order form): a property the DTO does not name is dropped
 * instead of refused, and `null` is taken for absent. Declared on the route, so the rule is
 * visible where the route is; every other body is strict (the global pipe). A parameter of its
 * own kind, since the global pipe runs before any pipe of a `@Body()` and would refuse first; the
 * global pipe leaves custom parameters alone.
 */
export function TolerantBody(): ParameterDecorator {
  return (target, key, index) => {
    if (key === undefined) throw new Error('TolerantBody marks a parameter of a route handler');
    const types = Reflect.getMetadata('design:paramtypes', target, key) as Type[];
    requestBody(undefined, TOLERANT_PIPE)(target, key, index);
    const descriptor = Object.getOwnPropertyDescriptor(target, key)!;
    ApiBody({ type: types[index], required: true })(target, key, descriptor);
    ApiExtension(TOLERANT_BODY_EXTENSION, true)(target, key, descriptor);
    Reflect.defineMetadata(READS_BODY, true, descriptor.value as object);
  };
}

const TOLERANT_PIPE = createValidationPipe('ignore');
