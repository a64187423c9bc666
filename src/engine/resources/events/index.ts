// Events (core v1): the legacy validation the real server applies to v1 events (no ObjectMeta checks),
// field selectors and the event printer.

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { isDNS1123Subdomain, isQualifiedName } from '../../util/validation.js';
import { builtin } from '../factory.js';
import { col, int, o, since, str } from '../common/printers.js';
import { EVENT_CONVERSION } from '../events-k8s-io/convert.js';

const REPORTING_INSTANCE_LIMIT = 128;
const ACTION_LIMIT = 128;
const REASON_LIMIT = 128;
const NOTE_LIMIT = 1024;

/**
 * legacyValidateEvent over an event in core v1 shape (an events.k8s.io/v1 event is converted first): the
 * checks every event passes whatever version it came in. Field paths are the internal type's, as the real
 * messages print them (involvedObject, reportingController, message...).
 */
export function legacyValidateEvent(ev: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const ns = ev.metadata?.namespace ?? '';
  const involvedNs = str(o(ev.involvedObject).namespace);
  if (!ev.eventTime) {
    // an old-style event: its namespace matches the involved object's ("default" stands for none)
    if (!involvedNs) {
      if (ns !== '' && ns !== 'default') errs.push(fieldErr.invalid('involvedObject.namespace', involvedNs, 'does not match event.namespace'));
    } else if (ns !== involvedNs) {
      errs.push(fieldErr.invalid('involvedObject.namespace', involvedNs, 'does not match event.namespace'));
    }
  } else {
    if (!involvedNs && ns !== 'default' && ns !== 'kube-system') {
      errs.push(fieldErr.invalid('involvedObject.namespace', involvedNs, 'does not match event.namespace'));
    }
    const rc = str(ev.reportingComponent);
    if (!rc) errs.push(fieldErr.required('reportingController', ''));
    for (const m of isQualifiedName(rc)) errs.push(fieldErr.invalid('reportingController', rc, m));
    const ri = str(ev.reportingInstance);
    if (!ri) errs.push(fieldErr.required('reportingInstance', ''));
    if (ri.length > REPORTING_INSTANCE_LIMIT) errs.push(fieldErr.invalid('reportingInstance', '', `can have at most ${REPORTING_INSTANCE_LIMIT} characters`));
    const action = str(ev.action);
    if (!action) errs.push(fieldErr.required('action', ''));
    if (action.length > ACTION_LIMIT) errs.push(fieldErr.invalid('action', '', `can have at most ${ACTION_LIMIT} characters`));
    const reason = str(ev.reason);
    if (!reason) errs.push(fieldErr.required('reason', ''));
    if (reason.length > REASON_LIMIT) errs.push(fieldErr.invalid('reason', '', `can have at most ${REASON_LIMIT} characters`));
    const message = str(ev.message);
    if (message.length > NOTE_LIMIT) errs.push(fieldErr.invalid('message', '', `can have at most ${NOTE_LIMIT} characters`));
  }
  for (const m of isDNS1123Subdomain(ns)) errs.push(fieldErr.invalid('namespace', ns, m));
  return errs;
}

function lastSeen(ev: KubeObject, now: number): string {
  const first = ev.firstTimestamp ? since(ev.firstTimestamp, now) : since(ev.eventTime, now);
  if (ev.series) return since(o(ev.series).lastObservedTime, now);
  return ev.lastTimestamp ? since(ev.lastTimestamp, now) : first;
}

export const events = builtin('', 'v1', 'events', {
  allowCreateOnUpdate: true,
  skipObjectMeta: true,
  skipRequired: true,
  // core v1 requests get the legacy checks only, for backwards compatibility (ValidateEventCreate/Update)
  validateObject: (obj) => legacyValidateEvent(obj),
  conversion: EVENT_CONVERSION,
  selectableFields: (obj) => {
    const io = o(obj.involvedObject);
    return {
      'involvedObject.kind': str(io.kind),
      'involvedObject.namespace': str(io.namespace),
      'involvedObject.name': str(io.name),
      'involvedObject.uid': str(io.uid),
      'involvedObject.apiVersion': str(io.apiVersion),
      'involvedObject.resourceVersion': str(io.resourceVersion),
      'involvedObject.fieldPath': str(io.fieldPath),
      reason: str(obj.reason),
      reportingComponent: str(obj.reportingComponent),
      source: str(o(obj.source).component) || str(obj.reportingComponent),
      type: str(obj.type),
    };
  },
  // The real event table starts with Last Seen and shows Name last (priority 1); the table code here always
  // puts Name first.
  tableColumns: [
    col('Last Seen', 'string', 'The time at which the most recent occurrence of this event was recorded.', (obj, ctx) => lastSeen(obj, ctx.now)),
    col('Type', 'string', 'Type of this event (Normal, Warning), new types could be added in the future', (obj) => str(obj.type)),
    col('Reason', 'string', "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.", (obj) => str(obj.reason)),
    col('Object', 'string', 'The object that this event is about.', (obj) => {
      const io = o(obj.involvedObject);
      return str(io.name) ? `${str(io.kind).toLowerCase()}/${str(io.name)}` : str(io.kind).toLowerCase();
    }),
    col('Subobject', 'string', 'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: "spec.containers{name}" (where "name" refers to the name of the container that triggered the event) or if no container name is specified "spec.containers[2]" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.', (obj) => str(o(obj.involvedObject).fieldPath), 1),
    col('Source', 'string', 'The component reporting this event. Should be a short machine understandable string.', (obj) => {
      const component = str(o(obj.source).component) || str(obj.reportingComponent);
      const host = str(o(obj.source).host) || str(obj.reportingInstance);
      return host ? `${component}, ${host}` : component;
    }, 1),
    col('Message', 'string', 'A human-readable description of the status of this operation.', (obj) => str(obj.message).trim()),
    col('First Seen', 'string', 'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)', (obj, ctx) => (obj.firstTimestamp ? since(obj.firstTimestamp, ctx.now) : since(obj.eventTime, ctx.now)), 1),
    col('Count', 'string', 'The number of times this event has occurred.', (obj) => (obj.series ? int(o(obj.series).count) : int(obj.count) || 1), 1),
  ],
}) satisfies ResourceDefinition;
