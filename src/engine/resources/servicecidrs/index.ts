// ServiceCIDRs (networking.k8s.io/v1, GA in v1.33): ValidateServiceCIDR(+Update), the strategy's status
// reset on create, and the printer (NAME, CIDRS, AGE).

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { FIELD_IMMUTABLE } from '../../util/validation.js';
import { builtin } from '../factory.js';
import { jsonEqual } from '../common/json.js';
import { ageColumn, col, o, str } from '../common/printers.js';
import { cidrFamily, validCIDR } from '../common/cidr.js';

const cidrsOf = (obj: KubeObject): string[] => (Array.isArray(o(obj.spec).cidrs) ? (o(obj.spec).cidrs as unknown[]).map(str) : []);

function validateServiceCIDR(obj: KubeObject): FieldError[] {
  const cidrs = cidrsOf(obj);
  const path = 'spec.cidrs';
  if (cidrs.length === 0) return [fieldErr.required(path, 'at least one CIDR required')];
  if (cidrs.length > 2) return [fieldErr.invalid(path, obj.spec, 'may only hold up to 2 values')];
  if (cidrs.length === 2) {
    const f0 = cidrFamily(cidrs[0]);
    const f1 = cidrFamily(cidrs[1]);
    if (!f0 || !f1 || f0 === f1) return [fieldErr.invalid(path, obj.spec, 'may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64')];
  }
  return cidrs.flatMap((c, i) => validCIDR(`${path}[${i}]`, c));
}

export const servicecidrs = builtin('networking.k8s.io', 'v1', 'servicecidrs', {
  validateObject: validateServiceCIDR,
  // a single-family ServiceCIDR may gain a second family; otherwise the ranges are fixed
  validateChange: (obj, old) => {
    const now = cidrsOf(obj);
    const before = cidrsOf(old);
    if (jsonEqual(now, before)) return [];
    if (before.length === 1 && now.length === 2 && now[0] === before[0]) return [];
    return [fieldErr.invalid('spec.cidrs', o(obj.spec).cidrs ?? null, FIELD_IMMUTABLE)];
  },
  tableColumns: [col('CIDRs', 'string', 'The ranges the ServiceCIDR allocates Service cluster IPs from.', (obj) => cidrsOf(obj).join(',')), ageColumn()],
}) satisfies ResourceDefinition;
