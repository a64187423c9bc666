// Admission webhooks [K8S k8s.io/apiserver pkg/admission/plugin/webhook]: the MutatingAdmissionWebhook and
// ValidatingAdmissionWebhook plugins. Every webhook of every configuration (configurations in name order)
// whose rules, namespaceSelector and objectSelector match the request is sent an admission.k8s.io/v1
// AdmissionReview through the host's outgoing HTTP (Env.http; clientConfig.url only: this engine has no
// service network). A denial is the webhook's status prefixed `admission webhook "NAME" denied the request`;
// a call that fails is a 500 `failed calling webhook` unless the webhook's failurePolicy is Ignore; a mutating
// webhook's JSONPatch is applied to the object; warnings go to the response. On dry run a webhook whose
// sideEffects is not None/NoneOnDryRun refuses the request (400). matchConditions (CEL over object,
// oldObject and request) must all hold for a webhook to be called; one that cannot be evaluated counts as a
// failed call (the `authorizer` variable is not offered to webhook conditions here).

import { badRequest, internalError, isStatusError, StatusError, type Status } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import { applyJsonPatch } from '../../patch/json-patch.js';
import { goJsonText } from '../../codec/go-format.js';
import { a, o, str } from '../../resources/common/printers.js';
import { selectorMatches } from '../../resources/common/labels.js';
import { fromJson } from '../../cel/index.js';
import { admissionEnv, compileExpression, objectType, REQUEST_TYPE, RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS, PER_CALL_LIMIT } from '../policy/cel.js';
import { lookup, type AdmissionAttributes, type MutatingPlugin, type ValidatingAttributes, type ValidatingPlugin } from '../types.js';

type Obj = Record<string, unknown>;
type Attrs = ValidatingAttributes | AdmissionAttributes;

const GROUP = 'admissionregistration.k8s.io';
/** Configurations that no webhook may intercept (IsExemptAdmissionConfigurationResource). */
const EXEMPT = new Set(['mutatingwebhookconfigurations', 'validatingwebhookconfigurations', 'validatingadmissionpolicies', 'validatingadmissionpolicybindings', 'mutatingadmissionpolicies', 'mutatingadmissionpolicybindings']);

const OPERATION: Record<string, string> = { create: 'CREATE', update: 'UPDATE', delete: 'DELETE' };

function ruleMatches(rule: Obj, attrs: Attrs): boolean {
  const op = OPERATION[attrs.operation];
  const ops = a(rule.operations).length ? (rule.operations as string[]) : [];
  if (!ops.includes('*') && !ops.includes(op)) return false;
  const groups = Array.isArray(rule.apiGroups) ? (rule.apiGroups as string[]) : [];
  if (!groups.includes('*') && !groups.includes(attrs.def.group)) return false;
  const versions = Array.isArray(rule.apiVersions) ? (rule.apiVersions as string[]) : [];
  if (!versions.includes('*') && !versions.includes(attrs.def.version)) return false;
  const scope = str(rule.scope) || '*';
  if (scope === 'Cluster' && attrs.def.namespaced) return false;
  if (scope === 'Namespaced' && !attrs.def.namespaced) return false;
  const resources = Array.isArray(rule.resources) ? (rule.resources as string[]) : [];
  const res = attrs.def.plural;
  const sub = attrs.subresource;
  return resources.some((r) => {
    const [rr, rs] = r.includes('/') ? [r.slice(0, r.indexOf('/')), r.slice(r.indexOf('/') + 1)] : [r, undefined];
    if (rr !== '*' && rr !== res) return false;
    if (rs === undefined) return sub === '';
    return rs === '*' || rs === sub;
  });
}

function matches(hook: Obj, attrs: Attrs): boolean {
  if (attrs.def.group === GROUP && EXEMPT.has(attrs.def.plural)) return false;
  if (!a(hook.rules).some((r) => ruleMatches(r, attrs))) return false;
  // namespaceSelector: the namespace's labels (a Namespace's own for namespaces; other cluster-scoped kinds always match)
  const nsSel = hook.namespaceSelector ?? {};
  if (attrs.def.namespaced) {
    const ns = lookup(attrs.ctx, '', 'namespaces', '', attrs.namespace);
    if (!selectorMatches(nsSel, o(ns?.metadata?.labels))) return false;
  } else if (!attrs.def.group && attrs.def.plural === 'namespaces') {
    const ns = attrs.object ?? attrs.oldObject;
    if (!selectorMatches(nsSel, o(ns?.metadata?.labels))) return false;
  }
  const objSel = hook.objectSelector ?? {};
  const objLabels = [attrs.object, attrs.oldObject].filter((x): x is KubeObject => !!x).map((x) => o(x.metadata?.labels));
  if (!objLabels.some((l) => selectorMatches(objSel, l))) return false;
  return true;
}

/** The webhooks of one kind of configuration that match the request, configurations in name order. */
function relevant(attrs: Attrs, plural: string): Obj[] {
  const configs = attrs.ctx.list(GROUP, plural).slice().sort((x, y) => (str(x.metadata?.name) < str(y.metadata?.name) ? -1 : 1));
  return configs.flatMap((c) => a((c as Obj).webhooks)).filter((h) => matches(h, attrs));
}

function reviewRequest(attrs: Attrs, uid: string): Obj {
  const { def } = attrs;
  const user = attrs.request?.user;
  const req: Obj = {
    uid,
    kind: { group: def.group, version: def.version, kind: def.kind },
    resource: { group: def.group, version: def.version, resource: def.plural },
    ...(attrs.subresource ? { subResource: attrs.subresource } : {}),
    requestKind: { group: def.group, version: def.version, kind: def.kind },
    requestResource: { group: def.group, version: def.version, resource: def.plural },
    ...(attrs.subresource ? { requestSubResource: attrs.subresource } : {}),
    name: attrs.name || attrs.object?.metadata?.name || '',
    ...(attrs.namespace && def.namespaced ? { namespace: attrs.namespace } : {}),
    operation: OPERATION[attrs.operation],
    userInfo: user
      ? { username: user.name, ...(user.uid ? { uid: user.uid } : {}), groups: user.groups, ...(user.extra && Object.keys(user.extra).length ? { extra: user.extra } : {}) }
      : { username: 'system:apiserver', groups: ['system:masters'] },
    object: attrs.object ?? null,
    oldObject: attrs.oldObject ?? null,
    dryRun: attrs.dryRun,
    options: attrs.operation === 'create' ? { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' } : attrs.operation === 'update' ? { kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1' } : { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1' },
  };
  return { kind: 'AdmissionReview', apiVersion: 'admission.k8s.io/v1', request: req };
}

class CallError extends Error {}

/** ToStatusErr: the webhook's status with `admission webhook "NAME" denied the request` in front. */
function denial(name: string, result: unknown): StatusError {
  const r = { ...o(result) } as Partial<Status> & Obj;
  const deniedBy = `admission webhook "${name}" denied the request`;
  const code = typeof r.code === 'number' && r.code >= 400 ? r.code : 400;
  const message = str(r.message) ? `${deniedBy}: ${str(r.message)}` : str(r.reason) ? `${deniedBy}: ${str(r.reason)}` : `${deniedBy} without explanation`;
  const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, ...(r.reason ? { reason: r.reason as Status['reason'] } : {}), ...(r.details ? { details: r.details as Status['details'] } : {}), code };
  return new StatusError(status);
}

/** Calls one webhook; answers its AdmissionResponse, or throws a CallError (the call failed) or a StatusError. */
async function call(hook: Obj, attrs: Attrs): Promise<Obj> {
  const name = str(hook.name);
  if (attrs.dryRun && !['None', 'NoneOnDryRun'].includes(str(hook.sideEffects))) throw badRequest(`admission webhook "${name}" does not support dry run`);
  const cc = o(hook.clientConfig);
  const timeout = typeof hook.timeoutSeconds === 'number' ? hook.timeoutSeconds : 10;
  if (typeof cc.url !== 'string') throw new CallError('failed to call webhook: service references cannot be resolved by this server (use clientConfig.url)');
  const target = `${cc.url}${cc.url.includes('?') ? '&' : '?'}timeout=${timeout}s`;
  const http = attrs.ctx.env.http;
  if (!http) throw new CallError(`failed to call webhook: Post "${target}": this host makes no outgoing requests`);
  const uid = attrs.ctx.env.ids.uid();
  let res: { status: number; body: string };
  try {
    const caBundle = typeof cc.caBundle === 'string' && cc.caBundle ? atob(cc.caBundle) : undefined;
    res = await http.post(target, goJsonText(JSON.stringify(reviewRequest(attrs, uid))), { timeoutMs: timeout * 1000, caBundle });
  } catch (e) {
    throw new CallError(`failed to call webhook: Post "${target}": ${e instanceof Error ? e.message : String(e)}`);
  }
  let review: Obj;
  try {
    review = JSON.parse(res.body) as Obj;
  } catch {
    throw new CallError(`failed to call webhook: the server responded with the status code ${res.status} but did not return more information`);
  }
  if (res.status < 200 || res.status > 299) throw new CallError(`failed to call webhook: the server responded with the status code ${res.status} but did not return more information`);
  const response = o(review.response);
  if (review.response === undefined) throw new CallError('received invalid webhook response: webhook response was absent');
  if (str(response.uid) !== uid) throw new CallError(`received invalid webhook response: expected response.uid="${uid}", got "${str(response.uid)}"`);
  return response;
}

const conditionEnv = admissionEnv({ hasParams: false, hasAuthorizer: false, variables: objectType('kubernetes.variables', {}) });

/** matchconditions.Matcher: true when every condition holds, false when one is false; throws a CallError on errors. */
function conditionsHold(hook: Obj, attrs: Attrs): boolean {
  const conds = a(hook.matchConditions);
  if (!conds.length) return true;
  const { object: _o, oldObject: _old, ...request } = o(reviewRequest(attrs, '').request);
  const activation = { object: fromJson(attrs.object ?? null), oldObject: fromJson(attrs.oldObject ?? null), request: fromJson(request, REQUEST_TYPE) };
  let budget = RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS;
  const errors: string[] = [];
  for (const c of conds) {
    const compiled = compileExpression(conditionEnv, str(c.expression), 'bool');
    if (compiled.error || !compiled.program) {
      errors.push(`compilation error: ${compiled.error}`);
      continue;
    }
    const out = compiled.program.evaluate(activation, { costLimit: PER_CALL_LIMIT });
    budget -= out.cost;
    if (budget < 0) throw new CallError('validation failed due to running out of cost budget, no further validation rules will be run');
    if ('kind' in out) errors.push(`expression '${str(c.expression)}' resulted in error: ${out.message}`);
    else if (out.value === false) return false;
  }
  if (errors.length) throw new CallError(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
  return true;
}

/** Runs the webhooks in order; a failing call is skipped when failurePolicy is Ignore. */
function dispatch(attrs: Attrs, plural: string, onAllowed: (hook: Obj, response: Obj) => void): string[] | Promise<string[]> {
  const hooks = relevant(attrs, plural);
  // nothing to call (no configuration, or none matches): the answer needs no promise
  if (hooks.length === 0) return [];
  return callInOrder(hooks, attrs, onAllowed);
}

async function callInOrder(hooks: Obj[], attrs: Attrs, onAllowed: (hook: Obj, response: Obj) => void): Promise<string[]> {
  const warnings: string[] = [];
  for (const hook of hooks) {
    let response: Obj;
    try {
      if (!conditionsHold(hook, attrs)) continue;
      response = await call(hook, attrs);
    } catch (e) {
      if (e instanceof CallError) {
        if (str(hook.failurePolicy) === 'Ignore') continue;
        throw internalError(`failed calling webhook "${str(hook.name)}": ${e.message}`);
      }
      if (isStatusError(e)) throw e;
      throw e;
    }
    for (const w of Array.isArray(response.warnings) ? response.warnings : []) warnings.push(String(w));
    if (response.allowed !== true) throw denial(str(hook.name), response.status);
    onAllowed(hook, response);
  }
  return warnings;
}

export const validatingAdmissionWebhook: ValidatingPlugin = {
  name: 'ValidatingAdmissionWebhook',
  operations: ['create', 'update', 'delete'],
  validate(attrs) {
    return dispatch(attrs, 'validatingwebhookconfigurations', () => undefined);
  },
};

export const mutatingAdmissionWebhook: MutatingPlugin = {
  name: 'MutatingAdmissionWebhook',
  operations: ['create', 'update'],
  admit(attrs) {
    return dispatch(attrs, 'mutatingwebhookconfigurations', (hook, response) => {
      if (response.patch === undefined || response.patch === null || response.patch === '') return;
      if (response.patchType !== 'JSONPatch') throw internalError(`received invalid webhook response: webhook returned response.patch but not response.patchType`);
      let ops: unknown;
      try {
        ops = JSON.parse(atob(String(response.patch)));
      } catch (e) {
        throw internalError(`failed calling webhook "${str(hook.name)}": received invalid webhook response: ${e instanceof Error ? e.message : String(e)}`);
      }
      const patched = applyJsonPatch(structuredClone(attrs.object), ops) as KubeObject;
      for (const k of Object.keys(attrs.object)) delete (attrs.object as Obj)[k];
      Object.assign(attrs.object, patched);
    });
  },
};
