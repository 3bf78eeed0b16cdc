import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { JwtService } from '@nestjs/jwt';
import { randomUUID } from 'node:crypto';
import type { Environment } from '../config/environment';
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
}

export interface SessionClaims {
  sid: string;
  sub: string;
}

@Injectable()
export class SessionsService {
  private readonly ttlHours: number;

  constructor(
    private readonly sessions: SessionsRepository,
    private readonly jwt: JwtService,
    private readonly secret: SessionSecret,
    config: ConfigService<Environment, true>,
  ) {
    this.ttlHours = config.get('SESSION_TTL_HOURS', { infer: true });
  }

  async issue(userId: number): Promise<IssuedSession> {
    const id = randomUUID();
    const csrfToken = this.secret.csrfTokenOf(id);
    const expiresAt = new Date(Date.now() + this.ttlHours * 3_600_000);
    await this.sessions.insert({ id, userId, expiresAt });
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
    const row = await this.sessions.findActive(sessionId);
    if (!row) return null;
    return {
      sessionId,
      userId: row.user_id,
      email: row.email,
      isSuperadmin: row.is_superadmin,
      memberships: row.memberships,
    };
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
