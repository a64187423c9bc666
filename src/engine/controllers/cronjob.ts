// The CronJob controller (pkg/controller/cronjob, v2) as service account cronjob-controller, on the
// injected clock: at each scheduled time (spec.schedule read in spec.timeZone, UTC without one) it creates
// the Job <cronjob>-<scheduled time in minutes since the epoch> from jobTemplate, annotated with
// batch.kubernetes.io/cronjob-scheduled-timestamp; honours suspend, startingDeadlineSeconds and
// concurrencyPolicy (Allow, Forbid, Replace); keeps status.active, lastScheduleTime and lastSuccessfulTime;
// deletes finished jobs beyond successfulJobsHistoryLimit/failedJobsHistoryLimit; and leaves the real events
// (SuccessfulCreate, SawCompletedJob, SuccessfulDelete, MissingJob, UnexpectedJob, MissSchedule, JobAlreadyActive,
// TooManyMissedTimes, UnknownTimeZone, UnparseableSchedule). Job names are fixed by the scheduled time, so a
// controller restarted between creating a job and recording it finds the job (AlreadyExists) and adopts it
// instead of running it twice.

import { rfc3339 } from '../env.js';
import type { KubeObject } from '../object.js';
import type { ControllerSpec } from './manager.js';
import type { WorkQueue } from './queue.js';
import { canonical } from './deployment.js';
import { parseSchedule, rfc3339In, validTimeZone, type CronSchedule } from './cron-schedule.js';
import { EventRecorder, conditionOf, controllerRef, keyOf, ownerRefTo, splitKey } from './workload-util.js';

type Obj = Record<string, any>;

export const SCHEDULED_TIMESTAMP = 'batch.kubernetes.io/cronjob-scheduled-timestamp';

/** getJobName: the scheduled time in minutes since the epoch. */
export function cronJobName(cronJob: string, scheduled: number): string {
  return `${cronJob}-${Math.floor(scheduled / 60_000)}`;
}

/** Go's time.RFC1123Z in UTC ("Mon, 02 Jan 2006 15:04:05 +0000"). */
export function rfc1123z(t: number): string {
  const d = new Date(t);
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const p = (n: number) => String(n).padStart(2, '0');
  return `${days[d.getUTCDay()]}, ${p(d.getUTCDate())} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}

/**
 * mostRecentScheduleTime: the latest scheduled time in (earliest, now] and how many were missed; earliest
 * is the last schedule time (else the creation time), no earlier than startingDeadlineSeconds before now.
 */
export function mostRecentScheduleTime(cj: KubeObject, now: number, sched: CronSchedule): { time?: number; missed: number } {
  const spec = (cj.spec ?? {}) as Obj;
  const status = (cj.status ?? {}) as Obj;
  let earliest = Date.parse(String(status.lastScheduleTime ?? cj.metadata?.creationTimestamp ?? ''));
  if (Number.isNaN(earliest)) earliest = now;
  if (spec.startingDeadlineSeconds !== undefined && spec.startingDeadlineSeconds !== null) {
    earliest = Math.max(earliest, now - Number(spec.startingDeadlineSeconds) * 1000);
  }
  let time: number | undefined;
  let missed = 0;
  for (let t = sched.next(earliest); t !== undefined && t <= now; t = sched.next(t)) {
    time = t;
    missed++;
    if (missed > 100_000) break;
  }
  return { time, missed };
}

const finished = (j: KubeObject): string | undefined => {
  for (const t of ['Complete', 'Failed']) if (conditionOf(j, t)?.status === 'True') return t;
  return undefined;
};

export const cronJobController: ControllerSpec = {
  serviceAccount: 'cronjob-controller',
  start(ctx) {
    const events = new EventRecorder(ctx.client, ctx.env.clock, { component: 'cronjob-controller' });
    const cronjobs = ctx.informer('/apis/batch/v1/cronjobs', { add: (o) => queue.add(keyOf(o)), update: (_, o) => queue.add(keyOf(o)) });
    const jobChanged = (j: KubeObject) => {
      const ref = controllerRef(j);
      if (ref?.kind === 'CronJob') queue.add(`${j.metadata?.namespace}/${ref.name}`);
    };
    const jobs = ctx.informer('/apis/batch/v1/jobs', { add: jobChanged, update: (_, j) => jobChanged(j), delete: jobChanged });

    const queue: WorkQueue<string> = ctx.queue<string>(async (key): Promise<void> => {
      await Promise.all([cronjobs.synced, jobs.synced]);
      const stored = cronjobs.store.get(key);
      if (!stored || stored.metadata?.deletionTimestamp) return;
      const cj: Obj = { ...(JSON.parse(JSON.stringify(stored)) as KubeObject), apiVersion: 'batch/v1', kind: 'CronJob' };
      const [namespace, name] = splitKey(key);
      const spec = (cj.spec ?? {}) as Obj;
      const status = JSON.parse(JSON.stringify(cj.status ?? {})) as Obj;
      const now = ctx.env.clock.now();
      const jobsPath = `/apis/batch/v1/namespaces/${namespace}/jobs`;
      const children = [...jobs.store.values()].filter((j) => j.metadata?.namespace === namespace && controllerRef(j)?.uid === cj.metadata?.uid);
      let active = ((status.active ?? []) as Obj[]).slice();
      const inActive = (uid: unknown) => active.some((a) => a.uid === uid);

      // the jobs seen: finished ones leave the active list; an unfinished one missing from it is a job this
      // controller did not create (or forgot), unless a fresh read of the CronJob lists it after all
      let fresh: Obj | undefined;
      for (const j of children) {
        const done = finished(j);
        if (!done && !inActive(j.metadata?.uid)) {
          fresh ??= (await ctx.client.request('GET', `/apis/batch/v1/namespaces/${namespace}/cronjobs/${name}`)).body ?? {};
          const listed = ((fresh?.status?.active ?? []) as Obj[]).find((a) => a.uid === j.metadata?.uid);
          if (listed) active.push(listed);
          else await events.record(cj, 'Warning', 'UnexpectedJob', `Saw a job that the controller did not create or forgot: ${j.metadata!.name}`);
          continue;
        }
        if (done && inActive(j.metadata?.uid)) {
          active = active.filter((a) => a.uid !== j.metadata?.uid);
          await events.record(cj, 'Normal', 'SawCompletedJob', `Saw completed job: ${j.metadata!.name}, condition: ${done}`);
        }
        if (done === 'Complete') {
          const completion = (j.status as Obj | undefined)?.completionTime;
          if (completion && (!status.lastSuccessfulTime || Date.parse(completion) > Date.parse(status.lastSuccessfulTime))) status.lastSuccessfulTime = completion;
        }
      }
      // active jobs no longer there (asked of the API: the informer may lag behind)
      for (const a of [...active]) {
        if (children.some((j) => j.metadata?.uid === a.uid)) continue;
        const r = await ctx.client.request('GET', `${jobsPath}/${a.name}`);
        if (r.status === 404) {
          active = active.filter((x) => x.uid !== a.uid);
          await events.record(cj, 'Normal', 'MissingJob', `Active job went missing: ${a.name}`);
        }
      }

      const deleteJob = async (jobName: string): Promise<boolean> => {
        const r = await ctx.client.request('DELETE', `${jobsPath}/${jobName}`, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' });
        if (r.status >= 400 && r.status !== 404) {
          await events.record(cj, 'Warning', 'FailedDelete', `Deleted job: ${r.body?.message ?? r.status}`);
          return false;
        }
        active = active.filter((x) => x.name !== jobName);
        await events.record(cj, 'Normal', 'SuccessfulDelete', `Deleted job ${jobName}`);
        return true;
      };

      const writeStatus = async (): Promise<void> => {
        const next: Obj = { ...status, active: active.length ? active : undefined };
        for (const k of Object.keys(next)) if (next[k] === undefined) delete next[k];
        if (canonical(next) === canonical(cj.status ?? {})) return;
        const r = await ctx.client.request('PUT', `/apis/batch/v1/namespaces/${namespace}/cronjobs/${name}/status`, { ...cj, status: next });
        if (r.status === 409) throw new Error(`cronjob ${key} changed meanwhile`);
        if (r.status >= 400 && r.status !== 404) throw new Error(`cronjob status ${key}: ${r.status} ${r.body?.message}`);
      };

      /** cleanupFinishedJobs: the oldest finished jobs beyond the history limits go. */
      const cleanup = async (): Promise<void> => {
        const byStart = (a: KubeObject, b: KubeObject) => {
          const sa = Date.parse(String((a.status as Obj | undefined)?.startTime ?? '')) || Infinity;
          const sb = Date.parse(String((b.status as Obj | undefined)?.startTime ?? '')) || Infinity;
          return sa - sb || String(a.metadata?.name).localeCompare(String(b.metadata?.name));
        };
        const limits: [string, number | undefined][] = [
          ['Complete', spec.successfulJobsHistoryLimit],
          ['Failed', spec.failedJobsHistoryLimit],
        ];
        for (const [type, limit] of limits) {
          if (limit === undefined || limit === null) continue;
          const list = children.filter((j) => finished(j) === type && !j.metadata?.deletionTimestamp).sort(byStart);
          for (const j of list.slice(0, Math.max(0, list.length - Number(limit)))) await deleteJob(String(j.metadata!.name));
        }
      };

      const requeueNext = (sched: CronSchedule) => {
        const t = sched.next(now);
        if (t !== undefined) queue.addAfter(key, t - now + 100);
      };

      await (async () => {
        if (spec.suspend) return;
        const zone = spec.timeZone as string | undefined;
        if (zone && !validTimeZone(zone)) {
          await events.record(cj, 'Warning', 'UnknownTimeZone', `invalid timeZone: ${JSON.stringify(zone)}: unknown time zone ${zone}`);
          return;
        }
        let sched: CronSchedule;
        try {
          sched = parseSchedule(String(spec.schedule ?? ''), zone);
        } catch (e) {
          await events.record(cj, 'Warning', 'UnparseableSchedule', `unparseable schedule: ${JSON.stringify(spec.schedule)} : ${(e as Error).message}`);
          return;
        }
        const { time: scheduled, missed } = mostRecentScheduleTime(cj, now, sched);
        if (scheduled === undefined) return requeueNext(sched);
        if (missed > 100) {
          await events.record(cj, 'Warning', 'TooManyMissedTimes', `too many missed start times: ${missed}. Set or decrease .spec.startingDeadlineSeconds or check clock skew`);
        }
        const deadline = spec.startingDeadlineSeconds;
        if (deadline !== undefined && deadline !== null && scheduled + Number(deadline) * 1000 < now) {
          await events.record(cj, 'Warning', 'MissSchedule', `Missed scheduled time to start a job: ${rfc1123z(scheduled)}`);
          return requeueNext(sched);
        }
        const jobName = cronJobName(name, scheduled);
        if (active.some((a) => a.name === jobName) || (status.lastScheduleTime && Date.parse(status.lastScheduleTime) === Math.floor(scheduled / 1000) * 1000)) return requeueNext(sched);
        if (spec.concurrencyPolicy === 'Forbid' && active.length > 0) {
          await events.record(cj, 'Normal', 'JobAlreadyActive', 'Not starting job because prior execution is running and concurrency policy is Forbid');
          return requeueNext(sched);
        }
        if (spec.concurrencyPolicy === 'Replace') {
          for (const a of [...active]) if (!(await deleteJob(String(a.name)))) throw new Error(`replacing job ${a.name}`);
        }
        const tpl = (spec.jobTemplate ?? {}) as Obj;
        const job = {
          apiVersion: 'batch/v1',
          kind: 'Job',
          metadata: {
            name: jobName,
            namespace,
            ...(tpl.metadata?.labels ? { labels: { ...tpl.metadata.labels } } : {}),
            annotations: { ...(tpl.metadata?.annotations ?? {}), [SCHEDULED_TIMESTAMP]: rfc3339In(scheduled, zone) },
            ownerReferences: [ownerRefTo(cj, 'batch/v1', 'CronJob')],
          },
          spec: tpl.spec,
        };
        let created: KubeObject | undefined;
        const r = await ctx.client.request('POST', jobsPath, job);
        if (r.status === 409) {
          // created before a restart: adopt it if it is ours
          const got = await ctx.client.request('GET', `${jobsPath}/${jobName}`);
          if (got.status === 200 && controllerRef(got.body)?.uid === cj.metadata?.uid) created = got.body;
          else throw new Error(`job ${jobName} exists`);
        } else if (r.status >= 400) {
          await events.record(cj, 'Warning', 'FailedCreate', `Error creating job: ${r.body?.message ?? r.status}`);
          throw new Error(`creating job ${jobName}: ${r.status}`);
        } else {
          created = r.body;
          await events.record(cj, 'Normal', 'SuccessfulCreate', `Created job ${jobName}`);
        }
        if (created && !finished(created) && !inActive(created.metadata?.uid)) {
          active.push({ kind: 'Job', namespace, name: jobName, uid: created.metadata!.uid, apiVersion: 'batch/v1', resourceVersion: created.metadata!.resourceVersion });
        }
        status.lastScheduleTime = rfc3339(scheduled);
        requeueNext(sched);
      })();
      await writeStatus();
      await cleanup();
    });
    return { name: 'cronjob-controller' };
  },
};
