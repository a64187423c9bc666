import { describe, expect, test } from 'vitest';
import { deserializePE, fieldPE, keyPE, pathToString, serializePE, valuePE, type Path } from './element.js';
import { FieldSet } from './set.js';
import { compareValues, goQuote, valueToString } from './value.js';

const p = (...parts: (string | number | { k: Record<string, unknown> } | { v: unknown })[]): Path =>
  parts.map((x) =>
    typeof x === 'string'
      ? fieldPE(x)
      : typeof x === 'number'
        ? { index: x }
        : 'k' in x
          ? keyPE(Object.entries(x.k) as never)
          : valuePE(x.v as never),
  );

describe('path elements', () => {
  test('fieldsV1 keys: raw field names, sorted compact key JSON, JSON values, indexes', () => {
    expect(serializePE(fieldPE('spec'))).toBe('f:spec');
    expect(serializePE(fieldPE('a.b/c'))).toBe('f:a.b/c');
    expect(serializePE(keyPE([['protocol', 'TCP'], ['containerPort', 80]]))).toBe('k:{"containerPort":80,"protocol":"TCP"}');
    expect(serializePE(keyPE([['name', 'a<b']]))).toBe('k:{"name":"a\\u003cb"}');
    expect(serializePE(valuePE('x'))).toBe('v:"x"');
    expect(serializePE(valuePE(5))).toBe('v:5');
    expect(serializePE(valuePE(true))).toBe('v:true');
    expect(serializePE({ index: 3 })).toBe('i:3');
  });

  test('keys parse back, key fields sorted', () => {
    expect(deserializePE('k:{"protocol":"TCP","containerPort":80}')).toEqual({ key: [['containerPort', 80], ['protocol', 'TCP']] });
    expect(deserializePE('v:"a"')).toEqual({ value: 'a' });
    expect(deserializePE('i:12')).toEqual({ index: 12 });
    expect(deserializePE('f:')).toEqual({ field: '' });
    expect(() => deserializePE('x')).toThrow('key must be 2 characters long:');
    expect(() => deserializePE('fx')).toThrow('missing colon: fx');
    expect(() => deserializePE('i:x')).toThrow();
    expect(() => deserializePE('v:"a" 1')).toThrow();
  });

  test('printed paths as conflicts show them', () => {
    expect(pathToString(p('spec', 'containers', { k: { name: 'app' } }, 'image'))).toBe('.spec.containers[name="app"].image');
    expect(pathToString(p('spec', 'ports', { k: { protocol: 'TCP', port: 80 } }, 'name'))).toBe('.spec.ports[port=80,protocol="TCP"].name');
    expect(pathToString(p('spec', 'tags', { v: 'a' }))).toBe('.spec.tags[="a"]');
    expect(pathToString(p('spec', 'nums', { v: 1.5 }))).toBe('.spec.nums[=1.5]');
    expect(pathToString(p('spec', 'args', 0))).toBe('.spec.args[0]');
    expect(pathToString(p('m', { k: { name: 'a"b\n' } }))).toBe('.m[name="a\\"b\\n"]');
  });

  test('value order: numbers < strings < booleans < lists < maps < null', () => {
    const vals = [null, { a: 1 }, [1], true, 'a', 2, 1.5];
    expect([...vals].sort(compareValues)).toEqual([1.5, 2, 'a', true, [1], { a: 1 }, null]);
    expect(goQuote('é\t')).toBe('"é\\t"');
    expect(valueToString(1e21)).toBe('1e+21');
  });
});

describe('field sets', () => {
  const fields = {
    'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
    'f:spec': {
      'f:containers': { 'k:{"name":"a"}': { '.': {}, 'f:image': {}, 'f:name': {} } },
      'f:replicas': {},
      'f:tags': { 'v:"x"': {} },
    },
  };

  test('fieldsV1 round trip keeps the real key order and "." only on members with children', () => {
    const s = FieldSet.fromFieldsV1(fields);
    expect(JSON.stringify(s.toFieldsV1())).toBe(JSON.stringify(fields));
    expect(s.paths().map(pathToString)).toEqual([
      '.metadata.labels',
      '.metadata.labels.app',
      '.spec.replicas',
      '.spec.containers[name="a"]',
      '.spec.containers[name="a"].image',
      '.spec.containers[name="a"].name',
      '.spec.tags[="x"]',
    ]);
  });

  test('members and children sort by element: fields, then keys, values, indexes', () => {
    const s = FieldSet.of(p('l', 2), p('l', { v: 'b' }), p('l', { k: { n: 1 } }), p('l', 'f'));
    expect(JSON.stringify(s.toFieldsV1())).toBe('{"f:l":{"f:f":{},"k:{\\"n\\":1}":{},"v:\\"b\\"":{},"i:2":{}}}');
  });

  test('unknown key kinds are dropped; a node without understood children is a member', () => {
    const s = FieldSet.fromFieldsV1({ 'f:a': { 'x:future': {} }, 'z:other': {} });
    expect(s.paths().map(pathToString)).toEqual(['.a']);
    expect(FieldSet.fromFieldsV1({}).empty()).toBe(true);
    expect(() => FieldSet.fromFieldsV1({ 'k:notjson': {} })).toThrow(/parsing key as path element/);
  });

  test('algebra', () => {
    const a = FieldSet.of(p('a', 'b'), p('a', 'c'), p('d'));
    const b = FieldSet.of(p('a', 'b'), p('a'));
    expect(a.union(b).paths().map(pathToString)).toEqual(['.a', '.d', '.a.b', '.a.c']);
    expect(a.intersection(b).paths().map(pathToString)).toEqual(['.a.b']);
    expect(a.difference(b).paths().map(pathToString)).toEqual(['.d', '.a.c']);
    expect(a.recursiveDifference(b).paths().map(pathToString)).toEqual(['.d']);
    expect(a.has(p('a', 'c'))).toBe(true);
    expect(a.has(p('a'))).toBe(false);
    expect(a.has([])).toBe(false);
    expect(a.withPrefix(fieldPE('a')).paths().map(pathToString)).toEqual(['.b', '.c']);
    expect(a.size()).toBe(3);
  });
});
