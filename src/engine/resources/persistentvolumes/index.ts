// PersistentVolumes (core v1): SetDefaults_PersistentVolume, status Pending with lastPhaseTransitionTime on
// create, the main checks of ValidatePersistentVolume, the printer.

import { fieldErr, type FieldError } from '../../errors.js';
import { rfc3339 } from '../../env.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';
import { ageColumn, col, o, str } from '../common/printers.js';

export const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const NOT_SOURCES = new Set(['accessModes', 'capacity', 'claimRef', 'mountOptions', 'nodeAffinity', 'persistentVolumeReclaimPolicy', 'storageClassName', 'volumeMode', 'volumeAttributesClassName']);

/** helper.GetAccessModesAsString: RWO,ROX,RWX,RWOP in that order. */
export function accessModesString(modes: unknown): string {
  const m = Array.isArray(modes) ? (modes as string[]) : [];
  const out: string[] = [];
  if (m.includes('ReadWriteOnce')) out.push('RWO');
  if (m.includes('ReadOnlyMany')) out.push('ROX');
  if (m.includes('ReadWriteMany')) out.push('RWX');
  if (m.includes('ReadWriteOncePod')) out.push('RWOP');
  return out.join(',');
}

export function validateAccessModes(modes: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const m = Array.isArray(modes) ? (modes as unknown[]) : [];
  if (m.length === 0) errs.push(fieldErr.required(path, 'at least 1 access mode is required'));
  for (const x of m) if (!ACCESS_MODES.includes(String(x))) errs.push(fieldErr.notSupported(path, x, ACCESS_MODES));
  if (m.includes('ReadWriteOncePod') && m.length > 1) errs.push(fieldErr.forbidden(path, 'may not use ReadWriteOncePod with other access modes'));
  return errs;
}

function validatePV(obj: KubeObject): FieldError[] {
  const spec = o(obj.spec);
  const errs = validateAccessModes(spec.accessModes, 'spec.accessModes');
  const capacity = o(spec.capacity);
  if (Object.keys(capacity).length === 0) errs.push(fieldErr.required('spec.capacity', ''));
  const sources = Object.keys(spec).filter((k) => !NOT_SOURCES.has(k));
  if (sources.length === 0) errs.push(fieldErr.required('spec', 'must specify a volume type'));
  else if (sources.length > 1) errs.push(fieldErr.forbidden(`spec.${sources[1]}`, 'may not specify more than 1 volume type'));
  const policy = spec.persistentVolumeReclaimPolicy;
  if (policy !== undefined && !['Delete', 'Recycle', 'Retain'].includes(String(policy))) {
    errs.push(fieldErr.notSupported('spec.persistentVolumeReclaimPolicy', policy, ['Delete', 'Recycle', 'Retain']));
  }
  return errs;
}

const goFieldName = (k: string) => k.charAt(0).toUpperCase() + k.slice(1);

/**
 * ValidatePersistentVolumeUpdate: the volume source never changes (the message carries a diff of the
 * sources, written here in the spirit of cmp.Diff), nor does volumeMode.
 */
function validatePVChange(obj: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = o(obj.spec);
  const prev = o(old.spec);
  const source = (s: Record<string, unknown>) => Object.keys(s).filter((k) => !NOT_SOURCES.has(k)).sort();
  const keys = [...new Set([...source(spec), ...source(prev)])].sort();
  const changed = keys.filter((k) => JSON.stringify(spec[k] ?? null) !== JSON.stringify(prev[k] ?? null));
  if (changed.length) {
    const lines = ['  core.PersistentVolumeSource{'];
    for (const k of changed) {
      if (prev[k] !== undefined) lines.push(`- \t${goFieldName(k)}: ${JSON.stringify(prev[k])},`);
      if (spec[k] !== undefined) lines.push(`+ \t${goFieldName(k)}: ${JSON.stringify(spec[k])},`);
    }
    lines.push('  }');
    errs.push(fieldErr.forbidden('spec.persistentvolumesource', `spec.persistentvolumesource is immutable after creation\n${lines.join('\n')}\n`));
  }
  if (JSON.stringify(spec.volumeMode ?? null) !== JSON.stringify(prev.volumeMode ?? null)) {
    errs.push(fieldErr.invalid('volumeMode', spec.volumeMode ?? null, 'field is immutable'));
  }
  return errs;
}

export const persistentvolumes = builtin('', 'v1', 'persistentvolumes', {
  default: (obj) => {
    const spec = (obj.spec = o(obj.spec));
    if (!spec.persistentVolumeReclaimPolicy) spec.persistentVolumeReclaimPolicy = 'Retain';
    if (spec.volumeMode === undefined || spec.volumeMode === null) spec.volumeMode = 'Filesystem';
    const st = (obj.status = o(obj.status));
    if (!st.phase) st.phase = 'Pending';
  },
  prepareForCreate: (obj, ctx) => {
    obj.status = { phase: 'Pending', lastPhaseTransitionTime: rfc3339(ctx.now) };
  },
  validateObject: (obj) => validatePV(obj),
  validateChange: validatePVChange,
  tableColumns: [
    col('Capacity', 'string', "capacity is the description of the persistent volume's resources and capacity. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#capacity", (obj) => str(o(o(obj.spec).capacity).storage) || '0'),
    col('Access Modes', 'string', 'accessModes contains all ways the volume can be mounted. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes', (obj) => accessModesString(o(obj.spec).accessModes)),
    col('Reclaim Policy', 'string', 'persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim. Valid options are Retain (default for manually created PersistentVolumes), Delete (default for dynamically provisioned PersistentVolumes), and Recycle (deprecated). Recycle must be supported by the volume plugin underlying this PersistentVolume. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#reclaiming', (obj) => str(o(obj.spec).persistentVolumeReclaimPolicy)),
    col('Status', 'string', 'phase indicates if a volume is available, bound to a claim, or released by a claim. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#phase', (obj) => (obj.metadata?.deletionTimestamp ? 'Terminating' : str(o(obj.status).phase))),
    col('Claim', 'string', 'claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim. Expected to be non-nil when bound. claim.VolumeName is the authoritative bind between PV and PVC. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#binding', (obj) => {
      const ref = o(obj.spec).claimRef;
      return ref ? `${str(o(ref).namespace)}/${str(o(ref).name)}` : '';
    }),
    col('StorageClass', 'string', 'StorageClass of the pv', (obj) => str(o(obj.spec).storageClassName) || str(obj.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'])),
    col('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pv', (obj) => str(o(obj.spec).volumeAttributesClassName) || '<unset>'),
    col('Reason', 'string', 'reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI.', (obj) => str(o(obj.status).reason)),
    ageColumn(),
    col('VolumeMode', 'string', 'volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state. Value of Filesystem is implied when not included in spec.', (obj) => str(o(obj.spec).volumeMode) || '<unset>', 1),
  ],
}) satisfies ResourceDefinition;
