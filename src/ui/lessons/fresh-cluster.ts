// Making a cluster fresh: its IndexedDB database (named by src/adapters/idb/cluster-database.ts) is deleted, so the next
// request to that cluster seeds a new one. The hosts' connections close on `versionchange` and retire the
// engine, so an open connection does not block the deletion. Used only for lesson clusters.
import { clusterDatabaseName } from '../../adapters/idb/cluster-database.js';

/** Deletes the cluster's database; resolves once deleted (or when the browser has no IndexedDB). */
export function freshCluster(cluster: string, idb: IDBFactory | undefined = globalThis.indexedDB): Promise<void> {
  if (!idb) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const req = idb.deleteDatabase(clusterDatabaseName(cluster));
    req.onsuccess = () => resolve();
    req.onerror = () => reject(req.error ?? new Error(`the cluster ${cluster} could not be reset`));
    // blocked: another connection has not closed yet; the deletion still completes once it does
  });
}
