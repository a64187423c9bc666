// The backend-independent half of Storage.write: check every precondition against the current records,
// then describe the new records and history events of the transaction. Both backends (memory and idb)
// call it inside their own atomic section, so precondition semantics cannot drift between them.

import type {
  HistoryEvent,
  StorageKey,
  StoredObject,
  WriteOp,
  WriteResult,
} from '../../engine/storage/interface.js';
import type { KubeObject } from '../../engine/object.js';

export type WriteFailure = Extract<WriteResult, { ok: false }>;

export interface WritePlan {
  ok: true;
  revision: number;
  /** Records to store, in op order. */
  puts: StoredObject[];
  /** Keys to remove, in op order. */
  deletes: StorageKey[];
  /** History entries of this revision, in op order. Their objects are fresh copies owned by the backend. */
  events: HistoryEvent[];
}

/**
 * Deep copy of a JSON-shaped value. Faster than a JSON round trip and, like JSON, drops properties whose
 * value is undefined. `__proto__` is copied as an own property (as JSON.parse would) instead of
 * re-pointing the copy's prototype.
 */
export function copyJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const n = value.length;
    const out = new Array(n);
    for (let i = 0; i < n; i++) {
      const item = value[i];
      out[i] = item === undefined ? null : copyJson(item); // JSON turns undefined array items into null
    }
    return out as T;
  }
  const out: Record<string, unknown> = {};
  const src = value as Record<string, unknown>;
  for (const k in src) {
    const v = src[k];
    if (v === undefined) continue;
    if (k === '__proto__') {
      Object.defineProperty(out, k, { value: copyJson(v), enumerable: true, writable: true, configurable: true });
    } else {
      out[k] = copyJson(v);
    }
  }
  return out as T;
}

/** A deep copy of `object` whose metadata.resourceVersion is String(revision). */
export function stamp(object: KubeObject, revision: number): KubeObject {
  if (typeof object !== 'object' || object === null || Array.isArray(object)) {
    throw new TypeError('storage: the object of a put must be a JSON object');
  }
  const copy = copyJson(object);
  const meta = copy.metadata;
  if (typeof meta === 'object' && meta !== null && !Array.isArray(meta)) {
    meta.resourceVersion = String(revision);
  } else {
    copy.metadata = { resourceVersion: String(revision) };
  }
  return copy;
}

/**
 * Rejects malformed writes before anything is read: keys must be non-empty strings, `time` a finite
 * number (it is indexed for compaction), and one key may appear only once (etcd rejects a transaction
 * naming a key twice: "duplicate key given in txn request").
 */
export function assertValidWrite(ops: readonly WriteOp[], time: number): void {
  if (!Array.isArray(ops)) throw new TypeError('storage: write expects an array of ops');
  if (typeof time !== 'number' || !Number.isFinite(time)) throw new TypeError(`storage: write time must be a finite number, got ${String(time)}`);
  if (ops.length < 2) {
    if (ops.length === 1) assertKey(ops[0].key);
    return;
  }
  const seen = new Set<string>();
  for (const op of ops) {
    assertKey(op.key);
    if (seen.has(op.key)) throw new Error(`storage: duplicate key in one write: ${op.key}`);
    seen.add(op.key);
  }
}

/** events(after) and compact(beforeTime) take a number; NaN would silently match nothing. */
export function assertNumberArg(what: string, v: number): void {
  if (typeof v !== 'number' || Number.isNaN(v)) throw new TypeError(`storage: ${what} must be a number, got ${String(v)}`);
}

function assertKey(key: unknown): void {
  if (typeof key !== 'string' || key === '') throw new TypeError('storage: a key must be a non-empty string');
}

/**
 * Plans one write. `current[i]` is the stored record of `ops[i].key` (undefined when absent) and
 * `revision` the revision this write will commit as (the store's revision + 1).
 *
 * Preconditions, checked in op order, the first failure wins and nothing is written:
 * - put, expectRevision 0: the key must not exist, else `exists` (currentRevision = its revision).
 * - put/delete, expectRevision n > 0: the key must exist (`not-found`) with revision n
 *   (`revision-mismatch`, currentRevision = its revision).
 * - delete: the key must exist (`not-found`); with expectRevision 0 an existing key fails as `exists`.
 */
export function planWrite(
  ops: readonly WriteOp[],
  current: readonly (StoredObject | undefined)[],
  revision: number,
  time: number,
): WritePlan | WriteFailure {
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i];
    const cur = current[i];
    const expect = op.expectRevision;
    if (op.kind === 'delete' && cur === undefined) return { ok: false, failedKey: op.key, reason: 'not-found' };
    if (expect === undefined) continue;
    if (expect === 0) {
      if (cur !== undefined) return { ok: false, failedKey: op.key, reason: 'exists', currentRevision: cur.revision };
    } else if (cur === undefined) {
      return { ok: false, failedKey: op.key, reason: 'not-found' };
    } else if (cur.revision !== expect) {
      return { ok: false, failedKey: op.key, reason: 'revision-mismatch', currentRevision: cur.revision };
    }
  }
  const puts: StoredObject[] = [];
  const deletes: StorageKey[] = [];
  const events: HistoryEvent[] = [];
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i];
    const cur = current[i];
    if (op.kind === 'put') {
      const object = stamp(op.object, revision);
      puts.push({ key: op.key, object, revision });
      events.push(
        cur === undefined
          ? { revision, type: 'ADDED', key: op.key, object, time }
          : { revision, type: 'MODIFIED', key: op.key, object, prevObject: cur.object, time },
      );
    } else if (op.kind === 'delete') {
      // The last state, stamped with the deletion's revision (what a watch reports for DELETED).
      deletes.push(op.key);
      events.push({
        revision,
        type: 'DELETED',
        key: op.key,
        object: stamp(cur!.object, revision),
        prevObject: cur!.object,
        time,
      });
    } else {
      throw new TypeError(`storage: unknown op kind ${(op as { kind: unknown }).kind}`);
    }
  }
  return { ok: true, revision, puts, deletes, events };
}

/**
 * The smallest string greater than every string that starts with `prefix` (exclusive upper bound of the
 * prefix's key range, in UTF-16 code-unit order, which is both JS `<` and IndexedDB key order), or
 * undefined when there is none (empty prefix, or a prefix made only of U+FFFF).
 */
export function prefixEnd(prefix: string): string | undefined {
  let p = prefix;
  while (p.length > 0) {
    const last = p.charCodeAt(p.length - 1);
    if (last < 0xffff) return p.slice(0, -1) + String.fromCharCode(last + 1);
    p = p.slice(0, -1);
  }
  return undefined;
}
