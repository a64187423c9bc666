// cel-go ext strings (v0.23, the version Kubernetes 1.33 vendors) on code points, as Kubernetes configures
// it: StringsVersion(0) for compatibility versions before 1.29 (spec: available up to 1.29), StringsVersion(2)
// from 1.29 (spec: 1.30 and later). Version 1 added `format` and `strings.quote`; version 2 changed `join`
// to check each element; `reverse` (version 3) is not enabled by Kubernetes 1.33.
//
// The pure helpers work on JS strings by code point (Go []rune). `formatString` implements
// `<string>.format(<list>)` over CEL runtime values, with en_US number formatting for %f/%e as
// golang.org/x/text/message prints it (grouping separators, "×10" superscript exponents).

import { CelDuration, CelMap, CelTimestamp, CelTypeValue, CelUint } from '../values.js';
import type { CelValue } from '../values.js';
import { formatDuration, formatTimestamp } from '../time.js';
import { goQuote } from '../../codec/go-format.js';

export class StringsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StringsError';
  }
}

const runes = (s: string): string[] => Array.from(s);

export function charAt(s: string, i: bigint): string {
  const r = runes(s);
  if (i < 0n || i > BigInt(r.length)) throw new StringsError(`index out of range: ${i}`);
  return i === BigInt(r.length) ? '' : r[Number(i)]!;
}

function matchAt(r: string[], sub: string[], i: number): boolean {
  for (let j = 0; j < sub.length; j++) if (r[i + j] !== sub[j]) return false;
  return true;
}

export function indexOf(s: string, sub: string, offset = 0n): bigint {
  if (sub === '') return offset;
  if (offset < 0n) throw new StringsError(`index out of range: ${offset}`);
  const r = runes(s);
  const subr = runes(sub);
  if (offset >= BigInt(r.length)) return -1n;
  for (let i = Number(offset); i < r.length - (subr.length - 1); i++) if (matchAt(r, subr, i)) return BigInt(i);
  return -1n;
}

export function lastIndexOf(s: string, sub: string, offset?: bigint): bigint {
  const r = runes(s);
  if (offset === undefined) {
    if (sub === '') return BigInt(r.length);
    offset = BigInt(r.length - 1);
  }
  if (sub === '') return offset;
  if (offset < 0n) throw new StringsError(`index out of range: ${offset}`);
  const subr = runes(sub);
  if (offset >= BigInt(r.length)) return -1n;
  let off = Number(offset);
  if (off > r.length - subr.length) off = r.length - subr.length;
  for (let i = off; i >= 0; i--) if (matchAt(r, subr, i)) return BigInt(i);
  return -1n;
}

export function lowerAscii(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

export function upperAscii(s: string): string {
  return s.replace(/[a-z]+/g, (m) => m.toUpperCase());
}

/** Go strings.Replace on code points: n < 0 replaces all; an empty `old` matches before each rune and at the end. */
export function replace(s: string, old: string, repl: string, n = -1n): string {
  if (old === repl || n === 0n) return s;
  let count = 0n;
  if (old === '') {
    const r = runes(s);
    let out = '';
    for (let i = 0; i <= r.length; i++) {
      if (n < 0n || count < n) {
        out += repl;
        count++;
      }
      if (i < r.length) out += r[i];
    }
    return out;
  }
  let out = '';
  let start = 0;
  for (;;) {
    if (n >= 0n && count >= n) break;
    const i = s.indexOf(old, start);
    if (i < 0) break;
    out += s.slice(start, i) + repl;
    start = i + old.length;
    count++;
  }
  return out + s.slice(start);
}

/** Go strings.SplitN: n == 0 gives [], n < 0 all parts, an empty separator splits into runes. */
export function split(s: string, sep: string, n = -1n): string[] {
  if (n === 0n) return [];
  if (sep === '') {
    const r = runes(s);
    if (n < 0n || n > BigInt(r.length)) return r;
    const k = Number(n);
    return [...r.slice(0, k - 1), r.slice(k - 1).join('')];
  }
  const out: string[] = [];
  let rest = s;
  while (n < 0n || BigInt(out.length) < n - 1n) {
    const i = rest.indexOf(sep);
    if (i < 0) break;
    out.push(rest.slice(0, i));
    rest = rest.slice(i + sep.length);
  }
  out.push(rest);
  return out;
}

export function substring(s: string, start: bigint, end?: bigint): string {
  const r = runes(s);
  const l = BigInt(r.length);
  if (end === undefined) {
    if (start < 0n || start > l) throw new StringsError(`index out of range: ${start}`);
    return r.slice(Number(start)).join('');
  }
  if (start > end) throw new StringsError(`invalid substring range. start: ${start}, end: ${end}`);
  if (start < 0n || start > l) throw new StringsError(`index out of range: ${start}`);
  if (end < 0n || end > l) throw new StringsError(`index out of range: ${end}`);
  return r.slice(Number(start), Number(end)).join('');
}

// Go unicode.IsSpace (JS trim() also strips U+FEFF, which Go keeps).
const GO_SPACE = '\t\n\v\f\r \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000';

export function trim(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && GO_SPACE.includes(s[a]!)) a++;
  while (b > a && GO_SPACE.includes(s[b - 1]!)) b--;
  return s.slice(a, b);
}

export function reverse(s: string): string {
  return runes(s).reverse().join('');
}

/** `strings.quote`: double quotes with CEL escapes; lone surrogates become U+FFFD. */
export function quote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    switch (ch) {
      case '\x07':
        out += '\\a';
        break;
      case '\b':
        out += '\\b';
        break;
      case '\f':
        out += '\\f';
        break;
      case '\n':
        out += '\\n';
        break;
      case '\r':
        out += '\\r';
        break;
      case '\t':
        out += '\\t';
        break;
      case '\v':
        out += '\\v';
        break;
      case '\\':
        out += '\\\\';
        break;
      case '"':
        out += '\\"';
        break;
      default:
        out += cp >= 0xd800 && cp <= 0xdfff ? '\ufffd' : ch;
    }
  }
  return out + '"';
}

/** `join` (version 2): each element must be a string ("join: invalid input: <v>"). */
export function join(list: readonly CelValue[], sep = ''): string {
  for (const e of list) {
    if (typeof e !== 'string') throw new StringsError(`join: invalid input: ${goValueString(e)}`);
  }
  return (list as string[]).join(sep);
}

// ---- Go-style value printing helpers ----

/** Go strconv.FormatFloat(f, 'g', -1, 64) (cel-go's double to string). */
export function goFormatFloatG(d: number): string {
  if (Number.isNaN(d)) return 'NaN';
  if (d === Infinity) return '+Inf';
  if (d === -Infinity) return '-Inf';
  if (d === 0) return Object.is(d, -0) ? '-0' : '0';
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(d.toExponential())!;
  const exp = Number(m[4]);
  const digits = m[2]! + (m[3] ?? '');
  if (exp < -4 || exp >= 6) {
    const ae = Math.abs(exp);
    return `${m[1]}${m[2]}${m[3] ? '.' + m[3] : ''}e${exp < 0 ? '-' : '+'}${ae < 10 ? '0' + ae : ae}`;
  }
  if (exp < 0) return `${m[1]}0.${'0'.repeat(-exp - 1)}${digits}`;
  const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const frac = digits.slice(exp + 1);
  return `${m[1]}${intPart}${frac ? '.' + frac : ''}`;
}

/** Go %v of a value, for error messages only. */
function goValueString(v: CelValue): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return goFormatFloatG(v);
  if (v instanceof CelUint) return v.v.toString();
  if (v === null) return 'NULL_VALUE';
  return String(v);
}

function utf8Bytes(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x80) out.push(cp);
    else if (cp < 0x800) out.push(0xc0 | (cp >> 6), 0x80 | (cp & 63));
    else if (cp < 0x10000) out.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
    else out.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
  }
  return out;
}

const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

function bytesToString(b: Uint8Array): string {
  // Invalid UTF-8 cannot be converted to a CEL string.
  try {
    return utf8Decoder.decode(b);
  } catch {
    throw new StringsError('invalid UTF-8 in bytes, cannot convert to string');
  }
}

function typeNameOf(v: CelValue): string {
  if (v === null) return 'null_type';
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
  if (v instanceof CelUint) return 'uint';
  if (v instanceof Uint8Array) return 'bytes';
  if (Array.isArray(v)) return 'list';
  if (v instanceof CelMap) return v.typeName ?? 'map';
  if (v instanceof CelTimestamp) return 'google.protobuf.Timestamp';
  if (v instanceof CelDuration) return 'google.protobuf.Duration';
  if (v instanceof CelTypeValue) return 'type';
  const t = (v as { celType?: { name?: string; kind?: string } }).celType;
  return t?.name ?? t?.kind ?? 'unknown';
}

// ---- exact decimal formatting of doubles ----

/** The exact value of a finite double as mantissa * 2^exp. */
function decompose(d: number): { neg: boolean; m: bigint; e: number } {
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, d);
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const neg = hi >>> 31 === 1;
  const bexp = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e: number;
  if (bexp === 0) e = -1074;
  else {
    m |= 1n << 52n;
    e = bexp - 1075;
  }
  return { neg, m, e };
}

/** round(|d| * 10^p) half to even, exactly. */
function scaledRound(m: bigint, e: number, p: number): bigint {
  let num = m;
  let den = 1n;
  if (e >= 0) num <<= BigInt(e);
  else den <<= BigInt(-e);
  if (p >= 0) num *= 10n ** BigInt(p);
  else den *= 10n ** BigInt(-p);
  const q = num / den;
  const r = num % den;
  const twice = 2n * r;
  if (twice > den || (twice === den && q % 2n === 1n)) return q + 1n;
  return q;
}

function groupThousands(intDigits: string): string {
  let out = '';
  for (let i = 0; i < intDigits.length; i++) {
    if (i > 0 && (intDigits.length - i) % 3 === 0) out += ',';
    out += intDigits[i];
  }
  return out;
}

/** Go fmt "%.<p>f" (no grouping): used for doubles inside lists and maps with %s. */
export function goFixed(d: number, p: number): string {
  if (Number.isNaN(d)) return 'NaN';
  if (!Number.isFinite(d)) return d > 0 ? '+Inf' : '-Inf';
  const { neg, m, e } = decompose(d);
  const v = scaledRound(m, e, p).toString().padStart(p + 1, '0');
  const body = p > 0 ? `${v.slice(0, v.length - p)}.${v.slice(v.length - p)}` : v;
  return (neg ? '-' : '') + body;
}

/** x/text message en_US "%.<p>f": grouping separators, ∞ for infinities. */
export function localeFixed(d: number, p: number): string {
  if (Number.isNaN(d)) return 'NaN';
  if (!Number.isFinite(d)) return d > 0 ? '∞' : '-∞';
  const { neg, m, e } = decompose(d);
  const v = scaledRound(m, e, p).toString().padStart(p + 1, '0');
  const intPart = groupThousands(v.slice(0, v.length - p));
  const body = p > 0 ? `${intPart}.${v.slice(v.length - p)}` : intPart;
  return (neg ? '-' : '') + body;
}

const SUPERSCRIPT = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];

/** x/text message en_US "%.<p>e": "1.052033 × 10⁰³" with narrow no-break spaces, two exponent digits at least. */
export function localeScientific(d: number, p: number): string {
  if (Number.isNaN(d)) return 'NaN';
  if (!Number.isFinite(d)) return d > 0 ? '∞' : '-∞';
  const { neg, m, e } = decompose(d);
  let exp = 0;
  let digits: bigint;
  if (m === 0n) digits = 0n;
  else {
    // decimal exponent estimate, then adjust until the rounded mantissa has p+1 digits
    exp = Math.floor(Math.log10(Math.abs(d)));
    for (;;) {
      digits = scaledRound(m, e, p - exp);
      const len = digits.toString().length;
      if (len > p + 1) exp++;
      else if (len < p + 1) exp--;
      else break;
    }
  }
  const s = digits.toString().padStart(p + 1, '0');
  const mant = p > 0 ? `${s[0]}.${s.slice(1)}` : s;
  const ae = Math.abs(exp).toString().padStart(2, '0');
  const sup = [...ae].map((c) => SUPERSCRIPT[Number(c)]).join('');
  return `${neg ? '-' : ''}${mant}\u202f×\u202f10${exp < 0 ? '⁻' : ''}${sup}`;
}

// ---- string.format ----

function formatError(msg: string): StringsError {
  return new StringsError(msg);
}

const STRING_CLAUSE_ERR =
  'string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given ';

/** %s of a top-level argument (cel-go FormatString). */
function formatStringClause(v: CelValue): string {
  if (Array.isArray(v)) return formatList(v);
  if (v instanceof CelMap && !v.typeName) return formatMap(v);
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string':
      return v;
    case 'boolean':
      return String(v);
    case 'bigint':
      return v.toString();
    case 'number':
      return goFormatFloatG(v);
  }
  if (v instanceof CelUint) return v.v.toString();
  if (v instanceof Uint8Array) return bytesToString(v);
  if (v instanceof CelTimestamp) return formatTimestamp(v);
  if (v instanceof CelDuration) return formatDuration(v);
  if (v instanceof CelTypeValue) return v.name;
  throw formatError(STRING_CLAUSE_ERR + typeNameOf(v));
}

/** An element of a list or map (cel-go clauseForType + quoteForCEL). */
function formatElement(v: CelValue): string {
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof CelUint) return v.v.toString();
  if (typeof v === 'string') return goQuote(v);
  if (v instanceof Uint8Array) return 'b' + goQuote(bytesToString(v));
  if (typeof v === 'boolean' || v === null || v instanceof CelTypeValue) return formatStringClause(v);
  if (v instanceof CelTimestamp) return `timestamp(${goQuote(formatTimestamp(v))})`;
  if (v instanceof CelDuration) return `duration(${goQuote(formatDuration(v))})`;
  if (Array.isArray(v)) return formatList(v);
  if (v instanceof CelMap && !v.typeName) return formatMap(v);
  if (typeof v === 'number') {
    const s = goFixed(v, 6);
    return Number.isFinite(v) ? s : goQuote(s);
  }
  throw formatError(STRING_CLAUSE_ERR + typeNameOf(v));
}

function formatList(l: readonly CelValue[]): string {
  return '[' + l.map(formatElement).join(', ') + ']';
}

function formatMap(m: CelMap): string {
  const pairs: [string, string][] = [];
  for (const [k, v] of m.entries()) {
    let key: string;
    if (typeof k === 'string') key = goQuote(k);
    else if (typeof k === 'boolean') key = String(k);
    else if (typeof k === 'bigint') key = k.toString();
    else if (k instanceof CelUint) key = k.v.toString();
    else throw formatError(`no formatting function for map key of type ${typeNameOf(k)}`);
    pairs.push([key, formatElement(v)]);
  }
  // sort.SliceStable by the formatted key (byte order)
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return '{' + pairs.map(([k, v]) => `${k}:${v}`).join(', ') + '}';
}

function hexOf(v: CelValue, upper: boolean): string {
  let s: string;
  if (typeof v === 'string' || v instanceof Uint8Array) {
    const bytes = typeof v === 'string' ? utf8Bytes(v) : Array.from(v);
    s = bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
  } else if (typeof v === 'bigint') s = v.toString(16);
  else if (v instanceof CelUint) s = v.v.toString(16);
  else throw formatError(`only integers, byte buffers, and strings can be formatted as hex, was given ${typeNameOf(v)}`);
  return upper ? s.toUpperCase() : s;
}

function floatArg(v: CelValue, clause: 'fixed-point' | 'scientific'): number {
  if (typeof v === 'number') return v;
  if (v === 'NaN') return NaN;
  if (v === 'Infinity') return Infinity;
  if (v === '-Infinity') return -Infinity;
  throw formatError(`${clause} clause can only be used on doubles, was given ${typeNameOf(v)}`);
}

function formatClause(verb: string, precision: number | undefined, v: CelValue): string {
  switch (verb) {
    case 's':
      return formatStringClause(v);
    case 'd':
      if (typeof v === 'bigint') return v.toString();
      if (v instanceof CelUint) return v.v.toString();
      throw formatError(`decimal clause can only be used on integers, was given ${typeNameOf(v)}`);
    case 'f':
      return localeFixed(floatArg(v, 'fixed-point'), precision ?? 6);
    case 'e':
      return localeScientific(floatArg(v, 'scientific'), precision ?? 6);
    case 'b':
      if (typeof v === 'bigint') return v.toString(2);
      if (v instanceof CelUint) return v.v.toString(2);
      if (typeof v === 'boolean') return v ? '1' : '0';
      throw formatError(`only integers and bools can be formatted as binary, was given ${typeNameOf(v)}`);
    case 'x':
    case 'X':
      return hexOf(v, verb === 'X');
    case 'o':
      if (typeof v === 'bigint') return v.toString(8);
      if (v instanceof CelUint) return v.v.toString(8);
      throw formatError(`octal clause can only be used on integers, was given ${typeNameOf(v)}`);
  }
  throw new StringsError(`could not parse formatting clause: unrecognized formatting clause "${verb}"`);
}

/** `<string>.format(<list>)` (cel-go ext strings version >= 1), runtime behaviour and error texts. */
export function formatString(fmt: string, args: readonly CelValue[]): string {
  let out = '';
  let argIndex = 0;
  // Work on UTF-16 units: the clause syntax is ASCII, other text is copied through.
  for (let i = 0; i < fmt.length; ) {
    if (fmt[i] !== '%') {
      out += fmt[i++];
      continue;
    }
    if (fmt[i + 1] === '%') {
      out += '%';
      i += 2;
      continue;
    }
    if (argIndex >= args.length) throw new StringsError(`index ${argIndex} out of range`);
    if (i + 1 >= fmt.length) throw new StringsError('unexpected end of string');
    let j = i + 1;
    let precision: number | undefined;
    if (fmt[j] === '.') {
      j++;
      let digits = '';
      for (;;) {
        if (j >= fmt.length) {
          throw new StringsError(
            'could not parse formatting clause: error while parsing precision: could not find end of precision specifier',
          );
        }
        if (!(fmt[j]! >= '0' && fmt[j]! <= '9')) break;
        digits += fmt[j++];
      }
      if (digits === '') {
        throw new StringsError(
          'could not parse formatting clause: error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing "": invalid syntax',
        );
      }
      precision = Number(digits);
    }
    const cp = fmt.codePointAt(j)!;
    const verb = String.fromCodePoint(cp);
    j += verb.length;
    if (!'sdfebxXo'.includes(verb)) {
      throw new StringsError(`could not parse formatting clause: unrecognized formatting clause "${verb}"`);
    }
    try {
      out += formatClause(verb, precision, args[argIndex]!);
    } catch (e) {
      if (e instanceof StringsError && !e.message.startsWith('could not parse')) {
        throw new StringsError(`error during formatting: ${e.message}`);
      }
      throw e;
    }
    argIndex++;
    i = j;
  }
  return out;
}

// ---- compile-time validation of string.format (cel-go stringFormatValidator) ----

/** The static type kinds the validator looks at (a subset of the checker's CelType). */
export type FormatArgType =
  | { kind: 'int' | 'uint' | 'double' | 'bool' | 'string' | 'bytes' | 'null_type' | 'timestamp' | 'duration' | 'type' | 'dyn' }
  | { kind: 'list'; elem: FormatArgType }
  | { kind: 'map'; key: FormatArgType; value: FormatArgType }
  | { kind: string; name?: string };

const STRING_OK = new Set(['list', 'map', 'int', 'uint', 'double', 'bool', 'string', 'timestamp', 'bytes', 'duration', 'type', 'null_type', 'dyn']);

function typeLabel(t: FormatArgType): string {
  switch (t.kind) {
    case 'timestamp':
      return 'google.protobuf.Timestamp';
    case 'duration':
      return 'google.protobuf.Duration';
    case 'opaque':
    case 'object':
      return (t as { name?: string }).name ?? t.kind;
    default:
      return t.kind;
  }
}

function badStringArg(t: FormatArgType): FormatArgType | undefined {
  if (!STRING_OK.has(t.kind)) return t;
  if (t.kind === 'list') return badStringArg((t as { elem: FormatArgType }).elem);
  if (t.kind === 'map') {
    const m = t as { key: FormatArgType; value: FormatArgType };
    return badStringArg(m.key) ?? badStringArg(m.value);
  }
  return undefined;
}

/**
 * Validates a literal format string against the static types of a literal argument list, as cel-go's
 * stringFormatValidator does at compile time. Returns the error message, or undefined when valid.
 * (The checker has to call this for `'<literal>'.format([<list literal>])`; dyn arguments always pass.)
 */
export function checkFormatCall(fmt: string, argTypes: readonly FormatArgType[]): string | undefined {
  const oneOf = (t: FormatArgType, kinds: string[]) => t.kind === 'dyn' || kinds.includes(t.kind);
  let argIndex = 0;
  for (let i = 0; i < fmt.length; ) {
    if (fmt[i] !== '%') {
      i++;
      continue;
    }
    if (fmt[i + 1] === '%') {
      i += 2;
      continue;
    }
    if (i + 1 >= fmt.length) return 'unexpected end of string';
    if (argIndex >= argTypes.length) return `index ${argIndex} out of range`;
    let j = i + 1;
    if (fmt[j] === '.') {
      j++;
      let digits = '';
      for (;;) {
        if (j >= fmt.length) return 'could not parse formatting clause: error while parsing precision: could not find end of precision specifier';
        if (!(fmt[j]! >= '0' && fmt[j]! <= '9')) break;
        digits += fmt[j++];
      }
      if (digits === '') {
        return 'could not parse formatting clause: error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing "": invalid syntax';
      }
    }
    const verb = String.fromCodePoint(fmt.codePointAt(j)!);
    j += verb.length;
    const t = argTypes[argIndex]!;
    const during = (msg: string) => `error during formatting: ${msg}, was given ${typeLabel(t)}`;
    switch (verb) {
      case 's': {
        const bad = t.kind === 'dyn' ? undefined : badStringArg(t);
        if (bad) return `error during formatting: ${STRING_CLAUSE_ERR}${typeLabel(bad)}`;
        break;
      }
      case 'd':
        if (!oneOf(t, ['int', 'uint'])) return during('decimal clause can only be used on integers');
        break;
      case 'f':
        if (!oneOf(t, ['double', 'string'])) return during('fixed-point clause can only be used on doubles');
        break;
      case 'e':
        if (!oneOf(t, ['double', 'string'])) return during('scientific clause can only be used on doubles');
        break;
      case 'b':
        if (!oneOf(t, ['int', 'uint', 'bool'])) return during('only integers and bools can be formatted as binary');
        break;
      case 'x':
      case 'X':
        if (!oneOf(t, ['int', 'uint', 'string', 'bytes'])) return during('only integers, byte buffers, and strings can be formatted as hex');
        break;
      case 'o':
        if (!oneOf(t, ['int', 'uint'])) return during('octal clause can only be used on integers');
        break;
      default:
        return `could not parse formatting clause: unrecognized formatting clause "${verb}"`;
    }
    argIndex++;
    i = j;
  }
  if (argTypes.length > argIndex) return `too many arguments supplied to string.format (expected ${argIndex}, got ${argTypes.length})`;
  return undefined;
}
