import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';

/**
 * A development secret kept in `file`: the one there, or `make()` written there when there is none.
 * A new value is written whole to a file of its own and then linked to `file`, which fails when
 * `file` exists, so services starting together agree on one value and none reads a file another is
 * still writing (an exclusive create alone shows the others an empty file for a moment). A secret
 * already there is only read, so a data folder the service may not write still serves.
 */
export async function keptSecret(file: string, make: () => string): Promise<{ value: string; created: boolean }> {
  const kept = await readSecret(file);
  if (kept !== undefined) return { value: kept, created: false };
  await fs.mkdir(path.dirname(file), { recursive: true });
  const draft = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  let created = true;
  try {
    await fs.writeFile(draft, make(), { flag: 'wx', mode: 0o600 });
    await fs.link(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    created = false;
  } finally {
    await fs.rm(draft, { force: true });
  }
  return { value: (await readSecret(file))!, created };
}

/** The secret in `file`; undefined when there is no file; an error when it is empty. */
async function readSecret(file: string): Promise<string | undefined> {
  try {
    const value = (await fs.readFile(file, 'utf8')).trim();
    if (!value) throw new Error(`${file} is empty: delete it to have a new secret made`);
    return value;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
