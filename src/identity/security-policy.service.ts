import { Injectable } from '@nestjs/common';
import type { BrandContext } from '../common/context/request-context';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { Transactions } from '../database/transactions';
import { SecurityJournal } from '../security-journal/security-journal.service';
import { BrandsRepository } from './brands.repository';
import type { UserPrincipal } from './user-principal';

/**
 * A brand's security policy (contract §19). Turning the second factor on asks one of the person
 * doing it, so an administrator cannot lock themselves out of the brand by a click.
 */
@Injectable()
export class SecurityPolicyService {
  constructor(
    private readonly brands: BrandsRepository,
    private readonly transactions: Transactions,
    private readonly journal: SecurityJournal,
  ) {}

  async of(brandId: number): Promise<{ requireSecondFactor: boolean }> {
    const brand = await this.brands.findById(brandId);
    if (!brand) throw AppError.notFound();
    return { requireSecondFactor: brand.requireSecondFactor };
  }

  async set(ctx: BrandContext, requireSecondFactor: boolean): Promise<{ requireSecondFactor: boolean }> {
    // settings.manage is a member's permission only: keys never hold it, so the caller is a person.
    const person = ctx.principal as UserPrincipal;
    if (requireSecondFactor && !person.hasSecondFactor) throw AppError.conflict(ErrorText.setUpSecondFactorFirst);
    await this.transactions.run(async (tx) => {
      const changed = await this.brands.setRequireSecondFactor(tx, ctx.brandId, requireSecondFactor);
      if (!changed) throw AppError.notFound();
      if (changed.before === requireSecondFactor) return;
      await this.journal.recordWith(tx, ctx, {
        type: 'security_policy_changed',
        brandId: ctx.brandId,
        details: { requireSecondFactor: { before: changed.before, after: requireSecondFactor } },
      });
    });
    return { requireSecondFactor };
  }
}
