// Priority [K8S plugin/pkg/admission/priority]: on create, resolves spec.priority and
// spec.preemptionPolicy from the pod's PriorityClass (or the global default class); on update, keeps the
// values set at create when the new object leaves them out (update validation refuses any other change).

import { forbidden } from '../errors.js';
import type { KubeObject } from '../object.js';
import { int, o, str } from '../resources/common/printers.js';
import { isMainResource, type MutatingPlugin } from './types.js';

type Obj = Record<string, unknown>;

/** Built-in classes the real apiserver creates at start-up (system-*). */
const SYSTEM_PRIORITY_CLASSES: Record<string, number> = {
  'system-node-critical': 2000001000,
  'system-cluster-critical': 2000000000,
};

export const priority: MutatingPlugin = {
  name: 'Priority',
  operations: ['create', 'update'],
  resources: [['', 'pods']],
  admit(attrs) {
    if (!isMainResource(attrs, '', 'pods')) return;
    const pod = attrs.object;
    if (attrs.operation === 'update') {
      let spec = o(pod.spec);
      const oldSpec = o(attrs.oldObject?.spec);
      const priority = (spec.priority === undefined || spec.priority === null) && oldSpec.priority !== undefined;
      const preemption = (spec.preemptionPolicy === undefined || spec.preemptionPolicy === null) && oldSpec.preemptionPolicy !== undefined;
      if (!priority && !preemption) return;
      // copy-on-write: an update's spec may be the stored state's (frozen); the pod itself is the request's own
      if (Object.isFrozen(spec)) pod.spec = spec = { ...spec };
      if (priority) spec.priority = oldSpec.priority;
      if (preemption) spec.preemptionPolicy = oldSpec.preemptionPolicy;
      return;
    }
    resolvePriority(pod, attrs.ctx.list('scheduling.k8s.io', 'priorityclasses'));
  },
};

function resolvePriority(pod: KubeObject, classes: KubeObject[]): void {
  if (!pod.spec || typeof pod.spec !== 'object') pod.spec = {};
  const spec = pod.spec as Obj;
  let value = 0;
  let preemption = 'PreemptLowerPriority';
  const name = str(spec.priorityClassName);
  if (!name) {
    const global = classes.find((c) => (c as Obj).globalDefault === true);
    if (global) {
      spec.priorityClassName = global.metadata?.name;
      value = int((global as Obj).value);
      preemption = str((global as Obj).preemptionPolicy) || 'PreemptLowerPriority';
    }
  } else {
    const pc = classes.find((c) => c.metadata?.name === name);
    if (pc) {
      value = int((pc as Obj).value);
      preemption = str((pc as Obj).preemptionPolicy) || 'PreemptLowerPriority';
    } else if (name in SYSTEM_PRIORITY_CLASSES) {
      value = SYSTEM_PRIORITY_CLASSES[name];
    } else {
      throw forbidden({ group: '', resource: 'pods' }, pod.metadata?.name ?? '', `no PriorityClass with name ${name} was found`);
    }
  }
  if (typeof spec.priority === 'number' && spec.priority !== value) {
    throw forbidden({ group: '', resource: 'pods' }, pod.metadata?.name ?? '',
      `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${value} from the given PriorityClass name`);
  }
  spec.priority = value;
  if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== preemption) {
    throw forbidden({ group: '', resource: 'pods' }, pod.metadata?.name ?? '',
      `the string value of PreemptionPolicy (${String(spec.preemptionPolicy)}) must not be provided in pod spec; priority admission controller computed ${preemption} from the given PriorityClass name`);
  }
  spec.preemptionPolicy = preemption;
}
