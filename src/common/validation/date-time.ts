import { isRFC3339 } from 'class-validator';

/**
 * An RFC 3339 date-time (`2026-12-01T09:30:00Z`, `2026-12-01T12:30:00.25+03:00`; `t` and `z` in
 * either case; the grammar is class-validator's) that names a day of the calendar, as text that
 * PostgreSQL and JavaScript both read, or null for anything else. The grammar alone lets 30 February
 * through, which JavaScript rolls into March and PostgreSQL refuses: the date must come back the
 * same from a Date. Refused with it: a leap second (`:60`, which JavaScript cannot read), year 0000
 * and an offset past 14 hours (which PostgreSQL cannot, from 16; no zone is further than 14). A
 * fraction is cut to the microsecond, PostgreSQL's precision (its parser refuses a long text).
 */
export function rfc3339DateTime(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.toUpperCase();
  if (!isRFC3339(text) || text[10] !== 'T') return null;
  const day = text.slice(0, 10);
  if (day.startsWith('0000') || text.slice(17, 19) === '60' || !withinFourteenHours(text)) return null;
  if (new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) !== day) return null;
  return text.replace(/(\.\d{6})\d+/, '$1');
}

/** The offset (`Z`, or `±hh:mm` at the end) is at most 14 hours. */
function withinFourteenHours(text: string): boolean {
  if (text.endsWith('Z')) return true;
  const [hours, minutes] = text.slice(-5).split(':').map(Number);
  return hours * 60 + minutes <= 14 * 60;
}
