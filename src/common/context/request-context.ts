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
