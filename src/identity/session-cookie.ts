import { serialize as serializeCookie } from 'cookie';
import type { HttpReply } from '../common/context/http-types';
import { SESSION_COOKIE } from '../common/guards/authentication.guard';
import type { IssuedSession } from './sessions.service';

/** The httpOnly `session` cookie of a sign-in (contract §1): login, an accepted invitation. */
export function setSessionCookie(response: HttpReply, session: IssuedSession, secure: boolean): void {
  response.header(
    'Set-Cookie',
    serializeCookie(SESSION_COOKIE, session.token, {
      httpOnly: true,
      sameSite: 'lax',
      secure,
      path: '/',
      expires: session.expiresAt,
    }),
  );
}

export function clearSessionCookie(response: HttpReply): void {
  response.header('Set-Cookie', serializeCookie(SESSION_COOKIE, '', { path: '/', expires: new Date(0) }));
}
