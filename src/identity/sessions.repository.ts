import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { MembershipRow } from './user-principal';

export interface ActiveSessionRow {
  user_id: number;
  email: string;
  is_superadmin: boolean;
  memberships: MembershipRow[];
}

/** The sessions table (with the user and memberships a session check reads). */
@Injectable()
export class SessionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(session: { id: string; userId: number; expiresAt: Date }): Promise<void> {
    await this.db.query('INSERT INTO sessions (id, user_id, expires_at) VALUES ($1, $2, $3)', [
      session.id,
      session.userId,
      session.expiresAt,
    ]);
  }

  /** A session not ended nor expired, of an active user, with the memberships, in one round trip. */
  async findActive(sessionId: string): Promise<ActiveSessionRow | null> {
    const rows: ActiveSessionRow[] = await this.db.query(
      `SELECT u.id AS user_id, u.email, u.is_superadmin,
              COALESCE(json_agg(json_build_object('brandId', m.brand_id, 'brandName', b.name, 'brandSlug', b.slug,
                                                  'permissions', m.permissions) ORDER BY m.brand_id)
                       FILTER (WHERE m.brand_id IS NOT NULL), '[]') AS memberships
         FROM sessions s
         JOIN users u ON u.id = s.user_id
         LEFT JOIN memberships m ON m.user_id = u.id
         LEFT JOIN brands b ON b.id = m.brand_id
        WHERE s.id = $1 AND s.ended_at IS NULL AND s.expires_at > now() AND u.active
        GROUP BY u.id, s.id`,
      [sessionId],
    );
    return rows[0] ?? null;
  }

  async end(sessionId: string): Promise<void> {
    await this.db.query('UPDATE sessions SET ended_at = now() WHERE id = $1 AND ended_at IS NULL', [sessionId]);
  }
}
