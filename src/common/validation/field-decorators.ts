import { applyDecorators, type Type as ClassType } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsInt,
  IsObject,
  Max,
  Min,
  ValidateIf,
  ValidateNested,
  type ValidationOptions,
} from 'class-validator';
import { INT4_MAX } from './integer-text';
import { MAX_PRICE_KOPEKS } from './money';

const rangeMessage = (min: number, max: number) => (args: { property: string }) =>
  `${args.property} must be an integer from ${min} to ${max}`;

/** The id of a record named in a body: a positive `integer`, never beyond the column. */
export function BodyId(description?: string) {
  const message = rangeMessage(1, INT4_MAX);
  return applyDecorators(
    ApiProperty({ type: 'integer', minimum: 1, maximum: INT4_MAX, description }),
    IsInt({ message }),
    Min(1, { message }),
    Max(INT4_MAX, { message }),
  );
}

/** An amount of money in kopeks, bounded so that no total can leave the exact integers (see money.ts). */
export function Kopeks(options: { optional?: boolean; max?: number; description?: string } = {}) {
  const max = options.max ?? MAX_PRICE_KOPEKS;
  const message = rangeMessage(0, max);
  const doc = { type: 'integer', minimum: 0, maximum: max, description: options.description } as const;
  return applyDecorators(
    options.optional ? ApiPropertyOptional(doc) : ApiProperty(doc),
    ...(options.optional ? [OptionalNotNull()] : []),
    IsInt({ message }),
    Min(0, { message }),
    Max(max, { message }),
  );
}

/**
 * A list of objects of one DTO class. Each entry must be an object: class-validator would otherwise
 * try to validate an array or a primitive in its place as if it were the class.
 */
export function ArrayOf(
  cls: () => ClassType,
  options: { min?: number; max: number; minMessage?: string; maxMessage?: string },
) {
  return applyDecorators(
    IsArray(),
    ...(options.min ? [ArrayMinSize(options.min, options.minMessage ? { message: options.minMessage } : {})] : []),
    ArrayMaxSize(options.max, options.maxMessage ? { message: options.maxMessage } : {}),
    IsObject({ each: true, message: (args) => `each value in ${args.property} must be an object` }),
    ValidateNested({ each: true }),
    Type(cls),
  );
}

/** One nested object of a DTO class (never an array or a primitive in its place). */
export function NestedObject(cls: () => ClassType, options: { optional?: boolean } = {}) {
  return applyDecorators(
    ...(options.optional ? [OptionalNotNull()] : [IsDefined()]),
    IsObject(),
    ValidateNested(),
    Type(cls),
  );
}

/**
 * Optional, but not nullable: absent skips the field's rules, `null` meets them and is refused by its
 * type check. Every optional body field says this (or Nullable) instead of class-validator's
 * IsOptional, which lets `null` through as if absent: a PATCH that meant to clear a required field
 * would reach a NOT NULL column, and a service that tells "given" from "absent" by `undefined` would
 * take a `null` for a value (the lint rule in eslint.config.mjs holds src/ to it).
 */
export function OptionalNotNull(options?: ValidationOptions) {
  return ValidateIf((_object, value) => value !== undefined, options);
}

/**
 * Optional and nullable, for the fields whose contract gives `null` a meaning (it clears a value, or
 * means "any"): absent and `null` skip the field's rules. Its OpenAPI property says `nullable` itself.
 */
export function Nullable(options?: ValidationOptions) {
  return ValidateIf((_object, value) => value !== undefined && value !== null, options);
}
