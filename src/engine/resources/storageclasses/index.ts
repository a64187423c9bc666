// StorageClasses (storage.k8s.io/v1): defaults (reclaimPolicy Delete, volumeBindingMode Immediate),
// ValidateStorageClass(+Update), printer.

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { isQualifiedName } from '../../util/validation.js';
import { builtin } from '../factory.js';
import { jsonEqual } from '../common/json.js';
import { ageColumn, col, str } from '../common/printers.js';

function validateStorageClass(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const p = str(obj.provisioner);
  if (!p) errs.push(fieldErr.required('provisioner', ''));
  else for (const m of isQualifiedName(p.toLowerCase())) errs.push(fieldErr.invalid('provisioner', p, m));
  if (obj.reclaimPolicy !== undefined && !['Delete', 'Retain'].includes(str(obj.reclaimPolicy))) {
    errs.push(fieldErr.notSupported('reclaimPolicy', obj.reclaimPolicy, ['Delete', 'Retain']));
  }
  if (obj.volumeBindingMode !== undefined && !['Immediate', 'WaitForFirstConsumer'].includes(str(obj.volumeBindingMode))) {
    errs.push(fieldErr.notSupported('volumeBindingMode', obj.volumeBindingMode, ['Immediate', 'WaitForFirstConsumer']));
  }
  return errs;
}

function validateStorageClassChange(obj: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if (!jsonEqual(obj.parameters ?? {}, old.parameters ?? {})) errs.push(fieldErr.forbidden('parameters', 'updates to parameters are forbidden.'));
  if (obj.provisioner !== old.provisioner) errs.push(fieldErr.forbidden('provisioner', 'updates to provisioner are forbidden.'));
  if (obj.reclaimPolicy !== old.reclaimPolicy) errs.push(fieldErr.forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
  if (obj.volumeBindingMode !== old.volumeBindingMode) errs.push(fieldErr.invalid('volumeBindingMode', obj.volumeBindingMode, 'field is immutable'));
  return errs;
}

export const storageclasses = builtin('storage.k8s.io', 'v1', 'storageclasses', {
  default: (obj) => {
    if (!obj.reclaimPolicy) obj.reclaimPolicy = 'Delete';
    if (!obj.volumeBindingMode) obj.volumeBindingMode = 'Immediate';
  },
  validateObject: (obj) => validateStorageClass(obj),
  validateChange: validateStorageClassChange,
  // The real printer appends " (default)" to the Name cell of the default class; the Name column is the
  // table code's.
  tableColumns: [
    col('Provisioner', 'string', 'provisioner indicates the type of the provisioner.', (obj) => str(obj.provisioner)),
    col('ReclaimPolicy', 'string', 'reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class. Defaults to Delete.', (obj) => str(obj.reclaimPolicy) || 'Delete'),
    col('VolumeBindingMode', 'string', 'volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.  When unset, VolumeBindingImmediate is used. This field is only honored by servers that enable the VolumeScheduling feature.', (obj) => str(obj.volumeBindingMode) || 'Immediate'),
    col('AllowVolumeExpansion', 'string', 'allowVolumeExpansion shows whether the storage class allow volume expand.', (obj) => obj.allowVolumeExpansion === true),
    ageColumn(),
  ],
}) satisfies ResourceDefinition;
