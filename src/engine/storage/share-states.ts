// Committed states are immutable (storage/interface.ts), so one state needs one object however many places
// mention it: the current record, the newest history entry's object, the next entry's prevObject. What a
// backend reads back from its persisted form (a snapshot's JSON, IndexedDB's structured clones) holds a
// separate copy per mention; these helpers put the copies back together.

import type { KubeObject } from '../object.js';
import type { HistoryEvent, StorageKey, StoredObject } from './interface.js';

function rv(o: KubeObject | undefined): string | undefined {
  const m = o?.metadata;
  return typeof m === 'object' && m !== null ? (m.resourceVersion as string | undefined) : undefined;
}

/**
 * `history` (revision order, entries deeply frozen) with each state held once: an entry's object is the
 * next entry's prevObject of the same key when both are the same revision, and the newest entry's object
 * of a key is `current(key).object` when that is its revision. Entries that change are new frozen
 * wrappers; the others are returned as they are.
 */
export function shareHistoryStates(history: readonly HistoryEvent[], current: (key: StorageKey) => StoredObject | undefined): HistoryEvent[] {
  const newer = new Map<StorageKey, KubeObject>();
  const out: HistoryEvent[] = new Array(history.length);
  for (let i = history.length - 1; i >= 0; i--) {
    const e = history[i];
    let object = e.object;
    const n = newer.get(e.key);
    if (n !== undefined) {
      if (n !== object && rv(n) === rv(object)) object = n;
    } else if (e.type !== 'DELETED') {
      const c = current(e.key);
      if (c !== undefined && c.revision === e.revision && c.object !== object) object = c.object;
    }
    out[i] = object === e.object ? e : Object.freeze({ ...e, object });
    newer.set(e.key, e.prevObject ?? object);
  }
  return out;
}

/**
 * `e` with `prev.object` as its prevObject when that is the same state (same resourceVersion) held as
 * another object: what the cache does with each event of a write, so a history entry shares the state the
 * cache held until then.
 */
export function sharePrevObject(e: HistoryEvent, prev: StoredObject | undefined): HistoryEvent {
  const p = e.prevObject;
  if (p === undefined || prev === undefined || prev.object === p || rv(prev.object) !== rv(p)) return e;
  return Object.freeze({ ...e, prevObject: prev.object });
}
