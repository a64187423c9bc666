// The stages every write shares, in the real server's order: decode (duplicate fields), field validation
// against the schema (unknown fields: Ignore/Warn/Strict), type checks (400), then the store runs
// defaulting, preparation and validation (422), and managedFields are recorded just before storage.

import { rfc3339 } from '../env.js';
import type { KubeObject } from '../object.js';
import { findUnknownFields, pruneUnknownFields, fieldValidationResult } from './deps.js';
import { checkTypes } from './deps.js';
import { objectTypeFor, updateManagedFields } from './deps.js';
import { groupVersion, type ResourceDefinition } from '../registry/types.js';
import type { FieldValidation, Scope } from './scope.js';

export interface Admitted {
  object: KubeObject;
  warnings: string[];
}

function isCustom(def: ResourceDefinition): boolean {
  return (def as { custom?: boolean }).custom === true;
}

/**
 * Field validation of a decoded body: unknown fields (against the schema) and duplicates. Strict fails with
 * the real 400; Warn returns warnings; unknown fields are dropped before storage at every level.
 */
export function fieldValidate(
  def: ResourceDefinition,
  body: KubeObject,
  duplicates: string[],
  level: FieldValidation,
  ctx: { operation: 'create' | 'update' | 'patch'; mediaType?: 'json' | 'yaml'; patchType?: 'json' | 'merge' | 'strategic'; patchDocument?: unknown } = { operation: 'create' },
): Admitted {
  const custom = isCustom(def);
  const sortKeys = !custom && (ctx.mediaType === 'yaml' || ctx.operation === 'patch');
  const unknown = findUnknownFields(body, def.schema, def.definitions, { customResource: custom, sortKeys });
  const bodyKind = typeof body.kind === 'string' && body.kind !== def.kind ? body.kind : undefined;
  const result = fieldValidationResult(unknown, level === 'Ignore' ? [] : duplicates, level, {
    kind: def.kind,
    version: def.version,
    bodyKind,
    operation: ctx.operation,
    customResource: custom,
    mediaType: ctx.mediaType,
    patchType: ctx.patchType,
    patchedObject: body,
    patchDocument: ctx.patchDocument,
  });
  const object = unknown.length ? (pruneUnknownFields(body, def.schema, def.definitions, { customResource: custom }) as KubeObject) : body;
  return { object, warnings: level === 'Warn' ? result.warnings : [] };
}

/** Wrong JSON types give the decoder's 400, as the real server does for built-in kinds. */
export function typeCheck(def: ResourceDefinition, obj: KubeObject): void {
  if (isCustom(def)) return;
  const err = checkTypes(obj, def.schema, def.definitions, { group: def.group, version: def.version, kind: def.kind });
  if (err) throw err;
}

/** managedFields for a create/update/non-apply patch, as the finalize hook of the store. */
export function recordUpdate(scope: Scope, manager: string, subresource: string) {
  const def = scope.def;
  const type = objectTypeFor(def.schema, def.definitions, { customResource: isCustom(def) });
  return (obj: KubeObject, old: KubeObject | null): KubeObject =>
    updateManagedFields(type, old, obj, {
      manager,
      apiVersion: groupVersion(def),
      subresource: subresource || undefined,
      time: rfc3339(scope.core.env.clock.now()),
      resetFields: resetFieldsFor(def, subresource),
    });
}

/** What an endpoint never tracks (ResetFieldsStrategy): status on the main resource, spec on /status. */
export function resetFieldsFor(def: ResourceDefinition, subresource: string): string[][] | undefined {
  if (subresource === 'status') return [['spec']];
  if (subresource === '' && def.subresources.status) return [['status']];
  return undefined;
}
