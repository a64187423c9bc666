import { describe, expect, test } from 'vitest';
import { builtins } from '../resources/generated/builtins.js';
import type { JsonObject, JsonValue } from '../object.js';
import { addedOrModified, compare } from '../typed/ops.js';
import { DEDUCED } from '../typed/schema.js';
import { objectTypeFor } from './index.js';
import { builtinKinds, objects } from './testing/generated.js';

// A write with no manager before it records compare(empty object, object)'s added ∪ modified paths;
// addedOrModified builds that set in one walk. It must give compare's set exactly: here over objects of every
// built-in kind generated from its schema, with every field in turn absent, a zero value ('', 0, false), null,
// an empty map or list, or a value (lists of one or two items, duplicate keys, keyed lists), compared with
// the kind's empty object (a create) and with another such object (a reset of a live one). Each rule of the
// walk, left out (the empty map or list as a leaf, atomic lists and maps as leaves, an absent node recorded
// beside its children, the value compare of a leaf, duplicate list items as one path), fails these tests.

const defs = builtins.definitions;

function expected(root: Parameters<typeof compare>[0], lhs: JsonValue, rhs: JsonValue) {
  const c = compare(root, lhs, rhs);
  return c.added.union(c.modified);
}

const kinds = builtinKinds();

describe("addedOrModified gives compare's added and modified paths", () => {
  test('the catalog has its kinds', () => expect(kinds.size).toBeGreaterThan(50));
  for (const [definition, kind] of kinds) {
    test(`${kind} (${definition})`, () => {
      const type = objectTypeFor({ $ref: definition }, defs);
      const zero = type.zero();
      const objs = objects(definition, 12);
      let recorded = 0;
      for (let i = 0; i < objs.length; i++) {
        const obj = objs[i];
        // a create: compared with the kind's empty object
        const want = expected(type.root, zero, obj);
        const got = addedOrModified(type.root, zero, obj);
        expect(got.toFieldsV1()).toEqual(want.toFieldsV1());
        expect(got.equals(want)).toBe(true);
        recorded += want.size();
        // a reset of a live object: compared with another object of the kind, both ways
        const other = objs[(i + 1) % objs.length];
        expect(addedOrModified(type.root, other, obj).toFieldsV1()).toEqual(expected(type.root, other, obj).toFieldsV1());
        expect(addedOrModified(type.root, obj, other).toFieldsV1()).toEqual(expected(type.root, obj, other).toFieldsV1());
        // the same object: nothing changed
        expect(addedOrModified(type.root, obj, obj).empty()).toBe(true);
      }
      expect(recorded).toBeGreaterThan(0);
    });
  }
});

describe('addedOrModified on the cases generated objects seldom hold', () => {
  const pod = objectTypeFor({ $ref: 'io.k8s.api.core.v1.Pod' }, defs);
  const both = (root: typeof pod.root, lhs: JsonValue, rhs: JsonValue) => {
    const want = expected(root, lhs, rhs);
    expect(addedOrModified(root, lhs, rhs).toFieldsV1()).toEqual(want.toFieldsV1());
    return want.toFieldsV1();
  };

  test('duplicate list items on both sides: the item is modified when their values differ', () => {
    const containers = (image: string) => ({ spec: { containers: [{ name: 'a', image: '1' }, { name: 'a', image }] } });
    expect(both(pod.root, containers('2'), containers('3'))).toEqual({ 'f:spec': { 'f:containers': { 'k:{"name":"a"}': {} } } });
    expect(both(pod.root, containers('2'), containers('2'))).toEqual({});
  });

  test('a value of another kind on each side of an untyped field: both kinds are compared', () => {
    // the deduced type (preserve-unknown-fields): granular maps, atomic lists, scalars
    // a list (a leaf there) replaced by a map: the path is modified as a list, the map's children are added
    expect(both(DEDUCED, { x: [1] }, { x: { a: 1 } })).toEqual({ 'f:x': { '.': {}, 'f:a': {} } });
    // a scalar replaced by a map: the same
    expect(both(DEDUCED, { x: 's' }, { x: { a: 1 } })).toEqual({ 'f:x': { '.': {}, 'f:a': {} } });
    // a map replaced by a list: a modified leaf
    expect(both(DEDUCED, { x: { a: 1 } }, { x: [1] })).toEqual({ 'f:x': {} });
  });
});
