// The IndexedDB database that holds one browser cluster: its name, and its deletion. The service worker, the
// in-page engines and the UI's cluster actions (rename, export, import, delete, fresh lesson clusters) all
// reach a cluster's database through these functions. This module imports nothing, so the small chunks
// that only delete a cluster (a lesson's reset) do not pull in the storage adapter.

/** The IndexedDB database holding `cluster`. */
export function clusterDatabaseName(cluster: string): string {
  return `kube-cluster-${cluster}`;
}

export interface DeleteOptions {
  /** The IndexedDB factory; the global one when absent. */
  idb?: IDBFactory;
  /**
   * When the deletion is blocked (a connection elsewhere has not closed yet), reject after this many ms.
   * The deletion itself is not withdrawn: it still completes once the last connection closes. Absent: wait.
   */
  blockedTimeoutMs?: number;
}

/** Deletes the database `name`; resolves once it is gone. */
export function deleteDatabase(name: string, options: DeleteOptions = {}): Promise<void> {
  return remove(name, `the database ${name}`, options);
}

/**
 * Deletes the database of `cluster`. Engines holding it (the service worker, other tabs) close their
 * connection on `versionchange` and start afresh on their next request, so a deleted cluster that is used
 * again is a fresh one.
 */
export function deleteClusterDatabase(cluster: string, options: DeleteOptions = {}): Promise<void> {
  return remove(clusterDatabaseName(cluster), `cluster ${cluster}`, options);
}

function remove(name: string, what: string, options: DeleteOptions): Promise<void> {
  const f = options.idb ?? (globalThis as { indexedDB?: IDBFactory }).indexedDB;
  if (!f) return Promise.reject(new Error('this browser has no IndexedDB'));
  return new Promise((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const r = f.deleteDatabase(name);
    r.onsuccess = () => {
      if (timer !== undefined) clearTimeout(timer);
      resolve();
    };
    r.onerror = () => {
      if (timer !== undefined) clearTimeout(timer);
      reject(r.error ?? new Error(`${what} could not be deleted`));
    };
    const limit = options.blockedTimeoutMs;
    if (limit !== undefined) {
      r.onblocked = () => {
        timer ??= setTimeout(() => reject(new Error(`${what} is still open somewhere (another tab?)`)), limit);
      };
    }
  });
}
