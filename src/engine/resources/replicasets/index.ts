// ReplicaSets (apps/v1): replicas default, ValidateReplicaSet (main checks), the replica set printer.

import type { FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { validateNonnegative } from '../../util/validation.js';
import { builtin } from '../factory.js';
import { templateWarnings } from '../common/template-warnings.js';
import { formatLabelSelector } from '../common/labels.js';
import { defaultPodTemplate, member, validateAlwaysRestartTemplate, validatePodTemplateSpec } from '../common/pod.js';
import { ageColumn, col, int, o, str, templateContainersColumns, zeroStatusFields } from '../common/printers.js';
import { validateSelectorAndTemplate, validateSelectorImmutable, validateWorkloadStatus } from '../common/workloads.js';

function validateReplicaSet(obj: KubeObject): FieldError[] {
  const spec = o(obj.spec);
  return [
    ...validateNonnegative(spec.replicas, 'spec.replicas'),
    ...validateNonnegative(spec.minReadySeconds, 'spec.minReadySeconds'),
    // the real message says "deployment" here too
    ...validateSelectorAndTemplate(obj, 'deployment'),
    ...validatePodTemplateSpec(spec.template, 'spec.template'),
    ...validateAlwaysRestartTemplate(spec.template, 'spec.template', 'activeDeadlineSeconds in ReplicaSet is not Supported'),
  ];
}

export const replicasets = builtin('apps', 'v1', 'replicasets', {
  ...templateWarnings((obj) => o(obj.spec).template, 'spec.template', { nameUsedIn: 'Pod names and hostnames' }),
  // defaulting writes only what is missing: updates share the unchanged parts of the stored state
  copyOnWrite: true,
  default: (obj) => {
    const spec = member(obj, 'spec');
    if (spec.replicas === undefined || spec.replicas === null) spec.replicas = 1;
    defaultPodTemplate(member(spec, 'template'));
    zeroStatusFields(obj, ['replicas']);
  },
  validateObject: (obj) => validateReplicaSet(obj),
  validateChange: (obj, old) => validateSelectorImmutable(obj, old),
  validateStatusChange: (obj) =>
    validateWorkloadStatus(obj, ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'], ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'], 'cannot be greater than readyReplicas'),
  selectableFields: (obj) => ({ 'status.replicas': str(int(o(obj.status).replicas)) }),
  tableColumns: [
    col('Desired', 'integer', 'Replicas is the number of desired pods. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset', (obj) => int(o(obj.spec).replicas)),
    col('Current', 'integer', 'Replicas is the most recently observed number of non-terminating pods. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset', (obj) => int(o(obj.status).replicas)),
    col('Ready', 'integer', 'The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition.', (obj) => int(o(obj.status).readyReplicas)),
    ageColumn(),
    ...templateContainersColumns((obj) => o(o(o(obj.spec).template).spec).containers),
    col('Selector', 'string', 'Selector is a label query over pods that should match the replica count. Label keys and values that must match in order to be controlled by this replica set. It must match the pod template\'s labels. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors', (obj) => formatLabelSelector(o(obj.spec).selector), 1),
  ],
}) satisfies ResourceDefinition;
