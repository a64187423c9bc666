// PersistentVolumeClaims (core v1): SetDefaults (volumeMode Filesystem, status Pending), the main checks of
// ValidatePersistentVolumeClaim/Update, the printer.

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';
import { jsonEqual } from '../common/json.js';
import { defaultPVCSpec } from '../common/pod.js';
import { ageColumn, col, o, str } from '../common/printers.js';
import { accessModesString, validateAccessModes } from '../persistentvolumes/index.js';

export function validatePVCSpec(specIn: unknown, path: string): FieldError[] {
  const spec = o(specIn);
  const errs = validateAccessModes(spec.accessModes, `${path}.accessModes`);
  const requests = o(o(spec.resources).requests);
  if (requests.storage === undefined) errs.push(fieldErr.required(`${path}.resources[storage]`, ''));
  if (spec.volumeMode !== undefined && !['Block', 'Filesystem'].includes(String(spec.volumeMode))) {
    errs.push(fieldErr.notSupported(`${path}.volumeMode`, spec.volumeMode, ['Block', 'Filesystem']));
  }
  return errs;
}

function validatePVCChange(obj: KubeObject, old: KubeObject): FieldError[] {
  const strip = (s: Record<string, unknown>) => {
    const c = { ...s, resources: { ...o(s.resources) } } as Record<string, unknown>;
    delete (c.resources as Record<string, unknown>).requests;
    delete c.volumeAttributesClassName;
    // binding: volumeName may be set once
    if (!o(old.spec).volumeName) delete c.volumeName;
    return c;
  };
  if (!jsonEqual(strip(o(obj.spec)), strip(o(old.spec)))) {
    return [fieldErr.forbidden('spec', 'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims')];
  }
  return [];
}

export const persistentvolumeclaims = builtin('', 'v1', 'persistentvolumeclaims', {
  default: (obj) => {
    obj.spec = o(obj.spec);
    defaultPVCSpec(obj.spec as Record<string, unknown>);
    const st = (obj.status = o(obj.status));
    if (!st.phase) st.phase = 'Pending';
  },
  validateObject: (obj) => validatePVCSpec(obj.spec, 'spec'),
  validateChange: validatePVCChange,
  tableColumns: [
    col('Status', 'string', 'phase represents the current phase of PersistentVolumeClaim.', (obj) => (obj.metadata?.deletionTimestamp ? 'Terminating' : str(o(obj.status).phase))),
    col('Volume', 'string', 'volumeName is the binding reference to the PersistentVolume backing this claim.', (obj) => str(o(obj.spec).volumeName)),
    col('Capacity', 'string', 'capacity represents the actual resources of the underlying volume.', (obj) => (o(obj.spec).volumeName ? str(o(o(obj.status).capacity).storage) || '0' : '')),
    col('Access Modes', 'string', 'accessModes contains the actual access modes the volume backing the PVC has. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes-1', (obj) => (o(obj.spec).volumeName ? accessModesString(o(obj.status).accessModes) : '')),
    col('StorageClass', 'string', 'StorageClass of the pvc', (obj) => str(o(obj.spec).storageClassName) || str(obj.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'])),
    col('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pvc', (obj) => str(o(obj.spec).volumeAttributesClassName) || '<unset>'),
    ageColumn(),
    col('VolumeMode', 'string', 'volumeMode defines what type of volume is required by the claim. Value of Filesystem is implied when not included in claim spec.', (obj) => str(o(obj.spec).volumeMode) || '<unset>', 1),
  ],
}) satisfies ResourceDefinition;
