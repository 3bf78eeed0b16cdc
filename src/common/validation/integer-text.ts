/** PostgreSQL's `integer` and the largest id or count JavaScript holds exactly (below `bigint`'s top). */
export const INT4_MAX = 2_147_483_647;
export const SAFE_INT_MAX = Number.MAX_SAFE_INTEGER;

const CANONICAL = /^(0|[1-9][0-9]*)$/;

/**
 * The number a canonical decimal text names, or undefined: `0x1`, `+1`, `01`, `1e0`, `1.0`, ` 1`
 * and the empty text are not numbers here (contract, conventions), so none of them can address
 * the record that `1` does. Digits beyond the safe range are refused before any rounding.
 */
export function parseCanonicalInteger(raw: unknown, max: number): number | undefined {
  if (typeof raw !== 'string' || !CANONICAL.test(raw) || raw.length > 16) return undefined;
  const value = Number(raw);
  return value <= max ? value : undefined;
}
