// The pod garbage collector (pkg/controller/podgc, a default controller of kube-controller-manager) as service
// account pod-garbage-collector. Every 20 s (gcCheckPeriod) on the injected clock it:
// - deletes terminated pods (phase Succeeded or Failed) above the threshold (--terminated-pod-gc-threshold,
//   12500 by default), evicted ones first, then the oldest;
// - deletes terminating pods on a node that is not ready and carries the node.kubernetes.io/out-of-service
//   taint;
// - deletes pods bound to a node that no longer exists, once the node has been missing for the quarantine
//   time (40 s) and a read of the node still answers 404; these get the DisruptionTarget condition with
//   reason DeletionByPodGC first;
// - deletes terminating pods that were never scheduled.
// A pod not yet terminal is first marked Failed (with the condition, if any) by a server-side apply of its
// status with field manager "PodGC" (forced); then it is deleted with a grace period of 0. The real
// controller records no events.

import { rfc3339 } from '../env.js';
import type { KubeObject } from '../object.js';
import type { ControllerSpec } from './manager.js';
import type { WorkQueue } from './queue.js';

type Obj = Record<string, any>;

export const GC_CHECK_PERIOD_MS = 20_000;
export const QUARANTINE_MS = 40_000;
export const DEFAULT_TERMINATED_POD_GC_THRESHOLD = 12500;
const OUT_OF_SERVICE = 'node.kubernetes.io/out-of-service';

export interface PodGCOptions {
  /** --terminated-pod-gc-threshold (0 or less: terminated pods are not collected). */
  terminatedPodGCThreshold?: number;
}

const phaseOf = (p: KubeObject) => (p.status as Obj | undefined)?.phase as string | undefined;
const terminated = (p: KubeObject) => !['Pending', 'Running', 'Unknown'].includes(phaseOf(p) ?? 'Pending');
const nodeNameOf = (p: KubeObject) => String((p.spec as Obj | undefined)?.nodeName ?? '');
const podPath = (p: KubeObject) => `/api/v1/namespaces/${p.metadata!.namespace}/pods/${p.metadata!.name}`;

function nodeReady(node: KubeObject): boolean {
  const cond = ((node.status as Obj | undefined)?.conditions ?? []).find((c: Obj) => c.type === 'Ready');
  return cond?.status === 'True';
}

export const podGCControllerWith = (opts: PodGCOptions = {}): ControllerSpec => ({
  serviceAccount: 'pod-garbage-collector',
  start(ctx) {
    const threshold = opts.terminatedPodGCThreshold ?? DEFAULT_TERMINATED_POD_GC_THRESHOLD;
    const pods = ctx.informer('/api/v1/pods', {});
    const nodes = ctx.informer('/api/v1/nodes', {});
    /** Nodes pods are bound to that were missing, and since when (the quarantine). */
    const missingSince = new Map<string, number>();

    const markFailedAndDelete = async (p: KubeObject, condition?: Obj): Promise<void> => {
      if (phaseOf(p) !== 'Succeeded' && phaseOf(p) !== 'Failed') {
        const status: Obj = { phase: 'Failed' };
        if (condition) status.conditions = [condition];
        const r = await ctx.client.request(
          'PATCH', `${podPath(p)}/status?fieldManager=PodGC&force=true`,
          { apiVersion: 'v1', kind: 'Pod', metadata: { name: p.metadata!.name, namespace: p.metadata!.namespace }, status },
          'application/apply-patch+yaml',
        );
        if (r.status === 404) return;
        if (r.status >= 400) throw new Error(`pod gc: status of ${p.metadata!.namespace}/${p.metadata!.name}: ${r.status} ${r.body?.message}`);
      }
      const d = await ctx.client.request('DELETE', podPath(p), { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0 });
      if (d.status >= 400 && d.status !== 404) throw new Error(`pod gc: delete ${p.metadata!.namespace}/${p.metadata!.name}: ${d.status} ${d.body?.message}`);
    };

    const gc = async (): Promise<void> => {
      await Promise.all([pods.synced, nodes.synced]);
      const now = ctx.env.clock.now();
      const all = [...pods.store.values()];

      // gcTerminated
      if (threshold > 0) {
        const done = all.filter(terminated);
        const excess = done.length - threshold;
        if (excess > 0) {
          const evicted = (p: KubeObject) => (p.status as Obj | undefined)?.reason === 'Evicted';
          done.sort((a, b) => (evicted(a) === evicted(b) ? String(a.metadata?.creationTimestamp).localeCompare(String(b.metadata?.creationTimestamp)) : evicted(a) ? -1 : 1));
          for (const p of done.slice(0, excess)) await markFailedAndDelete(p);
        }
      }

      // gcTerminating: terminating pods on out-of-service nodes that are not ready
      for (const p of all) {
        if (!p.metadata?.deletionTimestamp || !nodeNameOf(p)) continue;
        const node = nodes.store.get(nodeNameOf(p));
        if (!node || nodeReady(node)) continue;
        const taints = ((node.spec as Obj | undefined)?.taints ?? []) as Obj[];
        if (taints.some((t) => t.key === OUT_OF_SERVICE && t.effect === 'NoExecute')) await markFailedAndDelete(p);
      }

      // gcOrphaned: pods bound to nodes that are gone, after the quarantine
      const bound = new Set(all.map(nodeNameOf).filter((n) => n && !nodes.store.has(n)));
      for (const n of [...missingSince.keys()]) if (!bound.has(n)) missingSince.delete(n);
      for (const n of bound) if (!missingSince.has(n)) missingSince.set(n, now);
      const deleted = new Set<string>();
      for (const [n, since] of missingSince) {
        if (now - since < QUARANTINE_MS) continue;
        // the informer may lag: the node is gone only if the API says so
        const r = await ctx.client.request('GET', `/api/v1/nodes/${n}`);
        if (r.status === 404) deleted.add(n);
        else missingSince.delete(n);
      }
      for (const p of all) {
        if (!deleted.has(nodeNameOf(p))) continue;
        await markFailedAndDelete(p, {
          type: 'DisruptionTarget', status: 'True', lastTransitionTime: rfc3339(now),
          reason: 'DeletionByPodGC', message: 'PodGC: node no longer exists',
        });
      }
      for (const n of deleted) missingSince.delete(n);

      // gcUnscheduledTerminating
      for (const p of all) if (p.metadata?.deletionTimestamp && !nodeNameOf(p)) await markFailedAndDelete(p);
    };

    const queue: WorkQueue<string> = ctx.queue<string>(async () => {
      try {
        await gc();
      } finally {
        queue.addAfter('gc', GC_CHECK_PERIOD_MS);
      }
    });
    queue.add('gc');
    return { name: 'pod-garbage-collector' };
  },
});

export const podGCController: ControllerSpec = podGCControllerWith();
