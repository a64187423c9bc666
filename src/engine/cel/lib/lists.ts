// The Kubernetes list library (k8s.io/apiserver/pkg/cel/library/lists.go) and cel-go's ext sets library
// (sets.contains / sets.equivalent / sets.intersects, enabled by Kubernetes from compatibility 1.29),
// over CEL runtime values.
//
// Semantics kept from the Go code: min/max keep the first of equal elements; comparisons that fail (NaN,
// mixed types in a dyn list) are ignored rather than raised, as cel-go's Compare error values are; sum
// starts from the overload's zero and reports overflow as the `+` operator does.

import { CelDuration, CelError, CelTimestamp, CelUint, celEquals, checkInt, checkUint, compareNumeric } from '../values.js';
import type { CelValue } from '../values.js';
import { checkDuration } from '../time.js';

export type SummableKind = 'int' | 'uint' | 'double' | 'duration';
export type ComparableKind = 'int' | 'uint' | 'double' | 'bool' | 'duration' | 'timestamp' | 'string' | 'bytes';

/** Go string comparison (UTF-8 byte order), which differs from UTF-16 order for astral characters. */
function compareStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

const isNum = (v: CelValue): v is bigint | number | CelUint => typeof v === 'bigint' || typeof v === 'number' || v instanceof CelUint;

/** cel-go Compare: -1/0/1, or undefined where Compare yields an error (NaN, unrelated types). */
export function compareValues(a: CelValue, b: CelValue): number | undefined {
  if (isNum(a) && isNum(b)) {
    const c = compareNumeric(a, b);
    return Number.isNaN(c) ? undefined : c;
  }
  if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (a instanceof Uint8Array && b instanceof Uint8Array) return compareBytes(a, b);
  if (a instanceof CelDuration && b instanceof CelDuration) return a.ns === b.ns ? 0 : a.ns < b.ns ? -1 : 1;
  if (a instanceof CelTimestamp && b instanceof CelTimestamp) return a.ns === b.ns ? 0 : a.ns < b.ns ? -1 : 1;
  return undefined;
}

function isComparable(v: CelValue): boolean {
  return (
    isNum(v) || typeof v === 'string' || typeof v === 'boolean' || v instanceof Uint8Array || v instanceof CelDuration || v instanceof CelTimestamp
  );
}

const noSuchOverload = () => new CelError('no such overload');

export function isSorted(list: readonly CelValue[]): boolean {
  let prev: CelValue | undefined;
  for (const next of list) {
    if (!isComparable(next)) throw noSuchOverload();
    if (prev !== undefined && compareValues(prev, next) === 1) return false;
    prev = next;
  }
  return true;
}

function extreme(list: readonly CelValue[], name: 'min' | 'max'): CelValue {
  const prefer = name === 'min' ? 1 : -1;
  let result: CelValue | undefined;
  for (const next of list) {
    if (!isComparable(next)) throw noSuchOverload();
    if (result === undefined) result = next;
    else if (compareValues(result, next) === prefer) result = next;
  }
  if (result === undefined) throw new CelError(`${name} called on empty list`);
  return result;
}

export function min(list: readonly CelValue[]): CelValue {
  return extreme(list, 'min');
}

export function max(list: readonly CelValue[]): CelValue {
  return extreme(list, 'max');
}

export function zeroOf(kind: SummableKind): CelValue {
  switch (kind) {
    case 'int':
      return 0n;
    case 'uint':
      return new CelUint(0n);
    case 'double':
      return 0;
    case 'duration':
      return new CelDuration(0n);
  }
}

function addValues(a: CelValue, b: CelValue): CelValue {
  if (typeof a === 'bigint' && typeof b === 'bigint') return checkInt(a + b);
  if (a instanceof CelUint && b instanceof CelUint) return checkUint(a.v + b.v);
  if (typeof a === 'number' && typeof b === 'number') return a + b;
  if (a instanceof CelDuration && b instanceof CelDuration) return checkDuration(a.ns + b.ns);
  throw noSuchOverload();
}

/** `sum()` for the overload of the given element kind. */
export function sum(list: readonly CelValue[], kind: SummableKind): CelValue {
  let acc = zeroOf(kind);
  for (const v of list) acc = addValues(acc, v);
  return acc;
}

export function indexOf(list: readonly CelValue[], item: CelValue): bigint {
  for (let i = 0; i < list.length; i++) if (celEquals(list[i]!, item)) return BigInt(i);
  return -1n;
}

export function lastIndexOf(list: readonly CelValue[], item: CelValue): bigint {
  for (let i = list.length - 1; i >= 0; i--) if (celEquals(list[i]!, item)) return BigInt(i);
  return -1n;
}

// ---- ext sets ----

function listContains(list: readonly CelValue[], v: CelValue): boolean {
  return list.some((x) => celEquals(x, v));
}

/** `sets.contains(list, sublist)`: every element of sublist is in list. */
export function setsContains(list: readonly CelValue[], sub: readonly CelValue[]): boolean {
  return sub.every((v) => listContains(list, v));
}

/** `sets.equivalent(a, b)`: each contains the other (duplicates ignored). */
export function setsEquivalent(a: readonly CelValue[], b: readonly CelValue[]): boolean {
  return setsContains(a, b) && setsContains(b, a);
}

/** `sets.intersects(a, b)`: some element is in both. */
export function setsIntersects(a: readonly CelValue[], b: readonly CelValue[]): boolean {
  return a.some((v) => listContains(b, v));
}
