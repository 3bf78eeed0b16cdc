import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';
import { OptionalNotNull } from './field-decorators';
import { isoInstantText } from './iso-instant';

/**
 * An optional instant query parameter in the ISO 8601 forms isoInstantText accepts, kept as the
 * text, with its offset, that PostgreSQL reads (a primitive, so the query's verdict is remembered). Anything else, an
 * empty value or a repeated parameter included, is refused.
 */
export function QueryInstant(options: { description: string; example: string }) {
  return applyDecorators(
    ApiPropertyOptional({ type: String, format: 'date-time', ...options }),
    OptionalNotNull(),
    Transform(({ value }: { value: unknown }) => isoInstantText(value) ?? value),
    ValidateBy(
      { name: 'isIsoInstant', validator: { validate: (value: unknown) => isoInstantText(value) === value } },
      {
        message: ({ property }) =>
          `${property} must be an ISO 8601 time with its offset (2026-11-26T12:00:00Z, 2026-11-26T15:00:00+03:00) or a date (2026-11-26)`,
      },
    ),
  );
}
