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
