// The Kubernetes authorizer library (k8s.io/apiserver/pkg/cel/library/authz.go) over a pluggable
// Authorizer: `authorizer.path(p).check(httpVerb)`,
// `authorizer.group(g).resource(r)[.subresource(s)][.namespace(ns)][.name(n)][.fieldSelector(f)]
// [.labelSelector(l)].check(apiVerb)`, `authorizer.serviceAccount(ns, name)`, and the decision accessors
// allowed(), reason(), errored(), error().

import { isDNS1123Label, isDNS1123Subdomain } from '../../util/validation.js';

export interface AuthorizerAttributes {
  user?: string;
  groups?: string[];
  verb: string;
  group?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  path?: string;
  fieldSelector?: string;
  labelSelector?: string;
  /** True for group/resource checks, false for path checks (authorizer.AttributesRecord.ResourceRequest). */
  resourceRequest?: boolean;
  /** Resource checks ask about every version: "*". */
  apiVersion?: string;
}

export type AuthorizerDecisionKind = 'allow' | 'deny' | 'noopinion';

export interface AuthorizerResult {
  decision: AuthorizerDecisionKind;
  reason: string;
  /** An evaluation error of the authorizer (the decision's `errored()`/`error()`). */
  error?: string;
}

export interface Authorizer {
  authorize(attrs: AuthorizerAttributes): AuthorizerResult;
}

/** The default: every request is allowed. */
export const allowAllAuthorizer: Authorizer = {
  authorize: () => ({ decision: 'allow', reason: '' }),
};

export class AuthzError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuthzError';
  }
}

export interface UserInfo {
  user?: string;
  groups?: string[];
}

export interface AuthorizerValue {
  readonly kind: 'authorizer';
  readonly userInfo: UserInfo;
  readonly authorizer: Authorizer;
}

export interface PathCheckValue {
  readonly kind: 'pathCheck';
  readonly authz: AuthorizerValue;
  readonly path: string;
}

export interface GroupCheckValue {
  readonly kind: 'groupCheck';
  readonly authz: AuthorizerValue;
  readonly group: string;
}

export interface ResourceCheckValue {
  readonly kind: 'resourceCheck';
  readonly groupCheck: GroupCheckValue;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
  readonly fieldSelector: string;
  readonly labelSelector: string;
}

export interface DecisionValue {
  readonly kind: 'decision';
  readonly decision: AuthorizerDecisionKind;
  readonly reason: string;
  readonly error?: string;
}

/** The `authorizer` variable for a requesting user. */
export function newAuthorizer(userInfo: UserInfo, authorizer: Authorizer = allowAllAuthorizer): AuthorizerValue {
  return { kind: 'authorizer', userInfo, authorizer };
}

/** The `authorizer.requestResource` variable: a resource check preset from the request. */
export function newResourceCheck(
  authz: AuthorizerValue,
  r: { group: string; resource: string; subresource?: string; namespace?: string; name?: string },
): ResourceCheckValue {
  return {
    kind: 'resourceCheck',
    groupCheck: { kind: 'groupCheck', authz, group: r.group },
    resource: r.resource,
    subresource: r.subresource ?? '',
    namespace: r.namespace ?? '',
    name: r.name ?? '',
    fieldSelector: '',
    labelSelector: '',
  };
}

// Go strings.TrimSpace whitespace
const isBlank = (s: string) => /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/.test(s);

export function path(a: AuthorizerValue, p: string): PathCheckValue {
  if (isBlank(p)) throw new AuthzError('path must not be empty');
  return { kind: 'pathCheck', authz: a, path: p };
}

export function group(a: AuthorizerValue, g: string): GroupCheckValue {
  return { kind: 'groupCheck', authz: a, group: g };
}

/** `authorizer.serviceAccount(namespace, name)`: checks as system:serviceaccount:<ns>:<name>. */
export function serviceAccount(a: AuthorizerValue, namespace: string, name: string): AuthorizerValue {
  if (isDNS1123Subdomain(name).length > 0) throw new AuthzError('Invalid service account name');
  if (isDNS1123Label(namespace).length > 0) throw new AuthzError('Invalid service account namespace');
  return {
    kind: 'authorizer',
    userInfo: {
      user: `system:serviceaccount:${namespace}:${name}`,
      groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`],
    },
    authorizer: a.authorizer,
  };
}

export function resource(g: GroupCheckValue, r: string): ResourceCheckValue {
  if (isBlank(r)) throw new AuthzError('resource must not be empty');
  return { kind: 'resourceCheck', groupCheck: g, resource: r, subresource: '', namespace: '', name: '', fieldSelector: '', labelSelector: '' };
}

export function subresource(r: ResourceCheckValue, s: string): ResourceCheckValue {
  return { ...r, subresource: s };
}
export function namespace(r: ResourceCheckValue, ns: string): ResourceCheckValue {
  return { ...r, namespace: ns };
}
export function name(r: ResourceCheckValue, n: string): ResourceCheckValue {
  return { ...r, name: n };
}
export function fieldSelector(r: ResourceCheckValue, s: string): ResourceCheckValue {
  return { ...r, fieldSelector: s };
}
export function labelSelector(r: ResourceCheckValue, s: string): ResourceCheckValue {
  return { ...r, labelSelector: s };
}

function decide(authorizer: Authorizer, attrs: AuthorizerAttributes): DecisionValue {
  try {
    const r = authorizer.authorize(attrs);
    return { kind: 'decision', decision: r.decision, reason: r.reason, ...(r.error !== undefined ? { error: r.error } : {}) };
  } catch (e) {
    return { kind: 'decision', decision: 'noopinion', reason: '', error: e instanceof Error ? e.message : String(e) };
  }
}

function userAttrs(u: UserInfo): Pick<AuthorizerAttributes, 'user' | 'groups'> {
  return { ...(u.user !== undefined ? { user: u.user } : {}), ...(u.groups !== undefined ? { groups: u.groups } : {}) };
}

/** `<PathCheck>.check(httpVerb)`. */
export function checkPath(p: PathCheckValue, verb: string): DecisionValue {
  return decide(p.authz.authorizer, { ...userAttrs(p.authz.userInfo), verb, path: p.path, resourceRequest: false });
}

/** `<ResourceCheck>.check(apiVerb)`: selectors are passed when non-empty (AuthorizeWithSelectors). */
export function checkResource(r: ResourceCheckValue, verb: string): DecisionValue {
  const authz = r.groupCheck.authz;
  const attrs: AuthorizerAttributes = {
    ...userAttrs(authz.userInfo),
    verb,
    resourceRequest: true,
    apiVersion: '*',
    group: r.groupCheck.group,
    resource: r.resource,
    subresource: r.subresource,
    namespace: r.namespace,
    name: r.name,
  };
  if (r.fieldSelector !== '') attrs.fieldSelector = r.fieldSelector;
  if (r.labelSelector !== '') attrs.labelSelector = r.labelSelector;
  return decide(authz.authorizer, attrs);
}

export function allowed(d: DecisionValue): boolean {
  return d.decision === 'allow';
}
export function reason(d: DecisionValue): string {
  return d.reason;
}
export function errored(d: DecisionValue): boolean {
  return d.error !== undefined;
}
export function error(d: DecisionValue): string {
  return d.error ?? '';
}
