import { Injectable } from '@nestjs/common';
import { BRAND_PERMISSIONS, type BrandPermission } from '../common/context/permissions';
import { AppError } from '../common/errors/app-error';
import { isForeignKeyViolation } from '../common/errors/pg-errors';
import { MembershipsRepository } from './memberships.repository';

export interface MembershipView {
  brandId: number;
  userId: number;
  permissions: BrandPermission[];
}

@Injectable()
export class MembershipsService {
  constructor(private readonly memberships: MembershipsRepository) {}

  /** Sets a member's permissions in a brand; an empty list ends the membership. */
  async put(brandId: number, userId: number, permissions: BrandPermission[]): Promise<MembershipView> {
    // Stored in the closed list's order, without repeats, so equal sets compare equal.
    const ordered = BRAND_PERMISSIONS.filter((p) => permissions.includes(p));
    if (ordered.length === 0) {
      if (!(await this.memberships.bothExist(brandId, userId))) throw AppError.notFound();
      await this.memberships.delete(brandId, userId);
      return { brandId, userId, permissions: [] };
    }
    try {
      await this.memberships.upsert(brandId, userId, ordered);
    } catch (error) {
      if (isForeignKeyViolation(error)) throw AppError.notFound();
      throw error;
    }
    return { brandId, userId, permissions: ordered };
  }
}
