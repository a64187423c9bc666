// Namespaces (core v1): SetDefaults_Namespace (kubernetes.io/metadata.name label), status phase Active,
// the namespace strategy (spec.finalizers gets "kubernetes" on create and changes only through /finalize),
// validation, field selectors and the printer.

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
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

export const namespaces = builtin('', 'v1', 'namespaces', {
  nameValidator: nameIsDNSLabel,
  default: defaultNamespace,
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
      const spec = (obj.spec = o(obj.spec));
      const prev = o(old.spec);
      if (prev.finalizers !== undefined) spec.finalizers = prev.finalizers;
      else delete spec.finalizers;
      if (old.status !== undefined) obj.status = old.status;
    }
  },
  validateObject: (obj) => validateNamespaceFinalizers(obj),
  selectableFields: (obj) => ({ 'status.phase': str(o(obj.status).phase) }),
  tableColumns: [col('Status', 'string', 'The status of the namespace', (obj) => str(o(obj.status).phase)), ageColumn()],
}) satisfies ResourceDefinition;
