/**
 * One tenant's rows of a table shared by all of them, for a page read newest first (contract §21:
 * one tenant's data must not slow another's lists).
 *
 * Written `col = $1` under the service's generic plans (plan_cache_mode), the planner assumes every
 * tenant holds 1/n_distinct of the rows and a `LIMIT $n` reads a tenth of them; with few tenants it
 * then walks the primary key newest first and filters by tenant, which for a small tenant beside a
 * large one reads the large one's rows until the page is full. As `col = ANY (ARRAY[$1])` the
 * condition is no equality the planner could drop from `ORDER BY col, …`, so that order (see
 * tenantOrderSql) comes only from an index that leads with the tenant, and the index scan still
 * takes the value as an equality: it starts at the tenant's newest row and stops after its last.
 * Guard: the generic-plan checks of the medium tier (test/medium/tenant-plans.medium-spec.ts).
 */
export const tenantRowsSql = (column: string, value: string) => `${column} = ANY (ARRAY[${value}]::int[])`;

/** The leading key of such a page's ORDER BY: the tenant's column, in the page's direction. */
export const tenantOrderSql = (column: string, direction: 'ASC' | 'DESC' = 'DESC') => `${column} ${direction}`;
