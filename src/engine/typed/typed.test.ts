import { describe, expect, test } from 'vitest';
import type { Schema } from '../schema/types.js';
import type { JsonValue } from '../object.js';
import { builtins } from '../resources/generated/builtins.js';
import { pathToString } from '../fieldpath/element.js';
import { SchemaConverter, type Atom, type TypeRef } from './schema.js';
import { compare, ensureNamedFieldsAreMembers, listItemPE, merge, reconcileFieldSetWithSchema, removeItems, toFieldSet, validate } from './ops.js';
import { FieldSet } from '../fieldpath/set.js';
import { zeroObject } from './zero.js';

const defs = builtins.definitions;
const builtin = (name: string) => new SchemaConverter(defs, false).root({ $ref: name });
const inline = (s: Schema, cr = false) => new SchemaConverter({}, cr).root(s);
function at(ref: TypeRef, ...path: string[]): Atom {
  let a = ref.atom;
  for (const f of path) {
    if (f === '[]') a = a.list!.elem.atom;
    else a = (a.map!.fields.get(f)?.type ?? a.map!.elem!).atom;
  }
  return a;
}
const paths = (s: FieldSet) => s.paths().map(pathToString);

describe('typed schema from OpenAPI', () => {
  const pod = builtin('io.k8s.api.core.v1.Pod');
  test('markers of built-in kinds', () => {
    expect(at(pod, 'spec', 'containers').list).toMatchObject({ atomic: false, keys: ['name'] });
    expect(at(pod, 'spec', 'containers', '[]', 'ports').list).toMatchObject({ atomic: false, keys: ['containerPort', 'protocol'] });
    expect(at(pod, 'spec', 'containers', '[]', 'ports', '[]').map!.fields.get('protocol')!.default).toBe('TCP');
    expect(at(pod, 'metadata', 'finalizers').list).toMatchObject({ atomic: false, keys: [] });
    expect(at(pod, 'metadata', 'ownerReferences', '[]').map!.atomic).toBe(true);
    expect(at(pod, 'spec', 'containers', '[]', 'args').list!.atomic).toBe(true);
    expect(at(pod, 'spec', 'nodeSelector').map).toMatchObject({ atomic: true });
    expect(at(pod, 'metadata', 'labels').map).toMatchObject({ atomic: false });
    expect(at(pod, 'spec', 'containers', '[]', 'resources', 'limits', 'cpu').scalar).toBe('untyped');
    const svc = builtin('io.k8s.api.core.v1.Service');
    expect(at(svc, 'spec', 'ports', '[]').map!.fields.get('protocol')!.default).toBe('TCP');
    expect(at(svc, 'spec', 'ports', '[]', 'targetPort').scalar).toBe('untyped');
    const dep = builtin('io.k8s.api.apps.v1.Deployment');
    expect(at(dep, 'spec', 'selector').map!.atomic).toBe(true);
  });

  test('patchStrategy=merge without a key is a set; retainKeys alone is atomic', () => {
    const r = inline({
      type: 'object',
      properties: {
        s: { type: 'array', items: { type: 'string' }, 'x-kubernetes-patch-strategy': 'merge' },
        k: { type: 'array', items: { type: 'object' }, 'x-kubernetes-patch-strategy': 'merge,retainKeys', 'x-kubernetes-patch-merge-key': 'id' },
        r: { type: 'array', items: { type: 'string' }, 'x-kubernetes-patch-strategy': 'retainKeys' },
        l: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'atomic', 'x-kubernetes-patch-strategy': 'merge' },
      },
    });
    expect(at(r, 's').list).toMatchObject({ atomic: false, keys: [] });
    expect(at(r, 'k').list).toMatchObject({ atomic: false, keys: ['id'] });
    expect(at(r, 'r').list!.atomic).toBe(true);
    expect(at(r, 'l').list!.atomic).toBe(true);
  });

  test('x-svc spellings and untyped schemas', () => {
    const r = inline({
      type: 'object',
      properties: {
        a: { type: 'array', items: { type: 'string' }, 'x-svc-list-type': 'set' },
        m: { type: 'object', additionalProperties: { type: 'string' }, 'x-svc-map-type': 'atomic' },
        ios: { 'x-kubernetes-int-or-string': true },
        free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { known: { type: 'string' } } },
      },
    });
    expect(at(r, 'a').list!.atomic).toBe(false);
    expect(at(r, 'm').map!.atomic).toBe(true);
    expect(Object.keys(at(r, 'ios')).sort()).toEqual(['list', 'map', 'scalar']);
    expect(at(r, 'free', 'unknown', 'deeper').map!.atomic).toBe(false);
    expect(at(r, 'free', 'unknown').list!.atomic).toBe(true);
  });
});

describe('typed operations', () => {
  const ref = inline({
    type: 'object',
    properties: {
      items: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name', 'proto'],
        items: { type: 'object', properties: { name: { type: 'string' }, proto: { type: 'string', default: 'TCP' }, v: { type: 'string' } } },
      },
      s: { type: 'object', properties: { a: { type: 'string' } } },
      m: { type: 'object', additionalProperties: { type: 'object', properties: { x: { type: 'string' } } } },
    },
  });

  test('list item keys use defaults and refuse items without keys', () => {
    const list = ref.atom.map!.fields.get('items')!.type.atom.list!;
    expect(listItemPE(list, { name: 'a' })).toEqual({ key: [['name', 'a'], ['proto', 'TCP']] });
    expect(() => listItemPE(list, { v: 'x', proto: undefined as never })).not.toThrow();
    expect(() => listItemPE({ ...list, elem: inline({ type: 'object', properties: {} }) }, { v: 'x' })).toThrow(
      'associative list with keys has an element that omits all key fields ["name" "proto"] (and doesn\'t have default values for any key fields)',
    );
  });

  test('toFieldSet: duplicates are owned as whole items; map keys that are not fields are members', () => {
    const s = toFieldSet(ref, { items: [{ name: 'a', v: '1' }, { name: 'a', v: '2' }, { name: 'b' }], m: { k: { x: 'y' } } });
    expect(paths(s)).toEqual([
      '.items[name="a",proto="TCP"]',
      '.items[name="b",proto="TCP"]',
      '.items[name="b",proto="TCP"].name',
      '.m.k',
      '.m.k.x',
    ]);
  });

  test('toFieldSet: empty maps and nulls are members, empty lists and unnamed values own nothing below', () => {
    const s = toFieldSet(ref, { items: [], s: {}, m: { k: {}, n: null } });
    expect(paths(s)).toEqual(['.s', '.m.k', '.m.n']);
    expect(paths(toFieldSet(ref, { items: [{ name: 'a', v: '1' }], s: { a: 'x' } }))).toEqual([
      '.items[name="a",proto="TCP"]', '.items[name="a",proto="TCP"].name', '.items[name="a",proto="TCP"].v', '.s.a',
    ]);
  });

  test('validate names the place inside list items and nested maps', () => {
    expect(validate(ref, { items: [{ name: 'a' }, { name: 'b', v: 7 }] }, false)).toEqual([
      '.items[name="b",proto="TCP"].v: expected string, got &value.valueUnstructured{Value:7}',
    ]);
    expect(validate(ref, { m: { k: { y: '1' } } }, false)).toEqual(['.m.k.y: field not declared in schema']);
    expect(validate(ref, { items: [{ name: 'a', w: '1' }] }, false)).toEqual(['.items[name="a",proto="TCP"].w: field not declared in schema']);
  });

  test('compare reports added, modified and removed leaves and new parents', () => {
    const c = compare(ref, { s: { a: 'x' }, items: [{ name: 'a', v: '1' }] }, { m: { k: {} }, items: [{ name: 'a', v: '2' }] });
    expect(paths(c.added)).toEqual(['.m', '.m.k']);
    expect(paths(c.modified)).toEqual(['.items[name="a",proto="TCP"].v']);
    expect(paths(c.removed)).toEqual(['.s', '.s.a']);
  });

  test('merge keeps live order and the right-hand side values', () => {
    const out = merge(ref, { items: [{ name: 'a', v: '1' }, { name: 'b' }], s: { a: 'x' } }, { items: [{ name: 'c' }, { name: 'a', v: '9' }] });
    expect(out).toEqual({ items: [{ name: 'c' }, { name: 'a', v: '9' }, { name: 'b' }], s: { a: 'x' } });
    expect(() => merge(ref, {}, { items: [{ name: 'a' }, { name: 'a' }] })).toThrow('duplicate entries for key [name="a",proto="TCP"]');
  });

  test('removeItems and ensureNamedFieldsAreMembers', () => {
    const live: JsonValue = { items: [{ name: 'a', v: '1' }, { name: 'b' }], s: { a: 'x' } };
    const rm = FieldSet.fromFieldsV1({ 'f:items': { 'k:{"name":"a","proto":"TCP"}': {} }, 'f:s': { 'f:a': {} } });
    expect(removeItems(ref, live, rm)).toEqual({ items: [{ name: 'b' }], s: null });
    expect(paths(ensureNamedFieldsAreMembers(rm, ref))).toEqual(['.items', '.s', '.items[name="a",proto="TCP"]', '.s.a']);
  });

  test('reconcile: parts of a now-atomic struct become the whole', () => {
    const atomic = inline({ type: 'object', properties: { s: { type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { a: { type: 'string' } } } } });
    const set = FieldSet.fromFieldsV1({ 'f:s': { 'f:a': {} } });
    expect(paths(reconcileFieldSetWithSchema(set, atomic)!)).toEqual(['.s']);
    expect(reconcileFieldSetWithSchema(set, ref)).toBeUndefined();
  });

  test('validate names undeclared fields and wrong shapes', () => {
    expect(validate(ref, { s: { b: 1 } }, false)).toEqual(['.s.b: field not declared in schema']);
    // values print as the Go walker holds them (*value.valueUnstructured)
    expect(validate(ref, { items: {} }, false)).toEqual(['.items: expected list, got &{map[]}']);
    expect(validate(ref, { s: { a: 5 } }, false)).toEqual(['.s.a: expected string, got &value.valueUnstructured{Value:5}']);
    const typedRef = inline({ type: 'object', properties: { n: { type: 'integer' }, b: { type: 'boolean' } } });
    expect(validate(typedRef, { n: '3' }, false)).toEqual(['.n: expected numeric (int or float), got string']);
    expect(validate(typedRef, { b: 'yes' }, false)).toEqual(['.b: expected boolean, got &{yes}']);
    expect(validate(typedRef, { n: null, b: null }, false)).toEqual([]);
  });

  test('zero objects: value structs under other names, pointers under value names', () => {
    expect(zeroObject({ $ref: 'io.k8s.api.core.v1.PersistentVolumeClaim' }, defs, false)).toEqual({
      metadata: { creationTimestamp: null },
      spec: { resources: {} },
      status: {},
    });
    expect((zeroObject({ $ref: 'io.k8s.api.core.v1.ReplicationController' }, defs, false).spec as object)).toEqual({});
    expect(zeroObject({ type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } } }, {}, true)).toEqual({});
  });

  test('the zero Deployment has the value structs of the Go type', () => {
    expect(zeroObject({ $ref: 'io.k8s.api.apps.v1.Deployment' }, defs, false)).toEqual({
      metadata: { creationTimestamp: null },
      spec: { selector: null, strategy: {}, template: { metadata: { creationTimestamp: null }, spec: { containers: null } } },
      status: {},
    });
  });
});

describe('compare and merge read frozen inputs only', () => {
  const deploy = builtin('io.k8s.api.apps.v1.Deployment');
  const freeze = <T>(v: T): T => {
    if (v && typeof v === 'object') {
      for (const x of Object.values(v)) freeze(x);
      Object.freeze(v);
    }
    return v;
  };
  const container = (name: string, image: string): JsonValue => ({ name, image, ports: [{ containerPort: 80, protocol: 'TCP' }], env: [{ name: 'A', value: '1' }] });
  const live = (image: string): JsonValue => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
    spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [container('a', image), container('b', 'b:1'), container('c', 'c:1')] } } },
  });

  test('a stored (deeply frozen) state on both sides: same results as unfrozen copies, nothing written', () => {
    // modules run in strict mode: a write to a frozen object throws
    const old = freeze(live('a:1'));
    const changed = freeze(live('a:2'));
    const c = compare(deploy, old, changed);
    expect(paths(c.modified)).toEqual(['.spec.template.spec.containers[name="a"].image']);
    expect(c.added.empty() && c.removed.empty()).toBe(true);
    expect(compare(deploy, old, old).modified.empty()).toBe(true);
    const config = freeze({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', annotations: { x: 'y' } }, spec: { template: { spec: { containers: [{ name: 'a', image: 'a:3' }] } } } } as JsonValue);
    const merged = merge(deploy, old, config) as { metadata: Record<string, unknown>; spec: { template: { spec: { containers: { image: string }[] } } } };
    // live key order first, then the keys new in the configuration
    expect(Object.keys(merged.metadata)).toEqual(['name', 'namespace', 'labels', 'annotations']);
    expect(merged.spec.template.spec.containers.map((x) => x.image)).toEqual(['a:3', 'b:1', 'c:1']);
    expect(merged).toEqual(merge(deploy, live('a:1'), JSON.parse(JSON.stringify(config))));
    expect(old).toEqual(live('a:1'));
  });
});
