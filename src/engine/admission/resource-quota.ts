// ResourceQuota [K8S k8s.io/apiserver pkg/admission/plugin/resourcequota]: a create (or an update that
// raises usage) is refused when it would take any quota of the namespace over its hard limits, as measured
// by the quota's status (which the quota controller fills: a quota it has not seen yet matches nothing). An
// admitted request is charged: the quota's status.used grows in the same transaction as the object (never
// on dry run); deletes are not refunded here, the quota controller recalculates.

import type { KubeObject } from '../object.js';
import { o, str } from '../resources/common/printers.js';
import { quantityNano } from '../resources/common/quantity.js';
import {
  formatUsage, matchingResources, objectUsage, podConstraints, prettyPrint, quotaIgnores, quotaMatches, type Usage,
} from '../resources/common/quota.js';
import { admissionForbidden, type ValidatingAttributes, type ValidatingPlugin } from './types.js';

/** Evaluator.Handles: pods on create (and their resize), services and claims on create and update, other kinds on create. */
function handles(attrs: ValidatingAttributes): boolean {
  const { group, plural } = attrs.def;
  if (!group && plural === 'pods') return attrs.operation === 'create' ? attrs.subresource === '' : attrs.subresource === 'resize';
  if (attrs.subresource !== '') return false;
  if (!group && (plural === 'services' || plural === 'persistentvolumeclaims')) return true;
  return attrs.operation === 'create';
}

export const resourceQuota: ValidatingPlugin = {
  name: 'ResourceQuota',
  operations: ['create', 'update'],
  validate(attrs) {
    const obj = attrs.object;
    if (!obj || !attrs.namespace || !attrs.def.namespaced) return;
    const { group, plural } = attrs.def;
    if (quotaIgnores(group, plural) || !handles(attrs)) return;
    const quotas = attrs.ctx.list('', 'resourcequotas', attrs.namespace);
    if (!quotas.length) return;
    const now = attrs.ctx.now;

    const interesting: KubeObject[] = [];
    for (const q of quotas) {
      if (!quotaMatches(q, group, plural, obj)) continue;
      const hard = o(o(q.status).hard);
      const used = o(o(q.status).used);
      const restricted = matchingResources(group, plural, Object.keys(hard));
      if (!group && plural === 'pods') {
        const c = podConstraints(obj, restricted);
        if (c) throw admissionForbidden(attrs, `failed quota: ${str(q.metadata?.name)}: ${c}`);
      }
      const unknown = restricted.filter((k) => !(k in used));
      if (unknown.length) throw admissionForbidden(attrs, `status unknown for quota: ${str(q.metadata?.name)}, resources: ${restricted.sort().join(',')}`);
      interesting.push(q);
    }
    if (!interesting.length) return;

    let delta: Usage = objectUsage(group, plural, obj, now);
    // an update is charged what it adds (never a negative amount)
    if (attrs.operation === 'update' && attrs.oldObject?.metadata?.resourceVersion) {
      const prev = objectUsage(group, plural, attrs.oldObject, now);
      const next: Usage = new Map();
      for (const [k, v] of delta) {
        const d = v - (prev.get(k) ?? 0n);
        next.set(k, d > 0n ? d : 0n);
      }
      delta = next;
    }
    for (const [k, v] of [...delta]) if (v === 0n) delta.delete(k);
    if (!delta.size) return;

    for (const q of interesting) {
      const hard = o(o(q.status).hard);
      const used = o(o(q.status).used);
      const requested = [...delta].filter(([k]) => k in hard);
      if (!requested.length) continue;
      const exceeded = requested.filter(([k, v]) => (quantityNano(used[k]) ?? 0n) + v > (quantityNano(hard[k]) ?? 0n)).map(([k]) => k);
      if (exceeded.length) {
        const pick = (list: [string, string][]) => list.filter(([k]) => exceeded.includes(k));
        throw admissionForbidden(attrs,
          `exceeded quota: ${str(q.metadata?.name)}, requested: ${prettyPrint(pick(requested.map(([k, v]) => [k, formatUsage(v, hard[k])])))}, used: ${prettyPrint(pick(Object.entries(used).map(([k, v]) => [k, str(v)])))}, limited: ${prettyPrint(pick(Object.entries(hard).map(([k, v]) => [k, str(v)])))}`);
      }
    }
    if (attrs.dryRun || !attrs.effects) return;
    // the charge: status.used of every quota that limits what the request adds
    for (const q of interesting) {
      const hard = o(o(q.status).hard);
      const used = { ...o(o(q.status).used) };
      let changed = false;
      for (const [k, v] of delta) {
        if (!(k in hard)) continue;
        const before = quantityNano(used[k]) ?? 0n;
        // a zero quantity takes the format of what is added to it (the hard limit's, here)
        used[k] = formatUsage(before + v, before === 0n ? hard[k] : used[k]);
        changed = true;
      }
      if (!changed) continue;
      const next: KubeObject = { ...q, status: { ...o(q.status), used } };
      attrs.effects.put('', 'resourcequotas', attrs.namespace, str(q.metadata?.name), next);
    }
  },
};
