// CronJobs (batch/v1): SetDefaults_CronJob, ValidateCronJobCreate/Update (main checks), the printer.

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { validateNonnegative } from '../../util/validation.js';
import { builtin } from '../factory.js';
import { templateWarnings } from '../common/template-warnings.js';
import { formatLabelSelector } from '../common/labels.js';
import { defaultPodTemplate, defaultTemplateMeta } from '../common/pod.js';
import { a, ageColumn, col, o, since, str, templateContainersColumns } from '../common/printers.js';
import { validateJobSpec } from '../jobs/index.js';

function defaultCronJob(obj: KubeObject): void {
  const spec = (obj.spec = o(obj.spec));
  if (!spec.concurrencyPolicy) spec.concurrencyPolicy = 'Allow';
  if (spec.suspend === undefined || spec.suspend === null) spec.suspend = false;
  if (spec.successfulJobsHistoryLimit === undefined || spec.successfulJobsHistoryLimit === null) spec.successfulJobsHistoryLimit = 3;
  if (spec.failedJobsHistoryLimit === undefined || spec.failedJobsHistoryLimit === null) spec.failedJobsHistoryLimit = 1;
  const jt = (spec.jobTemplate = o(spec.jobTemplate));
  defaultTemplateMeta(jt);
  const js = (jt.spec = o(jt.spec));
  js.template = o(js.template);
  defaultPodTemplate(js.template);
}

const MACROS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

/** robfig/cron standard parser acceptance (5 fields, ranges, steps, names, macros, TZ= prefix). */
function scheduleError(schedule: string): string | undefined {
  const s = schedule.trim();
  if (/^(CRON_TZ|TZ)=/.test(s)) return 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead';
  if (s.startsWith('@')) {
    if (MACROS.has(s) || /^@every\s+/.test(s)) return undefined;
    return `unrecognized descriptor: ${s}`;
  }
  const fields = s.split(/\s+/).filter(Boolean);
  if (fields.length !== 5) return `expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`;
  const limits: [number, number][] = [[0, 59], [0, 23], [1, 31], [1, 12], [0, 6]];
  const names = [{}, {}, {}, { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 }, { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 }] as Record<string, number>[];
  for (let i = 0; i < 5; i++) {
    for (const part of fields[i].split(',')) {
      const [rangePart, step] = part.split('/');
      if (step !== undefined && !/^[0-9]+$/.test(step)) return `failed to parse int from ${step}: strconv.Atoi: parsing ${JSON.stringify(step)}: invalid syntax`;
      if (rangePart === '*' || rangePart === '?') continue;
      for (const v of rangePart.split('-')) {
        const n = /^[0-9]+$/.test(v) ? Number(v) : names[i][v.toLowerCase()];
        if (n === undefined) return `failed to parse int from ${v}: strconv.Atoi: parsing ${JSON.stringify(v)}: invalid syntax`;
        if (n < limits[i][0]) return `beginning of range (${n}) below minimum (${limits[i][0]}): ${part}`;
        if (n > limits[i][1]) return `end of range (${n}) above maximum (${limits[i][1]}): ${part}`;
      }
    }
  }
  return undefined;
}

function validateCronJob(obj: KubeObject, create: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const name = obj.metadata?.name ?? '';
  if (create && name.length > 52) errs.push(fieldErr.invalid('metadata.name', name, 'must be no more than 52 characters'));
  const spec = o(obj.spec);
  const schedule = str(spec.schedule);
  if (!schedule) errs.push(fieldErr.required('spec.schedule', ''));
  else {
    const e = scheduleError(schedule);
    if (e) errs.push(fieldErr.invalid('spec.schedule', schedule, e));
  }
  errs.push(...validateNonnegative(spec.startingDeadlineSeconds, 'spec.startingDeadlineSeconds'));
  const cp = spec.concurrencyPolicy;
  if (!cp) errs.push(fieldErr.required('spec.concurrencyPolicy', ''));
  else if (cp !== 'Allow' && cp !== 'Forbid' && cp !== 'Replace') errs.push(fieldErr.notSupported('spec.concurrencyPolicy', cp, ['Allow', 'Forbid', 'Replace']));
  const jt = o(spec.jobTemplate);
  errs.push(...validateJobSpec(jt.spec, 'spec.jobTemplate.spec', false));
  errs.push(...validateNonnegative(spec.successfulJobsHistoryLimit, 'spec.successfulJobsHistoryLimit'));
  errs.push(...validateNonnegative(spec.failedJobsHistoryLimit, 'spec.failedJobsHistoryLimit'));
  return errs;
}

export const cronjobs = builtin('batch', 'v1', 'cronjobs', {
  ...templateWarnings((obj) => o(o(o(obj.spec).jobTemplate).spec).template, 'spec.jobTemplate.spec.template', { nameUsedIn: 'Pod names and hostnames' }),
  default: defaultCronJob,
  validateObject: (obj, ctx) => validateCronJob(obj, ctx.subresource === '' && !obj.metadata?.resourceVersion),
  tableColumns: [
    col('Schedule', 'string', 'The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.', (obj) => str(o(obj.spec).schedule)),
    col('Timezone', 'string', 'The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones. If not specified, this will default to the time zone of the kube-controller-manager process. The set of valid time zone names and the time zone offset is loaded from the system-wide time zone database by the API server during CronJob validation and the controller manager during execution. If no system-wide time zone database can be found a bundled version of the database is used instead. If the time zone name becomes invalid during the lifetime of a CronJob or due to a change in host configuration, the controller will stop creating new new Jobs and will create a system event with the reason UnknownTimeZone. More information can be found in https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/#time-zones', (obj) => str(o(obj.spec).timeZone) || '<none>'),
    col('Suspend', 'boolean', 'This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.  Defaults to false.', (obj) => {
      // printBoolPtr: the column is typed boolean but its cells are the strings True/False (or <unset>)
      const v = o(obj.spec).suspend;
      return typeof v === 'boolean' ? (v ? 'True' : 'False') : '<unset>';
    }),
    col('Active', 'integer', 'A list of pointers to currently running jobs.', (obj) => a(o(obj.status).active).length),
    col('Last Schedule', 'string', 'Information when was the last time the job was successfully scheduled.', (obj, ctx) => {
      const t = o(obj.status).lastScheduleTime;
      return typeof t === 'string' && t ? since(t, ctx.now) : '<none>';
    }),
    ageColumn(),
    ...templateContainersColumns((obj) => o(o(o(o(obj.spec).jobTemplate).spec).template).spec ? o(o(o(o(o(obj.spec).jobTemplate).spec).template).spec).containers : []),
    col('Selector', 'string', 'A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors', (obj) => formatLabelSelector(o(o(o(obj.spec).jobTemplate).spec).selector), 1),
  ],
}) satisfies ResourceDefinition;
