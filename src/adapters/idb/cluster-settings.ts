// Per-cluster settings of the browser playground that the hosts read before they start a cluster's engine:
// for now whether the cluster is simulated (workload controllers, a scheduler and simulated nodes). Kept in
// an IndexedDB database of their own so the service worker, the in-page engines and the UI all see them.
import { openDB } from 'idb';

const DB = 'kube-playground-settings';
const STORE = 'clusters';

export interface ClusterSettings {
  /** The simulated cluster around the API is on. */
  simulated: boolean;
}

/** The playground's first cluster is simulated unless switched off; other clusters start as bare API servers. */
export function defaultClusterSettings(cluster: string): ClusterSettings {
  return { simulated: cluster === 'default' };
}

function open() {
  return openDB(DB, 1, {
    upgrade(db) {
      if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE);
    },
  });
}

export async function readClusterSettings(cluster: string): Promise<ClusterSettings> {
  try {
    const db = await open();
    try {
      const saved = (await db.get(STORE, cluster)) as Partial<ClusterSettings> | undefined;
      return { ...defaultClusterSettings(cluster), ...(saved ?? {}) };
    } finally {
      db.close();
    }
  } catch {
    return defaultClusterSettings(cluster);
  }
}

export async function writeClusterSettings(cluster: string, settings: ClusterSettings): Promise<void> {
  const db = await open();
  try {
    await db.put(STORE, settings, cluster);
  } finally {
    db.close();
  }
}

/** Forgets a cluster's settings (its database was deleted or renamed): a cluster of that name starts with the defaults. */
export async function deleteClusterSettings(cluster: string): Promise<void> {
  const db = await open();
  try {
    await db.delete(STORE, cluster);
  } finally {
    db.close();
  }
}
