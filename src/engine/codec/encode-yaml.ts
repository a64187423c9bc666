// YAML output like the real server's (sigs.k8s.io/yaml: JSON -> go-yaml v2 -> YAML text):
// - map keys sorted by go-yaml v2's "natural" key order (digit runs compare numerically, non-letters
//   before letters), since the JSON object goes through an unordered Go map;
// - 2-space indentation, sequences inside mappings not indented (`key:\n- a`);
// - strings that would read back as another type (true, yes, 1, 1.5, null, ~, dates) double-quoted;
//   strings that cannot be plain single-quoted (or double-quoted when they hold special characters);
//   multi-line strings as literal blocks (`|`, `|-`, `|+`);
// - long plain and quoted scalars folded at spaces past column 80 (go-yaml v2 wraps by default and the
//   server does not turn that off); characters outside the BMP escaped (\U...) in double quotes;
// - keys longer than 128 bytes written as complex keys (`? key` / `: value`).

import { goFloatV } from './go-format.js';
import { resolvePlainScalar } from './yaml.js';

const BEST_WIDTH = 80;

function isLetter(ch: string): boolean {
  const c = ch.charCodeAt(0);
  if (c < 0x80) return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  return /\p{L}/u.test(ch);
}
function isDigitCh(ch: string): boolean {
  const c = ch.charCodeAt(0);
  if (c < 0x80) return c >= 0x30 && c <= 0x39;
  return /\p{Nd}/u.test(ch);
}
const ASTRAL = /[\ud800-\udfff]/;

/** go-yaml v2 sorter.go keyList.Less for string keys. */
export function yamlKeyLess(a: string, b: string): boolean {
  const ar: ArrayLike<string> = ASTRAL.test(a) ? Array.from(a) : a;
  const br: ArrayLike<string> = ASTRAL.test(b) ? Array.from(b) : b;
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const al = isLetter(ar[i]);
    const bl = isLetter(br[i]);
    if (al && bl) return ar[i] < br[i];
    if (al || bl) return bl;
    let an = 0;
    let bn = 0;
    if (ar[i] === '0' || br[i] === '0') {
      for (let j = i - 1; j >= 0 && isDigitCh(ar[j]); j--) {
        if (ar[j] !== '0') {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    for (; ai < ar.length && isDigitCh(ar[ai]); ai++) an = an * 10 + (ar[ai].charCodeAt(0) - 48);
    let bi = i;
    for (; bi < br.length && isDigitCh(br[bi]); bi++) bn = bn * 10 + (br[bi].charCodeAt(0) - 48);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i] < br[i];
  }
  return ar.length < br.length;
}

export function sortYamlKeys(keys: string[]): string[] {
  return keys.slice().sort((x, y) => (yamlKeyLess(x, y) ? -1 : yamlKeyLess(y, x) ? 1 : 0));
}

// go-yaml's is_printable (on code points): LF, 0x20-0x7E, U+00A0-U+D7FF, U+E000-U+FFFD except the BOM.
// Characters outside the BMP are not "printable" for it, so they end up escaped in double quotes.
function isPrintable(cp: number): boolean {
  return cp === 0x0a || (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff);
}
function isBreak(cp: number): boolean {
  return cp === 0x0a || cp === 0x0d || cp === 0x85 || cp === 0x2028 || cp === 0x2029;
}
function isBlank(ch: string | undefined): boolean {
  return ch === undefined || ch === ' ' || ch === '\t';
}

interface Analysis {
  plain: boolean;
  single: boolean;
  block: boolean;
  multiline: boolean;
}

/** yaml_emitter_analyze_scalar, block context. */
const PLAIN_SAFE = /^[A-Za-z0-9_./][A-Za-z0-9_./=+-]*$/;

function analyze(s: string): Analysis {
  if (s === '') return { plain: true, single: true, block: false, multiline: false };
  if (PLAIN_SAFE.test(s) && !s.startsWith('...')) return { plain: true, single: true, block: true, multiline: false };
  const chars = Array.from(s);
  let blockIndicators = s.startsWith('---') || s.startsWith('...');
  let lineBreaks = false;
  let special = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let prevSpace = false;
  let prevBreak = false;
  let precededByWs = true;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    const cp = ch.codePointAt(0)!;
    const followedByWs = isBlank(chars[i + 1]);
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(ch)) blockIndicators = true;
      else if ((ch === '?' || ch === ':' || ch === '-') && followedByWs) blockIndicators = true;
    } else if (ch === ':' && followedByWs) blockIndicators = true;
    else if (ch === '#' && precededByWs) blockIndicators = true;
    if (!isPrintable(cp)) special = true;
    if (ch === ' ') {
      if (i === 0) leadingSpace = true;
      if (i === chars.length - 1) trailingSpace = true;
      if (prevBreak) breakSpace = true;
      prevSpace = true;
      prevBreak = false;
    } else if (isBreak(cp)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (i === chars.length - 1) trailingBreak = true;
      if (prevSpace) spaceBreak = true;
      prevSpace = false;
      prevBreak = true;
    } else {
      prevSpace = false;
      prevBreak = false;
    }
    precededByWs = ch === ' ' || ch === '\t' || isBreak(cp) || cp === 0;
  }
  let plain = true;
  let single = true;
  let block = true;
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) plain = false;
  if (trailingSpace) block = false;
  if (breakSpace) plain = single = false;
  if (spaceBreak || special) plain = single = block = false;
  if (lineBreaks) plain = false;
  if (blockIndicators) plain = false;
  return { plain, single, block, multiline: lineBreaks };
}

const ESCAPES: Record<number, string> = {
  0x00: '0', 0x07: 'a', 0x08: 'b', 0x09: 't', 0x0a: 'n', 0x0b: 'v', 0x0c: 'f', 0x0d: 'r', 0x1b: 'e',
  0x22: '"', 0x5c: '\\', 0x85: 'N', 0xa0: '_', 0x2028: 'L', 0x2029: 'P',
};

function hexUpper(n: number, w: number): string {
  return n.toString(16).toUpperCase().padStart(w, '0');
}

/**
 * Writes a plain, single- or double-quoted scalar like go-yaml's emitter, folding at a space once the
 * column passes 80 (allowBreaks is false for keys). `column` is where the scalar starts, `indent` the
 * indentation of continuation lines.
 */
const SIMPLE = /^[\x20-\x7e]*$/;

function writeFlowScalar(s: string, style: 'plain' | 'single' | 'double', column: number, indent: number, allowBreaks: boolean): string {
  // fast path: printable ASCII that cannot reach the fold column
  if (SIMPLE.test(s) && (!allowBreaks || column + s.length + 2 <= BEST_WIDTH)) {
    if (style === 'plain') return s;
    if (style === 'single') return `'${s.replace(/'/g, "''")}'`;
    if (!/["\\]/.test(s)) return `"${s}"`;
  }
  const chars = Array.from(s);
  let out = '';
  let col = column;
  const put = (t: string) => {
    out += t;
    col += Array.from(t).length;
  };
  const newline = () => {
    out += `\n${' '.repeat(indent)}`;
    col = indent;
  };
  if (style === 'single') put("'");
  if (style === 'double') put('"');
  let spaces = false;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    const cp = ch.codePointAt(0)!;
    if (style === 'double' && (!isPrintable(cp) || cp === 0xfeff || isBreak(cp) || ch === '"' || ch === '\\')) {
      const e = ESCAPES[cp];
      if (e !== undefined) put(`\\${e}`);
      else if (cp <= 0xff) put(`\\x${hexUpper(cp, 2)}`);
      else if (cp <= 0xffff) put(`\\u${hexUpper(cp, 4)}`);
      else put(`\\U${hexUpper(cp, 8)}`);
      spaces = false;
      continue;
    }
    if (ch === ' ') {
      const inner = i > 0 && i < chars.length - 1;
      const canBreak =
        allowBreaks && !spaces && col > BEST_WIDTH &&
        (style === 'plain' ? chars[i + 1] !== ' ' : style === 'single' ? inner && chars[i + 1] !== ' ' : inner);
      if (canBreak) {
        newline();
        if (style === 'double' && chars[i + 1] === ' ') put('\\');
      } else put(' ');
      spaces = true;
      continue;
    }
    put(style === 'single' && ch === "'" ? "''" : ch);
    spaces = false;
  }
  if (style === 'single') put("'");
  if (style === 'double') put('"');
  return out;
}

const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const TIMESTAMP =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[Tt](\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)| (\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d+)?)?$/;

/** go-yaml's parseTimestamp (the formats it accepts). */
function isTimestamp(s: string): boolean {
  const m = TIMESTAMP.exec(s);
  if (!m) return false;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  if (d > (mo === 2 && !leap ? 28 : DAYS[mo - 1])) return false;
  const h = m[4] ?? m[7];
  if (h !== undefined) {
    const mi = m[5] ?? m[8];
    const se = m[6] ?? m[9];
    if (Number(h) > 23 || Number(mi) > 59 || Number(se) > 59) return false;
  }
  return true;
}

/** Strings go-yaml writes double-quoted because, plain, they would read back as another type. */
function needsTypeQuotes(s: string): boolean {
  if (typeof resolvePlainScalar(s) !== 'string') return true;
  if (s === '<<') return true;
  const c = s[0];
  if ((c === '+' || c === '-' || (c >= '0' && c <= '9')) && isTimestamp(s)) return true;
  if (/^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/.test(s)) return true;
  return false;
}

/** A string scalar; `column` is where it starts, `indent` the indentation of its continuation lines. */
function stringScalar(s: string, column: number, indent: number, isKey: boolean): string {
  const a = analyze(s);
  // encoder: newline -> literal; would resolve to another type -> double quoted; else plain.
  // emitter: plain not allowed -> single quoted; single not allowed -> double; literal not allowed
  // (or a key) -> double.
  let style: 'plain' | 'single' | 'double' | 'literal';
  if (s.includes('\n')) style = 'literal';
  else if (needsTypeQuotes(s)) style = 'double';
  else style = 'plain';
  if (isKey && a.multiline) style = 'double';
  if (style === 'plain') {
    if (!a.plain) style = 'single';
    else if (s === '' && isKey) style = 'single';
  }
  if (style === 'single' && !a.single) style = 'double';
  if (style === 'literal' && (!a.block || isKey)) style = 'double';
  if (style === 'literal') return literal(s, indent);
  return writeFlowScalar(s, style, column, indent, !isKey);
}

function literal(s: string, indent: number): string {
  let chomp = '';
  if (!s.endsWith('\n')) chomp = '-';
  else if (s === '\n' || s.endsWith('\n\n')) chomp = '+';
  const indicator = s.startsWith(' ') || s.startsWith('\n') ? '2' : '';
  const body = chomp === '-' ? s : s.slice(0, -1);
  const pad = ' '.repeat(indent);
  const lines = body.split('\n').map((l) => (l === '' ? '' : pad + l));
  return `|${indicator}${chomp}\n${lines.join('\n')}`;
}

function scalar(v: unknown, column: number, indent: number, isKey = false): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') {
    if (Number.isNaN(v)) return '.nan';
    if (v === Infinity) return '.inf';
    if (v === -Infinity) return '-.inf';
    return Number.isInteger(v) && Math.abs(v) < 1e21 ? String(v) : goFloatV(v);
  }
  return stringScalar(String(v), column, indent, isKey);
}

function isEmptyCollection(v: unknown): boolean {
  if (Array.isArray(v)) return v.length === 0;
  return v !== null && typeof v === 'object' && !Object.values(v).some((x) => x !== undefined);
}

function utf8Length(s: string): number {
  let n = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return n;
}

/** A key go-yaml cannot write as a simple key (longer than 128 bytes, or multi-line): `? key` / `: value`. */
function emitComplexKey(k: string, val: unknown, indent: number, out: string[]): void {
  const pad = ' '.repeat(indent);
  out.push(`${pad}? ${stringScalar(k, indent + 2, indent + 2, false)}`);
  if (Array.isArray(val) && val.length > 0) {
    out.push(`${pad}:`);
    emit(val, indent, out);
  } else if (val !== null && typeof val === 'object' && !isEmptyCollection(val)) {
    const sub: string[] = [];
    emit(val, indent + 2, sub);
    sub[0] = `${pad}: ${sub[0].slice(indent + 2)}`;
    out.push(...sub);
  } else if (isEmptyCollection(val)) out.push(`${pad}: ${Array.isArray(val) ? '[]' : '{}'}`);
  else out.push(`${pad}: ${scalar(val, indent + 2, indent + 2)}`);
}

function emit(v: unknown, indent: number, out: string[]): void {
  if (Array.isArray(v)) {
    for (const item of v) {
      const pad = ' '.repeat(indent);
      if (item !== null && typeof item === 'object' && !isEmptyCollection(item)) {
        // the first entry of a nested collection goes on the dash line
        const sub: string[] = [];
        emit(item, indent + 2, sub);
        sub[0] = `${pad}- ${sub[0].slice(indent + 2)}`;
        out.push(...sub);
      } else if (isEmptyCollection(item)) out.push(`${pad}- ${Array.isArray(item) ? '[]' : '{}'}`);
      else out.push(`${pad}- ${scalar(item, indent + 2, indent + 2)}`);
    }
    return;
  }
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const pad = ' '.repeat(indent);
    // members holding undefined do not exist in JSON
    for (const k of sortYamlKeys(Object.keys(o).filter((x) => o[x] !== undefined))) {
      const val = o[k];
      if (utf8Length(k) > 128 || k.includes('\n')) {
        emitComplexKey(k, val, indent, out);
        continue;
      }
      const key = scalar(k, indent, indent, true);
      if (Array.isArray(val) && val.length > 0) {
        out.push(`${pad}${key}:`);
        emit(val, indent, out);
      } else if (val !== null && typeof val === 'object' && !isEmptyCollection(val)) {
        out.push(`${pad}${key}:`);
        emit(val, indent + 2, out);
      } else if (isEmptyCollection(val)) out.push(`${pad}${key}: ${Array.isArray(val) ? '[]' : '{}'}`);
      else out.push(`${pad}${key}: ${scalar(val, indent + key.length + 2, indent + 2)}`);
    }
    return;
  }
  out.push(' '.repeat(indent) + scalar(v, indent, indent + 2));
}

/** Serializes a JSON value as the real server's YAML responses do (see the file comment). */
export function encodeYaml(value: unknown): string {
  if (isEmptyCollection(value)) return Array.isArray(value) ? '[]\n' : '{}\n';
  const out: string[] = [];
  emit(value, 0, out);
  return out.join('\n') + '\n';
}
