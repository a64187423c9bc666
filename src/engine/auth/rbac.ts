// The RBAC authorizer (plugin/pkg/auth/authorizer/rbac) and its rule resolver
// (pkg/registry/rbac/validation): bindings that apply to a user, the rules of their roles, rule matching,
// the `RBAC: allowed by ...` reason, resolution errors (`RBAC: clusterrole... not found`), and the
// coverage check behind escalation prevention.

import { goQuote } from '../codec/go-format.js';
import type { KubeObject } from '../object.js';
import type { Attributes, AuthorizerAnswer, PolicyRule, RulesAnswer } from './attributes.js';
import { splitServiceAccountUsername, type UserInfo } from './user.js';

/** Read access to the RBAC objects (the watch cache). */
export interface RbacObjects {
  clusterRoleBindings(): KubeObject[];
  roleBindings(namespace: string): KubeObject[];
  clusterRole(name: string): KubeObject | undefined;
  role(namespace: string, name: string): KubeObject | undefined;
}

interface Subject {
  kind?: string;
  name?: string;
  namespace?: string;
}

interface RoleRef {
  kind?: string;
  name?: string;
  apiGroup?: string;
}

type Visitor = (source: string | undefined, rule: PolicyRule | undefined, err: string | undefined) => boolean;

const arr = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

export function rulesOf(role: KubeObject | undefined): PolicyRule[] {
  const rules = role?.rules;
  if (!Array.isArray(rules)) return [];
  return rules.map((r: Record<string, unknown>) => {
    const out: PolicyRule = { verbs: arr(r?.verbs) };
    if (r?.apiGroups !== undefined) out.apiGroups = arr(r.apiGroups);
    if (r?.resources !== undefined) out.resources = arr(r.resources);
    if (r?.resourceNames !== undefined) out.resourceNames = arr(r.resourceNames);
    if (r?.nonResourceURLs !== undefined) out.nonResourceURLs = arr(r.nonResourceURLs);
    return out;
  });
}

// ---------------------------------------------------------------------------------------------------
// Rule matching (pkg/apis/rbac/v1 evaluation helpers)

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return rule.verbs.some((v) => v === '*' || v === verb);
}

function groupMatches(rule: PolicyRule, group: string): boolean {
  return (rule.apiGroups ?? []).some((g) => g === '*' || g === group);
}

/** `*`, the exact `resource/subresource`, or `*\/subresource` for any resource's subresource. */
function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  for (const r of rule.resources ?? []) {
    if (r === '*' || r === combined) return true;
    if (subresource && r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource)) return true;
  }
  return false;
}

function nameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}

/** A trailing `*` matches every path with that prefix. */
function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  for (const u of rule.nonResourceURLs ?? []) {
    if (u === '*' || u === path) return true;
    if (u.endsWith('*') && path.startsWith(u.replace(/\*+$/, ''))) return true;
  }
  return false;
}

export function ruleAllows(a: Attributes, rule: PolicyRule): boolean {
  if (a.resourceRequest) {
    const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
    return verbMatches(rule, a.verb) && groupMatches(rule, a.apiGroup) && resourceMatches(rule, combined, a.subresource) && nameMatches(rule, a.name);
  }
  return verbMatches(rule, a.verb) && nonResourceURLMatches(rule, a.path);
}

// ---------------------------------------------------------------------------------------------------
// Rule resolution

function appliesToUser(user: UserInfo, s: Subject, namespace: string): boolean {
  switch (s.kind) {
    case 'User':
      return user.name === s.name;
    case 'Group':
      return user.groups.includes(s.name ?? '');
    case 'ServiceAccount': {
      const ns = s.namespace || namespace;
      if (!ns) return false;
      const sa = splitServiceAccountUsername(user.name);
      return !!sa && sa.namespace === ns && sa.name === s.name;
    }
    default:
      return false;
  }
}

function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') return `${s.kind} ${goQuote(`${s.name ?? ''}/${s.namespace || bindingNamespace}`)}`;
  return `${s.kind ?? ''} ${goQuote(s.name ?? '')}`;
}

export class RbacAuthorizer {
  constructor(private readonly objects: RbacObjects) {}

  /** GetRoleReferenceRules, with the listers' not-found message (singular resource name). */
  roleReferenceRules(ref: RoleRef, bindingNamespace: string): { rules: PolicyRule[]; error?: string } {
    if (ref.kind === 'Role') {
      const role = this.objects.role(bindingNamespace, ref.name ?? '');
      if (!role) return { rules: [], error: `role.rbac.authorization.k8s.io ${goQuote(ref.name ?? '')} not found` };
      return { rules: rulesOf(role) };
    }
    if (ref.kind === 'ClusterRole') {
      const role = this.objects.clusterRole(ref.name ?? '');
      if (!role) return { rules: [], error: `clusterrole.rbac.authorization.k8s.io ${goQuote(ref.name ?? '')} not found` };
      return { rules: rulesOf(role) };
    }
    return { rules: [], error: `unsupported role reference kind: ${goQuote(ref.kind ?? '')}` };
  }

  visitRulesFor(user: UserInfo, namespace: string, visit: Visitor): void {
    for (const b of this.objects.clusterRoleBindings()) {
      const subjects = (Array.isArray(b.subjects) ? b.subjects : []) as Subject[];
      const subject = subjects.find((s) => appliesToUser(user, s, ''));
      if (!subject) continue;
      const ref = (b.roleRef ?? {}) as RoleRef;
      const { rules, error } = this.roleReferenceRules(ref, '');
      if (error !== undefined) {
        if (!visit(undefined, undefined, error)) return;
        continue;
      }
      const source = `ClusterRoleBinding ${goQuote(b.metadata?.name ?? '')} of ${ref.kind ?? ''} ${goQuote(ref.name ?? '')} to ${describeSubject(subject, '')}`;
      for (const r of rules) if (!visit(source, r, undefined)) return;
    }
    if (!namespace) return;
    for (const b of this.objects.roleBindings(namespace)) {
      const subjects = (Array.isArray(b.subjects) ? b.subjects : []) as Subject[];
      const subject = subjects.find((s) => appliesToUser(user, s, namespace));
      if (!subject) continue;
      const ref = (b.roleRef ?? {}) as RoleRef;
      const { rules, error } = this.roleReferenceRules(ref, namespace);
      if (error !== undefined) {
        if (!visit(undefined, undefined, error)) return;
        continue;
      }
      const source = `RoleBinding ${goQuote(`${b.metadata?.name ?? ''}/${namespace}`)} of ${ref.kind ?? ''} ${goQuote(ref.name ?? '')} to ${describeSubject(subject, namespace)}`;
      for (const r of rules) if (!visit(source, r, undefined)) return;
    }
  }

  /** Every rule that applies, and the resolution errors met on the way. */
  policyRulesFor(user: UserInfo, namespace: string): { rules: PolicyRule[]; errors: string[] } {
    const rules: PolicyRule[] = [];
    const errors: string[] = [];
    this.visitRulesFor(user, namespace, (_s, rule, err) => {
      if (rule) rules.push(rule);
      if (err !== undefined) errors.push(err);
      return true;
    });
    return { rules, errors };
  }

  authorize(a: Attributes): AuthorizerAnswer {
    let reason = '';
    const errors: string[] = [];
    let allowed = false;
    this.visitRulesFor(a.user, a.namespace, (source, rule, err) => {
      if (rule && ruleAllows(a, rule)) {
        allowed = true;
        reason = `RBAC: allowed by ${source}`;
        return false;
      }
      if (err !== undefined) errors.push(err);
      return true;
    });
    if (allowed) return { decision: 'allow', reason };
    return { decision: 'no-opinion', reason: errors.length ? `RBAC: ${aggregate(errors)}` : '' };
  }

  rulesFor(user: UserInfo, namespace: string): RulesAnswer {
    const { rules, errors } = this.policyRulesFor(user, namespace);
    const out: RulesAnswer = { resourceRules: [], nonResourceRules: [], incomplete: false };
    for (const r of rules) {
      if ((r.resources ?? []).length > 0) {
        out.resourceRules.push({
          verbs: r.verbs,
          apiGroups: r.apiGroups ?? [],
          resources: r.resources ?? [],
          ...((r.resourceNames ?? []).length ? { resourceNames: r.resourceNames } : {}),
        });
      }
      if ((r.nonResourceURLs ?? []).length > 0) out.nonResourceRules.push({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs ?? [] });
    }
    if (errors.length) out.evaluationError = aggregate(errors);
    return out;
  }
}

/** utilerrors.NewAggregate(...).Error(): one message alone, several in brackets. */
export function aggregate(messages: string[]): string {
  const uniq = [...new Set(messages)];
  return uniq.length === 1 ? uniq[0] : `[${uniq.join(', ')}]`;
}

// ---------------------------------------------------------------------------------------------------
// Coverage (component-helpers/auth/rbac/validation Covers) and the compact rule form of the messages

function breakdown(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const g of rule.apiGroups ?? []) {
    for (const r of rule.resources ?? []) {
      for (const v of rule.verbs) {
        if ((rule.resourceNames ?? []).length) {
          for (const n of rule.resourceNames!) out.push({ apiGroups: [g], resources: [r], verbs: [v], resourceNames: [n] });
        } else {
          out.push({ apiGroups: [g], resources: [r], verbs: [v] });
        }
      }
    }
  }
  for (const u of rule.nonResourceURLs ?? []) for (const v of rule.verbs) out.push({ nonResourceURLs: [u], verbs: [v] });
  return out;
}

const hasAll = (set: string[], want: string[]) => want.every((w) => set.includes(w));

function resourcesCover(owner: string[], want: string[]): boolean {
  if (owner.includes('*') || hasAll(owner, want)) return true;
  for (const p of want) {
    if (owner.includes(p)) continue;
    const i = p.indexOf('/');
    if (i < 0) return false;
    if (!owner.includes(`*/${p.slice(i + 1)}`)) return false;
  }
  return true;
}

function urlsCover(owner: string[], want: string[]): boolean {
  return want.every((p) => owner.some((o) => o === p || (o.endsWith('*') && p.startsWith(o.replace(/\*+$/, '')))));
}

function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = owner.verbs.includes('*') || hasAll(owner.verbs, sub.verbs);
  const groups = (owner.apiGroups ?? []).includes('*') || hasAll(owner.apiGroups ?? [], sub.apiGroups ?? []);
  const resources = resourcesCover(owner.resources ?? [], sub.resources ?? []);
  const urls = urlsCover(owner.nonResourceURLs ?? [], sub.nonResourceURLs ?? []);
  const ownerNames = owner.resourceNames ?? [];
  const subNames = sub.resourceNames ?? [];
  const names = subNames.length === 0 ? ownerNames.length === 0 : ownerNames.length === 0 || hasAll(ownerNames, subNames);
  return verbs && groups && resources && urls && names;
}

/** Whether the owner's rules cover the servant's, and the uncovered pieces (one verb/resource/name each). */
export function covers(owner: PolicyRule[], servant: PolicyRule[]): { covered: boolean; missing: PolicyRule[] } {
  const missing: PolicyRule[] = [];
  for (const sub of servant.flatMap(breakdown)) if (!owner.some((o) => ruleCovers(o, sub))) missing.push(sub);
  return { covered: missing.length === 0, missing };
}

/** CompactRules: single group+resource rules differing only by verb become one rule. */
export function compactRules(rules: PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const r of rules) {
    const isSimple = !(r.resourceNames ?? []).length && !(r.nonResourceURLs ?? []).length && (r.apiGroups ?? []).length === 1 && (r.resources ?? []).length === 1;
    if (!isSimple) {
      out.push(r);
      continue;
    }
    const key = `${r.apiGroups![0]}\u0000${r.resources![0]}`;
    const seen = simple.get(key);
    if (seen) seen.verbs = [...seen.verbs, ...r.verbs];
    else simple.set(key, { apiGroups: [...r.apiGroups!], resources: [...r.resources!], verbs: [...r.verbs] });
  }
  return [...out, ...simple.values()];
}

const goStrings = (xs: string[]) => `[${xs.map(goQuote).join(' ')}]`;

/** rbacv1helpers.CompactString: `{APIGroups:["apps"], Resources:["deployments"], Verbs:["get"]}`. */
export function compactString(r: PolicyRule): string {
  const parts: string[] = [];
  if ((r.apiGroups ?? []).length) parts.push(`APIGroups:${goStrings(r.apiGroups!)}`);
  if ((r.resources ?? []).length) parts.push(`Resources:${goStrings(r.resources!)}`);
  if ((r.nonResourceURLs ?? []).length) parts.push(`NonResourceURLs:${goStrings(r.nonResourceURLs!)}`);
  if ((r.resourceNames ?? []).length) parts.push(`ResourceNames:${goStrings(r.resourceNames!)}`);
  if (r.verbs.length) parts.push(`Verbs:${goStrings(r.verbs)}`);
  return `{${parts.join(', ')}}`;
}

export { goStrings };
