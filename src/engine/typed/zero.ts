// The "new empty object" of a built-in kind as the real server sees it when it tracks a create: the Go
// zero value converted to unstructured, where value-typed structs (metadata, spec, status, strategy,
// template...) are present as `{}` and required pointers/slices as null. Only presence matters: it
// decides whether a created struct appears with `".": {}` in the creator's managedFields (it does not
// for `spec`, `spec.template`, `spec.strategy`; it does for `metadata.labels`, `rollingUpdate`...).
// The OpenAPI does not say which fields are value structs; this approximates it with the required
// fields plus the struct fields that are values in every built-in kind.

import type { JsonObject, JsonValue } from '../object.js';
import { ext, resolve, type Schema, type SchemaRegistry } from '../schema/types.js';

const VALUE_STRUCTS = new Set(['metadata', 'spec', 'status', 'strategy', 'updateStrategy', 'template']);
/** Value-typed struct fields under other names, by `<definition>.<field>`. */
const EXTRA_VALUE_STRUCTS = new Set([
  'io.k8s.api.core.v1.PersistentVolumeClaimSpec.resources',
  'io.k8s.api.core.v1.Event.source',
]);
/** Pointers despite a value-struct name. */
const POINTER_STRUCTS = new Set(['io.k8s.api.core.v1.ReplicationControllerSpec.template']);

function refName(s: Schema): string | undefined {
  const r = s.$ref ?? (s.allOf?.length === 1 ? s.allOf[0].$ref : undefined);
  return r ? r.slice(r.lastIndexOf('/') + 1) : undefined;
}

function isGranularStruct(s: Schema | undefined): boolean {
  return !!s && s.type === 'object' && !!s.properties && s.additionalProperties === undefined && ext(s, 'map-type') !== 'atomic';
}

function zeroScalar(s: Schema | undefined): JsonValue {
  if (!s) return null;
  if (s.type === 'string' && !s.format) return '';
  if (s.type === 'integer' || s.type === 'number') return 0;
  if (s.type === 'boolean') return false;
  return null;
}

function zeroStruct(s: Schema, defs: SchemaRegistry, depth: number, defName: string | undefined): JsonObject {
  const out: JsonObject = {};
  if (depth > 8) return out;
  const required = new Set(s.required ?? []);
  for (const [name, prop] of Object.entries(s.properties ?? {})) {
    const r = resolve(prop, defs);
    const q = `${defName}.${name}`;
    const value = (VALUE_STRUCTS.has(name) || EXTRA_VALUE_STRUCTS.has(q)) && !POINTER_STRUCTS.has(q);
    if (isGranularStruct(r) && (value || required.has(name))) {
      out[name] = name === 'metadata' ? { creationTimestamp: null } : zeroStruct(r!, defs, depth + 1, refName(prop));
    } else if (required.has(name)) {
      out[name] = r?.type === 'array' || r?.type === 'object' ? null : zeroScalar(r);
    }
  }
  return out;
}

export function zeroObject(schema: Schema, defs: SchemaRegistry, customResource: boolean): JsonObject {
  if (customResource) return {};
  const r = resolve(schema, defs);
  if (!r || !r.properties) return {};
  const out = zeroStruct(r, defs, 0, refName(schema));
  // TypeMeta of a new typed object is empty
  delete out.apiVersion;
  delete out.kind;
  return out;
}
