// Table-driven fixture for server-side apply tests, in the style of structured-merge-diff's
// internal/fixture: a case is a list of operations (apply / update / seed) run in order against one
// live object, then the final object and its managedFields are compared (managedFields byte for byte).

import { expect } from 'vitest';
import type { JsonObject, KubeObject, ManagedFieldsEntry } from '../../object.js';
import { clone } from '../../object.js';
import { isStatusError } from '../../errors.js';
import type { Schema, SchemaRegistry } from '../../schema/types.js';
import { applyPatch, objectTypeFor, updateManagedFields, updateScaleManagedFields, type ObjectType } from '../index.js';

/** RFC3339 time of operation n (seconds after a fixed origin). */
export const T = (n: number): string => new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString().replace('.000Z', 'Z');

export interface OpBase {
  manager: string;
  /** The applied configuration, or the full object of an update (a function receives the live object). */
  object: KubeObject | ((live: KubeObject) => KubeObject);
  apiVersion?: string;
  subresource?: string;
  /** Time index of the operation (defaults to its position, 1-based). */
  at?: number;
  /** Which schema to use ('default' unless given): lets a case change markers between operations. */
  schema?: string;
  resetFields?: string[][];
  /** Expected failure: the exact Status body fields. */
  /** `reason: undefined` asserts that the body has no reason. */
  error?: { code: number; message: string; reason?: string; causes?: { reason: string; message: string; field: string }[] };
}
export interface ApplyOp extends OpBase {
  op: 'apply';
  force?: boolean;
}
export interface UpdateOp extends OpBase {
  op: 'update';
}
/** A write through the scale subresource: `object` is the parent after the write. */
export interface ScaleOp extends OpBase {
  op: 'scale';
  replicasPath?: string[];
}
/** Puts an object in place without any tracking (an object from before managedFields existed). */
export interface SeedOp {
  op: 'seed';
  object: KubeObject;
}
export type Op = ApplyOp | UpdateOp | ScaleOp | SeedOp;

export const apply = (manager: string, object: OpBase['object'], more: Partial<ApplyOp> = {}): ApplyOp => ({ op: 'apply', manager, object, ...more });
export const update = (manager: string, object: OpBase['object'], more: Partial<UpdateOp> = {}): UpdateOp => ({ op: 'update', manager, object, ...more });
export const scale = (manager: string, object: OpBase['object'], more: Partial<ScaleOp> = {}): ScaleOp => ({ op: 'scale', manager, object, ...more });
export const seed = (object: KubeObject): SeedOp => ({ op: 'seed', object });

export interface Case {
  name: string;
  ops: Op[];
  /** Expected final object without metadata.managedFields and metadata.uid. */
  object?: KubeObject;
  /** Expected managedFields (compared as JSON text); null: no managedFields. */
  managed?: ManagedFieldsEntry[] | null;
}

export interface SchemaSet {
  defs: SchemaRegistry;
  /** Root schema per name; 'default' is used unless an op says otherwise. */
  roots: Record<string, Schema>;
  customResource?: boolean;
  apiVersion: string;
  /** Kind the endpoint serves (for custom resources, which carry no group-version-kind). */
  kind?: string;
  /** Defaulting the server runs after the merge (e.g. container port protocol TCP). */
  defaulting?: (o: KubeObject) => void;
}

/** A managedFields entry in the real key order. */
export function mf(
  manager: string,
  operation: 'Apply' | 'Update',
  at: number | undefined,
  fieldsV1: JsonObject,
  apiVersion: string,
  subresource?: string,
): ManagedFieldsEntry {
  const e: ManagedFieldsEntry = { manager, operation, apiVersion };
  if (at !== undefined) e.time = T(at);
  e.fieldsType = 'FieldsV1';
  e.fieldsV1 = fieldsV1;
  if (subresource) e.subresource = subresource;
  return e;
}

function stripForCompare(o: KubeObject): KubeObject {
  const c = clone(o);
  if (c.metadata) {
    delete c.metadata.managedFields;
    delete c.metadata.uid;
  }
  return c;
}

export function runCase(c: Case, s: SchemaSet): KubeObject | null {
  const types: Record<string, ObjectType> = {};
  const typeOf = (name = 'default') => (types[name] ??= objectTypeFor(s.roots[name], s.defs, { customResource: s.customResource }));
  let live: KubeObject | null = null;
  c.ops.forEach((op, i) => {
    if (op.op === 'seed') {
      live = clone(op.object);
      live.metadata = { ...live.metadata, uid: 'uid-1' };
      return;
    }
    const opts = {
      manager: op.manager,
      apiVersion: op.apiVersion ?? s.apiVersion,
      subresource: op.subresource,
      time: T(op.at ?? i + 1),
      resetFields: op.resetFields,
      kind: s.kind,
    };
    const t = typeOf(op.schema);
    const given = typeof op.object === 'function' ? op.object(clone(live as unknown as KubeObject)) : op.object;
    try {
      let next: KubeObject;
      if (op.op === 'apply') {
        next = applyPatch(t, live, clone(given), { ...opts, force: !!op.force });
        s.defaulting?.(next);
      } else if (op.op === 'scale') {
        next = updateScaleManagedFields(live!, clone(given), { ...opts, subresource: 'scale', replicasPath: op.replicasPath });
      } else {
        const input = clone(given);
        if (input.metadata) delete input.metadata.uid;
        if (live) input.metadata = { ...input.metadata, uid: (live as KubeObject).metadata?.uid };
        s.defaulting?.(input); // a write is defaulted when decoded, before its changes are recorded
        next = updateManagedFields(t, live, input, opts);
      }
      if (op.error) throw new Error(`operation ${i + 1} (${op.op} by ${op.manager}) should have failed with: ${op.error.message}`);
      if (!live) next.metadata = { ...next.metadata, uid: 'uid-1' }; // the store assigns a uid on create
      live = next;
    } catch (e) {
      if (!op.error || !isStatusError(e)) throw e;
      expect(e.status.code).toBe(op.error.code);
      expect(e.status.message).toBe(op.error.message);
      if ('reason' in op.error) expect(e.status.reason).toBe(op.error.reason);
      if (op.error.causes) expect(e.status.details?.causes).toEqual(op.error.causes);
    }
  });
  const final = live as KubeObject | null;
  if (c.object !== undefined) expect(final && stripForCompare(final)).toEqual(c.object);
  if (c.managed !== undefined) {
    const got = final?.metadata?.managedFields;
    expect(JSON.stringify(got ?? null, null, 1)).toBe(JSON.stringify(c.managed, null, 1));
  }
  return final;
}
