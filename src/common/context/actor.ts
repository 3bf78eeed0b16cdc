import type { PrincipalKind } from './principal';
import type { RequestContext } from './request-context';

/** Who made a change, as the ledger and the events record it: the request's principal, or none. */
export interface Actor {
  kind: PrincipalKind | null;
  id: number | null;
}

export const actorOf = (ctx: RequestContext): Actor => ({
  kind: ctx.principal?.kind ?? null,
  id: ctx.principal?.id ?? null,
});
