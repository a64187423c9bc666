// RuntimeClasses (node.k8s.io/v1): ValidateRuntimeClass(+Update) and the printer (NAME, HANDLER, AGE).

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { FIELD_IMMUTABLE, isDNS1123Label, validateLabels } from '../../util/validation.js';
import { builtin } from '../factory.js';
import { ageColumn, col, o, str } from '../common/printers.js';

function validateRuntimeClass(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  // the handler names a CRI configuration: a DNS-1123 label (an empty one fails the same check)
  const handler = str(obj.handler);
  for (const m of isDNS1123Label(handler)) errs.push(fieldErr.invalid('handler', handler, m));
  if (obj.scheduling !== undefined && obj.scheduling !== null) {
    errs.push(...validateLabels(o(obj.scheduling).nodeSelector, 'scheduling.nodeSelector'));
  }
  return errs;
}

export const runtimeclasses = builtin('node.k8s.io', 'v1', 'runtimeclasses', {
  validateObject: validateRuntimeClass,
  validateChange: (obj, old) => (obj.handler !== old.handler ? [fieldErr.invalid('handler', str(obj.handler), FIELD_IMMUTABLE)] : []),
  tableColumns: [col('Handler', 'string', 'The name of the CRI handler this RuntimeClass selects.', (obj) => str(obj.handler)), ageColumn()],
}) satisfies ResourceDefinition;
