// VolumeAttachments (storage.k8s.io/v1): ValidateVolumeAttachment(+Update, +StatusUpdate) and the printer
// (NAME, ATTACHER, PV, NODE, ATTACHED, AGE).

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { FIELD_IMMUTABLE, isDNS1123Subdomain } from '../../util/validation.js';
import { builtin } from '../factory.js';
import { jsonEqual } from '../common/json.js';
import { ageColumn, col, o, str } from '../common/printers.js';
import { csiDriverNameErrors } from '../common/csi.js';

function validateVolumeAttachment(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = o(obj.spec);
  errs.push(...csiDriverNameErrors(str(spec.attacher), 'spec.attacher'));
  const source = o(spec.source);
  const pv = str(source.persistentVolumeName);
  const inline = source.inlineVolumeSpec !== undefined && source.inlineVolumeSpec !== null;
  if ((pv !== '') === inline) errs.push(fieldErr.required('spec.source', 'must specify exactly one of inlineVolumeSpec and persistentVolumeName'));
  else if (pv) for (const m of isDNS1123Subdomain(pv)) errs.push(fieldErr.invalid('spec.source.persistentVolumeName', pv, m));
  const node = str(spec.nodeName);
  if (!node) errs.push(fieldErr.required('spec.nodeName', ''));
  else for (const m of isDNS1123Subdomain(node)) errs.push(fieldErr.invalid('spec.nodeName', node, m));
  return errs;
}

const attachedPV = (obj: KubeObject): string => str(o(o(obj.spec).source).persistentVolumeName);

export const volumeattachments = builtin('storage.k8s.io', 'v1', 'volumeattachments', {
  prepareForCreate: (obj) => {
    delete obj.status;
  },
  validateObject: validateVolumeAttachment,
  // the whole spec is fixed once the attachment exists
  validateChange: (obj, old) => (jsonEqual(obj.spec ?? null, old.spec ?? null) ? [] : [fieldErr.invalid('spec', obj.spec, FIELD_IMMUTABLE)]),
  tableColumns: [
    col('Attacher', 'string', 'The CSI driver that attaches the volume.', (obj) => str(o(obj.spec).attacher)),
    col('PV', 'string', 'The PersistentVolume being attached.', attachedPV),
    col('Node', 'string', 'The node the volume is attached to.', (obj) => str(o(obj.spec).nodeName)),
    col('Attached', 'boolean', 'Whether the attach operation succeeded.', (obj) => o(obj.status).attached === true),
    ageColumn(),
  ],
}) satisfies ResourceDefinition;
