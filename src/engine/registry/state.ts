// The cluster's in-memory view of its storage: the "watch cache" of the real server. It is rebuilt from
// storage when the engine starts (docs/design.md 2: the service worker can be stopped at any time), serves every
// read, keeps the event history for watch resumption and snapshots at older revisions, and funnels every
// write through one lock so that read-modify-write cycles are atomic within this engine.
//
// Every object here is a committed state as the storage handed it out: deeply frozen and possibly shared
// with the storage's own records (storage/interface.ts). The cache, its history and the storage hold one
// object per state between them; a reader that needs to change one takes ClusterState.copy first.

import type { KubeObject } from '../object.js';
import {
  StorageCompactedError,
  type HistoryEvent,
  type Storage,
  type StorageKey,
  type StorageRecords,
  type StoredObject,
  type WriteOp,
  type WriteResult,
} from '../storage/interface.js';
import { isUndecodable } from '../storage/undecodable.js';
import { shareHistoryStates, sharePrevObject } from '../storage/share-states.js';
import { prefixEnd, SortedEntries } from '../util/sorted-keys.js';

/** The current object of one key, held both by the index's map and in its sorted blocks. */
interface Slot {
  readonly key: string;
  item: StoredObject;
}

const slotKey = (slot: Slot): string => slot.key;

/**
 * The objects of one resource: by key (a map), and in key order so that a namespace is a contiguous range. The
 * map and the sorted blocks hold the same slot per key, and a write of an existing key changes its slot's
 * object: a range's reader takes each object from the blocks, without a map lookup per key (at 100,000
 * objects, lookups spread over a large hash table were most of a page's walk).
 */
class SortedIndex {
  private readonly sorted = new SortedEntries<Slot>(slotKey);
  private readonly slots = new Map<string, Slot>();

  get size(): number {
    return this.slots.size;
  }

  get(key: string): StoredObject | undefined {
    return this.slots.get(key)?.item;
  }

  has(key: string): boolean {
    return this.slots.has(key);
  }

  set(item: StoredObject): void {
    const slot = this.slots.get(item.key);
    if (slot) slot.item = item;
    else {
      const added: Slot = { key: item.key, item };
      this.slots.set(item.key, added);
      this.sorted.add(added);
    }
  }

  delete(key: string): void {
    if (this.slots.delete(key)) this.sorted.delete(key);
  }

  range(prefix: string): StoredObject[] {
    const out: StoredObject[] = [];
    this.sorted.scanRange(prefix, prefixEnd(prefix), (slot) => out.push(slot.item) > 0);
    return out;
  }

  /** The slots with keys from `from` on, below `end` (none when undefined), until `visit` returns false. */
  scan(from: string, end: string | undefined, visit: (slot: Slot) => boolean): void {
    this.sorted.scanRange(from, end, visit);
  }

  /** How many keys are below `key`. */
  rank(key: string): number {
    return this.sorted.rank(key);
  }
}

/** `/group/resource/` of a key. */
function resourceOf(key: string): string {
  // the third '/' (indexOf: no loop over the key's characters in JavaScript, every get and list runs this)
  const a = key.indexOf('/');
  const b = a < 0 ? -1 : key.indexOf('/', a + 1);
  const c = b < 0 ? -1 : key.indexOf('/', b + 1);
  return c < 0 ? key : key.slice(0, c + 1);
}

export type CommitListener = (events: HistoryEvent[]) => void;

interface Subscription {
  listener: CommitListener;
  /** Order of subscription: listeners are called in it. */
  seq: number;
}

export class WriteConflict extends Error {
  constructor(readonly result: Extract<WriteResult, { ok: false }>) {
    super(`write precondition failed on ${result.failedKey}: ${result.reason}`);
  }
}

export class ClusterState {
  private readonly indexes = new Map<string, SortedIndex>();
  /**
   * Stored values the engine cannot decode (simulated corruption, storage/undecodable.ts), by key. They are
   * kept out of the indexes, so no reader sees them as objects; the store and the list and watch handlers
   * ask for them and fail as the real storage does.
   */
  private readonly undecodable = new Map<string, StoredObject>();
  private history: HistoryEvent[] = [];
  /** Listeners of every commit, and listeners of one key prefix (a watch's collection) by that prefix. */
  private readonly listeners = new Set<Subscription>();
  private readonly byPrefix = new Map<string, Set<Subscription>>();
  private subscriptions = 0;
  private lock: Promise<unknown> = Promise.resolve();
  revision = 0;
  compactedRevision = 0;

  protected constructor(private readonly storage: Storage) {}

  static async load(storage: Storage): Promise<ClusterState> {
    const s = new ClusterState(storage);
    if (storage.readAll) {
      // one consistent read of the whole store (and, over IndexedDB, each state decoded once)
      const all = await storage.readAll();
      s.revision = all.revision;
      s.compactedRevision = all.compactedRevision;
      s.fill(all.objects);
      s.history = s.shared(all.events);
      return s;
    }
    s.revision = await storage.revision();
    s.compactedRevision = await storage.compactedRevision();
    s.fill(await storage.list('/'));
    try {
      s.history = s.shared(await storage.events(s.compactedRevision));
    } catch (e) {
      if (!(e instanceof StorageCompactedError)) throw e;
      s.history = [];
      s.compactedRevision = e.compacted;
    }
    return s;
  }

  /**
   * The records of a few keys read at one revision (Storage.readKeys), for an engine that has not loaded
   * yet: it answers get() and unreadable() of those keys and throws on anything else (a list, the history,
   * another key, a write), so that no reader can take it for the whole cluster. See api-server.ts serveEarly.
   */
  static partial(storage: Storage, keys: readonly StorageKey[], records: StorageRecords): ClusterState & { readonly missed: string | undefined } {
    return new PartialClusterState(storage, keys, records);
  }

  /** Indexes the stored objects (in key order, as storage lists them). */
  protected fill(items: readonly StoredObject[]): void {
    for (const item of items) {
      if (isUndecodable(item.object)) this.undecodable.set(item.key, item);
      else this.index(resourceOf(item.key)).set(item);
    }
  }

  /** Backends that persist elsewhere may hand out one copy per mention of a state: keep one. */
  private shared(events: HistoryEvent[]): HistoryEvent[] {
    return shareHistoryStates(events, (k) => this.get(k) ?? this.undecodable.get(k));
  }

  private index(prefix: string): SortedIndex {
    let idx = this.indexes.get(prefix);
    if (!idx) this.indexes.set(prefix, (idx = new SortedIndex()));
    return idx;
  }

  get(key: StorageKey): StoredObject | undefined {
    return this.indexes.get(resourceOf(key))?.get(key);
  }

  /** The undecodable value stored under `key`, if that is what is there. */
  unreadable(key: StorageKey): StoredObject | undefined {
    return this.undecodable.get(key);
  }

  /** Undecodable values under `prefix`, in key order. */
  unreadableUnder(prefix: string): StoredObject[] {
    if (this.undecodable.size === 0) return [];
    return [...this.undecodable.values()].filter((i) => i.key.startsWith(prefix)).sort((a, b) => (a.key < b.key ? -1 : 1));
  }

  /** Current objects under `prefix` (a resource or namespace prefix), in key order. Do not mutate. */
  list(prefix: string): StoredObject[] {
    const idx = this.indexes.get(resourceOf(prefix));
    return idx ? idx.range(prefix) : [];
  }

  /** Objects under `prefix` as they were at `revision`; throws StorageCompactedError when that is no longer known. */
  listAt(prefix: string, revision: number): StoredObject[] {
    if (revision >= this.revision) return this.list(prefix);
    const out: StoredObject[] = [];
    this.scanAt(prefix, revision, prefix, (item) => out.push(item) > 0);
    return out;
  }

  /**
   * The objects under `prefix` as they were at `revision` (the current one, or an older one the history
   * still covers), in key order from the key `from` on (`from` starts with `prefix`), handed to `visit`
   * until it returns false. What listAt gives, but a page of a paginated list costs its own items and the
   * history written since `revision`, not the size of the collection: no copy of the whole range is made.
   * Throws StorageCompactedError as listAt does.
   */
  scanAt(prefix: string, revision: number, from: string, visit: (item: StoredObject) => boolean): void {
    const changed = this.changedSince(prefix, revision, from);
    const idx = this.indexes.get(resourceOf(prefix));
    // keys gone since `revision` (or undecodable now) that held an object then, merged in key order
    const gone: StoredObject[] = [];
    if (changed) for (const [k, v] of changed) if (v && !idx?.has(k)) gone.push(v);
    gone.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    let g = 0;
    let going = true;
    idx?.scan(from, prefixEnd(prefix), (slot) => {
      if (!changed) return (going = visit(slot.item));
      const k = slot.key;
      while (g < gone.length && gone[g].key < k) if (!(going = visit(gone[g++]))) return false;
      const then = changed.get(k);
      if (then === null) return true; // added since `revision`
      return (going = visit(then ?? slot.item));
    });
    while (going && g < gone.length) going = visit(gone[g++]);
  }

  /** How many objects scanAt(prefix, revision, from) would hand out, without visiting them. */
  countAt(prefix: string, revision: number, from: string): number {
    const changed = this.changedSince(prefix, revision, from);
    const idx = this.indexes.get(resourceOf(prefix));
    let n = 0;
    if (idx) {
      const end = prefixEnd(prefix);
      n = (end === undefined ? idx.size : idx.rank(end)) - idx.rank(from);
    }
    if (changed) for (const [k, v] of changed) n += (v ? 1 : 0) - (idx?.has(k) ? 1 : 0);
    return n;
  }

  /**
   * The keys under `prefix`, from `from` on, written after `revision`, each with its state at `revision`
   * (null: absent then, or undecodable), as listAt rebuilds them; undefined at the current revision.
   */
  private changedSince(prefix: string, revision: number, from: string): Map<string, StoredObject | null> | undefined {
    if (revision >= this.revision) return undefined;
    if (revision < this.compactedRevision) throw new StorageCompactedError(revision, this.compactedRevision);
    const changed = new Map<string, StoredObject | null>();
    for (let i = this.history.length - 1; i >= 0; i--) {
      const e = this.history[i];
      if (e.revision <= revision) break;
      if (e.key < from || !e.key.startsWith(prefix)) continue;
      if (e.type === 'ADDED') changed.set(e.key, null);
      else if (e.prevObject && isUndecodable(e.prevObject)) changed.set(e.key, null);
      else if (e.prevObject) changed.set(e.key, { key: e.key, object: e.prevObject, revision: Number(e.prevObject.metadata?.resourceVersion ?? 0) });
    }
    return changed;
  }

  /**
   * Whether a commit after revision `after` wrote `key` (`exact`) or a key under the prefix `key`. True when
   * the history has been compacted past `after` (the caller then treats what it read as changed).
   */
  writtenSince(key: string, after: number, exact: boolean): boolean {
    if (after >= this.revision) return false;
    if (after < this.compactedRevision) return true;
    for (let i = this.history.length - 1; i >= 0; i--) {
      const e = this.history[i];
      if (e.revision <= after) return false;
      if (exact ? e.key === key : e.key.startsWith(key)) return true;
    }
    // the history holds every event after the compacted revision (eventsAfter)
    return false;
  }

  /** History events with revision > `after`; throws StorageCompactedError when `after` is older than retained history. */
  eventsAfter(after: number): HistoryEvent[] {
    if (after < this.compactedRevision) throw new StorageCompactedError(after, this.compactedRevision);
    let lo = 0;
    let hi = this.history.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.history[mid].revision <= after) lo = mid + 1;
      else hi = mid;
    }
    return this.history.slice(lo);
  }

  /** The oldest revision a watch or snapshot can start from. */
  oldestResumableRevision(): number {
    return this.compactedRevision;
  }

  /**
   * Calls `listener` after every commit, in the order listeners subscribed. With a `prefix` (ending in '/',
   * as a collection's is) only after a commit holding an event whose key starts with it, so that the
   * watches of other collections cost a write nothing; it still gets every event of that commit.
   */
  subscribe(listener: CommitListener, prefix?: string): () => void {
    const sub: Subscription = { listener, seq: this.subscriptions++ };
    if (prefix === undefined || !prefix.endsWith('/')) {
      this.listeners.add(sub);
      return () => void this.listeners.delete(sub);
    }
    let set = this.byPrefix.get(prefix);
    if (!set) this.byPrefix.set(prefix, (set = new Set()));
    set.add(sub);
    return () => {
      set.delete(sub);
      if (set.size === 0 && this.byPrefix.get(prefix) === set) this.byPrefix.delete(prefix);
    };
  }

  /** The subscriptions a commit of `events` calls, in the order they subscribed. */
  private listenersOf(events: HistoryEvent[]): Subscription[] {
    const out = [...this.listeners];
    if (this.byPrefix.size === 0) return out;
    const before = out.length;
    for (const e of events) {
      const key = e.key;
      // every prefix of the key that ends in '/': "/", "/core/", "/core/configmaps/", "/core/configmaps/default/"
      for (let i = key.indexOf('/'); i >= 0; i = key.indexOf('/', i + 1)) {
        const set = this.byPrefix.get(key.slice(0, i + 1));
        if (set) for (const sub of set) out.push(sub);
      }
    }
    if (out.length === before) return out;
    const called = events.length > 1 ? [...new Set(out)] : out;
    return called.sort((a, b) => a.seq - b.seq);
  }

  /**
   * Runs `fn` with exclusive write access: no other write of this engine interleaves, so a read of the
   * current state followed by commit() is atomic.
   *
   * What is held here is short: the store's writes (Store.attempts) read and prepare outside it (strategy,
   * managedFields, mutating and validating admission, which may await an admission webhook for seconds),
   * then take it only to check that every key they read still has the revision they read (each WriteOp's
   * expectRevision: the object's, and that of a ResourceQuota admission charged) and to commit. A check
   * that fails runs the write again from a fresh read, as the real server's GuaranteedUpdate retries its
   * compare-and-swap; only the last of a bounded number of attempts runs whole in here. So a slow webhook
   * delays its own request, not the writes of other objects, namespaces or the controllers. Their storage
   * commit is handed over in here but awaited outside (commitQueued: group commit); `fn` runs once every
   * commit queued before it is applied or has failed, and a commit made in here (commit) is awaited in here.
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    // the commits queued before (commitQueued) are durable and applied, or have failed, before `fn` reads
    const run = this.lock.then(() => this.applying).then(fn, fn);
    this.lock = run.catch(() => undefined);
    return run;
  }

  /** Keys of the commits handed to storage by commitQueued and not yet applied (or failed), with their counts. */
  private readonly queuedKeys = new Map<string, number>();
  /** The last queued commit's application: resolves once every commit queued so far is applied or has failed. */
  private applying: Promise<unknown> = Promise.resolve();

  /** Whether commits are queued (handed to storage, not yet applied): what the cache holds is not all that will be. */
  get queued(): boolean {
    return this.queuedKeys.size > 0;
  }

  /** Whether a queued commit writes `key` (`exact`) or a key under the prefix `key`. */
  queuedWrite(key: string, exact: boolean): boolean {
    if (this.queuedKeys.size === 0) return false;
    if (exact) return this.queuedKeys.has(key);
    for (const k of this.queuedKeys.keys()) if (k.startsWith(key)) return true;
    return false;
  }

  /** Resolves once every commit queued so far has been applied or has failed. */
  settled(): Promise<unknown> {
    return this.applying;
  }

  /**
   * Group commit: takes the write lock only to run `check` (which throws to refuse, e.g. when something the
   * write read has been written since, by an applied or a queued commit: queuedWrite) and to hand `ops` to
   * storage; the lock is let go before the storage's transaction is durable, so the commits of writes that
   * arrive meanwhile join the storage's next transaction (IndexedDB: idb-storage.ts). Storage commits in the
   * order the writes were handed over; each is applied to the cache, and its events delivered, only once it
   * is durable, in that order, and a commit that fails leaves no trace here (its write gets the error). A
   * queued commit's keys count as written for the checks of the writes after it, so no write queued
   * meanwhile depends on one that may still fail; exclusive() waits for every queued commit first.
   */
  commitQueued(check: () => void, ops: WriteOp[], time: () => number): Promise<HistoryEvent[]> {
    return new Promise<HistoryEvent[]>((resolve, reject) => {
      // the lock's turn never fails: what goes wrong is this write's answer
      this.lock = this.lock.then(() => {
        let written: Promise<WriteResult>;
        try {
          check();
          written = this.storage.write(ops, time());
        } catch (err) {
          reject(err);
          return;
        }
        const queued = this.queuedKeys;
        // none queued before: nothing to apply first (each queued commit holds a key until it is applied)
        const first = queued.size === 0;
        for (let i = 0; i < ops.length; i++) queued.set(ops[i].key, (queued.get(ops[i].key) ?? 0) + 1);
        const unqueue = () => {
          for (let i = 0; i < ops.length; i++) {
            const key = ops[i].key;
            const n = queued.get(key)! - 1;
            if (n === 0) queued.delete(key);
            else queued.set(key, n);
          }
        };
        const durable = (result: WriteResult) => {
          unqueue();
          try {
            resolve(this.apply(result));
          } catch (err) {
            reject(err);
          }
        };
        const failed = (err: unknown) => {
          unqueue();
          reject(err);
        };
        if (first) this.applying = written.then(durable, failed);
        else {
          written.catch(() => undefined); // observed in turn below
          this.applying = this.applying.then(() => written).then(durable, failed);
        }
      });
    });
  }

  /** One atomic storage transaction; updates the cache and notifies watchers. Call inside exclusive(). */
  async commit(ops: WriteOp[], time: number): Promise<HistoryEvent[]> {
    return this.apply(await this.storage.write(ops, time));
  }

  /** A committed write's result into the cache and the history, then to the watchers. */
  private apply(result: WriteResult): HistoryEvent[] {
    if (!result.ok) throw new WriteConflict(result);
    this.revision = result.revision;
    const events = result.events;
    for (let i = 0; i < events.length; i++) {
      const idx = this.index(resourceOf(events[i].key));
      // the previous state as the cache held it (the same object over memory; a second copy from IndexedDB)
      const e = (events[i] = sharePrevObject(events[i], idx.get(events[i].key) ?? this.undecodable.get(events[i].key)));
      if (e.type === 'DELETED') {
        idx.delete(e.key);
        this.undecodable.delete(e.key);
      } else if (isUndecodable(e.object)) {
        idx.delete(e.key);
        this.undecodable.set(e.key, Object.freeze({ key: e.key, object: e.object, revision: e.revision }));
      } else {
        idx.set(Object.freeze({ key: e.key, object: e.object, revision: e.revision }));
        this.undecodable.delete(e.key);
      }
      this.history.push(e);
    }
    for (const sub of this.listenersOf(events)) {
      try {
        sub.listener(events);
      } catch {
        // a failing watcher must not break the write
      }
    }
    return events;
  }

  /** Drops history older than `beforeTime` in storage and in memory. */
  async compact(beforeTime: number): Promise<void> {
    const compacted = await this.storage.compact(beforeTime);
    if (compacted <= this.compactedRevision) return;
    this.compactedRevision = compacted;
    let i = 0;
    while (i < this.history.length && this.history[i].revision <= compacted) i++;
    if (i > 0) this.history = this.history.slice(i);
  }

  historyLength(): number {
    return this.history.length;
  }

  /** A mutable deep copy of a state (states in the cache are frozen), for code that changes what it read. */
  static copy(o: KubeObject): KubeObject {
    return JSON.parse(JSON.stringify(o)) as KubeObject;
  }
}

/** What a partial state (ClusterState.partial) was asked and does not hold. */
export class PartialStateError extends Error {
  constructor(what: string) {
    super(`partial cluster state (a few records read before the engine loaded): ${what} is not held`);
  }
}

class PartialClusterState extends ClusterState {
  private readonly held: ReadonlySet<string>;
  /** The first thing asked of it that it does not hold (the reader then answered with an error). */
  missed: string | undefined;

  constructor(storage: Storage, keys: readonly StorageKey[], records: StorageRecords) {
    super(storage);
    this.held = new Set(keys);
    this.revision = records.revision;
    this.compactedRevision = records.compactedRevision;
    this.fill([...records.objects].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)));
  }

  private check(key: StorageKey): void {
    if (!this.held.has(key)) this.miss(`key ${key}`);
  }

  private miss(what: string): never {
    this.missed ??= what;
    throw new PartialStateError(what);
  }

  override get(key: StorageKey): StoredObject | undefined {
    this.check(key);
    return super.get(key);
  }

  override unreadable(key: StorageKey): StoredObject | undefined {
    this.check(key);
    return super.unreadable(key);
  }

  override unreadableUnder(prefix: string): StoredObject[] {
    return this.miss(`the range ${prefix}`);
  }

  override list(prefix: string): StoredObject[] {
    return this.miss(`the range ${prefix}`);
  }

  override listAt(prefix: string): StoredObject[] {
    return this.miss(`the range ${prefix}`);
  }

  override scanAt(prefix: string): void {
    this.miss(`the range ${prefix}`);
  }

  override countAt(prefix: string): number {
    return this.miss(`the range ${prefix}`);
  }

  override eventsAfter(): HistoryEvent[] {
    return this.miss('the history');
  }

  override subscribe(): () => void {
    return this.miss('the stream of commits');
  }

  override exclusive<T>(): Promise<T> {
    return new Promise<T>(() => this.miss('a write'));
  }

  override commit(): Promise<HistoryEvent[]> {
    return new Promise<HistoryEvent[]>(() => this.miss('a write'));
  }

  override commitQueued(): Promise<HistoryEvent[]> {
    return new Promise<HistoryEvent[]>(() => this.miss('a write'));
  }

  override compact(): Promise<void> {
    return new Promise<void>(() => this.miss('the history'));
  }
}
