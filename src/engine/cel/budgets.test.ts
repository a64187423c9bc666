// Depth and cache budgets of the CEL engine: deep expressions are compile errors, never stack overflows.
import { describe, expect, it } from 'vitest';
import { createCelEnv, isCompileError } from './env.js';
import { parse } from './parser.js';
import { MAX_AST_DEPTH } from './parser.js';
import { LruCache } from './lru.js';

const env = createCelEnv({ variables: {} });
function compileMessage(expr: string): string | undefined {
  const p = env.compile(expr);
  return isCompileError(p) ? p.message : undefined;
}

describe('CEL nesting budget', () => {
  const shapes: [string, (d: number) => string][] = [
    ['list', (d) => '['.repeat(d) + ']'.repeat(d)],
    ['parens', (d) => '('.repeat(d) + '1' + ')'.repeat(d)],
    ['calls', (d) => 'int('.repeat(d) + '1' + ')'.repeat(d)],
  ];
  for (const [name, gen] of shapes) {
    it(`nested ${name}: cel-go's recursion limit (250)`, () => {
      expect(compileMessage(gen(100))).not.toBe('expression recursion limit exceeded: 250');
      for (const d of [1_000, 10_000]) expect(compileMessage(gen(d))).toBe('expression recursion limit exceeded: 250');
    });
  }

  const chains: [string, (d: number) => string][] = [
    ['additions', (d) => Array(d).fill('1').join(' + ')],
    ['conjunctions', (d) => Array(d).fill('true').join(' && ')],
    ['selections', (d) => '{"a": 1}' + '.a'.repeat(d)],
    ['indexes', (d) => '[1]' + '[0]'.repeat(d)],
    ['string concatenations', (d) => Array(d).fill('"a"').join(' + ')],
  ];
  for (const [name, gen] of chains) {
    it(`chained ${name}: refused past ${MAX_AST_DEPTH} levels, accepted below`, () => {
      for (const d of [MAX_AST_DEPTH + 1, 10_000]) expect(compileMessage(gen(d))).toBe(`expression nesting limit exceeded: ${MAX_AST_DEPTH}`);
    });
  }

  it('a chain just inside the budget compiles and evaluates', () => {
    const p = env.compile(Array(MAX_AST_DEPTH).fill('1').join(' + '));
    if (isCompileError(p)) throw new Error(p.message);
    expect(p.evaluate({})).toMatchObject({ value: BigInt(MAX_AST_DEPTH) });
  });

  it('runs of ! and - collapse as in cel-go (even: none, odd: one)', () => {
    expect(parse('!'.repeat(10_000) + 'true').expr).toMatchObject({ kind: 'literal', value: true });
    expect(parse('!'.repeat(10_001) + 'true').expr).toMatchObject({ kind: 'call', fn: '!_', args: [{ kind: 'literal', value: true }] });
    expect(parse('-'.repeat(10_000) + 'x').expr).toMatchObject({ kind: 'ident', name: 'x' });
    expect(parse('-'.repeat(9_999) + 'x').expr).toMatchObject({ kind: 'call', fn: '-_', args: [{ kind: 'ident', name: 'x' }] });
  });
});

describe('LruCache', () => {
  it('keeps at most its capacity, forgetting the least recently used', () => {
    const c = new LruCache<string, number>(3);
    c.set('a', 1).set('b', 2).set('c', 3);
    expect(c.get('a')).toBe(1); // a is now the most recent
    c.set('d', 4);
    expect(c.size).toBe(3);
    expect(c.has('b')).toBe(false);
    expect([c.get('a'), c.get('c'), c.get('d')]).toEqual([1, 3, 4]);
    for (let i = 0; i < 1000; i++) c.set(`k${i}`, i);
    expect(c.size).toBe(3);
  });
});
