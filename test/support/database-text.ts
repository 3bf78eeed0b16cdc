import { withClient } from './test-database';

/** Every row of every table as text: what a database dump would show. */
export async function databaseAsText(databaseUrl: string): Promise<string> {
  return withClient(databaseUrl, async (c) => {
    const tables = await c.query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`);
    const parts: string[] = [];
    for (const { tablename } of tables.rows) {
      const rows = await c.query(`SELECT t::text AS row FROM "${tablename}" t`);
      parts.push(...rows.rows.map((r: { row: string }) => r.row));
    }
    return parts.join('\n');
  });
}
