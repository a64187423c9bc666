// CSIStorageCapacities (storage.k8s.io/v1): ValidateCSIStorageCapacity(+Update) and the printer
// (NAME, STORAGECLASSNAME, CAPACITY, AGE).

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { isDNS1123Subdomain } from '../../util/validation.js';
import { builtin } from '../factory.js';
import { jsonEqual } from '../common/json.js';
import { ageColumn, col, str } from '../common/printers.js';

function validateCapacity(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const sc = str(obj.storageClassName);
  if (!sc) errs.push(fieldErr.required('storageClassName', ''));
  else for (const m of isDNS1123Subdomain(sc)) errs.push(fieldErr.invalid('storageClassName', sc, m));
  for (const f of ['capacity', 'maximumVolumeSize']) {
    const q = str(obj[f]);
    if (q.startsWith('-')) errs.push(fieldErr.invalid(f, q, 'must be greater than or equal to 0'));
  }
  return errs;
}

export const csistoragecapacities = builtin('storage.k8s.io', 'v1', 'csistoragecapacities', {
  validateObject: validateCapacity,
  // everything but capacity and maximumVolumeSize is fixed
  validateChange: (obj, old) => {
    const errs: FieldError[] = [];
    if (obj.storageClassName !== old.storageClassName) errs.push(fieldErr.invalid('storageClassName', str(obj.storageClassName), 'field is immutable'));
    if (!jsonEqual(obj.nodeTopology ?? null, old.nodeTopology ?? null)) errs.push(fieldErr.invalid('nodeTopology', obj.nodeTopology, 'field is immutable'));
    return errs;
  },
  tableColumns: [
    col('StorageClassName', 'string', 'The storage class the capacity applies to.', (obj) => str(obj.storageClassName)),
    col('Capacity', 'string', 'The available capacity reported by the driver.', (obj) => str(obj.capacity)),
    ageColumn(),
  ],
}) satisfies ResourceDefinition;
