// The scheduler: kube-scheduler's identity (user system:kube-scheduler, field manager "kube-scheduler"),
// binding each pending pod of the default scheduler through pods/<name>/binding. Filters as the default
// profile's plugins in their order (NodeUnschedulable, TaintToleration, NodeAffinity with nodeSelector,
// NodeResourcesFit), the first failing one giving a node's reasons; among the feasible nodes the one with the
// fewest pods, then the least requested CPU. A pod that fits nowhere gets PodScheduled=False/Unschedulable
// and the real FailedScheduling event ("0/3 nodes are available: ..."), and is tried again when nodes or
// pods change. Its events go through the events.k8s.io/v1 API as the real scheduler's (reportingController
// default-scheduler, actions Scheduling and Binding); core v1 clients see them converted.

import type { KubeObject } from '../object.js';
import { SCHEDULER_IDENTITY } from './client.js';
import type { ControllerSpec } from './manager.js';
import type { WorkQueue } from './queue.js';
import { EventsV1Recorder, conditionOf, keyOf, podRequests, quantity, splitKey } from './workload-util.js';

type Obj = Record<string, any>;

interface Fit {
  node: KubeObject;
  reasons: string[];
  /** The reasons cannot be resolved by preempting other pods. */
  unresolvable: boolean;
}

function tolerates(tolerations: Obj[], taint: Obj): boolean {
  return tolerations.some((t) => {
    if (t.effect && t.effect !== taint.effect) return false;
    if (t.operator === 'Exists') return !t.key || t.key === taint.key;
    return t.key === taint.key && (t.value ?? '') === (taint.value ?? '');
  });
}

function requirementMatches(req: Obj, value: string | undefined): boolean {
  const vals: string[] = req.values ?? [];
  switch (req.operator) {
    case 'In':
      return value !== undefined && vals.includes(value);
    case 'NotIn':
      return value === undefined || !vals.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
      return value !== undefined && Number(value) > Number(vals[0]);
    case 'Lt':
      return value !== undefined && Number(value) < Number(vals[0]);
  }
  return false;
}

/** nodeSelector and the required node affinity (terms ORed, requirements of a term ANDed). */
export function nodeAffinityMatches(pod: KubeObject, node: KubeObject): boolean {
  const spec = (pod.spec ?? {}) as Obj;
  const labels = (node.metadata?.labels ?? {}) as Record<string, string>;
  for (const [k, v] of Object.entries((spec.nodeSelector ?? {}) as Record<string, string>)) if (labels[k] !== v) return false;
  const terms = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms as Obj[] | undefined;
  if (!terms) return true;
  return terms.some((t) => {
    const exprs = (t.matchExpressions ?? []) as Obj[];
    const fields = (t.matchFields ?? []) as Obj[];
    if (!exprs.length && !fields.length) return false;
    return exprs.every((r) => requirementMatches(r, labels[r.key])) && fields.every((r) => requirementMatches(r, r.key === 'metadata.name' ? node.metadata?.name : undefined));
  });
}

/** The reasons a node does not fit a pod, as the default filter plugins report them (empty: it fits). */
export function filterNode(pod: KubeObject, node: KubeObject, podsOnNode: KubeObject[]): Fit {
  const spec = (pod.spec ?? {}) as Obj;
  const nspec = (node.spec ?? {}) as Obj;
  const tolerations = (spec.tolerations ?? []) as Obj[];
  if (nspec.unschedulable && !tolerates(tolerations, { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' })) {
    return { node, reasons: ["node(s) were unschedulable"], unresolvable: true };
  }
  const taint = ((nspec.taints ?? []) as Obj[]).find((t) => (t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !tolerates(tolerations, t));
  if (taint) return { node, reasons: [`node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`], unresolvable: true };
  if (!nodeAffinityMatches(pod, node)) return { node, reasons: ["node(s) didn't match Pod's node affinity/selector"], unresolvable: true };
  const alloc = ((node.status as Obj | undefined)?.allocatable ?? {}) as Obj;
  const want = podRequests(pod);
  const used = { cpu: 0, memory: 0 };
  for (const p of podsOnNode) {
    const r = podRequests(p);
    used.cpu += r.cpu;
    used.memory += r.memory;
  }
  const reasons: string[] = [];
  if (podsOnNode.length + 1 > quantity(alloc.pods ?? 110)) reasons.push('Too many pods');
  if (want.cpu > 0 && used.cpu + want.cpu > quantity(alloc.cpu ?? 0) + 1e-9) reasons.push('Insufficient cpu');
  if (want.memory > 0 && used.memory + want.memory > quantity(alloc.memory ?? 0)) reasons.push('Insufficient memory');
  return { node, reasons, unresolvable: false };
}

/** FitError's message, with the preemption post-filter's (no pod has lower priority to preempt here). */
export function fitErrorMessage(total: number, fits: Fit[]): string {
  const count = (items: string[]) => {
    const m = new Map<string, number>();
    for (const r of items) m.set(r, (m.get(r) ?? 0) + 1);
    return [...m].map(([r, c]) => `${c} ${r}`).sort();
  };
  const reasons = count(fits.flatMap((f) => f.reasons));
  const preemption = count(fits.map((f) => (f.unresolvable ? 'Preemption is not helpful for scheduling' : 'No preemption victims found for incoming pod')));
  return `0/${total} nodes are available: ${reasons.join(', ')}. preemption: 0/${total} nodes are available: ${preemption.join(', ')}.`;
}

function terminal(p: KubeObject): boolean {
  const phase = (p.status as Obj | undefined)?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

export const schedulerController: ControllerSpec = {
  identity: SCHEDULER_IDENTITY,
  start(ctx) {
    // tools/events: reportingInstance is the controller's name and the host's ("default-scheduler-<hostname>")
    const events = new EventsV1Recorder(ctx.client, ctx.env.clock, 'default-scheduler', 'default-scheduler-control-plane');
    /** Pods bound by this scheduler that the informer has not shown bound yet (the scheduler cache's assumed pods). */
    const assumed = new Map<string, { node: string; pod: KubeObject }>();
    const unschedulable = new Set<string>();
    const retryAll = () => {
      for (const k of unschedulable) queue.add(k);
    };
    const pods = ctx.informer('/api/v1/pods', {
      add: (p) => consider(p),
      update: (_, p) => consider(p),
      delete: (p) => {
        assumed.delete(keyOf(p));
        unschedulable.delete(keyOf(p));
        retryAll();
      },
    });
    const nodes = ctx.informer('/api/v1/nodes', {
      add: () => retryAll(),
      update: (old, n) => {
        if (JSON.stringify(old.spec) !== JSON.stringify(n.spec) || JSON.stringify(old.metadata?.labels) !== JSON.stringify(n.metadata?.labels) || JSON.stringify((old.status as Obj)?.allocatable) !== JSON.stringify((n.status as Obj)?.allocatable)) retryAll();
      },
    });
    const consider = (p: KubeObject) => {
      const spec = (p.spec ?? {}) as Obj;
      const k = keyOf(p);
      if (spec.nodeName) {
        assumed.delete(k);
        if (unschedulable.delete(k)) retryAll();
        return;
      }
      if (terminal(p)) {
        if (unschedulable.delete(k)) retryAll();
        return;
      }
      if ((spec.schedulerName ?? 'default-scheduler') !== 'default-scheduler') return;
      if (!unschedulable.has(k)) queue.add(k);
    };
    const podsOn = (node: string): KubeObject[] => {
      const out: KubeObject[] = [];
      for (const p of pods.store.values()) if ((p.spec as Obj | undefined)?.nodeName === node && !terminal(p)) out.push(p);
      for (const a of assumed.values()) if (a.node === node && !(pods.store.get(keyOf(a.pod))?.spec as Obj | undefined)?.nodeName) out.push(a.pod);
      return out;
    };
    const queue: WorkQueue<string> = ctx.queue<string>(async (key): Promise<void> => {
      await Promise.all([pods.synced, nodes.synced]);
      const pod = pods.store.get(key);
      if (!pod || (pod.spec as Obj)?.nodeName || pod.metadata?.deletionTimestamp || terminal(pod) || assumed.has(key)) return;
      if (((pod.spec as Obj).schedulingGates ?? []).length) return;
      const all = [...nodes.store.values()].sort((a, b) => String(a.metadata?.name).localeCompare(String(b.metadata?.name)));
      const fits = all.map((n) => filterNode(pod, n, podsOn(String(n.metadata?.name))));
      const feasible = fits.filter((f) => f.reasons.length === 0);
      const [namespace, name] = splitKey(key);
      if (!feasible.length) {
        unschedulable.add(key);
        const message = all.length ? fitErrorMessage(all.length, fits) : 'no nodes available to schedule pods';
        const prev = conditionOf(pod, 'PodScheduled');
        if (prev?.status !== 'False' || prev.message !== message) {
          const at = new Date(Math.floor(ctx.env.clock.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
          const cond = { type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime: prev?.status === 'False' ? prev.lastTransitionTime : at, reason: 'Unschedulable', message };
          await ctx.client.request('PATCH', `/api/v1/namespaces/${namespace}/pods/${name}/status`, { status: { conditions: [cond] } }, 'application/strategic-merge-patch+json');
          await events.record(pod, 'Warning', 'FailedScheduling', 'Scheduling', message);
        }
        // the unschedulable pods are flushed back into the queue at the latest after 5 minutes
        queue.addAfter(key, 5 * 60_000);
        return;
      }
      const score = (f: Fit) => podsOn(String(f.node.metadata?.name)).length;
      feasible.sort((a, b) => score(a) - score(b));
      const target = String(feasible[0].node.metadata?.name);
      assumed.set(key, { node: target, pod });
      const r = await ctx.client.request('POST', `/api/v1/namespaces/${namespace}/pods/${name}/binding`, {
        apiVersion: 'v1',
        kind: 'Binding',
        metadata: { name, namespace, uid: pod.metadata?.uid },
        target: { kind: 'Node', name: target },
      });
      if (r.status >= 400) {
        assumed.delete(key);
        if (r.status === 404 || r.status === 409) return;
        throw new Error(`binding ${key}: ${r.status}`);
      }
      unschedulable.delete(key);
      await events.record(pod, 'Normal', 'Scheduled', 'Binding', `Successfully assigned ${namespace}/${name} to ${target}`);
    });
    return { name: 'kube-scheduler' };
  },
};
