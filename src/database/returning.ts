import type { EntityManager } from 'typeorm';

/**
 * Runs an UPDATE or DELETE … RETURNING and gives its rows. TypeORM's `query` answers such
 * statements with `[rows, affectedCount]` rather than the rows an INSERT or SELECT gives.
 */
export async function changedRows<T>(manager: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  const result: unknown = await manager.query(sql, params);
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') {
    return result[0] as T[];
  }
  return result as T[];
}
