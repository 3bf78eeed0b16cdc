import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { BrandPermission } from '../common/context/permissions';
import { publicUrlOf, type Environment } from '../config/environment';
import { mintAccountToken } from './account-token';
import { InvitationsRepository } from './invitations.repository';
import { canonicalPermissions } from './memberships.service';

/** What an invitation's mail says, and where it goes. */
export interface InvitationMailData {
  to: string;
  brandName: string;
  /** The inviting account's e-mail; null once that account is gone. */
  inviterEmail: string | null;
  permissions: BrandPermission[];
  expiresAt: string;
  /** `<PUBLIC_URL>/dashboard/#/invitation/<token>`: the only place the token ever is. */
  link: string;
}

/**
 * The identity side of the `mail.invitation` outbox job: the link of an invitation's mail. The
 * token is minted here, when the mail is about to be sent, and only its SHA-256 is stored; the
 * outbox payload names the invitation alone, so nothing stored anywhere holds the token.
 */
@Injectable()
export class InvitationMail {
  private readonly publicUrl: string;

  constructor(
    private readonly invitations: InvitationsRepository,
    config: ConfigService<Environment, true>,
  ) {
    this.publicUrl = publicUrlOf({
      PUBLIC_URL: config.get('PUBLIC_URL', { infer: true }),
      PORT: config.get('PORT', { infer: true }),
    });
  }

  /**
   * A new token for the invitation, its fingerprint stored (and committed) before this returns,
   * so the link works the moment the mail arrives; null when the invitation is no longer pending
   * or has expired (revoked, replaced or accepted meanwhile), and no mail is to be sent.
   *
   * Every call mints a new token and so kills the link of the call before. That is what a retried
   * job wants: the earlier attempt's mail may or may not have left (SMTP refused it, or the
   * worker stopped after sending but before the job was marked done), and its token cannot be
   * sent again because it was never kept. A fresh link in the new mail is the only way to send a
   * working one; an earlier mail that did arrive then holds a dead link, and the newest works.
   */
  async prepare(invitationId: number): Promise<InvitationMailData | null> {
    const { token, hash } = mintAccountToken('invitation');
    const row = await this.invitations.storeToken(invitationId, hash);
    if (!row) return null;
    return {
      to: row.email,
      brandName: row.brand_name,
      inviterEmail: row.inviter_email,
      permissions: canonicalPermissions(row.permissions),
      expiresAt: row.expires_at.toISOString(),
      link: `${this.publicUrl}/dashboard/#/invitation/${token}`,
    };
  }
}
