// For tests of the IndexedDB layout: the records of a cluster database's history store, as stored.

/** Every record of the `history` store of database `name`, in key (revision) order. */
export async function rawHistory(name: string, idb: IDBFactory = indexedDB): Promise<{ revision: number; events: Record<string, unknown>[] }[]> {
  const r = idb.open(name);
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
  try {
    const all = db.transaction('history').objectStore('history').getAll();
    return await new Promise((resolve, reject) => {
      all.onsuccess = () => resolve(all.result);
      all.onerror = () => reject(all.error);
    });
  } finally {
    db.close();
  }
}
