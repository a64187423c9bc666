// PriorityClasses (scheduling.k8s.io/v1): preemptionPolicy default, ValidatePriorityClass(+Update), printer.

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';
import { ageColumn, col, int, str } from '../common/printers.js';

const HIGHEST_USER_PRIORITY = 1000000000;
const SYSTEM_CLASSES: Record<string, number> = { 'system-node-critical': 2000001000, 'system-cluster-critical': 2000000000 };

function validatePriorityClass(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const name = obj.metadata?.name ?? '';
  if (name in SYSTEM_CLASSES) {
    if (obj.value !== SYSTEM_CLASSES[name]) {
      errs.push(fieldErr.forbidden('metadata.name', `${name} is a system priority class; its value must be ${SYSTEM_CLASSES[name]}`));
    }
  } else if (name.startsWith('system-')) {
    errs.push(fieldErr.invalid('metadata.name', name, "priority class names with 'system-' prefix are reserved"));
  } else if (int(obj.value) > HIGHEST_USER_PRIORITY) {
    errs.push(fieldErr.forbidden('value', `maximum allowed value of a user defined priority is ${HIGHEST_USER_PRIORITY}`));
  }
  const pp = obj.preemptionPolicy;
  if (pp !== undefined && pp !== 'PreemptLowerPriority' && pp !== 'Never') {
    errs.push(fieldErr.notSupported('preemptionPolicy', pp, ['Never', 'PreemptLowerPriority']));
  }
  return errs;
}

export const priorityclasses = builtin('scheduling.k8s.io', 'v1', 'priorityclasses', {
  default: (obj) => {
    if (!obj.preemptionPolicy) obj.preemptionPolicy = 'PreemptLowerPriority';
  },
  validateObject: (obj) => validatePriorityClass(obj),
  validateChange: (obj, old) => {
    const errs: FieldError[] = [];
    if (obj.value !== old.value) errs.push(fieldErr.forbidden('value', 'may not be changed in an update.'));
    if (obj.preemptionPolicy !== old.preemptionPolicy) errs.push(fieldErr.invalid('preemptionPolicy', obj.preemptionPolicy, 'field is immutable'));
    return errs;
  },
  tableColumns: [
    col('Value', 'integer', 'value represents the integer value of this priority class. This is the actual priority that pods receive when they have the name of this class in their pod spec.', (obj) => int(obj.value)),
    col('Global-Default', 'boolean', 'globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class. Only one PriorityClass can be marked as `globalDefault`. However, if more than one PriorityClasses exists with their `globalDefault` field set to true, the smallest value of such global default PriorityClasses will be used as the default priority.', (obj) => obj.globalDefault === true),
    ageColumn(),
    col('PreemptionPolicy', 'string', 'preemptionPolicy is the Policy for preempting pods with lower priority. One of Never, PreemptLowerPriority. Defaults to PreemptLowerPriority if unset.', (obj) => str(obj.preemptionPolicy)),
  ],
}) satisfies ResourceDefinition;
