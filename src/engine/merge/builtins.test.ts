// Every built-in kind: its typed schema builds, a create is tracked and an apply round-trips.
import { describe, expect, test } from 'vitest';
import { builtins } from '../resources/generated/builtins.js';
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
