// PodDisruptionBudgets (policy/v1): ValidatePodDisruptionBudget (main checks), zero status on create, printer.

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';
import { isNotMoreThan100Percent, validatePositiveIntOrPercent } from '../common/intstr.js';
import { validateLabelSelector } from '../common/labels.js';
import { ageColumn, col, int, o, zeroStatusFields } from '../common/printers.js';

function validatePDB(obj: KubeObject): FieldError[] {
  const spec = o(obj.spec);
  const errs: FieldError[] = [];
  if (spec.minAvailable !== undefined && spec.minAvailable !== null && spec.maxUnavailable !== undefined && spec.maxUnavailable !== null) {
    errs.push(fieldErr.invalid('spec', spec, 'minAvailable and maxUnavailable cannot be both set'));
  }
  errs.push(...validatePositiveIntOrPercent(spec.minAvailable, 'spec.minAvailable'));
  errs.push(...isNotMoreThan100Percent(spec.minAvailable, 'spec.minAvailable'));
  errs.push(...validatePositiveIntOrPercent(spec.maxUnavailable, 'spec.maxUnavailable'));
  errs.push(...isNotMoreThan100Percent(spec.maxUnavailable, 'spec.maxUnavailable'));
  errs.push(...validateLabelSelector(spec.selector, 'spec.selector'));
  const policy = spec.unhealthyPodEvictionPolicy;
  if (policy !== undefined && policy !== null && policy !== 'IfHealthyBudget' && policy !== 'AlwaysAllow') {
    errs.push(fieldErr.notSupported('spec.unhealthyPodEvictionPolicy', policy, ['AlwaysAllow', 'IfHealthyBudget']));
  }
  return errs;
}

const intOrString = (v: unknown) => (v === undefined || v === null ? 'N/A' : String(v));

export const poddisruptionbudgets = builtin('policy', 'v1', 'poddisruptionbudgets', {
  default: (obj) => zeroStatusFields(obj, ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods']),
  validateObject: (obj) => validatePDB(obj),
  tableColumns: [
    col('Min Available', 'string', 'The minimum number of pods that must be available.', (obj) => intOrString(o(obj.spec).minAvailable)),
    col('Max Unavailable', 'string', 'The maximum number of pods that may be unavailable.', (obj) => intOrString(o(obj.spec).maxUnavailable)),
    col('Allowed Disruptions', 'integer', 'Calculated number of pods that may be disrupted at this time.', (obj) => int(o(obj.status).disruptionsAllowed)),
    ageColumn(),
  ],
}) satisfies ResourceDefinition;
