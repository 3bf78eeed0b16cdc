import { Injectable } from '@nestjs/common';
import type { BrandPermission } from '../common/context/permissions';
import type { HttpRequest } from '../common/context/http-types';
import type { BrandContext, RequestContext } from '../common/context/request-context';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { isUniqueViolation } from '../common/errors/pg-errors';
import { normalizeEmail } from '../common/validation/email';
import { Transactions, type Tx } from '../database/transactions';
import { Outbox } from '../outbox/outbox';
import { BrandOwnership } from '../security-journal/brand-ownership';
import { SecurityJournal } from '../security-journal/security-journal.service';
import { accountTokenHash } from './account-token';
import { AuthService, type LoginResult } from './auth.service';
import type { InvitationStatus } from './entities/invitation.entity';
import { InvitationsRepository, type InvitationRow, type TokenInvitationRow } from './invitations.repository';
import { MembershipsRepository } from './memberships.repository';
import { canonicalPermissions, MembershipsService } from './memberships.service';
import { PasswordHasher } from './password-hasher';
import { assertPasswordAllowed } from './password-policy';
import { RequestSession } from './request-session';
import type { SessionClient } from './sessions.service';
import { UserPrincipal } from './user-principal';

export interface InvitationView {
  id: number;
  email: string;
  permissions: BrandPermission[];
  status: InvitationStatus;
  createdAt: string;
  expiresAt: string;
  /** null only once the inviting account is gone (the foreign key sets it so). */
  invitedBy: { id: number; email: string } | null;
}

export interface InvitationInfo {
  brandName: string;
  email: string;
  permissions: BrandPermission[];
  accountExists: boolean;
}

/** An accepted invitation: a new account signed in, or an existing account's membership. */
export type Acceptance =
  | { kind: 'signed_in'; login: LoginResult }
  | { kind: 'joined'; membership: { brandId: number; permissions: BrandPermission[] } };

/** Two administrators inviting one e-mail at once: the later insert meets the earlier and goes again. */
const INVITE_ATTEMPTS = 3;

const toView = (row: InvitationRow): InvitationView => ({
  id: row.id,
  email: row.email,
  permissions: canonicalPermissions(row.permissions),
  status: row.status,
  createdAt: row.created_at.toISOString(),
  expiresAt: row.expires_at.toISOString(),
  invitedBy: row.invited_by === null ? null : { id: row.invited_by, email: row.inviter_email ?? '' },
});

/**
 * The store's team (contract §19): invitations by e-mail, whose links carry a token minted when
 * the mail is sent (InvitationMail) and kept only as its SHA-256, working once, for 7 days.
 */
@Injectable()
export class InvitationsService {
  constructor(
    private readonly invitations: InvitationsRepository,
    private readonly memberships: MembershipsRepository,
    private readonly membershipChanges: MembershipsService,
    private readonly transactions: Transactions,
    private readonly outbox: Outbox,
    private readonly journal: SecurityJournal,
    private readonly ownership: BrandOwnership,
    private readonly hasher: PasswordHasher,
    private readonly auth: AuthService,
    private readonly sessions: RequestSession,
  ) {}

  /**
   * A new invitation of the e-mail to the brand, in one transaction with what it causes: the
   * pending one it replaces ends (its link dies), the job that mails the link is enqueued, and
   * `member_invited` is journaled (no token: none exists until the mail is sent).
   */
  async invite(ctx: BrandContext, input: { email: string; permissions: string[] }): Promise<InvitationView> {
    const email = normalizeEmail(input.email);
    const permissions = canonicalPermissions(input.permissions);
    const inviter = ctx.principal!;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.transactions.run(async (tx) => {
          if (await this.memberships.isMemberByEmail(tx, ctx.brandId, email)) {
            throw AppError.conflict(ErrorText.alreadyMember);
          }
          const replaced = await this.invitations.replacePending(tx, ctx.brandId, email);
          const row = await this.invitations.insert(tx, {
            brandId: ctx.brandId,
            email,
            permissions,
            invitedBy: inviter.id,
          });
          await this.outbox.enqueue(tx, [
            { kind: 'mail.invitation', payload: { invitationId: row.id }, dedupeKey: `invitation:${row.id}` },
          ]);
          await this.journal.recordWith(tx, ctx, {
            type: 'member_invited',
            brandId: ctx.brandId,
            details: {
              invitationId: row.id,
              email,
              permissions,
              ...(replaced ? { replacedInvitationId: replaced } : {}),
            },
          });
          return toView({
            ...row,
            brand_id: ctx.brandId,
            email,
            permissions,
            status: 'pending',
            invited_by: inviter.id,
            inviter_email: inviter instanceof UserPrincipal ? inviter.email : null,
          });
        });
      } catch (error) {
        if (attempt < INVITE_ATTEMPTS && isUniqueViolation(error, 'ux_invitations_pending')) continue;
        throw error;
      }
    }
  }

  /** The brand's invitations whose links still work, newest first. */
  async listPending(ctx: BrandContext): Promise<InvitationView[]> {
    return (await this.invitations.livePendingOf(ctx.brandId)).map(toView);
  }

  /**
   * Revokes a pending invitation (an expired one too): its link dies at once, journaled as
   * `invitation_revoked`. Revoking one already revoked answers it again and records nothing (as
   * a key's revoke does); one accepted or replaced cannot be revoked: 409.
   */
  async revoke(ctx: BrandContext, invitationId: number): Promise<InvitationView> {
    const found = await this.invitations.findById(invitationId);
    await this.ownership.assertOwned(ctx, found && { ...found, brandId: found.brand_id }, {
      resource: 'invitation',
      id: invitationId,
    });
    return this.transactions.run(async (tx) => {
      if (await this.invitations.revoke(tx, invitationId)) {
        await this.journal.recordWith(tx, ctx, {
          type: 'invitation_revoked',
          brandId: ctx.brandId,
          details: { invitationId, email: found!.email },
        });
      }
      const row = (await this.invitations.findById(invitationId, tx))!;
      if (row.status !== 'revoked') throw AppError.conflict(ErrorText.invitationNotRevocable(row.status));
      return toView(row);
    });
  }

  /** What the invitation page shows before it is accepted. */
  async info(token: string): Promise<InvitationInfo> {
    const invitation = await this.live(token);
    return {
      brandName: invitation.brand_name,
      email: invitation.email,
      permissions: canonicalPermissions(invitation.permissions),
      accountExists: invitation.user_id !== null,
    };
  }

  /**
   * Accepts an invitation (contract §19). With no account of its e-mail, `password` makes one,
   * joined to the brand and signed in; with one, the request must be signed in as that account
   * (read here, not by the guard chain: a stale cookie must not stop someone signing up), and its
   * membership is set. The token's row is locked for the change, so of two accepts one wins and
   * the other finds the link dead (404).
   */
  async accept(
    ctx: RequestContext,
    token: string,
    password: string | undefined,
    request: HttpRequest,
    client: SessionClient,
  ): Promise<Acceptance> {
    const invitation = await this.live(token);
    if (invitation.user_id === null) return this.signUp(ctx, token, invitation, password, client);

    const principal = await this.sessions.principalOf(request);
    if (principal?.kind !== 'user') throw AppError.unauthorized();
    if (principal.id !== invitation.user_id) throw AppError.forbidden(ErrorText.invitationForAnotherAccount);
    const actor = { kind: 'user' as const, id: principal.id };
    const membership = await this.transactions.run(async (tx) => {
      const locked = await this.lockLive(tx, token);
      if (locked.user_id !== principal.id) throw AppError.forbidden(ErrorText.invitationForAnotherAccount);
      const set = await this.membershipChanges.setWith(
        tx,
        ctx,
        locked.brand_id,
        principal.id,
        locked.permissions,
        actor,
      );
      await this.finishAcceptance(tx, ctx, locked, principal.id);
      return { brandId: set.brandId, permissions: set.permissions };
    });
    return { kind: 'joined', membership };
  }

  /** A new account from an invitation: the account, its membership and the used link commit together. */
  private async signUp(
    ctx: RequestContext,
    token: string,
    invitation: TokenInvitationRow,
    password: string | undefined,
    client: SessionClient,
  ): Promise<Acceptance> {
    if (password === undefined) throw AppError.badRequest([ErrorText.invitationPasswordRequired]);
    assertPasswordAllowed(password, invitation.email);
    const passwordHash = await this.hasher.hash(password);
    let user: { id: number; email: string };
    try {
      user = await this.transactions.run(async (tx) => {
        const locked = await this.lockLive(tx, token);
        // Someone made the account meanwhile: it must sign in and accept as itself.
        if (locked.user_id !== null) throw AppError.unauthorized();
        const created = await this.invitations.insertUser(tx, locked.email, passwordHash);
        const actor = { kind: 'user' as const, id: created.id };
        await this.membershipChanges.setWith(tx, ctx, locked.brand_id, created.id, locked.permissions, actor);
        await this.finishAcceptance(tx, ctx, locked, created.id);
        return created;
      });
    } catch (error) {
      // The account was made by another request between the lock and the insert.
      if (isUniqueViolation(error, 'uq_users_email')) throw AppError.unauthorized();
      throw error;
    }
    // The session is opened as a sign-in opens one, once the account exists; should that fail,
    // the account simply signs in with the password it has just set.
    const login = await this.auth.signIn(ctx, { ...user, isSuperadmin: false }, client);
    return { kind: 'signed_in', login };
  }

  private async finishAcceptance(
    tx: Tx,
    ctx: RequestContext,
    invitation: TokenInvitationRow,
    userId: number,
  ): Promise<void> {
    await this.invitations.markAccepted(tx, invitation.id);
    await this.journal.recordWith(tx, ctx, {
      type: 'invitation_accepted',
      brandId: invitation.brand_id,
      actor: { kind: 'user', id: userId },
      details: { invitationId: invitation.id, userId, permissions: canonicalPermissions(invitation.permissions) },
    });
  }

  /** The live invitation of a presented token; 404 for a used, revoked, replaced, expired, unknown or malformed one. */
  private async live(token: string): Promise<TokenInvitationRow> {
    const hash = accountTokenHash('invitation', token);
    const invitation = hash && (await this.invitations.findLiveByToken(hash));
    if (!invitation) throw AppError.notFound(ErrorText.invalidInvitation);
    return invitation;
  }

  private async lockLive(tx: Tx, token: string) {
    const invitation = await this.invitations.findLiveByToken(accountTokenHash('invitation', token)!, tx);
    if (!invitation) throw AppError.notFound(ErrorText.invalidInvitation);
    return invitation;
  }
}
