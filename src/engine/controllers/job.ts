// The Job controller (pkg/controller/job) as service account job-controller, simplified: keeps up to
// `parallelism` pods running until `completions` pods succeeded (NonIndexed), counts succeeded and failed
// pods, fails the job past `backoffLimit`, and sets the v1.33 terminal conditions (SuccessCriteriaMet then
// Complete; FailureTarget then Failed) with completionTime. It does not put the job-tracking finalizer on
// its pods (it counts from the pods it still sees).

import { rfc3339 } from '../env.js';
import type { KubeObject } from '../object.js';
import type { ControllerSpec } from './manager.js';
import type { WorkQueue } from './queue.js';
import { canonical } from './deployment.js';
import { EventRecorder, conditionOf, controllerRef, keyOf, ownerRefTo, podActive, podReady, splitKey } from './workload-util.js';

type Obj = Record<string, any>;

export const jobController: ControllerSpec = {
  serviceAccount: 'job-controller',
  start(ctx) {
    const events = new EventRecorder(ctx.client, ctx.env.clock, { component: 'job-controller' });
    const jobs = ctx.informer('/apis/batch/v1/jobs', { add: (o) => queue.add(keyOf(o)), update: (_, o) => queue.add(keyOf(o)) });
    const podChanged = (p: KubeObject) => {
      const ref = controllerRef(p);
      if (ref?.kind === 'Job') queue.add(`${p.metadata?.namespace}/${ref.name}`);
    };
    const pods = ctx.informer('/api/v1/pods', { add: podChanged, update: (_, p) => podChanged(p), delete: podChanged });
    /** Pods created that the informer has not shown yet, by job. */
    const creating = new Map<string, Set<string>>();

    const queue: WorkQueue<string> = ctx.queue<string>(async (key): Promise<void> => {
      await Promise.all([jobs.synced, pods.synced]);
      const job = jobs.store.get(key);
      if (!job || job.metadata?.deletionTimestamp) return;
      const [namespace, name] = splitKey(key);
      const spec = (job.spec ?? {}) as Obj;
      const status = JSON.parse(JSON.stringify(job.status ?? {})) as Obj;
      const finished = ['Complete', 'Failed'].some((t) => conditionOf(job, t)?.status === 'True');
      const owned = [...pods.store.values()].filter((p) => p.metadata?.namespace === namespace && controllerRef(p)?.uid === job.metadata?.uid);
      const now = ctx.env.clock.now();
      const at = rfc3339(now);
      const active = owned.filter(podActive);
      const succeeded = owned.filter((p) => (p.status as Obj | undefined)?.phase === 'Succeeded').length;
      const failed = owned.filter((p) => (p.status as Obj | undefined)?.phase === 'Failed').length;
      const completions = spec.completions === undefined || spec.completions === null ? 1 : Number(spec.completions);
      const parallelism = spec.parallelism === undefined ? 1 : Number(spec.parallelism);
      const backoffLimit = spec.backoffLimit === undefined ? 6 : Number(spec.backoffLimit);
      const pending = creating.get(key) ?? new Set<string>();
      for (const n of [...pending]) if (pods.store.has(`${namespace}/${n}`)) pending.delete(n);
      creating.set(key, pending);
      const inFlight = pending.size;
      if (!finished && !spec.suspend) {
        const cond = (type: string, reason: string, message: string) => ({ type, status: 'True', lastProbeTime: at, lastTransitionTime: at, reason, message });
        if (succeeded >= completions) {
          status.conditions = [...(status.conditions ?? []), cond('SuccessCriteriaMet', 'CompletionsReached', 'Reached expected number of succeeded pods'), cond('Complete', 'CompletionsReached', 'Reached expected number of succeeded pods')];
          status.completionTime = at;
          await events.record({ ...job, apiVersion: 'batch/v1', kind: 'Job' }, 'Normal', 'Completed', 'Job completed');
        } else if (failed > backoffLimit) {
          status.conditions = [...(status.conditions ?? []), cond('FailureTarget', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'), cond('Failed', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit')];
          await events.record({ ...job, apiVersion: 'batch/v1', kind: 'Job' }, 'Warning', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit');
          for (const p of active) await ctx.client.request('DELETE', `/api/v1/namespaces/${namespace}/pods/${p.metadata!.name}`);
        } else {
          const want = Math.min(parallelism, completions - succeeded) - active.length - inFlight;
          for (let i = 0; i < want; i++) {
            const tpl = (spec.template ?? {}) as Obj;
            const r = await ctx.client.request('POST', `/api/v1/namespaces/${namespace}/pods`, {
              apiVersion: 'v1',
              kind: 'Pod',
              metadata: { generateName: `${name}-`, namespace, labels: { ...(tpl.metadata?.labels ?? {}) }, ...(tpl.metadata?.annotations ? { annotations: tpl.metadata.annotations } : {}), ownerReferences: [ownerRefTo(job, 'batch/v1', 'Job')] },
              spec: tpl.spec,
            });
            if (r.status >= 400) {
              await events.record({ ...job, apiVersion: 'batch/v1', kind: 'Job' }, 'Warning', 'FailedCreate', `Error creating: ${r.body?.message ?? r.status}`);
              break;
            }
            pending.add(String(r.body.metadata.name));
            await events.record({ ...job, apiVersion: 'batch/v1', kind: 'Job' }, 'Normal', 'SuccessfulCreate', `Created pod: ${r.body.metadata.name}`);
          }
        }
      }
      if (!status.startTime && !spec.suspend) status.startTime = at;
      const terminal = ['Complete', 'Failed'].some((t) => (status.conditions ?? []).some((c: Obj) => c.type === t && c.status === 'True'));
      const next: Obj = {
        ...status,
        active: terminal ? undefined : active.length + pending.size || undefined,
        ready: active.filter(podReady).length,
        succeeded: succeeded || undefined,
        failed: failed || undefined,
        terminating: owned.filter((p) => p.metadata?.deletionTimestamp).length,
        uncountedTerminatedPods: {},
      };
      for (const k of Object.keys(next)) if (next[k] === undefined) delete next[k];
      if (canonical(next) !== canonical(job.status ?? {})) {
        const r = await ctx.client.request('PUT', `/apis/batch/v1/namespaces/${namespace}/jobs/${name}/status`, { ...job, apiVersion: 'batch/v1', kind: 'Job', status: next });
        if (r.status === 409) throw new Error(`job ${key} changed meanwhile`);
        if (r.status >= 400 && r.status !== 404) throw new Error(`job status ${key}: ${r.status} ${r.body?.message}`);
      }
    });
    return { name: 'job-controller' };
  },
};
