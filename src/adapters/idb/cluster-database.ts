// The name of the IndexedDB database that holds one browser cluster. The service worker, the in-page
// engines and the UI's cluster actions (rename, export, import, delete, fresh lesson clusters) all reach a
// cluster's database through this one function.

/** The IndexedDB database holding `cluster`. */
export function clusterDatabaseName(cluster: string): string {
  return `kube-cluster-${cluster}`;
}
