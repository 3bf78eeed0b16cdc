import type { Principal } from './principal';

/** Resolved once per request by the guard chain and passed to services as their first argument. */
export interface RequestContext {
  readonly requestId: string;
  readonly ip: string;
  readonly method: string;
  readonly path: string;
  principal: Principal | null;
  /** The brand the request acts in, or null when the endpoint needs none. */
  brandId: number | null;
}

/** The context of a brand-scoped route: the guard chain has settled the brand. */
export interface BrandContext extends RequestContext {
  brandId: number;
}

/** The context of work no request started (schedulers, workers): journaled with `path` naming it, no principal. */
export function systemContext(path: string): RequestContext {
  return { requestId: '', ip: '', method: '', path, principal: null, brandId: null };
}
