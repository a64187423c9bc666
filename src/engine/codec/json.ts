// A JSON parser that behaves like the decoder of the real server (Go's encoding/json as forked in
// sigs.k8s.io/json): the same syntax errors, word for word; duplicate keys detected and reported with the
// field paths the strict decoder prints (`metadata.name`, `spec.containers[0].image`, `[1].path`); nesting
// limited like Go's scanner (Go: 10000 levels; request bodies here: MAX_NESTING_DEPTH, see budgets.ts).
// It is iterative, so deep input cannot overflow the JS stack.
//
// Numbers: JSON numbers become JS numbers. Integers are exact up to 2^53; larger ones lose precision (Go
// keeps int64 exactly). `1.0` and `1` both become the number 1; the paths of numbers written with a
// fraction or an exponent are listed in `nonIntegerNumbers`, so a caller can apply Go's rule that such
// a number cannot be decoded into an integer field.

import { goQuoteChar } from './go-format.js';
import { MAX_NESTING_DEPTH } from './budgets.js';

/** A syntax error with the text Go's encoding/json gives (e.g. `invalid character '}' after object key`). */
export class JsonSyntaxError extends Error {
  constructor(message: string, readonly offset: number) {
    super(message);
  }
}

/** A number out of float64 range: Go's decoder fails on it when it decodes the member (a type error). */
export class JsonRangeError extends Error {
  constructor(message: string, readonly offset: number) {
    super(message);
  }
}

export interface JsonParseOptions {
  /** Nesting limit; Go's scanner allows 10000 levels (JSON_MAX_DEPTH); the default is the body budget. */
  maxDepth?: number;
  /** How many duplicate fields to record at most (the strict decoder keeps 100 strict errors). */
  maxDuplicates?: number;
}

export interface JsonParseResult {
  value: unknown;
  /** Paths of duplicated keys in document order, each once (as sigs.k8s.io/json dedupes them). */
  duplicates: string[];
  /** Offset (in the text) of the occurrence that made each entry of `duplicates` a duplicate. */
  duplicateOffsets: number[];
  /** Paths of numbers written with a fraction or exponent (`1.0`, `1e3`): Go decodes them as floats. */
  nonIntegerNumbers: string[];
}

/** Go's scanner limit (maxNestingDepth). */
export const JSON_MAX_DEPTH = 10000;

const enum K { Obj, Arr }
interface ObjFrame { k: K.Obj; obj: Record<string, unknown>; key: string }
interface ArrFrame { k: K.Arr; arr: unknown[] }
type Frame = ObjFrame | ArrFrame;

function isWs(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/** First UTF-8 byte of the character at i: Go's scanner reports bytes, not characters. */
function byteAt(text: string, i: number): number {
  const cp = text.codePointAt(i)!;
  if (cp < 0x80) return cp;
  if (cp < 0x800) return 0xc0 | (cp >> 6);
  if (cp < 0x10000) return 0xe0 | (cp >> 12);
  return 0xf0 | (cp >> 18);
}

/** Sets a member without triggering the `__proto__` setter. */
export function setMember(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

/** Builds a strict-decoder field path from the open frames (plus a last key). */
function pathOf(stack: Frame[], depth: number, lastKey?: string): string {
  let p = '';
  for (let d = 0; d < depth; d++) {
    const f = stack[d];
    if (f.k === K.Obj) p = p ? `${p}.${f.key}` : f.key;
    else p += `[${f.arr.length}]`;
  }
  if (lastKey !== undefined) p = p ? `${p}.${lastKey}` : lastKey;
  return p;
}

export function parseJson(text: string, opts: JsonParseOptions = {}): JsonParseResult {
  const maxDepth = opts.maxDepth ?? MAX_NESTING_DEPTH;
  const maxDup = opts.maxDuplicates ?? Infinity;
  const n = text.length;
  let i = 0;
  const stack: Frame[] = [];
  const duplicates: string[] = [];
  const duplicateOffsets: number[] = [];
  const seenDup = new Set<string>();
  const nonIntegerNumbers: string[] = [];

  const fail = (pos: number, context: string): never => {
    if (pos >= n) throw new JsonSyntaxError('unexpected end of JSON input', n);
    throw new JsonSyntaxError(`invalid character ${goQuoteChar(byteAt(text, pos))} ${context}`, pos);
  };
  const skipWs = () => {
    while (i < n && isWs(text.charCodeAt(i))) i++;
  };

  const readString = (): string => {
    // text[i] === '"'
    i++;
    let out = '';
    let start = i;
    for (;;) {
      if (i >= n) fail(i, '');
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        out += text.slice(start, i);
        i++;
        return out;
      }
      if (c < 0x20) fail(i, 'in string literal');
      if (c !== 0x5c) {
        i++;
        continue;
      }
      out += text.slice(start, i);
      i++;
      if (i >= n) fail(i, '');
      const e = text.charCodeAt(i);
      switch (e) {
        case 0x22: out += '"'; break;
        case 0x5c: out += '\\'; break;
        case 0x2f: out += '/'; break;
        case 0x62: out += '\b'; break;
        case 0x66: out += '\f'; break;
        case 0x6e: out += '\n'; break;
        case 0x72: out += '\r'; break;
        case 0x74: out += '\t'; break;
        case 0x75: {
          const u = readHex4(i + 1);
          i += 4;
          if (u >= 0xd800 && u <= 0xdbff) {
            // a high surrogate needs a following \uDC00-\uDFFF escape, otherwise Go writes U+FFFD
            if (text.charCodeAt(i + 1) === 0x5c && text.charCodeAt(i + 2) === 0x75) {
              const lo = readHex4(i + 3);
              if (lo >= 0xdc00 && lo <= 0xdfff) {
                out += String.fromCharCode(u, lo);
                i += 6;
                break;
              }
            }
            out += '\ufffd';
          } else if (u >= 0xdc00 && u <= 0xdfff) out += '\ufffd';
          else out += String.fromCharCode(u);
          break;
        }
        default:
          fail(i, 'in string escape code');
      }
      i++;
      start = i;
    }
  };
  const readHex4 = (at: number): number => {
    let v = 0;
    for (let k = 0; k < 4; k++) {
      const p = at + k;
      if (p >= n) fail(p, '');
      const c = text.charCodeAt(p);
      let d: number;
      if (c >= 0x30 && c <= 0x39) d = c - 0x30;
      else if (c >= 0x61 && c <= 0x66) d = c - 0x57;
      else if (c >= 0x41 && c <= 0x46) d = c - 0x37;
      else return fail(p, 'in \\u hexadecimal character escape');
      v = v * 16 + d;
    }
    return v;
  };
  const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
  const readNumber = (): number => {
    const start = i;
    let float = false;
    if (text.charCodeAt(i) === 0x2d) {
      i++;
      if (i >= n) fail(i, '');
      if (!isDigit(text.charCodeAt(i))) fail(i, 'in numeric literal');
    }
    if (text.charCodeAt(i) === 0x30) i++;
    else while (i < n && isDigit(text.charCodeAt(i))) i++;
    if (i < n && text.charCodeAt(i) === 0x2e) {
      float = true;
      i++;
      if (i >= n) fail(i, '');
      if (!isDigit(text.charCodeAt(i))) fail(i, 'after decimal point in numeric literal');
      while (i < n && isDigit(text.charCodeAt(i))) i++;
    }
    if (i < n && (text.charCodeAt(i) === 0x65 || text.charCodeAt(i) === 0x45)) {
      float = true;
      i++;
      if (i < n && (text.charCodeAt(i) === 0x2b || text.charCodeAt(i) === 0x2d)) i++;
      if (i >= n) fail(i, '');
      if (!isDigit(text.charCodeAt(i))) fail(i, 'in exponent of numeric literal');
      while (i < n && isDigit(text.charCodeAt(i))) i++;
    }
    if (float) nonIntegerNumbers.push(pathOf(stack, stack.length));
    const v = Number(text.slice(start, i));
    // Go: strconv.ParseFloat fails out of range
    if (!Number.isFinite(v)) throw new JsonRangeError(`json: cannot unmarshal number ${text.slice(start, i)} into Go value of type float64`, start);
    return Object.is(v, -0) && !float ? 0 : v;
  };
  const readLiteral = (word: string, value: unknown): unknown => {
    for (let k = 1; k < word.length; k++) {
      const p = i + k;
      if (p >= n) fail(p, '');
      if (text[p] !== word[k]) fail(p, `in literal ${word} (expecting ${goQuoteChar(word.charCodeAt(k))})`);
    }
    i += word.length;
    return value;
  };
  const readKey = (top: ObjFrame) => {
    const keyAt = i;
    const key = readString();
    skipWs();
    if (i >= n || text.charCodeAt(i) !== 0x3a) fail(i, 'after object key');
    i++;
    if (Object.prototype.hasOwnProperty.call(top.obj, key)) {
      const p = pathOf(stack, stack.length - 1, key);
      if (!seenDup.has(p) && duplicates.length < maxDup) {
        seenDup.add(p);
        duplicates.push(p);
        duplicateOffsets.push(keyAt);
      }
    }
    top.key = key;
  };

  let value: unknown;
  skipWs();
  outer: for (;;) {
    // parse a value starting at i
    skipWs();
    if (i >= n) fail(i, '');
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) {
      if (stack.length + 1 > maxDepth) fail(i, 'exceeded max depth');
      i++;
      skipWs();
      if (c === 0x7b) {
        const frame: ObjFrame = { k: K.Obj, obj: {}, key: '' };
        stack.push(frame);
        if (i < n && text.charCodeAt(i) === 0x7d) {
          i++;
          stack.pop();
          value = frame.obj;
        } else {
          if (i >= n || text.charCodeAt(i) !== 0x22) fail(i, 'looking for beginning of object key string');
          readKey(frame);
          continue outer;
        }
      } else {
        const frame: ArrFrame = { k: K.Arr, arr: [] };
        stack.push(frame);
        if (i < n && text.charCodeAt(i) === 0x5d) {
          i++;
          stack.pop();
          value = frame.arr;
        } else continue outer;
      }
    } else if (c === 0x22) value = readString();
    else if (c === 0x2d || isDigit(c)) value = readNumber();
    else if (c === 0x74) value = readLiteral('true', true);
    else if (c === 0x66) value = readLiteral('false', false);
    else if (c === 0x6e) value = readLiteral('null', null);
    else fail(i, 'looking for beginning of value');

    // a value is complete: hand it to the enclosing container(s)
    for (;;) {
      const top = stack[stack.length - 1];
      if (!top) break outer;
      skipWs();
      if (top.k === K.Obj) {
        setMember(top.obj, top.key, value);
        if (i >= n) fail(i, '');
        const d = text.charCodeAt(i);
        if (d === 0x2c) {
          i++;
          skipWs();
          if (i >= n || text.charCodeAt(i) !== 0x22) fail(i, 'looking for beginning of object key string');
          readKey(top);
          continue outer;
        }
        if (d !== 0x7d) fail(i, 'after object key:value pair');
        i++;
        stack.pop();
        value = top.obj;
      } else {
        top.arr.push(value);
        if (i >= n) fail(i, '');
        const d = text.charCodeAt(i);
        if (d === 0x2c) {
          i++;
          continue outer;
        }
        if (d !== 0x5d) fail(i, 'after array element');
        i++;
        stack.pop();
        value = top.arr;
      }
    }
  }
  skipWs();
  if (i < n) fail(i, 'after top-level value');
  return { value, duplicates, duplicateOffsets, nonIntegerNumbers };
}

/**
 * Offsets of the first occurrence of every field path in a JSON text (the same path format as the
 * duplicates). Used only to order strict-decoding errors as the real decoder meets them; the text is
 * assumed to have parsed already.
 */
export function jsonFieldOffsets(text: string): Map<string, number> {
  const out = new Map<string, number>();
  const n = text.length;
  // frames: for objects the current key, for arrays the current index; `prefix` is the path of the
  // container itself, so a key's path costs one concatenation however deep it is
  const stack: { obj: boolean; key: string; idx: number; prefix: string }[] = [];
  const childPrefix = (): string => {
    const top = stack[stack.length - 1];
    if (!top) return '';
    if (top.obj) return top.prefix ? `${top.prefix}.${top.key}` : top.key;
    return `${top.prefix}[${top.idx}]`;
  };
  const path = (last: string) => {
    const p = stack[stack.length - 1]?.prefix ?? '';
    return p ? `${p}.${last}` : last;
  };
  let i = 0;
  let expectKey = false;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const start = i;
      i++;
      let s = '';
      let seg = i;
      while (i < n && text.charCodeAt(i) !== 0x22) {
        if (text.charCodeAt(i) === 0x5c) {
          s += text.slice(seg, i);
          const e = text[i + 1];
          if (e === 'u') {
            s += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
            i += 6;
          } else {
            s += ({ b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' } as Record<string, string>)[e] ?? e;
            i += 2;
          }
          seg = i;
        } else i++;
      }
      s += text.slice(seg, i);
      i++;
      if (expectKey) {
        const top = stack[stack.length - 1];
        const p = path(s);
        if (!out.has(p)) out.set(p, start);
        top.key = s;
        expectKey = false;
      }
      continue;
    }
    if (c === 0x7b) stack.push({ obj: true, key: '', idx: 0, prefix: childPrefix() }), (expectKey = true);
    else if (c === 0x5b) stack.push({ obj: false, key: '', idx: 0, prefix: childPrefix() });
    else if (c === 0x7d || c === 0x5d) stack.pop(), (expectKey = false);
    else if (c === 0x2c) {
      const top = stack[stack.length - 1];
      if (top?.obj) expectKey = true;
      else if (top) top.idx++;
    }
    i++;
  }
  return out;
}
