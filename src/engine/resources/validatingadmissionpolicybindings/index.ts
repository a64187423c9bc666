// ValidatingAdmissionPolicyBindings (admissionregistration.k8s.io/v1): defaults, main checks, printer.

import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';
import { defaultMatchResources, validateBinding } from '../common/admission-policy.js';
import { formatLabelSelector } from '../common/labels.js';
import { ageColumn, col, o, str } from '../common/printers.js';

export const validatingadmissionpolicybindings = builtin('admissionregistration.k8s.io', 'v1', 'validatingadmissionpolicybindings', {
  // the real strategy refuses an update without a resourceVersion (AllowUnconditionalUpdate is false)
  allowUnconditionalUpdate: false,
  default: (obj) => defaultMatchResources(o(obj.spec).matchResources),
  validateObject: (obj) => validateBinding(obj),
  tableColumns: [
    col('PolicyName', 'string', 'PolicyName indicates the policy definition which the policy binding binded to', (obj) => str(o(obj.spec).policyName)),
    col('ParamRef', 'string', 'ParamRef indicates the param resource which sets the configration param', (obj) => {
      const pr = o(obj.spec).paramRef;
      if (!pr) return '<unset>';
      const r = o(pr);
      if (str(r.name)) return str(r.namespace) ? `${str(r.namespace)}/${str(r.name)}` : `*/${str(r.name)}`;
      if (r.selector) return formatLabelSelector(r.selector);
      return '<unset>';
    }),
    ageColumn(),
  ],
}) satisfies ResourceDefinition;
