// The PodSecurity admission plugin [K8S k8s.io/pod-security-admission admission, as kube-apiserver wires it]:
// a namespace's labels pod-security.kubernetes.io/{enforce,audit,warn}[-version] choose a level
// (privileged, baseline, restricted) and version per mode (default privileged:latest, no exemptions). Pods
// are refused when they violate the enforce level and warned about the warn level; workload resources
// (their pod templates) are only warned about; a namespace whose enforce level tightens warns about the
// pods it already holds; invalid labels are refused on namespace writes. The evaluation's audit annotations
// (enforce-policy, audit-violations) go to the request's audit event.

import { fieldErr, invalid, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import { a, o, str } from '../../resources/common/printers.js';
import { admissionForbidden, lookup, type ValidatingAttributes, type ValidatingPlugin } from '../types.js';
import { evaluatePod, forbiddenDetail, forbiddenReason, type Level, type Version } from './checks.js';

type Obj = Record<string, unknown>;

const PREFIX = 'pod-security.kubernetes.io/';
const LEVELS: Level[] = ['privileged', 'baseline', 'restricted'];

interface LevelVersion {
  level: Level;
  version: Version;
}
interface Policy {
  enforce: LevelVersion;
  audit: LevelVersion;
  warn: LevelVersion;
}

const LATEST: Version = Object.freeze({ latest: true, minor: 0 });
const lvString = (lv: LevelVersion) => `${lv.level}:${lv.version.latest ? 'latest' : `v1.${lv.version.minor}`}`;
const sameLv = (x: LevelVersion, y: LevelVersion) => x.level === y.level && x.version.latest === y.version.latest && x.version.minor === y.version.minor;
const levelRank = (l: Level) => LEVELS.indexOf(l);

function parseLevel(v: string): Level | undefined {
  return (LEVELS as string[]).includes(v) ? (v as Level) : undefined;
}

function parseVersion(v: string): Version | undefined {
  if (v === 'latest') return LATEST;
  const m = /^v1\.([0-9]|[1-9][0-9]*)$/.exec(v);
  return m ? { latest: false, minor: Number(m[1]) } : undefined;
}

/** The policy of a namespace without any pod-security label (every mode privileged:latest), shared and frozen. */
const DEFAULT_POLICY: { policy: Policy; errors: FieldError[] } = Object.freeze({
  policy: Object.freeze({
    enforce: Object.freeze({ level: 'privileged', version: LATEST }),
    audit: Object.freeze({ level: 'privileged', version: LATEST }),
    warn: Object.freeze({ level: 'privileged', version: LATEST }),
  }) as Policy,
  errors: Object.freeze([]) as unknown as FieldError[],
});

/**
 * api.PolicyToEvaluate: the policy of a namespace's labels over the defaults (privileged:latest), with label
 * errors. Most namespaces carry no pod-security label: they get the shared default, which callers only read.
 */
function policyOf(labels: Obj): { policy: Policy; errors: FieldError[] } {
  let labelled = false;
  for (const k in labels) {
    if (k.startsWith(PREFIX)) {
      labelled = true;
      break;
    }
  }
  return labelled ? labelledPolicyOf(labels) : DEFAULT_POLICY;
}

function labelledPolicyOf(labels: Obj): { policy: Policy; errors: FieldError[] } {
  const priv = (): LevelVersion => ({ level: 'privileged', version: LATEST });
  const p: Policy = { enforce: priv(), audit: priv(), warn: priv() };
  const errors: FieldError[] = [];
  const label = (k: string) => (PREFIX + k in labels ? str(labels[PREFIX + k]) : undefined);
  const bad = (k: string, v: string, msg: string) => errors.push(fieldErr.invalid(`metadata.labels[${PREFIX}${k}]`, v, msg));
  const LEVEL_MSG = `must be one of ${LEVELS.join(', ')}`;
  const VERSION_MSG = 'must be "latest" or "v1.x"';
  let hasEnforceLevel = false;
  let hasWarnLevel = false;
  let hasWarnVersion = false;
  for (const mode of ['enforce', 'audit', 'warn'] as const) {
    const lv = label(mode);
    if (lv !== undefined) {
      const level = parseLevel(lv);
      if (mode === 'warn') hasWarnLevel = true;
      if (level) {
        p[mode].level = level;
        if (mode === 'enforce') hasEnforceLevel = true;
      } else {
        bad(mode, lv, LEVEL_MSG);
        // enforce fails closed, audit and warn fail open
        p[mode].level = mode === 'enforce' ? 'restricted' : 'privileged';
      }
    }
    const vv = label(`${mode}-version`);
    if (vv !== undefined) {
      if (mode === 'warn') hasWarnVersion = true;
      const version = parseVersion(vv);
      if (version) p[mode].version = version;
      else {
        bad(`${mode}-version`, vv, VERSION_MSG);
        p[mode].version = LATEST;
      }
    }
  }
  // warn defaults to a stricter enforce level
  if (!hasWarnLevel && hasEnforceLevel && levelRank(p.enforce.level) > levelRank(p.warn.level)) {
    p.warn.level = p.enforce.level;
    if (!hasWarnVersion) p.warn.version = p.enforce.version;
  }
  return { policy: p, errors };
}

const evaluate = (lv: LevelVersion, meta: Obj, spec: Obj) => evaluatePod(lv.level, lv.version, meta, spec);

/** The pod template of a workload resource (the default PodSpecExtractor's kinds). */
function podTemplate(group: string, plural: string, obj: KubeObject): { meta: Obj; spec: Obj } | undefined {
  const key = `${group}/${plural}`;
  let template: unknown;
  switch (key) {
    case '/podtemplates':
      template = (obj as Obj).template;
      break;
    case '/replicationcontrollers':
    case 'apps/replicasets':
    case 'apps/deployments':
    case 'apps/statefulsets':
    case 'apps/daemonsets':
    case 'batch/jobs':
      template = o(obj.spec).template;
      break;
    case 'batch/cronjobs':
      template = o(o(o(o(obj.spec).jobTemplate).spec)).template;
      break;
    default:
      return undefined;
  }
  if (!template || typeof template !== 'object') return { meta: {}, spec: {} };
  return { meta: o((template as Obj).metadata), spec: o((template as Obj).spec) };
}

const IGNORED_POD_SUBRESOURCES = new Set(['exec', 'attach', 'binding', 'eviction', 'log', 'portforward', 'proxy', 'status']);

function validateNamespace(attrs: ValidatingAttributes): string[] | void {
  if (attrs.subresource !== '' || !attrs.object) return;
  const { policy, errors } = policyOf(o(attrs.object.metadata?.labels));
  const refuse = () => invalid({ group: '', kind: 'Namespace' }, attrs.name, errors);
  if (attrs.operation === 'create') {
    if (errors.length) throw refuse();
    return;
  }
  const old = policyOf(o(attrs.oldObject?.metadata?.labels));
  if (errors.length && (!old.errors.length || JSON.stringify(errors) !== JSON.stringify(old.errors))) throw refuse();
  const next = policy.enforce;
  const prev = old.policy.enforce;
  if (sameLv(next, prev) || next.level === 'privileged') return;
  if (next.version.latest === prev.version.latest && next.version.minor === prev.version.minor && levelRank(next.level) <= levelRank(prev.level)) return;
  return podsInNamespace(attrs, next);
}

/** EvaluatePodsInNamespace: one warning line per distinct violation, naming the first pod and counting the others. */
function podsInNamespace(attrs: ValidatingAttributes, enforce: LevelVersion): string[] {
  const pods = attrs.ctx.list('', 'pods', attrs.name);
  // one pod per controller first, as the real check prioritizes them
  const seen = new Set<string>();
  const first: KubeObject[] = [];
  const rest: KubeObject[] = [];
  for (const p of pods) {
    const ref = (p.metadata?.ownerReferences ?? []).find((r) => (r as unknown as Obj).controller === true) as unknown as Obj | undefined;
    if (!ref) first.push(p);
    else if (seen.has(str(ref.uid))) rest.push(p);
    else {
      seen.add(str(ref.uid));
      first.push(p);
    }
  }
  const order: string[] = [];
  const counts = new Map<string, { pod: string; n: number }>();
  for (const p of [...first, ...rest]) {
    const results = evaluate(enforce, o(p.metadata), o(p.spec));
    if (!results.length) continue;
    const w = forbiddenReason(results);
    const name = str(p.metadata?.name);
    const c = counts.get(w);
    if (!c) {
      counts.set(w, { pod: name, n: 1 });
      order.push(w);
    } else {
      c.n++;
      if (name < c.pod) c.pod = name;
    }
  }
  if (!order.length) return [];
  const lines = order.map((w) => {
    const c = counts.get(w)!;
    if (c.n === 1) return `${c.pod}: ${w}`;
    if (c.n === 2) return `${c.pod} (and 1 other pod): ${w}`;
    return `${c.pod} (and ${c.n - 1} other pods): ${w}`;
  });
  lines.sort();
  return [`existing pods in namespace "${attrs.name}" violate the new PodSecurity enforce level "${lvString(enforce)}"`, ...lines];
}

/** isSignificantPodUpdate: only image changes (and added ephemeral containers) are evaluated again on update. */
function significantPodUpdate(pod: KubeObject, old: KubeObject): boolean {
  const spec = o(pod.spec);
  const prev = o(old.spec);
  for (const list of ['containers', 'initContainers'] as const) {
    const n = a(spec[list]);
    const p = a(prev[list]);
    if (n.length !== p.length) return true;
    if (n.some((c, i) => c.image !== p[i].image)) return true;
  }
  const prevEphemeral = a(prev.ephemeralContainers);
  return a(spec.ephemeralContainers).some((c) => {
    const oc = prevEphemeral.find((x) => x.name === c.name);
    return !oc || oc.image !== c.image;
  });
}

export const podSecurity: ValidatingPlugin = {
  name: 'PodSecurity',
  operations: ['create', 'update'],
  validate(attrs) {
    const { group, plural } = attrs.def;
    const obj = attrs.object;
    if (!obj) return;
    if (!group && plural === 'namespaces') return validateNamespace(attrs);
    const isPod = !group && plural === 'pods';
    if (isPod ? IGNORED_POD_SUBRESOURCES.has(attrs.subresource) : attrs.subresource !== '') return;
    const template = isPod ? { meta: o(obj.metadata), spec: o(obj.spec) } : podTemplate(group, plural, obj);
    if (!template || !attrs.namespace) return;
    const ns = lookup(attrs.ctx, '', 'namespaces', '', attrs.namespace);
    if (!ns) return;
    const { policy } = policyOf(o(ns.metadata?.labels));
    // the audit annotations of the evaluation (pod-security.kubernetes.io/enforce-policy, .../audit-violations)
    const audit = attrs.request?.audit;
    const auditViolations = () => {
      if (policy.audit.level === 'privileged') return;
      const found = evaluate(policy.audit, template.meta, template.spec);
      if (found.length) audit?.annotate('pod-security.kubernetes.io/audit-violations', `would violate PodSecurity "${lvString(policy.audit)}": ${forbiddenDetail(found)}`);
    };
    if (isPod) {
      if (policy.enforce.level === 'privileged' && policy.audit.level === 'privileged' && policy.warn.level === 'privileged') {
        audit?.annotate('pod-security.kubernetes.io/enforce-policy', 'privileged:latest');
        return;
      }
      if (attrs.operation === 'update' && attrs.oldObject && !significantPodUpdate(obj, attrs.oldObject)) return;
      audit?.annotate('pod-security.kubernetes.io/enforce-policy', lvString(policy.enforce));
      const enforced = evaluate(policy.enforce, template.meta, template.spec);
      auditViolations();
      if (enforced.length) throw admissionForbidden(attrs, `violates PodSecurity "${lvString(policy.enforce)}": ${forbiddenDetail(enforced)}`);
    } else if (policy.warn.level === 'privileged' && policy.audit.level === 'privileged') return;
    else auditViolations();
    const warned = evaluate(policy.warn, template.meta, template.spec);
    if (warned.length) return [`would violate PodSecurity "${lvString(policy.warn)}": ${forbiddenDetail(warned)}`];
  },
};
