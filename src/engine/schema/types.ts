// Schema nodes as the engine keeps them: OpenAPI v3 schema objects, trimmed (no descriptions). Built-in
// kinds come from the generated module (resources/generated/), custom resources from their CRD's
// openAPIV3Schema. `$ref` holds a bare definition name (e.g. "io.k8s.api.core.v1.PodSpec") resolved
// against a SchemaRegistry; output code (openapi endpoints) adds the "#/components/schemas/" prefix.

import type { JsonValue } from '../object.js';

export type SchemaType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';

export interface Schema {
  type?: SchemaType;
  format?: string;
  $ref?: string;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  not?: Schema;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  required?: string[];
  enum?: JsonValue[];
  default?: JsonValue;
  nullable?: boolean;
  maximum?: number;
  minimum?: number;
  exclusiveMaximum?: boolean;
  exclusiveMinimum?: boolean;
  multipleOf?: number;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  maxProperties?: number;
  minProperties?: number;
  'x-kubernetes-group-version-kind'?: { group: string; version: string; kind: string }[];
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-patch-merge-key'?: string;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-unions'?: JsonValue[];
  'x-kubernetes-validations'?: { rule: string; message?: string; messageExpression?: string; reason?: string; fieldPath?: string; optionalOldSelf?: boolean }[];
  [ext: `x-${string}`]: unknown;
}

/** Definitions by bare name. */
export type SchemaRegistry = Record<string, Schema>;

/** Schema extension names are accepted in the `svc` spelling too (docs/design.md 3). */
export function ext<T = unknown>(s: Schema, name: string): T | undefined {
  const k8s = `x-kubernetes-${name}` as const;
  if (k8s in s) return s[k8s] as T;
  const svc = `x-svc-${name}` as const;
  return s[svc] as T | undefined;
}

/** Follows `$ref` (and a single-element allOf wrapper, as swagger writes refs with siblings). */
export function resolve(s: Schema | undefined, defs: SchemaRegistry): Schema | undefined {
  let cur = s;
  for (let i = 0; cur && i < 32; i++) {
    if (cur.$ref) cur = defs[cur.$ref];
    else if (cur.allOf && cur.allOf.length === 1 && !cur.type && !cur.properties) cur = cur.allOf[0];
    else return cur;
  }
  return cur;
}

/** Whether `test` holds for one of the schemas a value of `s` nests directly: items, properties, additionalProperties. */
export function someChildSchema(s: Schema, test: (child: Schema) => boolean): boolean {
  if (s.items && test(s.items)) return true;
  if (s.properties) {
    for (const k in s.properties) if (Object.hasOwn(s.properties, k) && test(s.properties[k])) return true;
  }
  return !!s.additionalProperties && typeof s.additionalProperties === 'object' && test(s.additionalProperties);
}
