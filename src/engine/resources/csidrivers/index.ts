// CSIDrivers (storage.k8s.io/v1): SetDefaults_CSIDriver, ValidateCSIDriver(+Update), printer.

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { FIELD_IMMUTABLE } from '../../util/validation.js';
import { builtin } from '../factory.js';
import { jsonEqual } from '../common/json.js';
import { a, ageColumn, col, o, str } from '../common/printers.js';
import { csiDriverNameErrors } from '../common/csi.js';

const FS_GROUP_POLICIES = ['File', 'None', 'ReadWriteOnceWithFSType'];
const LIFECYCLE_MODES = ['Ephemeral', 'Persistent'];

function validateCSIDriver(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  // ValidateCSIDriver checks the name as a driver name, under the path `name`
  if (str(obj.metadata?.name)) errs.push(...csiDriverNameErrors(str(obj.metadata?.name), 'name'));
  const spec = o(obj.spec);
  if (spec.fsGroupPolicy !== undefined && !FS_GROUP_POLICIES.includes(str(spec.fsGroupPolicy))) {
    errs.push(fieldErr.notSupported('spec.fsGroupPolicy', spec.fsGroupPolicy, FS_GROUP_POLICIES));
  }
  const modes = Array.isArray(spec.volumeLifecycleModes) ? spec.volumeLifecycleModes : [];
  modes.forEach((m, i) => {
    if (!LIFECYCLE_MODES.includes(str(m))) errs.push(fieldErr.notSupported(`spec.volumeLifecycleModes[${i}]`, m, LIFECYCLE_MODES));
  });
  a(spec.tokenRequests).forEach((t, i) => {
    if (typeof t.expirationSeconds === 'number' && t.expirationSeconds < 600) {
      errs.push(fieldErr.invalid(`spec.tokenRequests[${i}].expirationSeconds`, t.expirationSeconds, 'may not specify a duration less than 10 minutes'));
    }
  });
  return errs;
}

function validateCSIDriverChange(obj: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const s = o(obj.spec);
  const os = o(old.spec);
  // v1.33: attachRequired, fsGroupPolicy and volumeLifecycleModes are fixed once the driver is registered
  if (s.attachRequired !== os.attachRequired) errs.push(fieldErr.invalid('spec.attachRequired', s.attachRequired, FIELD_IMMUTABLE));
  if (s.fsGroupPolicy !== os.fsGroupPolicy) errs.push(fieldErr.invalid('spec.fsGroupPolicy', s.fsGroupPolicy, FIELD_IMMUTABLE));
  if (!jsonEqual(s.volumeLifecycleModes ?? null, os.volumeLifecycleModes ?? null)) {
    errs.push(fieldErr.invalid('spec.volumeLifecycleModes', s.volumeLifecycleModes, FIELD_IMMUTABLE));
  }
  return errs;
}

const yesNo = (v: unknown): string => (v === true ? 'true' : 'false');

export const csidrivers = builtin('storage.k8s.io', 'v1', 'csidrivers', {
  nameValidator: () => [],
  default: (obj) => {
    const spec = (obj.spec = o(obj.spec));
    spec.attachRequired ??= true;
    spec.podInfoOnMount ??= false;
    spec.storageCapacity ??= false;
    spec.fsGroupPolicy ??= 'ReadWriteOnceWithFSType';
    spec.requiresRepublish ??= false;
    spec.volumeLifecycleModes ??= ['Persistent'];
    spec.seLinuxMount ??= false;
  },
  validateObject: validateCSIDriver,
  validateChange: validateCSIDriverChange,
  tableColumns: [
    col('AttachRequired', 'boolean', 'Whether the driver needs an attach operation (a VolumeAttachment) before mounting.', (obj) => yesNo(o(obj.spec).attachRequired)),
    col('PodInfoOnMount', 'boolean', 'Whether the driver is given pod information on mount.', (obj) => yesNo(o(obj.spec).podInfoOnMount)),
    col('StorageCapacity', 'boolean', 'Whether the scheduler considers the driver\'s storage capacity.', (obj) => yesNo(o(obj.spec).storageCapacity)),
    col('TokenRequests', 'string', 'Audiences of the service-account tokens passed to the driver.', (obj) => a(o(obj.spec).tokenRequests).map((t) => str(t.audience)).join(',') || '<unset>'),
    col('RequiresRepublish', 'boolean', 'Whether the driver wants NodePublishVolume called periodically.', (obj) => yesNo(o(obj.spec).requiresRepublish)),
    col('Modes', 'string', 'Volume lifecycle modes the driver supports.', (obj) => (Array.isArray(o(obj.spec).volumeLifecycleModes) ? (o(obj.spec).volumeLifecycleModes as unknown[]).map(str).join(',') : '') || '<none>'),
    ageColumn(),
  ],
}) satisfies ResourceDefinition;
