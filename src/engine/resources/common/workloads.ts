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
