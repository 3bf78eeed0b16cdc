import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { changedRows } from '../database/returning';
import type { Tx } from '../database/transactions';
import { HAS_SECOND_FACTOR } from './second-factor.sql';
import type { MembershipRow } from './user-principal';

export interface ActiveSessionRow {
  user_id: number;
  email: string;
  is_superadmin: boolean;
  memberships: MembershipRow[];
  authenticated_at: Date;
  second_factor: boolean;
  /** Its last use is more than a minute old: the caller moves it on. */
  stale: boolean;
}

export interface SessionListRow {
  id: string;
  created_at: Date;
  last_seen_at: Date;
  ip: string | null;
  user_agent: string | null;
}

/** A session that still works: not ended, not expired. */
const LIVE = 's.ended_at IS NULL AND s.expires_at > now()';

/**
 * A live session of an active user, with the memberships, each brand's policy and whether the
 * account holds a second factor: every session request's one round trip.
 */
export const ACTIVE_SESSION = `SELECT u.id AS user_id, u.email, u.is_superadmin,
              COALESCE(json_agg(json_build_object('brandId', m.brand_id, 'brandName', b.name, 'brandSlug', b.slug,
                                                  'permissions', m.permissions,
                                                  'secondFactorRequired', b.require_second_factor)
                                ORDER BY m.brand_id)
                       FILTER (WHERE m.brand_id IS NOT NULL), '[]') AS memberships,
              s.authenticated_at, s.last_seen_at < now() - interval '1 minute' AS stale,
              ${HAS_SECOND_FACTOR} AS second_factor
         FROM sessions s
         JOIN users u ON u.id = s.user_id
         LEFT JOIN memberships m ON m.user_id = u.id
         LEFT JOIN brands b ON b.id = m.brand_id
        WHERE s.id = $1 AND ${LIVE} AND u.active
        GROUP BY u.id, s.id`;

export const END_SESSION_OF = `UPDATE sessions s SET ended_at = now() WHERE s.id = $1 AND s.user_id = $2 AND ${LIVE} RETURNING s.id`;

export const END_SESSIONS_OF = `UPDATE sessions s SET ended_at = now()
        WHERE s.user_id = $1 AND ${LIVE} AND ($2::uuid IS NULL OR s.id <> $2::uuid) RETURNING s.id`;

export const LIVE_SESSIONS_OF = `SELECT s.id, s.created_at, s.last_seen_at, s.ip, s.user_agent FROM sessions s
        WHERE s.user_id = $1 AND ${LIVE} ORDER BY s.created_at DESC, s.id`;

/** The sessions table (with the user and memberships a session check reads). */
@Injectable()
export class SessionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(session: {
    id: string;
    userId: number;
    expiresAt: Date;
    ip: string | null;
    userAgent: string | null;
  }): Promise<void> {
    await this.db.query('INSERT INTO sessions (id, user_id, expires_at, ip, user_agent) VALUES ($1, $2, $3, $4, $5)', [
      session.id,
      session.userId,
      session.expiresAt,
      session.ip,
      session.userAgent,
    ]);
  }

  /** A session not ended nor expired, of an active user, with the memberships, in one round trip. */
  async findActive(sessionId: string): Promise<ActiveSessionRow | null> {
    const rows: ActiveSessionRow[] = await this.db.query(ACTIVE_SESSION, [sessionId]);
    return rows[0] ?? null;
  }

  async touch(sessionId: string, ip: string): Promise<void> {
    await this.db.query('UPDATE sessions SET last_seen_at = now(), ip = $2 WHERE id = $1', [sessionId, ip]);
  }

  /** The step-up (contract §19): the session proved its account now. */
  async markAuthenticated(sessionId: string): Promise<void> {
    await this.db.query('UPDATE sessions SET authenticated_at = now() WHERE id = $1', [sessionId]);
  }

  async end(sessionId: string): Promise<void> {
    await this.db.query('UPDATE sessions SET ended_at = now() WHERE id = $1 AND ended_at IS NULL', [sessionId]);
  }

  /** Ends one live session of the account; false when it has no such session. */
  async endOf(userId: number, sessionId: string): Promise<boolean> {
    const rows = await changedRows(this.db.manager, END_SESSION_OF, [sessionId, userId]);
    return rows.length > 0;
  }

  /** Ends every live session of the account but `keep` (null: all of them); how many ended. */
  async endAllOf(userId: number, keep: string | null, tx?: Tx): Promise<number> {
    const rows = await changedRows(tx ?? this.db.manager, END_SESSIONS_OF, [userId, keep]);
    return rows.length;
  }

  /** The account's live sessions, newest first. */
  liveOf(userId: number): Promise<SessionListRow[]> {
    return this.db.query(LIVE_SESSIONS_OF, [userId]);
  }
}
