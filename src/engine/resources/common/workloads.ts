// Shared checks of the apps/batch workload kinds: selector vs template labels, replicas, history limits.

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import { validateNonnegative, validateImmutable } from '../../util/validation.js';
import { goLabelSelector, goStringMap, invalidRepr } from './go-repr.js';
import { isEmptySelector, selectorMatches, validateLabelSelector } from './labels.js';
import { o } from './printers.js';

/** Selector required, valid, not empty (for `kindWord`), and matching the template labels. */
export function validateSelectorAndTemplate(obj: KubeObject, kindWord: string, opts: { emptyCheck?: boolean } = {}): FieldError[] {
  const errs: FieldError[] = [];
  const spec = o(obj.spec);
  const sel = spec.selector;
  if (sel === undefined || sel === null) {
    errs.push(fieldErr.required('spec.selector', ''));
  } else {
    errs.push(...validateLabelSelector(sel, 'spec.selector'));
    if ((opts.emptyCheck ?? true) && isEmptySelector(sel)) {
      errs.push(invalidRepr('spec.selector', goLabelSelector(sel), `empty selector is invalid for ${kindWord}`));
    }
  }
  const labels = o(o(spec.template).metadata).labels;
  // a missing selector matches nothing; an empty one is not checked against the labels
  if (sel === undefined || sel === null || (!isEmptySelector(sel) && !selectorMatches(sel, labels))) {
    errs.push(invalidRepr('spec.template.metadata.labels', goStringMap(labels), '`selector` does not match template `labels`'));
  }
  return errs;
}

export function validateReplicasAndHistory(obj: KubeObject): FieldError[] {
  const spec = o(obj.spec);
  return [
    ...validateNonnegative(spec.replicas, 'spec.replicas'),
    ...validateNonnegative(spec.minReadySeconds, 'spec.minReadySeconds'),
    ...validateNonnegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'),
  ];
}

/** apps/v1 selectors are immutable. */
export function validateSelectorImmutable(obj: KubeObject, old: KubeObject): FieldError[] {
  const n = o(obj.spec).selector;
  const p = o(old.spec).selector;
  return validateImmutable(n, p, 'spec.selector').length ? [invalidRepr('spec.selector', goLabelSelector(n), 'field is immutable')] : [];
}

/**
 * Status checks of the workload kinds (ValidateDeploymentStatus, ValidateReplicaSetStatus,
 * ValidateStatefulSetStatus, validateDaemonSetStatus): non-negative counters, and counters that may not
 * exceed status.replicas (or readyReplicas).
 */
export function validateWorkloadStatus(obj: KubeObject, nonNegative: string[], atMostReplicas: string[], availableVsReadyDetail?: string): FieldError[] {
  const st = o(obj.status);
  const errs: FieldError[] = [];
  for (const f of nonNegative) errs.push(...validateNonnegative(st[f], `status.${f}`));
  const n = (f: string) => (typeof st[f] === 'number' ? (st[f] as number) : 0);
  for (const f of atMostReplicas) {
    if (n(f) > n('replicas')) errs.push(fieldErr.invalid(`status.${f}`, n(f), 'cannot be greater than status.replicas'));
  }
  if (availableVsReadyDetail && n('availableReplicas') > n('readyReplicas')) {
    errs.push(fieldErr.invalid('status.availableReplicas', n('availableReplicas'), availableVsReadyDetail));
  }
  return errs;
}
