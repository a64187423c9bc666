// The DaemonSet controller (pkg/controller/daemon) as service account daemon-set-controller: one pod per
// eligible node (the template's nodeSelector and node affinity, the node's taints against the template's
// tolerations plus the ones the controller adds), each pinned to its node by a required node affinity on
// metadata.name (matchFields) and left for the scheduler to bind, as v1.33 does. Rolling updates within
// maxUnavailable and maxSurge, or OnDelete; ControllerRevisions (`kubectl rollout history|undo`); the status
// counts `kubectl rollout status` reads. Nodes joining or leaving are followed. Of the pods whose node is
// gone it deletes only unscheduled ones, as the real controller does; bound ones are left to the pod garbage
// collector (pod-gc.ts).

import type { KubeObject } from '../object.js';
import type { ControllerSpec } from './manager.js';
import type { WorkQueue } from './queue.js';
import { canonical, scaled } from './deployment.js';
import { syncRevision, truncateHistory } from './history.js';
import { nodeAffinityMatches } from './scheduler.js';
import { EventRecorder, controllerRef, keyOf, ownerRefTo, podAvailable, podReady, splitKey } from './workload-util.js';

type Obj = Record<string, any>;

const REVISION_LABEL = 'controller-revision-hash';
const GENERATION_LABEL = 'pod-template-generation';

/** The tolerations every daemon pod gets (AddOrUpdateDaemonPodTolerations). */
export function daemonTolerations(hostNetwork: boolean): Obj[] {
  const t = [
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
  ];
  if (hostNetwork) t.push({ key: 'node.kubernetes.io/network-unavailable', operator: 'Exists', effect: 'NoSchedule' });
  return t;
}

function tolerated(tolerations: Obj[], taint: Obj): boolean {
  return tolerations.some((t) => {
    if (t.effect && t.effect !== taint.effect) return false;
    if (t.operator === 'Exists') return !t.key || t.key === taint.key;
    return t.key === taint.key && (t.value ?? '') === (taint.value ?? '');
  });
}

/** The pod of a node: the template with the daemon tolerations and the node pinned by affinity. */
export function daemonPod(ds: KubeObject, node: string, hash: string): KubeObject {
  const spec = (ds.spec ?? {}) as Obj;
  const template = JSON.parse(JSON.stringify(spec.template ?? {})) as Obj;
  const podSpec = (template.spec ?? {}) as Obj;
  const tolerations = ((podSpec.tolerations ?? []) as Obj[]).slice();
  for (const t of daemonTolerations(!!podSpec.hostNetwork)) {
    const i = tolerations.findIndex((x) => x.key === t.key && x.effect === t.effect);
    if (i >= 0) tolerations[i] = t;
    else tolerations.push(t);
  }
  podSpec.tolerations = tolerations;
  // ReplaceDaemonSetPodNodeNameNodeAffinity: matchFields on metadata.name in every required term
  const pin = { key: 'metadata.name', operator: 'In', values: [node] };
  const affinity = (podSpec.affinity ?? {}) as Obj;
  const nodeAffinity = (affinity.nodeAffinity ?? {}) as Obj;
  const required = nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution as Obj | undefined;
  const terms = (required?.nodeSelectorTerms ?? []) as Obj[];
  nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution = {
    nodeSelectorTerms: terms.length ? terms.map((t) => ({ ...t, matchFields: [pin] })) : [{ matchFields: [pin] }],
  };
  podSpec.affinity = { ...affinity, nodeAffinity };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: `${ds.metadata!.name}-`,
      namespace: ds.metadata!.namespace,
      labels: { ...(template.metadata?.labels ?? {}), [REVISION_LABEL]: hash, [GENERATION_LABEL]: String(ds.metadata?.generation ?? 1) },
      ...(template.metadata?.annotations ? { annotations: template.metadata.annotations } : {}),
      ownerReferences: [ownerRefTo(ds, 'apps/v1', 'DaemonSet') as any],
    },
    spec: podSpec,
  };
}

/** The node a daemon pod is for: its nodeName, else the node its affinity pins (GetTargetNodeName). */
function targetNode(p: KubeObject): string | undefined {
  const spec = (p.spec ?? {}) as Obj;
  if (spec.nodeName) return String(spec.nodeName);
  for (const t of (spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? []) as Obj[]) {
    for (const f of (t.matchFields ?? []) as Obj[]) if (f.key === 'metadata.name' && f.operator === 'In' && f.values?.length === 1) return String(f.values[0]);
  }
  return undefined;
}

/** nodeShouldRunDaemonPod: whether a pod should be placed there, and whether a running one may stay. */
export function shouldRun(pod: KubeObject, node: KubeObject): { run: boolean; keep: boolean } {
  if (!nodeAffinityMatches(pod, node)) return { run: false, keep: false };
  const tolerations = ((pod.spec as Obj).tolerations ?? []) as Obj[];
  const taints = ((node.spec as Obj | undefined)?.taints ?? []) as Obj[];
  const keep = !taints.some((t) => t.effect === 'NoExecute' && !tolerated(tolerations, t));
  const run = keep && !taints.some((t) => t.effect === 'NoSchedule' && !tolerated(tolerations, t));
  return { run, keep };
}

export const daemonSetController: ControllerSpec = {
  serviceAccount: 'daemon-set-controller',
  start(ctx) {
    const events = new EventRecorder(ctx.client, ctx.env.clock, { component: 'daemonset-controller' });
    const all = () => {
      for (const ds of sets.store.values()) queue.add(keyOf(ds));
    };
    const sets = ctx.informer('/apis/apps/v1/daemonsets', { add: (o) => queue.add(keyOf(o)), update: (_, o) => queue.add(keyOf(o)) });
    const podChanged = (p: KubeObject) => {
      const ref = controllerRef(p);
      if (ref?.kind === 'DaemonSet') queue.add(`${p.metadata?.namespace}/${ref.name}`);
    };
    const pods = ctx.informer('/api/v1/pods', { add: podChanged, update: (_, p) => podChanged(p), delete: podChanged });
    const nodes = ctx.informer('/api/v1/nodes', {
      add: all,
      delete: all,
      update: (a, b) => {
        if (canonical(a.metadata?.labels) !== canonical(b.metadata?.labels) || canonical(a.spec) !== canonical(b.spec)) all();
      },
    });
    const revisions = ctx.informer('/apis/apps/v1/controllerrevisions', {});
    /** Pods created whose creation the informer has not shown yet, by daemon set and node. */
    const creating = new Map<string, Map<string, string>>();

    const queue: WorkQueue<string> = ctx.queue<string>(async (key): Promise<void> => {
      await Promise.all([sets.synced, pods.synced, nodes.synced, revisions.synced]);
      const stored = sets.store.get(key);
      if (!stored || stored.metadata?.deletionTimestamp) return;
      const ds: Obj = { ...(JSON.parse(JSON.stringify(stored)) as KubeObject), apiVersion: 'apps/v1', kind: 'DaemonSet' };
      const [namespace, name] = splitKey(key);
      const spec = (ds.spec ?? {}) as Obj;
      const status = (ds.status ?? {}) as Obj;
      const minReady = Number(spec.minReadySeconds ?? 0);
      const now = ctx.env.clock.now();
      const strategy = spec.updateStrategy?.type ?? 'RollingUpdate';

      const owned = [...revisions.store.values()].filter((r) => r.metadata?.namespace === namespace && controllerRef(r)?.uid === ds.metadata?.uid);
      const sync = await syncRevision(ctx.client, ds, 'DaemonSet', owned, Number(status.collisionCount ?? 0));
      const hash = String(sync.update.metadata?.labels?.['controller.kubernetes.io/hash'] ?? '');

      const mine = [...pods.store.values()].filter((p) => p.metadata?.namespace === namespace && controllerRef(p)?.uid === ds.metadata?.uid);
      const byNode = new Map<string, KubeObject[]>();
      for (const p of mine) {
        const n = targetNode(p);
        if (!n) continue;
        byNode.set(n, [...(byNode.get(n) ?? []), p]);
      }
      const pending = creating.get(key) ?? new Map<string, string>();
      for (const [n, podName] of [...pending]) if (pods.store.has(`${namespace}/${podName}`) || !nodes.store.has(n)) pending.delete(n);
      creating.set(key, pending);

      const isNew = (p: KubeObject) => p.metadata?.labels?.[REVISION_LABEL] === hash;
      const available = (p: KubeObject) => podAvailable(p, minReady, now);
      const live = (p: KubeObject) => !p.metadata?.deletionTimestamp && (p.status as Obj | undefined)?.phase !== 'Failed' && (p.status as Obj | undefined)?.phase !== 'Succeeded';
      const create = async (node: string): Promise<void> => {
        if (pending.has(node)) return;
        const r = await ctx.client.request('POST', `/api/v1/namespaces/${namespace}/pods`, daemonPod(ds, node, hash));
        if (r.status >= 400) {
          await events.record(ds, 'Warning', 'FailedCreate', `Error creating: ${r.body?.message ?? r.status}`);
          return;
        }
        pending.set(node, String(r.body.metadata.name));
        await events.record(ds, 'Normal', 'SuccessfulCreate', `Created pod: ${r.body.metadata.name}`);
      };
      const remove = async (p: KubeObject): Promise<void> => {
        if (p.metadata?.deletionTimestamp) return;
        const r = await ctx.client.request('DELETE', `/api/v1/namespaces/${namespace}/pods/${p.metadata!.name}`);
        if (r.status >= 400) return;
        await events.record(ds, 'Normal', 'SuccessfulDelete', `Deleted pod: ${p.metadata!.name}`);
      };

      // manage: which nodes need a pod, which pods must go
      const probe = daemonPod(ds, '', hash);
      const eligible: string[] = [];
      let desired = 0;
      let current = 0;
      let misscheduled = 0;
      let ready = 0;
      let availableCount = 0;
      let updated = 0;
      for (const node of nodes.store.values()) {
        const nodeName = String(node.metadata!.name);
        const pinned = daemonPod(ds, nodeName, hash);
        const { run, keep } = shouldRun({ ...probe, spec: pinned.spec }, node);
        const here = (byNode.get(nodeName) ?? []).sort((a, b) => String(a.metadata?.creationTimestamp).localeCompare(String(b.metadata?.creationTimestamp)));
        byNode.delete(nodeName);
        const alive = here.filter(live);
        if (run) {
          desired++;
          eligible.push(nodeName);
          for (const p of here) if (!live(p) && !p.metadata?.deletionTimestamp) await remove(p);
          if (alive.length === 0 && !pending.has(nodeName)) await create(nodeName);
          // more than one (outside a surge): the oldest stays
          const surging = strategy === 'RollingUpdate' && alive.length === 2 && alive.some(isNew) && alive.some((p) => !isNew(p));
          if (alive.length > 1 && !surging) for (const p of alive.slice(1)) await remove(p);
          if (alive.length || pending.has(nodeName)) current++;
          const first = alive.find(isNew) ?? alive[0];
          if (first && podReady(first)) ready++;
          if (first && available(first)) availableCount++;
          if (alive.some(isNew) || pending.has(nodeName)) updated++;
        } else {
          if (alive.length) misscheduled++;
          if (!keep) for (const p of alive) await remove(p);
        }
      }
      // pods of nodes that are gone: only the ones never scheduled are the daemon set controller's to delete
      // (getUnscheduledPodsWithoutNode); bound ones are the pod garbage collector's (pod-gc.ts)
      for (const list of byNode.values()) for (const p of list) if (!(p.spec as Obj | undefined)?.nodeName) await remove(p);

      // rolling update
      if (strategy === 'RollingUpdate') {
        const ru = spec.updateStrategy?.rollingUpdate ?? {};
        const maxSurge = scaled(ru.maxSurge ?? 0, desired, true);
        const maxUnavailable = maxSurge === 0 ? Math.max(1, scaled(ru.maxUnavailable ?? 1, desired, true)) : scaled(ru.maxUnavailable ?? 0, desired, true);
        const state = eligible.map((n) => {
          const alive = mine.filter((p) => targetNode(p) === n && live(p));
          return { node: n, old: alive.filter((p) => !isNew(p)), neu: alive.filter(isNew) };
        });
        if (maxSurge === 0) {
          let unavailable = state.filter((s) => ![...s.old, ...s.neu].some(available)).length;
          // old pods that are not available go first, then available ones within maxUnavailable
          for (const s of state) for (const p of s.old) if (!available(p)) await remove(p);
          for (const s of state) {
            if (unavailable >= maxUnavailable) break;
            const old = s.old.filter(available);
            if (!old.length || s.neu.length) continue;
            for (const p of old) await remove(p);
            unavailable++;
          }
        } else {
          let surging = state.filter((s) => s.old.length && s.neu.length).length;
          for (const s of state) {
            if (!s.old.length) continue;
            if (s.neu.some(available)) {
              for (const p of s.old) await remove(p);
            } else if (!s.neu.length && surging < maxSurge && !pending.has(s.node)) {
              await create(s.node);
              surging++;
            }
          }
        }
      }

      const next: Obj = {
        currentNumberScheduled: current,
        numberMisscheduled: misscheduled,
        desiredNumberScheduled: desired,
        numberReady: ready,
        observedGeneration: ds.metadata?.generation,
        updatedNumberScheduled: updated,
        numberAvailable: availableCount,
        numberUnavailable: desired - availableCount,
        ...(status.collisionCount !== undefined || sync.collisionCount ? { collisionCount: sync.collisionCount } : {}),
        ...(status.conditions ? { conditions: status.conditions } : {}),
      };
      for (const k of ['updatedNumberScheduled', 'numberAvailable', 'numberUnavailable']) if (next[k] === 0) delete next[k];
      if (canonical(next) !== canonical(ds.status ?? {})) {
        const r = await ctx.client.request('PUT', `/apis/apps/v1/namespaces/${namespace}/daemonsets/${name}/status`, { ...ds, status: next });
        if (r.status === 409) throw new Error(`daemonset ${key} changed meanwhile`);
        if (r.status >= 400 && r.status !== 404) throw new Error(`daemonset status ${key}: ${r.status} ${r.body?.message}`);
      }
      const inUse = new Set<string>(mine.map((p) => `${name}-${p.metadata?.labels?.[REVISION_LABEL]}`));
      inUse.add(String(sync.update.metadata!.name));
      await truncateHistory(ctx.client, sync.all, inUse, Number(spec.revisionHistoryLimit ?? 10));
      if (minReady > 0 && mine.some((p) => podReady(p) && !available(p))) queue.addAfter(key, 1000);
    });
    return { name: 'daemonset-controller' };
  },
};
