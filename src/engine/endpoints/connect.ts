// The subresources that are not stored state [K8S pkg/registry/core/pod/rest, pod/storage/eviction.go,
// service/storage ResourceLocation, node/rest]: pods/log, exec, attach, portforward and proxy,
// services/proxy, nodes/proxy, and pods/eviction. One entry, handleConnect, called by the router for every
// subresource a definition lists in `connect`.
//
// There is no kubelet and no pod network here, so whatever needs one fails the way a real server fails when
// it cannot reach it: first the same checks in the same order (the object, the container, the host), then
// the answer of a server whose kubelet (or pod, or endpoint) refuses the connection.

import { StatusError, badRequest, notFound, type Status } from '../errors.js';
import { rfc3339 } from '../env.js';
import { isPlainObject, type KubeObject } from '../object.js';
import type { ResourceDefinition } from '../registry/types.js';
import { decodeProtobufObject } from '../codec/protobuf/decode.js';
import { decodeBody } from '../codec/decode.js';
import { goQuote } from '../codec/go-format.js';
import { bodyMediaType } from './negotiation/media.js';
import { respond } from './responders.js';
import { readBody, type Scope } from './scope.js';
import { parseDeleteOptions } from './handlers/delete.js';
import { validateDryRun } from './pipeline.js';
import { isIP } from '../util/validation.js';
import { EngineResponse } from './wire.js';
import type { EngineRequest } from './wire.js';

type Obj = Record<string, unknown>;
const o = (v: unknown): Obj => (isPlainObject(v) ? (v as Obj) : {});
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(o) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The port of the kubelet when the Node does not say (KubeletPort). */
const KUBELET_PORT = 10250;
/** kube-apiserver's --kubelet-preferred-address-types default. */
const PREFERRED_ADDRESS_TYPES = ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'];

/** An error the real server reports as a plain Go error: a 500 Status without a reason. */
function plainError(message: string): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 });
}

function serviceUnavailable(message: string): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'ServiceUnavailable', code: 503 });
}

/** A dial that nothing answers: there is no kubelet, pod or endpoint behind any address in this cluster. */
function connectionRefused(host: string, port: number | string): StatusError {
  const hostPort = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  return plainError(`dial tcp ${hostPort}: connect: connection refused`);
}

function getStored(scope: Scope, def: ResourceDefinition, name: string): KubeObject {
  const item = scope.core.store.state.get(scope.core.store.key(def, scope.info.namespace, name));
  if (!item) throw notFound({ group: def.group, resource: def.plural }, name);
  return item.object;
}

function nodeDef(scope: Scope): ResourceDefinition {
  return scope.core.registry.lookup('', 'v1', 'nodes')!;
}

/** connInfo.GetConnectionInfo: the node's preferred address and kubelet port. */
function kubeletAddress(scope: Scope, nodeName: string): { host: string; port: number } {
  const item = scope.core.store.state.get(scope.core.store.key(nodeDef(scope), '', nodeName));
  if (!item) throw notFound({ group: '', resource: 'nodes' }, nodeName);
  const status = o(item.object.status);
  const addresses = arr(status.addresses);
  for (const t of PREFERRED_ADDRESS_TYPES) {
    const a = addresses.find((x) => x.type === t && str(x.address));
    if (a) {
      const port = o(o(status.daemonEndpoints).kubeletEndpoint).Port;
      return { host: str(a.address), port: typeof port === 'number' && port > 0 ? port : KUBELET_PORT };
    }
  }
  const known = addresses.map((a) => `{${str(a.type)} ${str(a.address)}}`).join(' ');
  throw plainError(`no preferred addresses found; known addresses: [${known}]`);
}

const containerNames = (v: unknown): string[] => arr(v).map((c) => str(c.name));

/** The container a streaming request addresses (streamLocation / LogLocation's container rules). */
function pickContainer(pod: KubeObject, name: string, requested: string): string {
  const spec = o(pod.spec);
  const containers = containerNames(spec.containers);
  if (requested) {
    const all = [...containers, ...containerNames(spec.initContainers), ...containerNames(spec.ephemeralContainers)];
    if (!all.includes(requested)) throw badRequest(`container ${requested} is not valid for pod ${name}`);
    return requested;
  }
  if (containers.length === 1) return containers[0];
  if (containers.length === 0) throw badRequest(`a container name must be specified for pod ${name}`);
  let msg = `a container name must be specified for pod ${name}, choose one of: [${containers.join(' ')}]`;
  const init = containerNames(spec.initContainers);
  if (init.length) msg += ` or one of the init containers: [${init.join(' ')}]`;
  throw badRequest(msg);
}

/** `name`, `name:port` or `scheme:name:port` (utilnet.SplitSchemeNamePort). */
function splitSchemeNamePort(id: string): { scheme: string; name: string; port: string } | undefined {
  const parts = id.split(':');
  if (parts.length === 1) return parts[0] ? { scheme: '', name: parts[0], port: '' } : undefined;
  if (parts.length === 2) return parts[0] ? { scheme: '', name: parts[0], port: parts[1] } : undefined;
  if (parts.length === 3 && (parts[0] === 'http' || parts[0] === 'https') && parts[1]) return { scheme: parts[0], name: parts[1], port: parts[2] };
  return undefined;
}

/** A global unicast address (not unspecified, loopback, link-local, multicast or broadcast), as the pod proxy requires. */
function isGlobalUnicast(ip: string): boolean {
  if (!isIP(ip)) return false;
  if (!ip.includes(':')) {
    const [a, b] = ip.split('.').map(Number);
    return !(a === 0 || a === 127 || (a === 169 && b === 254) || a >= 224);
  }
  const low = ip.toLowerCase();
  return !(low === '::' || low === '::1' || low.startsWith('fe8') || low.startsWith('fe9') || low.startsWith('fea') || low.startsWith('feb') || low.startsWith('ff'));
}

/** Whether the request asks to upgrade the connection (SPDY or WebSocket), as kubectl exec/attach/port-forward do. */
function isUpgrade(request: EngineRequest): boolean {
  const connection = (request.headers.get('Connection') ?? '').toLowerCase();
  return connection.split(',').some((t) => t.trim() === 'upgrade') && !!request.headers.get('Upgrade');
}

export async function handleConnect(scope: Scope): Promise<EngineResponse> {
  const { def, info } = scope;
  const sub = `${def.plural}/${info.subresource}`;
  switch (sub) {
    case 'pods/log':
      return podLog(scope);
    case 'pods/exec':
    case 'pods/attach':
    case 'pods/portforward':
      return podStream(scope, info.subresource);
    case 'pods/proxy':
      return podProxy(scope);
    case 'services/proxy':
      return serviceProxy(scope);
    case 'nodes/proxy':
      return nodeProxy(scope);
    case 'pods/eviction':
      return evict(scope);
  }
  throw badRequest(`unsupported subresource ${info.subresource}`);
}

/**
 * pods/log (LogLocation): the pod, then the container; a pod no node runs has no log location and the answer
 * is 204 with no body (kubectl logs prints nothing); a scheduled pod's log comes from a kubelet that does not
 * answer here.
 */
function podLog(scope: Scope): EngineResponse {
  const name = scope.info.name;
  const pod = getStored(scope, scope.def, name);
  const container = pickContainer(pod, name, scope.query.get('container') ?? '');
  const nodeName = str(o(pod.spec).nodeName);
  if (!nodeName) return new EngineResponse(null, { status: 204, headers: { 'Cache-Control': 'no-cache, private' } });
  const kubelet = kubeletAddress(scope, nodeName);
  const host = kubelet.host.includes(':') ? `[${kubelet.host}]` : kubelet.host;
  const path = `/containerLogs/${scope.info.namespace}/${name}/${container}`;
  throw plainError(`Get ${goQuote(`https://${host}:${kubelet.port}${path}`)}: dial tcp ${host}:${kubelet.port}: connect: connection refused`);
}

/**
 * pods/exec, attach and portforward (ExecLocation, AttachLocation, PortForwardLocation): the pod, the container
 * (not for portforward), then the host; a scheduled pod needs a connection upgrade, and the upgrade dials a
 * kubelet that does not answer.
 */
function podStream(scope: Scope, kind: string): EngineResponse {
  const name = scope.info.name;
  const pod = getStored(scope, scope.def, name);
  if (kind !== 'portforward') pickContainer(pod, name, scope.query.get('container') ?? '');
  const nodeName = str(o(pod.spec).nodeName);
  if (!nodeName) throw badRequest(`pod ${name} does not have a host assigned`);
  const kubelet = kubeletAddress(scope, nodeName);
  if (!isUpgrade(scope.request)) throw badRequest('Upgrade request required');
  const err = connectionRefused(kubelet.host, kubelet.port);
  throw plainError(`error dialing backend: ${err.status.message}`);
}

/** pods/proxy (ResourceLocation): `name[:port]`, the pod's IP must be one a proxy may reach. */
function podProxy(scope: Scope): EngineResponse {
  const id = splitSchemeNamePort(scope.info.name);
  if (!id) throw badRequest(`invalid pod request ${goQuote(scope.info.name)}`);
  const pod = getStored(scope, scope.def, id.name);
  // no port given: the first container port of the pod
  let port = id.port;
  if (!port) {
    const withPorts = arr(o(pod.spec).containers).find((c) => arr(c.ports).length > 0);
    if (withPorts) port = String(arr(withPorts.ports)[0].containerPort ?? '');
  }
  const ip = str(arr(o(pod.status).podIPs)[0]?.ip);
  if (!isGlobalUnicast(ip)) throw badRequest('address not allowed');
  throw connectionRefused(ip, port || 80);
}

/**
 * services/proxy (ResourceLocation): a numeric port must be one of the Service's; then its Endpoints must
 * hold a ready address for that port; the address does not answer here.
 */
function serviceProxy(scope: Scope): EngineResponse {
  const id = splitSchemeNamePort(scope.info.name);
  if (!id) throw badRequest(`invalid service request ${goQuote(scope.info.name)}`);
  let portName = id.port;
  if (/^\d+$/.test(id.port)) {
    const svc = getStored(scope, scope.def, id.name);
    const port = arr(o(svc.spec).ports).find((p) => p.port === Number(id.port));
    if (!port) throw serviceUnavailable(`no service port ${Number(id.port)} found for service ${goQuote(id.name)}`);
    portName = str(port.name);
  }
  const epDef = scope.core.registry.lookup('', 'v1', 'endpoints')!;
  const eps = getStored(scope, epDef, id.name);
  const subsets = arr(eps.subsets);
  if (subsets.length === 0) throw serviceUnavailable(`no endpoints available for service ${goQuote(id.name)}`);
  for (const ss of subsets) {
    const port = arr(ss.ports).find((p) => str(p.name) === portName);
    if (!port) continue;
    const addr = arr(ss.addresses).find((a) => isIP(str(a.ip)));
    if (addr) throw connectionRefused(str(addr.ip), typeof port.port === 'number' ? port.port : 0);
  }
  throw serviceUnavailable(`no endpoints available for service ${goQuote(scope.info.name)}`);
}

/** nodes/proxy (ResourceLocation): the node and its kubelet address; the kubelet does not answer here. */
function nodeProxy(scope: Scope): EngineResponse {
  const id = splitSchemeNamePort(scope.info.name);
  if (!id) throw badRequest(`invalid node request ${goQuote(scope.info.name)}`);
  getStored(scope, scope.def, id.name);
  const kubelet = kubeletAddress(scope, id.name);
  throw connectionRefused(kubelet.host, id.port ? Number(id.port) || id.port : kubelet.port);
}

// ---------------------------------------------------------------------------------------------------
// pods/eviction (pkg/registry/core/pod/storage/eviction.go)

/** A pod whose eviction needs no budget: it is done, not started, or already being deleted (canIgnorePDB). */
function canIgnoreBudget(pod: KubeObject): boolean {
  const phase = str(o(pod.status).phase);
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || !!pod.metadata?.deletionTimestamp;
}

function budgetSelects(pdb: KubeObject, pod: KubeObject): boolean {
  const sel = o(pdb.spec).selector;
  if (!isPlainObject(sel)) return false;
  const s = sel as Obj;
  const labels = o(pod.metadata?.labels);
  const ml = o(s.matchLabels);
  const exprs = arr(s.matchExpressions);
  // an empty selector selects nothing here
  if (Object.keys(ml).length === 0 && exprs.length === 0) return false;
  for (const [k, v] of Object.entries(ml)) if (labels[k] !== v) return false;
  for (const e of exprs) {
    const key = str(e.key);
    const values = Array.isArray(e.values) ? e.values.map(str) : [];
    const has = Object.prototype.hasOwnProperty.call(labels, key);
    switch (e.operator) {
      case 'In':
        if (!has || !values.includes(str(labels[key]))) return false;
        break;
      case 'NotIn':
        if (has && values.includes(str(labels[key]))) return false;
        break;
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

function budgetError(message: string, cause: string, retryAfterSeconds: number): StatusError {
  const status: Status = {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'TooManyRequests',
    details: { causes: [{ reason: 'DisruptionBudget', message: cause }], ...(retryAfterSeconds ? { retryAfterSeconds } : {}) },
    code: 429,
  };
  return new StatusError(status, retryAfterSeconds ? { 'Retry-After': String(retryAfterSeconds) } : {});
}

const VIOLATES = "Cannot evict pod as it would violate the pod's disruption budget.";

async function readEviction(scope: Scope): Promise<Obj> {
  const ct = bodyMediaType(scope.request.headers.get('Content-Type'));
  const bytes = await readBody(scope);
  let value: unknown;
  if (ct.full === 'application/vnd.kubernetes.protobuf') {
    value = decodeProtobufObject(bytes, { expectKind: 'Eviction', expectApiVersion: 'policy/v1' }).object;
  } else {
    value = decodeBody(bytes, ct.format === 'yaml' ? 'yaml' : 'json', { expectKind: 'Eviction' }).value;
  }
  if (!isPlainObject(value)) throw badRequest('the object provided is unrecognized (must be of type Eviction)');
  const e = value as Obj;
  const gv = str(e.apiVersion);
  if (e.kind !== undefined && e.kind !== 'Eviction') {
    throw badRequest(`${String(e.kind)} in version ${goQuote(gv.split('/').pop() ?? '')} cannot be handled as a Eviction: no kind ${goQuote(String(e.kind))} is registered for version ${goQuote(gv)} in scheme "pkg/api/legacyscheme/scheme.go:30"`);
  }
  return e;
}

async function evict(scope: Scope): Promise<EngineResponse> {
  const { core, info } = scope;
  if (scope.request.method !== 'POST') throw badRequest('unsupported method');
  const eviction = await readEviction(scope);
  const evName = str(o(eviction.metadata).name);
  if (evName !== info.name) throw badRequest('name in URL does not match name in Eviction object');
  // dry run from the request (CreateOptions) or from the eviction's DeleteOptions; they must agree
  const createDry = validateDryRun(scope.query.getAll('dryRun'));
  const deleteOptions = o(eviction.deleteOptions);
  const optsDry = validateDryRun(Array.isArray(deleteOptions.dryRun) ? deleteOptions.dryRun.map(String) : []);
  if (createDry.errs.length || optsDry.errs.length) throw badRequest(`invalid dryRun: ${[...createDry.errs, ...optsDry.errs].map((e) => e.detail).join(', ')}`);
  if (createDry.dryRun && Array.isArray(deleteOptions.dryRun) && !optsDry.dryRun) {
    throw badRequest('dryRun in CreateOptions and DeleteOptions of the eviction do not match');
  }
  const dryRun = createDry.dryRun || optsDry.dryRun;
  const del = await deleteOptionsOf(scope, deleteOptions, dryRun);

  const pod = getStored(scope, scope.def, info.name);
  if (!canIgnoreBudget(pod)) {
    const pdbDef = core.registry.lookup('policy', 'v1', 'poddisruptionbudgets')!;
    const budgets = core.store.state
      .list(core.store.prefix(pdbDef, info.namespace))
      .map((s) => s.object)
      .filter((b) => budgetSelects(b, pod));
    if (budgets.length > 1) {
      throw new StatusError({
        kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
        message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
        reason: 'InternalError', code: 500,
      });
    }
    if (budgets.length === 1) await takeDisruption(scope, pdbDef, budgets[0], info.name, dryRun);
  }
  // the pod learns why it goes (PodDisruptionConditions, GA): a DisruptionTarget condition before the delete
  if (!dryRun && !pod.metadata?.deletionTimestamp) {
    const now = rfc3339(core.env.clock.now());
    await core.store.update(scope.def, info.namespace, info.name, 'status', (current) => {
      const next = structuredClone(current!);
      const st = (next.status = o(next.status));
      const conds = arr(st.conditions);
      const prev = conds.find((x) => x.type === 'DisruptionTarget');
      const cond = { type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime: prev?.status === 'True' ? prev.lastTransitionTime : now, reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' };
      st.conditions = prev ? conds.map((x) => (x === prev ? cond : x)) : [...conds, cond];
      return next;
    }, { dryRun: false });
  }
  await core.store.delete(scope.def, info.namespace, info.name, {
    ...del,
    dryRun,
    // the eviction deletes the pod it looked at
    preconditions: { ...(del.preconditions ?? {}), uid: del.preconditions?.uid ?? String(pod.metadata?.uid ?? '') },
  });
  return respond(201, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 }, { pretty: scope.pretty });
}

async function deleteOptionsOf(scope: Scope, opts: Obj, dryRun: boolean): Promise<{ gracePeriodSeconds?: number; propagationPolicy?: string; preconditions?: { uid?: string; resourceVersion?: string } }> {
  // the eviction's DeleteOptions are validated as a delete's are
  const fake: Scope = {
    ...scope,
    query: new URLSearchParams(),
    request: new Request('http://localhost/', { method: 'DELETE', body: JSON.stringify({ ...opts, dryRun: dryRun ? ['All'] : undefined }), headers: { 'Content-Type': 'application/json' } }),
  };
  const parsed = await parseDeleteOptions(fake);
  return { gracePeriodSeconds: parsed.gracePeriodSeconds, propagationPolicy: parsed.propagationPolicy, preconditions: parsed.preconditions };
}

/**
 * checkAndDecrement: a budget the disruption controller has not observed yet, or with no disruption left,
 * refuses with 429; otherwise one disruption is taken and the pod recorded in disruptedPods (not on dry run).
 */
async function takeDisruption(scope: Scope, pdbDef: ResourceDefinition, pdb: KubeObject, podName: string, dryRun: boolean): Promise<void> {
  const { core, info } = scope;
  const status = o(pdb.status);
  const pdbName = str(pdb.metadata?.name);
  const observed = typeof status.observedGeneration === 'number' ? status.observedGeneration : 0;
  const generation = typeof pdb.metadata?.generation === 'number' ? pdb.metadata.generation : 0;
  if (observed < generation) throw budgetError(VIOLATES, `The disruption budget ${pdbName} is still being processed by the server.`, 10);
  const allowed = typeof status.disruptionsAllowed === 'number' ? status.disruptionsAllowed : 0;
  if (allowed < 0) throw forbiddenBudget(pdbName, 'pdb disruptions allowed is negative');
  if (Object.keys(o(status.disruptedPods)).length > 2000) throw forbiddenBudget(pdbName, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
  if (allowed === 0) {
    const desired = typeof status.desiredHealthy === 'number' ? status.desiredHealthy : 0;
    const current = typeof status.currentHealthy === 'number' ? status.currentHealthy : 0;
    throw budgetError(VIOLATES, `The disruption budget ${pdbName} needs ${desired} healthy pods and has ${current} currently`, 0);
  }
  if (dryRun) return;
  const now = rfc3339(core.env.clock.now());
  await core.store.update(pdbDef, info.namespace, pdbName, 'status', (current) => {
    const next = structuredClone(current!);
    const st = (next.status = o(next.status));
    st.disruptionsAllowed = allowed - 1;
    st.disruptedPods = { ...o(st.disruptedPods), [podName]: now };
    if (allowed - 1 === 0) {
      const conds = arr(st.conditions).filter((c) => c.type !== 'DisruptionAllowed');
      const prev = arr(st.conditions).find((c) => c.type === 'DisruptionAllowed');
      conds.push({
        type: 'DisruptionAllowed', status: 'False', observedGeneration: observed,
        lastTransitionTime: prev && prev.status === 'False' ? prev.lastTransitionTime : now,
        reason: 'InsufficientPods', message: '',
      });
      st.conditions = conds;
    }
    return next;
  }, { dryRun: false });
}

function forbiddenBudget(name: string, reason: string): StatusError {
  return new StatusError({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
    message: `poddisruptionbudgets.policy ${goQuote(name)} is forbidden: ${reason}`,
    reason: 'Forbidden', details: { name, group: 'policy', kind: 'poddisruptionbudgets' }, code: 403,
  });
}
