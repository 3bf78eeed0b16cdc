import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { makeEnterableFolder, postgresUserBlocker } from './embedded-postgres-access';

/**
 * Where a cluster lives when the postgres user cannot reach its DATA_DIR: with the system's
 * persistent state, where distributions keep PostgreSQL's own clusters, and not in the temp dir,
 * which cleaners empty and every local user can write to.
 */
export const CLUSTER_HOME = '/var/lib/commerce-integration-layer';

export interface ClusterLocation {
  /** The cluster's folder, as PostgreSQL is given it. */
  databaseDir: string;
  /** DATA_DIR/postgres, when it is a link to databaseDir. */
  linkedFrom?: string;
}

/**
 * The cluster's folder: DATA_DIR/postgres, or, as root where the postgres user cannot enter the
 * folders above DATA_DIR (a clone under /root), a folder of its own under CLUSTER_HOME that
 * DATA_DIR/postgres links to. The link keeps the cluster with the rest of DATA_DIR (the keys its
 * rows are encrypted with), finds it again after the project folder moves, and shows where it is.
 * A new link gets a new folder, so a fresh clone at the same place never meets an old database.
 */
export async function clusterLocation(root: string): Promise<ClusterLocation> {
  const inPlace = path.join(root, 'postgres');
  const linked = await fs.readlink(inPlace).catch(() => undefined);
  if (linked !== undefined) return { databaseDir: path.resolve(root, linked), linkedFrom: inPlace };
  const blocker = postgresUserBlocker(root);
  if (blocker === undefined) return { databaseDir: inPlace };
  // A cluster already there was made by another user, and moving someone's database is not ours to do.
  if (existsSync(inPlace)) throw new Error(blocker);

  await makeEnterableFolder(CLUSTER_HOME);
  const name = (await fs.realpath(root)).replace(/[^A-Za-z0-9]+/g, '-').slice(-40);
  const folder = await fs.mkdtemp(path.join(CLUSTER_HOME, `${name.replace(/^-/, '')}-`));
  await fs.chmod(folder, 0o755);
  const databaseDir = path.join(folder, 'postgres');
  const stillBlocked = postgresUserBlocker(databaseDir);
  if (stillBlocked) throw new Error(stillBlocked);
  await fs.symlink(databaseDir, inPlace);
  return { databaseDir, linkedFrom: inPlace };
}
