// CSINodes (storage.k8s.io/v1): ValidateCSINode(+Update) and the printer (NAME, DRIVERS, AGE).

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';
import { jsonEqual } from '../common/json.js';
import { a, ageColumn, col, o, str } from '../common/printers.js';
import { csiDriverNameErrors } from '../common/csi.js';

const NODE_ID_MAX = 192;

function validateCSINode(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  a(o(obj.spec).drivers).forEach((d, i) => {
    const p = `spec.drivers[${i}]`;
    const name = str(d.name);
    errs.push(...csiDriverNameErrors(name, `${p}.name`));
    if (name && seen.has(name)) errs.push(fieldErr.duplicate(`${p}.name`, name));
    seen.add(name);
    const id = str(d.nodeID);
    if (!id) errs.push(fieldErr.required(`${p}.nodeID`, id));
    else if (id.length > NODE_ID_MAX) errs.push(fieldErr.invalid(`${p}.nodeID`, id, `must be ${NODE_ID_MAX} characters or less`));
    const count = o(d.allocatable).count;
    if (typeof count === 'number' && count < 0) errs.push(fieldErr.invalid(`${p}.allocatable.count`, count, 'must be greater than or equal to 0'));
    const keys = Array.isArray(d.topologyKeys) ? d.topologyKeys.map(str) : [];
    const keySeen = new Set<string>();
    keys.forEach((k, j) => {
      if (!k) errs.push(fieldErr.required(`${p}.topologyKeys[${j}]`, k));
      else if (keySeen.has(k)) errs.push(fieldErr.duplicate(`${p}.topologyKeys[${j}]`, k));
      keySeen.add(k);
    });
  });
  return errs;
}

function validateCSINodeChange(obj: KubeObject, old: KubeObject): FieldError[] {
  // drivers may be added or removed; a driver that stays keeps its nodeID, allocatable and topology keys
  const errs: FieldError[] = [];
  const before = new Map(a(o(old.spec).drivers).map((d) => [str(d.name), d]));
  a(o(obj.spec).drivers).forEach((d, i) => {
    const prev = before.get(str(d.name));
    if (!prev) return;
    const p = `spec.drivers[${i}]`;
    if (d.nodeID !== prev.nodeID) errs.push(fieldErr.invalid(`${p}.nodeID`, str(d.nodeID), 'field is immutable'));
    if (!jsonEqual(d.allocatable ?? null, prev.allocatable ?? null)) errs.push(fieldErr.invalid(`${p}.allocatable`, d.allocatable, 'field is immutable'));
    if (!jsonEqual(d.topologyKeys ?? null, prev.topologyKeys ?? null)) errs.push(fieldErr.invalid(`${p}.topologyKeys`, d.topologyKeys, 'field is immutable'));
  });
  return errs;
}

export const csinodes = builtin('storage.k8s.io', 'v1', 'csinodes', {
  validateObject: validateCSINode,
  validateChange: validateCSINodeChange,
  tableColumns: [col('Drivers', 'integer', 'The number of CSI drivers installed on the node.', (obj) => a(o(obj.spec).drivers).length), ageColumn()],
}) satisfies ResourceDefinition;
