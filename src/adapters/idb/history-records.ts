// The history store's records and the events they stand for. Pure (no IndexedDB): idb-storage.ts and
// cluster-copy.ts use it, and it is tested on its own.
//
// Layout 3 (IDB_STORAGE_VERSION 3) stores each state once. A record holds, per event, its type, its key and
// only the state BEFORE the event (prevObject, for MODIFIED and DELETED); the new state is found when the
// records are read:
//   - MODIFIED and ADDED: the prevObject of the next event of the same key, else the current stored object
//     (which then has the event's revision);
//   - DELETED: the last state (its prevObject) stamped with the deletion's revision, as write-plan.ts makes it.
// So an ADDED event carries nothing but its key, every past state is stored once (as the prevObject of the
// write that replaced it) and the current one once (in the objects store). Compaction stays a plain delete
// of the oldest records: an event's new state is always held by something newer.
//
// Layout 2 (version 2 and earlier) kept every event whole ({revision, type, key, object, prevObject?,
// time}). Such records are read as they are; they are never rewritten, and leave with compaction (the
// engine's history window is minutes). A database may hold both: layout-2 records are always the older.

import type { KubeObject } from '../../engine/object.js';
import type { EventType, HistoryEvent, StorageKey, StoredObject } from '../../engine/storage/interface.js';
import { restamp } from '../memory/write-plan.js';

/** An event as layout 3 stores it. */
export interface StoredEvent {
  type: EventType;
  key: StorageKey;
  /** The state before the event (MODIFIED, DELETED). */
  prevObject?: KubeObject;
}

/** A record of the history store: one per committed revision. Its events are layout 3 or layout 2 ones. */
export interface HistoryRecord {
  revision: number;
  time: number;
  events: (StoredEvent | HistoryEvent)[];
}

function isWhole(e: StoredEvent | HistoryEvent): e is HistoryEvent {
  return (e as HistoryEvent).object !== undefined;
}

/** The record a write stores for its events: each without its new state. */
export function recordOf(revision: number, time: number, events: readonly HistoryEvent[]): HistoryRecord {
  return { revision, time, events: events.map(storedEvent) };
}

function storedEvent(e: HistoryEvent): StoredEvent {
  return e.prevObject === undefined ? { type: e.type, key: e.key } : { type: e.type, key: e.key, prevObject: e.prevObject };
}

/**
 * Keys whose newest event in `records` takes its new state from the current stored object: what a reader
 * must fetch from the objects store (in the same transaction) to call eventsOf.
 */
export function keysWithCurrentState(records: readonly HistoryRecord[]): StorageKey[] {
  const seen = new Set<StorageKey>();
  const out: StorageKey[] = [];
  for (let r = records.length - 1; r >= 0; r--) {
    const events = records[r].events;
    for (let i = events.length - 1; i >= 0; i--) {
      const e = events[i];
      if (seen.has(e.key)) continue;
      seen.add(e.key);
      if (e.type !== 'DELETED' && !isWhole(e)) out.push(e.key);
    }
  }
  return out;
}

/**
 * The events of `records` (consecutive revisions, oldest first, deeply frozen), each with its new state:
 * whole events as stored, layout-3 ones with the state derived as the module comment says. `current`
 * gives the stored object of a key, read in the same transaction as the records. The events returned are
 * frozen and share their states with the records' prevObjects and with `current`'s objects.
 * Throws when a state cannot be found (a database that breaks the storage's invariants).
 */
export function eventsOf(records: readonly HistoryRecord[], current: (key: StorageKey) => StoredObject | undefined): HistoryEvent[] {
  let n = 0;
  for (const r of records) n += r.events.length;
  const out = new Array<HistoryEvent>(n);
  /** The state of a key just after the event being looked at: the state before the key's next event (null: none, the next one is ADDED). */
  const after = new Map<StorageKey, KubeObject | null>();
  for (let r = records.length - 1; r >= 0; r--) {
    const { revision, time, events } = records[r];
    for (let i = events.length - 1; i >= 0; i--) {
      const e = events[i];
      const object = isWhole(e) ? e.object : derivedState(e, revision, after, current);
      if (object === undefined) {
        throw new Error(`storage: the state of ${e.key} written at revision ${revision} is neither stored nor in a later event`);
      }
      const p = e.prevObject;
      out[--n] = Object.freeze(
        p === undefined ? { revision, type: e.type, key: e.key, object, time } : { revision, type: e.type, key: e.key, object, prevObject: p, time },
      );
      after.set(e.key, p ?? null);
    }
  }
  return out;
}

/** The new state of a layout-3 event, or undefined when nothing holds it. */
function derivedState(
  e: StoredEvent,
  revision: number,
  after: ReadonlyMap<StorageKey, KubeObject | null>,
  current: (key: StorageKey) => StoredObject | undefined,
): KubeObject | undefined {
  if (e.type === 'DELETED') return e.prevObject === undefined ? undefined : restamp(e.prevObject, revision);
  const next = after.get(e.key);
  if (next) return next;
  if (next === null) return undefined; // the key's next event is an ADDED: this one should have been a DELETED
  const c = current(e.key);
  return c !== undefined && c.revision === revision ? c.object : undefined;
}

/**
 * Records of any layout (an exported file, a database being copied) in layout 3: an event leaves out its
 * new state only when reading it back derives exactly that state (same JSON); any other event is kept
 * whole, so a copy reads back the very history it was given. `current` gives the objects stored with them.
 */
export function compactRecords(records: readonly HistoryRecord[], current: (key: StorageKey) => StoredObject | undefined): HistoryRecord[] {
  const out = new Array<HistoryRecord>(records.length);
  const after = new Map<StorageKey, KubeObject | null>();
  for (let r = records.length - 1; r >= 0; r--) {
    const { revision, time, events } = records[r];
    const kept = new Array<StoredEvent | HistoryEvent>(events.length);
    for (let i = events.length - 1; i >= 0; i--) {
      const e = events[i];
      if (isWhole(e)) {
        const stored: StoredEvent = e.prevObject === undefined ? { type: e.type, key: e.key } : { type: e.type, key: e.key, prevObject: e.prevObject };
        const derived = derivedState(stored, revision, after, current);
        kept[i] = derived !== undefined && JSON.stringify(derived) === JSON.stringify(e.object) ? stored : e;
      } else {
        kept[i] = e;
      }
      after.set(e.key, e.prevObject ?? null);
    }
    out[r] = { revision, time, events: kept };
  }
  return out;
}

/** Records of any layout with every event whole (what an export file holds: the format files have always had). */
export function wholeRecords(records: readonly HistoryRecord[], current: (key: StorageKey) => StoredObject | undefined): { revision: number; time: number; events: HistoryEvent[] }[] {
  const events = eventsOf(records, current);
  let at = 0;
  return records.map((r) => ({ revision: r.revision, time: r.time, events: events.slice(at, (at += r.events.length)) }));
}
