import { describe, expect, it } from 'vitest';
import { CelDuration, CelError, CelTimestamp, CelUint } from '../values.js';
import type { CelValue } from '../values.js';
import * as L from './lists.js';

const u = (n: bigint) => new CelUint(n);
const d = (s: bigint) => new CelDuration(s * 1_000_000_000n);
const b = (...x: number[]) => new Uint8Array(x);

// Behaviour of k8s.io/apiserver/pkg/cel/library/lists.go (documented examples and edge cases).
describe('kubernetes list library', () => {
  const cases: [string, () => unknown, unknown][] = [
    ['[1, 2, 3].indexOf(2)', () => L.indexOf([1n, 2n, 3n], 2n), 1n],
    ['[1, 2, 2, 3].lastIndexOf(2)', () => L.lastIndexOf([1n, 2n, 2n, 3n], 2n), 2n],
    ['["a", "b"].indexOf("c")', () => L.indexOf(['a', 'b'], 'c'), -1n],
    ['[].indexOf(1)', () => L.indexOf([], 1n), -1n],
    ['[1.0].indexOf(1) (numeric equality)', () => L.indexOf([1.0], 1n), 0n],
    ['[[1], [2]].indexOf([2])', () => L.indexOf([[1n], [2n]], [2n]), 1n],
    ['[1, 2, 3].isSorted()', () => L.isSorted([1n, 2n, 3n]), true],
    ['[1, 1, 2].isSorted()', () => L.isSorted([1n, 1n, 2n]), true],
    ['[2, 1].isSorted()', () => L.isSorted([2n, 1n]), false],
    ['["a", "b", "b", "c"].isSorted()', () => L.isSorted(['a', 'b', 'b', 'c']), true],
    ['[].isSorted()', () => L.isSorted([]), true],
    ['[true, false].isSorted()', () => L.isSorted([true, false]), false],
    ['[b"\\x01", b"\\x02"].isSorted()', () => L.isSorted([b(1), b(2)]), true],
    ['[1, 2, 3].sum()', () => L.sum([1n, 2n, 3n], 'int'), 6n],
    ['[].sum() (int)', () => L.sum([], 'int'), 0n],
    ['[1.5, 2.25].sum()', () => L.sum([1.5, 2.25], 'double'), 3.75],
    ['[].sum() (double)', () => L.sum([], 'double'), 0],
    ['[1u, 2u].sum()', () => (L.sum([u(1n), u(2n)], 'uint') as CelUint).v, 3n],
    ['[duration 1s, duration 2s].sum()', () => (L.sum([d(1n), d(2n)], 'duration') as CelDuration).ns, 3_000_000_000n],
    ['[1, 2, 3].min()', () => L.min([1n, 2n, 3n]), 1n],
    ['[1, 2, 3].max()', () => L.max([1n, 2n, 3n]), 3n],
    ['["b", "a", "c"].min()', () => L.min(['b', 'a', 'c']), 'a'],
    ['[2.5, -1.0].min()', () => L.min([2.5, -1.0]), -1.0],
    ['[timestamps].max()', () => (L.max([new CelTimestamp(5n), new CelTimestamp(9n), new CelTimestamp(1n)]) as CelTimestamp).ns, 9n],
    ['[1.0, 1].min() keeps the first of equals', () => L.min([1.0, 1n]), 1.0],
    ['[1].max()', () => L.max([1n]), 1n],
    ['string order is by code point (UTF-8)', () => L.min(['\uffff', '\u{1F600}']), '\uffff'],
  ];
  it.each(cases)('%s', (_n, f, want) => {
    expect(f()).toEqual(want);
  });

  it('errors', () => {
    expect(() => L.min([])).toThrow(new CelError('min called on empty list'));
    expect(() => L.max([])).toThrow('max called on empty list');
    expect(() => L.sum([9223372036854775807n, 1n], 'int')).toThrow('integer overflow');
    expect(() => L.sum([u(18446744073709551615n), u(1n)], 'uint')).toThrow('unsigned integer overflow');
    expect(() => L.sum([1n, 'x'] as CelValue[], 'int')).toThrow('no such overload');
    expect(() => L.isSorted([[1n]] as CelValue[])).toThrow('no such overload');
  });

  it('comparison errors (NaN, mixed types) are ignored as in cel-go', () => {
    expect(L.isSorted([2.0, NaN, 1.0])).toBe(true);
    expect(L.min([NaN, 1.0])).toBeNaN();
    expect(L.isSorted([2n, 'a', 1n] as CelValue[])).toBe(true);
  });
});

describe('cel-go ext sets', () => {
  const cases: [string, () => boolean, boolean][] = [
    ['sets.contains([], [])', () => L.setsContains([], []), true],
    ['sets.contains([1], [])', () => L.setsContains([1n], []), true],
    ['sets.contains([], [1])', () => L.setsContains([], [1n]), false],
    ['sets.contains([1, 2, 3, 4], [2, 3])', () => L.setsContains([1n, 2n, 3n, 4n], [2n, 3n]), true],
    ['sets.contains([1, 2, 3], [3, 2, 1])', () => L.setsContains([1n, 2n, 3n], [3n, 2n, 1n]), true],
    ['sets.contains([2, 3.0], [2, 3])', () => L.setsContains([2n, 3.0], [2n, 3n]), true],
    ['sets.contains([[1], [2, 3]], [[2, 3]])', () => L.setsContains([[1n], [2n, 3n]], [[2n, 3n]]), true],
    ['sets.contains([1], [1, 1])', () => L.setsContains([1n], [1n, 1n]), true],
    ['sets.equivalent([], [])', () => L.setsEquivalent([], []), true],
    ['sets.equivalent([1], [1, 1])', () => L.setsEquivalent([1n], [1n, 1n]), true],
    ['sets.equivalent([1, 2], [2, 2, 1])', () => L.setsEquivalent([1n, 2n], [2n, 2n, 1n]), true],
    ['sets.equivalent([1, 2], [1])', () => L.setsEquivalent([1n, 2n], [1n]), false],
    ['sets.equivalent([1u, 2.0], [1, 2])', () => L.setsEquivalent([u(1n), 2.0], [1n, 2n]), true],
    ['sets.intersects([], [])', () => L.setsIntersects([], []), false],
    ['sets.intersects([1], [])', () => L.setsIntersects([1n], []), false],
    ['sets.intersects([1], [1, 2])', () => L.setsIntersects([1n], [1n, 2n]), true],
    ['sets.intersects([[1], [2, 3]], [[1, 2], [2, 3.0]])', () => L.setsIntersects([[1n], [2n, 3n]], [[1n, 2n], [2n, 3.0]]), true],
    ['sets.intersects([1], [2])', () => L.setsIntersects([1n], [2n]), false],
  ];
  it.each(cases)('%s', (_n, f, want) => {
    expect(f()).toBe(want);
  });
});
