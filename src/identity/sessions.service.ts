import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { JwtService } from '@nestjs/jwt';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { Environment } from '../config/environment';
import type { MembershipRow } from './user-principal';

export interface IssuedSession {
  token: string;
  csrfToken: string;
  expiresAt: Date;
}

export interface ActiveSession {
  sessionId: string;
  userId: number;
  email: string;
  isSuperadmin: boolean;
  csrfTokenHash: string;
  memberships: MembershipRow[];
}

export interface SessionClaims {
  sid: string;
  sub: string;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

@Injectable()
export class SessionsService {
  private readonly ttlHours: number;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly jwt: JwtService,
    config: ConfigService<Environment, true>,
  ) {
    this.ttlHours = config.get('SESSION_TTL_HOURS', { infer: true });
  }

  async issue(userId: number): Promise<IssuedSession> {
    const id = randomUUID();
    const csrfToken = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + this.ttlHours * 3_600_000);
    await this.db.query('INSERT INTO sessions (id, user_id, csrf_token_hash, expires_at) VALUES ($1, $2, $3, $4)', [
      id,
      userId,
      sha256(csrfToken),
      expiresAt,
    ]);
    const token = await this.jwt.signAsync({ sid: id, sub: String(userId) } satisfies SessionClaims, {
      expiresIn: this.ttlHours * 3600,
    });
    return { token, csrfToken, expiresAt };
  }

  /** Throws the jsonwebtoken error when the signature or the expiry is wrong. */
  verifyToken(token: string): SessionClaims {
    return this.jwt.verify<SessionClaims>(token, { algorithms: ['HS256'] });
  }

  /** The session with its user and memberships in one round trip, or null if it no longer works. */
  async findActive(sessionId: string): Promise<ActiveSession | null> {
    const rows: Array<{
      user_id: number;
      email: string;
      is_superadmin: boolean;
      csrf_token_hash: string;
      memberships: MembershipRow[];
    }> = await this.db.query(
      `SELECT u.id AS user_id, u.email, u.is_superadmin, s.csrf_token_hash,
              COALESCE(json_agg(json_build_object('brandId', m.brand_id, 'permissions', m.permissions))
                       FILTER (WHERE m.brand_id IS NOT NULL), '[]') AS memberships
         FROM sessions s
         JOIN users u ON u.id = s.user_id
         LEFT JOIN memberships m ON m.user_id = u.id
        WHERE s.id = $1 AND s.ended_at IS NULL AND s.expires_at > now() AND u.active
        GROUP BY u.id, s.id`,
      [sessionId],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      sessionId,
      userId: row.user_id,
      email: row.email,
      isSuperadmin: row.is_superadmin,
      csrfTokenHash: row.csrf_token_hash,
      memberships: row.memberships,
    };
  }

  csrfMatches(session: ActiveSession, presented: string | undefined): boolean {
    if (!presented) return false;
    return timingSafeEqual(Buffer.from(sha256(presented)), Buffer.from(session.csrfTokenHash));
  }

  async end(sessionId: string): Promise<void> {
    await this.db.query('UPDATE sessions SET ended_at = now() WHERE id = $1 AND ended_at IS NULL', [sessionId]);
  }
}
