// Per-cluster settings of the browser playground that the hosts read before they start a cluster's engine:
// whether the cluster is simulated (workload controllers, a scheduler and simulated nodes) and which of those run. Kept in
// an IndexedDB database of their own so the service worker, the in-page engines and the UI all see them.
import { openDB } from 'idb';
import type { WorkloadControllerName } from '../../engine/controllers/names.js';

const DB = 'kube-playground-settings';
const STORE = 'clusters';

export interface ClusterSettings {
  /** The simulated cluster around the API is on. */
  simulated: boolean;
  /** Which of the simulated cluster's controllers run (absent: all of them). */
  controllers?: WorkloadControllerName[];
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

/**
 * Tells the engines of this origin that a cluster's settings changed, so its engine restarts with them (the
 * hosts' BroadcastChannel, ENGINES_CHANNEL of src/hosts/sw/clusters.ts, named here so the UI does not load
 * the engine). Without BroadcastChannel the settings apply when the engine next starts.
 */
/**
 * Request header by which a page tells its own browser host, in band, that the cluster's settings changed:
 * the host restarts the cluster's engine before it serves that request. The BroadcastChannel announcement
 * below reaches the other tabs' hosts too, but a service worker may get it after the page's next request.
 */
export const SETTINGS_CHANGED_HEADER = 'X-Playground-Settings-Changed';

export function announceClusterSettings(cluster: string): void {
  try {
    const channel = new BroadcastChannel('kube-engines');
    channel.postMessage({ type: 'settings', cluster, from: 'ui' });
    channel.close();
  } catch {
    // no BroadcastChannel
  }
}
