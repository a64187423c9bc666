// The ReplicaSet controller (pkg/controller/replicaset) as service account replicaset-controller: keeps
// spec.replicas active pods owned by each ReplicaSet (creating them from the template with a controller
// owner reference, deleting the least valuable first), and writes the status counts. Creations and
// deletions in flight are remembered until the informer shows them (the real controller's expectations), so
// a lagging cache never makes it create or delete twice; at start everything is read from stored state.

import type { KubeObject } from '../object.js';
import type { ControllerSpec } from './manager.js';
import type { WorkQueue } from './queue.js';
import { EventRecorder, conditionOf, controllerRef, keyOf, ownerRefTo, podActive, podAvailable, podReady, selectorMatches, splitKey } from './workload-util.js';

type Obj = Record<string, any>;

/** A pod's rank for deletion (controller.ActivePods ordering): lower goes first. */
function deletionRank(p: KubeObject): number[] {
  const spec = (p.spec ?? {}) as Obj;
  const st = (p.status ?? {}) as Obj;
  const phaseRank: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };
  const ready = podReady(p);
  const readySince = Date.parse(String(conditionOf(p, 'Ready')?.lastTransitionTime ?? '')) || 0;
  const restarts = ((st.containerStatuses ?? []) as Obj[]).reduce((n, c) => n + Number(c.restartCount ?? 0), 0);
  const created = Date.parse(String(p.metadata?.creationTimestamp ?? '')) || 0;
  // unassigned < assigned; pending < unknown < running; not ready < ready; ready more recently first;
  // more restarts first; newer first
  return [spec.nodeName ? 1 : 0, phaseRank[st.phase] ?? 0, ready ? 1 : 0, -readySince, -restarts, -created];
}

function compareRank(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

export interface OwnedPodsOptions {
  /** apiVersion and kind of the owner, e.g. apps/v1 ReplicaSet. */
  apiVersion: string;
  kind: string;
}

export const replicaSetController: ControllerSpec = {
  serviceAccount: 'replicaset-controller',
  start(ctx) {
    const events = new EventRecorder(ctx.client, ctx.env.clock, { component: 'replicaset-controller' });
    const creating = new Map<string, Map<string, KubeObject>>();
    const deleting = new Map<string, Set<string>>();
    const rss = ctx.informer('/apis/apps/v1/replicasets', {
      add: (o) => queue.add(keyOf(o)),
      update: (_, o) => queue.add(keyOf(o)),
    });
    const ownerKey = (p: KubeObject): string | undefined => {
      const ref = controllerRef(p);
      if (!ref || ref.kind !== 'ReplicaSet') return undefined;
      return `${p.metadata?.namespace}/${ref.name}`;
    };
    const podChanged = (p: KubeObject) => {
      const k = ownerKey(p);
      if (k) queue.add(k);
    };
    const pods = ctx.informer('/api/v1/pods', {
      add: podChanged,
      update: (old, p) => {
        podChanged(p);
        // available only after minReadySeconds: look again then
        const rs = rss.store.get(ownerKey(p) ?? '');
        const mrs = Number((rs?.spec as Obj | undefined)?.minReadySeconds ?? 0);
        if (rs && mrs > 0 && podReady(p) && !podReady(old)) queue.addAfter(keyOf(rs), mrs * 1000 + 1);
      },
      delete: podChanged,
    });

    const queue: WorkQueue<string> = ctx.queue<string>(async (key): Promise<void> => {
      await Promise.all([rss.synced, pods.synced]);
      const rs = rss.store.get(key);
      if (!rs) {
        creating.delete(key);
        deleting.delete(key);
        return;
      }
      const [namespace] = splitKey(key);
      const uid = rs.metadata!.uid;
      const spec = (rs.spec ?? {}) as Obj;
      const owned: KubeObject[] = [];
      for (const p of pods.store.values()) {
        if (p.metadata?.namespace !== namespace) continue;
        const ref = controllerRef(p);
        if (ref?.uid === uid) owned.push(p);
      }
      // forget the expectations the informer has caught up with
      const inCreate = creating.get(key) ?? new Map<string, KubeObject>();
      const inDelete = deleting.get(key) ?? new Set<string>();
      for (const name of [...inCreate.keys()]) if (pods.store.has(`${namespace}/${name}`)) inCreate.delete(name);
      for (const name of [...inDelete]) {
        const p = pods.store.get(`${namespace}/${name}`);
        if (!p || p.metadata?.deletionTimestamp) inDelete.delete(name);
      }
      const active = owned.filter((p) => podActive(p) && !inDelete.has(String(p.metadata?.name)));
      const replicas = Number(spec.replicas ?? 1);
      const deleting_ = !!rs.metadata?.deletionTimestamp;
      if (!deleting_) {
        const diff = active.length + inCreate.size - replicas;
        if (diff < 0) {
          for (let i = 0; i < -diff; i++) {
            const tpl = (spec.template ?? {}) as Obj;
            const pod = {
              apiVersion: 'v1',
              kind: 'Pod',
              metadata: {
                generateName: `${rs.metadata!.name}-`,
                namespace,
                labels: { ...(tpl.metadata?.labels ?? {}) },
                ...(tpl.metadata?.annotations ? { annotations: { ...tpl.metadata.annotations } } : {}),
                ...(tpl.metadata?.finalizers ? { finalizers: [...tpl.metadata.finalizers] } : {}),
                ownerReferences: [ownerRefTo(rs, 'apps/v1', 'ReplicaSet')],
              },
              spec: tpl.spec,
            };
            const r = await ctx.client.request('POST', `/api/v1/namespaces/${namespace}/pods`, pod);
            if (r.status >= 400) {
              await events.record({ ...rs, apiVersion: 'apps/v1', kind: 'ReplicaSet' }, 'Warning', 'FailedCreate', `Error creating: ${r.body?.message ?? r.status}`);
              break;
            }
            inCreate.set(String(r.body.metadata.name), r.body);
            await events.record({ ...rs, apiVersion: 'apps/v1', kind: 'ReplicaSet' }, 'Normal', 'SuccessfulCreate', `Created pod: ${r.body.metadata.name}`);
          }
        } else if (diff > 0) {
          const victims = [...active].sort((a, b) => compareRank(deletionRank(a), deletionRank(b))).slice(0, diff);
          for (const p of victims) {
            const name = String(p.metadata!.name);
            inDelete.add(name);
            const r = await ctx.client.request('DELETE', `/api/v1/namespaces/${namespace}/pods/${name}`);
            if (r.status >= 400 && r.status !== 404) {
              inDelete.delete(name);
              continue;
            }
            await events.record({ ...rs, apiVersion: 'apps/v1', kind: 'ReplicaSet' }, 'Normal', 'SuccessfulDelete', `Deleted pod: ${name}`);
          }
        }
      }
      if (inCreate.size) creating.set(key, inCreate);
      else creating.delete(key);
      if (inDelete.size) deleting.set(key, inDelete);
      else deleting.delete(key);

      // status from what the informer shows (calculateStatus)
      const now = ctx.env.clock.now();
      const minReady = Number(spec.minReadySeconds ?? 0);
      const counted = owned.filter(podActive);
      const tplLabels = ((spec.template as Obj | undefined)?.metadata?.labels ?? {}) as Record<string, string>;
      const status: Obj = {
        ...((rs.status ?? {}) as Obj),
        replicas: counted.length,
        fullyLabeledReplicas: counted.filter((p) => selectorMatches({ matchLabels: tplLabels }, p.metadata?.labels as Record<string, string>)).length,
        readyReplicas: counted.filter(podReady).length,
        availableReplicas: counted.filter((p) => podAvailable(p, minReady, now)).length,
        observedGeneration: rs.metadata?.generation,
      };
      for (const k of ['readyReplicas', 'availableReplicas', 'fullyLabeledReplicas']) if (status[k] === 0) delete status[k];
      if (JSON.stringify(sorted(status)) !== JSON.stringify(sorted((rs.status ?? {}) as Obj))) {
        const r = await ctx.client.request('PUT', `/apis/apps/v1/namespaces/${namespace}/replicasets/${rs.metadata!.name}/status`, { ...rs, apiVersion: 'apps/v1', kind: 'ReplicaSet', status });
        if (r.status >= 400 && r.status !== 409 && r.status !== 404) throw new Error(`replicaset status ${key}: ${r.status}`);
      }
      if (minReady > 0 && counted.some((p) => podReady(p) && !podAvailable(p, minReady, now))) queue.addAfter(key, 1000);
    });
    return { name: 'replicaset-controller' };
  },
};

export function sorted(o: Obj): Obj {
  const out: Obj = {};
  for (const k of Object.keys(o).sort()) out[k] = o[k];
  return out;
}
