import { rm } from 'node:fs/promises';
import { dropTemplateDatabase } from './support/template-database.mjs';

export default async function globalTeardown() {
  await dropTemplateDatabase(process.env.DATABASE_URL);
  const embedded = globalThis.__embeddedPostgres;
  if (!embedded) return;
  await embedded.server.stop();
  await rm(embedded.root, { recursive: true, force: true });
}
