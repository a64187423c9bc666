// The Clusters menu's carrying actions, over the browser's IndexedDB: rename a cluster (its database is
// held, copied whole under the new name in one transaction, and only then is the old one deleted, so a
// failure midway leaves the cluster where it was and no write is lost), export a cluster to a file with its
// history and settings, and import such a file into a new cluster. The file format and its checks are in
// carry.ts.
import { databaseExists, dumpClusterDatabase, moveClusterDatabase, restoreClusterDatabase } from '../../adapters/idb/cluster-copy.js';
import { clusterDatabaseName, deleteClusterDatabase } from '../../adapters/idb/cluster-database.js';
import { deleteClusterSettings, readClusterSettings, writeClusterSettings } from '../../adapters/idb/cluster-settings.js';
import { ADMIN, loadActingUser, saveActingUser } from '../auth/identity.js';
import { buildClusterFile, CLUSTER_NAME, dumpOf, type ClusterFile } from './carry.js';

const clusterDatabase = clusterDatabaseName;

/** How long a rename or delete waits for other holders of a cluster's database (tabs, workers) to let go. */
const HOLD_TIMEOUT_MS = 10_000;

/** Deletes a cluster's database; rejects when it stays open elsewhere for HOLD_TIMEOUT_MS. */
export const deleteCluster = (cluster: string): Promise<void> => deleteClusterDatabase(cluster, { blockedTimeoutMs: HOLD_TIMEOUT_MS });

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
 * Renames cluster `from` to `to`. The old database is held while it is copied (its engines stop and the
 * requests for it wait; moveClusterDatabase), so nothing written meanwhile is lost and a busy simulated
 * cluster renames at the first try; it is deleted only once the copy and the new name's settings are
 * complete. Resolves to a warning when the old copy could not be deleted (both names then hold the cluster).
 */
export async function renameCluster(from: string, to: string, deleteOld: (cluster: string) => Promise<void>): Promise<string | undefined> {
  const settings = await readClusterSettings(from);
  try {
    await moveClusterDatabase(clusterDatabase(from), clusterDatabase(to), () => writeClusterSettings(to, settings), { blockedTimeoutMs: HOLD_TIMEOUT_MS });
  } catch (err) {
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
