import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Tx } from '../database/transactions';
import { JournalEntryEntity } from './journal-entry.entity';

export interface JournalRow {
  type: string;
  brandId: number | null;
  targetBrandId: number | null;
  actorKind: string | null;
  actorId: number | null;
  method: string;
  path: string;
  ip: string;
  details: Record<string, unknown>;
}

/** An entry's values in the order of the insert's columns (type … details). */
const valuesOf = (entry: JournalRow): unknown[] => [
  entry.type,
  entry.brandId,
  entry.targetBrandId,
  entry.actorKind,
  entry.actorId,
  entry.method,
  entry.path,
  entry.ip,
  JSON.stringify(entry.details),
];

/** The security_journal table. */
@Injectable()
export class SecurityJournalRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** In the caller's transaction when `tx` is given, else on a connection of its own. */
  async insert(entry: JournalRow, tx?: Tx): Promise<void> {
    await (tx ?? this.db).query(
      `INSERT INTO security_journal (type, brand_id, target_brand_id, actor_kind, actor_id, method, path, ip, details)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      valuesOf(entry),
    );
  }

  /**
   * A refusal that may repeat: the first of its minute is a new entry, each further one adds to
   * that entry's count. The merge is the unique index's (repeat_of, repeat_minute), so refusals
   * counted by several instances at once end on one entry with the exact count.
   */
  async insertRepeated(entry: JournalRow, repeatOf: string): Promise<void> {
    await this.db.query(
      `INSERT INTO security_journal
              (type, brand_id, target_brand_id, actor_kind, actor_id, method, path, ip, details, repeat_of, repeat_minute)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, date_trunc('minute', now()))
       ON CONFLICT (repeat_of, repeat_minute) WHERE repeat_of IS NOT NULL
       DO UPDATE SET count = security_journal.count + 1`,
      [...valuesOf(entry), repeatOf.slice(0, 160)],
    );
  }

  /**
   * Newest first by time, then id; of one brand (as actor's brand or target) when `brandId` is
   * given; an account's own (no brand, the account as actor) when `accountId` is given; after the entry `beforeId` by the same order when given.
   */
  newestFirst(query: {
    brandId?: number;
    accountId?: number;
    beforeId?: number;
    types?: string[];
    limit: number;
  }): Promise<JournalEntryEntity[]> {
    const builder = this.db
      .getRepository(JournalEntryEntity)
      .createQueryBuilder('j')
      .orderBy('j.at', 'DESC')
      .addOrderBy('j.id', 'DESC')
      .limit(query.limit);
    if (query.brandId !== undefined) {
      builder.where('(j.brand_id = :brandId OR j.target_brand_id = :brandId)', { brandId: query.brandId });
    }
    if (query.accountId !== undefined) {
      builder.andWhere(`j.actor_kind = 'user' AND j.actor_id = :accountId AND j.brand_id IS NULL`, {
        accountId: query.accountId,
      });
    }
    if (query.types !== undefined) builder.andWhere('j.type IN (:...types)', { types: query.types });
    if (query.beforeId !== undefined) {
      builder.andWhere('(j.at, j.id) < (SELECT b.at, b.id FROM security_journal b WHERE b.id = :beforeId)', {
        beforeId: query.beforeId,
      });
    }
    return builder.getMany();
  }
}
