// ResourceQuota evaluation shared by the ResourceQuota admission plugin (admission/resource-quota.ts) and the
// quota controller (controllers/resource-quota.ts), after the real evaluators [K8S pkg/quota/v1/evaluator/core,
// k8s.io/apiserver pkg/quota/v1/generic]: which quota resource names an object of a kind uses, its usage,
// which quotas match it (scopes and scopeSelector) and the pod constraints of compute quotas.

import type { KubeObject } from '../../object.js';
import { a, o, str } from './printers.js';
import { formatNano, quantityFormat, quantityNano, type Format } from './quantity.js';

export const NANO = 1_000_000_000n;

/** Usage by quota resource name, in nano units. */
export type Usage = Map<string, bigint>;

/** Kinds counted under a legacy name beside count/<resource> (the real evaluators' aliases). */
const LEGACY_ALIASES: Record<string, string> = {
  configmaps: 'configmaps', secrets: 'secrets', replicationcontrollers: 'replicationcontrollers', resourcequotas: 'resourcequotas',
};

const POD_RESOURCES = new Set([
  'count/pods', 'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods',
]);
const NATIVE_PREFIXES = ['kubernetes.io/', 'requests.kubernetes.io/'];
const SERVICE_RESOURCES = new Set(['count/services', 'services', 'services.loadbalancers', 'services.nodeports']);
const PVC_RESOURCES = new Set(['count/persistentvolumeclaims', 'persistentvolumeclaims', 'requests.storage']);
const STORAGE_CLASS_SUFFIX = '.storageclass.storage.k8s.io/';
/** Quotas on these need every container to state them (a backward-compatibility rule of the pod evaluator). */
const VALIDATION_SET = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

/** Kinds whose objects quota never counts (the real admission configuration's ignored resources). */
export function quotaIgnores(group: string, plural: string): boolean {
  return plural === 'events' && (group === '' || group === 'events.k8s.io');
}

/** The object-count resource name of a kind: count/<resource>[.<group>]. */
export function countName(group: string, plural: string): string {
  return group ? `count/${plural}.${group}` : `count/${plural}`;
}

/** The kind whose objects a quota resource name is about (undefined for names no evaluator knows). */
export function kindOfResourceName(name: string): { group: string; plural: string } | undefined {
  if (POD_RESOURCES.has(name) || name.startsWith('hugepages-') || name.startsWith('requests.hugepages-') || isExtendedRequest(name)) return { group: '', plural: 'pods' };
  if (SERVICE_RESOURCES.has(name)) return { group: '', plural: 'services' };
  if (PVC_RESOURCES.has(name) || name.includes(STORAGE_CLASS_SUFFIX)) return { group: '', plural: 'persistentvolumeclaims' };
  const legacy = Object.keys(LEGACY_ALIASES).find((k) => LEGACY_ALIASES[k] === name);
  if (legacy) return { group: '', plural: legacy };
  const m = /^count\/([^.]+)(?:\.(.+))?$/.exec(name);
  if (m) return { group: m[2] ?? '', plural: m[1] };
  return undefined;
}

function isExtendedRequest(name: string): boolean {
  if (!name.startsWith('requests.')) return false;
  const res = name.slice('requests.'.length);
  return res.includes('/') && !NATIVE_PREFIXES.some((p) => res.startsWith(p));
}

/** MatchingResources: the names of `hard` an evaluator of this kind tracks. */
export function matchingResources(group: string, plural: string, names: string[]): string[] {
  return names.filter((n) => {
    const k = kindOfResourceName(n);
    return k !== undefined && k.group === group && k.plural === plural;
  });
}

function quantityOf(v: unknown): bigint {
  return quantityNano(v) ?? 0n;
}

/** QuotaV1Pod: pods in a terminal phase, or past their deletion grace period, use no compute quota. */
function podCharged(pod: KubeObject, now: number): boolean {
  const phase = str(o(pod.status).phase);
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const dt = pod.metadata?.deletionTimestamp;
  const grace = pod.metadata?.deletionGracePeriodSeconds;
  if (dt && typeof grace === 'number' && now > Date.parse(dt) + grace * 1000) return false;
  return true;
}

/** PodRequests / PodLimits: the containers' sum against the largest init container (plus overhead). */
function podBag(pod: KubeObject, bag: 'requests' | 'limits'): Map<string, bigint> {
  const spec = o(pod.spec);
  const sum = new Map<string, bigint>();
  for (const c of a(spec.containers)) for (const [k, v] of Object.entries(o(o(c.resources)[bag]))) sum.set(k, (sum.get(k) ?? 0n) + quantityOf(v));
  // restartable init containers (sidecars) run beside the containers; others one at a time before them
  let sidecars = new Map<string, bigint>();
  for (const c of a(spec.initContainers)) {
    const res = o(o(c.resources)[bag]);
    if (c.restartPolicy === 'Always') {
      const next = new Map(sidecars);
      for (const [k, v] of Object.entries(res)) next.set(k, (next.get(k) ?? 0n) + quantityOf(v));
      for (const [k, v] of Object.entries(res)) sum.set(k, (sum.get(k) ?? 0n) + quantityOf(v));
      sidecars = next;
      continue;
    }
    for (const [k, v] of Object.entries(res)) {
      const need = quantityOf(v) + (sidecars.get(k) ?? 0n);
      if (need > (sum.get(k) ?? 0n)) sum.set(k, need);
    }
  }
  for (const [k, v] of Object.entries(o(spec.overhead))) if (sum.has(k) || bag === 'requests') sum.set(k, (sum.get(k) ?? 0n) + quantityOf(v));
  return sum;
}

/** podComputeUsageHelper: the quota names requests and limits stand for. */
function computeUsage(requests: Map<string, bigint>, limits: Map<string, bigint>): Usage {
  const u: Usage = new Map([['pods', NANO]]);
  for (const r of ['cpu', 'memory', 'ephemeral-storage']) {
    if (requests.has(r)) {
      u.set(r, requests.get(r)!);
      u.set(`requests.${r}`, requests.get(r)!);
    }
    if (limits.has(r)) u.set(`limits.${r}`, limits.get(r)!);
  }
  for (const [k, v] of requests) {
    if (k.startsWith('hugepages-')) {
      u.set(k, v);
      u.set(`requests.${k}`, v);
    } else if (k.includes('/') && !NATIVE_PREFIXES.some((p) => k.startsWith(p))) u.set(`requests.${k}`, v);
  }
  return u;
}

/** The usage one object stands for (every name its evaluator knows). */
export function objectUsage(group: string, plural: string, obj: KubeObject, now: number): Usage {
  if (!group && plural === 'pods') {
    const u: Usage = new Map([['count/pods', NANO]]);
    if (!podCharged(obj, now)) return u;
    for (const [k, v] of computeUsage(podBag(obj, 'requests'), podBag(obj, 'limits'))) u.set(k, v);
    return u;
  }
  if (!group && plural === 'services') {
    const spec = o(obj.spec);
    const ports = a(spec.ports);
    const u: Usage = new Map([['count/services', NANO], ['services', NANO], ['services.loadbalancers', 0n], ['services.nodeports', 0n]]);
    if (spec.type === 'NodePort') u.set('services.nodeports', BigInt(ports.length) * NANO);
    if (spec.type === 'LoadBalancer') {
      const n = spec.allocateLoadBalancerNodePorts === false ? ports.filter((p) => Number(p.nodePort) > 0).length : ports.length;
      u.set('services.nodeports', BigInt(n) * NANO);
      u.set('services.loadbalancers', NANO);
    }
    return u;
  }
  if (!group && plural === 'persistentvolumeclaims') {
    const spec = o(obj.spec);
    const u: Usage = new Map([['count/persistentvolumeclaims', NANO], ['persistentvolumeclaims', NANO]]);
    const cls = str(spec.storageClassName);
    if (cls) u.set(`${cls}${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`, NANO);
    const req = quantityNano(o(o(spec.resources).requests).storage);
    // an expanded claim is charged its larger allocated capacity
    const allocated = quantityNano(o(o(obj.status).allocatedResources).storage);
    const storage = req !== null && allocated !== null && allocated > req ? allocated : req;
    if (storage !== null) {
      u.set('requests.storage', storage);
      if (cls) u.set(`${cls}${STORAGE_CLASS_SUFFIX}requests.storage`, storage);
    }
    return u;
  }
  const u: Usage = new Map([[countName(group, plural), NANO]]);
  if (!group && LEGACY_ALIASES[plural]) u.set(LEGACY_ALIASES[plural], NANO);
  return u;
}

interface ScopeRequirement {
  scopeName: string;
  operator: string;
  values: string[];
}

/** getScopeSelectorsFromQuota: spec.scopes as Exists requirements, then spec.scopeSelector's expressions. */
export function quotaScopeSelectors(quota: KubeObject): ScopeRequirement[] {
  const spec = o(quota.spec);
  const out: ScopeRequirement[] = [];
  for (const s of Array.isArray(spec.scopes) ? spec.scopes : []) out.push({ scopeName: String(s), operator: 'Exists', values: [] });
  for (const e of a(o(spec.scopeSelector).matchExpressions)) {
    out.push({ scopeName: str(e.scopeName), operator: str(e.operator), values: Array.isArray(e.values) ? e.values.map(String) : [] });
  }
  return out;
}

function isBestEffort(pod: KubeObject): boolean {
  const spec = o(pod.spec);
  for (const c of [...a(spec.containers), ...a(spec.initContainers)]) {
    const res = o(c.resources);
    for (const bag of [o(res.requests), o(res.limits)]) {
      for (const [k, v] of Object.entries(bag)) {
        if ((k === 'cpu' || k === 'memory' || k.startsWith('hugepages-')) && quantityOf(v) > 0n) return false;
      }
    }
  }
  return true;
}

function usesCrossNamespaceAffinity(pod: KubeObject): boolean {
  const aff = o(o(pod.spec).affinity);
  const cross = (t: Record<string, unknown>) => (Array.isArray(t.namespaces) && t.namespaces.length > 0) || t.namespaceSelector !== undefined && t.namespaceSelector !== null;
  for (const kind of [o(aff.podAffinity), o(aff.podAntiAffinity)]) {
    if (a(kind.requiredDuringSchedulingIgnoredDuringExecution).some(cross)) return true;
    if (a(kind.preferredDuringSchedulingIgnoredDuringExecution).some((w) => cross(o(w.podAffinityTerm)))) return true;
  }
  return false;
}

function podMatchesScope(sel: ScopeRequirement, pod: KubeObject): boolean {
  const spec = o(pod.spec);
  switch (sel.scopeName) {
    case 'Terminating':
      return typeof spec.activeDeadlineSeconds === 'number' && spec.activeDeadlineSeconds >= 0;
    case 'NotTerminating':
      return !(typeof spec.activeDeadlineSeconds === 'number' && spec.activeDeadlineSeconds >= 0);
    case 'BestEffort':
      return isBestEffort(pod);
    case 'NotBestEffort':
      return !isBestEffort(pod);
    case 'PriorityClass': {
      const cls = str(spec.priorityClassName);
      switch (sel.operator) {
        case 'Exists':
          return cls !== '';
        case 'DoesNotExist':
          return cls === '';
        case 'In':
          return cls !== '' && sel.values.includes(cls);
        case 'NotIn':
          return cls === '' || !sel.values.includes(cls);
        default:
          return false;
      }
    }
    case 'CrossNamespacePodAffinity':
      return usesCrossNamespaceAffinity(pod);
    default:
      return false;
  }
}

/**
 * generic.Matches: the quota tracks a name of this kind (in status.hard, or `names` when given) and the
 * object is in every scope of the quota (only pods have scopes; a scoped quota matches no other kind).
 */
export function quotaMatches(quota: KubeObject, group: string, plural: string, obj: KubeObject, names?: string[]): boolean {
  const hard = names ?? Object.keys(o(o(quota.status).hard));
  if (!matchingResources(group, plural, hard).length) return false;
  const isPod = !group && plural === 'pods';
  return quotaScopeSelectors(quota).every((s) => isPod && podMatchesScope(s, obj));
}

/** podEvaluator.Constraints: quotas on cpu/memory need every container to state them. */
export function podConstraints(pod: KubeObject, names: string[]): string | undefined {
  const required = names.filter((k) => VALIDATION_SET.has(k));
  if (!required.length) return undefined;
  const missing = new Map<string, Set<string>>();
  const spec = o(pod.spec);
  for (const c of [...a(spec.containers), ...a(spec.initContainers)]) {
    const res = o(c.resources);
    const req = new Map(Object.entries(o(res.requests)).map(([k, v]) => [k, quantityOf(v)]));
    const lim = new Map(Object.entries(o(res.limits)).map(([k, v]) => [k, quantityOf(v)]));
    const has = computeUsage(req, lim);
    for (const k of required) {
      if (has.has(k)) continue;
      if (!missing.has(k)) missing.set(k, new Set());
      missing.get(k)!.add(str(c.name));
    }
  }
  if (!missing.size) return undefined;
  return `must specify ${[...missing.keys()].sort().map((k) => `${k} for: ${[...missing.get(k)!].sort().join(',')}`).join('; ')}`;
}

/** A quantity string for a usage value, in the format of the quantity it adds to. */
export function formatUsage(v: bigint, like: unknown): string {
  return formatNano(v, quantityFormat(like) as Format);
}

/** quota.ResourceList as `k=v,...`, sorted by name (prettyPrint). */
export function prettyPrint(list: [string, string][]): string {
  return [...list].sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0)).map(([k, v]) => `${k}=${v}`).join(',');
}
