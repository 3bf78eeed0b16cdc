/**
 * A timestamptz expression as JSON text reads it from the service: ISO 8601 in UTC with
 * milliseconds, the form Date.prototype.toISOString writes (for answers and webhook bodies that
 * PostgreSQL builds itself).
 */
export const isoTimestampSql = (expression: string) =>
  `to_char(${expression} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
