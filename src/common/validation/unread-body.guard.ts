import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { AppError } from '../errors/app-error';
import { ErrorText } from '../errors/error-texts';

/** Set on a handler whose body reaches it through a parameter decorator of our own (TolerantBody). */
export const READS_BODY = 'readsBody';

const BODY_KEY_PREFIX = `${RouteParamtypes.BODY}:`;

/** Whether a handler takes its body: a `@Body()` parameter, or one marked READS_BODY. */
export function readsBody(cls: object, handler: { name: string }): boolean {
  if (Reflect.getMetadata(READS_BODY, handler) === true) return true;
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, cls, handler.name) ?? {}) as Record<string, unknown>;
  return Object.keys(args).some((key) => key.startsWith(BODY_KEY_PREFIX));
}

/**
 * A route that takes no body (revoke, rotate-secret, approve, …) refuses one with anything in it,
 * as a route with a DTO refuses what its DTO does not name (validation.pipe.ts): a `null`, a list,
 * a bare value or an object with any property is a request the client thinks says more than it
 * does. No body and `{}` pass. The last of the global guards, so a caller's 401 or 403 comes first,
 * as it does before the pipe's 400; the handler's answer is read once (decorators are fixed by
 * then), so a request costs one lookup.
 */
@Injectable()
export class UnreadBodyGuard implements CanActivate {
  private readonly takesBody = new WeakMap<object, boolean>();

  canActivate(execution: ExecutionContext): boolean {
    const body = execution.switchToHttp().getRequest<{ body?: unknown }>().body;
    if (body === undefined || this.reads(execution)) return true;
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw AppError.badRequest([ErrorText.bodyNotObject]);
    const properties = Object.keys(body);
    if (properties.length > 0) throw AppError.badRequest(properties.map((name) => ErrorText.unknownProperty(name)));
    return true;
  }

  private reads(execution: ExecutionContext): boolean {
    const handler = execution.getHandler();
    let known = this.takesBody.get(handler);
    if (known === undefined) this.takesBody.set(handler, (known = readsBody(execution.getClass(), handler)));
    return known;
  }
}
