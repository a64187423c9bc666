// Which requests a policy's matchConstraints (and a binding's matchResources) select [K8S
// admission/plugin/policy/matching, webhook/predicates/{namespace,object,rules}]: the namespace selector
// (on the namespace's labels; a namespace's own labels when it is the object being created or updated),
// the object selector (new or old object), excludeResourceRules, then resourceRules; with matchPolicy
// Equivalent a rule naming another served version of the same resource matches too (the request is then
// seen as that version).

import type { KubeObject } from '../../object.js';
import { isEmptySelector, selectorMatches } from '../../resources/common/labels.js';

export interface GVR {
  group: string;
  version: string;
  resource: string;
}
export interface GVK {
  group: string;
  version: string;
  kind: string;
}

export type PolicyOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/** The request as matching sees it (admission.Attributes). */
export interface MatchAttributes {
  operation: PolicyOperation;
  resource: GVR;
  subresource: string;
  /** '' for cluster-scoped objects; a namespace's own name for updates and deletes of it. */
  namespace: string;
  name: string;
  kind: GVK;
  object: KubeObject | null;
  oldObject: KubeObject | null;
}

export interface MatchContext {
  /** The labels of a namespace; undefined when it does not exist. */
  namespaceLabels(name: string): Record<string, string> | undefined;
  /** Other served versions of the same resource (EquivalentResourcesFor), with their kinds. */
  equivalents(resource: GVR, subresource: string): { resource: GVR; kind: GVK }[];
}

/** An error of matching (e.g. a namespace not found): reported per the policy's failurePolicy. */
export class MatchError extends Error {}

type Obj = Record<string, unknown>;
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const strs = (v: unknown): string[] => arr(v).map(String);

export type MatchResult = { matches: false } | { matches: true; resource: GVR; kind: GVK };

const NO_MATCH: MatchResult = { matches: false };

function exactOrWildcard(items: string[], requested: string): boolean {
  return items.some((i) => i === '*' || i === requested);
}

/** rules.Matcher.Matches: scope, operation, group, version, resource[/subresource]. */
export function ruleMatches(rule: Obj, a: MatchAttributes, resource: GVR = a.resource): boolean {
  const scope = rule.scope === undefined || rule.scope === null ? '*' : String(rule.scope);
  const isNamespaceResource = resource.group === '' && resource.version === 'v1' && resource.resource === 'namespaces';
  if (scope === 'Namespaced' && (isNamespaceResource || a.namespace === '')) return false;
  if (scope === 'Cluster' && !(isNamespaceResource || a.namespace === '')) return false;
  if (scope !== '*' && scope !== 'Namespaced' && scope !== 'Cluster') return false;
  if (!strs(rule.operations).some((op) => op === '*' || op === a.operation)) return false;
  if (!exactOrWildcard(strs(rule.apiGroups), resource.group)) return false;
  if (!exactOrWildcard(strs(rule.apiVersions), resource.version)) return false;
  return strs(rule.resources).some((r) => {
    const i = r.indexOf('/');
    const res = i < 0 ? r : r.slice(0, i);
    const sub = i < 0 ? '' : r.slice(i + 1);
    return (res === '*' || res === resource.resource) && (sub === '*' || sub === a.subresource);
  });
}

function nameMatches(rule: Obj, a: MatchAttributes): boolean {
  const names = strs(rule.resourceNames);
  return names.length === 0 || names.includes(a.name);
}

function matchesResourceRules(rules: unknown[], matchPolicy: unknown, a: MatchAttributes, m: MatchContext): MatchResult {
  for (const r of rules) {
    const rule = (r ?? {}) as Obj;
    if (ruleMatches(rule, a) && nameMatches(rule, a)) return { matches: true, resource: a.resource, kind: a.kind };
  }
  if (matchPolicy === undefined || matchPolicy === null || matchPolicy === 'Exact') return NO_MATCH;
  const equivalents = m.equivalents(a.resource, a.subresource);
  for (const r of rules) {
    const rule = (r ?? {}) as Obj;
    for (const eq of equivalents) {
      if (ruleMatches(rule, a, eq.resource) && nameMatches(rule, a)) return { matches: true, resource: eq.resource, kind: eq.kind };
    }
  }
  return NO_MATCH;
}

function namespaceSelectorMatches(sel: unknown, a: MatchAttributes, m: MatchContext): boolean {
  if (a.namespace === '' && a.resource.resource !== 'namespaces') return true;
  if (isEmptySelector(sel)) return true;
  if (sel === undefined || sel === null) return false;
  let labels: Record<string, string> | undefined;
  if (a.resource.resource === 'namespaces' && a.subresource === '' && (a.operation === 'CREATE' || a.operation === 'UPDATE')) {
    labels = (a.object?.metadata?.labels ?? {}) as Record<string, string>;
  } else {
    labels = m.namespaceLabels(a.namespace);
    if (labels === undefined) throw new MatchError(`namespaces "${a.namespace}" not found`);
  }
  return selectorMatches(sel, labels);
}

function objectSelectorMatches(sel: unknown, a: MatchAttributes): boolean {
  if (isEmptySelector(sel)) return true;
  const on = (o: KubeObject | null) => !!o && selectorMatches(sel, o.metadata?.labels ?? {});
  return on(a.object) || on(a.oldObject);
}

/**
 * matching.Matcher.Matches over one MatchResources. Throws MatchError when the namespace selector cannot
 * be evaluated and the rules would match.
 */
export function matchResources(mr: Obj, a: MatchAttributes, m: MatchContext): MatchResult {
  let nsError: MatchError | undefined;
  try {
    if (!namespaceSelectorMatches(mr.namespaceSelector, a, m)) return NO_MATCH;
  } catch (e) {
    if (!(e instanceof MatchError)) throw e;
    nsError = e;
  }
  if (!objectSelectorMatches(mr.objectSelector, a)) return NO_MATCH;
  if (matchesResourceRules(arr(mr.excludeResourceRules), mr.matchPolicy, a, m).matches) return NO_MATCH;
  const rules = arr(mr.resourceRules);
  const r = rules.length === 0 ? ({ matches: true, resource: a.resource, kind: a.kind } as MatchResult) : matchesResourceRules(rules, mr.matchPolicy, a, m);
  if (!r.matches) return NO_MATCH;
  if (nsError) throw nsError;
  return r;
}
