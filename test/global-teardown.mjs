import { rm } from 'node:fs/promises';

export default async function globalTeardown() {
  const embedded = globalThis.__embeddedPostgres;
  if (!embedded) return;
  await embedded.server.stop();
  await rm(embedded.root, { recursive: true, force: true });
}
