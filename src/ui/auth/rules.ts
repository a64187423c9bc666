// RBAC rule matching on the UI side, for explaining a 403: which rules (of which Roles and ClusterRoles)
// would allow a request, and a binding that would grant it. The UI reaches the engine only over HTTP, so
// this restates the authorizer's matching rules (docs/design.md section 10) over objects it has listed.

/** The authorization attributes of a request, as a 403 message names them. */
export interface RequestAttributes {
  verb: string;
  /** true for `/api`, `/apis` resource paths; false for a non-resource URL such as `/healthz`. */
  resourceRequest: boolean;
  apiGroup: string;
  /** the resource, without its subresource */
  resource: string;
  subresource: string;
  namespace: string;
  /** the object's name ('' for a collection) */
  name: string;
  /** the path (non-resource requests) */
  path: string;
}

export interface PolicyRule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** The rules of a Role or ClusterRole object, with non-string entries dropped. */
export function rulesOf(role: unknown): PolicyRule[] {
  const rules = (role as { rules?: unknown } | null)?.rules;
  if (!Array.isArray(rules)) return [];
  return rules.map((r: Record<string, unknown> | null) => ({
    verbs: list(r?.verbs),
    apiGroups: list(r?.apiGroups),
    resources: list(r?.resources),
    resourceNames: list(r?.resourceNames),
    nonResourceURLs: list(r?.nonResourceURLs),
  }));
}

const verbMatches = (rule: PolicyRule, verb: string) => (rule.verbs ?? []).some((v) => v === '*' || v === verb);
const groupMatches = (rule: PolicyRule, group: string) => (rule.apiGroups ?? []).some((g) => g === '*' || g === group);

/** `*` matches every resource and subresource; `pods/log` only that subresource; `*\/scale` any resource's scale. */
function resourceMatches(rule: PolicyRule, resource: string, subresource: string): boolean {
  const combined = subresource ? `${resource}/${subresource}` : resource;
  return (rule.resources ?? []).some((r) => r === '*' || r === combined || (subresource !== '' && r === `*/${subresource}`));
}

/** An empty resourceNames matches every name; a list matches only a request that names one of them. */
const nameMatches = (rule: PolicyRule, name: string) => (rule.resourceNames ?? []).length === 0 || (rule.resourceNames ?? []).includes(name);

/** `*` or the exact path, or a prefix ending in `*`. */
function urlMatches(rule: PolicyRule, path: string): boolean {
  return (rule.nonResourceURLs ?? []).some((u) => u === '*' || u === path || (u.endsWith('*') && path.startsWith(u.slice(0, -1))));
}

export function ruleAllows(a: RequestAttributes, rule: PolicyRule): boolean {
  if (!verbMatches(rule, a.verb)) return false;
  if (!a.resourceRequest) return urlMatches(rule, a.path);
  return groupMatches(rule, a.apiGroup) && resourceMatches(rule, a.resource, a.subresource) && nameMatches(rule, a.name);
}

export interface RoleMatch {
  kind: 'Role' | 'ClusterRole';
  name: string;
  /** the Role's namespace */
  namespace?: string;
  /** the rules of the role that allow the request */
  rules: PolicyRule[];
  /** how much the role grants beyond this request (smaller is narrower); `*` counts large */
  breadth: number;
}

function breadthOf(rules: PolicyRule[]): number {
  const size = (xs: string[] | undefined) => ((xs ?? []).includes('*') ? 1000 : Math.max(1, (xs ?? []).length));
  return rules.reduce((n, r) => n + size(r.verbs) * size(r.resources ?? r.nonResourceURLs) * size(r.apiGroups), 0);
}

interface RoleObject {
  metadata?: { name?: string; namespace?: string };
  rules?: unknown;
}

/**
 * The Roles (of the request's namespace) and ClusterRoles with a rule allowing `a`, narrowest first: Roles,
 * then ClusterRoles not named `system:...`, each by breadth. A cluster-scoped or non-resource request is
 * granted only by a ClusterRole (bound with a ClusterRoleBinding).
 */
export function rolesAllowing(a: RequestAttributes, clusterRoles: RoleObject[], roles: RoleObject[] = []): RoleMatch[] {
  const out: RoleMatch[] = [];
  const consider = (kind: RoleMatch['kind'], o: RoleObject) => {
    const all = rulesOf(o);
    const allowing = all.filter((r) => ruleAllows(a, r));
    if (allowing.length === 0) return;
    const m: RoleMatch = { kind, name: o.metadata?.name ?? '', rules: allowing, breadth: breadthOf(all) };
    if (kind === 'Role') m.namespace = o.metadata?.namespace;
    out.push(m);
  };
  if (a.resourceRequest && a.namespace) for (const r of roles) if ((r.metadata?.namespace ?? a.namespace) === a.namespace) consider('Role', r);
  for (const r of clusterRoles) consider('ClusterRole', r);
  const rank = (m: RoleMatch) => (m.kind === 'Role' ? 0 : m.name.startsWith('system:') ? 2 : 1);
  return out.sort((x, y) => rank(x) - rank(y) || x.breadth - y.breadth || x.name.localeCompare(y.name));
}

/** A subject of a binding, from a user name (`system:serviceaccount:ns:name` is a ServiceAccount). */
export function subjectFor(user: string): { kind: 'User' | 'ServiceAccount'; name: string; namespace?: string; apiGroup?: string } {
  const sa = /^system:serviceaccount:([^:]+):([^:]+)$/.exec(user);
  if (sa) return { kind: 'ServiceAccount', name: sa[2], namespace: sa[1] };
  return { kind: 'User', name: user, apiGroup: 'rbac.authorization.k8s.io' };
}

/** A DNS-subdomain name for a binding: lowercase, `[a-z0-9.-]`, at most 253 characters. */
export function bindingName(user: string, role: string): string {
  const subject = subjectFor(user);
  const raw = `${subject.name}-${role}`
    .toLowerCase()
    .replace(/[^a-z0-9.-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, '');
  return (raw || 'binding').slice(0, 253).replace(/[^a-z0-9]+$/, '');
}

function quoteYaml(s: string): string {
  return /^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(s) && !/^(true|false|null|yes|no|on|off|~)$/i.test(s) && !/^[0-9.]+$/.test(s) ? s : JSON.stringify(s);
}

function subjectYaml(user: string, indent: string): string {
  const s = subjectFor(user);
  const lines = [`${indent}- kind: ${s.kind}`, `${indent}  name: ${quoteYaml(s.name)}`];
  if (s.namespace) lines.push(`${indent}  namespace: ${quoteYaml(s.namespace)}`);
  if (s.apiGroup) lines.push(`${indent}  apiGroup: ${s.apiGroup}`);
  return lines.join('\n');
}

function ruleYaml(a: RequestAttributes): string {
  if (!a.resourceRequest) return [`- nonResourceURLs: [${quoteYaml(a.path)}]`, `  verbs: [${quoteYaml(a.verb)}]`].join('\n');
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const lines = [`- apiGroups: [${JSON.stringify(a.apiGroup)}]`, `  resources: [${quoteYaml(resource)}]`];
  if (a.name) lines.push(`  resourceNames: [${quoteYaml(a.name)}]`);
  lines.push(`  verbs: [${quoteYaml(a.verb)}]`);
  return lines.join('\n');
}

/**
 * A manifest that would grant `a` to `user`: a RoleBinding in the request's namespace (a ClusterRoleBinding
 * for a cluster-scoped or non-resource request) to `role`, or, without a role, a new Role (ClusterRole)
 * holding exactly the needed rule followed by its binding.
 */
export function suggestBinding(a: RequestAttributes, user: string, role?: { kind: 'Role' | 'ClusterRole'; name: string }): string {
  const namespaced = a.resourceRequest && a.namespace !== '';
  const docs: string[] = [];
  let ref = role;
  let name = ref ? bindingName(user, ref.name) : '';
  if (!ref) {
    const what = !a.resourceRequest ? 'path' : a.subresource ? `${a.resource}-${a.subresource}` : a.resource;
    // the new role is the user's own: the binding takes its name
    name = bindingName(user, `${a.verb}-${what}`);
    ref = { kind: namespaced ? 'Role' : 'ClusterRole', name };
    const meta = namespaced ? [`  name: ${name}`, `  namespace: ${quoteYaml(a.namespace)}`] : [`  name: ${name}`];
    docs.push(['apiVersion: rbac.authorization.k8s.io/v1', `kind: ${ref.kind}`, 'metadata:', ...meta, 'rules:', ruleYaml(a)].join('\n'));
  }
  const meta = namespaced ? [`  name: ${name}`, `  namespace: ${quoteYaml(a.namespace)}`] : [`  name: ${name}`];
  docs.push(
    [
      'apiVersion: rbac.authorization.k8s.io/v1',
      `kind: ${namespaced ? 'RoleBinding' : 'ClusterRoleBinding'}`,
      'metadata:',
      ...meta,
      'subjects:',
      subjectYaml(user, ''),
      'roleRef:',
      '  apiGroup: rbac.authorization.k8s.io',
      `  kind: ${ref.kind}`,
      `  name: ${quoteYaml(ref.name)}`,
    ].join('\n'),
  );
  return `${docs.join('\n---\n')}\n`;
}
