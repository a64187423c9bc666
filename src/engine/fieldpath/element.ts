// Path elements (structured-merge-diff fieldpath.PathElement): a field name, the key fields of an
// associative-list item, the value of a set item, or an index into an atomic list. Their order, their
// fieldsV1 spelling (`f:`, `k:`, `v:`, `i:`) and their printed form (`.name`, `[k=v]`, `[=v]`, `[i]`).

import type { JsonValue } from '../object.js';
import { compareStrings, compareValues, goJSON, goJSONString, valueToString, valuesEqual } from './value.js';

export type KeyField = [name: string, value: JsonValue];

export type PathElement =
  | { field: string }
  | { key: KeyField[] } // sorted by name
  | { value: JsonValue }
  | { index: number };

export type Path = PathElement[];

export const fieldPE = (name: string): PathElement => ({ field: name });
export const indexPE = (index: number): PathElement => ({ index });
export const valuePE = (value: JsonValue): PathElement => ({ value });
/** A key element of `fields` (taken over: the callers build the array for it). */
export function keyPE(fields: KeyField[]): PathElement {
  return { key: fields.length < 2 ? fields : sortKeyFields(fields) };
}

export function sortKeyFields(fields: KeyField[]): KeyField[] {
  return [...fields].sort((a, b) => compareStrings(a[0], b[0]));
}

function rank(pe: PathElement): number {
  if ('field' in pe) return 0;
  if ('key' in pe) return 1;
  if ('value' in pe) return 2;
  return 3;
}

function compareKeys(a: KeyField[], b: KeyField[]): number {
  for (let i = 0; ; i++) {
    if (i >= a.length && i >= b.length) return 0;
    if (i >= a.length) return -1;
    if (i >= b.length) return 1;
    const c = compareStrings(a[i][0], b[i][0]);
    if (c !== 0) return c;
    const d = compareValues(a[i][1], b[i][1]);
    if (d !== 0) return d;
  }
}

/** Order: field names < keys < values < indexes, then within the kind. */
export function comparePE(a: PathElement, b: PathElement): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if ('field' in a) return compareStrings(a.field, (b as { field: string }).field);
  if ('key' in a) return compareKeys(a.key, (b as { key: KeyField[] }).key);
  if ('value' in a) return compareValues(a.value, (b as { value: JsonValue }).value);
  const ib = (b as { index: number }).index;
  return a.index < ib ? -1 : a.index > ib ? 1 : 0;
}

export function equalsPE(a: PathElement, b: PathElement): boolean {
  if ('field' in a) return 'field' in b && a.field === b.field;
  if ('key' in a) {
    if (!('key' in b) || a.key.length !== b.key.length) return false;
    return a.key.every(([n, v], i) => n === b.key[i][0] && valuesEqual(v, b.key[i][1]));
  }
  if ('value' in a) return 'value' in b && valuesEqual(a.value, b.value);
  return 'index' in b && a.index === b.index;
}

const SERIALIZED = Symbol('serializedPE');

/** The fieldsV1 key of a path element. Field names are written raw; key objects are compact JSON, sorted. */
export function serializePE(pe: PathElement): string {
  if ('field' in pe) return 'f:' + pe.field;
  if ('index' in pe) return 'i:' + String(pe.index);
  // key and value elements are immutable once made and serialized many times (list indexing, set
  // operations, the fieldsV1 encoding): their JSON is kept on the element itself (a symbol, so no
  // enumeration or JSON sees it; cheaper than a WeakMap for the many short-lived elements)
  const held = (pe as { [SERIALIZED]?: string })[SERIALIZED];
  if (held !== undefined) return held;
  const s = 'key' in pe ? (pe.key.length === 1 && typeof pe.key[0][1] === 'string' ? singleKey(pe.key[0][0], pe.key[0][1]) : 'k:{' + pe.key.map(([n, v]) => `${goJSONString(n)}:${goJSON(v)}`).join(',') + '}') : 'v:' + goJSON(pe.value);
  (pe as { [SERIALIZED]?: string })[SERIALIZED] = s;
  return s;
}

// Most key elements are one string field (`k:{"name":"web"}`), made afresh by every walk of a list item
// (validation, the field set, merge, compare) and every write: their text is kept per (field, value),
// bounded.
const singleKeys = new Map<string, Map<string, string>>();
let singleKeyCount = 0;
const SINGLE_KEYS_MAX = 4096;

function singleKey(name: string, value: string): string {
  let byValue = singleKeys.get(name);
  const known = byValue?.get(value);
  if (known !== undefined) return known;
  const s = `k:{${goJSONString(name)}:${goJSONString(value)}}`;
  if (singleKeyCount >= SINGLE_KEYS_MAX) {
    singleKeys.clear();
    singleKeyCount = 0;
    byValue = undefined;
  }
  if (!byValue) singleKeys.set(name, (byValue = new Map()));
  byValue.set(value, s);
  singleKeyCount++;
  return s;
}

export class UnknownPathElementType extends Error {}

/** Parses a fieldsV1 key. Throws UnknownPathElementType for an unknown prefix letter (ignored by callers). */
export function deserializePE(s: string): PathElement {
  if (s.length < 2) throw new Error('key must be 2 characters long:');
  if (s[1] !== ':') throw new Error(`missing colon: ${s}`);
  const body = s.slice(2);
  switch (s[0]) {
    case 'f':
      return { field: body };
    case 'v':
      return { value: JSON.parse(body) as JsonValue };
    case 'k': {
      const obj = JSON.parse(body) as unknown;
      if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) throw new Error(`expected an object for key ${s}`);
      return keyPE(Object.entries(obj as Record<string, JsonValue>));
    }
    case 'i': {
      if (!/^[+-]?\d+$/.test(body)) throw new Error(`strconv.Atoi: parsing ${JSON.stringify(body)}: invalid syntax`);
      return { index: Number(body) };
    }
    default:
      throw new UnknownPathElementType('unknown path element type');
  }
}

/** Printed form used in conflict messages: `.spec`, `[name="app"]`, `[=80]`, `[0]`. */
export function peToString(pe: PathElement): string {
  if ('field' in pe) return '.' + pe.field;
  if ('key' in pe) return '[' + pe.key.map(([n, v]) => `${n}=${valueToString(v)}`).join(',') + ']';
  if ('value' in pe) return `[=${valueToString(pe.value)}]`;
  return `[${pe.index}]`;
}

export function pathToString(p: Path): string {
  return p.map(peToString).join('');
}
