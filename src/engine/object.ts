// Plain JSON shapes of API objects as the engine handles them.

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: 'Apply' | 'Update';
  apiVersion?: string;
  time?: string;
  fieldsType?: 'FieldsV1';
  fieldsV1?: JsonObject;
  subresource?: string;
}

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string | null;
  deletionTimestamp?: string | null;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
  managedFields?: ManagedFieldsEntry[];
  [key: string]: JsonValue | undefined | ManagedFieldsEntry[] | OwnerReference[] | Record<string, string>;
}

/** Any API object: apiVersion/kind/metadata plus kind-specific fields. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  [key: string]: unknown;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Deep copy of a JSON value (objects handed out by the engine never alias stored ones), with the result of a
 * JSON round trip (undefined and function members dropped, undefined array items and non-finite numbers
 * null) but without writing and parsing the text: a walk of the value, several times faster. Values a round
 * trip would treat specially (toJSON, bigint) take the round trip.
 */
export function clone<T>(v: T): T {
  if (v === undefined) return v;
  const c = copyValue(v);
  return (c === SPECIAL ? JSON.parse(JSON.stringify(v)) : c) as T;
}

const SPECIAL = Symbol('special');

function copyValue(v: unknown): unknown {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return v;
    case 'number':
      return Number.isFinite(v) ? v : null;
    case 'object': {
      if (v === null) return null;
      if (Array.isArray(v)) {
        const n = v.length;
        const out = new Array(n);
        for (let i = 0; i < n; i++) {
          const item = v[i];
          const t = typeof item;
          if (item === undefined || t === 'function' || t === 'symbol') out[i] = null;
          else {
            const c = copyValue(item);
            if (c === SPECIAL) return SPECIAL;
            out[i] = c;
          }
        }
        return out;
      }
      if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return SPECIAL;
      const src = v as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(src)) {
        const item = src[k];
        const t = typeof item;
        if (item === undefined || t === 'function' || t === 'symbol') continue;
        const c = copyValue(item);
        if (c === SPECIAL) return SPECIAL;
        if (k === '__proto__') Object.defineProperty(out, k, { value: c, enumerable: true, writable: true, configurable: true });
        else out[k] = c;
      }
      return out;
    }
    default:
      // bigint (a round trip throws), functions and symbols at the top
      return SPECIAL;
  }
}

/**
 * Freezes a JSON-shaped value in place, deeply, and returns it. A frozen node is taken as frozen all the
 * way down (what the storages' frozen copies and this function make), so already-frozen values cost nothing.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  if (Array.isArray(value)) for (const item of value) deepFreeze(item);
  else for (const k in value as Record<string, unknown>) deepFreeze((value as Record<string, unknown>)[k]);
  return value;
}

/**
 * The value `clone` gives, for a value whose caller owns it and hands it on (the object a write passes to
 * its managedFields update): the caller's own (unfrozen) objects and arrays are kept, and only what clone
 * would make different is new: a frozen object or array, shared with a stored state (copied whole, so
 * that the result may be written anywhere), and a node holding members a JSON round trip drops or
 * rewrites (undefined, functions, non-finite numbers). A walk without allocation when the value is all
 * the caller's own. The caller must not use `v` afterwards: the result shares its nodes. `keepFrozen`:
 * frozen nodes are kept as they are too (for a kind whose writers copy before they write: a definition's
 * `copyOnWrite`), so only the caller's own nodes are walked.
 */
export function handedOver<T>(v: T, keepFrozen = false): T {
  if (v === undefined) return v;
  const c = ownValue(v, keepFrozen);
  return (c === SPECIAL ? JSON.parse(JSON.stringify(v)) : c) as T;
}

function ownValue(v: unknown, keepFrozen: boolean): unknown {
  if (typeof v !== 'object' || v === null) return copyValue(v);
  // a frozen node is a stored state's (deeply frozen, JSON-clean): kept when the writers after the caller
  // write only what changes (copy-on-write kinds), else copied
  if (Object.isFrozen(v)) return keepFrozen ? v : copyValue(v);
  if (Array.isArray(v)) {
    if (Object.getPrototypeOf(v) !== Array.prototype) return copyValue(v);
    const n = v.length;
    let out: unknown[] | undefined;
    for (let i = 0; i < n; i++) {
      const item = v[i];
      const t = typeof item;
      let c: unknown;
      if (item === undefined || t === 'function' || t === 'symbol') c = null;
      else {
        c = ownValue(item, keepFrozen);
        if (c === SPECIAL) return SPECIAL;
      }
      if (out === undefined && c !== item) out = v.slice(0, i);
      if (out !== undefined) out[i] = c;
    }
    return out ?? v;
  }
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return SPECIAL;
  // anything but a plain object (a typed array, a class instance) is copied as clone copies it
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return copyValue(v);
  const src = v as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const k in src) {
    if (!Object.hasOwn(src, k)) continue;
    const item = src[k];
    const t = typeof item;
    let c: unknown;
    let drop = false;
    if (item === undefined || t === 'function' || t === 'symbol') drop = true;
    else {
      c = ownValue(item, keepFrozen);
      if (c === SPECIAL) return SPECIAL;
    }
    if (out === undefined && (drop || c !== item)) {
      // the members before this one, as they are
      out = {};
      for (const p in src) {
        if (p === k) break;
        if (!Object.hasOwn(src, p)) continue;
        const x = src[p];
        const tx = typeof x;
        if (x === undefined || tx === 'function' || tx === 'symbol') continue;
        if (p === '__proto__') Object.defineProperty(out, p, { value: x, enumerable: true, writable: true, configurable: true });
        else out[p] = x;
      }
    }
    if (out !== undefined && !drop) {
      if (k === '__proto__') Object.defineProperty(out, k, { value: c, enumerable: true, writable: true, configurable: true });
      else out[k] = c;
    }
  }
  return out ?? v;
}
