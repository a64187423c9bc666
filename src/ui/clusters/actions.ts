// The Clusters menu's carrying actions, over the browser's IndexedDB: rename a cluster (its database is
// copied whole under the new name in one transaction, checked unchanged, and only then is the old one
// deleted, so a failure midway leaves the cluster where it was), export a cluster to a file with its
// history and settings, and import such a file into a new cluster. The file format and its checks are in
// carry.ts.
import { databaseExists, dumpClusterDatabase, restoreClusterDatabase } from '../../adapters/idb/cluster-copy.js';
import { clusterDatabaseName, deleteClusterDatabase } from '../../adapters/idb/cluster-database.js';
import { deleteClusterSettings, readClusterSettings, writeClusterSettings } from '../../adapters/idb/cluster-settings.js';
import { ADMIN, loadActingUser, saveActingUser } from '../auth/identity.js';
import { buildClusterFile, CLUSTER_NAME, dumpOf, type ClusterFile } from './carry.js';

const clusterDatabase = clusterDatabaseName;

/** Why a new cluster name cannot be used, or undefined. */
export async function nameProblem(name: string, known: string[]): Promise<string | undefined> {
  if (!CLUSTER_NAME.test(name)) return `"${name}" is not a valid cluster name (a lowercase DNS label: a-z, 0-9 and "-")`;
  if (known.includes(name) || (await databaseExists(clusterDatabase(name)))) return `a cluster named ${name} exists already`;
  return undefined;
}

/** The file of a cluster (a consistent snapshot of its database, its settings and acting user). */
export async function exportClusterFile(cluster: string): Promise<ClusterFile> {
  const dump = await dumpClusterDatabase(clusterDatabase(cluster));
  const settings = await readClusterSettings(cluster);
  return buildClusterFile(cluster, dump, settings, loadActingUser(globalThis.localStorage, cluster), new Date());
}

/** Creates cluster `target` from a checked file: its database in one transaction, then its settings. */
export async function importClusterFile(file: ClusterFile, target: string): Promise<void> {
  await restoreClusterDatabase(clusterDatabase(target), dumpOf(file));
  try {
    const { simulated, controllers } = file.settings;
    await writeClusterSettings(target, { simulated, ...(controllers ? { controllers } : {}) });
  } catch (err) {
    // the settings could not be written: the import is undone, so nothing half made stays
    await deleteClusterDatabase(target).catch(() => undefined);
    throw err;
  }
  saveActingUser(globalThis.localStorage, target, file.actingUser ?? ADMIN);
}

/**
 * Renames cluster `from` to `to`. The copy is made first; the old database is deleted only when the copy is
 * complete and the old cluster did not change meanwhile. Resolves to a warning when the old copy could not
 * be deleted (both names then hold the cluster).
 */
export async function renameCluster(from: string, to: string, deleteOld: (cluster: string) => Promise<void>): Promise<string | undefined> {
  const dump = await dumpClusterDatabase(clusterDatabase(from));
  const settings = await readClusterSettings(from);
  await restoreClusterDatabase(clusterDatabase(to), dump);
  try {
    await writeClusterSettings(to, settings);
    const again = await dumpClusterDatabase(clusterDatabase(from));
    if (again.revision !== dump.revision) throw new Error(`cluster ${from} changed while it was being copied; nothing was renamed, try again`);
  } catch (err) {
    await deleteClusterDatabase(to).catch(() => undefined);
    await deleteClusterSettings(to).catch(() => undefined);
    throw err;
  }
  const user = loadActingUser(globalThis.localStorage, from);
  saveActingUser(globalThis.localStorage, to, user);
  try {
    await deleteOld(from);
  } catch (err) {
    return `cluster ${to} is a complete copy, but the old cluster ${from} could not be deleted (${err instanceof Error ? err.message : String(err)}); delete it from this menu later`;
  }
  saveActingUser(globalThis.localStorage, from, ADMIN);
  await deleteClusterSettings(from).catch(() => undefined);
  return undefined;
}
