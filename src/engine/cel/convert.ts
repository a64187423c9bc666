// JSON data (objects of the API, YAML/JSON variables) <-> CEL values.

import type { CelType, ObjectType } from './types.js';
import type { CelValue } from './values.js';
import {
  CelDuration, CelMap, CelOpaque, CelOptional, CelTimestamp, CelTypeValue, CelUint, listTypeOf, markUnstructured, withListType,
} from './values.js';
import { formatDuration, formatTimestamp, parseDate, parseDuration, parseTimestamp } from './time.js';
import { formatDouble } from './stdlib.js';
import { escapeProperty, unescapeProperty } from './schema-types.js';

function b64decode(s: string): Uint8Array {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
function b64encode(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i++) s += String.fromCharCode(b[i]);
  return btoa(s);
}

/**
 * Converts JSON data to a CEL value. With a type (from a schema), numbers follow it (integer -> int,
 * number -> double), strings of format byte/date-time/duration become bytes/timestamp/duration, list
 * types carry their set/map semantics, and objects get their type name. Without a type (dyn), integral
 * numbers become int and others double.
 */
export function fromJson(v: unknown, t?: CelType): CelValue {
  // optional_type(T) variables (e.g. oldSelf with optionalOldSelf): absent/null data is optional.none()
  if (t && t.kind === 'optional') return v === null || v === undefined ? CelOptional.none : CelOptional.of(fromJson(v, t.param));
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'boolean':
      return v;
    case 'number':
      if (t && t.kind === 'double') return v;
      if (t && t.kind === 'uint' && Number.isInteger(v) && v >= 0) return new CelUint(BigInt(v));
      return Number.isInteger(v) && (!t || t.kind !== 'double') ? BigInt(v) : v;
    case 'bigint':
      return v;
    case 'string':
      if (t) {
        try {
          // date-time values, or date values (format date) at midnight UTC
          if (t.kind === 'timestamp') return v.length === 10 ? parseDate(v) : parseTimestamp(v);
          if (t.kind === 'duration') return parseDuration(v);
          if (t.kind === 'bytes') return b64decode(v);
        } catch {
          return v;
        }
      }
      return v;
  }
  if (Array.isArray(v)) {
    const et = t && t.kind === 'list' ? t.elem : undefined;
    const out = v.map((x) => fromJson(x, et));
    if (t && t.kind === 'list' && t.listType) withListType(out, { listType: t.listType, mapKeys: t.mapKeys });
    if (t && t.kind === 'list') markUnstructured(out);
    return out;
  }
  const rec = v as Record<string, unknown>;
  // plain objects (JSON) first: the common case needs no instanceof checks
  const proto = Object.getPrototypeOf(rec);
  if (proto !== Object.prototype && proto !== null && isCelValueObject(v)) return v as CelValue;
  if (!t || t.kind === 'object' || t.kind === 'map' || t.kind === 'dyn') return new JsonMap(rec, t);
  // other declared types (e.g. an opaque or primitive type given JSON object data): plain map
  return new JsonMap(rec, undefined);
}

/**
 * A map over a JSON object whose entries are converted on first access (most expressions touch few fields).
 * Object types store fields under escaped names; the JSON keeps the raw property names. Until the map is
 * materialized (iteration, size, non-string keys), `m` caches the converted containers by key; strings and
 * booleans are returned as they are, without a cache entry.
 */
class JsonMap extends CelMap {
  #done = false;
  /** The declared object type, when the JSON is an object of a schema type. */
  readonly #obj: ObjectType | undefined;
  /** Converted containers by key (the last one, then a map once there are more). */
  #lastKey: string | undefined = undefined;
  #lastValue: CelValue = null;
  #cache: Map<string, CelValue> | undefined = undefined;
  constructor(private readonly rec: Record<string, unknown>, private readonly t: CelType | undefined) {
    super(CelMap.LAZY);
    if (t && t.kind === 'object') {
      this.#obj = t;
      this.typeName = t.name;
    } else this.#obj = undefined;
  }
  override has(k: CelValue): boolean {
    return typeof k === 'string' ? this.getStr(k) !== undefined : (this.#materialize(), super.has(k));
  }
  #childType(k: string): CelType | undefined {
    if (this.#obj) return this.#obj.field(k);
    const t = this.t;
    return t && t.kind === 'map' ? t.value : undefined;
  }
  #cached(k: string): CelValue | undefined {
    if (this.#lastKey === k) return this.#lastValue;
    return this.#cache?.get(k);
  }
  #materialize(): void {
    if (this.#done) return;
    this.#done = true;
    const obj = !!this.#obj;
    this.m = new Map();
    for (const k of Object.keys(this.rec)) {
      // object fields set to null are absent (Kubernetes treats them like unset fields)
      if (obj && this.rec[k] === null) continue;
      const ek = obj ? escapeProperty(k) ?? k : k;
      this.m.set(ek, [ek, this.#cached(ek) ?? fromJson(this.rec[k], this.#childType(ek))]);
    }
    this.#cache = undefined;
  }
  override getStr(k: string): CelValue | undefined {
    if (this.#done) {
      const v = super.getStr(k);
      // reserved words are recognized as field names of their escaped properties
      return v === undefined && this.#obj ? super.getStr(`__${k}__`) : v;
    }
    const c = this.#cached(k);
    if (c !== undefined) return c;
    const rec = this.rec;
    const raw = this.#obj && k.includes('__') ? unescapeProperty(k) : k;
    const x = rec[raw];
    // JSON never holds functions: a function is a property of Object.prototype, not of the data
    if (x === undefined || typeof x === 'function' || raw === '__proto__') {
      if (!Object.prototype.hasOwnProperty.call(rec, raw)) return undefined;
    }
    if (x === null && this.#obj) return undefined;
    const ct = this.#childType(k);
    if (typeof x === 'string') {
      if (ct === undefined || ct.kind === 'string' || ct.kind === 'dyn') return x;
    } else if (typeof x === 'boolean') return ct && ct.kind === 'optional' ? fromJson(x, ct) : x;
    const v = fromJson(x, ct);
    if (typeof v === 'object' && v !== null) {
      if (this.#lastKey !== undefined) (this.#cache ??= new Map()).set(this.#lastKey, this.#lastValue);
      this.#lastKey = k;
      this.#lastValue = v;
    }
    return v;
  }
  override get(k: CelValue): CelValue | undefined {
    if (typeof k === 'string') return this.getStr(k);
    this.#materialize();
    return super.get(k);
  }
  override get size(): number {
    this.#materialize();
    return super.size;
  }
  override set(k: CelValue, v: CelValue): boolean {
    this.#materialize();
    return super.set(k, v);
  }
  override *keys(): IterableIterator<CelValue> {
    this.#materialize();
    yield* super.keys();
  }
  override keyArray(): CelValue[] {
    this.#materialize();
    return super.keyArray();
  }
  override *entries(): IterableIterator<[CelValue, CelValue]> {
    this.#materialize();
    yield* super.entries();
  }
}

function isCelValueObject(v: unknown): boolean {
  return (
    v instanceof CelMap || v instanceof CelUint || v instanceof Uint8Array || v instanceof CelTimestamp ||
    v instanceof CelDuration || v instanceof CelTypeValue || v instanceof CelOptional || v instanceof CelOpaque
  );
}

/**
 * A CEL value as JSON for output (CLI, messages). Forms JSON cannot hold: bytes -> base64 string,
 * int/uint beyond +-2^53 -> decimal string, timestamp -> RFC 3339 string, duration -> "1.5s",
 * NaN/Infinity -> "NaN"/"+Inf"/"-Inf", type values -> their name, optional -> {"optional": value} or
 * {"optional": null} for none, opaque values -> their String() form.
 */
export function toJson(v: CelValue): unknown {
  switch (typeof v) {
    case 'boolean':
    case 'string':
      return v;
    case 'bigint':
      return v >= -(2n ** 53n) && v <= 2n ** 53n ? Number(v) : v.toString();
    case 'number':
      return Number.isFinite(v) ? v : formatDouble(v);
  }
  if (v === null) return null;
  if (v instanceof CelUint) return v.v <= 2n ** 53n ? Number(v.v) : v.v.toString();
  if (v instanceof Uint8Array) return b64encode(v);
  if (Array.isArray(v)) return v.map(toJson);
  if (v instanceof CelMap) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of v.entries()) {
      const key = k instanceof CelUint ? String(k.v) : String(k);
      o[v.typeName ? unescapeProperty(key) : key] = toJson(x);
    }
    return o;
  }
  if (v instanceof CelTimestamp) return formatTimestamp(v);
  if (v instanceof CelDuration) return formatDuration(v);
  if (v instanceof CelTypeValue) return v.name;
  if (v instanceof CelOptional) return { optional: v.hasValue ? toJson(v.value!) : null };
  if (v instanceof CelOpaque) return String(v);
  return null;
}

export { listTypeOf };
