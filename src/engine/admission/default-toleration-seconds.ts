// DefaultTolerationSeconds [K8S plugin/pkg/admission/defaulttolerationseconds]: on create and on update,
// a pod that does not tolerate the not-ready / unreachable NoExecute taints gets tolerations for them
// with 300 seconds.

import { a, o } from '../resources/common/printers.js';
import { isMainResource, type MutatingPlugin } from './types.js';

const KEYS = ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'];

export const defaultTolerationSeconds: MutatingPlugin = {
  name: 'DefaultTolerationSeconds',
  operations: ['create', 'update'],
  resources: [['', 'pods']],
  admit(attrs) {
    if (!isMainResource(attrs, '', 'pods')) return;
    const pod = attrs.object;
    if (!pod.spec || typeof pod.spec !== 'object') pod.spec = {};
    let spec = o(pod.spec);
    const tolerations = Array.isArray(spec.tolerations) ? a(spec.tolerations) : [];
    // an empty key tolerates every key; an empty effect every effect
    const tolerates = (key: string) => tolerations.some((t) => (t.key === key || !t.key) && (t.effect === 'NoExecute' || !t.effect));
    const add = KEYS.filter((k) => !tolerates(k)).map((key) => ({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }));
    if (!add.length) return;
    // copy-on-write: an update's spec may be the stored state's (frozen); the pod itself is the request's own
    if (Object.isFrozen(spec)) pod.spec = spec = { ...spec };
    spec.tolerations = [...tolerations, ...add];
  },
};
