// Renderings of values the way Go prints them, for error messages that must match the real server byte
// for byte: strconv.Quote (%q), encoding/json float formatting, and fmt's %v / %+v of decoded JSON
// (map[string]interface{} prints as `map[k:v ...]` with sorted keys).

const PRINTABLE = /[\p{L}\p{M}\p{N}\p{P}\p{S}]/u;

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

/** Go's strconv.Quote: double-quoted, escapes as Go writes them (\x.., \u...., \U........). */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    switch (ch) {
      case '"': out += '\\"'; continue;
      case '\\': out += '\\\\'; continue;
      case '\x07': out += '\\a'; continue;
      case '\b': out += '\\b'; continue;
      case '\f': out += '\\f'; continue;
      case '\n': out += '\\n'; continue;
      case '\r': out += '\\r'; continue;
      case '\t': out += '\\t'; continue;
      case '\v': out += '\\v'; continue;
    }
    if (cp === 0x20 || (cp > 0x20 && cp < 0x7f)) { out += ch; continue; }
    if (cp < 0x20 || cp === 0x7f) { out += `\\x${hex(cp, 2)}`; continue; }
    if (cp >= 0xd800 && cp <= 0xdfff) { out += '\\ufffd'; continue; } // lone surrogate: invalid UTF-8 in Go
    if (PRINTABLE.test(ch)) { out += ch; continue; }
    out += cp < 0x10000 ? `\\u${hex(cp, 4)}` : `\\U${hex(cp, 8)}`;
  }
  return out + '"';
}

/** Go's quoteChar in encoding/json's scanner: the offending byte as a quoted rune, e.g. `'x'`, `'\n'`. */
export function goQuoteChar(byte: number): string {
  if (byte === 0x27) return `'\\''`;
  if (byte === 0x22) return `'"'`;
  const q = goQuote(String.fromCharCode(byte));
  return `'${q.slice(1, -1)}'`;
}

/** encoding/json's float64 text: shortest repr, exponent form below 1e-6 or from 1e21, `e-07` -> `e-7`. */
export function goJsonFloat(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`json: unsupported value: ${goFloatV(n)}`);
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const abs = Math.abs(n);
  if (abs < 1e-6 || abs >= 1e21) {
    // JS exponent form is already shortest; Go writes at least two exponent digits? No: Go trims to e-7, e+21.
    // shortest digits; Go writes e+21 / e-7 here exactly as JS does (it trims "e-07" to "e-7")
    return n.toExponential();
  }
  // Plain decimal notation (JS String() uses exponent only from 1e21 and below 1e-6, matching this band)
  return String(n);
}

/** fmt %v of a float64: strconv 'g' with shortest digits; exponent form when exp < -4 || exp >= 6 (1e+06). */
export function goFloatV(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return '+Inf';
  if (n === -Infinity) return '-Inf';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const exp = Number(n.toExponential().split('e')[1]);
  if (exp < -4 || exp >= 6) {
    const s = n.toExponential();
    return s.replace(/e([+-])(\d)$/, 'e$10$2');
  }
  return String(n);
}

/**
 * fmt's %v (and %+v) of a value decoded into interface{} by Go's JSON decoder with PreserveInts: maps print as
 * `map[a:1 b:[x y]]` with keys sorted, slices as `[a b]`, nil as `<nil>`, integers in decimal and floats in %v form.
 * `isFloat` tells which numbers Go would hold as float64 (written with a fraction or exponent).
 */
export function goPrintV(v: unknown, isFloat: (n: number) => boolean = (n) => !Number.isInteger(n)): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return isFloat(v) ? goFloatV(v) : String(v);
  if (Array.isArray(v)) return `[${v.map((x) => goPrintV(x, isFloat)).join(' ')}]`;
  if (typeof v === 'object') {
    const keys = Object.keys(v as object).sort(compareGoStrings);
    return `map[${keys.map((k) => `${k}:${goPrintV((v as Record<string, unknown>)[k], isFloat)}`).join(' ')}]`;
  }
  return String(v);
}

/** Go compares strings bytewise (UTF-8); for code points below U+10000 that equals UTF-16 order except surrogates. */
export function compareGoStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.codePointAt(i)!;
    const cb = b.codePointAt(i)!;
    if (ca !== cb) return ca < cb ? -1 : 1;
    if (ca > 0xffff) i++;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

/**
 * encoding/json Marshal of a decoded value: compact, map keys sorted, Go's string escaping (<, >, & as
 * \u003c \u003e \u0026; U+2028/U+2029 escaped), floats in Go's form.
 */
export function goJsonMarshal(v: unknown, isFloat: (n: number) => boolean = (n) => !Number.isInteger(n)): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return goJsonString(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return isFloat(v) ? goJsonFloat(v) : intText(v);
  if (Array.isArray(v)) return `[${v.map((x) => goJsonMarshal(x, isFloat)).join(',')}]`;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o).sort(compareGoStrings);
    return `{${keys.map((k) => `${goJsonString(k)}:${goJsonMarshal(o[k], isFloat)}`).join(',')}}`;
  }
  return 'null';
}

function intText(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`json: unsupported value: ${goFloatV(n)}`);
  if (Math.abs(n) < 1e21) return Object.is(n, -0) ? '0' : String(n);
  return BigInt(n).toString();
}

/** The characters encoding/json escapes that JSON.stringify writes as they are (HTMLEscape's set). */
const GO_ESCAPED = /[<>&\u2028\u2029]/;
const GO_ESCAPED_ALL = /[<>&\u2028\u2029]/g;
const goEscapeOf = (c: string): string =>
  c === '<' ? '\\u003c' : c === '>' ? '\\u003e' : c === '&' ? '\\u0026' : c === '\u2028' ? '\\u2028' : '\\u2029';

/**
 * JSON text from JSON.stringify (compact or indented) as Go's encoding/json writes the same value: `<`, `>`,
 * `&`, U+2028 and U+2029 inside strings as \u003c, \u003e, \u0026, \u2028, \u2029 (the rest of the
 * escaping is the same in both). Those characters occur only inside strings in JSON.stringify's output, so
 * the whole text can be replaced; a text without any (the common case) is returned after one scan.
 */
export function goJsonText(json: string): string {
  return GO_ESCAPED.test(json) ? json.replace(GO_ESCAPED_ALL, goEscapeOf) : json;
}

export function goJsonString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c === 0x3c) out += '\\u003c';
    else if (c === 0x3e) out += '\\u003e';
    else if (c === 0x26) out += '\\u0026';
    else if (c === 0x2028) out += '\\u2028';
    else if (c === 0x2029) out += '\\u2029';
    else if (c < 0x20) {
      if (c === 0x0a) out += '\\n';
      else if (c === 0x0d) out += '\\r';
      else if (c === 0x09) out += '\\t';
      else if (c === 0x08) out += '\\b';
      else if (c === 0x0c) out += '\\f';
      else out += `\\u${hex(c, 4)}`;
    } else if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) { out += s[i] + s[i + 1]; i++; } else out += '\ufffd';
    } else if (c >= 0xdc00 && c <= 0xdfff) out += '\ufffd';
    else out += s[i];
  }
  return out + '"';
}

/**
 * fmt's %#v of a JSON value decoded into interface{} (unstructured): `map[string]interface {}{"a":1}`
 * with keys sorted, `[]interface {}{...}`, strings quoted, integers as int64, others as float64, null as
 * `interface {}(nil)`. field.Invalid prints a bad map or slice this way.
 */
export function goSharpV(v: unknown, isFloat: (n: number) => boolean = (n) => !Number.isInteger(n)): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return isFloat(v) ? goFloatV(v) : intText(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map((x) => goSharpV(x, isFloat)).join(', ')}}`;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o).sort(compareGoStrings);
    return `map[string]interface {}{${keys.map((k) => `${goQuote(k)}:${goSharpV(o[k], isFloat)}`).join(', ')}}`;
  }
  return String(v);
}
