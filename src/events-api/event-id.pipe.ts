import { Injectable, PipeTransform } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { parseCanonicalInteger, SAFE_INT_MAX } from '../common/validation/integer-text';

/**
 * An event id in a path: a canonical positive decimal (contract, general rules). Events are
 * numbered in a bigint, so the range is JavaScript's exact one; any other text names no event: 404.
 */
@Injectable()
export class EventIdPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    const id = parseCanonicalInteger(value, SAFE_INT_MAX);
    if (id === undefined || id === 0) throw AppError.notFound();
    return id;
  }
}
