import { describe, expect, it } from 'vitest';
import { segments, tokenize } from './highlight.js';

const kinds = (src: string) => tokenize(src).filter((t) => t.type !== 'ws').map((t) => `${t.type}:${src.slice(t.start, t.end)}`);

describe('tokenize', () => {
  it('classifies keywords, variables, functions, literals and operators', () => {
    expect(kinds("self.items.all(x, x.name.startsWith('a')) && size(oldSelf) >= 0x1Fu // note")).toEqual([
      'var:self', 'op:.', 'ident:items', 'op:.', 'fn:all', 'op:(', 'ident:x', 'op:,', 'ident:x', 'op:.', 'ident:name', 'op:.',
      'fn:startsWith', 'op:(', "str:'a'", 'op:)', 'op:)', 'op:&&', 'fn:size', 'op:(', 'var:oldSelf', 'op:)', 'op:>=', 'num:0x1Fu', 'cmt:// note',
    ]);
  });
  it('reads raw, bytes and triple-quoted strings, floats and keywords', () => {
    expect(kinds(`r"\\d" b'x' """a"b""" 1.5e3 .5 true in null`)).toEqual([
      'str:r"\\d"', "str:b'x'", 'str:"""a"b"""', 'num:1.5e3', 'num:.5', 'kw:true', 'kw:in', 'kw:null',
    ]);
  });
  it('a field named like a variable is not a variable; an unclosed string is bad', () => {
    expect(kinds('x.self')).toEqual(['ident:x', 'op:.', 'ident:self']);
    expect(kinds("'abc")).toEqual(["bad:'abc"]);
    expect(kinds('a # b')).toEqual(['ident:a', 'bad:#', 'ident:b']);
  });
  it('covers the whole input', () => {
    const src = "a.b(\n 'x\\'y' ) 😀 ?";
    expect(tokenize(src).map((t) => src.slice(t.start, t.end)).join('')).toBe(src);
  });
});

describe('segments', () => {
  it('marks the error range inside a token', () => {
    const s = segments("'a' + 1", { offset: 4, length: 1 });
    expect(s.map((x) => [x.text, x.type, x.error])).toEqual([
      ["'a'", 'str', false],
      [' ', 'ws', false],
      ['+', 'op', true],
      [' ', 'ws', false],
      ['1', 'num', false],
    ]);
  });
  it('widens an empty range and pads at the end of the input', () => {
    const s = segments('1 ==', { offset: 4, length: 0 });
    expect(s[s.length - 1]).toEqual({ text: ' ', type: 'ws', error: true });
    expect(s.map((x) => x.text).join('')).toBe('1 == ');
  });
});
