import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { OptionalNotNull } from './field-decorators';
import { parseCanonicalInteger } from './integer-text';

/**
 * An optional integer query parameter: canonical decimal text only (`1e2`, `0x10`, `+5`, `05`, an
 * empty value or a repeated parameter stay text and fail `IsInt`), within [min, max].
 */
export function QueryInt(options: {
  min: number;
  max: number;
  default?: number;
  description?: string;
  /** The answer to a value above `max`, when it should say more than the range. */
  messageOverMax?: string;
}) {
  const range = `${options.min}–${options.max}`;
  const message = (args: { property: string }) => `${args.property} must be an integer from ${range}`;
  return applyDecorators(
    ApiPropertyOptional({
      type: 'integer',
      minimum: options.min,
      maximum: options.max,
      default: options.default,
      description: options.description,
    }),
    OptionalNotNull(),
    Transform(({ value }: { value: unknown }) => parseCanonicalInteger(value, Number.MAX_SAFE_INTEGER) ?? value),
    IsInt({ message }),
    Min(options.min, { message }),
    Max(options.max, { message: options.messageOverMax ?? message }),
  );
}
