// Rewrites every resource.Quantity in a built-in object to its canonical string, as the real server's
// serialization does; ResourceLists of core types (maps of quantities) are first rounded up to milli units.

import { isPlainObject } from '../../object.js';
import { someChildSchema, type Schema, type SchemaRegistry } from '../../schema/types.js';
import { canonicalQuantity } from './quantity.js';

const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';

function refOf(s: Schema | undefined): string | undefined {
  if (!s) return undefined;
  if (s.$ref) return s.$ref;
  if (s.allOf && s.allOf.length === 1) return s.allOf[0].$ref;
  return undefined;
}

// Whether a value of the schema can hold a quantity anywhere below it, per schema object: most of an
// object cannot (ObjectMeta with its managedFields, env, ports, probes), and the walk skips those parts.
// A schema met again while its answer is being worked out (a recursive definition) counts as holding one.
const mayHoldMemo = new WeakMap<Schema, boolean>();

function mayHoldQuantity(s: Schema, defs: SchemaRegistry): boolean {
  const known = mayHoldMemo.get(s);
  if (known !== undefined) return known;
  const ref = refOf(s);
  if (ref === QUANTITY) {
    mayHoldMemo.set(s, true);
    return true;
  }
  const target = ref ? defs[ref] : s;
  if (!target) {
    mayHoldMemo.set(s, false);
    return false;
  }
  mayHoldMemo.set(s, true);
  let holds = false;
  if (target !== s && mayHoldQuantity(target, defs)) holds = true;
  else if (target === s) holds = someChildSchema(target, (child) => mayHoldQuantity(child, defs));
  mayHoldMemo.set(s, holds);
  return holds;
}

function walk(v: unknown, s: Schema | undefined, defs: SchemaRegistry, owner: string, depth: number): unknown {
  if (v === null || v === undefined || !s || depth > 64) return v;
  if (!mayHoldQuantity(s, defs)) return v;
  const ref = refOf(s);
  if (ref === QUANTITY) {
    const c = canonicalQuantity(v);
    return c ?? v;
  }
  const target = ref ? defs[ref] : s;
  if (!target) return v;
  const name = ref ?? owner;
  if (Array.isArray(v)) {
    if (target.items) {
      for (let i = 0; i < v.length; i++) {
        const w = walk(v[i], target.items, defs, name, depth + 1);
        if (w !== v[i]) v[i] = w;
      }
    }
    return v;
  }
  if (!isPlainObject(v)) return v;
  if (target.properties) {
    // the object's own keys (a few) rather than every property of the schema (PodSpec has dozens)
    const props = target.properties;
    for (const k of Object.keys(v)) {
      if (!Object.hasOwn(props, k)) continue;
      const w = walk(v[k], props[k], defs, name, depth + 1);
      if (w !== v[k]) v[k] = w;
    }
  } else if (target.additionalProperties && typeof target.additionalProperties === 'object') {
    const inner = target.additionalProperties;
    const resourceList = refOf(inner) === QUANTITY && name.startsWith('io.k8s.api.core.v1.');
    for (const k of Object.keys(v)) {
      if (resourceList) {
        const c = canonicalQuantity(v[k], true);
        if (c !== null && c !== v[k]) v[k] = c;
      } else {
        const w = walk(v[k], inner, defs, name, depth + 1);
        if (w !== v[k]) v[k] = w;
      }
    }
  }
  return v;
}

/**
 * Canonicalizes the quantities of `obj` (in place) following the schema of its definition. Only a value
 * that changes is written: parts of the object shared with a stored (frozen) state, already canonical,
 * are read and left alone.
 */
export function canonicalizeQuantities(obj: Record<string, unknown>, definition: string, defs: SchemaRegistry): void {
  // one root schema object per definition: what is worked out per schema object is kept for it
  let root = roots.get(definition);
  if (!root) roots.set(definition, (root = { $ref: definition }));
  walk(obj, root, defs, definition, 0);
}

const roots = new Map<string, Schema>();
