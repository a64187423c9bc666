import { describe, expect, it } from 'vitest';
import { copyJson, planWrite, prefixEnd, stamp } from './write-plan.js';

describe('copyJson', () => {
  it('deep-copies like a JSON round trip', () => {
    const src = { a: [1, { b: 'x' }, undefined], c: { d: null, e: undefined }, f: true };
    const out = copyJson(src);
    expect(out).toEqual(JSON.parse(JSON.stringify(src)));
    expect(Object.keys(out.c)).toEqual(['d']);
    expect(out.a[2]).toBeNull();
    expect(out.a[1]).not.toBe(src.a[1]);
  });

  it('copies a __proto__ key as an own property without touching the prototype', () => {
    const src = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}') as Record<string, unknown>;
    const out = copyJson(src);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect((out as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.keys(out)).toEqual(['__proto__', 'x']);
    expect(JSON.stringify(out)).toBe('{"__proto__":{"polluted":true},"x":1}');
  });
});

describe('stamp', () => {
  it('sets metadata.resourceVersion on a copy', () => {
    const obj = { kind: 'Pod', metadata: { name: 'a', resourceVersion: '7' } };
    expect(stamp(obj, 12)).toEqual({ kind: 'Pod', metadata: { name: 'a', resourceVersion: '12' } });
    expect(obj.metadata.resourceVersion).toBe('7');
    expect(stamp({ kind: 'X' }, 3)).toEqual({ kind: 'X', metadata: { resourceVersion: '3' } });
    expect(() => stamp(null as never, 1)).toThrow('storage: the object of a put must be a JSON object');
  });
});

describe('prefixEnd', () => {
  it('is the exclusive upper bound of the prefix range in code-unit order', () => {
    expect(prefixEnd('/core/pods/a/')).toBe('/core/pods/a0');
    expect(prefixEnd('ab')).toBe('ac');
    expect(prefixEnd('a\uffff')).toBe('b');
    expect(prefixEnd('\uffff\uffff')).toBeUndefined();
    expect(prefixEnd('')).toBeUndefined();
  });
});

describe('planWrite', () => {
  it('reports the first failing precondition in op order', () => {
    const cur = { key: 'k', object: { metadata: { resourceVersion: '4' } }, revision: 4 };
    expect(
      planWrite(
        [
          { kind: 'put', key: 'n', object: {}, expectRevision: 3 },
          { kind: 'put', key: 'k', object: {}, expectRevision: 0 },
        ],
        [undefined, cur],
        5,
        0,
      ),
    ).toEqual({ ok: false, failedKey: 'n', reason: 'not-found' });
  });
});
