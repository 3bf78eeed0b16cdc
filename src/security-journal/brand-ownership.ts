import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../common/context/request-context';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { SecurityJournal } from './security-journal.service';

export interface OwnedRecord {
  brandId: number;
}

/**
 * The one place that decides what addressing a record by id means: none → 404 Not found;
 * another brand's → journaled, then 403 Forbidden: brand not allowed (stricter than hiding it,
 * so probing shows up in the journal).
 */
@Injectable()
export class BrandOwnership {
  constructor(private readonly journal: SecurityJournal) {}

  async assertOwned<T extends OwnedRecord>(
    ctx: RequestContext,
    record: T | null | undefined,
    target: { resource: string; id: number },
  ): Promise<T> {
    if (!record) throw AppError.notFound();
    if (record.brandId !== ctx.brandId) {
      await this.journal.record(ctx, {
        type: 'brand_violation',
        brandId: ctx.brandId,
        targetBrandId: record.brandId,
        details: { resource: target.resource, id: target.id },
      });
      throw AppError.forbidden(ErrorText.brandNotAllowed);
    }
    return record;
  }
}
