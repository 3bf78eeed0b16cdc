import { registerDecorator, type ValidationArguments } from 'class-validator';

export interface JsonBounds {
  /** Nesting of objects and arrays, the outer object counting 1. */
  maxDepth: number;
  /** Keys of all objects together. */
  maxKeys: number;
  /** UTF-8 length of the value as JSON. */
  maxBytes: number;
}

/** Why a free-form JSON value is beyond the bounds, or undefined when it is within them. */
export function jsonBoundsProblem(value: unknown, bounds: JsonBounds): string | undefined {
  let keys = 0;
  const walk = (node: unknown, depth: number): string | undefined => {
    if (node === null || typeof node !== 'object') return undefined;
    if (depth > bounds.maxDepth) return `must not be nested more than ${bounds.maxDepth} levels deep`;
    const children = Array.isArray(node) ? node : Object.values(node);
    if (!Array.isArray(node)) keys += children.length;
    if (keys > bounds.maxKeys) return `must not have more than ${bounds.maxKeys} keys`;
    for (const child of children) {
      const problem = walk(child, depth + 1);
      if (problem) return problem;
    }
    return undefined;
  };
  const shape = walk(value, 1);
  if (shape) return shape;
  if (Buffer.byteLength(JSON.stringify(value)) > bounds.maxBytes)
    return `must not be larger than ${bounds.maxBytes} bytes as JSON`;
  return undefined;
}

/**
 * A free-form object that clients can read back safely: bounded in depth, keys and size, so a
 * stored value never breaks a client's parser or bloats every list that carries it.
 */
export function IsBoundedJsonObject(bounds: JsonBounds) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isBoundedJsonObject',
      target: target.constructor,
      propertyName,
      validator: {
        validate: (value: unknown) =>
          typeof value === 'object' &&
          value !== null &&
          !Array.isArray(value) &&
          jsonBoundsProblem(value, bounds) === undefined,
        defaultMessage: (args?: ValidationArguments) => {
          const value: unknown = args?.value;
          const problem =
            typeof value === 'object' && value !== null && !Array.isArray(value)
              ? jsonBoundsProblem(value, bounds)
              : 'must be an object';
          return `${args?.property ?? 'value'} ${problem ?? 'is invalid'}`;
        },
      },
    });
}
