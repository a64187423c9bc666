import { describe, expect, it } from 'vitest';
import { SortedKeys, lowerBound } from './sorted-keys.js';

/** A small deterministic generator (the tests' own: the engine takes no randomness). */
function lcg(seed: number) {
  let x = seed >>> 0;
  return () => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

function rangeOf(keys: SortedKeys, start: string, stop: (k: string) => boolean): string[] {
  const out: string[] = [];
  keys.scan(start, (k) => {
    if (stop(k)) return false;
    out.push(k);
    return true;
  });
  return out;
}

describe('SortedKeys', () => {
  it('agrees with one sorted array under random adds and deletes, across many block splits and empty blocks', () => {
    const rand = lcg(7);
    const keys = new SortedKeys();
    const ref: string[] = [];
    for (let step = 0; step < 20_000; step++) {
      const k = `/g/r/ns-${Math.floor(rand() * 5)}/${Math.floor(rand() * 3000).toString(36)}`;
      const i = lowerBound(ref, k);
      if (rand() < 0.65) {
        const fresh = ref[i] !== k;
        expect(keys.add(k)).toBe(fresh);
        if (fresh) ref.splice(i, 0, k);
      } else {
        const present = ref[i] === k;
        expect(keys.delete(k)).toBe(present);
        if (present) ref.splice(i, 1);
      }
      if (step % 997 === 0) {
        expect(keys.size).toBe(ref.length);
        expect(keys.toArray()).toEqual(ref);
        const prefix = `/g/r/ns-${step % 5}/`;
        expect(rangeOf(keys, prefix, (x) => !x.startsWith(prefix))).toEqual(ref.filter((x) => x.startsWith(prefix)));
      }
    }
    expect(keys.toArray()).toEqual(ref);
    // deleting everything leaves nothing to scan
    for (const k of [...ref].reverse()) expect(keys.delete(k)).toBe(true);
    expect(keys.size).toBe(0);
    expect(rangeOf(keys, '', () => false)).toEqual([]);
  });

  it('keys in ascending order go at the end; a scan starts at the first key not below its start and stops when told', () => {
    const keys = new SortedKeys();
    const all = Array.from({ length: 2000 }, (_, i) => `k${String(i).padStart(5, '0')}`);
    for (const k of all) expect(keys.add(k)).toBe(true);
    expect(keys.add('k00010')).toBe(false);
    expect(keys.toArray()).toEqual(all);
    expect(rangeOf(keys, 'k00999x', (k) => k >= 'k01003')).toEqual(['k01000', 'k01001', 'k01002']);
    expect(rangeOf(keys, 'z', () => false)).toEqual([]);
    expect(rangeOf(keys, '', (k) => k > 'k00001')).toEqual(['k00000', 'k00001']);
    const again = new SortedKeys();
    again.reset(all);
    expect(again.size).toBe(2000);
    expect(again.add('k00000a')).toBe(true);
    expect(again.toArray()).toEqual([...all.slice(0, 1), 'k00000a', ...all.slice(1)]);
  });
});
