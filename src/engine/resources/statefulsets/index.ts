// StatefulSets (apps/v1): SetDefaults_StatefulSet (with the PVC defaults of volumeClaimTemplates),
// ValidateStatefulSet/Update (main checks), the stateful set printer.

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { nameIsDNSLabel, validateAnnotations, validateLabels, validateNonnegative } from '../../util/validation.js';
import { builtin } from '../factory.js';
import { templateWarnings } from '../common/template-warnings.js';
import { canonicalJSON } from '../common/json.js';
import { defaultPodTemplate, defaultPVCSpec, defaultTemplateMeta, validateAlwaysRestartTemplate } from '../common/pod.js';
import { a, ageColumn, col, int, o, templateContainersColumns, zeroStatusFields } from '../common/printers.js';
import { validateSelectorAndTemplate, validateWorkloadStatus } from '../common/workloads.js';

function defaultStatefulSet(obj: KubeObject): void {
  const spec = (obj.spec = o(obj.spec));
  if (!spec.podManagementPolicy) spec.podManagementPolicy = 'OrderedReady';
  const us = (spec.updateStrategy = o(spec.updateStrategy));
  if (!us.type) {
    us.type = 'RollingUpdate';
    if (us.rollingUpdate === undefined || us.rollingUpdate === null) us.rollingUpdate = {};
  }
  if (us.type === 'RollingUpdate' && us.rollingUpdate !== undefined && us.rollingUpdate !== null) {
    const ru = (us.rollingUpdate = o(us.rollingUpdate));
    if (ru.partition === undefined || ru.partition === null) ru.partition = 0;
  }
  const retention = (spec.persistentVolumeClaimRetentionPolicy = o(spec.persistentVolumeClaimRetentionPolicy));
  if (!retention.whenDeleted) retention.whenDeleted = 'Retain';
  if (!retention.whenScaled) retention.whenScaled = 'Retain';
  if (spec.replicas === undefined || spec.replicas === null) spec.replicas = 1;
  if (spec.revisionHistoryLimit === undefined || spec.revisionHistoryLimit === null) spec.revisionHistoryLimit = 10;
  spec.template = o(spec.template);
  defaultPodTemplate(spec.template);
  if (Array.isArray(spec.volumeClaimTemplates)) {
    // volume claim templates are whole PersistentVolumeClaims and print as such
    spec.volumeClaimTemplates = a(spec.volumeClaimTemplates).map((pvc) => {
      defaultTemplateMeta(pvc);
      pvc.spec = o(pvc.spec);
      defaultPVCSpec(pvc.spec as Record<string, unknown>);
      const st = (pvc.status = o(pvc.status));
      if (!st.phase) st.phase = 'Pending';
      const { apiVersion, kind, metadata, spec: pvcSpec, status, ...rest } = pvc;
      return { apiVersion: apiVersion ?? 'v1', kind: kind ?? 'PersistentVolumeClaim', metadata, spec: pvcSpec, status, ...rest };
    });
  }
  zeroStatusFields(obj, ['replicas', 'availableReplicas']);
}

function validateStatefulSet(obj: KubeObject): FieldError[] {
  const spec = o(obj.spec);
  const errs: FieldError[] = [];
  const pmp = spec.podManagementPolicy;
  if (!pmp) errs.push(fieldErr.required('spec.podManagementPolicy', ''));
  else if (pmp !== 'OrderedReady' && pmp !== 'Parallel') errs.push(fieldErr.invalid('spec.podManagementPolicy', pmp, "must be 'OrderedReady' or 'Parallel'"));
  const us = o(spec.updateStrategy);
  if (!us.type) errs.push(fieldErr.required('spec.updateStrategy', ''));
  else if (us.type === 'OnDelete') {
    if (us.rollingUpdate !== undefined && us.rollingUpdate !== null) {
      errs.push(fieldErr.invalid('spec.updateStrategy.rollingUpdate', us.rollingUpdate, "only allowed for updateStrategy 'RollingUpdate'"));
    }
  } else if (us.type === 'RollingUpdate') {
    errs.push(...validateNonnegative(o(us.rollingUpdate).partition, 'spec.updateStrategy.rollingUpdate.partition'));
  } else {
    errs.push(fieldErr.invalid('spec.updateStrategy', us, "must be 'RollingUpdate' or 'OnDelete'"));
  }
  const retention = spec.persistentVolumeClaimRetentionPolicy;
  if (retention && typeof retention === 'object') {
    for (const f of ['whenDeleted', 'whenScaled']) {
      const v = o(retention)[f];
      if (v !== 'Retain' && v !== 'Delete') errs.push(fieldErr.notSupported(`spec.persistentVolumeClaimRetentionPolicy.${f}`, v ?? '', ['Retain', 'Delete']));
    }
  }
  errs.push(...validateNonnegative(spec.replicas, 'spec.replicas'));
  errs.push(...validateNonnegative(spec.minReadySeconds, 'spec.minReadySeconds'));
  if (spec.ordinals && typeof spec.ordinals === 'object') errs.push(...validateNonnegative(o(spec.ordinals).start, 'spec.ordinals.start'));
  errs.push(...validateSelectorAndTemplate(obj, 'statefulset'));
  // the real server checks only the template's labels and annotations here, not its pod spec
  const tmeta = o(o(spec.template).metadata);
  errs.push(...validateLabels(tmeta.labels, 'spec.template.labels'));
  errs.push(...validateAnnotations(tmeta.annotations, 'spec.template.annotations'));
  errs.push(...validateAlwaysRestartTemplate(spec.template, 'spec.template', 'activeDeadlineSeconds in StatefulSet is not Supported'));
  return errs;
}

const MUTABLE = ['replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds'];

function validateStatefulSetChange(obj: KubeObject, old: KubeObject): FieldError[] {
  const strip = (s: Record<string, unknown>) => Object.fromEntries(Object.entries(s).filter(([k]) => !MUTABLE.includes(k)));
  if (canonicalJSON(strip(o(obj.spec))) !== canonicalJSON(strip(o(old.spec)))) {
    return [fieldErr.forbidden('spec', "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden")];
  }
  return [];
}

export const statefulsets = builtin('apps', 'v1', 'statefulsets', {
  // DNS-1123 label names since v1.27 (the name becomes the pods' hostnames)
  nameValidator: nameIsDNSLabel,
  // the pod template's spec is not validated for StatefulSets, so neither are its required fields
  skipRequired: true,
  ...templateWarnings((obj) => o(obj.spec).template, 'spec.template'),
  default: defaultStatefulSet,
  validateObject: (obj) => validateStatefulSet(obj),
  validateChange: validateStatefulSetChange,
  validateStatusChange: (obj) =>
    validateWorkloadStatus(obj, ['replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas', 'observedGeneration', 'collisionCount'], ['readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas'], 'cannot be greater than status.readyReplicas'),
  tableColumns: [
    col('Ready', 'string', 'Number of the pod with ready state', (obj) => `${int(o(obj.status).readyReplicas)}/${int(o(obj.spec).replicas)}`),
    ageColumn(),
    ...templateContainersColumns((obj) => o(o(o(obj.spec).template).spec).containers),
  ],
}) satisfies ResourceDefinition;
