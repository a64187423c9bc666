// Custom resource schema validation: expected texts are those of the real apiextensions-apiserver's
// validation tests (kube-openapi messages converted to field errors).
import { describe, expect, it } from 'vitest';
import { fieldErrorString } from '../errors.js';
import type { Schema } from '../schema/types.js';
import { applyDefaults, pruneNonNullableNullsWithoutDefaults } from './defaulting.js';
import { goFloat, validateAgainstSchema, validateEmbedded, validateListSetsAndMaps } from './schema-validate.js';

const errs = (schema: Schema, obj: unknown, old?: unknown) =>
  validateAgainstSchema(schema, obj, old === undefined ? {} : { old, hasOld: true }).map(fieldErrorString).sort();
const withField = (field: Schema): Schema => ({ type: 'object', properties: { field } });

describe('types and nullable', () => {
  it('!nullable object', () => {
    const s = withField({ type: 'object' });
    expect(errs(s, {})).toEqual([]);
    expect(errs(s, { field: 'foo' })).toEqual(['field: Invalid value: "string": field in body must be of type object: "string"']);
    expect(errs(s, { field: 42 })).toEqual(['field: Invalid value: "integer": field in body must be of type object: "integer"']);
    expect(errs(s, { field: 1.2 })).toEqual(['field: Invalid value: "number": field in body must be of type object: "number"']);
    expect(errs(s, { field: [] })).toEqual(['field: Invalid value: "array": field in body must be of type object: "array"']);
    expect(errs(s, { field: null })).toEqual(['field: Invalid value: "null": field in body must be of type object: "null"']);
  });
  it('nullable accepts null; no type accepts anything', () => {
    expect(errs(withField({ type: 'object', nullable: true }), { field: null })).toEqual([]);
    for (const v of [null, 'foo', 42, true, 1.2, [], {}]) expect(errs(withField({ nullable: true }), { field: v })).toEqual([]);
  });
  it('x-kubernetes-int-or-string', () => {
    const s = withField({ 'x-kubernetes-int-or-string': true });
    expect(errs(s, { field: 42 })).toEqual([]);
    expect(errs(s, { field: 'foo' })).toEqual([]);
    expect(errs(s, { field: null })).toEqual(['field: Invalid value: "null": field in body must be of type integer,string: "null"']);
    expect(errs(s, { field: 1.2 })).toEqual(['field: Invalid value: "number": field in body must be of type integer,string: "number"']);
  });
  it('int-or-string with the anyOf pattern reports the anyOf failure too', () => {
    const s = withField({ nullable: true, 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] });
    expect(errs(s, { field: null })).toEqual([]);
    expect(errs(s, { field: true })).toEqual([
      '<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
      'field: Invalid value: "boolean": field in body must be of type integer,string: "boolean"',
      'field: Invalid value: "boolean": field in body must be of type integer: "boolean"',
    ]);
  });
  it('integers are numbers; integral floats are integers', () => {
    expect(errs(withField({ type: 'number' }), { field: 3 })).toEqual([]);
    expect(errs(withField({ type: 'integer' }), { field: 3.0 })).toEqual([]);
  });
});

describe('value validations', () => {
  it('required, enum', () => {
    const s: Schema = {
      type: 'object', required: ['field'],
      properties: { field: { type: 'object', required: ['nestedint', 'nestedstring'], properties: { nestedint: { type: 'integer', enum: [1, 2] }, nestedstring: { type: 'string', enum: ['a', 'b'] } } } },
    };
    expect(errs(s, { test: 'a' })).toEqual(['field: Required value']);
    expect(errs(s, { field: {} })).toEqual(['field.nestedint: Required value', 'field.nestedstring: Required value']);
    expect(errs(s, { field: { nestedint: 'x', nestedstring: true } })).toEqual([
      'field.nestedint: Invalid value: "string": field.nestedint in body must be of type integer: "string"',
      'field.nestedint: Unsupported value: "x": supported values: "1", "2"',
      'field.nestedstring: Invalid value: "boolean": field.nestedstring in body must be of type string: "boolean"',
      'field.nestedstring: Unsupported value: true: supported values: "a", "b"',
    ]);
  });
  it('maxProperties, maxItems, maxLength', () => {
    expect(errs({ type: 'object', properties: { fieldX: { type: 'object', maxProperties: 2 } } }, { fieldX: { a: 1, b: 1, c: 1 } })).toEqual(['fieldX: Too many: 3: must have at most 2 items']);
    expect(errs({ type: 'object', properties: { fieldX: { type: 'array', maxItems: 2 } } }, { fieldX: ['a', 'b', 'c'] })).toEqual(['fieldX: Too many: 3: must have at most 2 items']);
    expect(errs({ type: 'object', properties: { fieldX: { type: 'string', maxLength: 2 } } }, { fieldX: 'abc' })).toEqual(['fieldX: Too long: may not be more than 2 bytes']);
  });
  it('minimum/maximum (exclusive), multipleOf, minLength, pattern, minItems, minProperties', () => {
    const s: Schema = {
      type: 'object',
      properties: {
        a: { type: 'integer', minimum: 1, maximum: 10 },
        b: { type: 'number', minimum: 1, exclusiveMinimum: true, maximum: 2.5, exclusiveMaximum: true },
        c: { type: 'integer', multipleOf: 5 },
        d: { type: 'string', minLength: 3, pattern: '^[a-z]+$' },
        e: { type: 'array', items: { type: 'string' }, minItems: 2 },
        f: { type: 'object', minProperties: 1, additionalProperties: { type: 'string' } },
        g: { type: 'integer', maximum: 1000000 },
      },
    };
    expect(errs(s, { a: 0, b: 1, c: 7, d: 'A', e: ['x'], f: {}, g: 2000000 })).toEqual([
      "d: Invalid value: \"A\": d in body should match '^[a-z]+$'",
      'a: Invalid value: 0: a in body should be greater than or equal to 1',
      'b: Invalid value: 1: b in body should be greater than 1',
      'c: Invalid value: 7: c in body should be a multiple of 5',
      'd: Invalid value: "A": d in body should be at least 3 chars long',
      'e: Invalid value: 1: e in body should have at least 2 items',
      'f: Invalid value: 0: f in body should have at least 1 properties',
      'g: Invalid value: 2000000: g in body should be less than or equal to 1e+06',
    ].sort());
    expect(errs(s, { a: 11, b: 2.5 })).toEqual([
      'a: Invalid value: 11: a in body should be less than or equal to 10',
      'b: Invalid value: 2.5: b in body should be less than 2.5',
    ]);
  });
  it('formats (the ones Kubernetes keeps; int32 is stripped, so not range-checked)', () => {
    const s: Schema = {
      type: 'object',
      properties: {
        u: { type: 'string', format: 'uuid' }, d: { type: 'string', format: 'date' }, t: { type: 'string', format: 'date-time' },
        du: { type: 'string', format: 'duration' }, b: { type: 'string', format: 'byte' }, ip: { type: 'string', format: 'ipv4' },
        i: { type: 'integer', format: 'int32' },
      },
    };
    expect(errs(s, { u: '6ba7b810-9dad-11d1-80b4-00c04fd430c8', d: '2024-02-29', t: '2024-01-01T10:00:00Z', du: '1h30m', b: 'aGVsbG8=', ip: '10.0.0.1', i: 9999999999 })).toEqual([]);
    expect(errs(s, { u: 'x', d: '2023-02-29', t: 'yesterday', du: 'forever', b: '!!', ip: '300.1.1.1' })).toEqual([
      'b: Invalid value: "!!": b in body must be of type byte: "!!"',
      'd: Invalid value: "2023-02-29": d in body must be of type date: "2023-02-29"',
      'du: Invalid value: "forever": du in body must be of type duration: "forever"',
      'ip: Invalid value: "300.1.1.1": ip in body must be of type ipv4: "300.1.1.1"',
      't: Invalid value: "yesterday": t in body must be of type date-time: "yesterday"',
      'u: Invalid value: "x": u in body must be of type uuid: "x"',
    ]);
  });
  it('paths of list items and map values', () => {
    const s: Schema = {
      type: 'object',
      properties: {
        spec: { type: 'object', properties: { items: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer' } } } }, labels: { type: 'object', additionalProperties: { type: 'string' } } } },
      },
    };
    expect(errs(s, { spec: { items: [{ n: 1 }, { n: 'x' }], labels: { a: 1 } } })).toEqual([
      'spec.items[1].n: Invalid value: "string": spec.items[1].n in body must be of type integer: "string"',
      'spec.labels.a: Invalid value: "integer": spec.labels.a in body must be of type string: "integer"',
    ]);
  });
  it('ratcheting: unchanged invalid values pass on update, changed ones do not', () => {
    const s = withField({ type: 'string', maxLength: 2 });
    expect(errs(s, { field: 'abc' }, { field: 'abc' })).toEqual([]);
    expect(errs(s, { field: 'abcd' }, { field: 'abc' })).toEqual(['field: Too long: may not be more than 2 bytes']);
  });
  it('goFloat renders like Go %v', () => {
    expect([goFloat(10), goFloat(1.5), goFloat(1e6), goFloat(123456), goFloat(0.00001), goFloat(1234567)]).toEqual(['10', '1.5', '1e+06', '123456', '1e-05', '1.234567e+06']);
  });
});

describe('list types and embedded resources', () => {
  it('set and map duplicates (second occurrence only)', () => {
    const s: Schema = {
      type: 'object',
      properties: {
        set: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
        map: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name', 'port'], items: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer' } } } },
      },
    };
    const out = validateListSetsAndMaps(s, { set: ['a', 'b', 'a', 'a'], map: [{ name: 'x', port: 1 }, { name: 'x', port: 1 }, { name: 'x', port: 2 }] }, '').map(fieldErrorString);
    expect(out).toEqual([
      'set[2]: Duplicate value: "a"',
      'map[1]: Duplicate value: map[string]interface {}{"name":"x", "port":1}',
    ]);
  });
  it('embedded resources need apiVersion and kind, and valid metadata', () => {
    const s: Schema = { type: 'object', properties: { t: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } } };
    expect(validateEmbedded(s, { t: { metadata: { name: 'x' } } }, '').map(fieldErrorString)).toEqual([
      't.apiVersion: Required value: must not be empty',
      't.kind: Required value: must not be empty',
    ]);
    expect(validateEmbedded(s, { t: { apiVersion: 'v1', kind: 'Foo_Bar', metadata: { name: 'a/b' } } }, '').map(fieldErrorString)).toEqual([
      't.kind: Invalid value: "Foo_Bar": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or \'-\', start with an alphabetic character, and end with an alphanumeric character (e.g. \'my-name\',  or \'abc-123\', regex used for validation is \'[a-z]([-a-z0-9]*[a-z0-9])?\')',
      't.metadata.name: Invalid value: "a/b": may not contain \'/\'',
    ]);
  });
});

describe('defaulting', () => {
  const s: Schema = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        default: {},
        properties: {
          replicas: { type: 'integer', default: 1 },
          mode: { type: 'string', default: 'fast' },
          nick: { type: 'string', nullable: true, default: 'n' },
          plain: { type: 'string' },
          ports: { type: 'array', items: { type: 'object', properties: { protocol: { type: 'string', default: 'TCP' } } } },
          labels: { type: 'object', additionalProperties: { type: 'string', default: 'v' } },
        },
      },
    },
  };
  it('fills missing fields, inside list items and map values, and non-nullable nulls', () => {
    const obj: Record<string, unknown> = { spec: { mode: null, nick: null, plain: null, ports: [{}, { protocol: 'UDP' }], labels: { a: null, b: 'x' } } };
    pruneNonNullableNullsWithoutDefaults(obj, s);
    applyDefaults(obj, s);
    expect(obj).toEqual({ spec: { replicas: 1, mode: 'fast', nick: null, ports: [{ protocol: 'TCP' }, { protocol: 'UDP' }], labels: { a: 'v', b: 'x' } } });
  });
  it('a defaulted object gets its own defaults', () => {
    const obj: Record<string, unknown> = {};
    applyDefaults(obj, s);
    expect(obj).toEqual({ spec: { replicas: 1, mode: 'fast', nick: 'n' } });
  });
});

describe('rule fieldPath', () => {
  it('normalizes to field paths (ValidFieldPath)', async () => {
    const { normalizeFieldPath } = await import('./cel-rules.js');
    const s: Schema = { type: 'object', properties: { a: { type: 'object', properties: { 'b.c': { type: 'string' } } }, m: { type: 'object', additionalProperties: { type: 'object', properties: { x: { type: 'integer' } } } } } };
    expect(normalizeFieldPath(".a['b.c']", s)).toBe('a.b.c');
    expect(normalizeFieldPath('.m.key.x', s)).toBe('m[key].x');
    expect(normalizeFieldPath(".m['k'].x", s)).toBe('m[k].x');
    expect(normalizeFieldPath('.nope', s)).toBeUndefined();
    expect(normalizeFieldPath('a', s)).toBeUndefined();
    expect(normalizeFieldPath('.a[0]', s)).toBeUndefined();
  });
});
