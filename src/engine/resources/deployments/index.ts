// Deployments (apps/v1): SetDefaults_Deployment, ValidateDeployment/ValidateDeploymentUpdate (main checks),
// the deployment printer.

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { validateNonnegative } from '../../util/validation.js';
import { builtin } from '../factory.js';
import { templateWarnings } from '../common/template-warnings.js';
import { goIntOrString, invalidRepr } from '../common/go-repr.js';
import { intOrPercentValue, isNotMoreThan100Percent, validatePositiveIntOrPercent } from '../common/intstr.js';
import { formatLabelSelector } from '../common/labels.js';
import { defaultPodTemplate, member, validateAlwaysRestartTemplate, validatePodTemplateSpec } from '../common/pod.js';
import { ageColumn, col, int, o, templateContainersColumns } from '../common/printers.js';
import { validateSelectorAndTemplate, validateSelectorImmutable, validateWorkloadStatus } from '../common/workloads.js';

/**
 * SetDefaults_Deployment. Writes only what it defaults (a member is assigned only when missing): the kind
 * is copy-on-write, so the parts an update did not change are the stored state's, frozen.
 */
export function defaultDeployment(obj: KubeObject): void {
  const spec = member(obj, 'spec');
  if (spec.replicas === undefined || spec.replicas === null) spec.replicas = 1;
  const strategy = member(spec, 'strategy');
  if (!strategy.type) strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const ru = member(strategy, 'rollingUpdate');
    if (ru.maxUnavailable === undefined || ru.maxUnavailable === null) ru.maxUnavailable = '25%';
    if (ru.maxSurge === undefined || ru.maxSurge === null) ru.maxSurge = '25%';
  }
  if (spec.revisionHistoryLimit === undefined || spec.revisionHistoryLimit === null) spec.revisionHistoryLimit = 10;
  if (spec.progressDeadlineSeconds === undefined || spec.progressDeadlineSeconds === null) spec.progressDeadlineSeconds = 600;
  defaultPodTemplate(member(spec, 'template'));
}

function validateStrategy(strategy: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  const path = 'spec.strategy';
  if (strategy.type === 'Recreate') {
    if (strategy.rollingUpdate !== undefined && strategy.rollingUpdate !== null) {
      errs.push(fieldErr.forbidden(`${path}.rollingUpdate`, "may not be specified when strategy `type` is 'Recreate'"));
    }
  } else if (strategy.type === 'RollingUpdate') {
    const ru = strategy.rollingUpdate;
    if (ru === undefined || ru === null) errs.push(fieldErr.required(`${path}.rollingUpdate`, 'this should be defaulted and never be nil'));
    else {
      const r = o(ru);
      errs.push(...validatePositiveIntOrPercent(r.maxUnavailable, `${path}.rollingUpdate.maxUnavailable`));
      errs.push(...validatePositiveIntOrPercent(r.maxSurge, `${path}.rollingUpdate.maxSurge`));
      if (intOrPercentValue(r.maxUnavailable) === 0 && intOrPercentValue(r.maxSurge) === 0) {
        errs.push(invalidRepr(`${path}.rollingUpdate.maxUnavailable`, goIntOrString(r.maxUnavailable), 'may not be 0 when `maxSurge` is 0'));
      }
      errs.push(...isNotMoreThan100Percent(r.maxUnavailable, `${path}.rollingUpdate.maxUnavailable`));
    }
  } else {
    errs.push(fieldErr.notSupported(path, strategy.type ?? '', ['Recreate', 'RollingUpdate']));
  }
  return errs;
}

function validateDeployment(obj: KubeObject): FieldError[] {
  const spec = o(obj.spec);
  const errs: FieldError[] = [];
  errs.push(...validateNonnegative(spec.replicas, 'spec.replicas'));
  errs.push(...validateSelectorAndTemplate(obj, 'deployment'));
  errs.push(...validatePodTemplateSpec(spec.template, 'spec.template'));
  errs.push(...validateAlwaysRestartTemplate(spec.template, 'spec.template', 'activeDeadlineSeconds in ReplicaSet is not Supported'));
  errs.push(...validateStrategy(o(spec.strategy)));
  errs.push(...validateNonnegative(spec.minReadySeconds, 'spec.minReadySeconds'));
  errs.push(...validateNonnegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  if (typeof spec.progressDeadlineSeconds === 'number') {
    errs.push(...validateNonnegative(spec.progressDeadlineSeconds, 'spec.progressDeadlineSeconds'));
    if (spec.progressDeadlineSeconds <= int(spec.minReadySeconds)) {
      errs.push(fieldErr.invalid('spec.progressDeadlineSeconds', spec.progressDeadlineSeconds, 'must be greater than minReadySeconds'));
    }
  }
  return errs;
}

export const deployments = builtin('apps', 'v1', 'deployments', {
  // deploymentStatusStrategy: /status keeps the stored labels (annotations may change)
  statusPinnedMetadata: ['labels'],
  copyOnWrite: true,
  ...templateWarnings((obj) => o(obj.spec).template, 'spec.template', { nameUsedIn: 'Pod names and hostnames' }),
  default: defaultDeployment,
  validateObject: (obj) => validateDeployment(obj),
  validateChange: (obj, old) => validateSelectorImmutable(obj, old),
  validateStatusChange: (obj) =>
    validateWorkloadStatus(obj, ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas', 'terminatingReplicas', 'collisionCount'], ['updatedReplicas', 'readyReplicas', 'availableReplicas'], 'cannot be greater than readyReplicas'),
  tableColumns: [
    col('Ready', 'string', 'Number of the pod with ready state', (obj) => `${int(o(obj.status).readyReplicas)}/${int(o(obj.spec).replicas)}`),
    col('Up-to-date', 'string', 'Total number of non-terminating pods targeted by this deployment that have the desired template spec.', (obj) => int(o(obj.status).updatedReplicas)),
    col('Available', 'string', 'Total number of available non-terminating pods (ready for at least minReadySeconds) targeted by this deployment.', (obj) => int(o(obj.status).availableReplicas)),
    ageColumn(),
    ...templateContainersColumns((obj) => o(o(o(obj.spec).template).spec).containers),
    col('Selector', 'string', 'Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment. It must match the pod template\'s labels.', (obj) => {
      const s = formatLabelSelector(o(obj.spec).selector);
      return s === '<none>' ? '' : s;
    }, 1),
  ],
}) satisfies ResourceDefinition;
