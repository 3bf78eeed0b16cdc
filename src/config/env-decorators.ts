import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsInt,
  IsOptional,
  Max,
  MaxLength,
  Min,
  MinLength,
  type ValidationArguments,
} from 'class-validator';

/*
 * The kinds of variable the environment declares, each with its range given once: the checks and
 * the message naming the variable and the range both come from it.
 */

const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
const toBool = ({ value }: { value: unknown }) => {
  if (typeof value !== 'string') return value;
  const v = value.trim().toLowerCase();
  if (['true', '1', 'yes'].includes(v)) return true;
  if (['false', '0', 'no'].includes(v)) return false;
  return value;
};
export const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);

/** An integer from `min` to `max`, or with no `max` any integer from `min` on. */
export function IntRange(min: number, max?: number): PropertyDecorator {
  const message = ({ property }: ValidationArguments) =>
    max === undefined
      ? min === 1
        ? `${property} must be a positive integer`
        : `${property} must be an integer of at least ${min}`
      : `${property} must be an integer between ${min} and ${max}`;
  return applyDecorators(
    Transform(toInt),
    IsInt({ message }),
    Min(min, { message }),
    ...(max === undefined ? [] : [Max(max, { message })]),
  );
}

/** The same, unset (or empty) allowed. */
export function OptionalIntRange(min: number, max?: number): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => toInt({ value: emptyToUndefined({ value }) })),
    IsOptional(),
    IntRange(min, max),
  );
}

/** `true`, `1`, `yes` or `false`, `0`, `no`, in any case. */
export function Flag(): PropertyDecorator {
  return applyDecorators(
    Transform(toBool),
    IsBoolean({ message: ({ property }: ValidationArguments) => `${property} must be true or false` }),
  );
}

/** A text of at least `min` characters (1: not empty) and at most `max`. */
export function TextLength(min: number, max?: number): PropertyDecorator {
  const tooShort = ({ property }: ValidationArguments) =>
    min === 1 ? `${property} must not be empty` : `${property} must be at least ${min} characters`;
  const tooLong = ({ property }: ValidationArguments) => `${property} must be at most ${max} characters`;
  return applyDecorators(
    MinLength(min, { message: tooShort }),
    ...(max === undefined ? [] : [MaxLength(max, { message: tooLong })]),
  );
}
