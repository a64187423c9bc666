import { describe, expect, it } from 'vitest';
import { SortedEntries, SortedKeys } from './sorted-keys.js';

/** The first index of sorted `a` whose value is not below `x`, by a plain walk (the reference for the blocks). */
function lowerBound(a: readonly string[], x: string): number {
  const i = a.findIndex((v) => v >= x);
  return i < 0 ? a.length : i;
}

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

  it('entries that hold their key: a range by rank hands out exactly the entries whose keys lie in it, in order, and stops when told', () => {
    const rand = lcg(11);
    const entries = new SortedEntries<{ key: string; n: number }>((e) => e.key);
    const ref = new Map<string, { key: string; n: number }>();
    for (let step = 0; step < 12_000; step++) {
      const key = `/g/r/ns-${Math.floor(rand() * 4)}/${Math.floor(rand() * 2500).toString(36)}`;
      if (rand() < 0.7) {
        const entry = { key, n: step };
        expect(entries.add(entry)).toBe(!ref.has(key));
        if (!ref.has(key)) ref.set(key, entry);
      } else {
        expect(entries.delete(key)).toBe(ref.delete(key));
      }
      if (step % 1009 === 0 || step === 11_999) {
        const sorted = [...ref.keys()].sort();
        expect(entries.size).toBe(sorted.length);
        expect(entries.toArray().map((e) => e.key)).toEqual(sorted);
        // every namespace's range, one from a key inside it, the whole index, and an empty range
        for (const [start, end] of [
          [`/g/r/ns-${step % 4}/`, `/g/r/ns-${step % 4}0`],
          [`/g/r/ns-1/${(step % 2500).toString(36)}`, '/g/r/ns-10'],
          ['', undefined],
          ['/g/r/ns-2/', '/g/r/ns-2/'],
        ] as const) {
          const got: { key: string; n: number }[] = [];
          entries.scanRange(start, end, (e) => got.push(e) > 0);
          const want = sorted.filter((k) => k >= start && (end === undefined || k < end)).map((k) => ref.get(k)!);
          expect(got).toEqual(want);
          // the entries themselves, not copies
          for (let i = 0; i < got.length; i++) expect(got[i]).toBe(want[i]);
        }
        // a visitor that stops after three entries gets three
        let seen = 0;
        entries.scanRange('', undefined, () => ++seen < 3);
        expect(seen).toBe(Math.min(3, sorted.length));
      }
    }
  });
});
