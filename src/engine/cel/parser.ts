// CEL lexer and recursive-descent parser (grammar of the CEL language definition), with macro expansion at
// parse time as cel-go does it (has, all, exists, exists_one, map, filter, two-variable comprehensions,
// optMap, optFlatMap).

import type { CallExpr, ComprehensionExpr, Expr, ListExpr, MapEntry, StructField } from './ast.js';
import { ACCU_VAR, Source, makeIssue, type CelIssue } from './ast.js';
import { CelUint } from './values.js';

type TokKind = 'int' | 'uint' | 'double' | 'string' | 'bytes' | 'ident' | 'op' | 'eof';
const RESERVED = new Set([
  'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package',
  'namespace', 'return', 'var', 'void', 'while',
]);

/** The one-character operators by char code (constant strings, no lookup of a string cut per operator). */
const ONE_CHAR_OPS: (string | undefined)[] = [];
for (const op of ['<', '>', '!', '+', '-', '*', '/', '%', '?', ':', '.', ',', '(', ')', '[', ']', '{', '}']) ONE_CHAR_OPS[op.charCodeAt(0)] = op;

export interface ParseOptions {
  /** Enables the two-variable comprehension macros (compatibility version >= 1.33). */
  twoVarComprehensions?: boolean;
  /** Enables `.?`, `[?`, `?key:` optional syntax and optMap/optFlatMap (1.29+). */
  optionalSyntax?: boolean;
  maxRecursionDepth?: number;
  /**
   * Deepest syntax tree accepted (default MAX_AST_DEPTH). cel-go bounds only nested expressions (the
   * recursion limit); chains of operators, selections and indexes nest the tree as deep as the text is
   * long, which Go's growing stacks absorb and a JS stack does not.
   */
  maxAstDepth?: number;
  /** Backtick-quoted field names (`a.\`b-c\``); cel-go opt-in, not enabled by Kubernetes 1.33. */
  identEscapeSyntax?: boolean;
  /** Maximum expression length in code points (cel-go default 100,000). */
  maxLength?: number;
}

export interface ParseResult {
  expr?: Expr;
  errors: CelIssue[];
  source: Source;
  /** Next free node id. */
  nextId: number;
  /**
   * Whether the tree has a node the AST validators look at (validators.ts: a list or map literal of two or
   * more elements, a call of duration, timestamp, matches or format); without one they have nothing to
   * report (they compare a literal's elements with its first: the empty lists and maps and the one-element
   * lists of the macros are left unmarked).
   */
  validate?: boolean;
  /**
   * With `validate`: the nodes the validators look at (those literals and calls), for a check of only
   * them; undefined when the tree has a call of format (whose arguments the validators exempt: the whole
   * walk then).
   */
  marks?: Expr[];
}

class ParseError extends Error {
  constructor(readonly offset: number, readonly length: number, message: string) {
    super(message);
  }
}

function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}
function isHex(c: string): boolean {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/** [A-Za-z0-9_] by UTF-16 code unit. */
function isIdentCode(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

/**
 * Identifier texts seen before, by a hash of their characters (made while the lexer scans them): the same
 * name lexed again is the same string, whose hash the engine has already computed, so the lookups of the
 * name that follow (reserved words, variables, field types, overloads) do not hash a fresh copy. A fixed
 * table (a newer name takes the slot of an older one with the same hash bits): bounded, and only ever
 * answers a string equal to the text. A long name cut from a long text is not kept: engines may make such
 * a cut a view of the whole text, which the table would then keep alive (so a slot holds at most ~1 KB).
 */
const IDENT_SLOTS = 1024;
/** The bigints of the int literals 0..1023, made on first use. */
const SMALL_INTS: (bigint | undefined)[] = new Array(1024);
const identTable: (string | undefined)[] = new Array(IDENT_SLOTS);
function identText(text: string, start: number, end: number, h: number): string {
  if (end - start > 12 && text.length > 512) return text.slice(start, end);
  const slot = h & (IDENT_SLOTS - 1);
  const known = identTable[slot];
  if (known !== undefined && known.length === end - start && text.startsWith(known, start)) return known;
  return (identTable[slot] = text.slice(start, end));
}

/** An error of the lexer that ends the parse whatever came before it (a bad string literal, an open backtick). */
class LexError extends ParseError {}

/** A token kept past the parser's current one (error messages only). */
interface Token {
  kind: TokKind;
  text: string;
  value?: unknown;
  offset: number;
  end: number;
}

/** Index of the character that makes the escape at `i` invalid, or -1 when it is valid. */
function badEscape(text: string, i: number): number {
  const e = text[i + 1];
  if (e === undefined) return i;
  if ('abfnrtv\\\'"?`'.includes(e)) return -1;
  const hexRun = (from: number, n: number): number => {
    for (let k = 0; k < n; k++) if (!isHex(text[from + k] ?? '')) return from + k;
    return -1;
  };
  if (e === 'x' || e === 'X') return hexRun(i + 2, 2);
  if (e === 'u') return hexRun(i + 2, 4);
  if (e === 'U') return hexRun(i + 2, 8);
  if (e >= '0' && e <= '3') {
    for (let k = 2; k <= 3; k++) {
      const ch = text[i + k] ?? '';
      if (!(ch >= '0' && ch <= '7')) return i + k;
    }
    return -1;
  }
  return i + 1;
}

function isStrStart(text: string, i: number): boolean {
  // prefixes: r, b, rb, br (any case), followed by a quote
  let j = i;
  let seenR = false, seenB = false;
  while (j < text.length && j - i < 2) {
    const ch = text[j];
    if ((ch === 'r' || ch === 'R') && !seenR) seenR = true;
    else if ((ch === 'b' || ch === 'B') && !seenB) seenB = true;
    else break;
    j++;
  }
  return j > i && (text[j] === '"' || text[j] === "'");
}

function utf8(s: string): Uint8Array {
  return new TextEncoder().encode(s);
}

function unescape(body: string, bytes: boolean, at: number): string | Uint8Array {
  // a string without escapes is its own value (the loop below would rebuild it code point by code point)
  if (!bytes && !body.includes('\\')) return body;
  const out: number[] = []; // code points (string) or bytes
  const pushCp = (cp: number) => {
    if (bytes) {
      for (const b of utf8(String.fromCodePoint(cp))) out.push(b);
    } else out.push(cp);
  };
  for (let i = 0; i < body.length; ) {
    const cp = body.codePointAt(i)!;
    if (body[i] !== '\\') {
      pushCp(cp);
      i += cp > 0xffff ? 2 : 1;
      continue;
    }
    const e = body[i + 1];
    i += 2;
    switch (e) {
      case 'a': pushCp(7); break;
      case 'b': pushCp(8); break;
      case 'f': pushCp(12); break;
      case 'n': pushCp(10); break;
      case 'r': pushCp(13); break;
      case 't': pushCp(9); break;
      case 'v': pushCp(11); break;
      case '\\': pushCp(92); break;
      case "'": pushCp(39); break;
      case '"': pushCp(34); break;
      case '`': pushCp(96); break;
      case '?': pushCp(63); break;
      case 'x':
      case 'X': {
        const h = body.slice(i, i + 2);
        if (!/^[0-9a-fA-F]{2}$/.test(h)) throw new LexError(at, body.length, 'invalid escape sequence');
        i += 2;
        if (bytes) out.push(parseInt(h, 16));
        else out.push(parseInt(h, 16));
        break;
      }
      case 'u':
      case 'U': {
        const len = e === 'u' ? 4 : 8;
        const h = body.slice(i, i + len);
        if (h.length !== len || !/^[0-9a-fA-F]+$/.test(h)) throw new LexError(at, body.length, 'invalid escape sequence');
        i += len;
        const v = parseInt(h, 16);
        if ((v >= 0xd800 && v <= 0xdfff) || v > 0x10ffff) throw new LexError(at, body.length, 'invalid unicode code point');
        if (bytes) throw new LexError(at, body.length, 'unicode escape in bytes literal');
        pushCp(v);
        break;
      }
      default: {
        if (e >= '0' && e <= '3') {
          const o = body.slice(i - 1, i + 2);
          if (!/^[0-3][0-7][0-7]$/.test(o)) throw new LexError(at, body.length, 'invalid escape sequence');
          i += 2;
          out.push(parseInt(o, 8));
          break;
        }
        throw new LexError(at, body.length, `invalid escape sequence`);
      }
    }
  }
  if (bytes) return new Uint8Array(out);
  let s = '';
  for (const cp of out) s += String.fromCodePoint(cp);
  return s;
}

const MAX_INT = 2n ** 63n - 1n;

const PRIMARY_EXPECTED = "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";
const MAP_EXPECTED = "{'[', '{', '}', '(', '.', ',', '-', '!', '?', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";
const STRUCT_EXPECTED = "{'}', ',', '?', IDENTIFIER, ESC_IDENTIFIER}";

/**
 * How deep a parsed expression may nest (operators, selections, indexes, calls, literals, macros), so the
 * recursive checker, cost estimator and interpreter stay well inside the JS stack.
 */
export const MAX_AST_DEPTH = 500;

/** The first node found deeper than `limit`, walked without recursion (linear in the tree's size). */
export function nodeBeyondDepth(root: Expr, limit: number): Expr | undefined {
  // an explicit stack (nodes and their depths side by side), no recursion: the tree may be deeper than
  // the host's stack
  const nodes: Expr[] = [root];
  const depths: number[] = [1];
  while (nodes.length) {
    const e = nodes.pop()!;
    const d = depths.pop()!;
    if (d > limit) return e;
    const n = nodes.length;
    switch (e.kind) {
      case 'select': nodes.push(e.operand); break;
      case 'call':
        if (e.target) nodes.push(e.target);
        for (let i = 0; i < e.args.length; i++) nodes.push(e.args[i]);
        break;
      case 'list': for (let i = 0; i < e.elems.length; i++) nodes.push(e.elems[i]); break;
      case 'map': for (const en of e.entries) nodes.push(en.key, en.value); break;
      case 'struct': for (const f of e.fields) nodes.push(f.value); break;
      case 'comprehension': nodes.push(e.iterRange, e.accuInit, e.loopCond, e.loopStep, e.result); break;
      default: break;
    }
    for (let i = n; i < nodes.length; i++) depths.push(d + 1);
  }
  return undefined;
}

export class Parser {
  // The lexer runs on demand: the parser sees one token at a time, held in these fields (no token objects,
  // no token array). `pos` is where the lexer goes on; `po`/`pe` are the span of the token consumed last.
  #text = '';
  #pos = 0;
  #tk: TokKind = 'eof';
  #tt = '';
  #tv: unknown = undefined;
  #to = 0;
  #te = 0;
  #po = 0;
  #pe = 0;
  /** The first character the lexer skipped as unrecognised (reported in source order with parse errors). */
  #lexErr: ParseError | undefined;
  #id = 1;
  #depth = 0;
  /** See ParseResult.validate. */
  #validate = false;
  /** See ParseResult.marks (undefined until a node is marked; `null` after a call of format). */
  #marks: Expr[] | undefined | null;
  readonly #opts: ParseOptions;
  #src!: Source;
  constructor(opts: ParseOptions = {}) {
    this.#opts = opts;
  }

  parse(text: string, description?: string): ParseResult {
    this.#src = new Source(text, description);
    this.#text = text;
    this.#pos = 0;
    this.#lexErr = undefined;
    this.#validate = false;
    this.#marks = undefined;
    this.#id = 1;
    this.#depth = 0;
    try {
      const cps = text.length > (this.#opts.maxLength ?? 100000) ? [...text].length : 0;
      if (cps > (this.#opts.maxLength ?? 100000)) {
        throw new ParseError(0, 0, `expression code point size exceeds limit: size: ${cps}, limit ${this.#opts.maxLength ?? 100000}`);
      }
      let e: Expr;
      try {
        this.#scan();
        e = this.#expr();
        if (this.#tk !== 'eof') throw this.#errHere(`Syntax error: mismatched input '${this.#tt}' expecting <EOF>`);
      } catch (err) {
        if (err instanceof LexError) throw err;
        // the rest of the text is lexed as a whole-text lexer would have done before parsing: a bad literal
        // anywhere wins (it throws from here); otherwise whichever error comes first in the source
        while (this.#tk !== 'eof') this.#scan();
        if (!(err instanceof ParseError)) throw err;
        const lexErr = this.#lexErr as ParseError | undefined;
        if (lexErr && lexErr.offset < err.offset) throw lexErr;
        throw err;
      }
      if (this.#lexErr) throw this.#lexErr;
      const maxAst = this.#opts.maxAstDepth ?? MAX_AST_DEPTH;
      // every node has its own id and a path from the root visits distinct nodes: a tree of at most maxAst
      // nodes cannot be deeper than maxAst (saves the walk for ordinary expressions)
      const deep = this.#id - 1 <= maxAst ? undefined : nodeBeyondDepth(e, maxAst);
      if (deep) throw new ParseError(deep.offset, deep.length, `expression nesting limit exceeded: ${maxAst}`);
      return { expr: e, errors: [], source: this.#src, nextId: this.#id, validate: this.#validate, marks: this.#marks ?? undefined };
    } catch (e) {
      if (e instanceof ParseError) {
        return { errors: [makeIssue(this.#src, e.offset, e.length, e.message)], source: this.#src, nextId: this.#id };
      }
      throw e;
    }
  }

  // ---- lexer ---------------------------------------------------------------------------------------

  #tok(kind: TokKind, start: number, end: number, text: string, value: unknown): void {
    this.#tk = kind;
    this.#to = start;
    this.#te = this.#pos = end;
    this.#tt = text;
    this.#tv = value;
  }

  /** Lexes the next token into the current-token fields. */
  #scan(): void {
    const text = this.#text;
    const n = text.length;
    let i = this.#pos;
    for (;;) {
      if (i >= n) return this.#tok('eof', n, n, '<EOF>', undefined);
      const cc = text.charCodeAt(i);
      if (cc === 32 || cc === 9 || cc === 10 || cc === 13 || cc === 12) {
        i++;
        continue;
      }
      // identifiers first (the most common token): a letter or '_' that does not start a string literal
      // (r"...", b'...') starts no comment, number or other token either
      if (((cc >= 97 && cc <= 122) || (cc >= 65 && cc <= 90) || cc === 95) && !((cc === 114 || cc === 82 || cc === 98 || cc === 66) && isStrStart(text, i))) {
        const start = i++;
        let h = cc;
        for (let k; i < n && isIdentCode((k = text.charCodeAt(i))); i++) h = (h * 31 + k) | 0;
        return this.#tok('ident', start, i, identText(text, start, i, h), undefined);
      }
      const c = text[i];
      if (c === '/' && text[i + 1] === '/') {
        while (i < n && text[i] !== '\n') i++;
        continue;
      }
      const start = i;
      // string / bytes literals with prefixes
      if (c === '"' || c === "'" || ((c === 'r' || c === 'R' || c === 'b' || c === 'B') && isStrStart(text, i))) {
        let raw = false, bytes = false;
        while (text[i] !== '"' && text[i] !== "'") {
          if (text[i] === 'r' || text[i] === 'R') raw = true;
          else bytes = true;
          i++;
        }
        // (by char codes: the quote's, 92 the backslash, 10 and 13 the line ends)
        const q = text.charCodeAt(i);
        const triple = text.charCodeAt(i + 1) === q && text.charCodeAt(i + 2) === q;
        const dl = triple ? 3 : 1;
        i += dl;
        const bodyStart = i;
        let closed = false;
        let escapes = false;
        while (i < n) {
          const ch = text.charCodeAt(i);
          if (ch === q && (!triple || (text.charCodeAt(i + 1) === q && text.charCodeAt(i + 2) === q))) {
            closed = true;
            break;
          }
          if (ch === 92 && !raw) {
            const bad = badEscape(text, i);
            // cel-go's lexer fails on the literal: the error names the text up to the offending character
            if (bad >= 0) throw new LexError(start, 1, `Syntax error: token recognition error at: '${text.slice(start, bad + 1)}'`);
            escapes = true;
            i += 2;
            continue;
          }
          if (ch === 92 && raw) {
            // in raw strings a backslash still prevents the quote from ending the literal (as in cel-go's grammar)
            if (text.charCodeAt(i + 1) === q && !triple) {
              i += 2;
              continue;
            }
          }
          if (!triple && (ch === 10 || ch === 13)) break;
          i++;
        }
        if (!closed) throw new LexError(start, i - start, `Syntax error: token recognition error at: '${text.slice(start, i + 1)}'`);
        const body = text.slice(bodyStart, i);
        i += dl;
        // a string without escapes is its own value
        const value = raw ? (bytes ? utf8(body) : body) : !escapes && !bytes ? body : unescape(body, bytes, start);
        return this.#tok(bytes ? 'bytes' : 'string', start, i, text.slice(start, i), value);
      }
      if (isDigit(c) || (c === '.' && isDigit(text[i + 1] ?? ''))) {
        // numbers
        if (c === '0' && (text[i + 1] === 'x' || text[i + 1] === 'X')) {
          i += 2;
          while (i < n && isHex(text[i])) i++;
          const v = BigInt('0x' + text.slice(start + 2, i));
          if (text[i] === 'u' || text[i] === 'U') {
            i++;
            return this.#tok('uint', start, i, text.slice(start, i), v);
          }
          return this.#tok('int', start, i, text.slice(start, i), v);
        }
        while (i < n && isDigit(text[i])) i++;
        let isFloat = false;
        if (text[i] === '.' && isDigit(text[i + 1] ?? '')) {
          isFloat = true;
          i++;
          while (i < n && isDigit(text[i])) i++;
        }
        if ((text[i] === 'e' || text[i] === 'E') && (isDigit(text[i + 1] ?? '') || ((text[i + 1] === '+' || text[i + 1] === '-') && isDigit(text[i + 2] ?? '')))) {
          isFloat = true;
          i += 2;
          while (i < n && isDigit(text[i])) i++;
        }
        const t = text.slice(start, i);
        if (isFloat) return this.#tok('double', start, i, t, Number(t));
        if (text[i] === 'u' || text[i] === 'U') {
          i++;
          return this.#tok('uint', start, i, text.slice(start, i), BigInt(t));
        }
        // up to 15 digits the number is exact, and a bigint made from it is cheaper than one parsed from text;
        // the small ones are made once (a bigint is a value: the same one serves every literal)
        if (t.length > 15) return this.#tok('int', start, i, t, BigInt(t));
        const num = Number(t);
        return this.#tok('int', start, i, t, num < SMALL_INTS.length ? (SMALL_INTS[num] ??= BigInt(num)) : BigInt(num));
      }
      if (c === '`') {
        // backtick-quoted identifiers (field names with special characters, cel-go >= 0.22)
        i++;
        while (i < n && text[i] !== '`') i++;
        if (i >= n) throw new LexError(start, 1, `Syntax error: token recognition error at: '${text.slice(start)}'`);
        i++;
        return this.#tok('ident', start, i, text.slice(start, i), 'quoted');
      }
      // the two-character operators by char codes (== != <= >= && || .? [?), as constant strings: no string
      // cut and hashed per operator, and the parser's comparisons of token texts meet the same strings
      const c2 = text.charCodeAt(i + 1);
      let op: string | undefined =
        c2 === 61 ? (cc === 61 ? '==' : cc === 33 ? '!=' : cc === 60 ? '<=' : cc === 62 ? '>=' : undefined)
        : c2 === 38 ? (cc === 38 ? '&&' : undefined)
        : c2 === 124 ? (cc === 124 ? '||' : undefined)
        : c2 === 63 ? (cc === 46 ? '.?' : cc === 91 ? '[?' : undefined)
        : undefined;
      if (op === undefined) op = ONE_CHAR_OPS[cc];
      if (!op) {
        // ANTLR consumes one more character when the first could start a two-character operator (`| `, `= `);
        // the lexer error is reported in source order with parse errors (ANTLR lexes lazily), so the first
        // is kept and the character skipped
        const bad = '|&='.includes(c) && i + 1 < n ? text.slice(i, i + 2) : String.fromCodePoint(text.codePointAt(i)!);
        this.#lexErr ??= new ParseError(start, 1, `Syntax error: token recognition error at: '${bad}'`);
        i += bad.length;
        continue;
      }
      return this.#tok('op', start, i + op.length, op, undefined);
    }
  }

  /** Consumes the current token (its span stays in po/pe) and lexes the next; at the end it stays at eof. */
  #advance(): void {
    this.#po = this.#to;
    this.#pe = this.#te;
    if (this.#tk !== 'eof') this.#scan();
  }
  /** The current token as an object, consumed (for error messages that name it after a look past it). */
  #take(): Token {
    const t: Token = { kind: this.#tk, text: this.#tt, value: this.#tv, offset: this.#to, end: this.#te };
    this.#advance();
    return t;
  }

  #err(t: Token, msg: string): ParseError {
    return new ParseError(t.offset, t.end - t.offset, msg);
  }
  /** An error at the current token. */
  #errHere(msg: string): ParseError {
    return new ParseError(this.#to, this.#te - this.#to, msg);
  }
  /**
   * ANTLR's wording for an unexpected token: "extraneous input" when the token after it would fit (single
   * token deletion), otherwise "mismatched input". `t` has been consumed.
   */
  #unexpected(t: Token, expected: string, identOnly = false): ParseError {
    const text = t.kind === 'eof' ? '<EOF>' : t.text;
    const kind = t.kind !== 'eof' && (identOnly ? this.#tk === 'ident' : this.#startsPrimary()) ? 'extraneous' : 'mismatched';
    return this.#err(t, `Syntax error: ${kind} input '${text}' expecting ${expected}`);
  }

  /** Whether the current token can start a primary expression. */
  #startsPrimary(): boolean {
    switch (this.#tk) {
      case 'int':
      case 'uint':
      case 'double':
      case 'string':
      case 'bytes':
        return true;
      case 'ident':
        return this.#tt !== 'in';
      case 'op':
        return ['[', '[?', '{', '(', '.', '-', '!'].includes(this.#tt);
      default:
        return false;
    }
  }

  #isOp(text: string): boolean {
    return this.#tk === 'op' && this.#tt === text;
  }
  /** Consumes the operator `text` when it is the current token. */
  #accept(text: string): boolean {
    if (this.#tk === 'op' && this.#tt === text) {
      this.#advance();
      return true;
    }
    return false;
  }
  /** Consumes the operator `text` (its span in po/pe) or fails at the current token. */
  #expect(text: string): void {
    if (this.#tk === 'op' && this.#tt === text) return this.#advance();
    throw this.#errHere(`Syntax error: mismatched input '${this.#tt}' expecting '${text}'`);
  }
  #nid(): number {
    return this.#id++;
  }
  #call(fn: string, offset: number, args: Expr[], target?: Expr, length = 1): CallExpr {
    const c: CallExpr = { kind: 'call', id: this.#nid(), offset, length, fn, args };
    if (target) c.target = target;
    if (fn === 'matches' || fn === 'duration' || fn === 'timestamp') this.#mark(c);
    else if (fn === 'format') {
      this.#validate = true;
      this.#marks = null;
    }
    return c;
  }
  /** A node the validators look at (see ParseResult.validate and marks). */
  #mark(e: Expr): void {
    this.#validate = true;
    if (this.#marks !== null) (this.#marks ??= []).push(e);
  }

  #expr(): Expr {
    if (++this.#depth > (this.#opts.maxRecursionDepth ?? 250)) {
      throw this.#errHere('expression recursion limit exceeded: 250');
    }
    const cond = this.#or();
    let r = cond;
    if (this.#tk === 'op' && this.#tt === '?') {
      const qo = this.#to;
      this.#advance();
      const a = this.#or();
      this.#expect(':');
      const b = this.#expr();
      r = this.#call('_?_:_', qo, [cond, a, b]);
    }
    this.#depth--;
    return r;
  }
  #or(): Expr {
    let l = this.#and();
    while (this.#tk === 'op' && this.#tt === '||') {
      const o = this.#to;
      this.#advance();
      l = this.#call('_||_', o, [l, this.#and()], undefined, 2);
    }
    return l;
  }
  #and(): Expr {
    let l = this.#relation();
    while (this.#tk === 'op' && this.#tt === '&&') {
      const o = this.#to;
      this.#advance();
      l = this.#call('_&&_', o, [l, this.#relation()], undefined, 2);
    }
    return l;
  }
  #relation(): Expr {
    let l = this.#addition();
    for (;;) {
      let fn: string | undefined;
      if (this.#tk === 'op') {
        const t = this.#tt;
        fn = t === '==' ? '_==_' : t === '<=' ? '_<=_' : t === '<' ? '_<_' : t === '>' ? '_>_' : t === '>=' ? '_>=_' : t === '!=' ? '_!=_' : undefined;
      } else if (this.#tk === 'ident' && this.#tt === 'in') fn = '@in';
      if (!fn) return l;
      const o = this.#to, len = this.#te - this.#to;
      this.#advance();
      l = this.#call(fn, o, [l, this.#addition()], undefined, len);
    }
  }
  #addition(): Expr {
    let l = this.#multiplication();
    for (;;) {
      if (this.#tk === 'op' && (this.#tt === '+' || this.#tt === '-')) {
        const fn = this.#tt === '+' ? '_+_' : '_-_', o = this.#to;
        this.#advance();
        l = this.#call(fn, o, [l, this.#multiplication()]);
      } else return l;
    }
  }
  #multiplication(): Expr {
    let l = this.#unary();
    for (;;) {
      if (this.#tk === 'op' && (this.#tt === '*' || this.#tt === '/' || this.#tt === '%')) {
        const fn = this.#tt === '*' ? '_*_' : this.#tt === '/' ? '_/_' : '_%_', o = this.#to;
        this.#advance();
        l = this.#call(fn, o, [l, this.#unary()]);
      } else return l;
    }
  }
  #unary(): Expr {
    if (this.#tk !== 'op' || (this.#tt !== '!' && this.#tt !== '-')) return this.#member();
    if (this.#tt === '!') {
      const first = this.#to;
      let count = 0;
      while (this.#isOp('!')) {
        count++;
        this.#advance();
      }
      const e = this.#member();
      // like cel-go, an even run of `!` cancels out and an odd one is a single call (no deep chain)
      return count % 2 === 0 ? e : this.#call('!_', first, [e]);
    }
    const first = this.#to;
    let count = 0;
    while (this.#isOp('-')) {
      count++;
      this.#advance();
    }
    // a minus directly before a numeric literal is part of the literal (grammar: literal with sign)
    let e: Expr;
    if (((this.#tk as TokKind) === 'int' || (this.#tk as TokKind) === 'double') && this.#pe === this.#to) {
      const sign = this.#po;
      count--;
      e = this.#numberLiteral(true, sign);
      e = this.#memberSuffix(e);
    } else e = this.#member();
    // as for `!`: an even run of `-` cancels out, an odd one is a single negation
    return count % 2 === 0 ? e : this.#call('-_', first, [e]);
  }

  /** The current token (a number) as a literal, consumed. */
  #numberLiteral(neg: boolean, start: number): Expr {
    const offset = start;
    const length = this.#te - start;
    const kind = this.#tk, value = this.#tv;
    this.#advance();
    if (kind === 'int') {
      let v = value as bigint;
      if (neg) v = -v;
      if (v > MAX_INT || v < -MAX_INT - 1n) throw new ParseError(offset, length, 'invalid int literal');
      return { kind: 'literal', id: this.#nid(), offset, length, value: v };
    }
    if (kind === 'uint') {
      const v = value as bigint;
      if (v > 2n ** 64n - 1n) throw new ParseError(offset, length, 'invalid uint literal');
      return { kind: 'literal', id: this.#nid(), offset, length, value: new CelUint(v) };
    }
    const d = value as number;
    if (!Number.isFinite(d)) throw new ParseError(offset, length, 'invalid double literal');
    return { kind: 'literal', id: this.#nid(), offset, length, value: neg ? -d : d };
  }

  #member(): Expr {
    return this.#memberSuffix(this.#primary());
  }

  #memberSuffix(e: Expr): Expr {
    for (;;) {
      if (this.#tk !== 'op') return e;
      const op = this.#tt, o = this.#to;
      if (op === '.' || op === '.?') {
        this.#advance();
        const idText = this.#tt, idOffset = this.#to, idEnd = this.#te;
        if ((this.#tk as TokKind) !== 'ident') throw this.#err(this.#take(), `Syntax error: no viable alternative at input '${op}${idText}'`);
        if (idText === 'true' || idText === 'false' || idText === 'null' || idText === 'in') {
          throw this.#err(this.#take(), `Syntax error: mismatched input '${idText}' expecting IDENTIFIER`);
        }
        // backtick-escaped field names need an option Kubernetes does not enable
        const quoted = this.#tv === 'quoted';
        if (quoted && !this.#opts.identEscapeSyntax) throw this.#err(this.#take(), "unsupported syntax: '`'");
        this.#advance();
        const name = quoted ? idText.slice(1, -1) : idText;
        if (op === '.?') {
          if (!this.#opts.optionalSyntax) throw new ParseError(o, 2, `unsupported syntax '.?'`);
          e = this.#call('_?._', o, [e, { kind: 'literal', id: this.#nid(), offset: idOffset, length: idEnd - idOffset, value: name }]);
          continue;
        }
        if (this.#isOp('(')) {
          const open = this.#to;
          this.#advance();
          const args = this.#args(')');
          e = this.#receiverCall(name, e, args, open, idOffset);
        } else {
          e = { kind: 'select', id: this.#nid(), offset: o, length: idEnd - o, operand: e, field: name };
        }
        continue;
      }
      if (op === '[' || op === '[?') {
        if (op === '[?' && !this.#opts.optionalSyntax) throw this.#errHere(`unsupported syntax '[?'`);
        this.#advance();
        const idx = this.#expr();
        this.#expect(']');
        e = this.#call(op === '[' ? '_[_]' : '_[?_]', o, [e, idx]);
        continue;
      }
      if (op === '{') {
        const name = this.#structName(e);
        if (name === undefined) return e;
        this.#advance();
        e = this.#structBody(name, o, e.offset);
        continue;
      }
      return e;
    }
  }

  // `a.b.C{...}` message construction: the prefix must be a (qualified) identifier.
  #structName(e: Expr): string | undefined {
    if (e.kind === 'ident') return e.name;
    if (e.kind === 'select' && !e.testOnly) {
      const p = this.#structName(e.operand);
      return p === undefined ? undefined : `${p}.${e.field}`;
    }
    return undefined;
  }

  #primary(): Expr {
    const o = this.#to, end = this.#te;
    switch (this.#tk) {
      case 'int':
      case 'uint':
      case 'double':
        return this.#numberLiteral(false, o);
      case 'string':
      case 'bytes': {
        const value = this.#tv as string;
        this.#advance();
        return { kind: 'literal', id: this.#nid(), offset: o, length: end - o, value };
      }
      case 'ident': {
        const name = this.#tt;
        if (name === 'true' || name === 'false') {
          this.#advance();
          return { kind: 'literal', id: this.#nid(), offset: o, length: end - o, value: name === 'true' };
        }
        if (name === 'null') {
          this.#advance();
          return { kind: 'literal', id: this.#nid(), offset: o, length: 4, value: null };
        }
        if (name === 'in') throw this.#unexpected(this.#take(), PRIMARY_EXPECTED);
        if (RESERVED.has(name)) throw this.#errHere(`reserved identifier: ${name}`);
        if (this.#tv === 'quoted') throw this.#errHere(`Syntax error: mismatched input '${name}'`);
        this.#advance();
        return this.#identOrCall(name, o, end);
      }
      case 'op': {
        const op = this.#tt;
        if (op === '(') {
          this.#advance();
          const e = this.#expr();
          this.#expect(')');
          return e;
        }
        if (op === '[' || op === '[?') {
          // `[?` lexed as one token at the start of a list literal: the first element is optional, so the
          // current token becomes its `?` (the lexer goes on after it as before)
          if (op === '[?') {
            this.#tt = '?';
            this.#to = o + 1;
          } else this.#advance();
          const l: ListExpr = { kind: 'list', id: this.#nid(), offset: o, length: 1, elems: [], optionalIndices: [] };
          while (!this.#isOp(']')) {
            if (this.#isOp('?')) {
              if (!this.#opts.optionalSyntax) throw this.#errHere(`unsupported syntax '?'`);
              this.#advance();
              l.optionalIndices.push(l.elems.length);
            }
            l.elems.push(this.#expr());
            if (!this.#accept(',')) break;
          }
          this.#expect(']');
          l.length = this.#pe - o;
          // the validators compare elements two by two: a list of fewer has nothing to report itself
          if (l.elems.length > 1) this.#mark(l);
          return l;
        }
        if (op === '{') {
          this.#advance();
          const entries: MapEntry[] = [];
          if (!this.#isOp('}') && !this.#isOp('?') && !this.#startsPrimary()) throw this.#unexpected(this.#take(), MAP_EXPECTED);
          while (!this.#isOp('}')) {
            let optional = false;
            if (this.#isOp('?')) {
              if (!this.#opts.optionalSyntax) throw this.#errHere(`unsupported syntax '?'`);
              this.#advance();
              optional = true;
            }
            const k = this.#expr();
            this.#expect(':');
            const colon = this.#po;
            const v = this.#expr();
            entries.push({ key: k, value: v, optional, offset: colon });
            if (!this.#accept(',')) break;
          }
          this.#expect('}');
          const m: Expr = { kind: 'map', id: this.#nid(), offset: o, length: this.#pe - o, entries };
          if (entries.length > 1) this.#mark(m);
          return m;
        }
        if (op === '.') {
          // leading dot: root-scoped identifier
          this.#advance();
          if ((this.#tk as TokKind) !== 'ident') {
            const text = this.#tt;
            throw this.#err(this.#take(), `Syntax error: no viable alternative at input '.${text}'`);
          }
          const name = '.' + this.#tt, idEnd = this.#te;
          this.#advance();
          return this.#identOrCall(name, o, idEnd);
        }
        throw this.#unexpected(this.#take(), PRIMARY_EXPECTED);
      }
      default:
        throw this.#unexpected(this.#take(), PRIMARY_EXPECTED);
    }
  }

  #structBody(typeName: string, offset: number, start: number): Expr {
    const fields: StructField[] = [];
    while (!this.#isOp('}')) {
      const q = this.#accept('?');
      if (this.#tk !== 'ident') throw this.#unexpected(this.#take(), q ? '{IDENTIFIER, ESC_IDENTIFIER}' : STRUCT_EXPECTED, true);
      const name = this.#tv === 'quoted' ? this.#tt.slice(1, -1) : this.#tt;
      this.#advance();
      this.#expect(':');
      const colon = this.#po;
      const v = this.#expr();
      fields.push({ name, value: v, optional: q, offset: colon });
      if (!this.#accept(',')) break;
    }
    this.#expect('}');
    return { kind: 'struct', id: this.#nid(), offset, length: this.#pe - start, typeName, fields };
  }

  #args(close: string): Expr[] {
    const args: Expr[] = [];
    while (!this.#isOp(close)) {
      args.push(this.#expr());
      if (!this.#accept(',')) break;
    }
    this.#expect(close);
    return args;
  }

  /** A name just consumed (starting at `o`, ending at `end`): a global call when `(` follows, else an identifier. */
  #identOrCall(name: string, o: number, end: number): Expr {
    if (this.#isOp('(')) {
      const open = this.#to;
      this.#advance();
      return this.#globalCall(name, this.#args(')'), open, o);
    }
    return { kind: 'ident', id: this.#nid(), offset: o, length: end - o, name };
  }

  // ---- macros -------------------------------------------------------------------------------------

  #globalCall(name: string, args: Expr[], offset: number, nameOffset: number): Expr {
    if (name === 'has' && args.length === 1) {
      const a = args[0];
      if (a.kind !== 'select' || a.testOnly) throw new ParseError(a.offset, a.length, 'invalid argument to has() macro');
      // the parser makes select nodes without testOnly or optional (`.?` is a call)
      return { kind: 'select', id: this.#nid(), offset, length: a.length, operand: a.operand, field: a.field, testOnly: true };
    }
    void nameOffset;
    return this.#call(name, offset, args);
  }

  #ident(name: string, offset: number): Expr {
    return { kind: 'ident', id: this.#nid(), offset, length: 0, name };
  }
  #lit(value: boolean | bigint | null, offset: number): Expr {
    return { kind: 'literal', id: this.#nid(), offset, length: 0, value };
  }

  // cel-go macro argument errors: quantifiers say "argument must be a simple name", map/filter say
  // "argument is not an identifier".
  #varName(e: Expr, macro: string): string {
    if (e.kind !== 'ident') {
      const msg = macro === 'map' || macro === 'filter' ? 'argument is not an identifier' : 'argument must be a simple name';
      throw new ParseError(e.offset, e.length, msg);
    }
    return e.name;
  }

  #receiverCall(name: string, target: Expr, args: Expr[], offset: number, _nameOffset: number): Expr {
    const o = offset;
    const comp = (iterVar: string, init: Expr, cond: Expr, step: Expr, result: Expr, macro: string, iterVar2?: string): ComprehensionExpr => ({
      kind: 'comprehension', id: this.#nid(), offset: o, length: 1, iterVar, iterRange: target, accuVar: ACCU_VAR,
      accuInit: init, loopCond: cond, loopStep: step, result, macro, ...(iterVar2 ? { iterVar2 } : {}),
    });
    const acc = () => this.#ident(ACCU_VAR, o);
    const notStrictlyFalse = (e: Expr) => this.#call('@not_strictly_false', o, [e]);
    const two = this.#opts.twoVarComprehensions;
    const checkIter = (v: string) => {
      if (v === ACCU_VAR) throw new ParseError(args[0].offset, args[0].length, 'iteration variable overwrites accumulator variable');
      return v;
    };
    const checkVars = (a: string, b: string, _m: string) => {
      if (a === b) throw new ParseError(args[1].offset, args[1].length, `duplicate variable name: ${a}`);
      if (a === ACCU_VAR) throw new ParseError(args[0].offset, args[0].length, 'iteration variable overwrites accumulator variable');
      if (b === ACCU_VAR) throw new ParseError(args[1].offset, args[1].length, 'iteration variable overwrites accumulator variable');
    };
    switch (name) {
      case 'all':
      case 'exists': {
        if (args.length === 2) {
          const v = checkIter(this.#varName(args[0], name));
          if (name === 'all') return comp(v, this.#lit(true, o), notStrictlyFalse(acc()), this.#call('_&&_', o, [acc(), args[1]]), acc(), name);
          return comp(v, this.#lit(false, o), notStrictlyFalse(this.#call('!_', o, [acc()])), this.#call('_||_', o, [acc(), args[1]]), acc(), name);
        }
        if (args.length === 3 && two) {
          const k = this.#varName(args[0], name), v = this.#varName(args[1], name);
          checkVars(k, v, name);
          if (name === 'all') return comp(k, this.#lit(true, o), notStrictlyFalse(acc()), this.#call('_&&_', o, [acc(), args[2]]), acc(), name, v);
          return comp(k, this.#lit(false, o), notStrictlyFalse(this.#call('!_', o, [acc()])), this.#call('_||_', o, [acc(), args[2]]), acc(), name, v);
        }
        break;
      }
      case 'exists_one':
      case 'existsOne': {
        if (args.length === 2 && name === 'exists_one') {
          const v = checkIter(this.#varName(args[0], name));
          const step = this.#call('_?_:_', o, [args[1], this.#call('_+_', o, [acc(), this.#lit(1n, o)]), acc()]);
          return comp(v, this.#lit(0n, o), this.#lit(true, o), step, this.#call('_==_', o, [acc(), this.#lit(1n, o)]), name);
        }
        if (args.length === 3 && two) {
          const k = this.#varName(args[0], name), v = this.#varName(args[1], name);
          checkVars(k, v, name);
          const step = this.#call('_?_:_', o, [args[2], this.#call('_+_', o, [acc(), this.#lit(1n, o)]), acc()]);
          return comp(k, this.#lit(0n, o), this.#lit(true, o), step, this.#call('_==_', o, [acc(), this.#lit(1n, o)]), name, v);
        }
        break;
      }
      case 'map': {
        if (args.length === 2 || args.length === 3) {
          const v = checkIter(this.#varName(args[0], name));
          const f = args[args.length - 1];
          const add = this.#call('_+_', o, [acc(), this.#listOf([f], o)]);
          const step = args.length === 3 ? this.#call('_?_:_', o, [args[1], add, acc()]) : add;
          return comp(v, this.#listOf([], o), this.#lit(true, o), step, acc(), name);
        }
        break;
      }
      case 'filter': {
        if (args.length === 2) {
          const v = checkIter(this.#varName(args[0], name));
          const add = this.#call('_+_', o, [acc(), this.#listOf([this.#ident(v, o)], o)]);
          return comp(v, this.#listOf([], o), this.#lit(true, o), this.#call('_?_:_', o, [args[1], add, acc()]), acc(), name);
        }
        break;
      }
      case 'transformList': {
        if (two && (args.length === 3 || args.length === 4)) {
          const i = this.#varName(args[0], name), v = this.#varName(args[1], name);
          checkVars(i, v, name);
          const f = args[args.length - 1];
          const add = this.#call('_+_', o, [acc(), this.#listOf([f], o)]);
          const step = args.length === 4 ? this.#call('_?_:_', o, [args[2], add, acc()]) : add;
          return comp(i, this.#listOf([], o), this.#lit(true, o), step, acc(), name, v);
        }
        break;
      }
      case 'transformMap': {
        if (two && (args.length === 3 || args.length === 4)) {
          const k = this.#varName(args[0], name), v = this.#varName(args[1], name);
          checkVars(k, v, name);
          const f = args[args.length - 1];
          const ins = this.#call('cel.@mapInsert', o, [acc(), this.#ident(k, o), f]);
          const step = args.length === 4 ? this.#call('_?_:_', o, [args[2], ins, acc()]) : ins;
          return comp(k, { kind: 'map', id: this.#nid(), offset: o, length: 0, entries: [] }, this.#lit(true, o), step, acc(), name, v);
        }
        break;
      }
      case 'transformMapEntry': {
        if (two && (args.length === 3 || args.length === 4)) {
          const k = this.#varName(args[0], name), v = this.#varName(args[1], name);
          checkVars(k, v, name);
          const f = args[args.length - 1];
          const ins = this.#call('cel.@mapInsert', o, [acc(), f]);
          const step = args.length === 4 ? this.#call('_?_:_', o, [args[2], ins, acc()]) : ins;
          return comp(k, { kind: 'map', id: this.#nid(), offset: o, length: 0, entries: [] }, this.#lit(true, o), step, acc(), name, v);
        }
        break;
      }
      case 'optMap':
      case 'optFlatMap': {
        if (args.length === 2 && this.#opts.optionalSyntax) {
          const v = checkIter(this.#varName(args[0], name));
          // target.hasValue() ? optional.of(bind(v, target.value(), f)) : optional.none()   (optFlatMap: no optional.of)
          const bind: ComprehensionExpr = {
            kind: 'comprehension', id: this.#nid(), offset: o, length: 1, iterVar: '#unused', iterRange: this.#listOf([], o),
            accuVar: v, accuInit: this.#call('value', o, [], target), loopCond: this.#lit(false, o), loopStep: this.#ident(v, o),
            result: args[1], macro: name,
          };
          const then = name === 'optMap' ? this.#call('optional.of', o, [bind]) : bind;
          return this.#call('_?_:_', o, [this.#call('hasValue', o, [], target), then, this.#call('optional.none', o, [])]);
        }
        break;
      }
    }
    // `optional.of(x)`, `a.b.f(x)`: a qualified function name is resolved by the checker/evaluator.
    const c = this.#call(name, offset, args, target);
    return c;
  }

  #listOf(elems: Expr[], o: number): Expr {
    const l: Expr = { kind: 'list', id: this.#nid(), offset: o, length: 0, elems, optionalIndices: [] };
    if (elems.length > 1) this.#mark(l);
    return l;
  }
}

export function parse(text: string, opts: ParseOptions = {}): ParseResult {
  return new Parser(opts).parse(text);
}
