import type { HttpRequest } from '../common/context/http-types';
import type { RequestContext } from '../common/context/request-context';
import { headerOf } from '../common/http/header-of';
import type { SessionClient } from './sessions.service';

/** Where a sign-in comes from: the client address (TRUST_PROXY) and the browser's own name. */
export function clientOf(ctx: RequestContext, request: HttpRequest): SessionClient {
  return { ip: ctx.ip, userAgent: headerOf(request, 'user-agent') };
}
