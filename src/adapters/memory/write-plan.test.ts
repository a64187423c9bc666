import { describe, expect, it } from 'vitest';
import { copyJson, frozenCopy, planWrite, prefixEnd, restamp, stamp } from './write-plan.js';
import { deepFreeze } from '../../engine/object.js';

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
    expect(stamp({ kind: 'X', metadata: 'bad' } as never, 4)).toEqual({ kind: 'X', metadata: { resourceVersion: '4' } });
    // key order as a JSON round trip plus the stamp: resourceVersion stays where it was (a key with an undefined
    // value included); a new one goes where ObjectMeta's order puts it, after name, generateName, namespace,
    // selfLink and uid, before the first other field, or last
    expect(JSON.stringify(stamp({ metadata: { resourceVersion: '1', name: 'a' }, kind: 'K' }, 2))).toBe('{"metadata":{"resourceVersion":"2","name":"a"},"kind":"K"}');
    expect(JSON.stringify(stamp({ metadata: { name: 'a', labels: {}, resourceVersion: undefined } }, 2))).toBe('{"metadata":{"name":"a","labels":{},"resourceVersion":"2"}}');
    expect(JSON.stringify(stamp({ metadata: { name: 'a', namespace: 'n', uid: 'u', creationTimestamp: 't', labels: { x: 'y' }, managedFields: [] } }, 5))).toBe(
      '{"metadata":{"name":"a","namespace":"n","uid":"u","resourceVersion":"5","creationTimestamp":"t","labels":{"x":"y"},"managedFields":[]}}',
    );
    expect(JSON.stringify(stamp({ metadata: { generateName: 'g-', selfLink: 's', generation: 1 } }, 6))).toBe('{"metadata":{"generateName":"g-","selfLink":"s","resourceVersion":"6","generation":1}}');
    expect(JSON.stringify(stamp({ metadata: { labels: { x: 'y' }, name: 'a' } }, 7))).toBe('{"metadata":{"resourceVersion":"7","labels":{"x":"y"},"name":"a"}}');
    expect(JSON.stringify(stamp({ metadata: { name: 'a', uid: 'u' } }, 8))).toBe('{"metadata":{"name":"a","uid":"u","resourceVersion":"8"}}');
    expect(JSON.stringify(stamp({ metadata: { name: 'a', generation: undefined, uid: 'u' } }, 9))).toBe('{"metadata":{"name":"a","uid":"u","resourceVersion":"9"}}');
    const s = stamp(obj, 12);
    expect(Object.isFrozen(s) && Object.isFrozen(s.metadata)).toBe(true);
  });

  it('restamp shares everything but the top level and metadata with the stored state', () => {
    const stored = stamp({ kind: 'Pod', metadata: { name: 'a', labels: { x: 'y' } }, spec: { c: [1] } }, 3);
    const last = restamp(stored, 9);
    expect(last).toEqual({ kind: 'Pod', metadata: { name: 'a', labels: { x: 'y' }, resourceVersion: '9' }, spec: { c: [1] } });
    expect(last.spec).toBe(stored.spec);
    expect(last.metadata!.labels).toBe(stored.metadata!.labels);
    expect(stored.metadata!.resourceVersion).toBe('3');
    expect(Object.isFrozen(last) && Object.isFrozen(last.metadata)).toBe(true);
  });
});

describe('frozenCopy', () => {
  it('is a deeply frozen copy with copyJson\'s rules, empty objects and arrays one shared instance', () => {
    const src = { a: [1, { b: 'x' }, undefined], c: { d: null, e: undefined }, f: { '.': {}, 'f:x': {} }, g: [], h: [] };
    const out = frozenCopy(src);
    expect(out).toEqual(JSON.parse(JSON.stringify(src)));
    expect(out.a[1]).not.toBe(src.a[1]);
    for (const v of [out, out.a, out.a[1], out.c, out.f, out.f['.'], out.g]) expect(Object.isFrozen(v)).toBe(true);
    expect(out.f['.']).toBe(out.f['f:x']);
    expect(out.g).toBe(out.h);
    expect(() => ((out.f['.'] as Record<string, unknown>).y = 1)).toThrow(TypeError);
    const proto = frozenCopy(JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>);
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(JSON.stringify(proto)).toBe('{"__proto__":{"polluted":true}}');
  });

  it('shares a frozen value instead of copying it', () => {
    const shared = deepFreeze({ 'f:a': {}, 'f:b': { '.': {} } });
    const out = frozenCopy({ m: [{ fieldsV1: shared }], n: { x: 1 } });
    expect(out.m[0].fieldsV1).toBe(shared);
    expect(Object.isFrozen(out.m[0]) && Object.isFrozen(out.n)).toBe(true);
  });
});

describe('deepFreeze', () => {
  it('freezes in place, all the way down', () => {
    const o = { a: { b: [{ c: 1 }] } };
    expect(deepFreeze(o)).toBe(o);
    expect(Object.isFrozen(o.a.b[0])).toBe(true);
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
