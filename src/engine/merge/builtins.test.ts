// Every built-in kind: its typed schema builds, a create is tracked and an apply round-trips.
import { describe, expect, test } from 'vitest';
import { builtins } from '../resources/generated/builtins.js';
import type { JsonObject, KubeObject, ManagedFieldsEntry } from '../object.js';
import { applyPatch, objectTypeFor, updateManagedFields } from './index.js';

describe('built-in kinds', () => {
  for (const r of builtins.resources) {
    test(`${r.group || 'core'}/${r.version} ${r.kind}`, () => {
      const type = objectTypeFor({ $ref: r.definition }, builtins.definitions);
      expect(type.gvk).toEqual({ group: r.group, version: r.version, kind: r.kind });
      const apiVersion = r.group ? `${r.group}/${r.version}` : r.version;
      const obj = { apiVersion, kind: r.kind, metadata: { name: 'x', labels: { a: 'b' } } };
      const created = updateManagedFields(type, null, obj, { manager: 'm', apiVersion, time: '2026-01-01T00:00:00Z' });
      expect(created.metadata!.managedFields).toEqual([
        { manager: 'm', operation: 'Update', apiVersion, time: '2026-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } } } },
      ]);
      const applied = applyPatch(type, { ...created, metadata: { ...created.metadata, uid: 'u' } }, { ...obj, metadata: { name: 'x', labels: { c: 'd' } } }, {
        manager: 'k', apiVersion, time: '2026-01-01T00:00:01Z', force: false,
      });
      expect(applied.metadata!.labels).toEqual({ a: 'b', c: 'd' });
      expect(applied.metadata!.managedFields!.map((e) => e.manager)).toEqual(['k', 'm']);
    });
  }
});

describe('managedFields sent back with an update', () => {
  const r = builtins.resources.find((x) => x.kind === 'ConfigMap' && !x.group)!;
  const type = objectTypeFor({ $ref: r.definition }, builtins.definitions);
  const freeze = <T>(v: T): T => {
    if (typeof v === 'object' && v !== null) {
      for (const k of Object.keys(v)) freeze((v as Record<string, unknown>)[k]);
      Object.freeze(v);
    }
    return v;
  };
  const entry = (manager: string, time: string, fieldsV1: JsonObject): ManagedFieldsEntry => ({ manager, operation: 'Update', apiVersion: 'v1', time, fieldsType: 'FieldsV1', fieldsV1 });
  const live: KubeObject & { metadata: { managedFields: ManagedFieldsEntry[] } } = freeze({
    apiVersion: 'v1', kind: 'ConfigMap',
    metadata: { name: 'x', uid: 'u', labels: { a: 'b' }, managedFields: [entry('m', '2026-01-01T00:00:00Z', { 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } } })] },
  });
  const opts = { manager: 'n', apiVersion: 'v1', time: '2026-01-01T00:00:05Z' };

  test('the live entries sent back (a copy, keys in another order) are the live ones', () => {
    const sent = structuredClone(live.metadata.managedFields).map((e) => Object.fromEntries(Object.entries(e).reverse()));
    const out = updateManagedFields(type, live, { ...live, metadata: { ...live.metadata, labels: { a: 'b', c: 'd' }, managedFields: sent } }, opts);
    expect(out.metadata!.managedFields).toEqual([
      entry('m', '2026-01-01T00:00:00Z', { 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } } }),
      entry('n', '2026-01-01T00:00:05Z', { 'f:metadata': { 'f:labels': { 'f:c': {} } } }),
    ]);
  });

  test('entries that differ from the live ones are taken as sent', () => {
    const sent = [entry('z', '2026-01-01T00:00:01Z', { 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } } })];
    const out = updateManagedFields(type, live, { ...live, metadata: { ...live.metadata, labels: { a: 'b', c: 'd' }, managedFields: sent } }, opts);
    expect(out.metadata!.managedFields!.map((e) => e.manager)).toEqual(['z', 'n']);
  });
});
