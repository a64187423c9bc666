// YAML decoding as the real server does it (sigs.k8s.io/yaml over go-yaml v2, YAML 1.1 rules), built on
// js-yaml's event parser with our own constructor:
// - plain scalars resolve like go-yaml v2: yes/no/on/off/y/n are booleans, 0777 is octal, 0x1F hex, 1_000
//   an int, .inf/.nan floats (which then fail JSON conversion like json.Marshal does), timestamps stay strings;
// - map keys become strings (ints in decimal, booleans as true/false);
// - a key set twice is reported like go-yaml's strict mode (`line 5: key "name" already set in map`,
//   the line being that of the value node), and the last value wins like the non-strict conversion;
// - merge keys (`<<`) follow go-yaml v2 (a merged map overrides keys set before it; later keys override it);
// - aliases are expanded into copies, with go-yaml v2's guard against excessive aliasing.
// Deviation: nesting is limited to YAML_MAX_DEPTH (the body budget, 1000 levels, see budgets.ts) instead
// of go-yaml's 10000; syntax error texts are js-yaml's reasons in go-yaml's framing (`yaml: line N: ...`).

import { parseEvents, getScalarValue, EVENT_ID, SCALAR_STYLE, type Event, type ScalarEvent } from 'js-yaml';
import { goFloatV, goQuote } from './go-format.js';
import { setMember } from './json.js';
import { MAX_NESTING_DEPTH } from './budgets.js';

export const YAML_MAX_DEPTH = MAX_NESTING_DEPTH;

export class YamlError extends Error {}

export interface YamlDocument {
  value: unknown;
  /** Paths of keys set twice, in the order go-yaml's strict decoder reports them. */
  duplicates: string[];
  /** go-yaml's strict messages for them: `line 5: key "name" already set in map`. */
  duplicateMessages: string[];
  /** Paths of numbers that JSON conversion writes with a fraction or exponent. */
  nonIntegerNumbers: string[];
}

const MERGE = Symbol('merge');
type Key = string | number | boolean | null | typeof MERGE;

const BOOL_TRUE = new Set(['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON']);
const BOOL_FALSE = new Set(['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF']);
const NULLS = new Set(['', '~', 'null', 'Null', 'NULL']);
const NAN = new Set(['.nan', '.NaN', '.NAN']);
const POS_INF = new Set(['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF']);
const NEG_INF = new Set(['-.inf', '-.Inf', '-.INF']);
const GO_INT = /^[-+]?(?:0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/;
const YAML_FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;

function parseGoInt(s: string): number | undefined {
  if (!GO_INT.test(s)) return undefined;
  let neg = false;
  let body = s;
  if (body[0] === '+' || body[0] === '-') {
    neg = body[0] === '-';
    body = body.slice(1);
  }
  let big: bigint;
  if (/^0[xX]/.test(body)) big = BigInt(`0x${body.slice(2)}`);
  else if (/^0[oO]/.test(body)) big = BigInt(`0o${body.slice(2)}`);
  else if (/^0[bB]/.test(body)) big = BigInt(`0b${body.slice(2)}`);
  else if (body.length > 1 && body[0] === '0') big = BigInt(`0o${body.slice(1)}`);
  else big = BigInt(body);
  if (neg) big = -big;
  if (big < INT64_MIN || big > UINT64_MAX) return undefined;
  return Number(big);
}

/** go-yaml v2's resolution of a plain scalar. */
export function resolvePlainScalar(s: string): unknown {
  if (NULLS.has(s)) return null;
  if (BOOL_TRUE.has(s)) return true;
  if (BOOL_FALSE.has(s)) return false;
  if (NAN.has(s)) return NaN;
  if (POS_INF.has(s)) return Infinity;
  if (NEG_INF.has(s)) return -Infinity;
  const c = s[0];
  if (c === '.') {
    // strconv.ParseFloat; a value out of range fails, and the scalar stays a string
    if (/^\.[0-9]+(?:[eE][-+]?[0-9]+)?$/.test(s) && Number.isFinite(Number(s))) return Number(s);
    return s;
  }
  if (c === '+' || c === '-' || (c >= '0' && c <= '9')) {
    const plain = s.replace(/_/g, '');
    const iv = parseGoInt(plain);
    if (iv !== undefined) return iv;
    if (YAML_FLOAT.test(plain) && Number.isFinite(Number(plain))) return Number(plain);
  }
  return s;
}

/** fmt's %#v of a decoded YAML value (for go-yaml's "invalid map key" message). */
function goSharpV(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : goFloatV(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSharpV).join(', ')}}`;
  const o = v as Record<string, unknown>;
  return `map[interface {}]interface {}{${Object.keys(o).map((k) => `${goQuote(k)}:${goSharpV(o[k])}`).join(', ')}}`;
}

function keyString(k: Key, value: unknown): string {
  if (typeof k === 'string') return k;
  if (typeof k === 'number') {
    if (Number.isInteger(k)) return String(k);
    // strconv.FormatFloat(k, 'g', -1, 32)
    if (Number.isNaN(k)) return '.nan';
    if (k === Infinity) return '.inf';
    if (k === -Infinity) return '-.inf';
    return goFloatV(Math.fround(k)).replace(/^(-?\d+\.\d{7})\d+/, '$1');
  }
  if (typeof k === 'boolean') return k ? 'true' : 'false';
  throw new YamlError(`unsupported map key of type: %!s(<nil>), key: <nil>, value: ${typeof value === 'string' ? goQuote(value) : String(value)}`);
}

function keyGoV(k: Key): string {
  if (typeof k === 'string') return goQuote(k);
  if (typeof k === 'number') return Number.isInteger(k) ? String(k) : goFloatV(k);
  if (typeof k === 'boolean') return String(k);
  return '<nil>';
}

function allowedAliasRatio(decodeCount: number): number {
  if (decodeCount <= 400000) return 0.99;
  if (decodeCount >= 4000000) return 0.1;
  return 0.99 - 0.89 * ((decodeCount - 400000) / 3600000);
}

interface MapFrame {
  t: 'map';
  /** Offset of the node (for go-yaml's line of a value node). */
  start: number;
  obj: Record<string, unknown>;
  anchor: string | null;
  /** The key read, waiting for its value. */
  key: Key | undefined;
  keyText: string;
  hasKey: boolean;
}
interface SeqFrame {
  t: 'seq';
  start: number;
  arr: unknown[];
  anchor: string | null;
}
type Frame = MapFrame | SeqFrame;

/** Parses every document of a YAML stream. */
export function parseYamlDocuments(text: string, opts: { maxDepth?: number } = {}): YamlDocument[] {
  const maxDepth = Math.min(opts.maxDepth ?? YAML_MAX_DEPTH, YAML_MAX_DEPTH);
  let events: Event[];
  try {
    events = parseEvents(text, { maxDepth });
  } catch (e) {
    throw toYamlError(e, maxDepth, text);
  }
  let lineStarts: number[] | undefined;
  const lineOf = (offset: number): number => {
    if (!lineStarts) {
      lineStarts = [0];
      for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 0x0a) lineStarts.push(i + 1);
    }
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };

  const docs: YamlDocument[] = [];
  let doc: YamlDocument | null = null;
  let anchors = new Map<string, unknown>();
  const stack: Frame[] = [];
  let decodeCount = 0;
  let aliasCount = 0;

  const pathOf = (lastKey?: string): string => {
    let p = '';
    for (const f of stack) {
      if (f.t === 'map') {
        if (f.hasKey) p = p ? `${p}.${f.keyText}` : f.keyText;
      } else p += `[${f.arr.length}]`;
    }
    if (lastKey !== undefined) p = p ? `${p}.${lastKey}` : lastKey;
    return p;
  };

  const count = (alias: boolean) => {
    decodeCount++;
    if (alias) aliasCount++;
    if (aliasCount > 100 && decodeCount > 1000 && aliasCount / decodeCount > allowedAliasRatio(decodeCount)) {
      throw new YamlError('yaml: document contains excessive aliasing');
    }
  };
  const cloneAliased = (v: unknown): unknown => {
    count(true);
    if (Array.isArray(v)) return v.map(cloneAliased);
    if (v !== null && typeof v === 'object') {
      const o: Record<string, unknown> = {};
      for (const k of Object.keys(v)) setMember(o, k, cloneAliased((v as Record<string, unknown>)[k]));
      return o;
    }
    return v;
  };

  const setMapIndex = (f: MapFrame, key: Key, value: unknown, valueLine: () => number) => {
    const k = keyString(key, value);
    if (Object.prototype.hasOwnProperty.call(f.obj, k)) {
      doc!.duplicates.push(pathOf());
      doc!.duplicateMessages.push(`line ${valueLine()}: key ${keyGoV(key)} already set in map`);
    }
    setMember(f.obj, k, value);
  };

  const merge = (f: MapFrame, value: unknown, line: () => number) => {
    const mergeMap = (m: unknown) => {
      if (m === null || typeof m !== 'object' || Array.isArray(m)) {
        throw new YamlError('yaml: map merge requires map or sequence of maps as the value');
      }
      for (const k of Object.keys(m)) {
        f.keyText = k;
        f.hasKey = true;
        setMapIndex(f, k, (m as Record<string, unknown>)[k], line);
      }
    };
    if (Array.isArray(value)) for (let i = value.length - 1; i >= 0; i--) mergeMap(value[i]);
    else mergeMap(value);
  };

  const deliver = (value: unknown, anchor: string | null, line: () => number, isMergeKey = false) => {
    if (anchor !== null) anchors.set(anchor, value);
    const top = stack[stack.length - 1];
    if (!top) {
      doc!.value = value;
      return;
    }
    if (top.t === 'seq') {
      top.arr.push(value);
      return;
    }
    if (top.key === undefined) {
      if (isMergeKey) {
        top.key = MERGE;
        return;
      }
      if (value !== null && typeof value === 'object') {
        throw new YamlError(`yaml: invalid map key: ${goSharpV(value)}`);
      }
      top.key = value as Key;
      top.keyText = typeof value === 'string' ? value : keyString(value as Key, undefined);
      top.hasKey = true;
      return;
    }
    const key = top.key;
    top.key = undefined;
    if (key === MERGE) merge(top, value, line);
    else setMapIndex(top, key, value, line);
    top.hasKey = false;
  };

  const anchorOf = (e: { anchorStart: number; anchorEnd: number }) =>
    e.anchorStart >= 0 ? text.slice(e.anchorStart, e.anchorEnd) : null;

  const scalarValue = (e: ScalarEvent): { value: unknown; merge: boolean } => {
    const raw = e.valueStart >= 0 ? getScalarValue(text, e) : '';
    const tag = e.tagStart >= 0 ? text.slice(e.tagStart, e.tagEnd) : '';
    if (tag === '!!str' || tag === '!' || tag === 'tag:yaml.org,2002:str') return { value: raw, merge: false };
    if (tag === '!!binary') {
      try {
        const bin = atobLike(raw.replace(/\s+/g, ''));
        return { value: bin, merge: false };
      } catch {
        throw new YamlError(`yaml: cannot decode !!binary \`${raw}\``);
      }
    }
    if (e.style !== SCALAR_STYLE.PLAIN && tag === '') return { value: raw, merge: false };
    if (raw === '<<' && tag === '' && e.style === SCALAR_STYLE.PLAIN) return { value: '<<', merge: true };
    return { value: resolvePlainScalar(raw), merge: false };
  };

  for (let idx = 0; idx < events.length; idx++) {
    const e = events[idx];
    switch (e.type) {
      case EVENT_ID.DOCUMENT:
        doc = { value: null, duplicates: [], duplicateMessages: [], nonIntegerNumbers: [] };
        anchors = new Map();
        break;
      case EVENT_ID.MAPPING:
        count(false);
        stack.push({ t: 'map', start: e.start, obj: {}, anchor: anchorOf(e), key: undefined, keyText: '', hasKey: false });
        break;
      case EVENT_ID.SEQUENCE:
        count(false);
        stack.push({ t: 'seq', start: e.start, arr: [], anchor: anchorOf(e) });
        break;
      case EVENT_ID.SCALAR: {
        count(false);
        const { value, merge: isMerge } = scalarValue(e);
        const top = stack[stack.length - 1];
        if (typeof value === 'number' && !(top && top.t === 'map' && top.key === undefined)) {
          if (!Number.isFinite(value)) throw new YamlError(`json: unsupported value: ${goFloatV(value)}`);
          // json.Marshal writes integral floats without a fraction: only these stay floats after conversion
          if (!Number.isInteger(value) || Math.abs(value) >= 1e21) doc!.nonIntegerNumbers.push(pathOf());
        }
        const at = e.valueStart >= 0 ? e.valueStart : -1;
        deliver(value, anchorOf(e), () => lineOf(at >= 0 ? at : lastKeyOffset(events, idx)), isMerge);
        break;
      }
      case EVENT_ID.ALIAS: {
        const name = text.slice(e.anchorStart, e.anchorEnd);
        if (!anchors.has(name)) throw new YamlError(`yaml: unknown anchor '${name}' referenced`);
        const v = cloneAliased(anchors.get(name));
        const at = e.anchorStart;
        deliver(v, null, () => lineOf(at));
        break;
      }
      case EVENT_ID.POP: {
        const f = stack.pop();
        if (!f) {
          if (doc) docs.push(doc);
          doc = null;
          break;
        }
        const start = f.start;
        if (f.t === 'map') deliver(f.obj, f.anchor, () => lineOf(start));
        else deliver(f.arr, f.anchor, () => lineOf(start));
        break;
      }
    }
  }
  return docs;
}

function lastKeyOffset(events: Event[], idx: number): number {
  for (let j = idx - 1; j >= 0; j--) {
    const e = events[j];
    if (e.type === EVENT_ID.SCALAR && e.valueStart >= 0) return e.valueStart;
  }
  return 0;
}

function atobLike(b64: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let bits = 0;
  let acc = 0;
  const bytes: number[] = [];
  for (const ch of b64.replace(/=+$/, '')) {
    const v = alphabet.indexOf(ch);
    if (v < 0) throw new Error('bad base64');
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((acc >> bits) & 0xff);
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** The innermost flow collection left open at the end of the text: `]` or `}` (quotes skipped roughly). */
function openFlowCloser(text: string): string {
  const stack: string[] = [];
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = '';
      else if (c === '\\' && quote === '"') i++;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '[') stack.push(']');
    else if (c === '{') stack.push('}');
    else if ((c === ']' || c === '}') && stack.length) stack.pop();
  }
  return stack.pop() ?? ']';
}

/**
 * js-yaml errors in go-yaml's words and framing. go-yaml prints `yaml: line N: <problem>`, where N is
 * the 1-based line for scanner errors and the 0-based one for parser errors (a go-yaml quirk), and omits
 * the line when that number is 0. js-yaml reasons are translated to go-yaml problems where the cause is
 * clear; others keep js-yaml's reason.
 */
function toYamlError(e: unknown, maxDepth: number, text: string): YamlError {
  if (e instanceof RangeError) return new YamlError(`yaml: exceeded max depth of ${maxDepth}`);
  const err = e as { reason?: string; mark?: { line: number; column: number; position?: number }; message?: string };
  const reason = err.reason ?? err.message ?? String(e);
  if (/nesting exceeded maxDepth/.test(reason)) return new YamlError(`yaml: exceeded max depth of ${maxDepth}`);
  const idx = err.mark?.line ?? 0;
  const at = err.mark?.position !== undefined ? text[err.mark.position] : undefined;
  let problem = reason;
  let scanner = true;
  if (reason === 'bad indentation of a mapping entry') {
    if (at === ':') problem = 'mapping values are not allowed in this context';
    else if (at === '@' || at === '`') problem = 'found character that cannot start any token';
    else {
      problem = 'did not find expected key';
      scanner = false;
    }
  } else if (reason === 'unexpected end of the stream within a flow collection') {
    problem = `did not find expected ',' or '${openFlowCloser(text)}'`;
    scanner = false;
  } else if (/^unexpected end of the stream within a (double|single) quoted scalar$/.test(reason)) {
    problem = 'found unexpected end of stream';
  } else if (reason === 'tab characters must not be used in indentation') {
    problem = 'found character that cannot start any token';
  } else if (reason === "expected ':' after a mapping key") {
    problem = "could not find expected ':'";
  } else if (reason === 'end of the stream or a document separator is expected') {
    problem = 'did not find expected <document start>';
    scanner = false;
  }
  const line = scanner ? (idx > 0 ? idx + 1 : 0) : idx;
  return new YamlError(line > 0 ? `yaml: line ${line}: ${problem}` : `yaml: ${problem}`);
}
