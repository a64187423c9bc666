// Admission webhook configurations (admissionregistration.k8s.io/v1): the v1 defaults (SetDefaults_*Webhook,
// SetDefaults_Rule, SetDefaults_ServiceReference) and ValidateValidatingWebhookConfiguration /
// ValidateMutatingWebhookConfiguration with the options of create and of update (an update keeps accepting
// what the stored configuration already had: side effects, review versions, duplicate names).

import { fieldErr, GoRepr, type FieldError } from '../../errors.js';
import { goQuote } from '../../codec/go-format.js';
import type { KubeObject } from '../../object.js';
import { isDNS1035Label, isDNS1123Subdomain, isValidPortNum } from '../../util/validation.js';
import { validateLabelSelector } from './labels.js';
import { a, o, str } from './printers.js';

type Obj = Record<string, unknown>;

const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const ALL_SIDE_EFFECTS = ['None', 'NoneOnDryRun', 'Some', 'Unknown'];
const NO_SIDE_EFFECTS = ['None', 'NoneOnDryRun'];
const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const REINVOCATION = ['IfNeeded', 'Never'];
const SCOPES = ['*', 'Cluster', 'Namespaced'];
const REVIEW_VERSIONS = ['v1', 'v1beta1'];

export function defaultWebhooks(obj: KubeObject, mutating: boolean): void {
  for (const h of a(obj.webhooks)) {
    h.failurePolicy ??= 'Fail';
    h.matchPolicy ??= 'Equivalent';
    h.namespaceSelector ??= {};
    h.objectSelector ??= {};
    h.timeoutSeconds ??= 10;
    if (mutating) h.reinvocationPolicy ??= 'Never';
    for (const r of a(h.rules)) r.scope ??= '*';
    const svc = o(h.clientConfig).service;
    if (svc && typeof svc === 'object') (svc as Obj).port ??= 443;
  }
}

interface Options {
  requireNoSideEffects: boolean;
  requireRecognizedReviewVersion: boolean;
  requireUniqueNames: boolean;
}

const createOptions: Options = { requireNoSideEffects: true, requireRecognizedReviewVersion: true, requireUniqueNames: true };

function updateOptions(old: KubeObject): Options {
  const hooks = a(old.webhooks);
  const names = hooks.map((h) => str(h.name));
  return {
    requireNoSideEffects: hooks.every((h) => NO_SIDE_EFFECTS.includes(str(h.sideEffects))),
    requireRecognizedReviewVersion: hooks.every((h) => !a(h.admissionReviewVersions).length || (h.admissionReviewVersions as unknown[]).some((v) => REVIEW_VERSIONS.includes(String(v)))),
    requireUniqueNames: new Set(names).size === names.length,
  };
}

const hasStar = (l: unknown[]) => l.includes('*');
/** A slice as the real errors print it (%#v of the internal type). */
const goSlice = (type: string, l: string[]) => new GoRepr(`[]${type}{${l.map(goQuote).join(', ')}}`);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

function validateResources(resources: string[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!resources.length) errs.push(fieldErr.required(path));
  const wildSub = new Set<string>();
  const wildRes = new Set<string>();
  let double = false;
  let single = false;
  let plain = false;
  resources.forEach((r, i) => {
    if (r === '') {
      errs.push(fieldErr.required(`${path}[${i}]`));
      return;
    }
    if (r === '*/*') double = true;
    if (r === '*') single = true;
    const slash = r.indexOf('/');
    if (slash < 0) {
      plain = r !== '*';
      return;
    }
    const res = r.slice(0, slash);
    const sub = r.slice(slash + 1);
    if (wildSub.has(res)) errs.push(fieldErr.invalid(`${path}[${i}]`, r, `if '${res}/*' is present, must not specify ${r}`));
    if (wildRes.has(sub)) errs.push(fieldErr.invalid(`${path}[${i}]`, r, `if '*/${sub}' is present, must not specify ${r}`));
    if (sub === '*') wildSub.add(res);
    if (res === '*') wildRes.add(sub);
  });
  if (resources.length > 1 && double) errs.push(fieldErr.invalid(path, goSlice('string', resources), "if '*/*' is present, must not specify other resources"));
  if (single && plain) errs.push(fieldErr.invalid(path, goSlice('string', resources), "if '*' is present, must not specify other resources without subresources"));
  return errs;
}

function validateRule(rule: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const ops = strings(rule.operations);
  if (!ops.length) errs.push(fieldErr.required(`${path}.operations`));
  if (ops.length > 1 && hasStar(ops)) errs.push(fieldErr.invalid(`${path}.operations`, goSlice('admissionregistration.OperationType', ops), "if '*' is present, must not specify other operations"));
  ops.forEach((op, i) => {
    if (!OPERATIONS.includes(op)) errs.push(fieldErr.notSupported(`${path}.operations[${i}]`, op, OPERATIONS));
  });
  const groups = strings(rule.apiGroups);
  if (!groups.length) errs.push(fieldErr.required(`${path}.apiGroups`));
  if (groups.length > 1 && hasStar(groups)) errs.push(fieldErr.invalid(`${path}.apiGroups`, goSlice('string', groups), "if '*' is present, must not specify other API groups"));
  const versions = strings(rule.apiVersions);
  if (!versions.length) errs.push(fieldErr.required(`${path}.apiVersions`));
  if (versions.length > 1 && hasStar(versions)) errs.push(fieldErr.invalid(`${path}.apiVersions`, goSlice('string', versions), "if '*' is present, must not specify other API versions"));
  versions.forEach((v, i) => {
    if (v === '') errs.push(fieldErr.required(`${path}.apiVersions[${i}]`));
  });
  errs.push(...validateResources(strings(rule.resources), `${path}.resources`));
  if (rule.scope !== undefined && rule.scope !== null && !SCOPES.includes(str(rule.scope))) errs.push(fieldErr.notSupported(`${path}.scope`, rule.scope, SCOPES));
  return errs;
}

/** utilvalidation.IsFullyQualifiedName. */
function fullyQualified(name: string, path: string): FieldError[] {
  if (!name) return [fieldErr.required(path)];
  const dns = isDNS1123Subdomain(name);
  if (dns.length) return [fieldErr.invalid(path, name, dns.join(','))];
  if (name.split('.').length < 3) return [fieldErr.invalid(path, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}

/** webhook.ValidateWebhookURL with https required. */
function validateURL(raw: string, path: string): FieldError[] {
  const form = '; desired format: https://host[/path]';
  const errs: FieldError[] = [];
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):(.*)$/.exec(raw);
  const scheme = m ? m[1].toLowerCase() : '';
  let rest = m ? m[2] : raw;
  let fragment = '';
  const hash = rest.indexOf('#');
  if (hash >= 0) {
    fragment = rest.slice(hash + 1);
    rest = rest.slice(0, hash);
  }
  let query = '';
  const q = rest.indexOf('?');
  if (q >= 0) {
    query = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  let host = '';
  let user: string | undefined;
  if (rest.startsWith('//')) {
    const authority = rest.slice(2).split('/')[0];
    const at = authority.lastIndexOf('@');
    if (at >= 0) {
      user = authority.slice(0, at);
      host = authority.slice(at + 1);
    } else host = authority;
  }
  if (scheme !== 'https') errs.push(fieldErr.invalid(path, scheme, `'https' is the only allowed URL scheme${form}`));
  if (!host) errs.push(fieldErr.invalid(path, host, `host must be specified${form}`));
  if (user !== undefined) errs.push(fieldErr.invalid(path, user, 'user information is not permitted in the URL'));
  if (fragment) errs.push(fieldErr.invalid(path, fragment, 'fragments are not permitted in the URL'));
  if (query) errs.push(fieldErr.invalid(path, query, 'query parameters are not permitted in the URL'));
  return errs;
}

function validateService(svc: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!str(svc.name)) errs.push(fieldErr.required(`${path}.name`, 'service name is required'));
  if (!str(svc.namespace)) errs.push(fieldErr.required(`${path}.namespace`, 'service namespace is required'));
  const port = typeof svc.port === 'number' ? svc.port : 0;
  const pe = isValidPortNum(port);
  if (pe.length) errs.push(fieldErr.invalid(`${path}.port`, port, `port is not valid: ${pe.join(', ')}`));
  if (svc.path === undefined || svc.path === null) return errs;
  const p = str(svc.path);
  if (p === '/' || p === '') return errs;
  if (p === '//') return [...errs, fieldErr.invalid(`${path}.path`, p, 'segment[0] may not be empty')];
  if (!p.startsWith('/')) errs.push(fieldErr.invalid(`${path}.path`, p, "must start with a '/'"));
  let check = p.slice(1);
  if (check.endsWith('/')) check = check.slice(0, -1);
  check.split('/').forEach((step, i) => {
    if (!step) {
      errs.push(fieldErr.invalid(`${path}.path`, p, `segment[${i}] may not be empty`));
      return;
    }
    for (const f of isDNS1123Subdomain(step)) errs.push(fieldErr.invalid(`${path}.path`, p, `segment[${i}]: ${f}`));
  });
  return errs;
}

function validateMatchConditions(conds: Obj[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (conds.length > 64) errs.push(fieldErr.tooMany(path, conds.length, 64));
  const seen = new Set<string>();
  conds.forEach((c, i) => {
    const name = str(c.name);
    if (!name) errs.push(fieldErr.required(`${path}[${i}].name`));
    else if (seen.has(name)) errs.push(fieldErr.duplicate(`${path}[${i}].name`, name));
    seen.add(name);
    if (!str(c.expression).trim()) errs.push(fieldErr.required(`${path}[${i}].expression`));
  });
  return errs;
}

function validateWebhook(h: Obj, path: string, opts: Options, mutating: boolean): FieldError[] {
  const errs = fullyQualified(str(h.name), `${path}.name`);
  a(h.rules).forEach((r, i) => errs.push(...validateRule(r, `${path}.rules[${i}]`)));
  if (h.failurePolicy !== undefined && !FAILURE_POLICIES.includes(str(h.failurePolicy))) errs.push(fieldErr.notSupported(`${path}.failurePolicy`, h.failurePolicy, FAILURE_POLICIES));
  if (h.matchPolicy !== undefined && !MATCH_POLICIES.includes(str(h.matchPolicy))) errs.push(fieldErr.notSupported(`${path}.matchPolicy`, h.matchPolicy, MATCH_POLICIES));
  const sideEffects = opts.requireNoSideEffects ? NO_SIDE_EFFECTS : ALL_SIDE_EFFECTS;
  if (h.sideEffects === undefined || h.sideEffects === null) errs.push(fieldErr.required(`${path}.sideEffects`, `must specify one of ${sideEffects.join(', ')}`));
  else if (!sideEffects.includes(str(h.sideEffects))) errs.push(fieldErr.notSupported(`${path}.sideEffects`, h.sideEffects, sideEffects));
  if (typeof h.timeoutSeconds === 'number' && (h.timeoutSeconds > 30 || h.timeoutSeconds < 1)) errs.push(fieldErr.invalid(`${path}.timeoutSeconds`, h.timeoutSeconds, 'the timeout value must be between 1 and 30 seconds'));
  if (h.namespaceSelector) errs.push(...validateLabelSelector(h.namespaceSelector, `${path}.namespaceSelector`));
  if (h.objectSelector) errs.push(...validateLabelSelector(h.objectSelector, `${path}.objectSelector`));
  if (mutating && h.reinvocationPolicy !== undefined && !REINVOCATION.includes(str(h.reinvocationPolicy))) errs.push(fieldErr.notSupported(`${path}.reinvocationPolicy`, h.reinvocationPolicy, REINVOCATION));
  const cc = o(h.clientConfig);
  const hasUrl = cc.url !== undefined && cc.url !== null;
  const hasSvc = cc.service !== undefined && cc.service !== null;
  if (hasUrl === hasSvc) errs.push(fieldErr.required(`${path}.clientConfig`, 'exactly one of url or service is required'));
  else if (hasUrl) errs.push(...validateURL(str(cc.url), `${path}.clientConfig.url`));
  else errs.push(...validateService(o(cc.service), `${path}.clientConfig.service`));
  errs.push(...validateMatchConditions(a(h.matchConditions), `${path}.matchConditions`));
  return errs;
}

function validateReviewVersions(versions: string[], required: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!versions.length) return [fieldErr.required(path, `must specify one of ${REVIEW_VERSIONS.join(', ')}`)];
  const seen = new Set<string>();
  let accepted = false;
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(fieldErr.invalid(`${path}[${i}]`, v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const e of isDNS1035Label(v)) errs.push(fieldErr.invalid(`${path}[${i}]`, v, e));
    if (REVIEW_VERSIONS.includes(v)) accepted = true;
  });
  if (required && !accepted) errs.push(fieldErr.invalid(path, goSlice('string', versions), `must include at least one of ${REVIEW_VERSIONS.join(', ')}`));
  return errs;
}

/** The webhooks' checks (ObjectMeta is checked by the factory). `old` is the stored configuration on update. */
export function validateWebhookConfiguration(obj: KubeObject, mutating: boolean, old?: KubeObject): FieldError[] {
  const opts = old ? updateOptions(old) : createOptions;
  const errs: FieldError[] = [];
  const names = new Set<string>();
  a(obj.webhooks).forEach((h, i) => {
    const path = `webhooks[${i}]`;
    errs.push(...validateWebhook(h, path, opts, mutating));
    errs.push(...validateReviewVersions(strings(h.admissionReviewVersions), opts.requireRecognizedReviewVersion, `${path}.admissionReviewVersions`));
    const name = str(h.name);
    if (opts.requireUniqueNames && name) {
      if (names.has(name)) errs.push(fieldErr.duplicate(`${path}.name`, name));
      else names.add(name);
    }
  });
  return errs;
}
