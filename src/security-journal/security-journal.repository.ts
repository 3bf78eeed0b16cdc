import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { tenantOrderSql, tenantRowsSql } from '../database/tenant-rows.sql';
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
   * given; an account's own (no brand, the account as actor) when `accountId` is given; after the
   * entry `beforeId` by the same order when given. A brand's or an account's entries are read
   * through their own indexes only (journalPageSql), whatever the others' hold.
   */
  async newestFirst(query: JournalQuery): Promise<JournalEntryEntity[]> {
    const page = journalPageSql(query);
    const rows: JournalEntryEntity[] = await this.db.query(page.text, page.values);
    return rows.map((row) => ({ ...row, at: new Date(row.at) }));
  }
}

export interface JournalQuery {
  brandId?: number;
  accountId?: number;
  beforeId?: number;
  types?: string[];
  limit: number;
}

const COLUMNS = `j.id, j.at, j.type, j.brand_id AS "brandId", j.target_brand_id AS "targetBrandId",
  j.actor_kind AS "actorKind", j.actor_id AS "actorId", j.method, j.path, j.ip, j.details, j.count,
  j.repeat_of AS "repeatOf", j.repeat_minute AS "repeatMinute"`;

/**
 * The statement of a page of the journal ($1 limit, then the values its conditions name). A
 * brand's entries are those it acted in and those about it: two scans, each of its own index in
 * its order (tenantRowsSql), merged, so neither walks other brands' entries.
 */
export function journalPageSql(query: JournalQuery): { text: string; values: unknown[] } {
  const values: unknown[] = [query.limit];
  const param = (value: unknown) => `$${values.push(value)}`;
  const common: string[] = [];
  if (query.types !== undefined) common.push(`j.type = ANY (${param(query.types)}::text[])`);
  if (query.beforeId !== undefined) {
    common.push(`(j.at, j.id) < (SELECT b.at, b.id FROM security_journal b WHERE b.id = ${param(query.beforeId)})`);
  }
  const scan = (conditions: string[], order: string) =>
    `SELECT ${COLUMNS} FROM security_journal j WHERE ${[...conditions, ...common].join(' AND ') || 'true'}
      ORDER BY ${order}j.at DESC, j.id DESC LIMIT $1`;
  if (query.brandId !== undefined) {
    const brand = param(query.brandId);
    const account =
      query.accountId !== undefined ? [`j.actor_kind = 'user'`, `j.actor_id = ${param(query.accountId)}`] : [];
    return {
      text: `SELECT * FROM (
        (${scan([tenantRowsSql('j.brand_id', brand), ...account], `${tenantOrderSql('j.brand_id')}, `)})
        UNION ALL
        (${scan(
          [tenantRowsSql('j.target_brand_id', brand), `j.brand_id IS DISTINCT FROM ${brand}`, ...account],
          `${tenantOrderSql('j.target_brand_id')}, `,
        )})) j
      ORDER BY j.at DESC, j.id DESC LIMIT $1`,
      values,
    };
  }
  if (query.accountId !== undefined) {
    const own = [`j.actor_kind = 'user'`, tenantRowsSql('j.actor_id', param(query.accountId)), 'j.brand_id IS NULL'];
    return { text: scan(own, `${tenantOrderSql('j.actor_id')}, `), values };
  }
  return { text: scan([], ''), values };
}
