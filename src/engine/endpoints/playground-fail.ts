// POST /x-playground/fail and /x-playground/recover: a playground-only SIMULATION of failures, so that
// CrashLoopBackOff and node failure can be taught. Not part of the Kubernetes API (it lives under a prefix the
// real server does not have).
//   ?pod=<namespace>/<name>[&container=<name>]  the container (default: the pod's first) exits with an error
//                                                whenever it runs, until recovered or the pod is deleted
//   ?node=<name>                                 the node's kubelet stops posting status and renewing its Lease
// The caller must be allowed to update the pod's status (pods/status) or the node's status (nodes/status), as
// the kubelet that would report such a failure is. The simulated kubelets act on it (controllers/nodes.ts).

import { badRequest } from '../errors.js';
import type { KubeObject } from '../object.js';
import { requestInfo, type ResourceRequestInfo } from './request-info.js';

export const PLAYGROUND_FAIL_PATH = '/x-playground/fail';
export const PLAYGROUND_RECOVER_PATH = '/x-playground/recover';

export type FailTarget =
  | { kind: 'pod'; namespace: string; name: string; container?: string; info: ResourceRequestInfo; path: string }
  | { kind: 'node'; name: string; info: ResourceRequestInfo; path: string };

const NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

/** The pod (and container) or node a fail/recover request addresses, from its query. */
export function failTarget(query: URLSearchParams, action: 'fail' | 'recover'): FailTarget {
  const pod = query.get('pod');
  const node = query.get('node');
  const usage = `one of ?pod=<namespace>/<name>[&container=<name>] or ?node=<name> is required, e.g. /x-playground/${action}?pod=default/web-1`;
  if ((pod === null) === (node === null)) throw badRequest(usage);
  if (node !== null) {
    if (!NAME.test(node)) throw badRequest(`${JSON.stringify(node)} is not a node name; ${usage}`);
    const path = `/api/v1/nodes/${node}/status`;
    return { kind: 'node', name: node, info: requestInfo('PUT', path, new URLSearchParams()) as ResourceRequestInfo, path };
  }
  const parts = pod!.split('/');
  if (parts.length !== 2 || !NAME.test(parts[0]) || !NAME.test(parts[1])) throw badRequest(`${JSON.stringify(pod)} is not <namespace>/<name> of a pod; ${usage}`);
  const container = query.get('container') ?? undefined;
  if (container !== undefined && !NAME.test(container)) throw badRequest(`${JSON.stringify(container)} is not a container name`);
  const path = `/api/v1/namespaces/${parts[0]}/pods/${parts[1]}/status`;
  return { kind: 'pod', namespace: parts[0], name: parts[1], container, info: requestInfo('PUT', path, new URLSearchParams()) as ResourceRequestInfo, path };
}

/** The container a pod fault names: the given one (it must be one of the pod's containers) or the first. */
export function faultContainer(pod: KubeObject, container: string | undefined): string {
  const names = (((pod.spec as Record<string, any> | undefined)?.containers ?? []) as { name?: string }[]).map((c) => String(c.name));
  if (container === undefined) {
    if (!names.length) throw badRequest(`pod ${JSON.stringify(pod.metadata?.name)} has no containers`);
    return names[0];
  }
  if (!names.includes(container)) throw badRequest(`container ${container} is not valid for pod ${pod.metadata?.name}`);
  return container;
}

/** The answer: a Success Status saying what was done. */
export function failStatus(action: 'fail' | 'recover', t: FailTarget, container: string | undefined, changed: boolean): unknown {
  let message: string;
  if (t.kind === 'node') {
    message =
      action === 'fail'
        ? changed ? `simulation: the kubelet of node "${t.name}" stopped posting node status and renewing its lease` : `simulation: node "${t.name}" was already failed`
        : changed ? `simulation: the kubelet of node "${t.name}" posts node status and renews its lease again` : `simulation: node "${t.name}" was not failed`;
  } else {
    const what = container ? `container "${container}" of pod "${t.name}" in namespace "${t.namespace}"` : `the containers of pod "${t.name}" in namespace "${t.namespace}"`;
    message =
      action === 'fail'
        ? changed ? `simulation: ${what} now exits with an error (exit code 1) whenever it runs` : `simulation: ${what} was already failing`
        : changed ? `simulation: ${what} ${container ? 'runs' : 'run'} normally again once restarted` : `simulation: ${what} ${container ? 'was' : 'were'} not failing`;
  }
  const details: Record<string, unknown> = { name: t.name, kind: t.kind === 'node' ? 'nodes' : 'pods' };
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', message, details, code: 200 };
}
