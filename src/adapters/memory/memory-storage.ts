// In-memory Storage backend: the Node host's default and the reference the conformance suite is
// written against. Everything happens synchronously inside each call, so writes are trivially atomic and
// serialised. Keys are kept sorted (UTF-16 code-unit order, as IndexedDB orders string keys; in blocks,
// engine/util/sorted-keys.ts) so list(prefix) is a binary search plus a scan of the matching run.
//
// Ownership (storage/interface.ts): an object handed in is copied once, deeply frozen (write-plan.ts
// stamp), and from then on that one frozen copy is the record, its history entries' object, the next
// entry's prevObject and what get, list, events and write hand out. Nothing can change it, so nobody
// needs a copy of their own: the engine's cache holds the same objects, not a second set.

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
import { shareHistoryStates } from '../../engine/storage/share-states.js';
import { assertNumberArg, assertValidWrite, planWrite, prefixEnd } from './write-plan.js';
import { deepFreeze } from '../../engine/object.js';
import { SortedKeys } from '../../engine/util/sorted-keys.js';

export function createMemoryStorage(): Storage {
  return new MemoryStorage();
}

/** The whole content of a memory storage, for backends that keep it in memory and persist it elsewhere. */
export interface MemoryState {
  revision: number;
  compacted: number;
  /** In key order. */
  objects: StoredObject[];
  /** In revision order. */
  history: HistoryEvent[];
}

/**
 * A memory storage with `state` as its content (taken over and deeply frozen, not copied), and a view of
 * it for snapshots.
 */
export function memoryStorageFromState(state?: MemoryState): Storage & { exportState(): MemoryState } {
  const m = new MemoryStorage();
  if (state) m.restore(state);
  return m;
}

class MemoryStorage implements Storage {
  private readonly records = new Map<StorageKey, StoredObject>();
  /** Keys of `records`, sorted (in blocks: a write moves one block, not every later key). */
  private readonly keys = new SortedKeys();
  /** History entries with revision > compacted, in revision (then op) order. */
  private history: HistoryEvent[] = [];
  private rev = 0;
  private compacted = 0;
  private closed = false;

  restore(state: MemoryState): void {
    for (const o of state.objects) this.records.set(o.key, deepFreeze(o));
    this.keys.reset([...this.records.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    // a snapshot's JSON holds each state once per mention: one object per state again
    this.history = shareHistoryStates(
      state.history.map((e) => deepFreeze(e)),
      (k) => this.records.get(k),
    );
    this.rev = state.revision;
    this.compacted = state.compacted;
  }

  /** The live content (not copies): serialize it at once and never change it. */
  exportState(): MemoryState {
    this.check();
    return { revision: this.rev, compacted: this.compacted, objects: this.keys.toArray().map((k) => this.records.get(k)!), history: this.history };
  }

  private check(): void {
    if (this.closed) throw new Error('storage: the memory storage is closed');
  }

  async revision(): Promise<number> {
    this.check();
    return this.rev;
  }

  async compactedRevision(): Promise<number> {
    this.check();
    return this.compacted;
  }

  async get(key: StorageKey): Promise<StoredObject | undefined> {
    this.check();
    const s = this.records.get(key);
    return s;
  }

  async list(prefix: StorageKey): Promise<StoredObject[]> {
    this.check();
    const end = prefixEnd(prefix);
    const out: StoredObject[] = [];
    this.keys.scan(prefix, (k) => {
      if (end !== undefined && k >= end) return false;
      out.push(this.records.get(k)!);
      return true;
    });
    return out;
  }

  async write(ops: WriteOp[], time: number): Promise<WriteResult> {
    this.check();
    assertValidWrite(ops, time);
    // An empty transaction changes nothing and, as in etcd, does not advance the revision.
    if (ops.length === 0) return { ok: true, revision: this.rev, events: [] };
    const current = ops.map((op) => this.records.get(op.key));
    const plan = planWrite(ops, current, this.rev + 1, time);
    if (!plan.ok) return plan;
    for (const p of plan.puts) {
      if (!this.records.has(p.key)) this.keys.add(p.key);
      this.records.set(p.key, p);
    }
    for (const k of plan.deletes) {
      this.records.delete(k);
      this.keys.delete(k);
    }
    this.rev = plan.revision;
    for (const e of plan.events) this.history.push(e);
    return { ok: true, revision: plan.revision, events: plan.events };
  }

  async events(after: number): Promise<HistoryEvent[]> {
    this.check();
    assertNumberArg('events(after)', after);
    if (after < this.compacted) throw new StorageCompactedError(after, this.compacted);
    const h = this.history;
    // First entry with revision > after.
    let lo = 0;
    let hi = h.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (h[mid].revision <= after) lo = mid + 1;
      else hi = mid;
    }
    return h.slice(lo);
  }

  async readAll(): Promise<StorageContents> {
    this.check();
    return { revision: this.rev, compactedRevision: this.compacted, objects: this.keys.toArray().map((k) => this.records.get(k)!), events: this.history.slice() };
  }

  async readKeys(keys: StorageKey[]): Promise<StorageRecords> {
    this.check();
    const objects: StoredObject[] = [];
    for (const k of keys) {
      const o = this.records.get(k);
      if (o) objects.push(o);
    }
    return { revision: this.rev, compactedRevision: this.compacted, objects };
  }

  async compact(beforeTime: number): Promise<number> {
    this.check();
    assertNumberArg('compact(beforeTime)', beforeTime);
    // Drop the longest run of oldest entries written before `beforeTime`, so that the history always
    // holds exactly the revisions after the compacted one (entries of one revision share one time).
    const h = this.history;
    let n = 0;
    while (n < h.length && h[n].time < beforeTime) n++;
    if (n > 0) {
      this.compacted = Math.max(this.compacted, h[n - 1].revision);
      this.history = h.slice(n);
    }
    return this.compacted;
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
