// NetworkPolicies (networking.k8s.io/v1): SetDefaults_NetworkPolicy (policyTypes, port protocol), checks,
// printer.

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';
import { formatLabelSelector, validateLabelSelector } from '../common/labels.js';
import { a, ageColumn, col, o } from '../common/printers.js';

function defaultNetworkPolicy(obj: KubeObject): void {
  const spec = (obj.spec = o(obj.spec));
  for (const rule of [...a(spec.ingress), ...a(spec.egress)]) for (const p of a(rule.ports)) if (!p.protocol) p.protocol = 'TCP';
  if (!Array.isArray(spec.policyTypes) || spec.policyTypes.length === 0) {
    const types = ['Ingress'];
    if (a(spec.egress).length > 0) types.push('Egress');
    spec.policyTypes = types;
  }
}

function validateNetworkPolicy(obj: KubeObject): FieldError[] {
  const spec = o(obj.spec);
  const errs = validateLabelSelector(spec.podSelector, 'spec.podSelector');
  const types = Array.isArray(spec.policyTypes) ? spec.policyTypes : [];
  types.forEach((t, i) => {
    if (t !== 'Ingress' && t !== 'Egress') errs.push(fieldErr.notSupported(`spec.policyTypes[${i}]`, t, ['Ingress', 'Egress']));
  });
  if (types.length > 2) errs.push(fieldErr.invalid('spec.policyTypes', types, 'may not specify more than two policyTypes'));
  return errs;
}

export const networkpolicies = builtin('networking.k8s.io', 'v1', 'networkpolicies', {
  default: defaultNetworkPolicy,
  validateObject: (obj) => validateNetworkPolicy(obj),
  tableColumns: [
    col('Pod-Selector', 'string', 'podSelector selects the pods to which this NetworkPolicy object applies. The array of rules is applied to any pods selected by this field. An empty selector matches all pods in the policy\'s namespace. Multiple network policies can select the same set of pods. In this case, the ingress rules for each are combined additively. This field is optional. If it is not specified, it defaults to an empty selector.', (obj) => formatLabelSelector(o(obj.spec).podSelector ?? {})),
    ageColumn(),
  ],
}) satisfies ResourceDefinition;
