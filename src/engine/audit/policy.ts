// The audit policy [K8S apiserver pkg/audit/policy, apis/audit/validation]: loading a Policy (YAML or JSON),
// validating it with the real messages, and choosing the level of a request: the first rule that matches
// decides; no rule matching means level None. Stages omitted at the top level are added to every rule's.

import { load } from 'js-yaml';
import { GoRepr, fieldErrorString, fieldErr, type FieldError } from '../errors.js';
import { isDNS1123Subdomain } from '../util/validation.js';
import type { Attributes } from '../auth/attributes.js';
import { LEVELS, STAGES, type Level, type Policy, type PolicyRule, type RequestAuditConfig, type Stage } from './types.js';

/** A policy that could not be loaded; the message is kube-apiserver's for the same file. */
export class PolicyError extends Error {}

const goStrings = (v: string[]) => new GoRepr(`[]string{${v.map((s) => JSON.stringify(s)).join(', ')}}`);

function goType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return typeof v;
}

/** The decoder's type check of one field: a list of strings, a string, a bool, a list of objects. */
function typeError(goField: string, goTypeName: string, v: unknown, want: 'strings' | 'string' | 'bool' | 'objects' | 'object'): string | undefined {
  if (v === undefined || v === null) return undefined;
  const bad = `failed decoding: json: cannot unmarshal ${goType(v)} into Go struct field ${goField} of type ${goTypeName}`;
  switch (want) {
    case 'string':
      return typeof v === 'string' ? undefined : bad;
    case 'bool':
      return typeof v === 'boolean' ? undefined : bad;
    case 'object':
      return typeof v === 'object' && !Array.isArray(v) ? undefined : bad;
    case 'strings':
      if (!Array.isArray(v)) return bad;
      for (const x of v) if (typeof x !== 'string') return `failed decoding: json: cannot unmarshal ${goType(x)} into Go struct field ${goField} of type string`;
      return undefined;
    case 'objects':
      if (!Array.isArray(v)) return bad;
      for (const x of v) if (x === null || typeof x !== 'object' || Array.isArray(x)) return `failed decoding: json: cannot unmarshal ${goType(x)} into Go struct field ${goField} of type ${goTypeName.replace(/^\[\]/, '')}`;
      return undefined;
  }
}

/** Decodes a policy document (YAML or JSON) and validates it; throws PolicyError with the real message. */
export function parsePolicy(text: string): Policy {
  let doc: unknown;
  try {
    doc = load(text);
  } catch (e) {
    throw new PolicyError(`failed decoding: ${(e as Error).message.split('\n')[0]}`);
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new PolicyError(`failed decoding: couldn't get version/kind; json parse error: json: cannot unmarshal ${goType(doc)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`);
  const d = doc as Record<string, unknown>;
  const kind = typeof d.kind === 'string' ? d.kind : '';
  const apiVersion = typeof d.apiVersion === 'string' ? d.apiVersion : '';
  if (!kind) throw new PolicyError(`failed decoding: Object 'Kind' is missing in '${JSON.stringify(doc)}'`);
  if (apiVersion !== 'audit.k8s.io/v1' || kind !== 'Policy') {
    throw new PolicyError(`failed decoding: no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)} in scheme "k8s.io/apiserver/pkg/audit/scheme.go:30"`);
  }
  const checks: Array<string | undefined> = [
    typeError('Policy.rules', '[]v1.PolicyRule', d.rules, 'objects'),
    typeError('Policy.omitStages', '[]v1.Stage', d.omitStages, 'strings'),
    typeError('Policy.omitManagedFields', 'bool', d.omitManagedFields, 'bool'),
    typeError('Policy.metadata', 'v1.ObjectMeta', d.metadata, 'object'),
  ];
  const rules = (Array.isArray(d.rules) ? d.rules : []) as Record<string, unknown>[];
  for (const r of rules) {
    if (r === null || typeof r !== 'object') continue;
    checks.push(
      typeError('PolicyRule.rules.level', 'v1.Level', r.level, 'string'),
      typeError('PolicyRule.rules.users', '[]string', r.users, 'strings'),
      typeError('PolicyRule.rules.userGroups', '[]string', r.userGroups, 'strings'),
      typeError('PolicyRule.rules.verbs', '[]string', r.verbs, 'strings'),
      typeError('PolicyRule.rules.resources', '[]v1.GroupResources', r.resources, 'objects'),
      typeError('PolicyRule.rules.namespaces', '[]string', r.namespaces, 'strings'),
      typeError('PolicyRule.rules.nonResourceURLs', '[]string', r.nonResourceURLs, 'strings'),
      typeError('PolicyRule.rules.omitStages', '[]v1.Stage', r.omitStages, 'strings'),
      typeError('PolicyRule.rules.omitManagedFields', 'bool', r.omitManagedFields, 'bool'),
    );
    for (const g of (Array.isArray(r.resources) ? r.resources : []) as Record<string, unknown>[]) {
      if (g === null || typeof g !== 'object') continue;
      checks.push(
        typeError('GroupResources.rules.resources.group', 'string', g.group, 'string'),
        typeError('GroupResources.rules.resources.resources', '[]string', g.resources, 'strings'),
        typeError('GroupResources.rules.resources.resourceNames', '[]string', g.resourceNames, 'strings'),
      );
    }
  }
  const bad = checks.find((c) => c !== undefined);
  if (bad) throw new PolicyError(bad);
  const policy: Policy = {
    apiVersion: 'audit.k8s.io/v1',
    kind: 'Policy',
    rules: rules.map((r) => {
      const out: PolicyRule = { level: (typeof r.level === 'string' ? r.level : '') as Level };
      for (const k of ['users', 'userGroups', 'verbs', 'namespaces', 'nonResourceURLs', 'omitStages'] as const) {
        if (Array.isArray(r[k]) && (r[k] as unknown[]).length) (out as unknown as Record<string, unknown>)[k] = [...(r[k] as string[])];
      }
      if (Array.isArray(r.resources) && r.resources.length) {
        out.resources = (r.resources as Record<string, unknown>[]).map((g) => ({
          ...(typeof g.group === 'string' && g.group ? { group: g.group } : {}),
          ...(Array.isArray(g.resources) && g.resources.length ? { resources: [...(g.resources as string[])] } : {}),
          ...(Array.isArray(g.resourceNames) && g.resourceNames.length ? { resourceNames: [...(g.resourceNames as string[])] } : {}),
        }));
      }
      if (typeof r.omitManagedFields === 'boolean') out.omitManagedFields = r.omitManagedFields;
      return out;
    }),
  };
  if (Array.isArray(d.omitStages) && d.omitStages.length) policy.omitStages = [...(d.omitStages as Stage[])];
  if (d.omitManagedFields === true) policy.omitManagedFields = true;
  const errs = validatePolicy(policy);
  if (errs.length) {
    const msgs = [...new Set(errs.map(fieldErrorString))];
    throw new PolicyError(msgs.length === 1 ? msgs[0] : `[${msgs.join(', ')}]`);
  }
  if (policy.rules.length === 0) throw new PolicyError('loaded illegal policy with 0 rules');
  return policy;
}

/** ValidatePolicy: levels, stages, non-resource URLs and group names, with the real field errors. */
export function validatePolicy(policy: Policy): FieldError[] {
  const errs: FieldError[] = [...validateOmitStages(policy.omitStages ?? [], 'omitStages')];
  policy.rules.forEach((rule, i) => {
    const p = `rules[${i}]`;
    if (rule.level === ('' as Level)) errs.push(fieldErr.required(`${p}.level`));
    else if (!LEVELS.includes(rule.level)) errs.push(fieldErr.notSupported(`${p}.level`, rule.level, LEVELS));
    (rule.nonResourceURLs ?? []).forEach((url, j) => {
      if (url === '*') return;
      if (!url.startsWith('/')) errs.push(fieldErr.invalid(`${p}.nonResourceURLs[${j}]`, url, "non-resource URL rules must begin with a '/' character"));
      if (url !== '' && url.slice(0, -1).includes('*')) errs.push(fieldErr.invalid(`${p}.nonResourceURLs[${j}]`, url, "non-resource URL wildcards '*' must be the final character of the rule"));
    });
    for (const g of rule.resources ?? []) {
      if (g.group && g.group !== '*') {
        const msgs = isDNS1123Subdomain(g.group);
        if (msgs.length) errs.push(fieldErr.invalid(`${p}.resources.group`, g.group, msgs.join(',')));
      }
      if ((g.resourceNames ?? []).length > 0 && (g.resources ?? []).length === 0) {
        errs.push(fieldErr.invalid(`${p}.resources.resourceNames`, goStrings(g.resourceNames!), 'using resourceNames requires at least one resource'));
      }
    }
    errs.push(...validateOmitStages(rule.omitStages ?? [], `${p}.omitStages`));
    if ((rule.nonResourceURLs ?? []).length > 0 && ((rule.resources ?? []).length > 0 || (rule.namespaces ?? []).length > 0)) {
      errs.push(fieldErr.invalid(`${p}.nonResourceURLs`, goStrings(rule.nonResourceURLs!), 'rules cannot apply to both regular resources and non-resource URLs'));
    }
  });
  return errs;
}

function validateOmitStages(stages: string[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  stages.forEach((s, i) => {
    if (!STAGES.includes(s as Stage)) errs.push(fieldErr.invalid(`${path}[${i}]`, s, `allowed stages are ${STAGES.join(',')}`));
  });
  return errs;
}

/** A policy ready to evaluate: every rule's omitted stages include the policy's own. */
export class PolicyEvaluator {
  private readonly rules: Array<PolicyRule & { omitStages: Stage[] }>;
  constructor(readonly policy: Policy) {
    this.rules = policy.rules.map((r) => ({ ...r, omitStages: [...new Set([...(policy.omitStages ?? []), ...(r.omitStages ?? [])])] }));
  }

  /**
   * EvaluatePolicyRule: the first matching rule's level, omitted stages and managed-fields choice.
   * `authenticated` false: the request failed authentication and has no user.
   */
  evaluate(a: Attributes, authenticated = true): RequestAuditConfig {
    for (const r of this.rules) {
      if (ruleMatches(r, a, authenticated ? a.user : undefined)) {
        return { level: r.level, omitStages: r.omitStages, omitManagedFields: r.omitManagedFields ?? this.policy.omitManagedFields ?? false };
      }
    }
    return { level: 'None', omitStages: this.policy.omitStages ?? [], omitManagedFields: this.policy.omitManagedFields ?? false };
  }
}

/**
 * Whether a rule applies. `a.user` may be absent (a request that failed authentication): rules naming users
 * or groups then never match.
 */
export function ruleMatches(r: PolicyRule, a: Attributes, user: Attributes['user'] | undefined = a.user): boolean {
  if (r.users?.length && (!user || !r.users.includes(user.name))) return false;
  if (r.userGroups?.length && (!user || !user.groups.some((g) => r.userGroups!.includes(g)))) return false;
  if (r.verbs?.length && !r.verbs.includes(a.verb)) return false;
  if (r.namespaces?.length || r.resources?.length) return resourceMatches(r, a);
  if (r.nonResourceURLs?.length) return !a.resourceRequest && r.nonResourceURLs.some((u) => pathMatches(a.path, u));
  return true;
}

function pathMatches(path: string, spec: string): boolean {
  if (spec === '*' || spec === path) return true;
  return spec.endsWith('*') && path.startsWith(spec.replace(/\*+$/, ''));
}

function resourceMatches(r: PolicyRule, a: Attributes): boolean {
  if (!a.resourceRequest) return false;
  if (r.namespaces?.length && !r.namespaces.includes(a.namespace)) return false;
  if (!r.resources?.length) return true;
  const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  for (const g of r.resources) {
    if ((g.group ?? '') !== a.apiGroup && g.group !== '*') continue;
    if (!g.resources?.length) return true;
    for (const res of g.resources) {
      if (g.resourceNames?.length && !g.resourceNames.includes(a.name)) continue;
      if (res === combined || res === '*') return true;
      if (a.subresource && res.startsWith('*/') && a.subresource === res.slice(2)) return true;
      if (res.endsWith('/*') && a.resource === res.slice(0, -2)) return true;
    }
  }
  return false;
}

/**
 * The playground's policy when its settings name none: nothing for reads (get, list, watch) and for the
 * cluster's own components (controllers, scheduler, nodes, the API server itself); metadata only for
 * secrets and token reviews (their bodies hold credentials); both bodies for every other write; metadata
 * for the rest. The RequestReceived stage and managedFields are left out.
 */
export const PLAYGROUND_DEFAULT_POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
omitManagedFields: true
rules:
- level: None
  verbs: [get, list, watch]
- level: None
  userGroups: [system:serviceaccounts:kube-system, system:nodes]
- level: None
  users: [system:apiserver, system:kube-scheduler, system:kube-controller-manager]
- level: Metadata
  resources:
  - group: ""
    resources: [secrets]
  - group: authentication.k8s.io
    resources: [tokenreviews]
- level: RequestResponse
  verbs: [create, update, patch, delete, deletecollection]
- level: Metadata
`;
