// TaintNodesByCondition [K8S plugin/pkg/admission/nodetaint]: a new Node starts tainted
// node.kubernetes.io/not-ready:NoSchedule (the node lifecycle controller removes it once the node is ready).

import { a, o } from '../resources/common/printers.js';
import { isMainResource, type MutatingPlugin } from './types.js';

const NOT_READY = { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' };

export const taintNodesByCondition: MutatingPlugin = {
  name: 'TaintNodesByCondition',
  operations: ['create'],
  resources: [['', 'nodes']],
  admit(attrs) {
    if (!isMainResource(attrs, '', 'nodes')) return;
    const node = attrs.object;
    if (!node.spec || typeof node.spec !== 'object') node.spec = {};
    const spec = o(node.spec);
    const taints = Array.isArray(spec.taints) ? a(spec.taints) : [];
    // Taint.MatchTaint: the same key and effect
    if (taints.some((t) => t.key === NOT_READY.key && t.effect === NOT_READY.effect)) return;
    spec.taints = [...taints, { ...NOT_READY }];
  },
};
