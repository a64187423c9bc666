// ResourceQuota: usage of a namespace (what the quota controller would record in status.used) and the
// validating admission check a create must pass (admission/plugin/resourcequota). Only quotas without
// scopes are evaluated. The check runs after the kind's validation (a 422 wins over a quota 403), with the
// real messages:
//   failed quota: <quota>: must specify limits.cpu for: app; requests.memory for: app
//   exceeded quota: <quota>, requested: pods=1, used: pods=2, limited: pods=2

import { forbidden } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { StrategyContext } from '../../registry/types.js';
import { a, o, str } from './printers.js';
import { formatNano, quantityFormat, quantityNano, type Format } from './quantity.js';

const NANO = 1_000_000_000n;
const LEGACY_COUNTS: Record<string, string> = {
  pods: 'pods', services: 'services', configmaps: 'configmaps', secrets: 'secrets',
  persistentvolumeclaims: 'persistentvolumeclaims', replicationcontrollers: 'replicationcontrollers', resourcequotas: 'resourcequotas',
};
const COMPUTE = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory', 'ephemeral-storage', 'requests.ephemeral-storage', 'limits.ephemeral-storage']);
const VALIDATION_SET = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

type Usage = Map<string, bigint>; // nano units

const podTerminal = (p: KubeObject) => {
  const phase = str(o(p.status).phase);
  return phase === 'Succeeded' || phase === 'Failed';
};

/** Which quota keys an object of this group/resource uses. */
function countKeys(group: string, plural: string): string[] {
  const keys = [group ? `count/${plural}.${group}` : `count/${plural}`];
  if (!group && LEGACY_COUNTS[plural]) keys.push(LEGACY_COUNTS[plural]);
  return keys;
}

function podResource(pod: KubeObject, bag: 'requests' | 'limits', resource: string): bigint {
  const spec = o(pod.spec);
  const sum = (list: unknown) => a(list).reduce((acc, c) => acc + (quantityNano(o(o(c.resources)[bag])[resource]) ?? 0n), 0n);
  const containers = sum(spec.containers);
  // init containers run one at a time: the pod needs the larger of their max and the containers' sum
  const initMax = a(spec.initContainers).reduce((m, c) => {
    const v = quantityNano(o(o(c.resources)[bag])[resource]) ?? 0n;
    return v > m ? v : m;
  }, 0n);
  return containers > initMax ? containers : initMax;
}

/** The usage one object contributes, for the given quota keys. */
export function objectUsage(group: string, plural: string, obj: KubeObject, keys: string[]): Usage {
  const u: Usage = new Map();
  const counts = new Set(countKeys(group, plural));
  for (const k of keys) {
    if (counts.has(k)) {
      if (plural === 'pods' && !group && podTerminal(obj)) continue;
      u.set(k, NANO);
    }
  }
  if (!group && plural === 'pods' && !podTerminal(obj)) {
    for (const k of keys) {
      if (!COMPUTE.has(k)) continue;
      const [bag, res] = k.includes('.') ? (k.split('.') as ['requests' | 'limits', string]) : (['requests', k] as ['requests', string]);
      const v = podResource(obj, bag, res);
      if (v !== 0n) u.set(k, v);
    }
  }
  if (!group && plural === 'services') {
    const spec = o(obj.spec);
    if (keys.includes('services.loadbalancers') && spec.type === 'LoadBalancer') u.set('services.loadbalancers', NANO);
    if (keys.includes('services.nodeports')) {
      const n = a(spec.ports).filter((p) => Number(p.nodePort) > 0).length;
      if (n) u.set('services.nodeports', BigInt(n) * NANO);
    }
  }
  if (!group && plural === 'persistentvolumeclaims' && keys.includes('requests.storage')) {
    const v = quantityNano(o(o(o(obj.spec).resources).requests).storage);
    if (v) u.set('requests.storage', v);
  }
  return u;
}

const TRACKED_BY: { test: (k: string) => boolean; group: string; plural: string }[] = [
  { test: (k) => k === 'pods' || k === 'count/pods' || COMPUTE.has(k), group: '', plural: 'pods' },
  { test: (k) => k === 'services' || k === 'count/services' || k === 'services.nodeports' || k === 'services.loadbalancers', group: '', plural: 'services' },
  { test: (k) => k === 'persistentvolumeclaims' || k === 'count/persistentvolumeclaims' || k === 'requests.storage', group: '', plural: 'persistentvolumeclaims' },
];

/** What the quota controller would record as status.used for these hard keys. */
export function namespaceUsage(ns: string, keys: string[], ctx: StrategyContext): Usage {
  const total: Usage = new Map(keys.map((k) => [k, 0n]));
  const resources = new Map<string, { group: string; plural: string }>();
  for (const k of keys) {
    const legacy = Object.entries(LEGACY_COUNTS).find(([, v]) => v === k);
    if (legacy) resources.set(`/${legacy[0]}`, { group: '', plural: legacy[0] });
    const m = /^count\/([^.]+)(?:\.(.+))?$/.exec(k);
    if (m) resources.set(`${m[2] ?? ''}/${m[1]}`, { group: m[2] ?? '', plural: m[1] });
    for (const t of TRACKED_BY) if (t.test(k)) resources.set(`${t.group}/${t.plural}`, { group: t.group, plural: t.plural });
  }
  for (const { group, plural } of resources.values()) {
    for (const obj of ctx.list(group, plural, ns)) {
      for (const [k, v] of objectUsage(group, plural, obj, keys)) total.set(k, (total.get(k) ?? 0n) + v);
    }
  }
  return total;
}

function render(key: string, v: bigint, format: Format): string {
  return `${key}=${formatNano(v, format)}`;
}

/** podEvaluator.Constraints: quotas on cpu/memory need every container to state them. */
function podConstraints(pod: KubeObject, keys: string[]): string | undefined {
  const required = keys.filter((k) => VALIDATION_SET.has(k));
  if (!required.length) return undefined;
  const missing = new Map<string, Set<string>>();
  const spec = o(pod.spec);
  for (const c of [...a(spec.containers), ...a(spec.initContainers)]) {
    const res = o(c.resources);
    for (const k of required) {
      const [bag, r] = k.includes('.') ? k.split('.') : ['requests', k];
      if (o(res[bag])[r] === undefined) {
        if (!missing.has(k)) missing.set(k, new Set());
        missing.get(k)!.add(str(c.name));
      }
    }
  }
  if (!missing.size) return undefined;
  return `must specify ${[...missing.keys()].sort().map((k) => `${k} for: ${[...missing.get(k)!].sort().join(',')}`).join('; ')}`;
}

/** The ResourceQuota admission check for creating `obj`; throws the real 403 when a quota is exceeded. */
export function admitQuotaOnCreate(def: { group: string; plural: string }, obj: KubeObject, ctx: StrategyContext): void {
  const ns = obj.metadata?.namespace;
  if (!ns) return;
  const quotas = ctx.list('', 'resourcequotas', ns).filter((q) => {
    const spec = o(q.spec);
    return !(Array.isArray(spec.scopes) && spec.scopes.length) && !spec.scopeSelector;
  });
  if (!quotas.length) return;
  const gr = { group: def.group, resource: def.plural };
  const name = obj.metadata?.name ?? '';
  for (const q of [...quotas].sort((x, y) => str(x.metadata?.name).localeCompare(str(y.metadata?.name)))) {
    const hard = o(o(q.status).hard && Object.keys(o(o(q.status).hard)).length ? o(q.status).hard : o(q.spec).hard);
    const keys = Object.keys(hard);
    const qname = str(q.metadata?.name);
    if (!def.group && def.plural === 'pods') {
      const c = podConstraints(obj, keys);
      if (c) throw forbidden(gr, name, `failed quota: ${qname}: ${c}`);
    }
    const requested = objectUsage(def.group, def.plural, obj, keys);
    for (const [k, v] of [...requested]) if (v === 0n) requested.delete(k);
    if (!requested.size) continue;
    const used = namespaceUsage(ns, [...requested.keys()], ctx);
    const exceeded = [...requested.keys()].filter((k) => (used.get(k) ?? 0n) + requested.get(k)! > (quantityNano(hard[k]) ?? 0n)).sort();
    if (exceeded.length) {
      const fmt = (k: string) => quantityFormat(hard[k]);
      throw forbidden(gr, name,
        `exceeded quota: ${qname}, requested: ${exceeded.map((k) => render(k, requested.get(k)!, fmt(k))).join(',')}, used: ${exceeded.map((k) => render(k, used.get(k) ?? 0n, fmt(k))).join(',')}, limited: ${exceeded.map((k) => render(k, quantityNano(hard[k]) ?? 0n, fmt(k))).join(',')}`);
    }
  }
}

/** status of a ResourceQuota as its controller keeps it: hard from spec, used measured now. */
export function quotaStatus(q: KubeObject, ctx: StrategyContext): Record<string, unknown> {
  const hard = o(o(q.spec).hard);
  const keys = Object.keys(hard);
  const status: Record<string, unknown> = {};
  if (!keys.length) return status;
  status.hard = { ...hard };
  const ns = q.metadata?.namespace ?? '';
  const usage = ns ? namespaceUsage(ns, keys, ctx) : new Map<string, bigint>();
  // the quota being created counts itself for "resourcequotas" / "count/resourcequotas"
  const used: Record<string, string> = {};
  for (const k of keys.sort()) {
    let v = usage.get(k) ?? 0n;
    if ((k === 'resourcequotas' || k === 'count/resourcequotas') && !ctx.list('', 'resourcequotas', ns).some((x) => x.metadata?.uid === q.metadata?.uid)) v += NANO;
    used[k] = formatNano(v, quantityFormat(hard[k]));
  }
  status.used = used;
  return status;
}
