// CEL syntax highlighting for the evaluator's textarea overlay, and the error range to underline. Pure.
// Offsets are JS string (UTF-16) indexes, as the engine reports them.

export type TokenType = 'kw' | 'str' | 'num' | 'fn' | 'var' | 'ident' | 'op' | 'cmt' | 'ws' | 'bad';
export interface Token {
  type: TokenType;
  start: number;
  end: number;
}

const KEYWORDS = new Set(['true', 'false', 'null', 'in']);
export const VARIABLES = new Set(['self', 'oldSelf', 'object', 'oldObject', 'request', 'params', 'namespaceObject', 'authorizer', 'variables']);

function isIdentStart(c: string): boolean {
  return /[A-Za-z_]/.test(c);
}
function isIdentPart(c: string): boolean {
  return /[A-Za-z0-9_]/.test(c);
}

/** Splits `src` into tokens covering every character (whitespace and unknown characters included). */
export function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const n = src.length;
  while (i < n) {
    const start = i;
    const c = src[i];
    if (/\s/.test(c)) {
      while (i < n && /\s/.test(src[i])) i++;
      out.push({ type: 'ws', start, end: i });
      continue;
    }
    if (c === '/' && src[i + 1] === '/') {
      while (i < n && src[i] !== '\n') i++;
      out.push({ type: 'cmt', start, end: i });
      continue;
    }
    // String and bytes literals, with r/R (raw) and b/B prefixes, single or triple quotes.
    const prefix = /^(?:[rR][bB]?|[bB][rR]?)?(?=['"])/.exec(src.slice(i, i + 3));
    if (prefix && (src[i + prefix[0].length] === '"' || src[i + prefix[0].length] === "'")) {
      const raw = /[rR]/.test(prefix[0]);
      let j = i + prefix[0].length;
      const q = src[j];
      const triple = src.startsWith(q.repeat(3), j);
      const close = triple ? q.repeat(3) : q;
      j += close.length;
      let closed = false;
      while (j < n) {
        if (!raw && src[j] === '\\') {
          j += 2;
          continue;
        }
        if (src.startsWith(close, j)) {
          j += close.length;
          closed = true;
          break;
        }
        if (!triple && src[j] === '\n') break;
        j++;
      }
      i = Math.min(j, n);
      out.push({ type: closed ? 'str' : 'bad', start, end: i });
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      const m = /^(?:0[xX][0-9a-fA-F]+[uU]?|[0-9]*\.[0-9]+(?:[eE][+-]?[0-9]+)?|[0-9]+[eE][+-]?[0-9]+|[0-9]+[uU]?)/.exec(src.slice(i));
      i += m ? m[0].length : 1;
      out.push({ type: 'num', start, end: i });
      continue;
    }
    if (isIdentStart(c)) {
      while (i < n && isIdentPart(src[i])) i++;
      const word = src.slice(start, i);
      let k = i;
      while (k < n && (src[k] === ' ' || src[k] === '\t')) k++;
      const type: TokenType = KEYWORDS.has(word) ? 'kw' : src[k] === '(' ? 'fn' : VARIABLES.has(word) && src[start - 1] !== '.' ? 'var' : 'ident';
      out.push({ type, start, end: i });
      continue;
    }
    if (c === '`') {
      // Backquoted field names (CEL 0.18+, `a.`b-c``).
      let j = i + 1;
      while (j < n && src[j] !== '`' && src[j] !== '\n') j++;
      i = src[j] === '`' ? j + 1 : j;
      out.push({ type: 'ident', start, end: i });
      continue;
    }
    const op = /^(?:==|!=|<=|>=|&&|\|\||\?\.|[-+*/%<>!?:.,()[\]{}])/.exec(src.slice(i));
    if (op) {
      i += op[0].length;
      out.push({ type: 'op', start, end: i });
      continue;
    }
    // One code point of something CEL does not know.
    i += src.codePointAt(i)! > 0xffff ? 2 : 1;
    out.push({ type: 'bad', start, end: i });
  }
  return out;
}

export interface Segment {
  text: string;
  type: TokenType;
  error: boolean;
}

/**
 * Tokens as text segments, split where the error range [errStart, errEnd) begins and ends so that range can
 * be underlined. A zero-length range (e.g. at the end of the input) widens to one character; at the very
 * end a single space is appended to carry the underline.
 */
export function segments(src: string, error?: { offset: number; length: number }): Segment[] {
  let errStart = -1;
  let errEnd = -1;
  let text = src;
  if (error) {
    errStart = Math.max(0, Math.min(error.offset, src.length));
    errEnd = Math.max(errStart + Math.max(1, error.length), errStart + 1);
    if (errEnd > src.length) text = src + ' '.repeat(errEnd - src.length);
  }
  const out: Segment[] = [];
  for (const t of tokenize(text)) {
    const cuts = [t.start, t.end];
    if (errStart > t.start && errStart < t.end) cuts.push(errStart);
    if (errEnd > t.start && errEnd < t.end) cuts.push(errEnd);
    cuts.sort((a, b) => a - b);
    for (let k = 0; k + 1 < cuts.length; k++) {
      const a = cuts[k];
      const b = cuts[k + 1];
      if (a === b) continue;
      const seg = { text: text.slice(a, b), type: t.type, error: errStart >= 0 && a >= errStart && b <= errEnd };
      const last = out[out.length - 1];
      if (last && last.type === seg.type && last.error === seg.error) last.text += seg.text;
      else out.push(seg);
    }
  }
  return out;
}
