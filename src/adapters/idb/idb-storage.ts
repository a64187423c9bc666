// IndexedDB Storage backend (service worker, page, and Node with fake-indexeddb). The only module of the
// project that imports `idb`.
//
// Database layout (version 3):
//   objects   keyPath 'key'        StoredObject {key, object, revision}
//   history   keyPath 'revision'   one record per committed revision {revision, time, events}; index 'time'.
//                                  (v3) An event holds its type, key and the state before it (prevObject),
//                                  not its new state: each state is stored once, and the events' states are
//                                  derived when read (history-records.ts). Records written by version 2
//                                  (whole events) are read as they are.
//   meta      out-of-line keys     'revision' -> number, 'compactedRevision' -> number
//   requests  keyPath 'id'         (v2) client writes already applied, by the client's request id
//                                  {id, request, revision, time, events, response?}; index 'time'
//
// The requests store makes a client's write take effect once: a write made for a request id records that id
// in the same transaction as the objects (writeFor), so a request delivered again (a browser re-dispatches a
// fetch to a restarted service worker; a client retries after a network error) finds it and is answered
// with the first outcome instead of being applied twice. Records age out with the history (compact).
//
// Writes are committed in readwrite transactions over objects + history + meta (+ requests): one reads the
// revision and the current records, checks preconditions, then stores the objects, the history record and
// the new revision. When this connection knows the whole objects store (readAll, the engine's load, then
// its own commits: `known`), a transaction instead plans against what it knows and issues its puts at
// once, behind one read of the revision, which only verifies that nobody else wrote since (every write to
// the objects store advances the revision); that saves IndexedDB a round trip before the puts. When the
// read shows another revision, the transaction is aborted before it can commit (IndexedDB rolls back every
// put of it), the knowledge is dropped, and the batch runs again the first way.
// Writes called while this connection's transaction is open wait and then go together into its next one
// (group commit, writeFor), each under its own revision with its own history record, as if each had had a
// transaction of its own; all of them are answered when that transaction completes, and all fail if it
// fails. Nothing but the transaction's own requests is awaited inside it (an await on anything else would
// let IndexedDB auto-commit it). Because all writes share the meta store, IndexedDB runs the transactions
// one after another in creation order, which is what serialises concurrent writers (also across tabs and
// the service worker). Reads always go to IndexedDB, and what a commit takes from memory is verified in
// its own transaction, so several connections to one database stay coherent.
//
// Invariant: history holds exactly the revisions compactedRevision+1 .. revision, one record each; the
// new state of each event is the prevObject of the key's next event or, for its newest one, the stored object.

import { wrap, type DBSchema, type IDBPDatabase } from 'idb';
import {
  StorageCompactedError,
  type HistoryEvent,
  type Storage,
  type StorageContents,
  type StorageRecords,
  type StorageKey,
  type StoredObject,
  type WriteOp,
  type WriteResult,
} from '../../engine/storage/interface.js';
import { assertNumberArg, assertValidWrite, planWrite, prefixEnd } from '../memory/write-plan.js';
import { deepFreeze } from '../../engine/object.js';
import { eventsOf, keysWithCurrentState, recordOf, type HistoryRecord } from './history-records.js';

/** 3: history events without their new state (history-records.ts); an app of version 2 must not read them. */
export const IDB_STORAGE_VERSION = 3;

/** The items of a fresh array from IndexedDB, deeply frozen; the array itself stays the caller's. */
function freezeItems<T>(items: T[]): T[] {
  for (const item of items) deepFreeze(item);
  return items;
}

/** The response a client was given for a recorded request (what a repeated delivery is answered with). */
export interface RecordedResponse {
  status: number;
  headers: [string, string][];
  body: string;
}

/** A client write that took effect, by its request id. */
export interface RequestRecord {
  id: string;
  /** `METHOD path?query` of the request, so that an id reused for another request is recognised. */
  request: string;
  /** Revision of the write made for it, and that write's events. */
  revision: number;
  time: number;
  events: HistoryEvent[];
  /** Set once the response has been produced (a worker stopped right after the commit leaves it unset). */
  response?: RecordedResponse;
}

/** Idempotent writes: implemented by storages that can record request ids with their writes. */
export interface RequestJournal {
  /** Like write(), also recording `request` as done by this write, in the same transaction. */
  writeFor(request: { id: string; request: string }, ops: WriteOp[], time: number): Promise<WriteResult>;
  /** The record of a request id, if a write was made for it (and not yet aged out). */
  requestRecord(id: string): Promise<RequestRecord | undefined>;
  /** Stores the response given for a recorded request id. */
  recordResponse(id: string, response: RecordedResponse): Promise<void>;
}

export function isRequestJournal(s: unknown): s is RequestJournal {
  const j = s as Partial<RequestJournal> | null;
  return typeof j?.writeFor === 'function' && typeof j.requestRecord === 'function' && typeof j.recordResponse === 'function';
}

interface StorageDB extends DBSchema {
  objects: { key: string; value: StoredObject };
  history: { key: number; value: HistoryRecord; indexes: { time: number } };
  meta: { key: 'revision' | 'compactedRevision'; value: number };
  requests: { key: string; value: RequestRecord; indexes: { time: number } };
}

export interface IdbStorageOptions {
  /** Database name; one database per cluster. */
  name: string;
  /** Defaults to globalThis.indexedDB. The IDB globals (IDBRequest, IDBKeyRange, ...) must exist. */
  indexedDB?: IDBFactory;
  /** Opening waits because an older connection (another tab) still holds the database at an older version. */
  onBlocked?: () => void;
  /**
   * The connection was closed under us: `versionchange` (another connection upgrades or deletes the
   * database; we close at once so it is not blocked) or `terminated` (the browser closed it, e.g. site
   * data cleared). The storage then rejects every call; the host should reopen or reload.
   */
  onClose?: (reason: 'versionchange' | 'terminated') => void;
}

export async function openIdbStorage(opts: IdbStorageOptions): Promise<Storage & RequestJournal> {
  const factory = opts.indexedDB ?? (globalThis as { indexedDB?: IDBFactory }).indexedDB;
  if (!factory) {
    throw new Error('openIdbStorage: no IndexedDB in this environment (in Node, import "fake-indexeddb/auto")');
  }
  if (typeof IDBRequest === 'undefined' || typeof IDBKeyRange === 'undefined') {
    throw new Error('openIdbStorage: the IndexedDB globals are missing (in Node, import "fake-indexeddb/auto")');
  }
  const request = factory.open(opts.name, IDB_STORAGE_VERSION);
  request.addEventListener('upgradeneeded', (ev) => {
    const db = request.result;
    if (ev.oldVersion < 1) {
      db.createObjectStore('objects', { keyPath: 'key' });
      const history = db.createObjectStore('history', { keyPath: 'revision' });
      history.createIndex('time', 'time');
      db.createObjectStore('meta');
    }
    if (ev.oldVersion < 2) {
      db.createObjectStore('requests', { keyPath: 'id' }).createIndex('time', 'time');
    }
    // 3: new history records leave out the events' new states; the older records are read as they are
    // (history-records.ts), so nothing is rewritten here.
  });
  request.addEventListener('blocked', () => opts.onBlocked?.());
  let db: IDBPDatabase<StorageDB>;
  try {
    db = (await wrap(request)) as unknown as IDBPDatabase<StorageDB>;
  } catch (err) {
    const e = err as { name?: string; message?: string } | null;
    if (e?.name === 'VersionError') {
      throw new Error(
        `openIdbStorage: database "${opts.name}" is at a version past ${IDB_STORAGE_VERSION}: a newer app wrote it (reload), or the cluster was just renamed`,
      );
    }
    throw err;
  }
  return new IdbStorage(opts.name, db, request.result, opts.onClose);
}

type Lost = 'closed' | 'versionchange' | 'terminated';

class IdbStorage implements Storage, RequestJournal {
  private lost: Lost | undefined;

  constructor(
    private readonly name: string,
    private readonly db: IDBPDatabase<StorageDB>,
    raw: IDBDatabase,
    onClose: IdbStorageOptions['onClose'],
  ) {
    raw.addEventListener('versionchange', () => {
      // Another connection wants to upgrade or delete the database: step aside instead of blocking it.
      raw.close();
      if (this.lost === undefined) {
        this.lost = 'versionchange';
        onClose?.('versionchange');
      }
    });
    raw.addEventListener('close', () => {
      if (this.lost === undefined) {
        this.lost = 'terminated';
        onClose?.('terminated');
      }
    });
  }

  private use(): IDBPDatabase<StorageDB> {
    if (this.lost === undefined) return this.db;
    if (this.lost === 'closed') throw new Error(`storage: IndexedDB storage "${this.name}" is closed`);
    throw new Error(
      this.lost === 'versionchange'
        ? `storage: IndexedDB database "${this.name}" was closed because another connection is upgrading or deleting it`
        : `storage: IndexedDB database "${this.name}" was closed by the browser`,
    );
  }

  async revision(): Promise<number> {
    return (await this.use().get('meta', 'revision')) ?? 0;
  }

  async compactedRevision(): Promise<number> {
    return (await this.use().get('meta', 'compactedRevision')) ?? 0;
  }

  // What IndexedDB hands back is a fresh structured clone; it is frozen before it leaves, as the contract
  // says for every backend, so that a caller that would change it fails here as it does over memory.
  async get(key: StorageKey): Promise<StoredObject | undefined> {
    return deepFreeze(await this.use().get('objects', key));
  }

  async list(prefix: StorageKey): Promise<StoredObject[]> {
    const db = this.use();
    if (prefix === '') return freezeItems(await db.getAll('objects'));
    const end = prefixEnd(prefix);
    const range = end === undefined ? IDBKeyRange.lowerBound(prefix) : IDBKeyRange.bound(prefix, end, false, true);
    return freezeItems(await db.getAll('objects', range));
  }

  write(ops: WriteOp[], time: number): Promise<WriteResult> {
    return this.writeFor(undefined, ops, time);
  }

  /** Writes waiting for the next transaction (group commit), in call order. */
  private queued: QueuedWrite[] = [];
  /** A write transaction is open: writes called meanwhile wait in `queued` for the next one. */
  private writing = false;
  /** The open write transaction's batch, settled (answered) or not. */
  private flushing: Promise<void> = Promise.resolve();
  /** close() was called: no write is taken any more; those taken are still written before the connection closes. */
  private closing = false;

  writeFor(request: { id: string; request: string } | undefined, ops: WriteOp[], time: number): Promise<WriteResult> {
    try {
      if (this.closing) throw new Error(`storage: IndexedDB storage "${this.name}" is closed`);
      this.use();
      assertValidWrite(ops, time);
    } catch (err) {
      return Promise.reject(err);
    }
    return new Promise<WriteResult>((resolve, reject) => {
      this.queued.push({ request, ops, time, resolve, reject });
      if (!this.writing) this.flush();
    });
  }

  /**
   * Group commit: every write queued while the previous transaction was open goes into one readwrite
   * transaction, in call order, each under its own revision (gap-free, as one transaction each would give
   * them) and with its own history record; a write's preconditions are checked against the records as the
   * writes before it in the batch leave them. Each write is answered once the transaction is complete
   * (durable), and all of them fail when it fails (nothing of it was stored). A put that throws at once
   * (DataCloneError) aborts the transaction: that write fails and the others of the batch go into the next
   * transaction (the aborted one stored nothing, so none is applied twice).
   */
  private flush(): void {
    const batch = this.queued;
    this.queued = [];
    if (batch.length === 0) return;
    this.writing = true;
    this.flushing = this.commitBatch(batch)
      .catch(() => undefined) // it answers its writes itself
      .finally(() => {
        this.writing = false;
        if (this.queued.length > 0) this.flush();
      });
  }

  /**
   * The objects store as this connection knows it whole, by key, exact at revision `knownRevision`; undefined
   * when not known. Set by readAll (one consistent read: the engine's load) and kept by this connection's own
   * commits once they are complete. A commit plans against it without reading the records first, and its
   * transaction verifies with one read of the revision that no other connection (another tab, a worker) wrote
   * since; on any other revision the knowledge is dropped for good (the host retires an engine whose database
   * moved on, and a new engine opens a new connection). It holds one entry per stored object, sharing the
   * records readAll returned (which the engine's cache also holds) and the records of our own puts.
   */
  private known: Map<StorageKey, StoredObject> | undefined;
  private knownRevision = 0;

  private async commitBatch(batch: QueuedWrite[]): Promise<void> {
    const results: WriteResult[] = [];
    let tx;
    try {
      tx = this.use().transaction(['objects', 'history', 'meta', 'requests'], 'readwrite');
    } catch (err) {
      for (const w of batch) w.reject(err);
      return;
    }
    // the revision this batch plans on: what this connection knows, verified below, or what it reads first
    const known = this.known;
    const assumed = known === undefined ? undefined : this.knownRevision;
    let base: number;
    try {
      const done = tx.done;
      done.catch(() => {}); // observed below; keeps an abort from surfacing as an unhandled rejection
      const objects = tx.objectStore('objects');
      const meta = tx.objectStore('meta');
      // the records the batch reads, each once; then kept as the batch's writes change them
      const current = new Map<StorageKey, StoredObject | undefined>();
      const keys: StorageKey[] = [];
      for (const w of batch) for (const op of w.ops) if (!current.has(op.key)) {
        current.set(op.key, known?.get(op.key));
        keys.push(op.key);
      }
      let revision: number;
      // Issued before any put of the transaction, so it reads the revision as the transaction found it.
      let verify: Promise<number | undefined> | undefined;
      if (assumed !== undefined) {
        verify = meta.get('revision');
        verify.catch(() => {}); // observed below
        revision = assumed;
      } else {
        try {
          const [rev, ...found] = await Promise.all([meta.get('revision'), ...keys.map((k) => objects.get(k))]);
          for (let i = 0; i < keys.length; i++) current.set(keys[i], found[i] as StoredObject | undefined);
          revision = (rev as number | undefined) ?? 0;
        } catch (err) {
          abortQuietly(tx);
          throw err;
        }
      }
      base = revision;
      const requests: Promise<unknown>[] = [];
      const history = tx.objectStore('history');
      for (let b = 0; b < batch.length; b++) {
        const w = batch[b];
        // An empty transaction changes nothing and, as in etcd, does not advance the revision.
        if (w.ops.length === 0) {
          results.push({ ok: true, revision, events: [] });
          continue;
        }
        const plan = planWrite(w.ops, w.ops.map((op) => current.get(op.key)), revision + 1, w.time);
        if (!plan.ok) {
          results.push(plan);
          continue;
        }
        try {
          for (const p of plan.puts) requests.push(objects.put(p));
          for (const k of plan.deletes) requests.push(objects.delete(k));
          requests.push(history.put(recordOf(plan.revision, w.time, plan.events)));
          if (w.request) {
            const record: RequestRecord = { id: w.request.id, request: w.request.request, revision: plan.revision, time: w.time, events: plan.events };
            requests.push(tx.objectStore('requests').put(record));
          }
        } catch (err) {
          // e.g. DataCloneError thrown synchronously by put: without the abort, the requests already issued
          // would commit on their own and break atomicity. This write fails; the others wait for the next.
          abortQuietly(tx);
          for (const r of requests) r.catch(() => {});
          w.reject(err);
          this.queued.unshift(...batch.slice(0, b), ...batch.slice(b + 1));
          return;
        }
        revision = plan.revision;
        for (const p of plan.puts) current.set(p.key, p);
        for (const k of plan.deletes) current.set(k, undefined);
        results.push({ ok: true, revision: plan.revision, events: plan.events });
      }
      if (requests.length > 0) requests.push(meta.put(revision, 'revision'));
      if (verify !== undefined) {
        let found: number;
        try {
          found = (await verify) ?? 0;
        } catch (err) {
          abortQuietly(tx);
          for (const r of requests) r.catch(() => {});
          throw err;
        }
        if (found !== assumed) {
          // Another connection wrote since this one last knew the store: the plans above may be wrong. The
          // transaction is aborted before it can commit (its puts are still pending behind this read), so
          // none of them is stored; the batch runs again, reading the records first.
          abortQuietly(tx);
          for (const r of requests) r.catch(() => {});
          if (this.known === known) this.known = undefined;
          this.queued.unshift(...batch);
          return;
        }
      }
      await Promise.all([...requests, done]);
      // durable: what this connection knows of the store follows, when it was exact at the batch's start
      if (this.known !== undefined) {
        if (this.knownRevision === base) {
          for (const [k, v] of current) {
            if (v === undefined) this.known.delete(k);
            else this.known.set(k, v);
          }
          this.knownRevision = revision;
        } else if (this.knownRevision < revision) {
          this.known = undefined;
        }
      }
    } catch (err) {
      abortQuietly(tx);
      for (const w of batch) w.reject(err);
      return;
    }
    // IndexedDB stored structured clones; the planned events are frozen (write-plan.ts) and the callers' to keep.
    for (let b = 0; b < batch.length; b++) batch[b].resolve(results[b]);
  }

  async requestRecord(id: string): Promise<RequestRecord | undefined> {
    return this.use().get('requests', id);
  }

  async recordResponse(id: string, response: RecordedResponse): Promise<void> {
    const tx = this.use().transaction('requests', 'readwrite');
    const store = tx.objectStore('requests');
    const record = await store.get(id);
    if (record) await store.put({ ...record, response });
    await tx.done;
  }

  async events(after: number): Promise<HistoryEvent[]> {
    const db = this.use();
    assertNumberArg('events(after)', after);
    const tx = db.transaction(['history', 'meta', 'objects'], 'readonly');
    const done = tx.done;
    done.catch(() => {});
    const [compacted, records] = await Promise.all([
      tx.objectStore('meta').get('compactedRevision'),
      tx.objectStore('history').getAll(IDBKeyRange.lowerBound(after, true)),
    ]);
    const c = compacted ?? 0;
    if (after < c) {
      await done;
      throw new StorageCompactedError(after, c);
    }
    // the newest state of each key the records name is the stored object: read those in the same transaction
    const keys = keysWithCurrentState(records);
    const objects = tx.objectStore('objects');
    const current = new Map<StorageKey, StoredObject>();
    for (const o of await Promise.all(keys.map((k) => objects.get(k)))) if (o) current.set(o.key, deepFreeze(o));
    await done;
    return eventsOf(freezeItems(records), (k) => current.get(k));
  }

  async readAll(): Promise<StorageContents> {
    const db = this.use();
    const tx = db.transaction(['objects', 'history', 'meta'], 'readonly');
    const meta = tx.objectStore('meta');
    // one transaction: history holds exactly the revisions after the compacted one
    const [revision, compacted, objects, records] = await Promise.all([
      meta.get('revision'),
      meta.get('compactedRevision'),
      tx.objectStore('objects').getAll(),
      tx.objectStore('history').getAll(),
      tx.done,
    ]);
    freezeItems(objects);
    const byKey = new Map<StorageKey, StoredObject>();
    for (const o of objects) byKey.set(o.key, o);
    // the whole objects store at one revision: what commits plan against from now on (see `known`); a
    // commit of ours that completed meanwhile is in it when it is at least as new
    if (this.known === undefined || this.knownRevision <= (revision ?? 0)) {
      this.known = byKey;
      this.knownRevision = revision ?? 0;
    }
    return {
      revision: revision ?? 0,
      compactedRevision: compacted ?? 0,
      objects,
      events: eventsOf(freezeItems(records), (k) => byKey.get(k)),
    };
  }

  async readKeys(keys: StorageKey[]): Promise<StorageRecords> {
    const db = this.use();
    const tx = db.transaction(['objects', 'meta'], 'readonly');
    const meta = tx.objectStore('meta');
    const objects = tx.objectStore('objects');
    const [revision, compacted, ...found] = await Promise.all([
      meta.get('revision'),
      meta.get('compactedRevision'),
      ...keys.map((k) => objects.get(k)),
      tx.done,
    ]);
    const out: StoredObject[] = [];
    for (const o of found as (StoredObject | undefined)[]) if (o) out.push(deepFreeze(o));
    return { revision: (revision as number | undefined) ?? 0, compactedRevision: (compacted as number | undefined) ?? 0, objects: out };
  }

  async compact(beforeTime: number): Promise<number> {
    const db = this.use();
    assertNumberArg('compact(beforeTime)', beforeTime);
    const tx = db.transaction(['history', 'meta', 'requests'], 'readwrite');
    const done = tx.done;
    done.catch(() => {});
    const history = tx.objectStore('history');
    const meta = tx.objectStore('meta');
    const requests = tx.objectStore('requests');
    let compacted: number;
    let last: number;
    let oldRequests: string[];
    try {
      const [c, oldRevisions, oldIds] = await Promise.all([
        meta.get('compactedRevision'),
        history.index('time').getAllKeys(IDBKeyRange.upperBound(beforeTime, true)),
        // request records live as long as the history: a client repeats a request within seconds
        requests.index('time').getAllKeys(IDBKeyRange.upperBound(beforeTime, true)),
      ]);
      oldRequests = oldIds as string[];
      compacted = c ?? 0;
      // Drop only the unbroken run compacted+1, compacted+2, ... of old revisions, so that history keeps
      // holding exactly the revisions after the compacted one even if the clock ever went backwards.
      const sorted = (oldRevisions as number[]).sort((a, b) => a - b);
      last = compacted;
      for (const r of sorted) {
        if (r === last + 1) last = r;
        else if (r > last + 1) break;
      }
    } catch (err) {
      abortQuietly(tx);
      throw err;
    }
    const pruned = oldRequests.map((id) => requests.delete(id));
    if (last > compacted) {
      await Promise.all([...pruned, history.delete(IDBKeyRange.upperBound(last)), meta.put(last, 'compactedRevision'), done]);
      return last;
    }
    await Promise.all([...pruned, done]);
    return compacted;
  }

  private shut: Promise<void> | undefined;

  close(): Promise<void> {
    return (this.shut ??= this.closeAfterWrites());
  }

  private async closeAfterWrites(): Promise<void> {
    if (this.lost === undefined) {
      // the writes already taken are written (and answered) first, as each had its own transaction at once
      // before group commit: none is dropped for having waited for the batch before it
      this.closing = true;
      while (this.writing) await this.flushing;
    }
    if (this.lost === undefined) this.db.close();
    this.lost = 'closed';
  }
}

interface QueuedWrite {
  request: { id: string; request: string } | undefined;
  ops: WriteOp[];
  time: number;
  resolve(result: WriteResult): void;
  reject(err: unknown): void;
}

function abortQuietly(tx: { abort(): void }): void {
  try {
    tx.abort();
  } catch {
    // already finished or aborted
  }
}
