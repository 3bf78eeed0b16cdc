import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { AppError } from '../errors/app-error';
import { ErrorText } from '../errors/error-texts';
import { INT4_MAX, parseCanonicalInteger } from './integer-text';

/**
 * Path identifiers are canonical positive decimal integers within `integer`; anything else is a
 * 400 naming the parameter. It reads the text as routed: the global validation pipe leaves
 * primitives alone, so `0x1` never reaches here as 1.
 */
@Injectable()
export class ParseIdPipe implements PipeTransform<string, number> {
  transform(value: string, metadata: ArgumentMetadata): number {
    const id = parseCanonicalInteger(value, INT4_MAX);
    if (id === undefined || id === 0) throw AppError.badRequest([ErrorText.notPositiveId(metadata.data ?? 'id')]);
    return id;
  }
}
