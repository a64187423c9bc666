// Making a cluster fresh: its IndexedDB database is deleted, so the next request to that cluster seeds a new
// one. The hosts' connections close on `versionchange` and retire the engine, so an open connection does not
// block the deletion (and when one does, the deletion still completes once it closes). Used only for lesson
// clusters.
import { deleteClusterDatabase } from '../../adapters/idb/cluster-database.js';

/** Deletes the cluster's database; resolves once deleted (or when the browser has no IndexedDB). */
export function freshCluster(cluster: string, idb: IDBFactory | undefined = globalThis.indexedDB): Promise<void> {
  if (!idb) return Promise.resolve();
  return deleteClusterDatabase(cluster, { idb });
}
