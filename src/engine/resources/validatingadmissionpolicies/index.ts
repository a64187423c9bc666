// ValidatingAdmissionPolicies (admissionregistration.k8s.io/v1): defaults, main checks, printer.

import { RESET_OBJECT_META_FOR_STATUS, type ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';
import { defaultPolicy, validatePolicy } from '../common/admission-policy.js';
import { a, ageColumn, col, o, str } from '../common/printers.js';

export const validatingadmissionpolicies = builtin('admissionregistration.k8s.io', 'v1', 'validatingadmissionpolicies', {
  // the status strategy resets metadata (metav1.ResetObjectMetaForStatus)
  statusPinnedMetadata: RESET_OBJECT_META_FOR_STATUS,
  // the real strategy refuses an update without a resourceVersion (AllowUnconditionalUpdate is false)
  allowUnconditionalUpdate: false,
  default: defaultPolicy,
  validateObject: (obj) => validatePolicy(obj),
  tableColumns: [
    col('Validations', 'integer', 'Validations indicates the number of validation rules defined in this configuration', (obj) => a(o(obj.spec).validations).length),
    col('ParamKind', 'string', 'ParamKind specifies the kind of resources used to parameterize this policy', (obj) => {
      const pk = o(obj.spec).paramKind;
      return pk ? `${str(o(pk).apiVersion)}/${str(o(pk).kind)}` : '<unset>';
    }),
    ageColumn(),
  ],
}) satisfies ResourceDefinition;
