import { describe, expect, test } from 'vitest';
import { builtins } from '../resources/generated/builtins.js';
import type { JsonObject } from '../object.js';
import { FieldSet } from '../fieldpath/set.js';
import { objectTypeFor, updateManagedFields } from './index.js';
import { Updater } from './updater.js';

// A write with no manager before it (a create, a `[{}]` reset) records its set through Updater.first, a
// shortcut of update() with no managers: the two must give the same set, with and without ignored fields.
const kinds = ['Namespace', 'ConfigMap', 'Pod', 'Deployment', 'Service'];
const status = FieldSet.of([{ field: 'status' }]);

function objectOf(kind: string, apiVersion: string): JsonObject {
  const base: JsonObject = { apiVersion, kind, metadata: { name: 'x', namespace: 'd', labels: { a: 'b' }, annotations: { n: 'v' } } };
  if (kind === 'Namespace') return { ...base, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } };
  if (kind === 'ConfigMap') return { ...base, data: { k: 'v', e: '' }, binaryData: {} };
  const pod = { containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 80, protocol: 'TCP' }], env: [{ name: 'E', value: '1' }] }], restartPolicy: 'Always' };
  if (kind === 'Pod') return { ...base, spec: pod, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } };
  if (kind === 'Deployment') return { ...base, spec: { replicas: 0, selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: pod } }, status: { replicas: 1 } };
  return { ...base, spec: { ports: [{ port: 80, protocol: 'TCP' }], selector: { a: 'b' }, type: 'ClusterIP' }, status: {} };
}

describe('a write with no manager before it', () => {
  for (const kind of kinds) {
    const r = builtins.resources.find((x) => x.kind === kind)!;
    const apiVersion = r.group ? `${r.group}/${r.version}` : r.version;
    const type = objectTypeFor({ $ref: r.definition }, builtins.definitions);
    const obj = objectOf(kind, apiVersion);
    for (const ignored of [undefined, status]) {
      test(`${kind}${ignored ? ', status ignored' : ''}: first() gives update()'s set, from the empty object and from a live one`, () => {
        const u = new Updater(type.root, ignored);
        const zero = type.zero();
        const viaUpdate = u.update(zero, obj, apiVersion, new Map(), 'm').get('m')?.set ?? new FieldSet();
        const first = u.first(zero, obj);
        expect(first.empty()).toBe(false);
        expect(first.equals(viaUpdate)).toBe(true);
        expect(first.toFieldsV1()).toEqual(viaUpdate.toFieldsV1());
        // a reset of an existing object: compared with the live state, not the empty one
        const live = { ...obj, metadata: { name: 'x', namespace: 'd', labels: { a: 'c', z: '1' } } };
        const fromLive = u.update(live, obj, apiVersion, new Map(), 'm').get('m')?.set ?? new FieldSet();
        expect(u.first(live, obj).equals(fromLive)).toBe(true);
      });
    }
  }

  test('a create and a reset record one Update entry of the writer, without the never-tracked metadata', () => {
    const r = builtins.resources.find((x) => x.kind === 'ConfigMap' && !x.group)!;
    const type = objectTypeFor({ $ref: r.definition }, builtins.definitions);
    const opts = { manager: 'm', apiVersion: 'v1', time: '2026-01-01T00:00:00Z' };
    const created = updateManagedFields(type, null, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'd', uid: 'u', labels: { a: 'b' } }, data: { k: 'v' } }, opts);
    expect(created.metadata!.managedFields).toEqual([
      { manager: 'm', operation: 'Update', apiVersion: 'v1', time: opts.time, fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { '.': {}, 'f:k': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } } } },
    ]);
    // nothing but never-tracked metadata: no entry at all
    const bare = updateManagedFields(type, null, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'y', namespace: 'd' } }, opts);
    expect(bare.metadata!.managedFields).toBeUndefined();
    // a reset ([{}]) of a live object: the writer owns what it changed, from nothing
    const live = { ...created, metadata: { ...created.metadata!, uid: 'u' } };
    const reset = updateManagedFields(type, live, { ...live, metadata: { ...live.metadata, labels: { a: 'c' }, managedFields: [{}] }, data: { k: 'v' } }, { ...opts, manager: 'n' });
    expect(reset.metadata!.managedFields).toEqual([
      { manager: 'n', operation: 'Update', apiVersion: 'v1', time: opts.time, fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': { 'f:a': {} } } } },
    ]);
  });
});
