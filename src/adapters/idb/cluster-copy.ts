// Copying a cluster's IndexedDB database as a whole: a consistent snapshot of its objects and its event
// history (one read-only transaction), and the restore of such a snapshot into a new, empty database (one
// read-write transaction, so a failure midway leaves nothing half written), and the move of a cluster to a
// new name while its old database is held (moveClusterDatabase). Used to rename a cluster and to export and
// import it with its history: the restored cluster has the same revisions, so a client can
// still watch from a resourceVersion of the window the snapshot holds.
//
// The schema is the one openIdbStorage creates (it is opened through it first); the idempotency records of
// past requests are not carried (they belong to the clients of the old name). A dump holds every history
// event whole (the format export files have always had); the restore stores them as the storage does
// (history-records.ts: each state once), keeping whole any event whose state would not read back the same.
import type { HistoryEvent, StoredObject } from '../../engine/storage/interface.js';
import { openIdbStorage } from './idb-storage.js';
import { compactRecords, wholeRecords, type HistoryRecord } from './history-records.js';
import { deleteDatabase } from './cluster-database.js';

export interface HistoryRecordDump {
  revision: number;
  time: number;
  events: HistoryEvent[];
}

export interface ClusterDump {
  revision: number;
  compactedRevision: number;
  objects: StoredObject[];
  history: HistoryRecordDump[];
}

function factoryOf(idb?: IDBFactory): IDBFactory {
  const f = idb ?? (globalThis as { indexedDB?: IDBFactory }).indexedDB;
  if (!f) throw new Error('this browser has no IndexedDB');
  return f;
}

function req<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error ?? new Error('IndexedDB request failed'));
  });
}

function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = () => reject(tx.error ?? new Error('the IndexedDB transaction was aborted'));
    tx.onerror = () => reject(tx.error ?? new Error('the IndexedDB transaction failed'));
  });
}

/** Opens an existing database without creating it (rejects when it does not exist). */
function openExisting(name: string, idb: IDBFactory): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    let created = false;
    const r = idb.open(name);
    r.onupgradeneeded = () => {
      // it did not exist: undo the creation
      created = true;
      r.transaction?.abort();
    };
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(created ? new Error(`there is no database ${name}`) : (r.error ?? new Error(`database ${name} could not be opened`)));
  });
}

/** Closes the connection when another one wants to delete or upgrade the database. */
function stepAside(db: IDBDatabase): IDBDatabase {
  db.onversionchange = () => db.close();
  return db;
}

/** Whether a database of that name exists (false when the browser cannot say). */
export async function databaseExists(name: string, idb?: IDBFactory): Promise<boolean> {
  const f = factoryOf(idb);
  if (typeof f.databases !== 'function') return false;
  return (await f.databases()).some((d) => d.name === name);
}

const STORES = ['objects', 'history', 'meta'] as const;

function isClusterDatabase(db: IDBDatabase): boolean {
  return STORES.every((s) => db.objectStoreNames.contains(s));
}

/** The snapshot a transaction over the three stores sees. */
async function readDump(tx: IDBTransaction): Promise<ClusterDump> {
  const [objects, history, revision, compacted] = await Promise.all([
    req(tx.objectStore('objects').getAll() as IDBRequest<StoredObject[]>),
    req(tx.objectStore('history').getAll() as IDBRequest<HistoryRecord[]>),
    req(tx.objectStore('meta').get('revision') as IDBRequest<number | undefined>),
    req(tx.objectStore('meta').get('compactedRevision') as IDBRequest<number | undefined>),
  ]);
  const byKey = new Map(objects.map((o) => [o.key, o]));
  return { revision: revision ?? 0, compactedRevision: compacted ?? 0, objects, history: wholeRecords(history, (k) => byKey.get(k)) };
}

/** A consistent snapshot of a cluster database (objects, history, revisions), read in one transaction. */
export async function dumpClusterDatabase(name: string, idb?: IDBFactory): Promise<ClusterDump> {
  const db = stepAside(await openExisting(name, factoryOf(idb)));
  try {
    if (!isClusterDatabase(db)) throw new Error(`database ${name} is not a cluster's database`);
    const tx = db.transaction([...STORES], 'readonly');
    const finished = done(tx);
    const dump = await readDump(tx);
    await finished;
    return dump;
  } finally {
    db.close();
  }
}

export interface MoveOptions {
  /** The IndexedDB factory; the global one when absent. */
  idb?: IDBFactory;
  /** When a connection to `from` does not step aside, give up after this many ms (nothing changes). */
  blockedTimeoutMs?: number;
}

/**
 * Copies the cluster database `from` into the new database `to` while no one else can use `from`, so that
 * nothing written to the old name during a rename is lost.
 *
 * The hold is an upgrade of `from` to the next version: every engine holding it (the service worker, other
 * tabs) closes its connection on `versionchange` and stops, and every request that would open it again
 * waits in IndexedDB's queue while the upgrade's transaction is kept open. Inside it the snapshot is read,
 * restored into `to`, and `alongside` runs (what else belongs to the new name, e.g. its settings).
 * - When all of that succeeds the upgrade commits: `from` is then at a version this app's engines refuse to
 *   open, so the waiting requests fail instead of writing to a cluster that has moved, and the caller
 *   deletes `from`.
 * - When anything fails the upgrade is aborted: `from` is as it was (same version, same data), the waiting
 *   requests go on, and the database `to` is deleted again (the caller undoes what else `alongside` made).
 */
export async function moveClusterDatabase(from: string, to: string, alongside: () => Promise<void>, options: MoveOptions = {}): Promise<void> {
  const f = factoryOf(options.idb);
  const existing = await openExisting(from, f);
  const version = existing.version;
  const known = isClusterDatabase(existing);
  existing.close();
  if (!known) throw new Error(`database ${from} is not a cluster's database`);
  let failure: unknown;
  let gaveUp = false;
  await new Promise<void>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const r = f.open(from, version + 1);
    r.onblocked = () => {
      if (options.blockedTimeoutMs === undefined) return;
      timer ??= setTimeout(() => {
        // the open stays queued; when it does get through, it is aborted at once
        gaveUp = true;
        reject(new Error(`cluster database ${from} is still open somewhere (another tab?)`));
      }, options.blockedTimeoutMs);
    };
    r.onupgradeneeded = () => {
      if (timer !== undefined) clearTimeout(timer);
      const tx = r.transaction as IDBTransaction;
      if (gaveUp || r.result.version !== version + 1 || !isClusterDatabase(r.result)) {
        failure ??= new Error(`database ${from} changed before it could be held`);
        tx.abort();
        return;
      }
      // The transaction commits as soon as no request of it is pending: one is kept pending until the copy
      // is done (a read of the revision after another). Once it is, the last request marks the old
      // database with the new name (a later app that could open this version can tell it has moved).
      let copying = true;
      let moved = false;
      const keepOpen = (): void => {
        if (copying) tx.objectStore('meta').get('revision').onsuccess = keepOpen;
        else if (moved) tx.objectStore('meta').put(to, 'movedTo');
      };
      keepOpen();
      let restored = false;
      readDump(tx)
        .then((dump) => restoreClusterDatabase(to, dump, f))
        .then(() => {
          restored = true;
          return alongside();
        })
        .then(
          () => {
            moved = true;
            copying = false;
          },
          async (err: unknown) => {
            failure = err;
            if (restored) await deleteDatabase(to, { idb: f }).catch(() => undefined);
            copying = false;
            try {
              tx.abort();
            } catch {
              // finished already
            }
          },
        );
    };
    r.onsuccess = () => {
      r.result.close();
      if (failure === undefined && !gaveUp) resolve();
      else reject(failure ?? new Error(`cluster database ${from} is still open somewhere (another tab?)`));
    };
    r.onerror = () => reject(failure ?? r.error ?? new Error(`cluster database ${from} could not be held for the copy`));
  });
}

/**
 * Writes `dump` into the database `name`, which must not hold a cluster yet (no database, or an empty one).
 * Everything is written in one transaction; when it fails, a database this call created is deleted again,
 * so the name is as free as before.
 */
export async function restoreClusterDatabase(name: string, dump: ClusterDump, idb?: IDBFactory): Promise<void> {
  const f = factoryOf(idb);
  const existed = await databaseExists(name, f);
  // the schema, as the storage makes it; and a check that the target is empty
  const storage = await openIdbStorage({ name, indexedDB: f });
  try {
    if ((await storage.revision()) > 0 || (await storage.list('')).length > 0) throw new Error(`cluster database ${name} is not empty`);
  } finally {
    await storage.close();
  }
  let db: IDBDatabase | undefined;
  try {
    db = stepAside(await openExisting(name, f));
    const tx = db.transaction(['objects', 'history', 'meta'], 'readwrite');
    const finished = done(tx);
    const objects = tx.objectStore('objects');
    const history = tx.objectStore('history');
    const meta = tx.objectStore('meta');
    const byKey = new Map(dump.objects.map((o) => [o.key, o]));
    for (const o of dump.objects) objects.put(o);
    for (const h of compactRecords(dump.history, (k) => byKey.get(k))) history.put(h);
    meta.put(dump.revision, 'revision');
    meta.put(dump.compactedRevision, 'compactedRevision');
    await finished;
  } catch (err) {
    db?.close();
    db = undefined;
    if (!existed) await deleteDatabase(name, { idb: f }).catch(() => undefined);
    throw err;
  } finally {
    db?.close();
  }
}
