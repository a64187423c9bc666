// RE2 (Go regexp) syntax translated to JavaScript RegExp, plus the Kubernetes regex library helpers
// (find, findAll) and a bounded cache of compiled patterns.
//
// Rules implemented (Go regexp/syntax with the Perl flags that regexp.Compile uses):
// - Parse errors carry Go's text: `error parsing regexp: <code>: \`<expr>\``.
// - Backreferences (`\1`) are invalid escapes; lookarounds (`(?=`, `(?!`) are unsupported Perl syntax;
//   `(?<=`/`(?<!` hit the named-capture form `(?<name>` (Go 1.22+) and fail as invalid named captures.
// - Flags i, m, s, U with scoped groups `(?flags:re)` and negation `(?-flags)`.
// - `^`/`$` are text anchors unless (?m); `$` never matches before a trailing newline; `.` excludes only
//   `\n` (JS would also exclude `\r`, U+2028, U+2029); `\s` is `[\t\n\f\r ]`; `\d`, `\w`, `\b` are ASCII.
// - Named groups `(?P<name>re)` and `(?<name>re)`; POSIX classes `[[:alpha:]]`, `[[:^alpha:]]`; Unicode
//   classes `\pL`, `\p{Greek}`, `\PL`, `\p{^Greek}`; `\Q...\E`; `\x{10FFFF}`; octal `\0`, `\012`.
// - Repeat counts above 1000 (also nested, as Go's repeatIsValid) are `invalid repeat count`.
// Matching is leftmost-first as in Go; JS backtracking gives the same match positions.

export class RegexSyntaxError extends Error {
  constructor(
    readonly code: string,
    readonly expr: string,
  ) {
    super(`error parsing regexp: ${code}: \`${expr}\``);
    this.name = 'RegexSyntaxError';
  }
}

const ERR_INVALID_CHAR_RANGE = 'invalid character class range';
const ERR_INVALID_ESCAPE = 'invalid escape sequence';
const ERR_INVALID_NAMED_CAPTURE = 'invalid named capture';
const ERR_INVALID_PERL_OP = 'invalid or unsupported Perl syntax';
const ERR_INVALID_REPEAT_OP = 'invalid nested repetition operator';
const ERR_INVALID_REPEAT_SIZE = 'invalid repeat count';
const ERR_MISSING_BRACKET = 'missing closing ]';
const ERR_MISSING_PAREN = 'missing closing )';
const ERR_MISSING_REPEAT_ARGUMENT = 'missing argument to repetition operator';
const ERR_TRAILING_BACKSLASH = 'trailing backslash at end of expression';
const ERR_UNEXPECTED_PAREN = 'unexpected )';
const ERR_NESTING_DEPTH = 'expression nests too deeply';

const MAX_RUNE = 0x10ffff;
const MAX_HEIGHT = 1000;

interface Flags {
  fold: boolean; // i
  multiLine: boolean; // m (not OneLine)
  dotNL: boolean; // s
  nonGreedy: boolean; // U
}

type Ranges = number[]; // pairs lo, hi

type Node =
  | { t: 'lit'; cp: number; fold: boolean }
  | { t: 'class'; ranges: Ranges; props: string[]; negated: boolean; fold: boolean }
  | { t: 'any'; nl: boolean }
  | { t: 'bol' | 'eol' | 'bot' | 'eot' | 'wb' | 'nwb' }
  | { t: 'group'; cap: boolean; sub: Node }
  | { t: 'concat'; subs: Node[] }
  | { t: 'alt'; subs: Node[] }
  | { t: 'repeat'; min: number; max: number; greedy: boolean; sub: Node };

const PERL_GROUPS: Record<string, { sign: number; r: Ranges }> = {
  '\\d': { sign: 1, r: [0x30, 0x39] },
  '\\D': { sign: -1, r: [0x30, 0x39] },
  '\\s': { sign: 1, r: [0x9, 0xa, 0xc, 0xd, 0x20, 0x20] },
  '\\S': { sign: -1, r: [0x9, 0xa, 0xc, 0xd, 0x20, 0x20] },
  '\\w': { sign: 1, r: [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a] },
  '\\W': { sign: -1, r: [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a] },
};

const POSIX_CLASSES: Record<string, Ranges> = {
  alnum: [0x30, 0x39, 0x41, 0x5a, 0x61, 0x7a],
  alpha: [0x41, 0x5a, 0x61, 0x7a],
  ascii: [0x0, 0x7f],
  blank: [0x9, 0x9, 0x20, 0x20],
  cntrl: [0x0, 0x1f, 0x7f, 0x7f],
  digit: [0x30, 0x39],
  graph: [0x21, 0x7e],
  lower: [0x61, 0x7a],
  print: [0x20, 0x7e],
  punct: [0x21, 0x2f, 0x3a, 0x40, 0x5b, 0x60, 0x7b, 0x7e],
  space: [0x9, 0xd, 0x20, 0x20],
  upper: [0x41, 0x5a],
  word: [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a],
  xdigit: [0x30, 0x39, 0x41, 0x46, 0x61, 0x66],
};

// General categories known to Go's unicode.Categories (JS accepts more aliases, Go does not).
const GO_CATEGORIES = new Set(
  'C Cc Cf Co Cs L Ll Lm Lo Lt Lu M Mc Me Mn N Nd Nl No P Pc Pd Pe Pf Pi Po Ps S Sc Sk Sm So Z Zl Zp Zs'.split(' '),
);

/** JS `\p{...}` text for a Go Unicode class name, or undefined when Go does not know the name. */
function unicodeProperty(name: string): string | undefined {
  if (name === 'Any') return 'Any';
  if (GO_CATEGORIES.has(name)) return name;
  if (!/^[A-Z][A-Za-z_]*$/.test(name)) return undefined;
  try {
    new RegExp(`\\p{Script=${name}}`, 'u');
    return `Script=${name}`;
  } catch {
    return undefined;
  }
}

// ---- rune ranges ----

function normalize(r: Ranges): Ranges {
  const pairs: [number, number][] = [];
  for (let i = 0; i < r.length; i += 2) pairs.push([r[i]!, r[i + 1]!]);
  pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: Ranges = [];
  for (const [lo, hi] of pairs) {
    const n = out.length;
    if (n > 0 && lo <= out[n - 1]! + 1) {
      if (hi > out[n - 1]!) out[n - 1] = hi;
    } else out.push(lo, hi);
  }
  return out;
}

function negate(r: Ranges): Ranges {
  const c = normalize(r);
  const out: Ranges = [];
  let next = 0;
  for (let i = 0; i < c.length; i += 2) {
    if (next <= c[i]! - 1) out.push(next, c[i]! - 1);
    next = c[i + 1]! + 1;
  }
  if (next <= MAX_RUNE) out.push(next, MAX_RUNE);
  return out;
}

// Simple case folding orbits (Unicode simple folding as Go's unicode.SimpleFold), derived from the
// JS case mappings that map one code point to one code point. Built lazily on first use.
let foldOrbits: Map<number, number[]> | undefined;
const MIN_FOLD = 0x41;
const MAX_FOLD = 0x1e943;

function orbits(): Map<number, number[]> {
  if (foldOrbits) return foldOrbits;
  const parent = new Map<number, number>();
  const find = (x: number): number => {
    let p = parent.get(x) ?? x;
    while (p !== (parent.get(p) ?? p)) p = parent.get(p) ?? p;
    return p;
  };
  const union = (a: number, b: number) => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent.set(Math.max(ra, rb), Math.min(ra, rb));
  };
  const single = (s: string): number | undefined => {
    const cp = s.codePointAt(0)!;
    return s.length === (cp > 0xffff ? 2 : 1) ? cp : undefined;
  };
  for (let c = MIN_FOLD; c <= MAX_FOLD; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    // Dotted/dotless i are not in the simple folding orbits of i/I.
    if (c === 0x130 || c === 0x131) continue;
    const s = String.fromCodePoint(c);
    const lo = single(s.toLowerCase());
    const up = single(s.toUpperCase());
    if (lo !== undefined && lo !== c && lo !== 0x130 && lo !== 0x131) union(c, lo);
    if (up !== undefined && up !== c && up !== 0x130 && up !== 0x131) union(c, up);
  }
  const groups = new Map<number, number[]>();
  for (const c of parent.keys()) {
    const root = find(c);
    let g = groups.get(root);
    if (!g) groups.set(root, (g = [root]));
    if (c !== root) g.push(c);
  }
  foldOrbits = new Map();
  for (const g of groups.values()) for (const c of g) foldOrbits.set(c, g);
  return foldOrbits;
}

function foldRanges(r: Ranges): Ranges {
  const out: Ranges = [...r];
  const o = orbits();
  for (let i = 0; i < r.length; i += 2) {
    const lo = Math.max(r[i]!, MIN_FOLD);
    const hi = Math.min(r[i + 1]!, MAX_FOLD);
    if (hi - lo > 0x20000) continue; // covers (nearly) everything already
    for (let c = lo; c <= hi; c++) {
      const g = o.get(c);
      if (g) for (const f of g) out.push(f, f);
    }
  }
  return normalize(out);
}

// ---- parser ----

class Parser {
  #pos = 0;
  #flags: Flags = { fold: false, multiLine: false, dotNL: false, nonGreedy: false };
  #depth = 0;

  readonly #src: string;
  constructor(src: string) {
    this.#src = src;
  }

  parse(): Node {
    const node = this.#parseAlternation();
    if (this.#pos < this.#src.length) {
      // Only a ')' can stop the top-level alternation early.
      throw new RegexSyntaxError(ERR_UNEXPECTED_PAREN, this.#src);
    }
    return node;
  }

  #rest(): string {
    return this.#src.slice(this.#pos);
  }

  #nextRune(): number {
    const cp = this.#src.codePointAt(this.#pos)!;
    this.#pos += cp > 0xffff ? 2 : 1;
    return cp;
  }

  #parseAlternation(): Node {
    const alts: Node[] = [this.#parseConcat()];
    while (this.#src[this.#pos] === '|') {
      this.#pos++;
      alts.push(this.#parseConcat());
    }
    return alts.length === 1 ? alts[0]! : { t: 'alt', subs: alts };
  }

  #parseConcat(): Node {
    const items: Node[] = [];
    let lastRepeatStart = -1; // start of the previous token when it was a repetition operator
    const src = this.#src;
    while (this.#pos < src.length) {
      const ch = src[this.#pos]!;
      if (ch === '|' || ch === ')') break;
      const start = this.#pos;
      let isRepeat = false;
      switch (ch) {
        case '(': {
          if (src[this.#pos + 1] === '?') {
            const group = this.#parsePerlFlags();
            if (group) items.push(group);
          } else {
            this.#pos++;
            items.push(this.#parseGroupBody(true));
          }
          break;
        }
        case '^':
          this.#pos++;
          items.push({ t: this.#flags.multiLine ? 'bol' : 'bot' });
          break;
        case '$':
          this.#pos++;
          items.push({ t: this.#flags.multiLine ? 'eol' : 'eot' });
          break;
        case '.':
          this.#pos++;
          items.push({ t: 'any', nl: this.#flags.dotNL });
          break;
        case '[':
          items.push(this.#parseClass());
          break;
        case '*':
        case '+':
        case '?': {
          this.#pos++;
          const [min, max] = ch === '*' ? [0, -1] : ch === '+' ? [1, -1] : [0, 1];
          this.#applyRepeat(items, min, max, start, lastRepeatStart);
          isRepeat = true;
          break;
        }
        case '{': {
          const rep = this.#parseRepeatBraces();
          if (!rep) {
            this.#pos++;
            items.push(this.#lit(0x7b));
            break;
          }
          const [min, max, end] = rep;
          if (min < 0 || min > 1000 || max > 1000 || (max >= 0 && min > max)) {
            throw new RegexSyntaxError(ERR_INVALID_REPEAT_SIZE, src.slice(start, end));
          }
          this.#pos = end;
          this.#applyRepeat(items, min, max, start, lastRepeatStart);
          isRepeat = true;
          break;
        }
        case '\\':
          this.#parseBackslash(items);
          break;
        default:
          items.push(this.#lit(this.#nextRune()));
      }
      lastRepeatStart = isRepeat ? start : -1;
    }
    return items.length === 1 ? items[0]! : { t: 'concat', subs: items };
  }

  #lit(cp: number): Node {
    return { t: 'lit', cp, fold: this.#flags.fold };
  }

  #applyRepeat(items: Node[], min: number, max: number, start: number, lastRepeatStart: number) {
    let greedy = !this.#flags.nonGreedy;
    if (this.#src[this.#pos] === '?') {
      this.#pos++;
      greedy = !greedy;
    }
    if (lastRepeatStart >= 0) {
      throw new RegexSyntaxError(ERR_INVALID_REPEAT_OP, this.#src.slice(lastRepeatStart, this.#pos));
    }
    const sub = items.pop();
    if (!sub) throw new RegexSyntaxError(ERR_MISSING_REPEAT_ARGUMENT, this.#src.slice(start, this.#pos));
    const node: Node = { t: 'repeat', min, max, greedy, sub };
    if ((min >= 2 || max >= 2) && !repeatIsValid(node, 1000)) {
      throw new RegexSyntaxError(ERR_INVALID_REPEAT_SIZE, this.#src.slice(start, this.#pos));
    }
    items.push(node);
  }

  /** `{n}`, `{n,}`, `{n,m}`; returns [min, max, endIndex] or undefined when it is a literal `{`. */
  #parseRepeatBraces(): [number, number, number] | undefined {
    const s = this.#src;
    let i = this.#pos + 1;
    const parseInt = (): number | undefined => {
      if (i >= s.length || s[i]! < '0' || s[i]! > '9') return undefined;
      if (s[i] === '0' && i + 1 < s.length && s[i + 1]! >= '0' && s[i + 1]! <= '9') return undefined;
      let n = 0;
      let big = false;
      while (i < s.length && s[i]! >= '0' && s[i]! <= '9') {
        if (n >= 1e8) big = true;
        else n = n * 10 + (s.charCodeAt(i) - 48);
        i++;
      }
      return big ? -1 : n;
    };
    let min = parseInt();
    if (min === undefined || i >= s.length) return undefined;
    let max: number;
    if (s[i] !== ',') max = min;
    else {
      i++;
      if (i >= s.length) return undefined;
      if (s[i] === '}') max = -1;
      else {
        const m = parseInt();
        if (m === undefined) return undefined;
        max = m;
        if (m < 0) min = -1;
      }
    }
    if (i >= s.length || s[i] !== '}') return undefined;
    return [min, max, i + 1];
  }

  #parseGroupBody(cap: boolean): Node {
    if (++this.#depth > MAX_HEIGHT) throw new RegexSyntaxError(ERR_NESTING_DEPTH, this.#src);
    const saved = { ...this.#flags };
    const sub = this.#parseAlternation();
    if (this.#src[this.#pos] !== ')') throw new RegexSyntaxError(ERR_MISSING_PAREN, this.#src);
    this.#pos++;
    this.#flags = saved;
    this.#depth--;
    return { t: 'group', cap, sub };
  }

  /** At `(?`: named capture, flag setting `(?i)` (returns undefined) or group `(?i:re)`. */
  #parsePerlFlags(): Node | undefined {
    const s = this.#rest();
    if ((s.length > 4 && s[2] === 'P' && s[3] === '<') || (s.length > 3 && s[2] === '<')) {
      const begin = s[2] === '<' ? 3 : 4;
      const end = s.indexOf('>');
      if (end < 0) throw new RegexSyntaxError(ERR_INVALID_NAMED_CAPTURE, s);
      const capture = s.slice(0, end + 1);
      const name = s.slice(begin, end);
      if (!/^[A-Za-z0-9_]+$/.test(name)) throw new RegexSyntaxError(ERR_INVALID_NAMED_CAPTURE, capture);
      this.#pos += end + 1;
      return this.#parseGroupBody(true);
    }
    const flags = { ...this.#flags };
    let i = 2;
    let sign = 1;
    let sawFlag = false;
    while (i < s.length) {
      const cp = s.codePointAt(i)!;
      i += cp > 0xffff ? 2 : 1;
      const c = String.fromCodePoint(cp);
      const on = sign > 0;
      if (c === 'i') {
        flags.fold = on;
        sawFlag = true;
      } else if (c === 'm') {
        flags.multiLine = on;
        sawFlag = true;
      } else if (c === 's') {
        flags.dotNL = on;
        sawFlag = true;
      } else if (c === 'U') {
        flags.nonGreedy = on;
        sawFlag = true;
      } else if (c === '-') {
        if (sign < 0) break;
        sign = -1;
        sawFlag = false;
      } else if (c === ':' || c === ')') {
        if (sign < 0 && !sawFlag) break;
        this.#pos += i;
        if (c === ':') {
          // The group's own flags end with the group; the enclosing flags come back after it.
          const outer = this.#flags;
          this.#flags = flags;
          const node = this.#parseGroupBody(false);
          this.#flags = outer;
          return node;
        }
        this.#flags = flags;
        return undefined;
      } else break;
    }
    throw new RegexSyntaxError(ERR_INVALID_PERL_OP, s.slice(0, i));
  }

  #parseBackslash(items: Node[]) {
    const s = this.#rest();
    if (s.length >= 2) {
      switch (s[1]) {
        case 'A':
          this.#pos += 2;
          items.push({ t: 'bot' });
          return;
        case 'b':
          this.#pos += 2;
          items.push({ t: 'wb' });
          return;
        case 'B':
          this.#pos += 2;
          items.push({ t: 'nwb' });
          return;
        case 'C':
          throw new RegexSyntaxError(ERR_INVALID_ESCAPE, s.slice(0, 2));
        case 'Q': {
          const end = s.indexOf('\\E', 2);
          const lit = end < 0 ? s.slice(2) : s.slice(2, end);
          this.#pos += end < 0 ? s.length : end + 2;
          for (const ch of lit) items.push(this.#lit(ch.codePointAt(0)!));
          return;
        }
        case 'z':
          this.#pos += 2;
          items.push({ t: 'eot' });
          return;
      }
    }
    const cls: { ranges: Ranges; props: string[] } = { ranges: [], props: [] };
    if (this.#parseUnicodeClass(cls) || this.#parsePerlClass(cls)) {
      items.push({ t: 'class', ranges: cls.ranges, props: cls.props, negated: false, fold: this.#flags.fold });
      return;
    }
    items.push(this.#lit(this.#parseEscape()));
  }

  /** `\pX`, `\p{Name}`, `\PX`, `\p{^Name}` at pos; appends to cls. */
  #parseUnicodeClass(cls: { ranges: Ranges; props: string[] }): boolean {
    const s = this.#rest();
    if (s.length < 2 || s[0] !== '\\' || (s[1] !== 'p' && s[1] !== 'P')) return false;
    let sign = s[1] === 'P' ? -1 : 1;
    let seq: string;
    let name: string;
    if (s.length < 3) {
      seq = s;
      name = '';
    } else if (s[2] !== '{') {
      const cp = s.codePointAt(2)!;
      seq = s.slice(0, 2 + (cp > 0xffff ? 2 : 1));
      name = seq.slice(2);
    } else {
      const end = s.indexOf('}');
      if (end < 0) throw new RegexSyntaxError(ERR_INVALID_CHAR_RANGE, s);
      seq = s.slice(0, end + 1);
      name = s.slice(3, end);
    }
    if (name.startsWith('^')) {
      sign = -sign;
      name = name.slice(1);
    }
    const prop = unicodeProperty(name);
    if (!prop) throw new RegexSyntaxError(ERR_INVALID_CHAR_RANGE, seq);
    this.#pos += seq.length;
    if (prop === 'Any') {
      if (sign > 0) cls.ranges.push(0, MAX_RUNE);
    } else cls.props.push(sign > 0 ? `\\p{${prop}}` : `\\P{${prop}}`);
    return true;
  }

  #parsePerlClass(cls: { ranges: Ranges; props: string[] }): boolean {
    const g = PERL_GROUPS[this.#src.slice(this.#pos, this.#pos + 2)];
    if (!g) return false;
    this.#pos += 2;
    this.#appendGroup(cls, g.sign, g.r);
    return true;
  }

  #appendGroup(cls: { ranges: Ranges }, sign: number, r: Ranges) {
    const base = this.#flags.fold ? foldRanges(r) : r;
    cls.ranges.push(...(sign < 0 ? negate(base) : base));
  }

  /** A single-character escape at pos (which holds the backslash). */
  #parseEscape(): number {
    const s = this.#src;
    const start = this.#pos;
    this.#pos++;
    if (this.#pos >= s.length) throw new RegexSyntaxError(ERR_TRAILING_BACKSLASH, '');
    const c = this.#nextRune();
    const isOctal = (i: number) => i < s.length && s[i]! >= '0' && s[i]! <= '7';
    const fail = () => new RegexSyntaxError(ERR_INVALID_ESCAPE, s.slice(start, this.#pos));
    if (c >= 0x31 && c <= 0x37 && !isOctal(this.#pos)) throw fail(); // backreference
    if (c >= 0x30 && c <= 0x37) {
      let r = c - 0x30;
      for (let k = 1; k < 3 && isOctal(this.#pos); k++) r = r * 8 + (s.charCodeAt(this.#pos++) - 0x30);
      return r;
    }
    switch (c) {
      case 0x78: {
        // x
        if (this.#pos >= s.length) throw fail();
        let d = this.#nextRune();
        if (d === 0x7b) {
          let n = 0;
          let r = 0;
          for (;;) {
            if (this.#pos >= s.length) throw fail();
            d = this.#nextRune();
            if (d === 0x7d) break;
            const v = unhex(d);
            if (v < 0) throw fail();
            r = r * 16 + v;
            if (r > MAX_RUNE) throw fail();
            n++;
          }
          if (n === 0) throw fail();
          return r;
        }
        const x = unhex(d);
        if (this.#pos >= s.length) throw fail();
        const y = unhex(this.#nextRune());
        if (x < 0 || y < 0) throw fail();
        return x * 16 + y;
      }
      case 0x61:
        return 7;
      case 0x66:
        return 12;
      case 0x6e:
        return 10;
      case 0x72:
        return 13;
      case 0x74:
        return 9;
      case 0x76:
        return 11;
    }
    if (c < 0x80 && !isAlnum(c)) return c;
    throw fail();
  }

  #parseClass(): Node {
    const s = this.#src;
    const classStart = this.#pos;
    const whole = s.slice(classStart);
    this.#pos++;
    let negated = false;
    if (s[this.#pos] === '^') {
      negated = true;
      this.#pos++;
    }
    const cls: { ranges: Ranges; props: string[] } = { ranges: [], props: [] };
    let first = true;
    while (this.#pos >= s.length || s[this.#pos] !== ']' || first) {
      first = false;
      if (s.length - this.#pos > 2 && s[this.#pos] === '[' && s[this.#pos + 1] === ':') {
        const end = s.indexOf(':]', this.#pos + 2);
        if (end >= 0) {
          const name = s.slice(this.#pos, end + 2);
          const m = /^\[:(\^?)([a-z]+):\]$/.exec(name);
          const r = m ? POSIX_CLASSES[m[2]!] : undefined;
          if (!m || !r) throw new RegexSyntaxError(ERR_INVALID_CHAR_RANGE, name);
          this.#pos = end + 2;
          this.#appendGroup(cls, m[1] ? -1 : 1, r);
          continue;
        }
      }
      if (this.#parseUnicodeClass(cls)) continue;
      if (this.#parsePerlClass(cls)) continue;
      const rangeStart = this.#pos;
      const lo = this.#parseClassChar(whole);
      let hi = lo;
      if (s.length - this.#pos >= 2 && s[this.#pos] === '-' && s[this.#pos + 1] !== ']') {
        this.#pos++;
        hi = this.#parseClassChar(whole);
        if (hi < lo) throw new RegexSyntaxError(ERR_INVALID_CHAR_RANGE, s.slice(rangeStart, this.#pos));
      }
      cls.ranges.push(...(this.#flags.fold ? foldRanges([lo, hi]) : [lo, hi]));
    }
    this.#pos++; // ]
    return { t: 'class', ranges: normalize(cls.ranges), props: cls.props, negated, fold: this.#flags.fold };
  }

  #parseClassChar(whole: string): number {
    if (this.#pos >= this.#src.length) throw new RegexSyntaxError(ERR_MISSING_BRACKET, whole);
    if (this.#src[this.#pos] === '\\') return this.#parseEscape();
    return this.#nextRune();
  }
}

function isAlnum(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

function unhex(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

function repeatIsValid(node: Node, n: number): boolean {
  if (node.t === 'repeat') {
    let m = node.max;
    if (m === 0) return true;
    if (m < 0) m = node.min;
    if (m > n) return false;
    if (m > 0) n = Math.trunc(n / m);
  }
  switch (node.t) {
    case 'repeat':
    case 'group':
      return repeatIsValid(node.sub, n);
    case 'concat':
    case 'alt':
      return node.subs.every((s) => repeatIsValid(s, n));
    default:
      return true;
  }
}

// ---- flags ----

function collectFold(node: Node, acc: { on: boolean; off: boolean }) {
  switch (node.t) {
    case 'lit':
    case 'class':
      if (node.fold) acc.on = true;
      else acc.off = true;
      return;
    case 'group':
    case 'repeat':
      collectFold(node.sub, acc);
      return;
    case 'concat':
    case 'alt':
      for (const s of node.subs) collectFold(s, acc);
      return;
  }
}

// ---- public API ----

/**
 * The flags of compileRE2's RegExp: 'u' (RE2 matches code points), plus 'i' when every literal and class of
 * the pattern folds case. Informational only: all matching runs on the RE2 program.
 */
function flagsOf(node: Node): string {
  const acc = { on: false, off: false };
  collectFold(node, acc);
  return acc.on && !acc.off ? 'iu' : 'u';
}

// ---- linear-time matcher (Pike VM, as RE2) ----
// JS RegExp backtracks and can take exponential time on patterns like `(a+)+$`; RE2 guarantees time
// linear in the input. Matching therefore runs on a Thompson NFA simulation with thread priorities,
// which yields RE2's leftmost-first match.

type CharTest = (cp: number) => boolean;
type Inst =
  | { op: 'char'; test: CharTest }
  | { op: 'split'; x: number; y: number }
  | { op: 'jmp'; x: number }
  | { op: 'assert'; kind: 'bol' | 'eol' | 'bot' | 'eot' | 'wb' | 'nwb' }
  | { op: 'match' };

function inRanges(r: Ranges, cp: number): boolean {
  let lo = 0;
  let hi = r.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < r[2 * mid]!) hi = mid - 1;
    else if (cp > r[2 * mid + 1]!) lo = mid + 1;
    else return true;
  }
  return false;
}

const propCache = new Map<string, RegExp>();
function propTest(prop: string): CharTest {
  let re = propCache.get(prop);
  if (!re) propCache.set(prop, (re = new RegExp(`^${prop}$`, 'u')));
  const r = re;
  return (cp) => r.test(String.fromCodePoint(cp));
}

function orbitOf(cp: number): number[] {
  return orbits().get(cp) ?? [cp];
}

function charTest(node: Node): CharTest {
  switch (node.t) {
    case 'lit': {
      if (!node.fold) {
        const c = node.cp;
        return (cp) => cp === c;
      }
      const set = new Set(orbitOf(node.cp));
      return (cp) => set.has(cp);
    }
    case 'any':
      return node.nl ? () => true : (cp) => cp !== 10;
    case 'class': {
      const ranges = node.ranges;
      const props = node.props.map((p) => propTest(p));
      const fold = node.fold;
      const inProps = (cp: number) => props.some((t) => t(cp));
      const member =
        props.length === 0
          ? (cp: number) => inRanges(ranges, cp)
          : fold
            ? (cp: number) => inRanges(ranges, cp) || orbitOf(cp).some(inProps)
            : (cp: number) => inRanges(ranges, cp) || inProps(cp);
      return node.negated ? (cp) => !member(cp) : member;
    }
    default:
      throw new Error('not a character node');
  }
}

class ProgramBuilder {
  readonly insts: Inst[] = [];
  #emitInst(i: Inst): number {
    this.insts.push(i);
    return this.insts.length - 1;
  }
  compile(node: Node): void {
    switch (node.t) {
      case 'lit':
      case 'class':
      case 'any':
        this.#emitInst({ op: 'char', test: charTest(node) });
        return;
      case 'bol':
      case 'eol':
      case 'bot':
      case 'eot':
      case 'wb':
      case 'nwb':
        this.#emitInst({ op: 'assert', kind: node.t });
        return;
      case 'group':
        this.compile(node.sub);
        return;
      case 'concat':
        for (const sub of node.subs) this.compile(sub);
        return;
      case 'alt': {
        const jumps: number[] = [];
        node.subs.forEach((sub, i) => {
          if (i < node.subs.length - 1) {
            const split = this.#emitInst({ op: 'split', x: 0, y: 0 });
            (this.insts[split] as { x: number }).x = split + 1;
            this.compile(sub);
            jumps.push(this.#emitInst({ op: 'jmp', x: 0 }));
            (this.insts[split] as { y: number }).y = this.insts.length;
          } else this.compile(sub);
        });
        for (const j of jumps) (this.insts[j] as { x: number }).x = this.insts.length;
        return;
      }
      case 'repeat': {
        // Go's simplification: x{n,} is n-1 copies then x+; x{n,m} is n copies then nested (x(x)?)?;
        // x* of a nullable x is (x+)? so that an empty iteration ends the loop as in Go/Perl.
        const { min, max, greedy, sub } = node;
        if (max === -1) {
          if (min === 0) this.#star(sub, greedy);
          else {
            for (let i = 0; i < min - 1; i++) this.compile(sub);
            this.#plus(sub, greedy);
          }
          return;
        }
        for (let i = 0; i < min; i++) this.compile(sub);
        const splits: number[] = [];
        for (let i = min; i < max; i++) {
          splits.push(this.#emitInst({ op: 'split', x: 0, y: 0 }));
          this.compile(sub);
        }
        const end = this.insts.length;
        for (const sp of splits) this.insts[sp] = greedy ? { op: 'split', x: sp + 1, y: end } : { op: 'split', x: end, y: sp + 1 };
        return;
      }
    }
  }

  /** x+ : L: x; split(L, next). */
  #plus(sub: Node, greedy: boolean): void {
    const loop = this.insts.length;
    this.compile(sub);
    const sp = this.insts.length;
    this.insts.push(greedy ? { op: 'split', x: loop, y: sp + 1 } : { op: 'split', x: sp + 1, y: loop });
  }

  /** x* : L: split(body, next); body; jmp L — or (x+)? when x can match empty. */
  #star(sub: Node, greedy: boolean): void {
    const sp = this.#emitInst({ op: 'split', x: 0, y: 0 });
    if (nullable(sub)) {
      this.#plus(sub, greedy);
      const end = this.insts.length;
      this.insts[sp] = greedy ? { op: 'split', x: sp + 1, y: end } : { op: 'split', x: end, y: sp + 1 };
      return;
    }
    this.compile(sub);
    this.#emitInst({ op: 'jmp', x: sp });
    const end = this.insts.length;
    this.insts[sp] = greedy ? { op: 'split', x: sp + 1, y: end } : { op: 'split', x: end, y: sp + 1 };
  }
}

/** Whether a node can match the empty string. */
function nullable(node: Node): boolean {
  switch (node.t) {
    case 'lit':
    case 'class':
    case 'any':
      return false;
    case 'group':
      return nullable(node.sub);
    case 'concat':
      return node.subs.every(nullable);
    case 'alt':
      return node.subs.some(nullable);
    case 'repeat':
      return node.min === 0 || nullable(node.sub);
    default:
      return true;
  }
}

const isWordCp = (cp: number | undefined) =>
  cp !== undefined && ((cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) || cp === 0x5f);

/** A compiled RE2 program: leftmost-first search in linear time over code points. */
// Context bits of a position for the empty-width assertions (the lazy DFA caches closures per context).
const AT_START = 1, AT_END = 2, PREV_NL = 4, NEXT_NL = 8, PREV_WORD = 16, NEXT_WORD = 32;
/** States one program's lazy DFA may build before a search falls back to the thread list (memory bound). */
const MAX_DFA_STATES = 2000;

/** A set of threads about to take their epsilon closure (sorted program counters), and what is known of it. */
interface DfaState {
  readonly pcs: number[];
  /** The closure per context: whether it reaches `match`, and the next state per code point. */
  readonly byCtx: (DfaClosure | undefined)[];
}
interface DfaClosure {
  match: boolean;
  chars: number[];
  ascii: (DfaState | undefined)[];
  other: Map<number, DfaState>;
}

export class RE2Program {
  readonly #insts: Inst[];
  readonly #hasAsserts: boolean;
  #dfa = new Map<string, DfaState>();
  /** The DFA's start state (the map's entry for [0], which never changes), kept out of the per-call key lookup. */
  #start: DfaState | undefined;
  constructor(node: Node) {
    const b = new ProgramBuilder();
    b.compile(node);
    b.insts.push({ op: 'match' });
    this.#insts = b.insts;
    this.#hasAsserts = this.#insts.some((i) => i.op === 'assert');
  }

  /**
   * Whether the pattern matches anywhere in s: a lazily built DFA over the program (states are the sets of
   * threads the thread-list search would hold, built on first use and cached per program), so a match costs
   * a table lookup per code point. Same answer as search(..., anyMatch); falls back to it past
   * MAX_DFA_STATES states.
   */
  test(s: string): boolean {
    let st = (this.#start ??= this.#state([0]));
    const len = s.length;
    let prev = -1;
    for (let i = 0; ; ) {
      const cp = i < len ? s.codePointAt(i)! : -1;
      let ctx = 0;
      if (this.#hasAsserts) {
        if (i === 0) ctx |= AT_START;
        if (cp < 0) ctx |= AT_END;
        if (prev === 10) ctx |= PREV_NL;
        if (cp === 10) ctx |= NEXT_NL;
        if (isWordCp(prev)) ctx |= PREV_WORD;
        if (isWordCp(cp)) ctx |= NEXT_WORD;
      }
      const cl = st.byCtx[ctx] ?? this.#closure(st, ctx);
      if (cl.match) return true;
      if (cp < 0) return false;
      let next = cp < 128 ? cl.ascii[cp] : cl.other.get(cp);
      if (next === undefined) {
        if (this.#dfa.size >= MAX_DFA_STATES) return this.search(codePoints(s).cps, 0, true) !== undefined;
        const pcs: number[] = [0];
        for (const pc of cl.chars) if ((this.#insts[pc] as { test: CharTest }).test(cp)) pcs.push(pc + 1);
        next = this.#state(pcs);
        if (cp < 128) cl.ascii[cp] = next;
        else cl.other.set(cp, next);
      }
      st = next;
      prev = cp;
      i += cp > 0xffff ? 2 : 1;
    }
  }

  #state(pcs: number[]): DfaState {
    const sorted = [...new Set(pcs)].sort((a, b) => a - b);
    const key = sorted.join(',');
    let st = this.#dfa.get(key);
    if (!st) this.#dfa.set(key, (st = { pcs: sorted, byCtx: [] }));
    return st;
  }

  #closure(st: DfaState, ctx: number): DfaClosure {
    const insts = this.#insts;
    const seen = new Set<number>();
    const chars: number[] = [];
    let match = false;
    const stack = [...st.pcs];
    while (stack.length) {
      const pc = stack.pop()!;
      if (seen.has(pc)) continue;
      seen.add(pc);
      const inst = insts[pc]!;
      switch (inst.op) {
        case 'jmp':
          stack.push(inst.x);
          break;
        case 'split':
          stack.push(inst.y, inst.x);
          break;
        case 'assert': {
          let ok: boolean;
          switch (inst.kind) {
            case 'bol': ok = (ctx & (AT_START | PREV_NL)) !== 0; break;
            case 'eol': ok = (ctx & (AT_END | NEXT_NL)) !== 0; break;
            case 'bot': ok = (ctx & AT_START) !== 0; break;
            case 'eot': ok = (ctx & AT_END) !== 0; break;
            case 'wb': ok = !(ctx & PREV_WORD) !== !(ctx & NEXT_WORD); break;
            default: ok = !(ctx & PREV_WORD) === !(ctx & NEXT_WORD);
          }
          if (ok) stack.push(pc + 1);
          break;
        }
        case 'match':
          match = true;
          break;
        default:
          chars.push(pc);
      }
    }
    const cl: DfaClosure = { match, chars, ascii: [], other: new Map() };
    st.byCtx[ctx] = cl;
    return cl;
  }

  /** Leftmost-first match at or after code point `from`: [start, end] in code points, or undefined. */
  search(cps: readonly number[], from: number, anyMatch = false): [number, number] | undefined {
    const insts = this.#insts;
    const n = insts.length;
    const len = cps.length;
    let cpcs = new Int32Array(n);
    let cstarts = new Int32Array(n);
    let ccount = 0;
    let npcs = new Int32Array(n);
    let nstarts = new Int32Array(n);
    let ncount = 0;
    const mark = new Int32Array(n).fill(-1);
    let gen = 0;
    const stackPc: number[] = [];
    const stackStart: number[] = [];
    let matched: [number, number] | undefined;

    const assertOk = (kind: string, pos: number): boolean => {
      switch (kind) {
        case 'bol':
          return pos === 0 || cps[pos - 1] === 10;
        case 'eol':
          return pos === len || cps[pos] === 10;
        case 'bot':
          return pos === 0;
        case 'eot':
          return pos === len;
        case 'wb':
          return isWordCp(cps[pos - 1]) !== isWordCp(cps[pos]);
        default:
          return isWordCp(cps[pos - 1]) === isWordCp(cps[pos]);
      }
    };
    // Adds the epsilon closure of pc to the "next" list (priority order = DFS order, x before y).
    const add = (pc0: number, start0: number, pos: number, toNext: boolean) => {
      stackPc.push(pc0);
      stackStart.push(start0);
      while (stackPc.length) {
        const pc = stackPc.pop()!;
        const st = stackStart.pop()!;
        if (mark[pc] === gen) continue;
        mark[pc] = gen;
        const inst = insts[pc]!;
        switch (inst.op) {
          case 'jmp':
            stackPc.push(inst.x);
            stackStart.push(st);
            break;
          case 'split':
            stackPc.push(inst.y, inst.x);
            stackStart.push(st, st);
            break;
          case 'assert':
            if (assertOk(inst.kind, pos)) {
              stackPc.push(pc + 1);
              stackStart.push(st);
            }
            break;
          default:
            if (toNext) {
              npcs[ncount] = pc;
              nstarts[ncount++] = st;
            } else {
              cpcs[ccount] = pc;
              cstarts[ccount++] = st;
            }
        }
      }
    };

    gen++;
    for (let pos = from; ; pos++) {
      // A new thread starting here has the lowest priority; none once a match is known.
      if (!matched) add(0, pos, pos, false);
      gen++;
      ncount = 0;
      const cp = pos < len ? cps[pos]! : -1;
      for (let i = 0; i < ccount; i++) {
        const inst = insts[cpcs[i]!]!;
        if (inst.op === 'match') {
          matched = [cstarts[i]!, pos];
          if (anyMatch) return matched;
          break; // lower-priority threads are cut off
        }
        if (inst.op === 'char' && cp >= 0 && inst.test(cp)) add(cpcs[i]! + 1, cstarts[i]!, pos + 1, true);
      }
      [cpcs, npcs] = [npcs, cpcs];
      [cstarts, nstarts] = [nstarts, cstarts];
      ccount = ncount;
      if (pos >= len || (ccount === 0 && matched)) break;
    }
    return matched;
  }
}

/** Code points of s and the UTF-16 offset of each (plus the end). */
function codePoints(s: string): { cps: number[]; offs: number[] } {
  const cps: number[] = [];
  const offs: number[] = [];
  for (let i = 0; i < s.length; ) {
    const cp = s.codePointAt(i)!;
    cps.push(cp);
    offs.push(i);
    i += cp > 0xffff ? 2 : 1;
  }
  offs.push(s.length);
  return { cps, offs };
}

/**
 * A RegExp whose exec()/test() run the linear-time RE2 program (RegExp.prototype.test and the String
 * methods call exec). Not global: every exec searches from the start of the input. Its `source` is the RE2
 * pattern as written (no JavaScript translation of it is made).
 */
export class RE2RegExp extends RegExp {
  readonly #pattern: string;
  constructor(
    pattern: string,
    flags: string,
    readonly program: RE2Program,
  ) {
    super('(?:)', flags);
    this.#pattern = pattern;
  }
  override test(s: string): boolean {
    return this.program.test(String(s));
  }
  override exec(s: string): RegExpExecArray | null {
    const { cps, offs } = codePoints(String(s));
    const m = this.program.search(cps, 0);
    if (!m) return null;
    const text = String(s).slice(offs[m[0]], offs[m[1]]);
    return Object.assign([text], { index: offs[m[0]]!, input: String(s), groups: undefined }) as RegExpExecArray;
  }
  static {
    // RegExp.prototype.source is an accessor; TypeScript types it as a field, so it is redefined here
    Object.defineProperty(this.prototype, 'source', {
      get(this: RE2RegExp) {
        return this.#pattern;
      },
    });
  }
}

const CACHE_LIMIT = 512;
const cache = new Map<string, RE2RegExp | RegexSyntaxError>();

function compiled(pattern: string): RE2RegExp {
  let entry = cache.get(pattern);
  if (entry === undefined) {
    try {
      const node = new Parser(pattern).parse();
      entry = new RE2RegExp(pattern, flagsOf(node), new RE2Program(node));
    } catch (e) {
      if (!(e instanceof RegexSyntaxError)) throw e;
      entry = e;
    }
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    cache.set(pattern, entry);
  }
  if (entry instanceof RegexSyntaxError) throw entry;
  return entry;
}

/**
 * Compiles an RE2 pattern (cached). The result is a non-global RegExp whose test()/exec() match in
 * linear time with RE2 semantics. Throws RegexSyntaxError with Go's message.
 */
export function compileRE2(pattern: string): RegExp {
  return compiled(pattern);
}

/** Returns the Go error text for an invalid pattern, or undefined when it compiles. */
export function validateRE2(pattern: string): string | undefined {
  try {
    compiled(pattern);
    return undefined;
  } catch (e) {
    if (e instanceof RegexSyntaxError) return e.message;
    throw e;
  }
}

/** CEL `matches`: true when the pattern matches anywhere in s (RE2 semantics, unanchored). */
export function matches(s: string, pattern: string): boolean {
  return compiled(pattern).program.test(s);
}

/** Kubernetes `find`: the leftmost match, or '' when there is none. */
export function find(s: string, pattern: string): string {
  const prog = compiled(pattern).program;
  const { cps, offs } = codePoints(s);
  const m = prog.search(cps, 0);
  return m ? s.slice(offs[m[0]], offs[m[1]]) : '';
}

/**
 * Kubernetes `findAll` (Go FindAllString): successive non-overlapping matches; an empty match right
 * after a previous match is skipped; limit < 0 means all, limit 0 gives none.
 */
export function findAll(s: string, pattern: string, limit = -1): string[] {
  const prog = compiled(pattern).program;
  const out: string[] = [];
  if (limit === 0) return out;
  const { cps, offs } = codePoints(s);
  let pos = 0;
  let prevEnd = -1;
  while (pos <= cps.length && (limit < 0 || out.length < limit)) {
    const m = prog.search(cps, pos);
    if (!m) break;
    const [start, end] = m;
    let accept = true;
    if (end === start) {
      if (start === prevEnd) accept = false;
      pos = start + 1; // advance one code point past the empty match
    } else pos = end;
    prevEnd = end;
    if (accept) out.push(s.slice(offs[start], offs[end]));
  }
  return out;
}

/** Error text the Kubernetes regex library reports for a bad pattern in find/findAll. */
export function illegalRegexMessage(err: RegexSyntaxError): string {
  return `Illegal regex: ${err.message}`;
}
