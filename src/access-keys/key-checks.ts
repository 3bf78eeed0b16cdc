import { Injectable } from '@nestjs/common';
import { contextOf } from '../common/context/context-of';
import type { HttpRequest } from '../common/context/http-types';
import type { Permission } from '../common/context/permissions';
import type { RequestContext } from '../common/context/request-context';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { headerOf } from '../common/http/header-of';
import { RateLimitGuard } from '../common/rate-limit/rate-limit.guard';
import { BoundedMap } from '../common/runtime/bounded-map';
import { SecurityJournal } from '../security-journal/security-journal.service';
import { isAllowed } from './address-allowlist';
import { fingerprintOf, isWellFormedIntegrationKey } from './integration-key-format';
import { IntegrationKeyPrincipal, rateLimitKeyOf } from './integration-key.principal';
import { IntegrationKeysService } from './integration-keys.service';
import type { PendingKeyCheck } from './statement-key/pending-key-check';
import { verifiedKeyRowOf, type KeyCheckOutcome } from './verify-key.query';

const MAX_KNOWN_KEYS = 10_000;

/**
 * The integration key check with its 401s and 403s, whether a guard runs it (`check`) or a
 * route's statement carries it (`defer`, then `settle` with the statement's KeyCheckSql.outcome).
 * Both end in the same principal and the same answers.
 */
@Injectable()
export class KeyChecks {
  /**
   * The keys this instance has found good, by rateLimitKeyOf(fingerprint). A key's id, brand and
   * permissions never change, so they never go stale; whether the key is still good is always
   * read again, by the guard's check or by the route's statement.
   */
  private readonly known = new BoundedMap<string, IntegrationKeyPrincipal>(MAX_KNOWN_KEYS);
  private readonly pending = new WeakMap<RequestContext, PendingKeyCheck>();

  constructor(
    private readonly keys: IntegrationKeysService,
    private readonly journal: SecurityJournal,
    private readonly rateLimit: RateLimitGuard,
  ) {}

  /**
   * The guard's check: one query. `counted`: the rate limit has counted this request already
   * (a deferred check settled alone runs after the guards).
   */
  async check(token: string, request: HttpRequest, counted = false): Promise<IntegrationKeyPrincipal> {
    const ctx = contextOf(request);
    return this.remember(await this.admit(ctx, await this.keys.verify(token, ctx.ip), counted ? null : request));
  }

  /**
   * For a route whose statement checks the key (`@KeyCheckedByStatement`): a key this instance
   * knows acts in its brand with its permissions, and its liveness is left to the statement
   * (`pendingOf`). A key not known yet, or one whose request carries an Idempotency-Key (the
   * key scopes that record, which is taken before the statement runs), is checked now.
   */
  defer(
    token: string,
    request: HttpRequest,
    permission: Permission | null,
  ): IntegrationKeyPrincipal | Promise<IntegrationKeyPrincipal> {
    if (!isWellFormedIntegrationKey(token)) throw AppError.unauthorized();
    const fingerprint = fingerprintOf(token);
    const known = this.known.get(rateLimitKeyOf(fingerprint));
    if (!known || headerOf(request, 'idempotency-key') !== undefined) return this.check(token, request);
    const ctx = contextOf(request);
    this.pending.set(ctx, {
      fingerprint,
      permission,
      settleAlone: async () => {
        if (!this.pending.delete(ctx)) return;
        ctx.principal = await this.check(token, request, true);
      },
    });
    return known;
  }

  /**
   * The id of the good key a request presented when no guard looked at it (refused before
   * routing or the guards: a body too large, malformed JSON, an unknown route), or null: the
   * request log counts such requests for their key. One query, as the guard's check.
   */
  async identify(token: string, ip: string): Promise<number | null> {
    return (await this.keys.verify(token, ip))?.id ?? null;
  }

  /** The id of a key this instance has found good, by its fingerprint, without a query; or null. */
  knownIdOf(fingerprint: Buffer): number | null {
    return this.known.get(rateLimitKeyOf(fingerprint))?.id ?? null;
  }

  /** The key check this request's statement is to make, until it is settled. */
  pendingOf(ctx: RequestContext): PendingKeyCheck | undefined {
    return this.pending.get(ctx);
  }

  /**
   * Settles a pending key with what its statement read. Throws the 401/403 the guards would
   * have; otherwise the request's principal is the key as read now, and `acted` tells whether
   * the statement did its work (false for a good key it could not judge: an address allowlist;
   * the caller then runs its ordinary statement).
   */
  async settle(ctx: RequestContext, outcome: KeyCheckOutcome): Promise<{ acted: boolean }> {
    const pending = this.pending.get(ctx);
    if (!pending) throw new Error('settle: this request has no pending key check');
    this.pending.delete(ctx);
    const row = outcome.row && verifiedKeyRowOf(outcome.row);
    ctx.principal = this.remember(await this.admit(ctx, this.keys.principalOf(row, pending.fingerprint, ctx.ip), null));
    return { acted: outcome.acted };
  }

  /**
   * A found key from an allowed address, or the 401 / journaled 403. `uncounted`: the request,
   * when the rate limit has not counted it yet; a refusal by address is counted first, so past
   * the key's limit it is a 429 like any other request and writes no journal entry.
   */
  private async admit(
    ctx: RequestContext,
    principal: IntegrationKeyPrincipal | null,
    uncounted: HttpRequest | null,
  ): Promise<IntegrationKeyPrincipal> {
    if (!principal) throw AppError.unauthorized();
    // Before any permission: a key pinned to addresses works from those only (contract §12).
    if (principal.allowedIps && !isAllowed(principal.allowedIps, ctx.ip)) {
      ctx.principal = principal;
      if (uncounted) await this.rateLimit.countBeforeRefusal(uncounted);
      await this.journal.recordRepeated(
        ctx,
        {
          type: 'ip_not_allowed',
          brandId: principal.boundBrandId,
          details: { keyId: principal.id, name: principal.name, ip: ctx.ip },
        },
        `${principal.id}:${ctx.ip}`,
      );
      throw AppError.forbidden(ErrorText.addressNotAllowed);
    }
    return principal;
  }

  private remember(principal: IntegrationKeyPrincipal): IntegrationKeyPrincipal {
    this.known.set(principal.rateLimitKey, principal);
    return principal;
  }
}
