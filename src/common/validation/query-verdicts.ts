import type { Type } from '@nestjs/common';
import { BoundedMap } from '../runtime/bounded-map';

// A query string longer than this is validated every time rather than remembered.
const MAX_KEY_LENGTH = 512;
// Distinct query strings remembered per DTO class; the oldest goes first.
const MAX_ENTRIES = 256;

type Fields = Readonly<Record<string, unknown>>;

/**
 * The validated DTO of a query string, remembered per DTO class. Query DTOs are validated by
 * class-validator's built-in rules and pure transforms (no clock, no database), so one query
 * string always gives the same DTO; and callers repeat few of them (`limit=50`, the next offset),
 * while validating even `?limit=1` was a large part of the order list's time under load
 * (docs/performance.md, PERF-10). Only a DTO
 * whose fields are all primitive is remembered, so each caller gets a copy that shares nothing.
 * A refused query is not remembered: it is validated again and refused again.
 */
export class QueryVerdicts {
  private readonly byClass = new WeakMap<Type<object>, Map<string, Fields>>();

  /** The key a parsed query is remembered by, or undefined when it is not to be. */
  keyOf(query: unknown): string | undefined {
    if (query === null || typeof query !== 'object') return undefined;
    const key = JSON.stringify(query);
    return key.length <= MAX_KEY_LENGTH ? key : undefined;
  }

  /** A fresh DTO for a query validated before, or undefined. */
  recall<T extends object>(metatype: Type<T>, key: string): T | undefined {
    const fields = this.byClass.get(metatype)?.get(key);
    return fields && (Object.assign(Object.create(metatype.prototype as object) as object, fields) as T);
  }

  remember(metatype: Type<object>, key: string, dto: unknown): void {
    if (!(dto instanceof metatype) || !hasOnlyPrimitiveFields(dto)) return;
    let verdicts = this.byClass.get(metatype);
    if (!verdicts) this.byClass.set(metatype, (verdicts = new BoundedMap<string, Fields>(MAX_ENTRIES)));
    verdicts.set(key, Object.freeze({ ...(dto as Fields) }));
  }
}

function hasOnlyPrimitiveFields(dto: object): boolean {
  for (const value of Object.values(dto)) {
    if (value !== null && (typeof value === 'object' || typeof value === 'function')) return false;
  }
  return true;
}
