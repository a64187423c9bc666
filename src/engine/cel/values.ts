// Runtime values of the CEL evaluator (the representation is documented in library.ts).

import type { CelType, ListType } from './types.js';
import { T } from './types.js';

/** uint64 values: a wrapper so that `1u` and `1` stay distinct types. `v` is in [0, 2^64). */
export class CelUint {
  constructor(readonly v: bigint) {}
}

/**
 * Timestamps: nanoseconds since the Unix epoch. Valid range 0001-01-01T00:00:00Z..9999-12-31T23:59:59.999999999Z.
 * `offsetSec` keeps the UTC offset a timestamp was parsed with (Go's time.Time keeps its location), used only
 * by string(); accessors use UTC unless given a time zone, equality and ordering use `ns`.
 */
export class CelTimestamp {
  constructor(readonly ns: bigint, readonly offsetSec = 0) {}
}

/** Durations: signed nanoseconds. Valid range +-315,576,000,000 seconds (about 10,000 years). */
export class CelDuration {
  constructor(readonly ns: bigint) {}
}

/** A type value (`type(1)` is `int`, `int` itself is a type value). */
export class CelTypeValue {
  constructor(readonly name: string, readonly type: CelType) {}
}

/** optional_type(T) values: `optional.none()` has hasValue false. */
export class CelOptional {
  constructor(readonly hasValue: boolean, readonly value?: CelValue) {}
  static readonly none = new CelOptional(false);
  static of(v: CelValue): CelOptional {
    return new CelOptional(true, v);
  }
}

/** Base class of opaque library values (net.IP, kubernetes.Quantity, ...). */
export abstract class CelOpaque {
  /** The CEL type of this value, e.g. T.opaque('net.IP'). */
  abstract readonly celType: CelType;
  /** Equality for `==` / `!=`; default is identity. */
  equals(other: CelValue): boolean {
    return other === this;
  }
}

export type CelMapKey = string | bigint | boolean | CelUint;

/** The shared empty entry table of lazy maps (never written). */
const LAZY_MAP = new Map<string | bigint | boolean, [CelValue, CelValue]>();

/**
 * Maps (and objects, which are maps with a `typeName`). Keys are int (bigint), uint (CelUint), bool or
 * string; int and uint keys with the same numeric value are the same key (heterogeneous equality), and a
 * double with an integral value finds them too. Insertion order is kept.
 */
export class CelMap {
  protected m: Map<string | bigint | boolean, [CelValue, CelValue]>;
  /** Set when the map is an object of a declared object type (schema objects). */
  typeName?: string;
  /** `CelMap.LAZY`: for subclasses that fill `m` themselves on first use (they must replace it before writing). */
  constructor(entries?: Iterable<[CelValue, CelValue]> | typeof LAZY_MAP) {
    if (entries === LAZY_MAP) {
      this.m = LAZY_MAP;
      return;
    }
    this.m = new Map();
    if (entries) for (const [k, v] of entries) this.set(k, v);
  }
  static readonly LAZY = LAZY_MAP;
  static fromRecord(rec: Record<string, CelValue>, typeName?: string): CelMap {
    const m = new CelMap();
    for (const k of Object.keys(rec)) m.m.set(k, [k, rec[k]]);
    if (typeName) m.typeName = typeName;
    return m;
  }
  /** Normalized key; undefined when the value cannot be a key (a non-integral double, a list...). */
  static norm(k: CelValue): string | bigint | boolean | undefined {
    switch (typeof k) {
      case 'string':
      case 'bigint':
      case 'boolean':
        return k;
      case 'number':
        return Number.isInteger(k) ? BigInt(k) : undefined;
      default:
        return k instanceof CelUint ? k.v : undefined;
    }
  }
  get size(): number {
    return this.m.size;
  }
  /** Sets a key; returns false when the key already existed. Throws when the key type is invalid. */
  set(k: CelValue, v: CelValue): boolean {
    const n = CelMap.norm(k);
    if (n === undefined || typeof k === 'number') throw new CelError(`unsupported key type: ${valueTypeName(k)}`);
    const had = this.m.has(n);
    this.m.set(n, [k, v]);
    return !had;
  }
  get(k: CelValue): CelValue | undefined {
    const n = CelMap.norm(k);
    if (n === undefined) return undefined;
    const e = this.m.get(n);
    return e ? e[1] : undefined;
  }
  /** Fast path for string keys (field selection). */
  getStr(k: string): CelValue | undefined {
    const e = this.m.get(k);
    return e ? e[1] : undefined;
  }
  has(k: CelValue): boolean {
    const n = CelMap.norm(k);
    return n !== undefined && this.m.has(n);
  }
  *keys(): IterableIterator<CelValue> {
    for (const e of this.m.values()) yield e[0];
  }
  keyArray(): CelValue[] {
    const out: CelValue[] = [];
    for (const e of this.m.values()) out.push(e[0]);
    return out;
  }
  *entries(): IterableIterator<[CelValue, CelValue]> {
    for (const e of this.m.values()) yield e;
  }
}

/** Lists are plain arrays. A list of a set/map list-type (schema) carries LIST_TYPE, see withListType. */
export type CelList = CelValue[];
export const LIST_TYPE: unique symbol = Symbol('celListType');
export interface ListTypeInfo {
  listType: 'set' | 'map';
  mapKeys?: string[];
}
export function withListType<L extends CelValue[]>(l: L, info: ListTypeInfo | undefined): L {
  if (info) Object.defineProperty(l, LIST_TYPE, { value: info, enumerable: false });
  return l;
}
// Lists of schema-typed data (Kubernetes' unstructured list values): their index errors read
// `index out of bounds: N` as Kubernetes words them.
// (A symbol-keyed property: setting it is a cached shape transition, far cheaper than a WeakSet entry per
// list converted, and neither JSON nor spreading copies it.)
const UNSTRUCTURED: unique symbol = Symbol('celUnstructured');
export function markUnstructured(l: CelValue[]): void {
  (l as unknown as { [UNSTRUCTURED]?: true })[UNSTRUCTURED] = true;
}
export function isUnstructured(l: CelValue[]): boolean {
  return (l as unknown as { [UNSTRUCTURED]?: true })[UNSTRUCTURED] === true;
}

export function listTypeOf(l: CelValue[]): ListTypeInfo | undefined {
  return (l as unknown as { [LIST_TYPE]?: ListTypeInfo })[LIST_TYPE];
}

export type CelValue =
  | null
  | boolean
  | bigint
  | number
  | string
  | Uint8Array
  | CelUint
  | CelValue[]
  | CelMap
  | CelTimestamp
  | CelDuration
  | CelTypeValue
  | CelOptional
  | CelOpaque;

/** A runtime error (division by zero, no such key, overflow...). Thrown by functions; absorbed by && || ?: as the spec says. */
export class CelError extends Error {
  /** Source span of the expression that raised it (set by the evaluator). */
  offset?: number;
  length?: number;
  constructor(message: string) {
    super(message);
  }
}

/** Thrown when the runtime cost limit is exceeded; never absorbed. */
export class CelCostLimitError extends Error {
  constructor() {
    super('operation cancelled: actual cost limit exceeded');
  }
}

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
export const UINT64_MAX = 2n ** 64n - 1n;

export function checkInt(v: bigint): bigint {
  if (v < INT64_MIN || v > INT64_MAX) throw new CelError('integer overflow');
  return v;
}
export function checkUint(v: bigint): CelUint {
  if (v < 0n || v > UINT64_MAX) throw new CelError('unsigned integer overflow');
  return new CelUint(v);
}

/** The runtime type of a value. */
export function valueType(v: CelValue): CelType {
  switch (typeof v) {
    case 'boolean':
      return T.bool;
    case 'bigint':
      return T.int;
    case 'number':
      return T.double;
    case 'string':
      return T.string;
  }
  if (v === null) return T.null;
  if (v instanceof CelUint) return T.uint;
  if (v instanceof Uint8Array) return T.bytes;
  if (Array.isArray(v)) return T.list(T.dyn);
  if (v instanceof CelMap) {
    if (v.typeName) return { kind: 'opaque', name: v.typeName };
    return T.map(T.dyn, T.dyn);
  }
  if (v instanceof CelTimestamp) return T.timestamp;
  if (v instanceof CelDuration) return T.duration;
  if (v instanceof CelTypeValue) return T.type;
  if (v instanceof CelOptional) return T.optional(T.dyn);
  if (v instanceof CelOpaque) return v.celType;
  return T.dyn;
}

/** Name of the runtime type as `type(x)` and error messages print it. */
export function valueTypeName(v: CelValue): string {
  switch (typeof v) {
    case 'boolean':
      return 'bool';
    case 'bigint':
      return 'int';
    case 'number':
      return 'double';
    case 'string':
      return 'string';
  }
  if (v === null) return 'null_type';
  if (v instanceof CelUint) return 'uint';
  if (v instanceof Uint8Array) return 'bytes';
  if (Array.isArray(v)) return 'list';
  if (v instanceof CelMap) return v.typeName ?? 'map';
  if (v instanceof CelTimestamp) return 'google.protobuf.Timestamp';
  if (v instanceof CelDuration) return 'google.protobuf.Duration';
  if (v instanceof CelTypeValue) return 'type';
  if (v instanceof CelOptional) return 'optional_type';
  if (v instanceof CelOpaque) {
    const t = v.celType;
    return t.kind === 'opaque' ? t.name : String(t.kind);
  }
  return 'unknown';
}

function isNum(v: CelValue): v is bigint | number | CelUint {
  return typeof v === 'bigint' || typeof v === 'number' || v instanceof CelUint;
}

/** Numeric comparison across int/uint/double: -1, 0, 1, or NaN when a NaN is involved. */
export function compareNumeric(a: bigint | number | CelUint, b: bigint | number | CelUint): number {
  const x = a instanceof CelUint ? a.v : a;
  const y = b instanceof CelUint ? b.v : b;
  if (typeof x === 'bigint' && typeof y === 'bigint') return x < y ? -1 : x > y ? 1 : 0;
  if (typeof x === 'number' && typeof y === 'number') {
    if (Number.isNaN(x) || Number.isNaN(y)) return NaN;
    return x < y ? -1 : x > y ? 1 : 0;
  }
  // mixed integer/double: compared as doubles, as cel-go does (lossy for integers beyond 2^53)
  const fx = Number(x), fy = Number(y);
  if (Number.isNaN(fx) || Number.isNaN(fy)) return NaN;
  return fx < fy ? -1 : fx > fy ? 1 : 0;
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** CEL equality (heterogeneous: values of different types are unequal, numbers compare by value). */
export function celEquals(a: CelValue, b: CelValue): boolean {
  if (a === b) return typeof a !== 'number' || !Number.isNaN(a);
  const ta = typeof a;
  if (ta === 'string' || ta === 'boolean' || typeof b === 'string' || typeof b === 'boolean') return false;
  if (isNum(a)) return isNum(b) && compareNumeric(a, b) === 0;
  if (a === null || b === null) return false;
  if (a instanceof Uint8Array) return b instanceof Uint8Array && bytesEqual(a, b);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    const lt = listTypeOf(a) ?? listTypeOf(b);
    if (lt) return unorderedListEquals(a, b);
    for (let i = 0; i < a.length; i++) if (!celEquals(a[i], b[i])) return false;
    return true;
  }
  if (a instanceof CelMap) {
    if (!(b instanceof CelMap) || a.size !== b.size) return false;
    for (const [k, v] of a.entries()) {
      const bv = b.get(k);
      if (bv === undefined || !celEquals(v, bv)) return false;
    }
    return true;
  }
  if (a instanceof CelTimestamp) return b instanceof CelTimestamp && a.ns === b.ns;
  if (a instanceof CelDuration) return b instanceof CelDuration && a.ns === b.ns;
  if (a instanceof CelTypeValue) return b instanceof CelTypeValue && a.name === b.name;
  if (a instanceof CelOptional) {
    if (!(b instanceof CelOptional)) return false;
    if (!a.hasValue || !b.hasValue) return a.hasValue === b.hasValue;
    return celEquals(a.value!, b.value!);
  }
  if (a instanceof CelOpaque) return a.equals(b);
  if (b instanceof CelOpaque) return b.equals(a);
  return false;
}

// Lists of list-type set or map compare as multisets (spec rule 5).
function unorderedListEquals(a: CelValue[], b: CelValue[]): boolean {
  const used = new Array<boolean>(b.length).fill(false);
  outer: for (const x of a) {
    for (let j = 0; j < b.length; j++) {
      if (!used[j] && celEquals(x, b[j])) {
        used[j] = true;
        continue outer;
      }
    }
    return false;
  }
  return true;
}

/** The list-type info a ListType carries, for attaching to runtime lists. */
export function listTypeInfo(t: ListType): ListTypeInfo | undefined {
  return t.listType ? { listType: t.listType, mapKeys: t.mapKeys } : undefined;
}

/**
 * The list accumulator of the innermost comprehension whose loop is running (map and filter build their
 * result with `accu + [x]`). Nothing but that loop can reach it, so list concatenation appends to it in place
 * instead of copying the whole list on every step. The loop sets it before its first step and puts the outer
 * loop's back when it ends (or throws), before the result can be shared; an outer accumulator reached while an
 * inner loop runs is simply copied. One module variable: no mark on the array, nothing left on a finished list.
 */
let appendTarget: CelValue[] | undefined;
/** Makes l the list that concatenation may append to; returns the previous one, for endAppend. */
export function beginAppend(l: CelValue[]): CelValue[] | undefined {
  const prev = appendTarget;
  appendTarget = l;
  return prev;
}
export function endAppend(prev: CelValue[] | undefined): void {
  appendTarget = prev;
}
export function isAppendable(l: CelValue[]): boolean {
  return l === appendTarget;
}
