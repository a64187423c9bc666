// LimitRanger [K8S plugin/pkg/admission/limitranger], its mutating half: on create, containers without
// requests/limits get the namespace's LimitRange defaults, and the pod records what was set in the
// kubernetes.io/limit-ranger annotation. Pod updates are not handled (containers cannot be added).

import { a, o, str } from '../resources/common/printers.js';
import { isMainResource, type MutatingPlugin } from './types.js';

type Obj = Record<string, unknown>;

export const limitRanger: MutatingPlugin = {
  name: 'LimitRanger',
  operations: ['create'],
  resources: [['', 'pods']],
  admit(attrs) {
    if (!isMainResource(attrs, '', 'pods')) return;
    const pod = attrs.object;
    const ns = attrs.namespace;
    if (!ns) return;
    const defaults: { requests: Obj; limits: Obj } = { requests: {}, limits: {} };
    for (const lr of attrs.ctx.list('', 'limitranges', ns)) {
      for (const item of a(o(lr.spec).limits)) {
        if (item.type !== 'Container') continue;
        // SetDefaults_LimitRangeItem has already filled default/defaultRequest from max/default/min
        Object.assign(defaults.limits, o(item.default));
        Object.assign(defaults.requests, o(item.defaultRequest));
      }
    }
    if (!Object.keys(defaults.limits).length && !Object.keys(defaults.requests).length) return;
    const spec = o(pod.spec);
    const notes: string[] = [];
    const merge = (c: Obj, prefix: string) => {
      const res = (c.resources = o(c.resources));
      const limits = o(res.limits);
      const requests = o(res.requests);
      const setLimits: string[] = [];
      const setRequests: string[] = [];
      for (const [k, v] of Object.entries(defaults.limits)) if (!(k in limits)) { limits[k] = v; setLimits.push(k); }
      for (const [k, v] of Object.entries(defaults.requests)) if (!(k in requests)) { requests[k] = v; setRequests.push(k); }
      if (Object.keys(limits).length) res.limits = limits;
      if (Object.keys(requests).length) res.requests = requests;
      if (setRequests.length) notes.push(`${setRequests.sort().join(', ')} request for ${prefix} ${str(c.name)}`);
      if (setLimits.length) notes.push(`${setLimits.sort().join(', ')} limit for ${prefix} ${str(c.name)}`);
    };
    for (const c of a(spec.initContainers)) merge(c, 'init container');
    for (const c of a(spec.containers)) merge(c, 'container');
    if (notes.length) {
      const meta = (pod.metadata ??= {});
      meta.annotations = { ...(meta.annotations ?? {}), 'kubernetes.io/limit-ranger': `LimitRanger plugin set: ${notes.join('; ')}` };
    }
  },
};
