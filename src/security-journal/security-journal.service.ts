import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../common/context/request-context';
import { withoutSecrets } from '../common/runtime/without-secrets';
import type { Tx } from '../database/transactions';
import type { JournalEntryEntity } from './journal-entry.entity';
import { SecurityJournalRepository } from './security-journal.repository';

export type JournalType =
  | 'brand_violation'
  | 'integration_key_issued'
  | 'integration_key_revoked'
  | 'integration_key_rolled'
  | 'integration_key_updated'
  | 'integration_key_expiring'
  | 'ip_not_allowed'
  | 'site_key_issued'
  | 'site_key_revoked'
  | 'production_site_updated'
  | 'payment_amount_mismatch'
  | 'payment_for_cancelled_order'
  | 'webhook_endpoint_created'
  | 'webhook_endpoint_updated'
  | 'webhook_endpoint_deleted'
  | 'webhook_endpoint_secret_rotated'
  | 'webhook_endpoint_disabled'
  | 'personal_data_erased'
  | 'personal_data_exported'
  // The store's team (contract §19): in the brand's journal.
  | 'member_invited'
  | 'invitation_accepted'
  | 'invitation_revoked'
  | 'membership_changed'
  | 'security_policy_changed'
  // An account's own (contract §19): no brand, the account as actor.
  | 'user_signed_in'
  | 'user_sign_in_failed'
  | 'password_changed'
  | 'password_reset_requested'
  | 'password_reset'
  | 'session_ended'
  | 'second_factor_enabled'
  | 'second_factor_disabled'
  | 'passkey_added'
  | 'passkey_removed'
  | 'recovery_code_used'
  | 'recovery_codes_regenerated';

export interface JournalEvent {
  type: JournalType;
  brandId: number | null;
  targetBrandId?: number | null;
  details?: Record<string, unknown>;
  /**
   * For callers that are no principal (signed webhooks), or an account acting before it has a
   * session (a sign-in, a reset); otherwise the request's principal.
   */
  actor?: { kind: 'webhook'; id: null } | { kind: 'user'; id: number };
}

export interface JournalEntryView {
  id: number;
  at: string;
  type: string;
  brandId: number | null;
  actor: { kind: string; id: number | null } | null;
  targetBrandId?: number;
  method: string | null;
  path: string | null;
  ip: string | null;
  details: Record<string, unknown>;
  count: number;
}

export interface JournalQuery {
  brandId?: number;
  /** An account's own entries: no brand, the account as actor (GET /auth/activity). */
  accountId?: number;
  limit: number;
  beforeId?: number;
  types?: string[];
}

@Injectable()
export class SecurityJournal {
  constructor(private readonly entries: SecurityJournalRepository) {}

  /**
   * Writes on its own connection, outside any transaction of the request: a denied request
   * rolls back its own work, never the record of the attempt.
   */
  async record(ctx: RequestContext, event: JournalEvent): Promise<void> {
    await this.entries.insert(toRow(ctx, event));
  }

  /**
   * As `record`, for a refusal a sender can repeat at its own rate: the same refusal (`sameAs`
   * names what makes it the same, e.g. its key and address) within one minute is one entry
   * with a count, so the journal grows with minutes, not with the sender's requests.
   */
  async recordRepeated(ctx: RequestContext, event: JournalEvent, sameAs: string): Promise<void> {
    await this.entries.insertRepeated(toRow(ctx, event), `${event.type}:${sameAs}`);
  }

  /** Writes inside the caller's transaction, for entries that must stand or fall with the change. */
  async recordWith(tx: Tx, ctx: RequestContext, event: JournalEvent): Promise<void> {
    await this.entries.insert(toRow(ctx, event), tx);
  }

  /**
   * Newest first by time, then id: `at` is the writing transaction's start, so entries of
   * concurrent requests get ids in another order than their times. `before` pages on from an
   * entry by the same order. A brand's journal holds entries about it as the actor's brand or as
   * the target.
   */
  async list(query: JournalQuery): Promise<JournalEntryView[]> {
    return (await this.entries.newestFirst(query)).map(toView);
  }
}

function toRow(ctx: RequestContext, event: JournalEvent) {
  return {
    type: event.type,
    brandId: event.brandId,
    targetBrandId: event.targetBrandId ?? null,
    actorKind: event.actor?.kind ?? ctx.principal?.kind ?? null,
    actorId: event.actor ? event.actor.id : (ctx.principal?.id ?? null),
    method: ctx.method,
    // A path may carry an invitation's or a reset's token (contract §19: never in an entry).
    path: withoutSecrets(ctx.path, 2048),
    ip: ctx.ip.slice(0, 64),
    details: event.details ?? {},
  };
}

function toView(entry: JournalEntryEntity): JournalEntryView {
  const view: JournalEntryView = {
    id: Number(entry.id),
    at: entry.at.toISOString(),
    type: entry.type,
    brandId: entry.brandId,
    actor: entry.actorKind ? { kind: entry.actorKind, id: entry.actorId } : null,
    method: entry.method,
    path: entry.path,
    ip: entry.ip,
    details: entry.details,
    count: entry.count,
  };
  if (entry.targetBrandId !== null) view.targetBrandId = entry.targetBrandId;
  return view;
}
