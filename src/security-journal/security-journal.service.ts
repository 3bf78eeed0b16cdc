import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { RequestContext } from '../common/context/request-context';
import { JournalEntryEntity } from './journal-entry.entity';

export type JournalType =
  | 'brand_violation'
  | 'integration_key_issued'
  | 'integration_key_revoked'
  | 'site_key_issued'
  | 'site_key_revoked'
  | 'production_site_updated'
  | 'payment_amount_mismatch';

export interface JournalEvent {
  type: JournalType;
  brandId: number | null;
  targetBrandId?: number | null;
  details?: Record<string, unknown>;
  /** For callers that are no principal (signed webhooks); otherwise the request's principal. */
  actor?: { kind: 'webhook'; id: null };
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
}

export interface JournalQuery {
  brandId?: number;
  limit: number;
  beforeId?: number;
}

@Injectable()
export class SecurityJournal {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Writes on its own connection, outside any transaction of the request: a denied request
   * rolls back its own work, never the record of the attempt.
   */
  async record(ctx: RequestContext, event: JournalEvent): Promise<void> {
    await this.insert(this.db.manager, ctx, event);
  }

  /** Writes inside the caller's transaction, for entries that must stand or fall with the change. */
  async recordWith(manager: EntityManager, ctx: RequestContext, event: JournalEvent): Promise<void> {
    await this.insert(manager, ctx, event);
  }

  /**
   * Newest first by time, then id: `at` is the writing transaction's start, so entries of
   * concurrent requests get ids in another order than their times. `before` pages on from an
   * entry by the same order. A brand's journal holds entries about it as the actor's brand or as
   * the target.
   */
  async list(query: JournalQuery): Promise<JournalEntryView[]> {
    const builder = this.db
      .getRepository(JournalEntryEntity)
      .createQueryBuilder('j')
      .orderBy('j.at', 'DESC')
      .addOrderBy('j.id', 'DESC')
      .limit(query.limit);
    if (query.brandId !== undefined) {
      builder.where('(j.brand_id = :brandId OR j.target_brand_id = :brandId)', { brandId: query.brandId });
    }
    if (query.beforeId !== undefined) {
      builder.andWhere('(j.at, j.id) < (SELECT b.at, b.id FROM security_journal b WHERE b.id = :beforeId)', {
        beforeId: query.beforeId,
      });
    }
    return (await builder.getMany()).map(toView);
  }

  private async insert(manager: EntityManager, ctx: RequestContext, event: JournalEvent): Promise<void> {
    await manager.query(
      `INSERT INTO security_journal (type, brand_id, target_brand_id, actor_kind, actor_id, method, path, ip, details)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        event.type,
        event.brandId,
        event.targetBrandId ?? null,
        event.actor?.kind ?? ctx.principal?.kind ?? null,
        event.actor ? event.actor.id : (ctx.principal?.id ?? null),
        ctx.method,
        ctx.path.slice(0, 2048),
        ctx.ip.slice(0, 64),
        JSON.stringify(event.details ?? {}),
      ],
    );
  }
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
  };
  if (entry.targetBrandId !== null) view.targetBrandId = entry.targetBrandId;
  return view;
}
