/*
 * ISO 8601 instants, as a query names them (contract §16: "a time that is not ISO 8601 → 400"):
 * a date — calendar (2026-11-26, 20261126), ordinal (2026-330, 2026330) or week (2026-W48-4,
 * 2026W484) — with a time of day and its offset (Z, ±hh, ±hhmm, ±hh:mm), the time to the hour,
 * minute or second, its last unit with a fraction after `.` or `,`, 24:00 being the next day's
 * start; or a date alone, to the day, month (2026-11), week (2026-W48) or year (2026), naming its
 * first instant in UTC. The date and the time are both basic or both extended; the offset may
 * be either, as many clients write `+0300` after an extended time.
 */
const EXTENDED =
  /^(\d{4})(?:-(\d{2})-(\d{2})|-(\d{3})|-W(\d{2})-([1-7]))(?:T(\d{2})(?::(\d{2})(?::(\d{2}))?)?(?:[.,](\d+))?(Z|[+-]\d{2}(?::?\d{2})?))?$/;
const BASIC =
  /^(\d{4})(?:(\d{2})(\d{2})|(\d{3})|W(\d{2})([1-7]))(?:T(\d{2})(?:(\d{2})(\d{2})?)?(?:[.,](\d+))?(Z|[+-]\d{2}(?::?\d{2})?))?$/;
/** The reduced dates, only ever alone: a year, a month, a week. */
const REDUCED = /^(\d{4})(?:-(\d{2})|-?W(\d{2}))?$/;
// Real offsets span −12:00 to +14:00; PostgreSQL refuses from ±16:00.
const MAX_OFFSET_MINUTES = 14 * 60;
const MICROS = { hour: 3_600_000_000n, minute: 60_000_000n, second: 1_000_000n } as const;

/** A UTC date's first millisecond, or undefined past the years 1–9999. */
function dayStart(year: number, month: number, day: number): number | undefined {
  if (year < 1 || month < 1 || month > 12 || day < 1) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCMonth() === month - 1 ? date.getTime() : undefined;
}

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** The Monday of ISO week `week` of `year`, or undefined for a week the year does not have. */
function weekStart(year: number, week: number): number | undefined {
  const january4 = dayStart(year, 1, 4);
  if (january4 === undefined || week < 1) return undefined;
  const weekday = (new Date(january4).getUTCDay() + 6) % 7; // Monday 0
  const january1 = (weekday + 4) % 7; // 3 is Thursday
  const weeks = january1 === 3 || (january1 === 2 && isLeap(year)) ? 53 : 52;
  return week > weeks ? undefined : january4 - weekday * 86_400_000 + (week - 1) * 7 * 86_400_000;
}

/** The first millisecond of the date the groups give (calendar, ordinal or week), in UTC. */
function dateStart(year: string, groups: Array<string | undefined>): number | undefined {
  const [month, day, ordinal, week, weekday] = groups;
  const y = Number(year);
  if (month !== undefined) return dayStart(y, Number(month), Number(day ?? 1));
  if (ordinal !== undefined) {
    const start = dayStart(y, 1, 1);
    const n = Number(ordinal);
    return start === undefined || n < 1 || n > (isLeap(y) ? 366 : 365) ? undefined : start + (n - 1) * 86_400_000;
  }
  if (week !== undefined) {
    const start = weekStart(y, Number(week));
    return start === undefined ? undefined : start + (Number(weekday ?? 1) - 1) * 86_400_000;
  }
  return dayStart(y, 1, 1);
}

/**
 * The time of day in microseconds, its fraction cut (never above the instant written, so `at or
 * after` misses nothing), or undefined when out of range. A second of 60 is a leap second, read
 * as PostgreSQL reads it: the next minute's start.
 */
function timeOfDay(hour: string, minute?: string, second?: string, fraction?: string): bigint | undefined {
  const [h, m, s] = [Number(hour), Number(minute ?? 0), Number(second ?? 0)];
  if (h > 24 || m > 59 || s > 60) return undefined;
  // 24:00 is the end of the day: nothing may follow it, not even a fraction too small to keep.
  if (h === 24 && (m > 0 || s > 0 || /[1-9]/.test(fraction ?? ''))) return undefined;
  const unit = second !== undefined ? MICROS.second : minute !== undefined ? MICROS.minute : MICROS.hour;
  // Fifteen digits hold any microsecond of an hour; BigInt keeps them exact.
  const digits = fraction?.slice(0, 15);
  const part = digits === undefined ? 0n : (BigInt(digits) * unit) / 10n ** BigInt(digits.length);
  return BigInt(h) * MICROS.hour + BigInt(m) * MICROS.minute + BigInt(s) * MICROS.second + part;
}

/** An offset as PostgreSQL reads it (`Z`, `±hh:mm`), or undefined past ±14:00. */
function offsetText(offset: string): string | undefined {
  if (offset === 'Z') return 'Z';
  const digits = offset.slice(1).replace(':', '');
  const [hours, minutes] = [digits.slice(0, 2), digits.slice(2) || '00'];
  if (Number(minutes) > 59 || Number(hours) * 60 + Number(minutes) > MAX_OFFSET_MINUTES) return undefined;
  return `${offset[0]}${hours}:${minutes}`;
}

/**
 * `YYYY-MM-DDThh:mm:ss.ffffff` for microseconds since 1970, or undefined outside the years 1–9999:
 * the wall clock's year as written, as PostgreSQL bounds its input; its offset may take the
 * instant a year further, which PostgreSQL reads.
 */
function dateTimeText(micros: bigint): string | undefined {
  const milliseconds = micros / 1000n - (micros % 1000n < 0n ? 1n : 0n);
  const date = new Date(Number(milliseconds));
  const year = date.getUTCFullYear();
  if (year < 1 || year > 9999) return undefined;
  const rest = String(micros - milliseconds * 1000n).padStart(3, '0');
  return date.toISOString().replace(/Z$/, rest);
}

/**
 * An instant in the ISO 8601 forms above as the text PostgreSQL reads (extended, to the
 * microsecond: its precision, so `at or after` misses nothing at the boundary), or undefined for
 * any other text. A time without an offset is refused: it names no instant.
 */
export function isoInstantText(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const reduced = REDUCED.exec(raw);
  if (reduced) {
    const [, year, month, week] = reduced;
    const start = week !== undefined ? weekStart(Number(year), Number(week)) : dateStart(year, [month]);
    const text = start === undefined ? undefined : dateTimeText(BigInt(start) * 1000n);
    return text && `${text}Z`;
  }
  const m = EXTENDED.exec(raw) ?? BASIC.exec(raw);
  if (!m) return undefined;
  const [, year, month, day, ordinal, week, weekday, hour, minute, second, fraction, offset] = m;
  const start = dateStart(year, [month, day, ordinal, week, weekday]);
  if (start === undefined) return undefined;
  // The wall clock as written, then its offset: PostgreSQL applies the offset itself.
  const time = hour === undefined ? 0n : timeOfDay(hour, minute, second, fraction);
  const text = time === undefined ? undefined : dateTimeText(BigInt(start) * 1000n + time);
  const east = offset === undefined ? 'Z' : offsetText(offset);
  return text && east && `${text}${east}`;
}
