import { Injectable } from '@nestjs/common';
import { contextOf } from '../common/context/context-of';
import type { HttpRequest } from '../common/context/http-types';
import type { PendingKeyCheck } from '../common/context/pending-key-check';
import type { Permission } from '../common/context/permissions';
import type { RequestContext } from '../common/context/request-context';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { SecurityJournal } from '../security-journal/security-journal.service';
import { isAllowed } from './address-allowlist';
import { fingerprintOf, isWellFormedIntegrationKey } from './integration-key-format';
import { IntegrationKeyPrincipal, PendingIntegrationKeyPrincipal, rateLimitKeyOf } from './integration-key.principal';
import { IntegrationKeysService } from './integration-keys.service';
import { verifiedKeyRowOf, type KeyCheckOutcome } from './verify-key.query';
import { BoundedMap } from '../common/runtime/bounded-map';

// Which brand a key belongs to, by fingerprint; a key never changes brand, so this never goes stale.
const MAX_KNOWN_BRANDS = 10_000;

/**
 * The integration key check with its 401s and 403s, whether a guard runs it (`check`) or a
 * route's statement carries it (`defer`, then `settle` with the statement's KeyCheckSql.outcome).
 * Both end in the same principal and the same answers.
 */
@Injectable()
export class KeyChecks {
  private readonly brands = new BoundedMap<string, number>(MAX_KNOWN_BRANDS);

  constructor(
    private readonly keys: IntegrationKeysService,
    private readonly journal: SecurityJournal,
  ) {}

  /** The guard's check: one query. */
  async check(token: string, request: HttpRequest): Promise<IntegrationKeyPrincipal> {
    const ctx = contextOf(request);
    return this.admit(ctx, await this.keys.verify(token, ctx.ip));
  }

  /** Leaves the check to the route's statement; a malformed key is refused here, without I/O. */
  defer(token: string, request: HttpRequest): PendingIntegrationKeyPrincipal {
    if (!isWellFormedIntegrationKey(token)) throw AppError.unauthorized();
    const ctx = contextOf(request);
    const fingerprint = fingerprintOf(token);
    const pending: PendingKeyCheck = {
      fingerprint,
      permission: null,
      knownBrandId: this.brands.get(rateLimitKeyOf(fingerprint)) ?? null,
      settleAlone: async () => {
        ctx.pendingKey = undefined;
        this.enter(ctx, await this.check(token, request), pending.permission);
      },
    };
    ctx.pendingKey = pending;
    return new PendingIntegrationKeyPrincipal(rateLimitKeyOf(fingerprint));
  }

  /**
   * Settles a pending key with what its statement read. Throws the 401/403 the guards would
   * have; otherwise the request's principal and brand are the key's, and `acted` tells whether
   * the statement did its work (false for a good key it could not judge: an address allowlist;
   * the caller then runs its ordinary statement).
   */
  async settle(ctx: RequestContext, outcome: KeyCheckOutcome): Promise<{ acted: boolean }> {
    const pending = ctx.pendingKey;
    if (!pending) throw new Error('settle: this request has no pending key check');
    ctx.pendingKey = undefined;
    const row = outcome.row && verifiedKeyRowOf(outcome.row);
    const principal = await this.admit(ctx, this.keys.principalOf(row, pending.fingerprint, ctx.ip));
    this.enter(ctx, principal, pending.permission);
    return { acted: outcome.acted };
  }

  /** A found key from an allowed address, or the 401 / journaled 403. */
  private async admit(
    ctx: RequestContext,
    principal: IntegrationKeyPrincipal | null,
  ): Promise<IntegrationKeyPrincipal> {
    if (!principal) throw AppError.unauthorized();
    // Before any permission: a key pinned to addresses works from those only (contract §12).
    if (principal.allowedIps && !isAllowed(principal.allowedIps, ctx.ip)) {
      ctx.principal = principal;
      await this.journal.record(ctx, {
        type: 'ip_not_allowed',
        brandId: principal.boundBrandId,
        details: { keyId: principal.id, name: principal.name, ip: ctx.ip },
      });
      throw AppError.forbidden(ErrorText.addressNotAllowed);
    }
    return principal;
  }

  /** What the brand and permission guards do for a checked key. */
  private enter(ctx: RequestContext, principal: IntegrationKeyPrincipal, permission: Permission | null): void {
    ctx.principal = principal;
    ctx.brandId = principal.boundBrandId;
    this.brands.set(principal.rateLimitKey, principal.boundBrandId);
    if (permission !== null && !principal.permissionsIn(principal.boundBrandId).has(permission as never)) {
      throw AppError.forbidden(ErrorText.missingPermission(permission));
    }
  }
}
