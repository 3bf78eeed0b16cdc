import { QueryFailedError } from 'typeorm';

/** PostgreSQL's unique_violation, optionally on one named constraint. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const driverError = error.driverError as { code?: string; constraint?: string };
  return driverError.code === '23505' && (constraint === undefined || driverError.constraint === constraint);
}

/** PostgreSQL's foreign_key_violation: the referenced row does not exist. */
export function isForeignKeyViolation(error: unknown): boolean {
  return error instanceof QueryFailedError && (error.driverError as { code?: string }).code === '23503';
}

/**
 * PostgreSQL's numeric_value_out_of_range, from TypeORM's wrapper or from the driver itself (the
 * prepared statements go to pg directly): a sum or a value beyond its column.
 */
export function isOutOfRange(error: unknown): boolean {
  const driverError: unknown = error instanceof QueryFailedError ? error.driverError : error;
  return (driverError as { code?: unknown } | null)?.code === '22003';
}

/**
 * PostgreSQL's deadlock_detected, from TypeORM's wrapper or from the driver itself: one of the
 * transactions was rolled back, and running it again is what PostgreSQL advises.
 */
export function isDeadlock(error: unknown): boolean {
  const driverError: unknown = error instanceof QueryFailedError ? error.driverError : error;
  return (driverError as { code?: unknown } | null)?.code === '40P01';
}

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (starting up|shutting down)|Connection is closed/i;

/**
 * The database cannot be reached (down, restarting, out of connections): the request should get
 * 503 and may be retried, rather than a 500 that suggests a bug.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const candidates = [
    error,
    (error as { driverError?: unknown } | null)?.driverError,
    (error as { cause?: unknown } | null)?.cause,
  ];
  return candidates.some((candidate) => {
    if (!candidate || typeof candidate !== 'object') return false;
    const { code, message } = candidate as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
    return typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message);
  });
}
