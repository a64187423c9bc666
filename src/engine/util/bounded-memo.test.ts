import { describe, expect, it } from 'vitest';
import { BoundedMemo } from './bounded-memo.js';

describe('BoundedMemo', () => {
  it('keeps what it is given up to its bound, then starts again from empty', () => {
    const m = new BoundedMemo<string, number | undefined>(3);
    expect(m.set('a', 1)).toBe(1);
    m.set('b', undefined);
    m.set('c', 3);
    expect([m.get('a'), m.has('b'), m.get('b'), m.get('c'), m.size]).toEqual([1, true, undefined, 3, 3]);
    // a new key when full empties it first
    m.set('d', 4);
    expect([m.has('a'), m.has('b'), m.has('c'), m.get('d'), m.size]).toEqual([false, false, false, 4, 1]);
  });
});
