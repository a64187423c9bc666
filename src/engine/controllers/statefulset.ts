// The StatefulSet controller (pkg/controller/statefulset) as service account statefulset-controller:
// pods with stable names <set>-<ordinal> (hostname and subdomain set, labelled with
// statefulset.kubernetes.io/pod-name, apps.kubernetes.io/pod-index and controller-revision-hash), their
// PersistentVolumeClaims <template>-<set>-<ordinal> from volumeClaimTemplates (owned by the set or the pod
// as persistentVolumeClaimRetentionPolicy says), OrderedReady (one at a time, each waiting for the one
// before to be Running and Ready; scale-down from the highest ordinal) or Parallel, rolling updates from the
// highest ordinal down to the partition (one pod at a time: maxUnavailable is an alpha gate, off) or
// OnDelete, ControllerRevisions (so `kubectl rollout history|undo` work) and the status counts and
// revisions `kubectl rollout status` reads. Pods and claims have fixed names, so a restarted controller that
// repeats a create gets AlreadyExists and carries on: no work is duplicated.

import type { KubeObject } from '../object.js';
import type { ControllerSpec } from './manager.js';
import type { WorkQueue } from './queue.js';
import { canonical, scaled } from './deployment.js';
import { syncRevision, templateOf, truncateHistory } from './history.js';
import { EventRecorder, controllerRef, keyOf, ownerRefTo, podAvailable, podReady, splitKey } from './workload-util.js';

type Obj = Record<string, any>;

export const POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';
export const REVISION_LABEL = 'controller-revision-hash';

const phase = (p: KubeObject) => (p.status as Obj | undefined)?.phase as string | undefined;
const terminating = (p: KubeObject) => !!p.metadata?.deletionTimestamp;
const runningAndReady = (p: KubeObject) => phase(p) === 'Running' && podReady(p);

/** The ordinal of a pod named <set>-<n>, or -1. */
export function ordinalOf(setName: string, podName: string): number {
  if (!podName.startsWith(`${setName}-`)) return -1;
  const rest = podName.slice(setName.length + 1);
  return /^(0|[1-9][0-9]*)$/.test(rest) ? Number(rest) : -1;
}

/** The pod of an ordinal built from a template (newStatefulSetPod with its identity and storage). */
export function statefulPod(set: KubeObject, template: Obj, ordinal: number, revision: string): KubeObject {
  const spec = (set.spec ?? {}) as Obj;
  const name = `${set.metadata!.name}-${ordinal}`;
  const podSpec = JSON.parse(JSON.stringify(template.spec ?? {})) as Obj;
  const volumes = ((podSpec.volumes ?? []) as Obj[]).slice();
  for (const t of (spec.volumeClaimTemplates ?? []) as Obj[]) {
    const claim = { name: t.metadata?.name, persistentVolumeClaim: { claimName: `${t.metadata?.name}-${name}` } };
    const i = volumes.findIndex((v) => v.name === claim.name);
    if (i >= 0) volumes[i] = claim;
    else volumes.push(claim);
  }
  if (volumes.length) podSpec.volumes = volumes;
  podSpec.hostname = name;
  if (spec.serviceName) podSpec.subdomain = spec.serviceName;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: set.metadata!.namespace,
      labels: { ...(template.metadata?.labels ?? {}), [POD_NAME_LABEL]: name, [POD_INDEX_LABEL]: String(ordinal), [REVISION_LABEL]: revision },
      ...(template.metadata?.annotations ? { annotations: { ...template.metadata.annotations } } : {}),
      ownerReferences: [ownerRefTo(set, 'apps/v1', 'StatefulSet') as any],
    },
    spec: podSpec,
  };
}

/**
 * The controller; with the MaxUnavailableStatefulSet gate on (the engine's live gate map) a rolling update
 * replaces up to rollingUpdate.maxUnavailable pods at once, else one.
 */
export const statefulSetControllerWith = (featureGates: Record<string, boolean> = {}): ControllerSpec => ({
  serviceAccount: 'statefulset-controller',
  start(ctx) {
    const events = new EventRecorder(ctx.client, ctx.env.clock, { component: 'statefulset-controller' });
    const sets = ctx.informer('/apis/apps/v1/statefulsets', { add: (o) => queue.add(keyOf(o)), update: (_, o) => queue.add(keyOf(o)) });
    const podChanged = (p: KubeObject) => {
      const ref = controllerRef(p);
      if (ref?.kind === 'StatefulSet') queue.add(`${p.metadata?.namespace}/${ref.name}`);
    };
    const pods = ctx.informer('/api/v1/pods', { add: podChanged, update: (_, p) => podChanged(p), delete: podChanged });
    const revisions = ctx.informer('/apis/apps/v1/controllerrevisions', {});

    const queue: WorkQueue<string> = ctx.queue<string>(async (key): Promise<void> => {
      await Promise.all([sets.synced, pods.synced, revisions.synced]);
      const stored = sets.store.get(key);
      if (!stored || stored.metadata?.deletionTimestamp) return;
      const set: Obj = { ...(JSON.parse(JSON.stringify(stored)) as KubeObject), apiVersion: 'apps/v1', kind: 'StatefulSet' };
      const [namespace, name] = splitKey(key);
      const spec = (set.spec ?? {}) as Obj;
      const status = JSON.parse(JSON.stringify(set.status ?? {})) as Obj;
      const replicas = spec.replicas === undefined ? 1 : Number(spec.replicas);
      const start = Number(spec.ordinals?.start ?? 0);
      const monotonic = (spec.podManagementPolicy ?? 'OrderedReady') !== 'Parallel';
      const strategy = spec.updateStrategy?.type ?? 'RollingUpdate';
      const partition = strategy === 'RollingUpdate' ? Number(spec.updateStrategy?.rollingUpdate?.partition ?? 0) : 0;
      const minReady = Number(spec.minReadySeconds ?? 0);
      const now = ctx.env.clock.now();

      // revisions
      const owned = [...revisions.store.values()].filter((r) => r.metadata?.namespace === namespace && controllerRef(r)?.uid === set.metadata?.uid);
      const sync = await syncRevision(ctx.client, set, 'StatefulSet', owned, Number(status.collisionCount ?? 0));
      const updateRevision = String(sync.update.metadata!.name);
      let currentRevision = String(status.currentRevision ?? '') || updateRevision;
      const currentCR = sync.all.find((r) => r.metadata?.name === currentRevision);
      if (!currentCR) currentRevision = updateRevision;
      const currentTemplate = templateOf(currentCR) ?? (spec.template as Obj);
      const updateTemplate = spec.template as Obj;

      // pods by ordinal
      const mine = [...pods.store.values()].filter((p) => p.metadata?.namespace === namespace && controllerRef(p)?.uid === set.metadata?.uid);
      const byOrdinal = new Map<number, KubeObject>();
      for (const p of mine) {
        const o = ordinalOf(name, String(p.metadata?.name));
        if (o >= 0) byOrdinal.set(o, p);
      }
      const available = (p: KubeObject) => runningAndReady(p) && podAvailable(p, minReady, now);
      const healthy = (p: KubeObject) => runningAndReady(p) && !terminating(p) && available(p);
      const revisionOf = (p: KubeObject) => String(p.metadata?.labels?.[REVISION_LABEL] ?? '');

      const createPod = async (ordinal: number): Promise<void> => {
        const useCurrent = strategy === 'RollingUpdate' && ordinal < start + partition && currentRevision !== updateRevision;
        const pod = statefulPod(set, useCurrent ? currentTemplate : updateTemplate, ordinal, useCurrent ? currentRevision : updateRevision);
        // storage first (createPersistentVolumeClaims)
        const retention = spec.persistentVolumeClaimRetentionPolicy ?? {};
        for (const t of (spec.volumeClaimTemplates ?? []) as Obj[]) {
          const claimName = `${t.metadata?.name}-${pod.metadata!.name}`;
          const claim = {
            apiVersion: 'v1',
            kind: 'PersistentVolumeClaim',
            metadata: {
              name: claimName,
              namespace,
              labels: { ...(t.metadata?.labels ?? {}), ...(spec.selector?.matchLabels ?? {}) },
              ...(t.metadata?.annotations ? { annotations: t.metadata.annotations } : {}),
              ...(retention.whenDeleted === 'Delete' ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name, uid: set.metadata!.uid }] } : {}),
            },
            spec: t.spec,
          };
          const r = await ctx.client.request('POST', `/api/v1/namespaces/${namespace}/persistentvolumeclaims`, claim);
          if (r.status >= 400 && r.status !== 409) {
            await events.record(set, 'Warning', 'FailedCreate', `create Claim ${claimName} for Pod ${pod.metadata!.name} in StatefulSet ${name} failed error: ${r.body?.message ?? r.status}`);
            throw new Error(`creating claim ${claimName}: ${r.status}`);
          }
          if (r.status < 400) await events.record(set, 'Normal', 'SuccessfulCreate', `create Claim ${claimName} Pod ${pod.metadata!.name} in StatefulSet ${name} success`);
        }
        const r = await ctx.client.request('POST', `/api/v1/namespaces/${namespace}/pods`, pod);
        if (r.status === 409) return; // created before (the informer has not shown it yet, or a restart)
        if (r.status >= 400) {
          await events.record(set, 'Warning', 'FailedCreate', `create Pod ${pod.metadata!.name} in StatefulSet ${name} failed error: ${r.body?.message ?? r.status}`);
          throw new Error(`creating pod ${pod.metadata!.name}: ${r.status}`);
        }
        byOrdinal.set(ordinal, r.body);
        await events.record(set, 'Normal', 'SuccessfulCreate', `create Pod ${pod.metadata!.name} in StatefulSet ${name} successful`);
      };
      const deletePod = async (p: KubeObject): Promise<void> => {
        const podName = String(p.metadata!.name);
        const r = await ctx.client.request('DELETE', `/api/v1/namespaces/${namespace}/pods/${podName}`);
        if (r.status >= 400 && r.status !== 404) {
          await events.record(set, 'Warning', 'FailedDelete', `delete Pod ${podName} in StatefulSet ${name} failed error: ${r.body?.message ?? r.status}`);
          return;
        }
        if (r.status < 400) {
          byOrdinal.set(ordinalOf(name, podName), r.body?.metadata ? r.body : { ...p, metadata: { ...p.metadata, deletionTimestamp: 'now' } });
          await events.record(set, 'Normal', 'SuccessfulDelete', `delete Pod ${podName} in StatefulSet ${name} successful`);
        }
      };
      /** whenScaled: Delete: the condemned pod owns its claims, so the garbage collector removes them after it. */
      const releaseClaims = async (p: KubeObject): Promise<void> => {
        if (spec.persistentVolumeClaimRetentionPolicy?.whenScaled !== 'Delete') return;
        for (const t of (spec.volumeClaimTemplates ?? []) as Obj[]) {
          const path = `/api/v1/namespaces/${namespace}/persistentvolumeclaims/${t.metadata?.name}-${p.metadata!.name}`;
          const c = await ctx.client.request('GET', path);
          if (c.status !== 200) continue;
          const refs = (c.body.metadata.ownerReferences ?? []) as Obj[];
          if (refs.some((x) => x.uid === p.metadata!.uid)) continue;
          await ctx.client.request('PUT', path, { ...c.body, metadata: { ...c.body.metadata, ownerReferences: [...refs, { apiVersion: 'v1', kind: 'Pod', name: p.metadata!.name, uid: p.metadata!.uid }] } });
        }
      };

      await (async () => {
        // failed pods are replaced
        for (const p of [...byOrdinal.values()]) if ((phase(p) === 'Failed' || phase(p) === 'Succeeded') && !terminating(p)) await deletePod(p);
        // the replicas [start, start+replicas): create in order, waiting for each when OrderedReady
        for (let o = start; o < start + replicas; o++) {
          const p = byOrdinal.get(o);
          if (!p || (terminating(p) && !monotonic)) {
            if (p && terminating(p)) continue; // Parallel: recreate once it is gone
            await createPod(o);
            if (monotonic) return;
            continue;
          }
          if (monotonic && (terminating(p) || !runningAndReady(p) || !available(p))) return;
        }
        // the condemned: from the highest ordinal down
        const condemned = [...byOrdinal.entries()].filter(([o]) => o < start || o >= start + replicas).sort((a, b) => b[0] - a[0]);
        for (const [, p] of condemned) {
          if (terminating(p)) {
            if (monotonic) return;
            continue;
          }
          await releaseClaims(p);
          await deletePod(p);
          if (monotonic) return;
        }
        if (strategy !== 'RollingUpdate') return;
        const maxUnavailableSetting = spec.updateStrategy?.rollingUpdate?.maxUnavailable;
        if (featureGates['MaxUnavailableStatefulSet'] && maxUnavailableSetting !== undefined && maxUnavailableSetting !== null) {
          // up to maxUnavailable pods unavailable at once, counted over all replicas; highest ordinals first
          const maxUnavailable = Math.max(1, scaled(maxUnavailableSetting, replicas, true));
          let unavailable = 0;
          for (let o = start; o < start + replicas; o++) {
            const p = byOrdinal.get(o);
            if (!p || !healthy(p)) unavailable++;
          }
          for (let o = start + replicas - 1; o >= start + partition && unavailable < maxUnavailable; o--) {
            const p = byOrdinal.get(o);
            if (p && revisionOf(p) !== updateRevision && !terminating(p)) {
              const wasHealthy = healthy(p);
              await deletePod(p);
              if (wasHealthy) unavailable++;
            }
          }
          return;
        }
        // rolling update: the highest ordinal not at the update revision goes first, one at a time
        for (let o = start + replicas - 1; o >= start + partition; o--) {
          const p = byOrdinal.get(o);
          if (!p) return;
          if (revisionOf(p) !== updateRevision && !terminating(p)) {
            await deletePod(p);
            return;
          }
          if (!healthy(p)) return;
        }
      })();

      // status (updateStatefulSetStatus)
      const all = [...byOrdinal.values()];
      const live = all.filter((p) => !terminating(p));
      const next: Obj = {
        observedGeneration: set.metadata?.generation,
        replicas: all.length,
        readyReplicas: all.filter(runningAndReady).length,
        currentReplicas: live.filter((p) => revisionOf(p) === currentRevision).length,
        updatedReplicas: live.filter((p) => revisionOf(p) === updateRevision).length,
        availableReplicas: all.filter(available).length,
        currentRevision,
        updateRevision,
        collisionCount: sync.collisionCount,
      };
      if (strategy === 'RollingUpdate' && next.updatedReplicas === next.replicas && next.readyReplicas === next.replicas && next.replicas === replicas) {
        next.currentReplicas = next.updatedReplicas;
        next.currentRevision = updateRevision;
      }
      if (status.conditions) next.conditions = status.conditions;
      for (const k of ['readyReplicas', 'currentReplicas', 'updatedReplicas']) if (next[k] === 0) delete next[k];
      if (canonical(next) !== canonical(set.status ?? {})) {
        const r = await ctx.client.request('PUT', `/apis/apps/v1/namespaces/${namespace}/statefulsets/${name}/status`, { ...set, status: next });
        if (r.status === 409) throw new Error(`statefulset ${key} changed meanwhile`);
        if (r.status >= 400 && r.status !== 404) throw new Error(`statefulset status ${key}: ${r.status} ${r.body?.message}`);
      }
      // history beyond revisionHistoryLimit
      const inUse = new Set<string>([String(next.currentRevision), updateRevision, ...all.map(revisionOf)]);
      await truncateHistory(ctx.client, sync.all, inUse, Number(spec.revisionHistoryLimit ?? 10));
      if (minReady > 0 && all.some((p) => runningAndReady(p) && !available(p))) queue.addAfter(key, 1000);
    });
    return { name: 'statefulset-controller' };
  },
});

export const statefulSetController: ControllerSpec = statefulSetControllerWith();
