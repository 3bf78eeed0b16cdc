import { Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { JwtService } from '@nestjs/jwt';
import { randomUUID } from 'node:crypto';
import type { Environment } from '../config/environment';
import type { Tx } from '../database/transactions';
import { SessionsRepository } from './sessions.repository';
import { SessionSecret } from './session-secret';
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
  memberships: MembershipRow[];
  authenticatedAt: Date;
  hasSecondFactor: boolean;
}

/** Where a session is opened from, as its list shows it. */
export interface SessionClient {
  ip: string;
  userAgent: string | undefined;
}

export interface SessionView {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  ip: string | null;
  userAgent: string | null;
  current: boolean;
}

export interface SessionClaims {
  sid: string;
  sub: string;
}

@Injectable()
export class SessionsService {
  private readonly logger = new Logger(SessionsService.name);
  private readonly ttlHours: number;

  constructor(
    private readonly sessions: SessionsRepository,
    private readonly jwt: JwtService,
    private readonly secret: SessionSecret,
    config: ConfigService<Environment, true>,
  ) {
    this.ttlHours = config.get('SESSION_TTL_HOURS', { infer: true });
  }

  async issue(userId: number, client: SessionClient): Promise<IssuedSession> {
    const id = randomUUID();
    const csrfToken = this.secret.csrfTokenOf(id);
    const expiresAt = new Date(Date.now() + this.ttlHours * 3_600_000);
    await this.sessions.insert({
      id,
      userId,
      expiresAt,
      ip: client.ip.slice(0, 64) || null,
      userAgent: client.userAgent?.slice(0, 512) || null,
    });
    const token = await this.jwt.signAsync({ sid: id, sub: String(userId) } satisfies SessionClaims, {
      expiresIn: this.ttlHours * 3600,
    });
    return { token, csrfToken, expiresAt };
  }

  /** Throws the jsonwebtoken error when the signature or the expiry is wrong. */
  verifyToken(token: string): SessionClaims {
    return this.jwt.verify<SessionClaims>(token, { algorithms: ['HS256'] });
  }

  /**
   * The session with its user and memberships in one round trip, or null if it no longer works.
   * A use more than a minute after the last one moves `lastSeenAt` and the address on, without
   * the request waiting for it: the list may lag a minute (contract §19), a request never does.
   */
  async findActive(sessionId: string, ip: string): Promise<ActiveSession | null> {
    const row = await this.sessions.findActive(sessionId);
    if (!row) return null;
    if (row.stale) {
      this.sessions
        .touch(sessionId, ip.slice(0, 64))
        .catch((error: Error) => this.logger.warn(`could not note a session's last use: ${error.message}`));
    }
    return {
      sessionId,
      userId: row.user_id,
      email: row.email,
      isSuperadmin: row.is_superadmin,
      memberships: row.memberships,
      authenticatedAt: row.authenticated_at,
      hasSecondFactor: row.second_factor,
    };
  }

  async listOf(userId: number, currentId: string): Promise<SessionView[]> {
    return (await this.sessions.liveOf(userId)).map((row) => ({
      id: row.id,
      createdAt: row.created_at.toISOString(),
      lastSeenAt: row.last_seen_at.toISOString(),
      ip: row.ip,
      userAgent: row.user_agent,
      current: row.id === currentId,
    }));
  }

  /** Ends one of the account's live sessions; false when it has none by that id. */
  endOf(userId: number, sessionId: string): Promise<boolean> {
    return this.sessions.endOf(userId, sessionId);
  }

  /** Ends the account's live sessions but `keep` (null: every one); how many ended. */
  endAllOf(userId: number, keep: string | null, tx?: Tx): Promise<number> {
    return this.sessions.endAllOf(userId, keep, tx);
  }

  markAuthenticated(sessionId: string): Promise<void> {
    return this.sessions.markAuthenticated(sessionId);
  }

  csrfMatches(session: ActiveSession, presented: string | undefined): boolean {
    return this.secret.csrfMatches(session.sessionId, presented);
  }

  /** The session's CSRF token, as login gave it (GET /auth/me, for a new tab). */
  csrfTokenOf(sessionId: string): string {
    return this.secret.csrfTokenOf(sessionId);
  }

  async end(sessionId: string): Promise<void> {
    await this.sessions.end(sessionId);
  }
}
