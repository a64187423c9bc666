// Jobs (batch/v1): SetDefaults_Job, the job strategy's selector generation from the job's uid
// (batch.kubernetes.io/controller-uid and job-name labels), ValidateJob/Update (main checks), the printer.

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { validateImmutable, validateNonnegative } from '../../util/validation.js';
import { builtin } from '../factory.js';
import { semanticEqual } from '../../codec/protobuf/encode.js';
import { templateWarnings } from '../common/template-warnings.js';
import { goLabelSelector, goStringMap, invalidRepr } from '../common/go-repr.js';
import { formatLabelSelector, selectorMatches, validateLabelSelector } from '../common/labels.js';
import { defaultPodTemplate, validatePodTemplateSpec } from '../common/pod.js';
import { a, ageColumn, col, humanDuration, int, o, since, str, templateContainersColumns } from '../common/printers.js';

type Obj = Record<string, unknown>;
const MAX_INT32 = 2147483647;

/** SetDefaults_Job (spec part, shared with CronJob job templates only for the pod template). */
export function defaultJobSpec(spec: Obj): void {
  if ((spec.completions === undefined || spec.completions === null) && (spec.parallelism === undefined || spec.parallelism === null)) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  if (spec.parallelism === undefined || spec.parallelism === null) spec.parallelism = 1;
  if (spec.backoffLimit === undefined || spec.backoffLimit === null) {
    spec.backoffLimit = spec.backoffLimitPerIndex !== undefined && spec.backoffLimitPerIndex !== null ? MAX_INT32 : 6;
  }
  if (!spec.completionMode) spec.completionMode = 'NonIndexed';
  if (spec.suspend === undefined || spec.suspend === null) spec.suspend = false;
  const pfp = o(spec.podFailurePolicy);
  for (const rule of a(pfp.rules)) for (const c of a(rule.onPodConditions)) if (!c.status) c.status = 'True';
  if (!spec.podReplacementPolicy) spec.podReplacementPolicy = spec.podFailurePolicy ? 'Failed' : 'TerminatingOrFailed';
}

function defaultJob(obj: KubeObject): void {
  const spec = (obj.spec = o(obj.spec));
  defaultJobSpec(spec);
  spec.template = o(spec.template);
  const labels = o(o(spec.template).metadata).labels;
  const meta = (obj.metadata ??= {});
  if (labels && typeof labels === 'object' && Object.keys(labels).length && (!meta.labels || Object.keys(meta.labels).length === 0)) {
    // SetDefaults_Job shares the template's label map with the job (Go map aliasing), so labels generated
    // for the template later on the same request show up on the job too
    meta.labels = labels as Record<string, string>;
  }
  defaultPodTemplate(spec.template);
}

function sortedMap(m: Obj): Obj {
  return Object.fromEntries(Object.keys(m).sort().map((k) => [k, m[k]]));
}

/** The job strategy's generateSelector (runs when manualSelector is not true and the uid is known). */
export function generateJobSelector(job: KubeObject): void {
  const spec = (job.spec = o(job.spec));
  if (spec.manualSelector === true) return;
  const uid = job.metadata?.uid;
  if (!uid) return;
  const name = job.metadata?.name ?? '';
  const template = (spec.template = o(spec.template));
  const tmeta = (template.metadata = o(template.metadata));
  const aliased = job.metadata?.labels !== undefined && job.metadata.labels === tmeta.labels;
  const labels = o(tmeta.labels);
  for (const k of ['job-name', 'batch.kubernetes.io/job-name']) if (!(k in labels)) labels[k] = name;
  for (const k of ['controller-uid', 'batch.kubernetes.io/controller-uid']) if (!(k in labels)) labels[k] = uid;
  tmeta.labels = sortedMap(labels);
  if (aliased) job.metadata!.labels = { ...(tmeta.labels as Record<string, string>) };
  const sel = (spec.selector = o(spec.selector));
  const ml = o(sel.matchLabels);
  if (!('batch.kubernetes.io/controller-uid' in ml)) ml['batch.kubernetes.io/controller-uid'] = uid;
  sel.matchLabels = sortedMap(ml);
  if (spec.manualSelector === undefined || spec.manualSelector === null) spec.manualSelector = false;
  // SetDefaults_Job runs again whenever the real server reads the job back: a job without labels shows its
  // template's labels from its first read on (the create response included)
  const meta = (job.metadata ??= {});
  if (!meta.labels || Object.keys(meta.labels).length === 0) meta.labels = { ...(tmeta.labels as Record<string, string>) };
}

/** ValidateJobSpec for Jobs and (with `requireSelector` false) for CronJob job templates. */
export function validateJobSpec(specIn: unknown, path: string, requireSelector: boolean): FieldError[] {
  const spec = o(specIn);
  const errs: FieldError[] = [];
  errs.push(...validateNonnegative(spec.parallelism, `${path}.parallelism`));
  errs.push(...validateNonnegative(spec.completions, `${path}.completions`));
  errs.push(...validateNonnegative(spec.activeDeadlineSeconds, `${path}.activeDeadlineSeconds`));
  errs.push(...validateNonnegative(spec.backoffLimit, `${path}.backoffLimit`));
  errs.push(...validateNonnegative(spec.ttlSecondsAfterFinished, `${path}.ttlSecondsAfterFinished`));
  if (spec.completionMode !== undefined && spec.completionMode !== 'NonIndexed' && spec.completionMode !== 'Indexed') {
    errs.push(fieldErr.notSupported(`${path}.completionMode`, spec.completionMode, ['NonIndexed', 'Indexed']));
  }
  if (spec.completionMode === 'Indexed' && (spec.completions === undefined || spec.completions === null)) {
    errs.push(fieldErr.required(`${path}.completions`, 'when completion mode is Indexed'));
  }
  if (requireSelector) {
    const labels = o(o(spec.template).metadata).labels;
    if (spec.selector === undefined || spec.selector === null) errs.push(fieldErr.required(`${path}.selector`, ''));
    else errs.push(...validateLabelSelector(spec.selector, `${path}.selector`));
    // the selector, generated or manual, must match the pods the job makes (a missing one matches nothing)
    if (spec.selector === undefined || spec.selector === null || !selectorMatches(spec.selector, labels)) {
      errs.push(invalidRepr(`${path}.template.metadata.labels`, goStringMap(labels), '`selector` does not match template `labels`'));
    }
  } else {
    if (spec.selector !== undefined && spec.selector !== null) {
      errs.push(invalidRepr(`${path}.selector`, goLabelSelector(spec.selector), '`selector` will be auto-generated'));
    }
    if (spec.manualSelector === true) errs.push(fieldErr.notSupported(`${path}.manualSelector`, true, ['nil', 'false']));
  }
  errs.push(...validatePodTemplateSpec(spec.template, `${path}.template`));
  const rp = o(o(spec.template).spec).restartPolicy;
  if (rp !== 'OnFailure' && rp !== 'Never') {
    errs.push(fieldErr.notSupported(`${path}.template.spec.restartPolicy`, rp ?? '', ['OnFailure', 'Never']));
  }  else if (spec.podFailurePolicy && rp !== 'Never') {
    errs.push(fieldErr.notSupported(`${path}.template.spec.restartPolicy`, rp, ['Never']));
  }
  return errs;
}

function validateJob(job: KubeObject): FieldError[] {
  const errs = validateJobSpec(job.spec, 'spec', true);
  const spec = o(job.spec);
  if (spec.manualSelector !== true && spec.selector) {
    const ml = o(o(spec.selector).matchLabels);
    if (ml['batch.kubernetes.io/controller-uid'] !== job.metadata?.uid) {
      errs.push(invalidRepr('spec.selector', goLabelSelector(spec.selector), '`selector` not auto-generated'));
    }
  }
  return errs;
}

function validateJobChange(job: KubeObject, old: KubeObject): FieldError[] {
  const n = o(job.spec);
  const p = o(old.spec);
  const errs: FieldError[] = [];
  if (validateImmutable(n.selector, p.selector, 'spec.selector').length) {
    errs.push(invalidRepr('spec.selector', goLabelSelector(n.selector), 'field is immutable'));
  }
  errs.push(...validateImmutable(n.completionMode, p.completionMode, 'spec.completionMode'));
  if (!(n.completionMode === 'Indexed' && n.parallelism === n.completions)) {
    errs.push(...validateImmutable(n.completions, p.completions, 'spec.completions'));
  }
  // the pod template may change only while the job is suspended
  if (!(p.suspend === true)) {
    // apiequality.Semantic.DeepEqual of the Go structs: member order and absent zero values do not count
    if (!semanticEqual('core/v1.PodTemplateSpec', n.template, p.template)) errs.push(fieldErr.invalid('spec.template', n.template, 'field is immutable'));
  }
  return errs;
}

function jobStatusWord(job: KubeObject): string {
  const conds = a(o(job.status).conditions);
  const has = (t: string) => {
    const c = conds.find((x) => x.type === t);
    return c ? c.status === 'True' : false;
  };
  if (has('Complete')) return 'Complete';
  if (has('Failed')) return 'Failed';
  if (job.metadata?.deletionTimestamp) return 'Terminating';
  if (has('Suspended')) return 'Suspended';
  if (has('FailureTarget')) return 'FailureTarget';
  return 'Running';
}

export const jobs = builtin('batch', 'v1', 'jobs', {
  // batch/v1 keeps the old default: a Job's pods are orphaned unless the client asks otherwise
  defaultGarbageCollectionPolicy: 'OrphanDependents',
  warningsOnDelete: (options) =>
    options.propagationPolicy === undefined && options.orphanDependents === undefined
      ? ['child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning']
      : [],
  ...templateWarnings((obj) => o(obj.spec).template, 'spec.template', { nameUsedIn: 'Pod names and hostnames' }),
  default: defaultJob,
  prepareForCreate: (obj) => generateJobSelector(obj),
  // the selector is generated on create only: a replace that leaves it out is refused, as on a real server
  validateObject: (obj) => validateJob(obj),
  validateChange: validateJobChange,
  selectableFields: (obj) => ({ 'status.successful': String(int(o(obj.status).succeeded)) }),
  tableColumns: [
    col('Status', 'string', 'Status of the job.', (obj) => jobStatusWord(obj)),
    col('Completions', 'string', 'The number of pods which reached phase Succeeded. The value increases monotonically for a given spec. However, it may decrease in reaction to scale down of elastic indexed jobs.', (obj) => {
      const spec = o(obj.spec);
      const succeeded = int(o(obj.status).succeeded);
      if (typeof spec.completions === 'number') return `${succeeded}/${spec.completions}`;
      const parallelism = int(spec.parallelism);
      return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
    }),
    col('Duration', 'string', 'Time required to complete the job.', (obj, ctx) => {
      const st = o(obj.status);
      const start = Date.parse(str(st.startTime));
      if (Number.isNaN(start)) return '';
      const end = Date.parse(str(st.completionTime));
      return Number.isNaN(end) ? since(str(st.startTime), ctx.now) : humanDuration(end - start);
    }),
    ageColumn(),
    ...templateContainersColumns((obj) => o(o(o(obj.spec).template).spec).containers),
    col('Selector', 'string', 'A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors', (obj) => formatLabelSelector(o(obj.spec).selector), 1),
  ],
}) satisfies ResourceDefinition;

