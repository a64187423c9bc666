// The Deployment controller (pkg/controller/deployment) as service account deployment-controller: one
// ReplicaSet per pod template (named <deployment>-<pod-template-hash>), revisions in the
// deployment.kubernetes.io/revision annotation, rolling updates bounded by maxSurge/maxUnavailable,
// Recreate, scaling (proportional across replica sets mid-rollout), pause, history cleanup
// (revisionHistoryLimit) and the status counts and conditions with the real reasons and messages.
// `kubectl rollout undo` is the client's own patch of the template; the controller then finds the old
// replica set again and gives it the next revision.

import { rfc3339 } from '../env.js';
import type { KubeObject } from '../object.js';
import type { ControllerSpec } from './manager.js';
import type { WorkQueue } from './queue.js';
import { EventRecorder, controllerRef, fnv32a, keyOf, ownerRefTo, safeEncode, splitKey } from './workload-util.js';

type Obj = Record<string, any>;

export const REVISION = 'deployment.kubernetes.io/revision';
const REVISION_HISTORY = 'deployment.kubernetes.io/revision-history';
const DESIRED = 'deployment.kubernetes.io/desired-replicas';
const MAX = 'deployment.kubernetes.io/max-replicas';
const HASH = 'pod-template-hash';
/** Annotations of a deployment that are not copied to its replica sets (annotationsToSkip). */
const SKIP = new Set(['kubectl.kubernetes.io/last-applied-configuration', REVISION, REVISION_HISTORY, DESIRED, MAX]);

/** Stable JSON (keys sorted) for comparing templates. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v as Obj).sort().filter((k) => (v as Obj)[k] !== undefined).map((k) => `${JSON.stringify(k)}:${canonical((v as Obj)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/** The template without the pod-template-hash label (EqualIgnoreHash compares these). */
function withoutHash(template: Obj | undefined): Obj {
  const t = JSON.parse(JSON.stringify(template ?? {})) as Obj;
  if (t.metadata?.labels) {
    delete t.metadata.labels[HASH];
    if (Object.keys(t.metadata.labels).length === 0) delete t.metadata.labels;
  }
  if (t.metadata && Object.keys(t.metadata).length === 0) delete t.metadata;
  return t;
}

/** controller.ComputeHash: a hash of the template and the collision count, in the safe alphabet. */
export function podTemplateHash(template: Obj, collisionCount?: number): string {
  return safeEncode(fnv32a(canonical(template) + (collisionCount ? `#${collisionCount}` : '')));
}

/** intstr.GetScaledValueFromIntOrPercent. */
export function scaled(v: unknown, total: number, roundUp: boolean): number {
  if (typeof v === 'number') return v;
  const m = /^(\d+)%$/.exec(String(v ?? ''));
  if (!m) return Number(v) || 0;
  const x = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(x) : Math.floor(x);
}

/** ResolveFenceposts: maxSurge rounds up, maxUnavailable down; both zero means one unavailable. */
export function fenceposts(d: KubeObject): { surge: number; unavailable: number } {
  const spec = (d.spec ?? {}) as Obj;
  const replicas = Number(spec.replicas ?? 1);
  if (spec.strategy?.type === 'Recreate') return { surge: 0, unavailable: 0 };
  const ru = spec.strategy?.rollingUpdate ?? {};
  const surge = scaled(ru.maxSurge ?? '25%', replicas, true);
  let unavailable = scaled(ru.maxUnavailable ?? '25%', replicas, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable: Math.min(unavailable, replicas) };
}

const specReplicas = (rs: KubeObject) => Number((rs.spec as Obj | undefined)?.replicas ?? 0);
const st = (rs: KubeObject, k: string) => Number((rs.status as Obj | undefined)?.[k] ?? 0);
const revisionOf = (rs: KubeObject) => Number(rs.metadata?.annotations?.[REVISION] ?? 0) || 0;
const created = (o: KubeObject) => Date.parse(String(o.metadata?.creationTimestamp ?? '')) || 0;
const sum = (list: KubeObject[], f: (rs: KubeObject) => number) => list.reduce((n, rs) => n + f(rs), 0);

/** NewRSNewReplicas for a rolling update: scale up within maxSurge, never past the desired count. */
export function newRSNewReplicas(d: KubeObject, all: KubeObject[], newRS: KubeObject): number {
  const replicas = Number((d.spec as Obj).replicas ?? 1);
  if ((d.spec as Obj).strategy?.type === 'Recreate') return replicas;
  const { surge } = fenceposts(d);
  const current = sum(all, specReplicas);
  const maxTotal = replicas + surge;
  if (current >= maxTotal) return specReplicas(newRS);
  return specReplicas(newRS) + Math.min(maxTotal - current, Math.max(0, replicas - specReplicas(newRS)));
}

/** How far old replica sets may scale down now (reconcileOldReplicaSets' two steps), per old replica set. */
export function oldScaleDowns(d: KubeObject, all: KubeObject[], olds: KubeObject[], newRS: KubeObject | undefined): Map<KubeObject, number> {
  const out = new Map<KubeObject, number>();
  const replicas = Number((d.spec as Obj).replicas ?? 1);
  const oldPods = sum(olds, specReplicas);
  if (oldPods === 0) return out;
  const allPods = sum(all, specReplicas);
  const { unavailable } = fenceposts(d);
  const minAvailable = replicas - unavailable;
  const newUnavailable = newRS ? specReplicas(newRS) - st(newRS, 'availableReplicas') : 0;
  let maxScaledDown = allPods - minAvailable - newUnavailable;
  if (maxScaledDown <= 0) return out;
  const byAge = [...olds].sort((a, b) => created(a) - created(b));
  // cleanupUnhealthyReplicas: unavailable old pods go first
  let cleaned = 0;
  const after = new Map<KubeObject, number>(olds.map((rs) => [rs, specReplicas(rs)]));
  for (const rs of byAge) {
    if (cleaned >= maxScaledDown) break;
    const cur = after.get(rs)!;
    if (cur === 0) continue;
    const unhealthy = cur - st(rs, 'availableReplicas');
    if (unhealthy <= 0) continue;
    const n = Math.min(maxScaledDown - cleaned, unhealthy);
    after.set(rs, cur - n);
    cleaned += n;
  }
  maxScaledDown -= cleaned;
  // scaleDownOldReplicaSetsForRollingUpdate: available pods beyond the minimum
  const available = sum(all, (rs) => st(rs, 'availableReplicas'));
  let total = available - minAvailable;
  if (total > 0) {
    for (const rs of byAge) {
      if (total <= 0) break;
      const cur = after.get(rs)!;
      if (cur === 0) continue;
      const n = Math.min(cur, total);
      after.set(rs, cur - n);
      total -= n;
    }
  }
  for (const rs of olds) if (after.get(rs)! !== specReplicas(rs)) out.set(rs, after.get(rs)!);
  return out;
}

interface Condition {
  type: string;
  status: string;
  lastUpdateTime: string;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

/** SetDeploymentCondition: no change for the same status and reason; the transition time kept for the same status. */
function setCondition(status: Obj, c: Condition): void {
  const list = (status.conditions ?? []) as Condition[];
  const cur = list.find((x) => x.type === c.type);
  if (cur && cur.status === c.status && cur.reason === c.reason) return;
  if (cur && cur.status === c.status) c.lastTransitionTime = cur.lastTransitionTime;
  status.conditions = [...list.filter((x) => x.type !== c.type), c];
}

export const deploymentController: ControllerSpec = {
  serviceAccount: 'deployment-controller',
  start(ctx) {
    const events = new EventRecorder(ctx.client, ctx.env.clock, { component: 'deployment-controller' });
    const deployments = ctx.informer('/apis/apps/v1/deployments', {
      add: (o) => queue.add(keyOf(o)),
      update: (_, o) => queue.add(keyOf(o)),
    });
    const ownerOf = (rs: KubeObject) => {
      const ref = controllerRef(rs);
      if (ref?.kind === 'Deployment') queue.add(`${rs.metadata?.namespace}/${ref.name}`);
    };
    const replicasets = ctx.informer('/apis/apps/v1/replicasets', { add: ownerOf, update: (_, o) => ownerOf(o), delete: ownerOf });
    const pods = ctx.informer('/api/v1/pods', {
      // Recreate waits for the old pods to be gone
      delete: (p) => {
        const ref = controllerRef(p);
        if (ref?.kind !== 'ReplicaSet') return;
        const rs = replicasets.store.get(`${p.metadata?.namespace}/${ref.name}`);
        if (rs) ownerOf(rs);
      },
    });
    /** Replica sets created or scaled whose change the informer has not shown yet. */
    const pending = new Map<string, KubeObject>();
    const path = (ns: string, name: string) => `/apis/apps/v1/namespaces/${ns}/replicasets/${name}`;

    const queue: WorkQueue<string> = ctx.queue<string>(async (key): Promise<void> => {
      await Promise.all([deployments.synced, replicasets.synced, pods.synced]);
      const stored = deployments.store.get(key);
      if (!stored) return;
      const d = JSON.parse(JSON.stringify(stored)) as KubeObject;
      d.apiVersion = 'apps/v1';
      d.kind = 'Deployment';
      const [namespace, name] = splitKey(key);
      const spec = (d.spec ?? {}) as Obj;
      const replicas = Number(spec.replicas ?? 1);
      const now = ctx.env.clock.now();
      const at = rfc3339(now);
      const cond = (type: string, status: string, reason: string, message: string): Condition => ({ type, status, lastUpdateTime: at, lastTransitionTime: at, reason, message });
      const owned = (): KubeObject[] => {
        const out: KubeObject[] = [];
        for (const rs of replicasets.store.values()) {
          if (rs.metadata?.namespace !== namespace || controllerRef(rs)?.uid !== d.metadata?.uid) continue;
          const p = pending.get(keyOf(rs));
          if (p && Number(p.metadata?.resourceVersion ?? 0) > Number(rs.metadata?.resourceVersion ?? 0)) out.push(p);
          else {
            pending.delete(keyOf(rs));
            out.push(rs);
          }
        }
        for (const [k, p] of pending) if (k.startsWith(`${namespace}/`) && controllerRef(p)?.uid === d.metadata?.uid && !replicasets.store.has(k)) out.push(p);
        return out;
      };
      if (d.metadata?.deletionTimestamp) return;
      const status = JSON.parse(JSON.stringify(d.status ?? {})) as Obj;
      let statusDirty = false;
      const desiredTemplate = withoutHash(spec.template);
      const desiredCanon = canonical(desiredTemplate);
      const split = () => {
        const all = owned();
        const matching = all.filter((rs) => canonical(withoutHash((rs.spec as Obj).template)) === desiredCanon).sort((a, b) => created(a) - created(b));
        const newRS = matching[0];
        return { all, newRS, olds: all.filter((rs) => rs !== newRS) };
      };

      const annotationsFor = (rs: KubeObject, revision: string | undefined): Obj => {
        const ann: Obj = { ...(rs.metadata?.annotations ?? {}) };
        for (const [k, v] of Object.entries(d.metadata?.annotations ?? {})) if (!SKIP.has(k)) ann[k] = v;
        if (revision !== undefined) {
          const old = ann[REVISION];
          if (old === undefined || Number(old) < Number(revision)) {
            if (old !== undefined) ann[REVISION_HISTORY] = ann[REVISION_HISTORY] ? `${ann[REVISION_HISTORY]},${old}` : String(old);
            ann[REVISION] = revision;
          }
        }
        ann[DESIRED] = String(replicas);
        ann[MAX] = String(replicas + fenceposts(d).surge);
        return ann;
      };
      const writeRS = async (rs: KubeObject): Promise<KubeObject | undefined> => {
        const r = await ctx.client.request('PUT', path(namespace, String(rs.metadata!.name)), rs);
        if (r.status === 409 || r.status === 404) return undefined;
        if (r.status >= 400) throw new Error(`updating replica set ${rs.metadata?.name}: ${r.status} ${r.body?.message}`);
        pending.set(keyOf(r.body), r.body);
        return r.body as KubeObject;
      };
      const scale = async (rs: KubeObject, to: number): Promise<boolean> => {
        const from = specReplicas(rs);
        const ann = annotationsFor(rs, undefined);
        const annChanged = ann[DESIRED] !== rs.metadata?.annotations?.[DESIRED] || ann[MAX] !== rs.metadata?.annotations?.[MAX];
        if (from === to && !annChanged) return false;
        const next = { ...rs, apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { ...rs.metadata, annotations: { ...(rs.metadata?.annotations ?? {}), [DESIRED]: ann[DESIRED], [MAX]: ann[MAX] } }, spec: { ...(rs.spec as Obj), replicas: to } };
        const out = await writeRS(next);
        if (out && from !== to) await events.record(d, 'Normal', 'ScalingReplicaSet', `Scaled ${to > from ? 'up' : 'down'} replica set ${rs.metadata!.name} from ${from} to ${to}`);
        return !!out && from !== to;
      };

      /** getAllReplicaSetsAndSyncRevision: the new replica set (created when asked), the revision on the deployment. */
      const syncRevision = async (create: boolean): Promise<{ all: KubeObject[]; newRS?: KubeObject; olds: KubeObject[] }> => {
        let { all, newRS, olds } = split();
        const maxOld = Math.max(0, ...olds.map(revisionOf));
        const newRevision = String(maxOld + 1);
        if (newRS) {
          const ann = annotationsFor(newRS, newRevision);
          const minReady = Number(spec.minReadySeconds ?? 0);
          if (canonical(ann) !== canonical(newRS.metadata?.annotations ?? {}) || Number((newRS.spec as Obj).minReadySeconds ?? 0) !== minReady) {
            const next = { ...newRS, apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { ...newRS.metadata, annotations: ann }, spec: { ...(newRS.spec as Obj), minReadySeconds: minReady } };
            newRS = (await writeRS(next)) ?? newRS;
            all = all.map((rs) => (keyOf(rs) === keyOf(newRS!) ? newRS! : rs));
          }
          await setRevision(String(newRS.metadata?.annotations?.[REVISION] ?? newRevision));
          if (!(status.conditions ?? []).some((c: Obj) => c.type === 'Progressing') && spec.progressDeadlineSeconds !== undefined) {
            setCondition(status, cond('Progressing', 'True', 'FoundNewReplicaSet', `Found new replica set "${newRS.metadata!.name}"`));
            statusDirty = true;
          }
          return { all, newRS, olds };
        }
        if (!create) return { all, newRS, olds };
        const collision = Number(status.collisionCount ?? 0) || undefined;
        const hash = podTemplateHash(desiredTemplate, collision);
        const template = JSON.parse(JSON.stringify(spec.template ?? {})) as Obj;
        template.metadata = { ...(template.metadata ?? {}), labels: { ...(template.metadata?.labels ?? {}), [HASH]: hash } };
        const selector = JSON.parse(JSON.stringify(spec.selector ?? {})) as Obj;
        selector.matchLabels = { ...(selector.matchLabels ?? {}), [HASH]: hash };
        const rs: KubeObject = {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          metadata: { name: `${name}-${hash}`, namespace, labels: template.metadata.labels, ownerReferences: [ownerRefTo(d, 'apps/v1', 'Deployment') as any] },
          spec: { replicas: 0, minReadySeconds: Number(spec.minReadySeconds ?? 0), selector, template },
        };
        (rs.spec as Obj).replicas = newRSNewReplicas(d, [...all, rs], rs);
        rs.metadata!.annotations = annotationsFor(rs, newRevision);
        const r = await ctx.client.request('POST', `/apis/apps/v1/namespaces/${namespace}/replicasets`, rs);
        if (r.status === 409) {
          // a replica set of that name with another template: a hash collision; try the next count
          const existing = await ctx.client.request('GET', path(namespace, String(rs.metadata!.name)));
          if (existing.status === 200 && canonical(withoutHash(existing.body.spec?.template)) !== desiredCanon) {
            status.collisionCount = (collision ?? 0) + 1;
            await writeStatus();
          }
          throw new Error(`replica set ${rs.metadata!.name} exists`);
        }
        if (r.status >= 400) throw new Error(`creating replica set: ${r.status} ${r.body?.message}`);
        const createdRS = r.body as KubeObject;
        pending.set(keyOf(createdRS), createdRS);
        if (specReplicas(createdRS) > 0) await events.record(d, 'Normal', 'ScalingReplicaSet', `Scaled up replica set ${createdRS.metadata!.name} from 0 to ${specReplicas(createdRS)}`);
        await setRevision(newRevision);
        if (spec.progressDeadlineSeconds !== undefined) {
          setCondition(status, cond('Progressing', 'True', 'NewReplicaSetCreated', `Created new replica set "${createdRS.metadata!.name}"`));
          statusDirty = true;
        }
        return { all: [...all, createdRS], newRS: createdRS, olds };
      };
      const setRevision = async (rev: string): Promise<void> => {
        if (d.metadata?.annotations?.[REVISION] === rev) return;
        // SetDeploymentRevision, written with the status update (the deployments' status strategy keeps the
        // request's annotations), so it is managed by kube-controller-manager under the status subresource
        d.metadata = { ...d.metadata, annotations: { ...(d.metadata?.annotations ?? {}), [REVISION]: rev } };
        statusDirty = true;
      };
      const writeStatus = async (): Promise<void> => {
        const r = await ctx.client.request('PUT', `/apis/apps/v1/namespaces/${namespace}/deployments/${name}/status`, { ...d, status });
        if (r.status === 409) throw new Error(`deployment ${key} changed meanwhile`);
        if (r.status >= 400 && r.status !== 404) throw new Error(`deployment status ${key}: ${r.status} ${r.body?.message}`);
        if (r.status < 400) d.metadata = { ...d.metadata, resourceVersion: r.body.metadata.resourceVersion };
        statusDirty = false;
      };

      /** calculateStatus and syncRolloutStatus. */
      const syncStatus = async (all: KubeObject[], newRS: KubeObject | undefined, rollout: boolean): Promise<void> => {
        const available = sum(all, (rs) => st(rs, 'availableReplicas'));
        const total = sum(all, specReplicas);
        const next: Obj = {
          ...status,
          observedGeneration: d.metadata?.generation,
          replicas: sum(all, (rs) => st(rs, 'replicas')),
          updatedReplicas: newRS ? st(newRS, 'replicas') : 0,
          readyReplicas: sum(all, (rs) => st(rs, 'readyReplicas')),
          availableReplicas: available,
          unavailableReplicas: Math.max(0, total - available),
        };
        for (const k of ['replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas']) if (next[k] === 0) delete next[k];
        const { unavailable } = fenceposts(d);
        if (available >= replicas - unavailable) setCondition(next, cond('Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.'));
        else setCondition(next, cond('Available', 'False', 'MinimumReplicasUnavailable', 'Deployment does not have minimum availability.'));
        const n = (k: string, s: Obj) => Number(s[k] ?? 0);
        const progressCond = ((status.conditions ?? []) as Condition[]).find((c) => c.type === 'Progressing');
        if (spec.paused) {
          // a paused deployment reports Unknown/DeploymentPaused (and DeploymentResumed once resumed)
          if (progressCond?.reason !== 'DeploymentPaused') setCondition(next, cond('Progressing', 'Unknown', 'DeploymentPaused', 'Deployment is paused'));
        } else if (progressCond?.reason === 'DeploymentPaused') {
          setCondition(next, cond('Progressing', 'Unknown', 'DeploymentResumed', 'Deployment is resumed'));
        } else if (rollout && spec.progressDeadlineSeconds !== undefined) {
          const complete = n('updatedReplicas', next) === replicas && n('replicas', next) === replicas && n('availableReplicas', next) === replicas && Number(next.observedGeneration ?? 0) >= Number(d.metadata?.generation ?? 0);
          const isComplete = n('replicas', next) === n('updatedReplicas', next) && progressCond?.reason === 'NewReplicaSetAvailable';
          const old = (s: Obj) => n('replicas', s) - n('updatedReplicas', s);
          const progressing = n('updatedReplicas', next) > n('updatedReplicas', status) || n('readyReplicas', next) > n('readyReplicas', status) || old(status) > old(next) || n('availableReplicas', next) > n('availableReplicas', status);
          const what = newRS ? `ReplicaSet "${newRS.metadata!.name}"` : `Deployment "${name}"`;
          if (!isComplete) {
            if (complete) setCondition(next, cond('Progressing', 'True', 'NewReplicaSetAvailable', `${what} has successfully progressed.`));
            else if (progressing) {
              const c = cond('Progressing', 'True', 'ReplicaSetUpdated', `${what} is progressing.`);
              if (progressCond?.status === 'True') c.lastTransitionTime = progressCond.lastTransitionTime;
              next.conditions = [...((next.conditions ?? []) as Condition[]).filter((x) => x.type !== 'Progressing'), c];
            } else if (progressCond && progressCond.reason !== 'ProgressDeadlineExceeded') {
              const deadline = Date.parse(progressCond.lastUpdateTime) + Number(spec.progressDeadlineSeconds) * 1000;
              if (now > deadline) setCondition(next, cond('Progressing', 'False', 'ProgressDeadlineExceeded', `${what} has timed out progressing.`));
              else queue.addAfter(key, deadline - now + 1000);
            }
          }
        }
        if (canonical(next) !== canonical(d.status ?? {}) || statusDirty) {
          Object.keys(status).forEach((k) => delete status[k]);
          Object.assign(status, next);
          await writeStatus();
        }
      };

      /** cleanupDeployment: old, empty replica sets beyond revisionHistoryLimit go, lowest revision first. */
      const cleanup = async (olds: KubeObject[]): Promise<void> => {
        const limit = Number(spec.revisionHistoryLimit ?? 10);
        const empty = olds.filter((rs) => specReplicas(rs) === 0 && st(rs, 'replicas') === 0 && !rs.metadata?.deletionTimestamp).sort((a, b) => revisionOf(a) - revisionOf(b));
        for (const rs of empty.slice(0, Math.max(0, empty.length - limit))) {
          await ctx.client.request('DELETE', path(namespace, String(rs.metadata!.name)));
        }
      };

      const isScalingEvent = (all: KubeObject[]) =>
        all.some((rs) => specReplicas(rs) > 0 && rs.metadata?.annotations?.[DESIRED] !== undefined && Number(rs.metadata.annotations[DESIRED]) !== replicas);

      /** sync: scaling without a rollout (also while paused). */
      const syncScale = async (): Promise<void> => {
        const { all, newRS, olds } = await syncRevision(false);
        const active = all.filter((rs) => specReplicas(rs) > 0);
        if (active.length <= 1) {
          const target = active[0] ?? newRS;
          if (target) await scale(target, replicas);
        } else if (newRS && specReplicas(newRS) === replicas && st(newRS, 'availableReplicas') === replicas) {
          for (const rs of olds) if (specReplicas(rs) > 0) await scale(rs, 0);
        } else {
          // proportional scaling: the difference to the allowed total shared by size, the rest to the largest
          const allowed = replicas + fenceposts(d).surge;
          const current = sum(all, specReplicas);
          const toAdd = allowed - current;
          if (toAdd !== 0) {
            const bySize = [...active].sort((a, b) => specReplicas(b) - specReplicas(a) || created(b) - created(a));
            let added = 0;
            const sizes = new Map<KubeObject, number>();
            for (const rs of bySize) {
              const share = Math.trunc((specReplicas(rs) * toAdd) / current);
              const capped = toAdd > 0 ? Math.min(share, toAdd - added) : Math.max(share, toAdd - added);
              sizes.set(rs, specReplicas(rs) + capped);
              added += capped;
            }
            if (bySize.length) sizes.set(bySize[0], Math.max(0, sizes.get(bySize[0])! + toAdd - added));
            for (const [rs, size] of sizes) await scale(rs, Math.max(0, size));
          }
        }
        await syncStatus(owned(), split().newRS, false);
      };

      if (spec.paused) return syncScale();
      {
        const { all } = split();
        if (isScalingEvent(all)) return syncScale();
      }
      if (spec.strategy?.type === 'Recreate') {
        let { all, newRS, olds } = await syncRevision(false);
        let scaledDown = false;
        for (const rs of olds) if (specReplicas(rs) > 0) scaledDown = (await scale(rs, 0)) || scaledDown;
        if (scaledDown) return syncStatus(owned(), newRS, true);
        // wait for the old pods to be gone
        const oldUids = new Set(olds.map((rs) => rs.metadata?.uid));
        for (const p of pods.store.values()) {
          if (p.metadata?.namespace !== namespace) continue;
          const ref = controllerRef(p);
          const phase = (p.status as Obj | undefined)?.phase;
          if (ref && oldUids.has(ref.uid) && phase !== 'Succeeded' && phase !== 'Failed') return syncStatus(owned(), newRS, true);
        }
        if (!newRS) ({ all, newRS, olds } = await syncRevision(true));
        if (newRS && specReplicas(newRS) !== replicas) await scale(newRS, replicas);
        void all;
        await syncStatus(owned(), split().newRS, true);
        const latest = deployments.store.get(key);
        if (latest && isDone(owned(), split().newRS)) await cleanup(split().olds);
        return;
      }
      // rolling update
      const { all, newRS, olds } = await syncRevision(true);
      const allNow = () => owned();
      let scaled_ = false;
      if (newRS) {
        const cur = specReplicas(newRS);
        if (cur > replicas) scaled_ = await scale(newRS, replicas);
        else if (cur < replicas) {
          const want = newRSNewReplicas(d, all, newRS);
          if (want !== cur) scaled_ = await scale(newRS, want);
        }
      }
      if (!scaled_) {
        const fresh = allNow();
        const nrs = fresh.find((rs) => newRS && keyOf(rs) === keyOf(newRS));
        const activeOlds = fresh.filter((rs) => rs !== nrs && specReplicas(rs) > 0);
        for (const [rs, to] of oldScaleDowns(d, fresh, activeOlds, nrs)) await scale(rs, to);
      }
      const latest = allNow();
      const latestNew = latest.find((rs) => newRS && keyOf(rs) === keyOf(newRS));
      if (isDone(latest, latestNew)) await cleanup(latest.filter((rs) => rs !== latestNew));
      await syncStatus(latest, latestNew, true);
      void olds;

      function isDone(list: KubeObject[], nrs: KubeObject | undefined): boolean {
        return !!nrs && st(nrs, 'availableReplicas') === replicas && sum(list, (rs) => st(rs, 'replicas')) === replicas && st(nrs, 'replicas') === replicas;
      }
    });
    return { name: 'deployment-controller' };
  },
};
