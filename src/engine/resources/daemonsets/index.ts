// DaemonSets (apps/v1): SetDefaults_DaemonSet, ValidateDaemonSet (main checks), the daemon set printer.

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { validateNonnegative } from '../../util/validation.js';
import { builtin } from '../factory.js';
import { templateWarnings } from '../common/template-warnings.js';
import { goIntOrString, goLabelSelector, goStringMap, invalidRepr } from '../common/go-repr.js';
import { intOrPercentValue, isNotMoreThan100Percent, validatePositiveIntOrPercent } from '../common/intstr.js';
import { formatLabels, formatLabelSelector, isEmptySelector, selectorMatches, validateLabelSelector } from '../common/labels.js';
import { defaultPodTemplate, member, validateAlwaysRestartTemplate, validatePodTemplateSpec } from '../common/pod.js';
import { ageColumn, col, int, o, templateContainersColumns, zeroStatusFields } from '../common/printers.js';
import { validateSelectorImmutable, validateWorkloadStatus } from '../common/workloads.js';

/** SetDefaults_DaemonSet; writes only what is missing (copy-on-write: see ResourceDefinition.copyOnWrite). */
function defaultDaemonSet(obj: KubeObject): void {
  const spec = member(obj, 'spec');
  const us = member(spec, 'updateStrategy');
  if (!us.type) us.type = 'RollingUpdate';
  if (us.type === 'RollingUpdate') {
    const ru = member(us, 'rollingUpdate');
    if (ru.maxUnavailable === undefined || ru.maxUnavailable === null) ru.maxUnavailable = 1;
    if (ru.maxSurge === undefined || ru.maxSurge === null) ru.maxSurge = 0;
  }
  if (spec.revisionHistoryLimit === undefined || spec.revisionHistoryLimit === null) spec.revisionHistoryLimit = 10;
  defaultPodTemplate(member(spec, 'template'));
  zeroStatusFields(obj, ['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady']);
}

function validateDaemonSet(obj: KubeObject): FieldError[] {
  const spec = o(obj.spec);
  const errs: FieldError[] = [];
  errs.push(...validateLabelSelector(spec.selector, 'spec.selector'));
  const labels = o(o(spec.template).metadata).labels;
  if (!selectorMatches(spec.selector, labels)) {
    errs.push(invalidRepr('spec.template.metadata.labels', goStringMap(labels), '`selector` does not match template `labels`'));
  }
  if (spec.selector !== undefined && spec.selector !== null && isEmptySelector(spec.selector)) {
    errs.push(invalidRepr('spec.selector', goLabelSelector(spec.selector), 'empty selector is invalid for daemonset'));
  }
  errs.push(...validatePodTemplateSpec(spec.template, 'spec.template'));
  errs.push(...validateAlwaysRestartTemplate(spec.template, 'spec.template', 'activeDeadlineSeconds in DaemonSet is not Supported'));
  errs.push(...validateNonnegative(spec.minReadySeconds, 'spec.minReadySeconds'));
  errs.push(...validateNonnegative(spec.templateGeneration, 'spec.templateGeneration'));
  const us = o(spec.updateStrategy);
  if (us.type === 'RollingUpdate') {
    if (us.rollingUpdate === undefined || us.rollingUpdate === null) errs.push(fieldErr.required('spec.updateStrategy.rollingUpdate', ''));
    else {
      const ru = o(us.rollingUpdate);
      const p = 'spec.updateStrategy.rollingUpdate';
      errs.push(...validatePositiveIntOrPercent(ru.maxUnavailable, `${p}.maxUnavailable`));
      errs.push(...validatePositiveIntOrPercent(ru.maxSurge, `${p}.maxSurge`));
      errs.push(...isNotMoreThan100Percent(ru.maxUnavailable, `${p}.maxUnavailable`));
      errs.push(...isNotMoreThan100Percent(ru.maxSurge, `${p}.maxSurge`));
      // exactly one of maxSurge and maxUnavailable is non-zero
      const hasUnavailable = intOrPercentValue(ru.maxUnavailable) !== 0;
      const hasSurge = intOrPercentValue(ru.maxSurge) !== 0;
      if (hasUnavailable && hasSurge) errs.push(invalidRepr(`${p}.maxSurge`, goIntOrString(ru.maxSurge), 'may not be set when maxUnavailable is non-zero'));
      else if (!hasUnavailable && !hasSurge) errs.push(fieldErr.required(`${p}.maxUnavailable`, 'cannot be 0 when maxSurge is 0'));
    }
  } else if (us.type !== 'OnDelete') {
    errs.push(fieldErr.notSupported('spec.updateStrategy', us.type ?? '', ['OnDelete', 'RollingUpdate']));
  }
  errs.push(...validateNonnegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  return errs;
}

export const daemonsets = builtin('apps', 'v1', 'daemonsets', {
  ...templateWarnings((obj) => o(obj.spec).template, 'spec.template'),
  copyOnWrite: true,
  default: defaultDaemonSet,
  validateObject: (obj) => validateDaemonSet(obj),
  validateChange: (obj, old) => validateSelectorImmutable(obj, old),
  validateStatusChange: (obj) =>
    validateWorkloadStatus(obj, ['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady', 'observedGeneration', 'updatedNumberScheduled', 'numberAvailable', 'numberUnavailable', 'collisionCount'], []),
  tableColumns: [
    col('Desired', 'integer', 'The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod). More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/', (obj) => int(o(obj.status).desiredNumberScheduled)),
    col('Current', 'integer', 'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod. More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/', (obj) => int(o(obj.status).currentNumberScheduled)),
    col('Ready', 'integer', 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition.', (obj) => int(o(obj.status).numberReady)),
    col('Up-to-date', 'integer', 'The total number of nodes that are running updated daemon pod', (obj) => int(o(obj.status).updatedNumberScheduled)),
    col('Available', 'integer', 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)', (obj) => int(o(obj.status).numberAvailable)),
    col('Node Selector', 'string', "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/", (obj) => formatLabels(o(o(o(obj.spec).template).spec).nodeSelector)),
    ageColumn(),
    ...templateContainersColumns((obj) => o(o(o(obj.spec).template).spec).containers),
    col('Selector', 'string', "A label query over pods that are managed by the daemon set. Must match in order to be controlled. It must match the pod template's labels. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors", (obj) => formatLabelSelector(o(obj.spec).selector), 1),
  ],
}) satisfies ResourceDefinition;
