// The authorization layer: the request's attributes (RequestInfo), the cluster's authorizer (the
// system:masters group first, then RBAC, as kube-apiserver's union), and the real 403 when the answer is
// not "allow" (responsewriters.ForbiddenStatusError).

import { goQuote } from '../codec/go-format.js';
import { StatusError } from '../errors.js';
import type { KubeObject } from '../object.js';
import { namespacePrefix, objectKey, resourcePrefix } from '../registry/keys.js';
import type { ClusterState } from '../registry/state.js';
import type { RequestInfo } from '../endpoints/request-info.js';
import { canonicalGroup } from '../util/spelling.js';
import type { Attributes, Authorizer, AuthorizerAnswer, RulesAnswer } from './attributes.js';
import { RbacAuthorizer, ruleAllows, rulesOf, type RbacObjects } from './rbac.js';
import { SYSTEM_MASTERS, type UserInfo } from './user.js';

const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** The RBAC objects as the watch cache holds them. */
export function stateRbacObjects(state: ClusterState): RbacObjects {
  const objects = (prefix: string): KubeObject[] => state.list(prefix).map((s) => s.object);
  return {
    clusterRoleBindings: () => objects(resourcePrefix(RBAC_GROUP, 'clusterrolebindings')),
    roleBindings: (ns) => objects(namespacePrefix(RBAC_GROUP, 'rolebindings', ns)),
    clusterRole: (name) => state.get(objectKey(RBAC_GROUP, 'clusterroles', '', name))?.object,
    role: (ns, name) => state.get(objectKey(RBAC_GROUP, 'roles', ns, name))?.object,
  };
}

/** The cluster's authorizer: members of system:masters may do anything; everyone else asks RBAC. */
export class ClusterAuthorizer implements Authorizer {
  readonly rbac: RbacAuthorizer;
  constructor(private readonly objects: RbacObjects) {
    this.rbac = new RbacAuthorizer(objects);
  }

  authorize(a: Attributes): AuthorizerAnswer {
    // authorizerfactory.NewPrivilegedGroups: allow, no reason
    if (a.user.groups.includes(SYSTEM_MASTERS)) return { decision: 'allow', reason: '' };
    // the Node authorizer (simplified): a node's kubelet may do what the system:node ClusterRole allows
    if (a.user.groups.includes('system:nodes') && a.user.name.startsWith('system:node:')) {
      if (rulesOf(this.objects.clusterRole('system:node')).some((rule) => ruleAllows(a, rule))) return { decision: 'allow', reason: '' };
    }
    return this.rbac.authorize(a);
  }

  rulesFor(user: UserInfo, namespace: string): RulesAnswer {
    return this.rbac.rulesFor(user, namespace);
  }
}

/** A Go path segment name check (path.IsValidPathSegmentName) for the name taken from a field selector. */
function validPathSegment(name: string): boolean {
  return name !== '.' && name !== '..' && !name.includes('/') && !name.includes('%');
}

/** The field selector's exact `metadata.name` requirement, if it has one. */
function exactName(selector: string): string | undefined {
  for (const part of selector.split(',')) {
    const m = /^\s*metadata\.name\s*(==|=)\s*(.*?)\s*$/.exec(part);
    if (m) return m[2];
  }
  return undefined;
}

/** GetAuthorizerAttributes: the request's attributes as the real RequestInfo gives them. */
export function requestAttributes(user: UserInfo, info: RequestInfo, path: string, query: URLSearchParams): Attributes {
  if (!info.isResourceRequest) {
    return { user, verb: info.verb, resourceRequest: false, path, apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: '' };
  }
  let name = info.name;
  // the real RequestInfo keeps the namespace of /namespaces/{name}[/status|/finalize]
  const namespace = info.namespace || (info.resource === 'namespaces' && info.group === '' ? info.name : '');
  const attrs: Attributes = {
    user,
    verb: info.verb,
    resourceRequest: true,
    path,
    apiGroup: canonicalGroup(info.group),
    apiVersion: info.version,
    resource: info.resource,
    subresource: info.subresource,
    namespace,
    name,
  };
  if (info.verb === 'list' || info.verb === 'watch' || info.verb === 'deletecollection') {
    const fs = query.get('fieldSelector');
    const ls = query.get('labelSelector');
    if (fs) {
      attrs.fieldSelector = fs;
      if (!name && info.verb !== 'deletecollection') {
        const n = exactName(fs);
        if (n !== undefined && validPathSegment(n)) name = attrs.name = n;
      }
    }
    if (ls) attrs.labelSelector = ls;
  }
  return attrs;
}

const sanitize = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** forbiddenMessage: `User "jane" cannot list resource "pods" in API group "" in the namespace "default"`. */
export function forbiddenMessage(a: Attributes): string {
  const user = goQuote(a.user.name);
  if (!a.resourceRequest) return `User ${user} cannot ${a.verb} path ${goQuote(a.path)}`;
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const where = a.namespace ? `in the namespace ${goQuote(a.namespace)}` : 'at the cluster scope';
  return `User ${user} cannot ${a.verb} resource ${goQuote(resource)} in API group ${goQuote(a.apiGroup)} ${where}`;
}

/** apierrors.NewForbidden: `<resource>[.group] ["name"] is forbidden: <message>`, or `forbidden: ...`. */
export function forbiddenStatus(group: string, resource: string, name: string, message: string, headers: Record<string, string> = {}): StatusError {
  const qualified = resource ? (group ? `${resource}.${group}` : resource) : '';
  const text = !group && !resource ? `forbidden: ${message}` : name ? `${qualified} ${goQuote(name)} is forbidden: ${message}` : `${qualified} is forbidden: ${message}`;
  const details: Record<string, string> = {};
  if (name) details.name = name;
  if (group) details.group = group;
  if (resource) details.kind = resource;
  return new StatusError(
    { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: text, reason: 'Forbidden', details, code: 403 },
    headers,
  );
}

/** ForbiddenStatusError: the request's 403 with the authorizer's reason appended. */
export function forbiddenError(a: Attributes, reason: string): StatusError {
  const msg = sanitize(forbiddenMessage(a));
  return forbiddenStatus(a.apiGroup, a.resource, a.name, reason ? `${msg}: ${reason}` : msg, { 'X-Content-Type-Options': 'nosniff' });
}
