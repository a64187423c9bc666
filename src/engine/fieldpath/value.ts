// Value helpers with the semantics structured-merge-diff gives JSON values: a total order across types
// (numbers < strings < booleans < lists < maps < null), numeric equality of ints and floats, Go-style
// printing for field paths (`%q` strings) and Go encoding/json-style serialization for fieldsV1 keys.

import type { JsonValue } from '../object.js';

export function isMap(v: unknown): v is { [k: string]: JsonValue } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Byte-wise (UTF-8) comparison, as Go's strings.Compare. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca === cb) continue;
    // Surrogates (astral code points) sort above every BMP code point in UTF-8.
    const sa = ca >= 0xd800 && ca <= 0xdfff;
    const sb = cb >= 0xd800 && cb <= 0xdfff;
    if (sa !== sb) return sa ? 1 : -1;
    return ca < cb ? -1 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

function typeRank(v: JsonValue): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (v !== null && typeof v === 'object') return 4;
  return 5; // null
}

/** Total order of values (value.Compare). */
export function compareValues(a: JsonValue, b: JsonValue): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0:
      return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
    case 1:
      return compareStrings(a as string, b as string);
    case 2:
      return a === b ? 0 : a ? 1 : -1;
    case 3: {
      const la = a as JsonValue[];
      const lb = b as JsonValue[];
      for (let i = 0; ; i++) {
        if (i >= la.length && i >= lb.length) return 0;
        if (i >= la.length) return -1;
        if (i >= lb.length) return 1;
        const c = compareValues(la[i], lb[i]);
        if (c !== 0) return c;
      }
    }
    case 4: {
      const ma = a as Record<string, JsonValue>;
      const mb = b as Record<string, JsonValue>;
      const ka = Object.keys(ma).sort(compareStrings);
      const kb = Object.keys(mb).sort(compareStrings);
      if (ka.length === 0 && kb.length === 0) return 0;
      // zip in lexical key order, as value.MapCompare does
      const keys = [...new Set([...ka, ...kb])].sort(compareStrings);
      let i = 0;
      for (const k of keys) {
        let c: number;
        if (i === ka.length) c = -1;
        else if (i === kb.length) c = 1;
        else if (!(k in ma)) c = 1;
        else if (!(k in mb)) c = -1;
        else c = compareValues(ma[k], mb[k]);
        i++;
        if (c !== 0) return c;
      }
      return 0;
    }
    default:
      return 0;
  }
}

/** Deep equality (value.Equals): numbers compare numerically, maps ignore key order. */
export function valuesEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  if (a === null || b === null) return false;
  if (typeof a !== typeof b) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!valuesEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  if (typeof a === 'object') {
    const ma = a as Record<string, JsonValue>;
    const mb = b as Record<string, JsonValue>;
    const ka = Object.keys(ma);
    if (ka.length !== Object.keys(mb).length) return false;
    for (const k of ka) {
      if (!(k in mb) || !valuesEqual(ma[k], mb[k])) return false;
    }
    return true;
  }
  return false;
}

import { goQuote } from '../codec/go-format.js';
export { goQuote };

/** Go's `%v` of a JSON number: integers as int64, other numbers as float64 (%g, shortest; exponent form
 * when the exponent is < -4 or >= 6, at least two exponent digits). */
export function goNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 9.2e18) return String(n).includes('e') ? BigInt(n).toString() : String(n);
  const [m, e] = n.toExponential().split('e');
  const exp = Number(e);
  if (exp < -4 || exp >= 6) return `${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(n);
}
const goFloat = goNumber;

/** Go's `%v` of an unstructured value (map[a:1 b:x], [1 a], <nil>). */
export function goV(v: JsonValue | undefined): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return '[' + v.map(goV).join(' ') + ']';
  return 'map[' + Object.keys(v).sort(compareStrings).map((k) => `${k}:${goV(v[k])}`).join(' ') + ']';
}

/** Go's `%#v` of an unstructured value (map[string]interface {}{"a":1}, []interface {}{1, "a"}). */
export function goSharpV(v: JsonValue | undefined): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return '[]interface {}{' + v.map(goSharpV).join(', ') + '}';
  return 'map[string]interface {}{' + Object.keys(v).sort(compareStrings).map((k) => `${goQuote(k)}:${goSharpV(v[k])}`).join(', ') + '}';
}

/** Go's `%T` of an unstructured value. */
export function goTypeName(v: JsonValue | undefined): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 9.2e18 ? 'int64' : 'float64';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

/** value.ToString: how values appear inside printed paths (`[name="app"]`, `[=80]`). */
export function valueToString(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'number') return goFloat(v);
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return '[' + v.map(valueToString).join(',') + ']';
  return Object.keys(v).map((k) => `${k}=${valueToString(v[k])}`).join('');
}

/** Characters Go's encoding/json escapes where JSON.stringify does not. */
const GO_ESCAPED = /[<>&\u2028\u2029]/;

/** A JSON string as Go's encoding/json writes it (HTML-safe escapes for <, >, & and U+2028/9). */
export function goJSONString(s: string): string {
  const json = JSON.stringify(s);
  // most strings hold none of the five: one test instead of five replacements
  if (!GO_ESCAPED.test(json)) return json;
  return json
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Compact JSON as Go's encoding/json writes it: map keys sorted, HTML-safe strings. */
export function goJSON(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return goJSONString(v);
  if (typeof v === 'number') return JSON.stringify(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return '[' + v.map(goJSON).join(',') + ']';
  const keys = Object.keys(v).sort(compareStrings);
  return '{' + keys.map((k) => `${goJSONString(k)}:${goJSON(v[k])}`).join(',') + '}';
}
