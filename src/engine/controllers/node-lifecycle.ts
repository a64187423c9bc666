// The node lifecycle controller and taint-based eviction, as kube-controller-manager runs them, under the
// node-controller service account (system:serviceaccount:kube-system:node-controller).
//
// Every 5 s (node-monitor-period) it looks at each node's health: the last time it saw the node's Lease
// renewed or its Ready heartbeat change (kept in memory as the real controller keeps it; a restarted
// controller gives every node a fresh grace period). A node silent for longer than node-monitor-grace-period
// (50 s, the default since v1.32) gets its Ready, MemoryPressure, DiskPressure and PIDPressure conditions set
// to Unknown (NodeStatusUnknown, "Kubelet stopped posting node status."), the NodeNotReady event, its pods'
// Ready condition False (with the pods' NodeNotReady event), and the node.kubernetes.io/unreachable taints
// (NoSchedule and NoExecute). A node whose Ready is False gets the not-ready taints instead; a Ready node
// loses them.
//
// Taint-based eviction: a pod on a node with NoExecute taints it does not tolerate is deleted at once; one
// that tolerates them for a while (the DefaultTolerationSeconds admission gives every pod 300 s for
// not-ready and unreachable) is deleted when the shortest toleration ends, counted from the taint's
// timeAdded; before the delete the pod gets the DisruptionTarget condition (DeletionByTaintManager) and the
// TaintManagerEviction event. A pod on a dead node stays Terminating until its kubelet comes back (as real).

import { rfc3339 } from '../env.js';
import type { KubeObject } from '../object.js';
import type { ControllerSpec } from './manager.js';
import type { WorkQueue } from './queue.js';
import { EventRecorder, conditionOf, keyOf } from './workload-util.js';

type Obj = Record<string, any>;

export const NODE_MONITOR_PERIOD_MS = 5_000;
export const NODE_MONITOR_GRACE_MS = 50_000;

const UNREACHABLE = 'node.kubernetes.io/unreachable';
const NOT_READY = 'node.kubernetes.io/not-ready';
const NODE_CONDITIONS = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'];

function tolerates(t: Obj, taint: Obj): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.operator === 'Exists') return !t.key || t.key === taint.key;
  return t.key === taint.key && (t.value ?? '') === (taint.value ?? '');
}

/**
 * When a pod on a node with these NoExecute taints is to be evicted (ms), or undefined for never: at once
 * when a taint is not tolerated, else when the shortest tolerationSeconds of the matching tolerations ends.
 */
export function evictionTime(pod: KubeObject, taints: Obj[], now: number): number | undefined {
  const noExecute = taints.filter((t) => t.effect === 'NoExecute');
  if (!noExecute.length) return undefined;
  const tolerations = (((pod.spec as Obj | undefined)?.tolerations ?? []) as Obj[]);
  let due: number | undefined;
  for (const taint of noExecute) {
    const matching = tolerations.filter((t) => tolerates(t, taint));
    if (!matching.length) return now;
    const added = Date.parse(String(taint.timeAdded ?? '')) || now;
    for (const t of matching) {
      if (t.tolerationSeconds === undefined || t.tolerationSeconds === null) continue;
      const at = added + Math.max(0, Number(t.tolerationSeconds)) * 1000;
      due = due === undefined ? at : Math.min(due, at);
    }
  }
  return due;
}

export const nodeLifecycleController: ControllerSpec = {
  serviceAccount: 'node-controller',
  start(ctx) {
    const events = new EventRecorder(ctx.client, ctx.env.clock, { component: 'node-controller' });
    const evictionEvents = new EventRecorder(ctx.client, ctx.env.clock, { component: 'taint-eviction-controller' });
    /** node -> when the controller last saw it alive, and what it saw. */
    const health = new Map<string, { probe: number; seen: string }>();
    const nodes = ctx.informer('/api/v1/nodes', {
      add: (n) => queue.add(`node:${n.metadata!.name}`),
      update: (_, n) => queue.add(`node:${n.metadata!.name}`),
      delete: (n) => void health.delete(String(n.metadata!.name)),
    });
    const leases = ctx.informer('/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases', {
      add: (l) => queue.add(`node:${l.metadata!.name}`),
      update: (_, l) => queue.add(`node:${l.metadata!.name}`),
    });
    const pods = ctx.informer('/api/v1/pods', {
      add: (p) => podChanged(p),
      update: (_, p) => podChanged(p),
    });
    const podChanged = (p: KubeObject) => {
      if ((p.spec as Obj | undefined)?.nodeName && !p.metadata?.deletionTimestamp) queue.add(`pod:${keyOf(p)}`);
    };
    const nodeNamed = (name: string): KubeObject | undefined => {
      for (const n of nodes.store.values()) if (n.metadata?.name === name) return n;
      return undefined;
    };
    const podsOn = (name: string): KubeObject[] => [...pods.store.values()].filter((p) => (p.spec as Obj | undefined)?.nodeName === name);

    const monitor = async (node: KubeObject): Promise<void> => {
      const name = String(node.metadata!.name);
      const now = ctx.env.clock.now();
      const ready = conditionOf(node, 'Ready');
      // a node whose kubelet never posted status has its own (startup) grace: not simulated here
      if (!ready) return;
      const lease = leases.store.get(`kube-node-lease/${name}`);
      const seen = `${(lease?.spec as Obj | undefined)?.renewTime ?? ''}|${ready.lastHeartbeatTime ?? ''}`;
      let h = health.get(name);
      if (!h || h.seen !== seen) health.set(name, (h = { probe: now, seen }));
      const path = `/api/v1/nodes/${name}`;
      let status = String(ready.status);
      if (now > h.probe + NODE_MONITOR_GRACE_MS && status !== 'Unknown') {
        const at = rfc3339(now);
        const conditions = ((node.status as Obj).conditions as Obj[])
          .filter((c) => NODE_CONDITIONS.includes(c.type))
          .map((c) => ({ ...c, status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastTransitionTime: at }));
        const r = await ctx.client.request('PATCH', `${path}/status`, { status: { conditions } }, 'application/strategic-merge-patch+json');
        if (r.status >= 400) throw new Error(`node status of ${name}: ${r.status}`);
        await events.record(node, 'Normal', 'NodeNotReady', `Node ${name} status is now: NodeNotReady`);
        await markPodsNotReady(name);
        status = 'Unknown';
        node = r.body as KubeObject;
      }
      // the taints that say why the node cannot run pods (doNoScheduleTaintingPass, doNoExecuteTaintingPass)
      const want = status === 'Unknown' ? UNREACHABLE : status === 'False' ? NOT_READY : undefined;
      const taints = (((node.spec as Obj | undefined)?.taints ?? []) as Obj[]);
      const managed = (t: Obj) => (t.key === UNREACHABLE || t.key === NOT_READY) && (t.effect === 'NoSchedule' || t.effect === 'NoExecute');
      const keep = taints.filter((t) => !managed(t) || t.key === want);
      const add = want ? ['NoSchedule', 'NoExecute'].filter((e) => !keep.some((t) => t.key === want && t.effect === e)) : [];
      if (add.length || keep.length !== taints.length) {
        const at = rfc3339(now);
        const next = [...keep, ...add.map((effect) => ({ key: want, effect, timeAdded: at }))];
        const r = await ctx.client.request('PATCH', path, { spec: { taints: next.length ? next : null } }, 'application/strategic-merge-patch+json');
        if (r.status >= 400 && r.status !== 404) throw new Error(`taints of ${name}: ${r.status}`);
        for (const p of podsOn(name)) podChanged(p);
      }
    };

    /** MarkPodsNotReady: the pods of a node that stopped reporting are not Ready any more. */
    const markPodsNotReady = async (name: string): Promise<void> => {
      const at = rfc3339(ctx.env.clock.now());
      for (const p of podsOn(name)) {
        const ready = conditionOf(p, 'Ready');
        if (!ready || ready.status === 'False') continue;
        const cond = { ...ready, status: 'False', lastTransitionTime: at };
        const r = await ctx.client.request('PATCH', `/api/v1/namespaces/${p.metadata!.namespace}/pods/${p.metadata!.name}/status`, { status: { conditions: [cond] } }, 'application/strategic-merge-patch+json');
        if (r.status >= 400) continue;
        await events.record(p, 'Warning', 'NodeNotReady', 'Node is not ready');
      }
    };

    const evict = async (key: string): Promise<void> => {
      const pod = pods.store.get(key);
      if (!pod || pod.metadata?.deletionTimestamp) return;
      const node = nodeNamed(String((pod.spec as Obj | undefined)?.nodeName ?? ''));
      if (!node) return;
      const now = ctx.env.clock.now();
      const due = evictionTime(pod, (((node.spec as Obj | undefined)?.taints ?? []) as Obj[]), now);
      if (due === undefined) return;
      if (now < due) return queue.addAfter(`pod:${key}`, due - now);
      const { namespace, name, uid } = pod.metadata!;
      await evictionEvents.record(pod, 'Normal', 'TaintManagerEviction', `Marking for deletion Pod ${namespace}/${name}`);
      const cond = { type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime: rfc3339(now), reason: 'DeletionByTaintManager', message: 'Taint manager: deleting due to NoExecute taint' };
      const path = `/api/v1/namespaces/${namespace}/pods/${name}`;
      await ctx.client.request('PATCH', `${path}/status`, { status: { conditions: [cond] } }, 'application/strategic-merge-patch+json');
      const r = await ctx.client.request('DELETE', path, { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid } });
      if (r.status >= 400 && r.status !== 404 && r.status !== 409) throw new Error(`evicting ${key}: ${r.status}`);
    };

    const queue: WorkQueue<string> = ctx.queue<string>(async (item): Promise<void> => {
      await Promise.all([nodes.synced, leases.synced, pods.synced]);
      if (item === 'monitor') {
        for (const n of [...nodes.store.values()]) await monitor(n);
        queue.addAfter('monitor', NODE_MONITOR_PERIOD_MS);
        return;
      }
      if (item.startsWith('node:')) {
        const n = nodeNamed(item.slice(5));
        if (n) await monitor(n);
        return;
      }
      if (item.startsWith('pod:')) await evict(item.slice(4));
    });
    queue.add('monitor');
    return { name: 'node-lifecycle-controller' };
  },
};
