import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { AppError } from '../errors/app-error';
import { ErrorText } from '../errors/error-texts';
import { INT4_MAX, parseCanonicalInteger } from './integer-text';

/** An id as a path or `X-Brand-Id` carries it: a canonical positive decimal within `integer`, else a 400 naming it. */
export function parseId(raw: unknown, name: string): number {
  const id = parseCanonicalInteger(raw, INT4_MAX);
  if (id === undefined || id === 0) throw AppError.badRequest([ErrorText.notPositiveId(name)]);
  return id;
}

/**
 * Path identifiers. It reads the text as routed: the global validation pipe leaves primitives
 * alone, so `0x1` never reaches here as 1.
 */
@Injectable()
export class ParseIdPipe implements PipeTransform<string, number> {
  transform(value: string, metadata: ArgumentMetadata): number {
    return parseId(value, metadata.data ?? 'id');
  }
}
