// Binding a pod to a node: POST pods/<name>/binding and the older POST bindings (core v1), as the pod
// registry's BindingREST does [K8S pkg/registry/core/pod/storage BindingREST]. The pod is changed in
// storage directly (no pod strategy, no field manager): spec.nodeName, the Binding's annotations and the
// PodScheduled=True condition. The answer is a Success Status with code 201.

import { rfc3339 } from '../../env.js';
import { StatusError, badRequest, conflict, fieldErr, fieldErrorString, isStatusError, unsupportedMediaType, type FieldError } from '../../errors.js';
import { decodeBody } from '../../codec/decode.js';
import { goQuote } from '../../codec/go-format.js';
import { isPlainObject, type KubeObject } from '../../object.js';
import { bodyMediaType } from '../negotiation/media.js';
import { respond } from '../responders.js';
import { expectKind, readBody, type Scope } from '../scope.js';
import { writeOptions } from '../pipeline.js';
import type { EngineResponse } from '../wire.js';

type Obj = Record<string, unknown>;

const BINDING_GR = { group: '', resource: 'pods/binding' };

/** ValidatePodBinding: the target is a Node (kind empty or "Node") with a name. */
function validateBinding(b: Obj): FieldError[] {
  const target = isPlainObject(b.target) ? (b.target as Obj) : {};
  const errs: FieldError[] = [];
  const kind = typeof target.kind === 'string' ? target.kind : '';
  if (kind && kind !== 'Node') errs.push(fieldErr.notSupported('target.kind', kind, ['Node', '<empty>']));
  if (typeof target.name !== 'string' || !target.name) errs.push(fieldErr.required('target.name', ''));
  return errs;
}

/** A Go error that is not a Status (an aggregate of field errors): the responder's 500 with no reason. */
function plainError(message: string): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 });
}

/**
 * Handles a binding create. `fromCollection` is the `bindings` resource (the pod is named by the Binding),
 * otherwise the pod comes from the URL (pods/<name>/binding).
 */
export async function handleBinding(scope: Scope, fromCollection: boolean): Promise<EngineResponse> {
  const { core, info, def } = scope;
  const opts = writeOptions(scope, 'CreateOptions');
  const ct = bodyMediaType(scope.request.headers.get('Content-Type'));
  if (ct.format !== 'json' && ct.format !== 'yaml') throw unsupportedMediaType('application/json, application/yaml');
  const decoded = decodeBody(await readBody(scope), ct.format, { expectKind: 'Binding' });
  const binding = expectKind(scope, decoded.value, 'Binding', 'v1') as KubeObject & Obj;
  const meta = binding.metadata ?? {};
  const ns = meta.namespace;
  if (ns && ns !== info.namespace) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  const bodyName = typeof meta.name === 'string' ? meta.name : '';
  const name = fromCollection ? bodyName : info.name;
  if (!name) throw badRequest('Name parameter required.');
  if (name !== bodyName) throw badRequest('name in URL does not match name in Binding object');
  const errs = validateBinding(binding);
  if (errs.length === 1) throw plainError(fieldErrorString(errs[0]));
  if (errs.length > 1) throw plainError(`[${errs.map(fieldErrorString).join(', ')}]`);
  const node = String((binding.target as Obj).name);
  const annotations = isPlainObject(meta.annotations) ? (meta.annotations as Record<string, string>) : {};
  const now = rfc3339(core.env.clock.now());
  try {
    await core.store.guaranteedUpdate(def, info.namespace, name, (pod) => {
      const pm = pod.metadata!;
      if (pm.deletionTimestamp) throw new Error(`pod ${name} is being deleted, cannot be assigned to a host`);
      const spec = (pod.spec ??= {}) as Obj;
      if (typeof spec.nodeName === 'string' && spec.nodeName) throw new Error(`pod ${name} is already assigned to node ${goQuote(spec.nodeName)}`);
      if (Array.isArray(spec.schedulingGates) && spec.schedulingGates.length) throw new Error(`pod ${name} has non-empty .spec.schedulingGates`);
      spec.nodeName = node;
      if (Object.keys(annotations).length) pm.annotations = { ...(pm.annotations ?? {}), ...annotations };
      const status = (pod.status ??= {}) as Obj;
      const conditions = Array.isArray(status.conditions) ? (status.conditions as Obj[]) : [];
      const i = conditions.findIndex((c) => c.type === 'PodScheduled');
      // UpdatePodCondition: the transition time moves only when the status changes
      const prev = i >= 0 ? conditions[i] : undefined;
      const cond: Obj = { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: prev?.status === 'True' ? prev.lastTransitionTime : now };
      if (i >= 0) conditions[i] = cond;
      else conditions.push(cond);
      status.conditions = conditions;
      return pod;
    }, { dryRun: opts.dryRun, preconditions: { uid: typeof meta.uid === 'string' ? meta.uid : undefined, resourceVersion: typeof meta.resourceVersion === 'string' ? meta.resourceVersion : undefined } });
  } catch (e) {
    // assignPod: what is not already an API status is a Conflict on pods/binding
    if (isStatusError(e)) throw e;
    throw conflict(BINDING_GR, name, (e as Error).message);
  }
  return respond(201, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 }, { pretty: scope.pretty });
}

/** The kind whose objects have the binding subresource. */
export function isPods(def: { group: string; version: string; plural: string }): boolean {
  return def.group === '' && def.version === 'v1' && def.plural === 'pods';
}
