// ResourceQuotas (core v1): quantity checks of ValidateResourceQuota, the printer (Request / Limit). Usage is
// the business of the quota controller (controllers/resource-quota.ts) and of ResourceQuota admission.

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';
import { parseQuantity } from '../common/quantity.js';
import { ageColumn, col, o, str } from '../common/printers.js';
import { invalidRepr } from '../common/go-repr.js';
import { goQuote } from '../../codec/go-format.js';

/** ValidateResourceQuotaUpdate: the set of scopes never changes (the value printed as Go's %#v of the slice). */
function validateQuotaChange(obj: KubeObject, old: KubeObject): FieldError[] {
  const scopes = o(obj.spec).scopes;
  const list = Array.isArray(scopes) ? scopes.map(String) : [];
  const prev = o(old.spec).scopes;
  const oldList = Array.isArray(prev) ? prev.map(String) : [];
  const a = new Set(list);
  const b = new Set(oldList);
  if (a.size === b.size && [...a].every((x) => b.has(x))) return [];
  const repr = Array.isArray(scopes) ? `[]core.ResourceQuotaScope{${list.map(goQuote).join(', ')}}` : '[]core.ResourceQuotaScope(nil)';
  return [invalidRepr('spec.scopes', repr, 'field is immutable')];
}

function validateQuota(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(o(o(obj.spec).hard))) {
    const q = parseQuantity(v);
    if (q !== null && q < 0) errs.push(fieldErr.invalid(`spec.hard[${k}]`, String(v), 'must be greater than or equal to 0'));
  }
  const scopes = o(obj.spec).scopes;
  const valid = ['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity', 'VolumeAttributesClass'];
  if (Array.isArray(scopes)) {
    for (const s of scopes) if (!valid.includes(String(s))) errs.push(fieldErr.invalid('spec.scopes', s, 'unsupported scope'));
  }
  return errs;
}

function quotaColumn(obj: KubeObject, limits: boolean): string {
  const st = o(obj.status);
  const hard = o(st.hard);
  const used = o(st.used);
  const parts: string[] = [];
  for (const r of Object.keys(hard).sort()) {
    const isLimit = r.split('.').length > 1 && r.split('.')[0] === 'limits';
    if (isLimit !== limits) continue;
    parts.push(`${r}: ${str(used[r] ?? '0')}/${str(hard[r])}`);
  }
  return parts.join(', ');
}

export const resourcequotas = builtin('', 'v1', 'resourcequotas', {
  // status starts empty and a spec update keeps it (the store does both): the quota controller fills
  // status.hard and status.used, and ResourceQuota admission charges status.used
  validateObject: (obj) => validateQuota(obj),
  validateChange: validateQuotaChange,
  tableColumns: [
    col('Request', 'string', 'Request represents a minimum amount of cpu/memory that a container may consume.', (obj) => quotaColumn(obj, false)),
    col('Limit', 'string', 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.', (obj) => quotaColumn(obj, true)),
    ageColumn(),
  ],
}) satisfies ResourceDefinition;
