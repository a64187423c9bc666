// ReplicationControllers (core v1): SetDefaults_ReplicationController, ValidateReplicationController (main
// checks), the printer.

import { fieldErr, type FieldError } from '../../errors.js';
import { isPlainObject, type KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { validateLabels, validateNonnegative } from '../../util/validation.js';
import { builtin } from '../factory.js';
import { templateWarnings } from '../common/template-warnings.js';
import { goStringMap, invalidRepr } from '../common/go-repr.js';
import { formatLabels, mapSelectorMatches } from '../common/labels.js';
import { defaultPodTemplate, validateAlwaysRestartTemplate, validatePodTemplateSpec } from '../common/pod.js';
import { ageColumn, col, int, o, str, templateContainersColumns, zeroStatusFields } from '../common/printers.js';

function defaultRC(obj: KubeObject): void {
  const spec = (obj.spec = o(obj.spec));
  const template = isPlainObject(spec.template) ? (spec.template as Record<string, unknown>) : undefined;
  const labels = template ? o(template.metadata).labels : undefined;
  if (isPlainObject(labels)) {
    if (!isPlainObject(spec.selector) || Object.keys(spec.selector).length === 0) spec.selector = { ...labels };
    const meta = (obj.metadata ??= {});
    if (!meta.labels || Object.keys(meta.labels).length === 0) meta.labels = { ...(labels as Record<string, string>) };
  }
  if (spec.replicas === undefined || spec.replicas === null) spec.replicas = 1;
  if (template) defaultPodTemplate(template);
  zeroStatusFields(obj, ['replicas']);
}

function validateRC(obj: KubeObject): FieldError[] {
  const spec = o(obj.spec);
  const errs: FieldError[] = [];
  errs.push(...validateNonnegative(spec.replicas, 'spec.replicas'));
  errs.push(...validateNonnegative(spec.minReadySeconds, 'spec.minReadySeconds'));
  const selector = isPlainObject(spec.selector) ? spec.selector : {};
  if (Object.keys(selector).length === 0) errs.push(fieldErr.required('spec.selector', ''));
  else errs.push(...validateLabels(selector, 'spec.selector'));
  if (!isPlainObject(spec.template)) errs.push(fieldErr.required('spec.template', ''));
  else {
    const labels = o(o(spec.template).metadata).labels;
    if (Object.keys(selector).length && !mapSelectorMatches(selector, labels)) {
      errs.push(invalidRepr('spec.template.metadata.labels', goStringMap(labels), '`selector` does not match template `labels`'));
    }
    errs.push(...validatePodTemplateSpec(spec.template, 'spec.template'));
    errs.push(...validateAlwaysRestartTemplate(spec.template, 'spec.template', 'activeDeadlineSeconds in ReplicationController is not Supported'));
  }
  return errs;
}

export const replicationcontrollers = builtin('', 'v1', 'replicationcontrollers', {
  ...templateWarnings((obj) => o(obj.spec).template, 'spec.template', { nameUsedIn: 'Pod names and hostnames' }),
  default: defaultRC,
  validateObject: (obj) => validateRC(obj),
  selectableFields: (obj) => ({ 'status.replicas': str(int(o(obj.status).replicas)) }),
  tableColumns: [
    col('Desired', 'integer', 'Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller', (obj) => int(o(obj.spec).replicas)),
    col('Current', 'integer', 'Replicas is the most recently observed number of replicas. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller', (obj) => int(o(obj.status).replicas)),
    col('Ready', 'integer', 'The number of ready replicas for this replication controller.', (obj) => int(o(obj.status).readyReplicas)),
    ageColumn(),
    ...templateContainersColumns((obj) => o(o(o(obj.spec).template).spec).containers),
    col('Selector', 'string', 'Selector is a label query over pods that should match the Replicas count. If Selector is empty, it is defaulted to the labels present on the Pod template. Label keys and values that must match in order to be controlled by this replication controller, if empty defaulted to labels on Pod template. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors', (obj) => formatLabels(o(obj.spec).selector), 1),
  ],
}) satisfies ResourceDefinition;
