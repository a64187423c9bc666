// Namespaces (core v1): SetDefaults_Namespace (kubernetes.io/metadata.name label), status phase Active,
// the namespace strategy (spec.finalizers gets "kubernetes" on create and changes only through /finalize),
// validation, field selectors and the printer.

import { rfc3339 } from '../../env.js';
import { conflict, fieldErr, type FieldError } from '../../errors.js';
import { clone, type KubeObject } from '../../object.js';
import type { ResourceDefinition, RestDeleteContext } from '../../registry/types.js';
import { admitNamespaceLifecycle } from '../../admission/namespace-lifecycle.js';
import { isQualifiedName, nameIsDNSLabel } from '../../util/validation.js';
import { builtin } from '../factory.js';
import { ageColumn, col, o, str } from '../common/printers.js';

const STANDARD = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

function defaultNamespace(obj: KubeObject): void {
  const meta = (obj.metadata ??= {});
  if (meta.name) meta.labels = { ...(meta.labels ?? {}), 'kubernetes.io/metadata.name': meta.name };
  const st = (obj.status = o(obj.status));
  if (!st.phase) st.phase = 'Active';
}

function validateNamespaceFinalizers(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const fins = o(obj.spec).finalizers;
  if (!Array.isArray(fins)) return errs;
  fins.forEach((f, i) => {
    const name = String(f);
    for (const m of isQualifiedName(name)) errs.push(fieldErr.invalid(`spec.finalizers[${i}]`, name, m));
    if (!name.includes('/') && !STANDARD.has(name)) {
      errs.push(fieldErr.invalid(`spec.finalizers[${i}]`, name, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
  });
  return errs;
}

/**
 * The namespace registry's own delete [K8S pkg/registry/core/namespace/storage]: the first delete only marks
 * the namespace (deletionTimestamp, phase Terminating, orphan/foregroundDeletion finalizers from the options)
 * and the namespace controller empties it; while spec.finalizers remain a delete answers the namespace as it
 * is; after that the generic store's delete applies.
 */
async function deleteNamespace(ctx: RestDeleteContext): Promise<{ object: KubeObject; deleted: boolean; finalized: boolean }> {
  const ns = clone(ctx.current);
  const meta = (ns.metadata ??= {});
  const opts = ctx.options;
  const pre = (opts.preconditions ??= {});
  const gr = { group: '', resource: 'namespaces' };
  if (pre.uid === undefined) pre.uid = meta.uid ?? '';
  else if (pre.uid !== meta.uid) {
    throw conflict(gr, ctx.name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${meta.uid ?? ''}`);
  }
  if (pre.resourceVersion !== undefined && pre.resourceVersion !== meta.resourceVersion) {
    throw conflict(gr, ctx.name, `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${meta.resourceVersion ?? ''}`);
  }
  admitNamespaceLifecycle({ operation: 'DELETE', group: '', resource: 'namespaces', namespaced: false, namespace: '', name: ctx.name, lookupNamespace: () => undefined });
  if (!meta.deletionTimestamp) {
    meta.deletionTimestamp = rfc3339(ctx.now);
    ns.status = { ...o(ns.status), phase: 'Terminating' };
    const current = new Set(meta.finalizers ?? []);
    const want: [string, boolean][] = [
      ['orphan', opts.orphanDependents !== undefined ? opts.orphanDependents : opts.propagationPolicy !== undefined ? opts.propagationPolicy === 'Orphan' : current.has('orphan')],
      ['foregroundDeletion', opts.orphanDependents !== undefined ? !opts.orphanDependents : opts.propagationPolicy !== undefined ? opts.propagationPolicy === 'Foreground' : current.has('foregroundDeletion')],
    ];
    let changed = false;
    for (const [f, on] of want) {
      if (current.has(f) !== on) changed = true;
      if (on) current.add(f);
      else current.delete(f);
    }
    if (changed) meta.finalizers = [...current];
    return { object: await ctx.put(ns), deleted: false, finalized: false };
  }
  // prior to the final removal, spec.finalizers must be empty
  const fins = o(ns.spec).finalizers;
  if (Array.isArray(fins) && fins.length > 0) return { object: ctx.current, deleted: false, finalized: false };
  return ctx.generic();
}

export const namespaces = builtin('', 'v1', 'namespaces', {
  restDelete: deleteNamespace,
  // the namespace goes on the update that leaves both spec.finalizers and metadata.finalizers empty
  shouldDeleteDuringUpdate: (obj) => {
    const fins = o(obj.spec).finalizers;
    return !Array.isArray(fins) || fins.length === 0;
  },
  nameValidator: nameIsDNSLabel,
  default: defaultNamespace,
  // defaulting and preparation write the top level and metadata, and in spec only what differs
  copyOnWrite: true,
  prepareForCreate: (obj) => {
    const spec = (obj.spec = o(obj.spec));
    const fins = Array.isArray(spec.finalizers) ? (spec.finalizers as unknown[]) : [];
    if (!fins.includes('kubernetes')) spec.finalizers = [...fins, 'kubernetes'];
    obj.status = { phase: 'Active' };
  },
  prepareForUpdate: (obj, old, ctx) => {
    if (ctx.subresource === 'finalize') {
      obj.status = old.status;
      return;
    }
    if (ctx.subresource === '') {
      // spec.finalizers changes only through the finalize subresource
      // written only when it differs (a copy-on-write update shares the stored spec, frozen)
      const spec = (obj.spec = o(obj.spec));
      const prev = o(old.spec);
      if (prev.finalizers !== undefined) {
        if (spec.finalizers !== prev.finalizers) spec.finalizers = prev.finalizers;
      } else if (spec.finalizers !== undefined) delete spec.finalizers;
      if (old.status !== undefined) obj.status = old.status;
    }
  },
  validateObject: (obj) => validateNamespaceFinalizers(obj),
  selectableFields: (obj) => ({ 'status.phase': str(o(obj.status).phase) }),
  tableColumns: [col('Status', 'string', 'The status of the namespace', (obj) => str(o(obj.status).phase)), ageColumn()],
}) satisfies ResourceDefinition;

// PUT /api/v1/namespaces/{name}/finalize: spec.finalizers changes only there
namespaces.subresources.finalize = true;
