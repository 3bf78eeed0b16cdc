import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';
import { OptionalNotNull } from './field-decorators';
import { rfc3339DateTime } from './date-time';

/**
 * An optional instant query parameter, an RFC 3339 date-time (contract §16), kept as the text, with
 * its offset, that PostgreSQL reads (a primitive, so the query's verdict is remembered). Anything
 * else, an empty value or a repeated parameter included, is refused.
 */
export function QueryInstant(options: { description: string; example: string }) {
  return applyDecorators(
    ApiPropertyOptional({ type: String, format: 'date-time', ...options }),
    OptionalNotNull(),
    Transform(({ value }: { value: unknown }) => rfc3339DateTime(value) ?? value),
    ValidateBy(
      { name: 'isRfc3339DateTime', validator: { validate: (value: unknown) => rfc3339DateTime(value) === value } },
      {
        message: ({ property }) =>
          `${property} must be an RFC 3339 date-time with its offset (2026-12-01T09:30:00Z, 2026-12-01T12:30:00.25+03:00)`,
      },
    ),
  );
}
