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
