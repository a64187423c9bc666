// Defaulting of custom resources from `default` in the structural schema [K8S apiextensions-apiserver
// schema/defaulting]: missing properties (and non-nullable nulls) take a deep copy of their default, in
// objects, map values and list items, recursively. Non-nullable nulls without a default are dropped first
// (PruneNonNullableNullsWithoutDefaults, done by the real server while decoding when fields are pruned).

import { clone, isPlainObject } from '../object.js';
import type { Schema } from '../schema/types.js';

function fieldSchema(s: Schema | undefined, k: string): Schema | undefined {
  if (!s) return undefined;
  if (s.properties && k in s.properties) return s.properties[k];
  if (s.additionalProperties && typeof s.additionalProperties === 'object') return s.additionalProperties;
  return undefined;
}

export function pruneNonNullableNullsWithoutDefaults(x: unknown, s: Schema | undefined): void {
  if (isPlainObject(x)) {
    const rec = x as Record<string, unknown>;
    for (const k of Object.keys(rec)) {
      const fs = fieldSchema(s, k);
      if (rec[k] === null && fs && !fs.nullable && fs.default === undefined) delete rec[k];
      else pruneNonNullableNullsWithoutDefaults(rec[k], fs);
    }
  } else if (Array.isArray(x)) {
    for (const v of x) pruneNonNullableNullsWithoutDefaults(v, s?.items);
  }
}

const nonNullableNull = (v: unknown, s: Schema | undefined) => v === null && !!s && !s.nullable;

export function applyDefaults(x: unknown, s: Schema | undefined): void {
  if (!s) return;
  if (isPlainObject(x)) {
    const rec = x as Record<string, unknown>;
    for (const [k, prop] of Object.entries(s.properties ?? {})) {
      if (prop.default === undefined || prop.default === null) continue;
      if (!(k in rec) || rec[k] === undefined || nonNullableNull(rec[k], prop)) rec[k] = clone(prop.default);
    }
    const ap = s.additionalProperties && typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
    for (const k of Object.keys(rec)) {
      const prop = s.properties?.[k];
      if (prop) applyDefaults(rec[k], prop);
      else if (ap) {
        if (nonNullableNull(rec[k], ap) && ap.default !== undefined && ap.default !== null) rec[k] = clone(ap.default);
        applyDefaults(rec[k], ap);
      }
    }
  } else if (Array.isArray(x)) {
    const items = s.items;
    if (!items) return;
    for (let i = 0; i < x.length; i++) {
      if (nonNullableNull(x[i], items) && items.default !== undefined && items.default !== null) x[i] = clone(items.default);
      applyDefaults(x[i], items);
    }
  }
}
