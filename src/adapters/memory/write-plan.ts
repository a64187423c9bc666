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
import { deepFreeze, type KubeObject } from '../../engine/object.js';

export type WriteFailure = Extract<WriteResult, { ok: false }>;

export interface WritePlan {
  ok: true;
  revision: number;
  /** Records to store, in op order. */
  puts: StoredObject[];
  /** Keys to remove, in op order. */
  deletes: StorageKey[];
  /**
   * History entries of this revision, in op order, deeply frozen. Their objects are the records' objects
   * (object of a put) and the previous records' objects (prevObject), never the caller's.
   */
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

/** The one empty object and the one empty array of frozen copies (every `{}` leaf of fieldsV1 is one of these). */
const EMPTY_OBJECT: Record<string, never> = Object.freeze({}) as Record<string, never>;
const EMPTY_ARRAY: readonly never[] = Object.freeze([]);

/**
 * A deeply frozen copy of a JSON-shaped value, with copyJson's rules (undefined properties dropped,
 * undefined array items null, `__proto__` an own property). Empty objects and arrays become one shared
 * frozen instance: nothing can be added to them, so sharing is invisible, and a stored object's
 * managedFields hold many (each leaf of a fieldsV1 set is `{}`). A frozen value is taken as it is, as
 * deepFreeze takes it (frozen all the way down: the engine freezes only whole values, a stored state or
 * an encoded fieldsV1 set): nobody can change it, so a new state shares it with the states and encodings
 * it came from (the managedFields update then finds a stored set by identity).
 */
export function frozenCopy<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  if (Array.isArray(value)) {
    const n = value.length;
    if (n === 0) return EMPTY_ARRAY as T;
    const out = new Array(n);
    for (let i = 0; i < n; i++) {
      const item = value[i];
      out[i] = item === undefined ? null : frozenCopy(item);
    }
    return Object.freeze(out) as T;
  }
  const src = value as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const k in src) {
    const v = src[k];
    if (v === undefined) continue;
    out ??= {};
    setOwn(out, k, frozenCopy(v));
  }
  return (out === undefined ? EMPTY_OBJECT : Object.freeze(out)) as T;
}

function setOwn(out: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  else out[k] = v;
}

function assertPutObject(object: KubeObject): void {
  if (typeof object !== 'object' || object === null || Array.isArray(object)) {
    throw new TypeError('storage: the object of a put must be a JSON object');
  }
}

/**
 * A deeply frozen copy of `object` (frozenCopy) whose metadata.resourceVersion is String(revision). A
 * missing or non-object metadata becomes `{resourceVersion}`.
 */
export function stamp(object: KubeObject, revision: number): KubeObject {
  assertPutObject(object);
  const rv = String(revision);
  const out: Record<string, unknown> = {};
  const src = object as Record<string, unknown>;
  let hasMeta = false;
  for (const k in src) {
    const v = src[k];
    if (v === undefined) continue;
    if (k === 'metadata') {
      hasMeta = true;
      out.metadata = stampedMeta(v, rv, frozenCopy);
    } else setOwn(out, k, frozenCopy(v));
  }
  if (!hasMeta) out.metadata = Object.freeze({ resourceVersion: rv });
  return Object.freeze(out) as KubeObject;
}

/**
 * `stored` (deeply frozen, as this module makes it) with metadata.resourceVersion = String(revision): a new
 * top level and metadata that share every other value with `stored` (the last state of a DELETED event).
 */
export function restamp(stored: KubeObject, revision: number): KubeObject {
  if (!Object.isFrozen(stored)) return stamp(stored, revision);
  const rv = String(revision);
  const out: Record<string, unknown> = {};
  const src = stored as Record<string, unknown>;
  let hasMeta = false;
  for (const k in src) {
    if (k === 'metadata') {
      hasMeta = true;
      out.metadata = stampedMeta(src[k], rv, (v) => v);
    } else setOwn(out, k, src[k]);
  }
  if (!hasMeta) out.metadata = Object.freeze({ resourceVersion: rv });
  return Object.freeze(out) as KubeObject;
}

/** ObjectMeta's fields that come before resourceVersion in its serialization order (the Go struct's). */
const BEFORE_RESOURCE_VERSION = new Set(['name', 'generateName', 'namespace', 'selfLink', 'uid']);

/**
 * The metadata, copied, with resourceVersion = rv: in the place of the one it had, else where ObjectMeta's
 * order puts it (before the first field that follows it there), so that an object as a create stores it is
 * already in the order it is served in and its first serialization makes no reordered copy of its metadata.
 */
function stampedMeta(meta: unknown, rv: string, copy: (v: unknown) => unknown): Readonly<Record<string, unknown>> {
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return Object.freeze({ resourceVersion: rv });
  const out: Record<string, unknown> = {};
  const src = meta as Record<string, unknown>;
  const placed = Object.hasOwn(src, 'resourceVersion');
  let seen = false;
  for (const k in src) {
    if (k === 'resourceVersion') {
      seen = true;
      out.resourceVersion = rv;
      continue;
    }
    const v = src[k];
    if (v === undefined) continue;
    if (!seen && !placed && !BEFORE_RESOURCE_VERSION.has(k)) {
      seen = true;
      out.resourceVersion = rv;
    }
    setOwn(out, k, copy(v));
  }
  if (!seen) out.resourceVersion = rv;
  return Object.freeze(out);
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
      puts.push(Object.freeze({ key: op.key, object, revision }));
      events.push(
        Object.freeze(
          cur === undefined
            ? { revision, type: 'ADDED' as const, key: op.key, object, time }
            : { revision, type: 'MODIFIED' as const, key: op.key, object, prevObject: deepFreeze(cur.object), time },
        ),
      );
    } else if (op.kind === 'delete') {
      // The last state, stamped with the deletion's revision (what a watch reports for DELETED).
      deletes.push(op.key);
      const prevObject = deepFreeze(cur!.object);
      events.push(Object.freeze({ revision, type: 'DELETED' as const, key: op.key, object: restamp(prevObject, revision), prevObject, time }));
    } else {
      throw new TypeError(`storage: unknown op kind ${(op as { kind: unknown }).kind}`);
    }
  }
  return { ok: true, revision, puts, deletes, events };
}

export { prefixEnd } from '../../engine/util/sorted-keys.js';
