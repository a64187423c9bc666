// The ValidatingAdmissionPolicy admission plugin [K8S policy/validating dispatcher.go, policy/generic
// plugin.go, policy_source.go, policy_dispatcher.go CollectParams]: for every binding whose policy exists,
// the policy's matchConstraints and the binding's matchResources select the request, the binding's params
// are collected, and the policy is evaluated once per param. Failed validations act as the binding says
// (Deny: the first denial refuses the request; Warn: a warning; Audit: the audit log, which this server
// does not keep). Configuration errors (a paramKind that is not served, params missing with
// parameterNotFoundAction Deny, ...) follow the policy's failurePolicy.
//
// With no bindings stored, a request costs one empty index lookup.

import { authorizerValue, requestResourceValue } from '../../cel/lib/index.js';
import { clusterAuthorizerValue } from '../../cel/lib/authz-cluster.js';
import { qualified, StatusError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import { formatLabelSelector, selectorMatches } from '../../resources/common/labels.js';
import { APISERVER_USER } from '../../auth/user.js';
import type { ResourceDefinition } from '../../registry/types.js';
import type { ValidatingAttributes, ValidatingPlugin } from '../types.js';
import { PolicyCache } from './compile.js';
import { matchResources, MatchError, type GVK, type GVR, type MatchAttributes, type MatchContext } from './matching.js';
import { validate, type ValidateInput } from './validator.js';

const GROUP = 'admissionregistration.k8s.io';

/**
 * Resources the expression-based admission plugins never see: the policies and bindings themselves
 * (generic/plugin.go admissionResources) and the virtual review resources (kube-apiserver's exclusion list).
 */
const EXCLUDED = new Set([
  `${GROUP}/validatingadmissionpolicies`,
  `${GROUP}/validatingadmissionpolicybindings`,
  `${GROUP}/mutatingadmissionpolicies`,
  `${GROUP}/mutatingadmissionpolicybindings`,
  'authentication.k8s.io/selfsubjectreviews',
  'authentication.k8s.io/tokenreviews',
  'authorization.k8s.io/localsubjectaccessreviews',
  'authorization.k8s.io/selfsubjectaccessreviews',
  'authorization.k8s.io/selfsubjectrulesreviews',
  'authorization.k8s.io/subjectaccessreviews',
]);

type Obj = Record<string, unknown>;
const o = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const byName = (a: KubeObject, b: KubeObject) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1);

// one cache per cluster (keyed by its resource registry): uids are unique within a cluster only
const caches = new WeakMap<object, PolicyCache>();
const fallbackCache = new PolicyCache();
function cacheOf(attrs: ValidatingAttributes): PolicyCache {
  const key = attrs.ctx.resources;
  if (!key) return fallbackCache;
  let c = caches.get(key);
  if (!c) caches.set(key, (c = new PolicyCache()));
  return c;
}

interface Denial {
  policy: string;
  binding?: string;
  message: string;
  reason?: string;
}

/** A binding's params could not be collected (CollectParams' errors). */
class ParamError extends Error {}

function groupVersionOf(apiVersion: string): { group: string; version: string } {
  const i = apiVersion.indexOf('/');
  return i < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
}

/** generic.CollectParams: the params of one binding for a request in `namespace`. */
function collectParams(attrs: ValidatingAttributes, paramKind: Obj | undefined, paramDef: ResourceDefinition | undefined, paramRef: Obj | undefined, namespace: string): (KubeObject | null)[] {
  if (!paramKind || !paramRef || !paramDef) return [null];
  let ns = '';
  if (paramDef.namespaced) {
    ns = typeof paramRef.namespace === 'string' && paramRef.namespace ? paramRef.namespace : namespace;
    if (!ns) throw new ParamError('cannot use namespaced paramRef in policy binding that matches cluster-scoped resources');
  } else if (typeof paramRef.namespace === 'string' && paramRef.namespace) {
    throw new ParamError('paramRef.namespace must not be provided for a cluster-scoped `paramKind`');
  }
  const all = paramDef.namespaced ? attrs.ctx.list(paramDef.group, paramDef.plural, ns) : attrs.ctx.list(paramDef.group, paramDef.plural);
  let params: KubeObject[];
  if (typeof paramRef.name === 'string' && paramRef.name) {
    if (paramRef.selector) throw new ParamError('paramRef.name and paramRef.selector are mutually exclusive');
    params = all.filter((p) => p.metadata?.name === paramRef.name);
  } else if (paramRef.selector) {
    params = all.filter((p) => selectorMatches(paramRef.selector, p.metadata?.labels ?? {}));
  } else {
    throw new ParamError('one of name or selector must be provided');
  }
  if (params.length === 0 && paramRef.parameterNotFoundAction === 'Deny') {
    throw new ParamError('no params found for policy binding with `Deny` parameterNotFoundAction');
  }
  return params.map((p) => ({ ...p, apiVersion: String(paramKind.apiVersion), kind: String(paramKind.kind) }));
}

/** The admission request the expressions see as `request` (admission/v1 AdmissionRequest as JSON). */
function admissionRequestJson(attrs: ValidatingAttributes, a: MatchAttributes, resource: GVR, kind: GVK): Obj {
  const user = attrs.request?.user ?? APISERVER_USER;
  const userInfo: Obj = {};
  if (user.name) userInfo.username = user.name;
  if (user.uid) userInfo.uid = user.uid;
  if (user.groups?.length) userInfo.groups = user.groups;
  if (user.extra && Object.keys(user.extra).length) userInfo.extra = user.extra;
  const optionsKind = a.operation === 'CREATE' ? 'CreateOptions' : a.operation === 'UPDATE' ? 'UpdateOptions' : 'DeleteOptions';
  const options: Obj = { kind: optionsKind, apiVersion: 'meta.k8s.io/v1' };
  if (attrs.dryRun) options.dryRun = ['All'];
  const req: Obj = { uid: '', kind, resource };
  if (a.subresource) req.subResource = a.subresource;
  req.requestKind = a.kind;
  req.requestResource = a.resource;
  if (a.subresource) req.requestSubResource = a.subresource;
  if (a.name) req.name = a.name;
  if (a.namespace) req.namespace = a.namespace;
  req.operation = a.operation;
  req.userInfo = userInfo;
  req.dryRun = attrs.dryRun;
  req.options = options;
  return req;
}

/** CreateNamespaceObject: the namespace's metadata (without managed fields and owners), spec and status. */
function namespaceObjectJson(ns: KubeObject): Obj {
  const m = ns.metadata ?? {};
  const meta: Obj = {};
  for (const k of ['name', 'generateName', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'finalizers']) {
    const v = (m as Obj)[k];
    if (v !== undefined) meta[k] = v;
  }
  return { metadata: meta, spec: ns.spec ?? {}, status: ns.status ?? {} };
}

function reasonToCode(reason: string): number {
  switch (reason) {
    case 'Forbidden':
      return 403;
    case 'Unauthorized':
      return 401;
    case 'RequestEntityTooLarge':
      return 413;
    default:
      return 422;
  }
}

/** admission.NewForbidden with the decision's reason and code, and the message as the one cause. */
function denial(d: Denial, a: MatchAttributes, name: string): StatusError {
  const message = d.binding !== undefined
    ? `ValidatingAdmissionPolicy '${d.policy}' with binding '${d.binding}' denied request: ${d.message}`
    : `ValidatingAdmissionPolicy '${d.policy}' denied request: ${d.message}`;
  const gr = { group: a.resource.group, resource: a.resource.resource };
  const reason = d.reason || 'Invalid';
  const details: Obj = { name };
  if (gr.group) details.group = gr.group;
  details.kind = gr.resource;
  details.causes = [{ message }];
  return new StatusError({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
    message: `${qualified(gr)} "${name}" is forbidden: ${message}`,
    reason, details, code: reasonToCode(reason),
  });
}

function at(obj: KubeObject, path: string): unknown {
  let cur: unknown = obj;
  for (const p of path.replace(/^\./, '').split('.')) cur = cur && typeof cur === 'object' ? (cur as Obj)[p] : undefined;
  return cur;
}

/** The object of a request to the scale subresource: the autoscaling/v1 Scale of the parent. */
function scaleOf(def: ResourceDefinition, obj: KubeObject | null): KubeObject | null {
  const sc = def.subresources.scale;
  if (!obj || !sc) return obj;
  const m = obj.metadata ?? {};
  const status: Obj = { replicas: Number(at(obj, sc.statusReplicasPath) ?? 0) };
  const sel = sc.labelSelectorPath ? at(obj, sc.labelSelectorPath) : undefined;
  const selector = typeof sel === 'string' ? sel : sel ? formatLabelSelector(sel) : '';
  if (selector) status.selector = selector;
  return {
    kind: 'Scale', apiVersion: 'autoscaling/v1',
    metadata: { name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: m.creationTimestamp },
    spec: { replicas: Number(at(obj, sc.specReplicasPath) ?? 0) },
    status,
  };
}

function presented(def: ResourceDefinition, obj: KubeObject | null, subresource: string): KubeObject | null {
  if (!obj) return null;
  if (subresource === 'scale') return scaleOf(def, obj);
  const apiVersion = def.group ? `${def.group}/${def.version}` : def.version;
  return obj.apiVersion === apiVersion && obj.kind === def.kind ? obj : { ...obj, apiVersion, kind: def.kind };
}

function dispatch(attrs: ValidatingAttributes): string[] {
  const bindings = attrs.ctx.list(GROUP, 'validatingadmissionpolicybindings');
  if (bindings.length === 0) return [];
  const def = attrs.def;
  if (EXCLUDED.has(`${def.group}/${def.plural}`)) return [];
  const policies = new Map<string, KubeObject>();
  for (const p of attrs.ctx.list(GROUP, 'validatingadmissionpolicies')) policies.set(p.metadata?.name ?? '', p);
  const grouped = new Map<string, KubeObject[]>();
  for (const b of bindings) {
    const pn = String(o(b.spec).policyName ?? '');
    if (!policies.has(pn)) continue;
    const list = grouped.get(pn);
    if (list) list.push(b);
    else grouped.set(pn, [b]);
  }
  const cache = cacheOf(attrs);
  cache.retain(new Set([...policies.values()].map((p) => p.metadata?.uid ?? p.metadata?.name ?? '')));
  if (grouped.size === 0) return [];

  const operation = attrs.operation === 'create' ? 'CREATE' : attrs.operation === 'update' ? 'UPDATE' : 'DELETE';
  const isNamespace = def.group === '' && def.plural === 'namespaces';
  const object = presented(def, attrs.object, attrs.subresource);
  const oldObject = presented(def, attrs.oldObject, attrs.subresource);
  const isScale = attrs.subresource === 'scale' && !!def.subresources.scale;
  const a: MatchAttributes = {
    operation,
    resource: { group: def.group, version: def.version, resource: def.plural },
    subresource: attrs.subresource,
    // the request's namespace: a namespace's own name when the request names it (update, delete)
    namespace: def.namespaced ? attrs.namespace : isNamespace && operation !== 'CREATE' ? attrs.name : '',
    name: attrs.name,
    kind: isScale ? { group: 'autoscaling', version: 'v1', kind: 'Scale' } : { group: def.group, version: def.version, kind: def.kind },
    object,
    oldObject,
  };
  const objectName = attrs.name || object?.metadata?.name || object?.metadata?.generateName || 'Unknown';
  let namespaces: KubeObject[] | undefined;
  const findNamespace = (name: string) => (namespaces ??= attrs.ctx.list('', 'namespaces')).find((n) => n.metadata?.name === name);
  const m: MatchContext = {
    namespaceLabels: (name) => {
      const ns = findNamespace(name);
      return ns ? ((ns.metadata?.labels ?? {}) as Record<string, string>) : undefined;
    },
    equivalents: (r) =>
      (attrs.ctx.resources?.versionsOf(r.group, r.resource) ?? [])
        .filter((d) => d.version !== r.version)
        .map((d) => ({ resource: { group: d.group, version: d.version, resource: d.plural }, kind: { group: d.group, version: d.version, kind: d.kind } })),
  };
  const user = attrs.request?.user ?? APISERVER_USER;
  const authz = attrs.request ? clusterAuthorizerValue(attrs.request.authorizer, user) : authorizerValue({ user: user.name, groups: user.groups });
  const requestResource = requestResourceValue(authz, {
    group: a.resource.group, resource: a.resource.resource, subresource: a.subresource, namespace: a.namespace, name: a.name,
  });

  const denied: Denial[] = [];
  const warnings: string[] = [];
  // the Audit action's failures, published as one annotation (at most 50, as real)
  const validationFailures: Array<{ message: string; policy: string; binding: string; expressionIndex: number; validationActions: string[] }> = [];
  const audit = attrs.request?.audit;
  for (const pname of [...grouped.keys()].sort()) {
    // auditAnnotations are collected per policy: distinct values of one key joined by ", ", published as <policy>/<key>
    const published = new Map<string, string[]>();
    const policy = policies.get(pname)!;
    const spec = o(policy.spec);
    const fp = typeof spec.failurePolicy === 'string' ? spec.failurePolicy : 'Fail';
    const configError = (msg: string, binding?: string) => {
      if (fp === 'Ignore') return;
      if (fp === 'Fail') denied.push({ policy: pname, binding, message: binding === undefined ? `failed to configure policy: ${msg}` : `failed to configure binding: ${msg}` });
      else denied.push({ policy: pname, binding, message: `unrecognized failure policy: '${fp}'` });
    };
    if (!spec.matchConstraints) {
      configError('policy contained no match constraints, a required field');
      continue;
    }
    let matched;
    try {
      matched = matchResources(o(spec.matchConstraints), a, m);
    } catch (e) {
      if (!(e instanceof MatchError)) throw e;
      configError(e.message);
      continue;
    }
    if (!matched.matches) continue;
    const paramKind = spec.paramKind ? o(spec.paramKind) : undefined;
    let paramDef: ResourceDefinition | undefined;
    if (paramKind) {
      const gv = groupVersionOf(String(paramKind.apiVersion ?? ''));
      paramDef = attrs.ctx.resources?.resourcesIn(gv.group, gv.version).find((d) => d.kind === paramKind.kind);
      if (!paramDef) {
        configError(`failed to find resource referenced by paramKind: '${gv.group}/${gv.version}, Kind=${String(paramKind.kind ?? '')}'`);
        continue;
      }
    }
    const compiled = cache.get(policy);
    const request = admissionRequestJson(attrs, a, matched.resource, matched.kind);
    for (const binding of grouped.get(pname)!.sort(byName)) {
      const bname = binding.metadata?.name ?? '';
      const bspec = o(binding.spec);
      if (bspec.matchResources) {
        try {
          if (!matchResources(o(bspec.matchResources), a, m).matches) continue;
        } catch (e) {
          if (!(e instanceof MatchError)) throw e;
          configError(e.message, bname);
          continue;
        }
      }
      let params: (KubeObject | null)[];
      try {
        params = collectParams(attrs, paramKind, paramDef, bspec.paramRef ? o(bspec.paramRef) : undefined, a.namespace);
      } catch (e) {
        if (!(e instanceof ParamError)) throw e;
        configError(e.message, bname);
        continue;
      }
      // namespaceObject: the request's namespace, none for namespaces themselves
      const nsName = isNamespace ? '' : a.namespace;
      const ns = nsName ? findNamespace(nsName) : undefined;
      const actions = Array.isArray(bspec.validationActions) ? (bspec.validationActions as unknown[]).map(String) : [];
      for (const param of params) {
        const input: ValidateInput = {
          object, oldObject, params: param, request, namespaceObject: ns ? namespaceObjectJson(ns) : null, authorizer: authz, requestResource,
        };
        const result = validate(compiled, input);
        result.decisions.forEach((d, index) => {
          if (d.action !== 'deny') return;
          for (const act of actions) {
            if (act === 'Deny') denied.push({ policy: pname, binding: bname, message: d.message, reason: d.reason });
            else if (act === 'Warn') warnings.push(`Validation failed for ValidatingAdmissionPolicy '${pname}' with binding '${bname}': ${d.message}`);
            else if (act === 'Audit') {
              const policyName = typeof bspec.policyName === 'string' ? bspec.policyName : pname;
              validationFailures.push({ message: d.message, policy: policyName, binding: bname, expressionIndex: index, validationActions: actions });
            }
          }
        });
        for (const an of result.auditAnnotations) {
          // published annotations go to the audit event; an annotation that fails refuses the request
          if (an.action === 'error') denied.push({ policy: pname, binding: bname, message: an.error ?? '' });
          else if (an.action === 'publish' && an.value !== undefined) {
            const value = an.value.length > 10 * 1024 ? an.value.slice(0, 10 * 1024) : an.value;
            const values = published.get(an.key) ?? [];
            if (!values.includes(value)) values.push(value);
            published.set(an.key, values);
          }
        }
      }
    }
    for (const [key, values] of published) audit?.annotate(`${pname}/${key}`, values.join(', '));
  }
  if (validationFailures.length) audit?.annotate('validation.policy.admission.k8s.io/validation_failure', JSON.stringify(validationFailures.slice(0, 50)));
  if (denied.length) {
    // the warnings of Warn bindings are answered with the refusal
    const e = denial(denied[0], a, objectName);
    if (warnings.length) e.warnings = warnings;
    throw e;
  }
  return warnings;
}

export const validatingAdmissionPolicy: ValidatingPlugin = {
  name: 'ValidatingAdmissionPolicy',
  operations: ['create', 'update', 'delete'],
  validate: dispatch,
};
