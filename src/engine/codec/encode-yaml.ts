// YAML output like the real server's (sigs.k8s.io/yaml: JSON -> go-yaml v2 -> YAML text):
// - map keys sorted by go-yaml v2's "natural" key order (digit runs compare numerically, non-letters
//   before letters), since the JSON object goes through an unordered Go map;
// - 2-space indentation, sequences inside mappings not indented (`key:\n- a`);
// - strings that would read back as another type (true, yes, 1, 1.5, null, ~, dates) double-quoted;
//   strings that cannot be plain single-quoted (or double-quoted when they hold special characters);
//   multi-line strings as literal blocks (`|`, `|-`, `|+`);
// - long plain and quoted scalars folded at spaces past column 80, like go-yaml's emitter.

import { goFloatV } from './go-format.js';
import { resolvePlainScalar } from './yaml.js';

const BEST_WIDTH = 80;

function isLetter(ch: string): boolean {
  return /\p{L}/u.test(ch);
}
function isDigitCh(ch: string): boolean {
  return /\p{Nd}/u.test(ch);
}

/** go-yaml v2 sorter.go keyList.Less for string keys. */
export function yamlKeyLess(a: string, b: string): boolean {
  const ar = Array.from(a);
  const br = Array.from(b);
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

// libyaml's is_printable
function isPrintable(cp: number): boolean {
  return cp === 0x0a || (cp >= 0x20 && cp <= 0x7e) || cp === 0x85 || (cp >= 0xa0 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff) || (cp >= 0x10000 && cp <= 0x10ffff);
}

interface Analysis {
  plain: boolean;
  single: boolean;
  block: boolean;
  multiline: boolean;
}

/** A reduced libyaml yaml_emitter_analyze_scalar for block context. */
function analyze(s: string): Analysis {
  if (s === '') return { plain: false, single: true, block: false, multiline: false };
  let plain = true;
  let single = true;
  let block = true;
  let special = false;
  let lineBreaks = false;
  let spaceBreak = false;
  let breakSpace = false;
  if (s.startsWith('---') || s.startsWith('...')) plain = false;
  const chars = Array.from(s);
  const first = chars[0];
  const second = chars[1];
  if ('#,[]{}&*!|>\'"%@`'.includes(first)) plain = false;
  if ((first === '?' || first === ':' || first === '-') && (second === undefined || second === ' ' || second === '\n')) plain = false;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    const cp = ch.codePointAt(0)!;
    const next = chars[i + 1];
    const prev = chars[i - 1];
    if (!isPrintable(cp)) special = true;
    if (ch === ':' && (next === undefined || next === ' ' || next === '\n')) plain = false;
    if (ch === '#' && (prev === ' ' || prev === '\n')) plain = false;
    if (ch === '\n') {
      lineBreaks = true;
      if (prev === ' ') spaceBreak = true;
      if (next === ' ') breakSpace = true;
    }
  }
  const leadingSpace = first === ' ';
  const leadingBreak = first === '\n';
  const trailingSpace = chars[chars.length - 1] === ' ';
  const trailingBreak = chars[chars.length - 1] === '\n';
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) plain = false;
  if (trailingSpace) block = false;
  if (breakSpace) plain = single = false;
  if (spaceBreak || special) plain = single = block = false;
  if (lineBreaks) plain = false;
  return { plain, single, block, multiline: lineBreaks };
}

/** Folds a scalar's text at single spaces once the column passes 80 (go-yaml's write_plain/quoted). */
function fold(text: string, startColumn: number, indent: number): string {
  let out = '';
  let column = startColumn;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === ' ' && text[i - 1] !== ' ' && column > BEST_WIDTH && i + 1 < text.length && text[i + 1] !== ' ' && i > 0) {
      out += `\n${' '.repeat(indent)}`;
      column = indent;
      continue;
    }
    out += ch;
    column++;
  }
  return out;
}

function doubleQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    switch (ch) {
      case '"': out += '\\"'; continue;
      case '\\': out += '\\\\'; continue;
      case '\0': out += '\\0'; continue;
      case '\x07': out += '\\a'; continue;
      case '\b': out += '\\b'; continue;
      case '\t': out += '\\t'; continue;
      case '\n': out += '\\n'; continue;
      case '\v': out += '\\v'; continue;
      case '\f': out += '\\f'; continue;
      case '\r': out += '\\r'; continue;
      case '\x1b': out += '\\e'; continue;
      case '\x85': out += '\\N'; continue;
      case '\xa0': out += '\\_'; continue;
      case '\u2028': out += '\\L'; continue;
      case '\u2029': out += '\\P'; continue;
    }
    if (!isPrintable(cp) || cp === 0xfeff) {
      if (cp <= 0xff) out += `\\x${cp.toString(16).toUpperCase().padStart(2, '0')}`;
      else if (cp <= 0xffff) out += `\\u${cp.toString(16).toUpperCase().padStart(4, '0')}`;
      else out += `\\U${cp.toString(16).toUpperCase().padStart(8, '0')}`;
    } else out += ch;
  }
  return out + '"';
}

function needsTypeQuotes(s: string): boolean {
  if (typeof resolvePlainScalar(s) !== 'string') return true;
  if (s === '<<') return true;
  // timestamps resolve to !!timestamp in go-yaml, so they are quoted when written
  if (/^\d{4}-\d\d?-\d\d?(?:(?:[Tt]|[ \t]+)\d\d?:\d\d:\d\d(?:\.\d*)?(?:[ \t]*(?:Z|[-+]\d\d?(?::\d\d)?))?)?$/.test(s)) return true;
  // base 60 floats (1:20) are quoted for YAML 1.1 readers
  if (/^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/.test(s)) return true;
  return false;
}

/** A string scalar in a value position; `column` is where it starts, `indent` the block indent of its parent. */
function stringScalar(s: string, column: number, indent: number, isKey: boolean): string {
  if (needsTypeQuotes(s)) return fold(doubleQuote(s), column, indent);
  const a = analyze(s);
  if (a.plain) return isKey ? s : fold(s, column, indent);
  if (a.multiline && a.block && !isKey) return literal(s, indent);
  if (a.single) return isKey ? `'${s.replace(/'/g, "''")}'` : fold(`'${s.replace(/'/g, "''")}'`, column, indent);
  return isKey ? doubleQuote(s) : fold(doubleQuote(s), column, indent);
}

function literal(s: string, indent: number): string {
  let chomp = '';
  if (!s.endsWith('\n')) chomp = '-';
  else if (s.endsWith('\n\n') || s === '\n') chomp = '+';
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
  return v !== null && typeof v === 'object' && Object.keys(v).length === 0;
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
    for (const k of sortYamlKeys(Object.keys(o))) {
      const key = scalar(k, indent, indent, true);
      const val = o[k];
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
