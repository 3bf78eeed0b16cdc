import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** What link(2) answers on a filesystem without hard links (some network and FUSE mounts, FAT). */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);
/** How long an empty secret file is read again before it is an error: another service may be writing it. */
const EMPTY_WAIT_MS = 1000;

/**
 * A development secret kept in `file`: the one there, or `make()` written there when there is none.
 * A new value is written whole and flushed to a file of its own and then linked to `file`, which
 * fails when `file` exists, so services starting together agree on one value and none reads a
 * file another is still writing (an exclusive create alone shows the others an empty file for a
 * moment). Where the filesystem has no hard links, `file` is created exclusively instead, and an
 * empty file is read again for a moment before it is an error. A secret already there is only
 * read, so a data folder the service may not write still serves.
 */
export async function keptSecret(file: string, make: () => string): Promise<{ value: string; created: boolean }> {
  const kept = await readSecret(file);
  if (kept !== undefined) return { value: kept, created: false };
  await fs.mkdir(path.dirname(file), { recursive: true });
  const draft = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  let created = true;
  try {
    const value = make();
    await writeFlushed(draft, value);
    await fs.link(draft, file).catch((error: NodeJS.ErrnoException) => {
      if (!NO_HARD_LINKS.has(error.code ?? '')) throw error;
      return writeFlushed(file, value);
    });
    await syncFolder(path.dirname(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    created = false;
  } finally {
    await fs.rm(draft, { force: true });
  }
  return { value: (await readSecret(file))!, created };
}

/**
 * Creates `file` (failing when it exists) with `value`, on disk before it returns; a file it could
 * not write whole is removed, so no later start finds it empty or cut.
 */
async function writeFlushed(file: string, value: string): Promise<void> {
  const handle = await fs.open(file, 'wx', 0o600);
  try {
    await handle.writeFile(value);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await fs.rm(file, { force: true });
    throw error;
  }
  await handle.close();
}

/** Flushes a folder's entries, so a secret linked into it outlives a crash; where a folder cannot be opened, skipped. */
async function syncFolder(folder: string): Promise<void> {
  const handle = await fs.open(folder, 'r').catch(() => undefined);
  if (!handle) return;
  try {
    await handle.sync();
  } catch {
    // Some filesystems refuse fsync on a folder; the file itself is flushed already.
  } finally {
    await handle.close();
  }
}

/** The secret in `file`; undefined when there is no file; an error when it stays empty. */
async function readSecret(file: string): Promise<string | undefined> {
  for (const started = Date.now(); ; await sleep(50)) {
    let value: string;
    try {
      value = (await fs.readFile(file, 'utf8')).trim();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    if (value) return value;
    if (Date.now() - started >= EMPTY_WAIT_MS) throw new Error(`${file} is empty: delete it to have a new secret made`);
  }
}
