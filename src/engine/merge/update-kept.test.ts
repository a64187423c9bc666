import { describe, expect, test } from 'vitest';
import { builtins } from '../resources/generated/builtins.js';
import type { JsonObject, KubeObject, ManagedFieldsEntry } from '../object.js';
import { FieldSet } from '../fieldpath/set.js';
import type { Path } from '../fieldpath/element.js';
import { compare } from '../typed/ops.js';
import { objectTypeFor, updateManagedFields, type ObjectType } from './index.js';
import { builtinKinds, objects } from './testing/generated.js';

// An Update by a manager that already owns what it changes leaves that manager's set as it was: the set it
// came in with is then kept (the same object), so its fieldsV1 encoding is made once and shared from write
// to write. The entries must be those of the update's rules all the same: here every write over objects of
// every built-in kind is checked against the rules written out with plain set algebra (compare of the two
// objects; what changed leaves every manager and joins the writer's set; removed paths leave every set;
// status and the never-tracked metadata are not recorded; an object no manager owns stays untracked), with writes by the owner, by a second manager,
// of a label the writer owns, and of nothing at all.

const defs = builtins.definitions;
const kinds = builtinKinds();

const STATUS = FieldSet.of([{ field: 'status' }]);
const STRIP = FieldSet.of(
  [{ field: 'apiVersion' }],
  [{ field: 'kind' }],
  [{ field: 'metadata' }],
  ...['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion'].map(
    (f): Path => [{ field: 'metadata' }, { field: f }],
  ),
);

const time = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString().replace('.000Z', 'Z');

function withoutManagedFields(o: KubeObject): JsonObject {
  const { managedFields: _, ...metadata } = o.metadata ?? {};
  return { ...o, metadata } as JsonObject;
}

/** The managers' sets and times of an object's entries, by manager name (every entry here is an Update of v1-like version). */
function setsOf(o: KubeObject, entries = o.metadata?.managedFields ?? []): Map<string, { set: FieldSet; time?: string }> {
  const out = new Map<string, { set: FieldSet; time?: string }>();
  for (const e of entries) out.set(e.manager!, { set: FieldSet.fromFieldsV1(JSON.parse(JSON.stringify(e.fieldsV1))), time: e.time });
  return out;
}

/** The update's rules, spelled out: what the entries of `live` become when `manager` writes `next`. */
function expected(type: ObjectType, live: KubeObject, next: KubeObject, manager: string, t: string, sent?: ManagedFieldsEntry[]): Map<string, { set: FieldSet; time?: string }> {
  // an existing object that no manager owns any part of is not tracked by updates
  if (!(sent ?? live.metadata?.managedFields)?.length) return new Map();
  const c = compare(type.root, withoutManagedFields(live), withoutManagedFields(next));
  const removed = c.removed.recursiveDifference(STATUS);
  const changed = c.added.union(c.modified).recursiveDifference(STATUS);
  const out = new Map<string, { set: FieldSet; time?: string }>();
  for (const [m, v] of setsOf(live, sent)) {
    const s = v.set.difference(changed).difference(removed);
    if (!s.empty()) out.set(m, { set: s, time: v.time });
  }
  const own = changed.difference(STRIP);
  if (!own.empty()) out.set(manager, { set: own.union(out.get(manager)?.set ?? new FieldSet()), time: t });
  return out;
}

function write(type: ObjectType, live: KubeObject, body: JsonObject, manager: string, t: string, apiVersion: string, sent?: ManagedFieldsEntry[]): KubeObject {
  // the sent managedFields are the live ones as a client read them (JSON text parsed again), or `sent`
  const next = { ...body, metadata: { ...(body.metadata as JsonObject), managedFields: JSON.parse(JSON.stringify(sent ?? live.metadata?.managedFields ?? [])) } } as KubeObject;
  return updateManagedFields(type, live, next, { manager, apiVersion, time: t, resetFields: [['status']] });
}

function prepared(o: JsonObject, apiVersion: string, kind: string): JsonObject {
  // a label in every object: the object always has an owner (an object nobody owns is not tracked)
  const meta = (o.metadata as JsonObject) ?? {};
  const labels = { ...((meta.labels as JsonObject | null) ?? {}), owned: 'init' };
  const metadata: JsonObject = { ...meta, name: 'x', uid: 'u', labels };
  delete metadata.managedFields;
  return { ...o, apiVersion, kind, metadata };
}

describe('an update by the manager that owns what it changes', () => {
  test('the catalog has its kinds', () => expect(kinds.size).toBeGreaterThan(50));
  for (const [definition, kind] of kinds) {
    test(`${kind} (${definition}): the entries follow the update's rules, the unchanged set keeps its encoding`, () => {
      const type = objectTypeFor({ $ref: definition }, defs);
      const apiVersion = 'v1';
      const objs = objects(definition, 6).map((o) => prepared(o, apiVersion, kind));
      let live = updateManagedFields(type, null, objs[0] as KubeObject, { manager: 'a', apiVersion, time: time(0), resetFields: [['status']] });
      live = { ...live, metadata: { ...live.metadata, uid: 'u' } };
      let step = 1;
      const check = (manager: string, body: JsonObject) => {
        const t = time(step++);
        const want = expected(type, live, body as KubeObject, manager, t);
        const got = write(type, live, body, manager, t, apiVersion);
        const sets = setsOf(got);
        expect([...sets.keys()].sort()).toEqual([...want.keys()].sort());
        for (const [m, w] of want) {
          expect(sets.get(m)!.set.toFieldsV1()).toEqual(w.set.toFieldsV1());
          expect(sets.get(m)!.time).toBe(w.time);
        }
        // each entry's fieldsV1 is the encoding of its set, byte for byte
        for (const e of (got.metadata?.managedFields ?? []) as ManagedFieldsEntry[]) {
          expect(JSON.stringify(e.fieldsV1)).toBe(JSON.stringify(FieldSet.fromFieldsV1(JSON.parse(JSON.stringify(e.fieldsV1))).toFieldsV1()));
        }
        live = got;
        return got;
      };
      const label = (o: KubeObject, v: string): JsonObject => ({ ...o, metadata: { ...withoutManagedFields(o).metadata as JsonObject, labels: { ...(o.metadata?.labels ?? {}), owned: v } } }) as JsonObject;
      for (let i = 1; i < objs.length; i++) {
        check(i % 3 === 2 ? 'b' : 'a', objs[i]);
        // a label of the writer's own, written again and again: the writer's set stays as it was
        check('a', label(live, `x${i}`));
        const first = check('a', label(live, `y${i}`));
        const again = check('a', label(live, `z${i}`));
        const entry = (o: KubeObject) => o.metadata!.managedFields!.find((e) => e.manager === 'a')!;
        expect(entry(again).fieldsV1).toEqual(entry(first).fieldsV1);
        expect(entry(again).fieldsV1).toBe(entry(first).fieldsV1);
        // nothing changed: no entry moves
        check(i % 2 ? 'a' : 'b', withoutManagedFields(live));
      }
    });
  }
});

describe('an update that looks like the owner\'s own but is not', () => {
  // each case breaks one condition of the shortcut (merge/updater.ts owned()); the sent managedFields stand
  // for what a client may send (sets that overlap, an empty one, never-tracked paths)
  const r = builtins.resources.find((x) => x.kind === 'ConfigMap' && !x.group)!;
  const type = objectTypeFor({ $ref: r.definition }, defs);
  const entry = (manager: string, fieldsV1: JsonObject): ManagedFieldsEntry => ({ manager, operation: 'Update', apiVersion: 'v1', time: time(0), fieldsType: 'FieldsV1', fieldsV1 });
  const labels = (...keys: string[]): JsonObject => ({ 'f:metadata': { 'f:labels': Object.fromEntries([['.', {}], ...keys.map((k) => [`f:${k}`, {}])]) } });
  const cm = (meta: JsonObject, data: JsonObject = { k: 'v' }): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'd', uid: 'u', ...meta }, data }) as KubeObject;
  const live = cm({ labels: { mine: '1', theirs: '1', shared: '1', free: '1' }, generation: 1 });
  const run = (body: KubeObject, sent: ManagedFieldsEntry[]) => {
    const t = time(9);
    const want = expected(type, live, body, 'a', t, sent);
    const got = setsOf(write(type, live, body as JsonObject, 'a', t, 'v1', sent));
    expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
    for (const [m, w] of want) {
      expect(got.get(m)!.set.toFieldsV1()).toEqual(w.set.toFieldsV1());
      expect(got.get(m)!.time).toBe(w.time);
    }
    return got;
  };
  const base = [entry('a', { ...labels('mine', 'shared'), 'f:data': { '.': {}, 'f:k': {} } }), entry('b', labels('theirs'))];

  test('the writer changes a field another manager owns: it takes it', () => {
    const got = run(cm({ labels: { mine: '1', theirs: '2', shared: '1', free: '1' }, generation: 1 }), base);
    expect(got.get('b')!.set.toFieldsV1()).toEqual({ 'f:metadata': { 'f:labels': {} } });
  });
  test('the writer changes a field nobody owns: it takes it', () => {
    const got = run(cm({ labels: { mine: '1', theirs: '1', shared: '1', free: '2' }, generation: 1 }), base);
    expect(got.get('a')!.set.toFieldsV1()).toEqual({ ...labels('free', 'mine', 'shared'), 'f:data': { '.': {}, 'f:k': {} } });
  });
  test('the writer changes a field it owns with another manager: the other one loses it', () => {
    const got = run(cm({ labels: { mine: '1', theirs: '1', shared: '2', free: '1' }, generation: 1 }), [base[0], entry('b', labels('theirs', 'shared'))]);
    expect(got.get('b')!.set.toFieldsV1()).toEqual(labels('theirs'));
  });
  test('the writer removes a field another manager owns: the other one loses it', () => {
    const got = run(cm({ labels: { mine: '2', shared: '1', free: '1' }, generation: 1 }), base);
    expect(got.get('b')!.set.toFieldsV1()).toEqual({ 'f:metadata': { 'f:labels': {} } });
  });
  test('a manager with an empty set is dropped', () => {
    const got = run(cm({ labels: { mine: '2', theirs: '1', shared: '1', free: '1' }, generation: 1 }), [...base, entry('c', {})]);
    expect(got.has('c')).toBe(false);
  });
  test('a never-tracked path the writer was sent as its own and changes leaves its set', () => {
    const got = run(cm({ labels: { mine: '1', theirs: '1', shared: '1', free: '1' }, generation: 2 }), [entry('a', { ...labels('mine', 'shared'), 'f:metadata': { 'f:generation': {}, 'f:labels': { '.': {}, 'f:mine': {}, 'f:shared': {} } } }), base[1]]);
    expect(got.get('a')!.set.toFieldsV1()).toEqual({ ...labels('mine', 'shared') });
  });
  test('the writer changes only what it owns: nothing moves but its time', () => {
    const got = run(cm({ labels: { mine: '2', theirs: '1', shared: '1', free: '1' }, generation: 1 }), base);
    expect(got.get('a')!.time).toBe(time(9));
    expect(got.get('b')!.time).toBe(time(0));
  });
});
