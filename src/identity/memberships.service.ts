import { Injectable } from '@nestjs/common';
import { BRAND_PERMISSIONS, SETTINGS_MANAGE, type BrandPermission } from '../common/context/permissions';
import type { RequestContext } from '../common/context/request-context';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { isForeignKeyViolation } from '../common/errors/pg-errors';
import { Transactions, type Tx } from '../database/transactions';
import { SecurityJournal } from '../security-journal/security-journal.service';
import { MembershipsRepository } from './memberships.repository';

export interface MembershipView {
  brandId: number;
  userId: number;
  permissions: BrandPermission[];
}

export interface MemberView {
  userId: number;
  email: string;
  permissions: BrandPermission[];
  secondFactor: boolean;
  lastSignInAt: string | null;
}

/** Stored in the closed list's order, without repeats, so equal sets compare equal. */
export const canonicalPermissions = (permissions: readonly string[]): BrandPermission[] =>
  BRAND_PERMISSIONS.filter((p) => permissions.includes(p));

@Injectable()
export class MembershipsService {
  constructor(
    private readonly memberships: MembershipsRepository,
    private readonly transactions: Transactions,
    private readonly journal: SecurityJournal,
  ) {}

  /** Sets a member's permissions in a brand; an empty list ends the membership. */
  async put(
    ctx: RequestContext,
    brandId: number,
    userId: number,
    permissions: BrandPermission[],
  ): Promise<MembershipView> {
    try {
      return await this.transactions.run((tx) => this.setWith(tx, ctx, brandId, userId, permissions));
    } catch (error) {
      if (isForeignKeyViolation(error)) throw AppError.notFound();
      throw error;
    }
  }

  /**
   * Sets a membership in the caller's transaction (PUT …/members/:userId, an accepted
   * invitation): the brand's last member holding settings.manage cannot lose it (contract §19),
   * and a real change is journaled as `membership_changed` with the lists before and after
   * (`[]` for no membership), standing or falling with the change. `actor` names the account
   * when the request has no principal (an invitation accepted by signing up).
   */
  async setWith(
    tx: Tx,
    ctx: RequestContext,
    brandId: number,
    userId: number,
    permissions: readonly string[],
    actor?: { kind: 'user'; id: number },
  ): Promise<MembershipView> {
    const after = canonicalPermissions(permissions);
    // The managers' rows first, in user order, whatever the change: see lockSettingsManagers.
    const managers = await this.memberships.lockSettingsManagers(tx, brandId);
    const current = await this.memberships.lockPermissions(tx, brandId, userId);
    const before = canonicalPermissions(current ?? []);
    if (current === null && after.length === 0) {
      if (!(await this.memberships.bothExist(brandId, userId, tx))) throw AppError.notFound();
      return { brandId, userId, permissions: [] };
    }
    const losesManage = before.includes(SETTINGS_MANAGE) && !after.includes(SETTINGS_MANAGE);
    if (losesManage && managers.includes(userId) && managers.length <= 1) {
      throw AppError.conflict(ErrorText.lastSettingsManager);
    }
    if (current !== null && sameList(before, after)) return { brandId, userId, permissions: after };
    if (after.length === 0) await this.memberships.delete(brandId, userId, tx);
    else await this.memberships.upsert(brandId, userId, after, tx);
    await this.journal.recordWith(tx, ctx, {
      type: 'membership_changed',
      brandId,
      details: { userId, before, after },
      ...(actor ? { actor } : {}),
    });
    return { brandId, userId, permissions: after };
  }

  /**
   * Before an account is switched off (PATCH /admin/users/:userId): it may not be the last active
   * settings.manage member of any brand, as setWith refuses (contract §19). Each brand's managers
   * are locked as setWith locks them, brand after brand in brand order, so a switching off and a
   * membership change (or two switchings off) cannot both pass the check. Call it before locking
   * any users row: setWith's transactions lock those rows' memberships first.
   */
  async assertNotLastManager(tx: Tx, userId: number): Promise<void> {
    for (const brandId of await this.memberships.brandsManagedBy(tx, userId)) {
      const managers = await this.memberships.lockSettingsManagers(tx, brandId);
      if (managers.includes(userId) && managers.length <= 1) throw AppError.conflict(ErrorText.lastSettingsManager);
    }
  }

  /** The brand's members, ordered by e-mail. */
  async members(brandId: number): Promise<MemberView[]> {
    return (await this.memberships.membersOf(brandId)).map((row) => ({
      userId: row.user_id,
      email: row.email,
      permissions: canonicalPermissions(row.permissions),
      secondFactor: row.second_factor,
      lastSignInAt: row.last_sign_in_at?.toISOString() ?? null,
    }));
  }
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((p, i) => p === b[i]);
