// Events (events.k8s.io/v1): the strict validation of new events (ValidateEventCreate for events.k8s.io),
// the field selectors under their v1 names.

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';
import { col, int, o, since, str } from '../common/printers.js';
import { legacyValidateEvent } from '../events/index.js';
import { invalidRepr } from '../common/go-repr.js';
import { goQuote } from '../../codec/go-format.js';
import { nameIsDNSSubdomain, validateKubeFinalizerNames, validateObjectMeta } from '../../util/validation.js';
import { EVENT_CONVERSION, eventToCore } from './convert.js';

/** validateV1EventSeries over the internal shape. */
function validateSeries(ev: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if (ev.series) {
    const series = o(ev.series);
    if (int(series.count) < 2) errs.push(fieldErr.invalid('series.count', '', 'should be at least 2'));
    if (!series.lastObservedTime) errs.push(fieldErr.required('series.lastObservedTime', ''));
  }
  return errs;
}

/**
 * ValidateEventCreate's strict part for events.k8s.io/v1 (after the legacy checks): ObjectMeta, the series,
 * eventTime, the type, and none of the deprecated fields. Paths name the internal fields (firstTimestamp
 * for deprecatedFirstTimestamp...), as the real messages do.
 */
function validateNewEventV1(obj: KubeObject): FieldError[] {
  const ev = eventToCore(obj);
  const errs = validateObjectMeta(obj.metadata, { namespaced: true, nameValidator: nameIsDNSSubdomain });
  errs.push(...validateKubeFinalizerNames(obj.metadata));
  errs.push(...validateSeries(ev));
  if (!ev.eventTime) errs.push(fieldErr.required('eventTime', ''));
  if (ev.type !== 'Normal' && ev.type !== 'Warning') errs.push(fieldErr.invalid('type', '', `has invalid value: ${str(ev.type)}`));
  if (ev.firstTimestamp) errs.push(fieldErr.invalid('firstTimestamp', '', 'needs to be unset'));
  if (ev.lastTimestamp) errs.push(fieldErr.invalid('lastTimestamp', '', 'needs to be unset'));
  if (int(ev.count) !== 0) errs.push(fieldErr.invalid('count', '', 'needs to be unset'));
  const src = o(ev.source);
  if (str(src.component) || str(src.host)) errs.push(fieldErr.invalid('source', '', 'needs to be unset'));
  return errs;
}

/** %#v of a core.ObjectReference. */
function goObjectReference(v: unknown): string {
  const r = o(v);
  const f = (k: string) => goQuote(str(r[k]));
  return `core.ObjectReference{Kind:${f('kind')}, Namespace:${f('namespace')}, Name:${f('name')}, UID:${f('uid')}, APIVersion:${f('apiVersion')}, ResourceVersion:${f('resourceVersion')}, FieldPath:${f('fieldPath')}}`;
}

/** A metav1.Time / MicroTime as its String method prints it (UTC: `2006-01-02 15:04:05.999999999 +0000 UTC`). */
function goTime(v: unknown): string {
  const t = typeof v === 'string' ? Date.parse(v) : NaN;
  if (Number.isNaN(t)) return '0001-01-01 00:00:00 +0000 UTC';
  const iso = new Date(t).toISOString(); // millisecond precision
  const frac = (typeof v === 'string' ? /\.(\d+)/.exec(v)?.[1] ?? '' : '').replace(/0+$/, '');
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${frac ? `.${frac}` : ''} +0000 UTC`;
}

/**
 * ValidateEventUpdate for events.k8s.io/v1: everything but the series, metadata and the event's own
 * bookkeeping is immutable; errors name the internal fields (involvedObject for regarding, message for
 * note, ...) and print values as Go does.
 */
function validateEventV1Change(ev: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  // a changed series is validated again
  if (JSON.stringify(ev.series ?? null) !== JSON.stringify(old.series ?? null)) errs.push(...validateSeries(ev));
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  const checks: [string, string, (v: unknown) => string][] = [
    ['regarding', 'involvedObject', goObjectReference],
    ['reason', 'reason', (v) => goQuote(str(v))],
    ['note', 'message', (v) => goQuote(str(v))],
    ['deprecatedSource', 'source', (v) => `core.EventSource{Component:${goQuote(str(o(v).component))}, Host:${goQuote(str(o(v).host))}}`],
    ['deprecatedFirstTimestamp', 'firstTimestamp', goTime],
    ['deprecatedLastTimestamp', 'lastTimestamp', goTime],
    ['deprecatedCount', 'count', (v) => String(int(v))],
    ['type', 'type', (v) => goQuote(str(v))],
    ['eventTime', 'eventTime', goTime],
    ['action', 'action', (v) => goQuote(str(v))],
    ['related', 'related', (v) => (v === undefined || v === null ? 'null' : goObjectReference(v))],
    ['reportingController', 'reportingController', (v) => goQuote(str(v))],
    ['reportingInstance', 'reportingInstance', (v) => goQuote(str(v))],
  ];
  for (const [field, path, repr] of checks) {
    if (!same((ev as Record<string, unknown>)[field], (old as Record<string, unknown>)[field])) {
      errs.push(invalidRepr(path, repr((ev as Record<string, unknown>)[field]), 'field is immutable'));
    }
  }
  return errs;
}

export const eventsV1 = builtin('events.k8s.io', 'v1', 'events', {
  allowCreateOnUpdate: true,
  // ValidateEventCreate/Update: the legacy checks first (over the internal shape), then the strict ones
  skipObjectMeta: true,
  validateObject: (obj) => legacyValidateEvent(eventToCore(obj)),
  validateNew: validateNewEventV1,
  validateChange: validateEventV1Change,
  conversion: EVENT_CONVERSION,
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
  // the same printer as core events, over the events.k8s.io field names
  tableColumns: [
    col('Last Seen', 'string', 'The time at which the most recent occurrence of this event was recorded.', (obj, ctx) => {
      if (obj.series) return since(o(obj.series).lastObservedTime, ctx.now);
      if (obj.deprecatedLastTimestamp) return since(obj.deprecatedLastTimestamp, ctx.now);
      return obj.deprecatedFirstTimestamp ? since(obj.deprecatedFirstTimestamp, ctx.now) : since(obj.eventTime, ctx.now);
    }),
    col('Type', 'string', 'Type of this event (Normal, Warning), new types could be added in the future', (obj) => str(obj.type)),
    col('Reason', 'string', "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.", (obj) => str(obj.reason)),
    col('Object', 'string', 'The object that this event is about.', (obj) => {
      const r = o(obj.regarding);
      return str(r.name) ? `${str(r.kind).toLowerCase()}/${str(r.name)}` : str(r.kind).toLowerCase();
    }),
    col('Subobject', 'string', 'The field of the object that this event is about.', (obj) => str(o(obj.regarding).fieldPath), 1),
    col('Source', 'string', 'The component reporting this event. Should be a short machine understandable string.', (obj) => {
      const component = str(o(obj.deprecatedSource).component) || str(obj.reportingController);
      const host = str(o(obj.deprecatedSource).host) || str(obj.reportingInstance);
      return host ? `${component}, ${host}` : component;
    }, 1),
    col('Message', 'string', 'A human-readable description of the status of this operation.', (obj) => str(obj.note).trim()),
    col('First Seen', 'string', 'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)', (obj, ctx) => (obj.deprecatedFirstTimestamp ? since(obj.deprecatedFirstTimestamp, ctx.now) : since(obj.eventTime, ctx.now)), 1),
    col('Count', 'string', 'The number of times this event has occurred.', (obj) => (obj.series ? int(o(obj.series).count) : int(obj.deprecatedCount) || 1), 1),
  ],
}) satisfies ResourceDefinition;
