// Extended format only, seconds required, the offset required on a time; a fraction of 1–9 digits.
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:Z|([+-])(\d{2}):(\d{2})))?$/;
// Real offsets span −12:00 to +14:00; PostgreSQL refuses from ±16:00.
const MAX_OFFSET_MINUTES = 14 * 60;

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * An instant in the ISO 8601 forms a query may name, as the text PostgreSQL reads it as, or
 * undefined for any other text: a date and time with `Z` or an offset (`2026-11-26T12:00:00Z`,
 * `2026-11-26T15:00:00.5+03:00`), or a date alone, which is its midnight in UTC. A time without an
 * offset is refused: it names no instant. Fractions beyond microseconds (PostgreSQL's precision)
 * are cut, never rounded up, so `at or after` misses nothing at the boundary.
 */
export function isoInstantText(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const m = INSTANT.exec(raw);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, fraction, sign, oh, om] = m;
  const year = Number(y);
  const month = Number(mo);
  if (year < 1 || month < 1 || month > 12 || Number(d) < 1 || Number(d) > daysIn(year, month)) return undefined;
  if (h === undefined) return `${y}-${mo}-${d}T00:00:00Z`;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  if (sign !== undefined && (Number(om) > 59 || Number(oh) * 60 + Number(om) > MAX_OFFSET_MINUTES)) return undefined;
  const cut = fraction === undefined ? '' : `.${fraction.slice(0, 6)}`;
  return `${y}-${mo}-${d}T${h}:${mi}:${s}${cut}${sign === undefined ? 'Z' : `${sign}${oh}:${om}`}`;
}
