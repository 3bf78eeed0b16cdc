import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../common/context/request-context';
import { AppError } from '../common/errors/app-error';
import { SecurityJournal, type JournalEntryView } from '../security-journal/security-journal.service';
import { accountEvent, userOf } from './account-event';
import { AuthService } from './auth.service';
import type { SecondFactorAnswer } from './second-factor-answer';
import { SessionsService, type SessionView } from './sessions.service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The signed-in account's view of itself: its live sessions, its step-up, its journal. */
@Injectable()
export class AccountService {
  constructor(
    private readonly auth: AuthService,
    private readonly sessionsOf: SessionsService,
    private readonly journal: SecurityJournal,
  ) {}

  stepUp(ctx: RequestContext, proof: { password: string } | SecondFactorAnswer): Promise<void> {
    return this.auth.stepUp(ctx, proof);
  }

  sessions(ctx: RequestContext): Promise<SessionView[]> {
    const user = userOf(ctx);
    return this.sessionsOf.listOf(user.id, user.sessionId);
  }

  /** Another account's session, or none, is 404 alike: ids of others' sessions are never confirmed. */
  async endSession(ctx: RequestContext, sessionId: string): Promise<void> {
    const user = userOf(ctx);
    if (!UUID.test(sessionId) || !(await this.sessionsOf.endOf(user.id, sessionId))) throw AppError.notFound();
    await this.journal.record(ctx, accountEvent('session_ended', user.id, { sessionId, by: 'ended' }));
  }

  async endOtherSessions(ctx: RequestContext): Promise<void> {
    const user = userOf(ctx);
    const ended = await this.sessionsOf.endAllOf(user.id, user.sessionId);
    if (ended > 0)
      await this.journal.record(ctx, accountEvent('session_ended', user.id, { count: ended, by: 'end_others' }));
  }

  activity(ctx: RequestContext, query: { limit: number; before?: number; type?: string }): Promise<JournalEntryView[]> {
    return this.journal.list({
      accountId: userOf(ctx).id,
      limit: query.limit,
      beforeId: query.before,
      types: query.type?.split(','),
    });
  }
}
