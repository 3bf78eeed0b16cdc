import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { RequestContext } from '../context/request-context';
import { contextOf } from '../context/context-of';

/** Injects the request context the guard chain resolved. */
export const Ctx = createParamDecorator((_: unknown, execution: ExecutionContext): RequestContext =>
  contextOf(execution.switchToHttp().getRequest()),
);
