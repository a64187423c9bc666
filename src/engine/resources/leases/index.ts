// Leases (coordination.k8s.io/v1): ValidateLease (main checks), printer.

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { validateNonnegative } from '../../util/validation.js';
import { builtin } from '../factory.js';
import { ageColumn, col, o, str } from '../common/printers.js';

function validateLease(obj: KubeObject): FieldError[] {
  const spec = o(obj.spec);
  const errs: FieldError[] = [];
  if (typeof spec.leaseDurationSeconds === 'number' && spec.leaseDurationSeconds <= 0) {
    errs.push(fieldErr.invalid('spec.leaseDurationSeconds', spec.leaseDurationSeconds, 'must be greater than 0'));
  }
  errs.push(...validateNonnegative(spec.leaseTransitions, 'spec.leaseTransitions'));
  return errs;
}

export const leases = builtin('coordination.k8s.io', 'v1', 'leases', {
  allowCreateOnUpdate: true,
  validateObject: (obj) => validateLease(obj),
  tableColumns: [
    col('Holder', 'string', 'holderIdentity contains the identity of the holder of a current lease. If Coordinated Leader Election is used, the holder identity must be equal to the elected LeaseCandidate.metadata.name field.', (obj) => str(o(obj.spec).holderIdentity)),
    ageColumn(),
  ],
}) satisfies ResourceDefinition;
