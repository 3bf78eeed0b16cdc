import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { dropTemplateDatabase } from './support/template-database.mjs';

export default async function globalTeardown() {
  // After the last project that set up (test/global-setup.mjs).
  globalThis.__cilTestSetups -= 1;
  if (globalThis.__cilTestSetups > 0) return;
  await reportBoots(process.env.CIL_TEST_BOOTS_FILE);
  await dropTemplateDatabase(process.env.DATABASE_URL);
  const embedded = globalThis.__embeddedPostgres;
  if (!embedded) return;
  await embedded.server.stop();
  await rm(embedded.root, { recursive: true, force: true });
}

/** How many times this run booted the service, in-process and as a process (docs/development.md). */
async function reportBoots(file) {
  if (!file) return;
  const lines = (await readFile(file, 'utf8').catch(() => '')).split('\n');
  const count = (kind) => lines.filter((line) => line === kind).length;
  process.stdout.write(
    `\n== service boots in this run: ${count('app')} in-process, ${count('process')} as a process\n`,
  );
  await rm(path.dirname(file), { recursive: true, force: true });
}
