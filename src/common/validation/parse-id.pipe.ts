import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { AppError } from '../errors/app-error';

const POSITIVE_INT = /^[1-9]\d{0,9}$/;

/** Path identifiers are positive 32-bit integers; anything else is a 400 naming the parameter. */
@Injectable()
export class ParseIdPipe implements PipeTransform<string, number> {
  transform(value: string, metadata: ArgumentMetadata): number {
    if (!POSITIVE_INT.test(value) || Number(value) > 2_147_483_647) {
      throw AppError.badRequest([`${metadata.data ?? 'id'} must be a positive integer`]);
    }
    return Number(value);
  }
}
