import type { ReviewedQuery } from '../database/reviewed-query';
import {
  INVITATION_BY_ID,
  INVITATION_BY_TOKEN,
  INVITATION_BY_TOKEN_LOCKED,
  LIVE_INVITATIONS_OF,
  STORE_INVITATION_TOKEN,
} from './invitations.repository';
import { MEMBERS_OF } from './memberships.repository';
import { ACTIVE_SESSION, END_SESSION_OF, END_SESSIONS_OF, LIVE_SESSIONS_OF } from './sessions.repository';

/** Identity's composed statements (ReviewedQuery). */
export function reviewedQueries(): ReviewedQuery[] {
  return [
    {
      name: 'active-session',
      text: ACTIVE_SESSION,
      purpose: 'Every session request: the session, its user, memberships, policies and second factor',
    },
    { name: 'members-of', text: MEMBERS_OF, purpose: 'GET …/members: the brand’s members with their second factor' },
    {
      name: 'end-session-of',
      text: END_SESSION_OF,
      purpose: 'DELETE /auth/sessions/:id: one live session of the account',
    },
    {
      name: 'end-sessions-of',
      text: END_SESSIONS_OF,
      purpose: 'A password change, a reset, end-others: the live sessions of an account but one (or none)',
    },
    { name: 'live-sessions-of', text: LIVE_SESSIONS_OF, purpose: 'GET /auth/sessions: the account’s live sessions' },
    { name: 'live-invitations-of', text: LIVE_INVITATIONS_OF, purpose: 'A brand’s pending, unexpired invitations' },
    { name: 'invitation-by-id', text: INVITATION_BY_ID, purpose: 'An invitation with its inviter’s e-mail' },
    {
      name: 'invitation-by-token',
      text: INVITATION_BY_TOKEN,
      purpose: 'The invitation page: a live token’s invitation',
    },
    {
      name: 'invitation-by-token-locked',
      text: INVITATION_BY_TOKEN_LOCKED,
      purpose: 'Accepting: the live token’s invitation, locked so two accepts queue',
    },
    {
      name: 'store-invitation-token',
      text: STORE_INVITATION_TOKEN,
      purpose: 'The invitation mail: a new token’s digest on a live invitation, and what the mail says',
    },
  ];
}
