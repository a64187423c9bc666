// Events (events.k8s.io/v1): the strict validation of new events (ValidateEventCreate for events.k8s.io),
// the field selectors under their v1 names.

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';
import { o, str } from '../common/printers.js';
import { legacyValidateEvent } from '../events/index.js';

function validateEventV1(ev: KubeObject): FieldError[] {
  const errs = legacyValidateEvent(ev, 'reportingController', 'regarding');
  const series = o(ev.series);
  if (ev.series) {
    if (typeof series.count === 'number' && series.count < 2) errs.push(fieldErr.invalid('series.count', '', 'should be at least 2'));
    if (!series.lastObservedTime) errs.push(fieldErr.required('series.lastObservedTime', ''));
  }
  if (!ev.eventTime) errs.push(fieldErr.required('eventTime', ''));
  if (ev.type !== 'Normal' && ev.type !== 'Warning') errs.push(fieldErr.invalid('type', '', `has invalid value: ${str(ev.type)}`));
  if (ev.deprecatedFirstTimestamp) errs.push(fieldErr.invalid('deprecatedFirstTimestamp', '', 'needs to be unset'));
  if (ev.deprecatedLastTimestamp) errs.push(fieldErr.invalid('deprecatedLastTimestamp', '', 'needs to be unset'));
  if (ev.deprecatedCount) errs.push(fieldErr.invalid('deprecatedCount', '', 'needs to be unset'));
  const src = o(ev.deprecatedSource);
  if (src.component || src.host) errs.push(fieldErr.invalid('deprecatedSource', '', 'needs to be unset'));
  return errs;
}

export const eventsV1 = builtin('events.k8s.io', 'v1', 'events', {
  allowCreateOnUpdate: true,
  validateObject: (obj, ctx) => (ctx.subresource === '' && !obj.metadata?.resourceVersion ? validateEventV1(obj) : legacyValidateEvent(obj, 'reportingController', 'regarding')),
  selectableFields: (obj) => {
    const r = o(obj.regarding);
    return {
      'regarding.kind': str(r.kind),
      'regarding.namespace': str(r.namespace),
      'regarding.name': str(r.name),
      'regarding.uid': str(r.uid),
      'regarding.apiVersion': str(r.apiVersion),
      'regarding.resourceVersion': str(r.resourceVersion),
      'regarding.fieldPath': str(r.fieldPath),
      reason: str(obj.reason),
      reportingController: str(obj.reportingController),
      type: str(obj.type),
    };
  },
}) satisfies ResourceDefinition;
