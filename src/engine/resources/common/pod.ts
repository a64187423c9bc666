// Pod specs: defaulting (k8s.io/kubernetes pkg/apis/core/v1/defaults.go SetDefaults_PodSpec, _Container,
// _Probe, _Volume...) shared by Pods and every pod template (Deployment, ReplicaSet, StatefulSet, DaemonSet,
// Job, CronJob, ReplicationController, PodTemplate), and the most used checks of ValidatePodSpec with the
// real messages.

import { fieldErr, type FieldError } from '../../errors.js';
import { isPlainObject, type KubeObject } from '../../object.js';
import {
  IS_NEGATIVE, inclusiveRangeError, isDNS1123Label, isDNS1123Subdomain, isValidPortName, isValidPortNum, nameIsDNSSubdomain,
  validateAnnotations, validateLabels,
} from '../../util/validation.js';
import { parseQuantity } from './quantity.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (isPlainObject(v) ? (v as Obj) : undefined);
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]).filter(isPlainObject) as Obj[] : []);

// ---------------------------------------------------------------------------------------------------
// Defaulting

/** parsers.ParseImageName's tag: "latest" when neither tag nor digest is given; "" when unparsable. */
export function imageTag(image: string): string {
  if (!image || image !== image.trim()) return '';
  let rest = image;
  let digest = '';
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!/^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[0-9a-fA-F]{32,}$/.test(digest)) return '';
  }
  let tag = '';
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!/^[\w][\w.-]{0,127}$/.test(tag)) return '';
  }
  // the repository path (after an optional domain) must be lower case
  const parts = rest.split('/');
  const hasDomain = parts.length > 1 && (parts[0].includes('.') || parts[0].includes(':') || parts[0] === 'localhost' || parts[0] !== parts[0].toLowerCase());
  const path = hasDomain ? parts.slice(1) : parts;
  if (!path.length || !path.every((c) => /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/.test(c))) return '';
  if (!tag && !digest) tag = 'latest';
  return tag;
}

function defaultHTTPGet(h: unknown): void {
  const g = obj(h);
  if (!g) return;
  if (!g.path) g.path = '/';
  if (!g.scheme) g.scheme = 'HTTP';
}

function defaultProbe(p: unknown): void {
  const probe = obj(p);
  if (!probe) return;
  if (!probe.timeoutSeconds) probe.timeoutSeconds = 1;
  if (!probe.periodSeconds) probe.periodSeconds = 10;
  if (!probe.successThreshold) probe.successThreshold = 1;
  if (!probe.failureThreshold) probe.failureThreshold = 3;
  defaultHTTPGet(probe.httpGet);
  const grpc = obj(probe.grpc);
  if (grpc && grpc.service === undefined) grpc.service = '';
}

function defaultFieldRef(f: unknown): void {
  const ref = obj(f);
  if (ref && !ref.apiVersion) ref.apiVersion = 'v1';
}

export function defaultContainer(c: Obj): void {
  // Container.resources is a struct: it always serializes, as `resources: {}` when empty
  if (c.resources === undefined || c.resources === null) c.resources = {};
  if (!c.terminationMessagePath) c.terminationMessagePath = '/dev/termination-log';
  if (!c.terminationMessagePolicy) c.terminationMessagePolicy = 'File';
  if (!c.imagePullPolicy) c.imagePullPolicy = imageTag(typeof c.image === 'string' ? c.image : '') === 'latest' ? 'Always' : 'IfNotPresent';
  for (const p of arr(c.ports)) if (!p.protocol) p.protocol = 'TCP';
  defaultProbe(c.livenessProbe);
  defaultProbe(c.readinessProbe);
  defaultProbe(c.startupProbe);
  const lc = obj(c.lifecycle);
  if (lc) for (const h of [lc.postStart, lc.preStop]) defaultHTTPGet(obj(h)?.httpGet);
  for (const e of arr(c.env)) defaultFieldRef(obj(e.valueFrom)?.fieldRef);
}

function defaultVolume(v: Obj): void {
  const sources = Object.keys(v).filter((k) => k !== 'name');
  if (sources.length === 0) v.emptyDir = {};
  for (const k of ['secret', 'configMap', 'downwardAPI', 'projected']) {
    const s = obj(v[k]);
    if (s && s.defaultMode === undefined) s.defaultMode = 420;
  }
  const hostPath = obj(v.hostPath);
  if (hostPath && hostPath.type === undefined) hostPath.type = '';
  for (const item of arr(obj(v.downwardAPI)?.items)) defaultFieldRef(item.fieldRef);
  for (const src of arr(obj(v.projected)?.sources)) {
    const sat = obj(src.serviceAccountToken);
    if (sat && sat.expirationSeconds === undefined) sat.expirationSeconds = 3600;
    for (const item of arr(obj(src.downwardAPI)?.items)) defaultFieldRef(item.fieldRef);
  }
  const eph = obj(obj(v.ephemeral)?.volumeClaimTemplate);
  if (eph) defaultPVCSpec(obj(eph.spec));
  const rbd = obj(v.rbd);
  if (rbd) {
    if (rbd.pool === undefined) rbd.pool = 'rbd';
    if (rbd.user === undefined) rbd.user = 'admin';
    if (rbd.keyring === undefined) rbd.keyring = '/etc/ceph/keyring';
  }
  const iscsi = obj(v.iscsi);
  if (iscsi && iscsi.iscsiInterface === undefined) iscsi.iscsiInterface = 'default';
  const azureDisk = obj(v.azureDisk);
  if (azureDisk) {
    if (azureDisk.cachingMode === undefined) azureDisk.cachingMode = 'ReadWrite';
    if (azureDisk.fsType === undefined) azureDisk.fsType = 'ext4';
    if (azureDisk.readOnly === undefined) azureDisk.readOnly = false;
    if (azureDisk.kind === undefined) azureDisk.kind = 'Shared';
  }
}

export function defaultPVCSpec(spec: Obj | undefined): void {
  if (spec && spec.volumeMode === undefined) spec.volumeMode = 'Filesystem';
}

/** SetDefaults_PodSpec and the defaulters of everything inside a PodSpec. */
export function defaultPodSpec(spec: Obj | undefined): void {
  if (!spec) return;
  if (!spec.dnsPolicy) spec.dnsPolicy = 'ClusterFirst';
  if (!spec.restartPolicy) spec.restartPolicy = 'Always';
  if (spec.securityContext === undefined || spec.securityContext === null) spec.securityContext = {};
  if (spec.terminationGracePeriodSeconds === undefined || spec.terminationGracePeriodSeconds === null) spec.terminationGracePeriodSeconds = 30;
  if (!spec.schedulerName) spec.schedulerName = 'default-scheduler';
  for (const c of arr(spec.containers)) defaultContainer(c);
  for (const c of arr(spec.initContainers)) defaultContainer(c);
  for (const c of arr(spec.ephemeralContainers)) defaultContainer(c);
  for (const v of arr(spec.volumes)) defaultVolume(v);
}

/** A PodTemplateSpec: its metadata always serializes (creationTimestamp: null, as v1.33 writes it). */
export function defaultPodTemplate(t: unknown): void {
  const template = obj(t);
  if (!template) return;
  defaultTemplateMeta(template);
  if (!obj(template.spec)) template.spec = {};
  defaultPodSpec(obj(template.spec));
}

/**
 * Embedded ObjectMeta of templates is a struct, so v1.33 prints `metadata: {creationTimestamp: null}`.
 * The holder's metadata is replaced only when it changes (missing, no creationTimestamp, or keys out of
 * ObjectMeta order): copy-on-write kinds share an unchanged template's metadata with the stored state.
 */
export function defaultTemplateMeta(holder: Obj): void {
  const meta = obj(holder.metadata);
  if (meta && meta.creationTimestamp !== undefined && inObjectMetaOrder(meta)) return;
  const m = meta ?? {};
  if (m.creationTimestamp === undefined) m.creationTimestamp = null;
  holder.metadata = orderObjectMeta(m);
}

/**
 * `holder[key]` as an object to default in place: the member when it is one, else a new empty object set
 * there. Assigns only when the member is missing or not an object (copy-on-write kinds never write an
 * unchanged member again: it may be a stored state's, frozen).
 */
export function member(holder: Obj, key: string): Obj {
  const v = holder[key];
  if (isPlainObject(v)) return v as Obj;
  const fresh: Obj = {};
  holder[key] = fresh;
  return fresh;
}

const META_ORDER = ['name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp',
  'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers', 'managedFields'];

const META_RANK = new Map(META_ORDER.map((k, i) => [k, i]));

/** The keys of `meta` are in the order orderObjectMeta gives (ObjectMeta's first, in order, then the rest). */
function inObjectMetaOrder(meta: Obj): boolean {
  let last = -1;
  for (const k in meta) {
    if (!Object.hasOwn(meta, k)) continue;
    const r = META_RANK.get(k) ?? META_ORDER.length;
    if (r < last) return false;
    last = r;
  }
  return true;
}

/** ObjectMeta keys in the order of the Go struct (the order the real server's JSON has). */
export function orderObjectMeta(meta: Obj): Obj {
  const out: Obj = {};
  for (const k of META_ORDER) if (k in meta) out[k] = meta[k];
  for (const k of Object.keys(meta)) if (!(k in out)) out[k] = meta[k];
  return out;
}

/** SetDefaults_Pod (pod-only parts). */
export function defaultPod(pod: KubeObject): void {
  // writes only what is missing (pods are copy-on-write: an update shares the stored spec, frozen)
  if (!obj(pod.spec)) pod.spec = {};
  const spec = pod.spec as Obj;
  for (const list of [spec.containers, spec.initContainers]) {
    for (const c of arr(list)) {
      const res = obj(c.resources);
      const limits = obj(res?.limits);
      if (res && limits) {
        const requests = obj(res.requests) ?? {};
        for (const [k, v] of Object.entries(limits)) if (!(k in requests)) requests[k] = v;
        if (res.requests !== requests) res.requests = requests;
      }
    }
  }
  if (spec.enableServiceLinks === undefined || spec.enableServiceLinks === null) spec.enableServiceLinks = true;
  if (spec.hostNetwork === true) {
    for (const list of [spec.containers, spec.initContainers]) {
      for (const c of arr(list)) for (const p of arr(c.ports)) if (!p.hostPort) p.hostPort = p.containerPort;
    }
  }
  defaultPodSpec(spec);
}

/** qos.GetPodQOS over cpu and memory of all (init) containers. */
export function podQOS(spec: Obj | undefined): 'BestEffort' | 'Burstable' | 'Guaranteed' {
  const containers = [...arr(spec?.containers), ...arr(spec?.initContainers)];
  let any = false;
  let guaranteed = true;
  for (const c of containers) {
    const res = obj(c.resources);
    const req = obj(res?.requests) ?? {};
    const lim = obj(res?.limits) ?? {};
    for (const r of ['cpu', 'memory']) {
      const rq = req[r] !== undefined ? parseQuantity(req[r]) : undefined;
      const lm = lim[r] !== undefined ? parseQuantity(lim[r]) : undefined;
      if ((rq !== undefined && rq !== null && rq > 0) || (lm !== undefined && lm !== null && lm > 0)) any = true;
      if (lm === undefined || lm === null) guaranteed = false;
      else if (rq !== undefined && rq !== lm) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

// ---------------------------------------------------------------------------------------------------
// Validation

const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

function relaxedEnvVarName(name: string): string[] {
  if (name.length === 0) return ['environment variable name must be non-empty'];
  for (const ch of name) {
    const c = ch.codePointAt(0)!;
    if (c > 126 || c < 32 || ch === '=') return ["a valid environment variable name must consist only of printable ASCII characters other than '='"];
  }
  return [];
}

function validateContainer(c: Obj, path: string, volumes: Set<string>, names: Set<string>, isPod: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const name = typeof c.name === 'string' ? c.name : '';
  if (!name) errs.push(fieldErr.required(`${path}.name`, ''));
  else {
    for (const m of isDNS1123Label(name)) errs.push(fieldErr.invalid(`${path}.name`, name, m));
    if (names.has(name)) errs.push(fieldErr.duplicate(`${path}.name`, name));
    names.add(name);
  }
  const image = typeof c.image === 'string' ? c.image : '';
  if (!image) errs.push(fieldErr.required(`${path}.image`, ''));
  else if (isPod && image !== image.trim()) errs.push(fieldErr.invalid(`${path}.image`, image, 'must not have leading or trailing whitespace'));
  if (c.imagePullPolicy !== undefined && !PULL_POLICIES.includes(String(c.imagePullPolicy))) {
    errs.push(fieldErr.notSupported(`${path}.imagePullPolicy`, c.imagePullPolicy, PULL_POLICIES));
  }
  if (c.terminationMessagePolicy !== undefined && !MESSAGE_POLICIES.includes(String(c.terminationMessagePolicy))) {
    errs.push(fieldErr.notSupported(`${path}.terminationMessagePolicy`, c.terminationMessagePolicy, MESSAGE_POLICIES));
  }
  const portNames = new Set<string>();
  arr(c.ports).forEach((p, i) => {
    const pp = `${path}.ports[${i}]`;
    if (typeof p.name === 'string' && p.name) {
      for (const m of isValidPortName(p.name)) errs.push(fieldErr.invalid(`${pp}.name`, p.name, m));
      if (portNames.has(p.name)) errs.push(fieldErr.duplicate(`${pp}.name`, p.name));
      portNames.add(p.name);
    }
    if (!p.containerPort) errs.push(fieldErr.required(`${pp}.containerPort`, ''));
    else for (const m of isValidPortNum(Number(p.containerPort))) errs.push(fieldErr.invalid(`${pp}.containerPort`, p.containerPort, m));
    if (p.hostPort) for (const m of isValidPortNum(Number(p.hostPort))) errs.push(fieldErr.invalid(`${pp}.hostPort`, p.hostPort, m));
    if (!p.protocol) errs.push(fieldErr.required(`${pp}.protocol`, ''));
    else if (!PROTOCOLS.includes(String(p.protocol))) errs.push(fieldErr.notSupported(`${pp}.protocol`, p.protocol, PROTOCOLS));
  });
  arr(c.env).forEach((e, i) => {
    const ep = `${path}.env[${i}]`;
    const n = typeof e.name === 'string' ? e.name : '';
    if (!n) errs.push(fieldErr.required(`${ep}.name`, ''));
    else for (const m of relaxedEnvVarName(n)) errs.push(fieldErr.invalid(`${ep}.name`, n, m));
    if (e.valueFrom !== undefined && e.value !== undefined && e.value !== '') {
      errs.push(fieldErr.invalid(`${ep}.valueFrom`, '', 'may not be specified when `value` is not empty'));
    }
  });
  arr(c.volumeMounts).forEach((m, i) => {
    const mp = `${path}.volumeMounts[${i}]`;
    const n = typeof m.name === 'string' ? m.name : '';
    if (!n) errs.push(fieldErr.required(`${mp}.name`, ''));
    else if (!volumes.has(n)) errs.push(fieldErr.notFound(`${mp}.name`, n));
    if (!m.mountPath) errs.push(fieldErr.required(`${mp}.mountPath`, ''));
  });
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe'] as const) {
    const pr = obj(c[probe]);
    if (!pr) continue;
    const handlers = ['exec', 'httpGet', 'tcpSocket', 'grpc'].filter((h) => pr[h] !== undefined && pr[h] !== null);
    if (handlers.length === 0) errs.push(fieldErr.required(`${path}.${probe}`, 'must specify a handler type'));
    else if (handlers.length > 1) errs.push(fieldErr.forbidden(`${path}.${probe}.${handlers[1]}`, 'may not specify more than 1 handler type'));
    for (const f of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) {
      if (typeof pr[f] === 'number' && (pr[f] as number) < 0) errs.push(fieldErr.invalid(`${path}.${probe}.${f}`, pr[f], IS_NEGATIVE));
    }
    if ((probe === 'livenessProbe' || probe === 'startupProbe') && typeof pr.successThreshold === 'number' && pr.successThreshold !== 1) {
      errs.push(fieldErr.invalid(`${path}.${probe}.successThreshold`, pr.successThreshold, 'must be 1'));
    }
  }
  const res = obj(c.resources);
  if (res) {
    const req = obj(res.requests) ?? {};
    const lim = obj(res.limits) ?? {};
    for (const [bag, list] of [['limits', lim], ['requests', req]] as const) {
      for (const [k, v] of Object.entries(list)) {
        const q = parseQuantity(v);
        if (q !== null && q < 0) errs.push(fieldErr.invalid(`${path}.resources.${bag}[${k}]`, String(v), IS_NEGATIVE));
      }
    }
    for (const [k, v] of Object.entries(req)) {
      if (lim[k] === undefined) continue;
      const rq = parseQuantity(v);
      const lm = parseQuantity(lim[k]);
      if (rq !== null && lm !== null && rq > lm) {
        errs.push(fieldErr.invalid(`${path}.resources.requests`, String(v), `must be less than or equal to ${k} limit of ${String(lim[k])}`));
      }
    }
  }
  return errs;
}

export interface PodSpecOptions {
  /** A Pod (not a template): extra pod-only checks. */
  isPod: boolean;
}

/** ValidatePodSpec: the checks people hit most, with the real messages. */
export function validatePodSpec(specIn: unknown, path: string, opts: PodSpecOptions): FieldError[] {
  const errs: FieldError[] = [];
  const spec = obj(specIn) ?? {};
  const volumes = new Set<string>();
  arr(spec.volumes).forEach((v, i) => {
    const vp = `${path}.volumes[${i}]`;
    const n = typeof v.name === 'string' ? v.name : '';
    if (!n) errs.push(fieldErr.required(`${vp}.name`, ''));
    else {
      for (const m of isDNS1123Label(n)) errs.push(fieldErr.invalid(`${vp}.name`, n, m));
      if (volumes.has(n)) errs.push(fieldErr.duplicate(`${vp}.name`, n));
      volumes.add(n);
    }
    const sources = Object.keys(v).filter((k) => k !== 'name');
    if (sources.length > 1) errs.push(fieldErr.forbidden(`${vp}.${sources[1]}`, 'may not specify more than 1 volume type'));
  });
  const names = new Set<string>();
  const containers = arr(spec.containers);
  if (containers.length === 0) errs.push(fieldErr.required(`${path}.containers`, ''));
  arr(spec.initContainers).forEach((c, i) => errs.push(...validateContainer(c, `${path}.initContainers[${i}]`, volumes, names, opts.isPod)));
  containers.forEach((c, i) => errs.push(...validateContainer(c, `${path}.containers[${i}]`, volumes, names, opts.isPod)));
  if (spec.restartPolicy !== undefined && !RESTART_POLICIES.includes(String(spec.restartPolicy))) {
    errs.push(fieldErr.notSupported(`${path}.restartPolicy`, spec.restartPolicy, RESTART_POLICIES));
  } else if (spec.restartPolicy === undefined) errs.push(fieldErr.required(`${path}.restartPolicy`, ''));
  if (spec.dnsPolicy !== undefined && !DNS_POLICIES.includes(String(spec.dnsPolicy))) {
    errs.push(fieldErr.notSupported(`${path}.dnsPolicy`, spec.dnsPolicy, DNS_POLICIES));
  }
  errs.push(...validateLabels(spec.nodeSelector, `${path}.nodeSelector`));
  if (typeof spec.serviceAccountName === 'string' && spec.serviceAccountName) {
    for (const m of nameIsDNSSubdomain(spec.serviceAccountName, false)) errs.push(fieldErr.invalid(`${path}.serviceAccountName`, spec.serviceAccountName, m));
  }
  if (typeof spec.nodeName === 'string' && spec.nodeName) {
    for (const m of nameIsDNSSubdomain(spec.nodeName, false)) errs.push(fieldErr.invalid(`${path}.nodeName`, spec.nodeName, m));
  }
  if (spec.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds !== null) {
    const v = Number(spec.activeDeadlineSeconds);
    if (v < 1 || v > 2147483647) errs.push(fieldErr.invalid(`${path}.activeDeadlineSeconds`, v, inclusiveRangeError(1, 2147483647)));
  }
  if (typeof spec.hostname === 'string' && spec.hostname) {
    for (const m of isDNS1123Label(spec.hostname)) errs.push(fieldErr.invalid(`${path}.hostname`, spec.hostname, m));
  }
  if (typeof spec.subdomain === 'string' && spec.subdomain) {
    for (const m of isDNS1123Label(spec.subdomain)) errs.push(fieldErr.invalid(`${path}.subdomain`, spec.subdomain, m));
  }
  if (typeof spec.priorityClassName === 'string' && spec.priorityClassName) {
    for (const m of isDNS1123Subdomain(spec.priorityClassName)) errs.push(fieldErr.invalid(`${path}.priorityClassName`, spec.priorityClassName, m));
  }
  if (typeof spec.terminationGracePeriodSeconds === 'number' && spec.terminationGracePeriodSeconds < 0 && !opts.isPod) {
    errs.push(fieldErr.invalid(`${path}.terminationGracePeriodSeconds`, spec.terminationGracePeriodSeconds, IS_NEGATIVE));
  }
  return errs;
}

/** ValidatePodTemplateSpec: template labels/annotations and its pod spec. */
export function validatePodTemplateSpec(t: unknown, path: string): FieldError[] {
  const template = obj(t);
  if (!template) return [fieldErr.required(path, '')];
  const meta = obj(template.metadata) ?? {};
  return [
    ...validateLabels(meta.labels, `${path}.metadata.labels`),
    ...validateAnnotations(meta.annotations, `${path}.metadata.annotations`),
    ...validatePodSpec(template.spec, `${path}.spec`, { isPod: false }),
  ];
}

/** Templates of controllers that keep pods running: restartPolicy Always, no activeDeadlineSeconds. */
export function validateAlwaysRestartTemplate(t: unknown, path: string, activeDeadlineDetail: string): FieldError[] {
  const errs: FieldError[] = [];
  const spec = obj(obj(t)?.spec);
  if (!spec) return errs;
  if (spec.restartPolicy !== 'Always') errs.push(fieldErr.notSupported(`${path}.spec.restartPolicy`, spec.restartPolicy ?? '', ['Always']));
  if (spec.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds !== null) {
    errs.push(fieldErr.forbidden(`${path}.spec.activeDeadlineSeconds`, activeDeadlineDetail));
  }
  return errs;
}

// ---------------------------------------------------------------------------------------------------
// Pod update

const UPDATABLE = '`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isPlainObject(v)) return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  return JSON.stringify(v ?? null);
}

const goFieldName = (k: string) => k.charAt(0).toUpperCase() + k.slice(1);

/** The pod-spec immutability rule of ValidatePodUpdate (a cmp.Diff-like listing follows the message). */
export function validatePodSpecUpdate(newSpecIn: unknown, oldSpecIn: unknown): FieldError[] {
  const errs: FieldError[] = [];
  const newSpec = obj(newSpecIn) ?? {};
  const oldSpec = obj(oldSpecIn) ?? {};
  const munged: Obj = JSON.parse(JSON.stringify(newSpec));
  for (const key of ['containers', 'initContainers']) {
    const nc = arr(munged[key]);
    const oc = arr(oldSpec[key]);
    nc.forEach((c, i) => {
      if (i < oc.length && c.image) c.image = oc[i].image;
    });
  }
  // activeDeadlineSeconds may be set, or lowered, but not removed or raised
  const oldAds = oldSpec.activeDeadlineSeconds;
  const newAds = newSpec.activeDeadlineSeconds;
  if (newAds !== undefined && newAds !== null && (oldAds === undefined || oldAds === null || Number(newAds) <= Number(oldAds))) {
    if (oldAds === undefined) delete munged.activeDeadlineSeconds;
    else munged.activeDeadlineSeconds = oldAds;
  }
  if (typeof oldSpec.terminationGracePeriodSeconds === 'number' && oldSpec.terminationGracePeriodSeconds < 0 && newSpec.terminationGracePeriodSeconds === 1) {
    munged.terminationGracePeriodSeconds = oldSpec.terminationGracePeriodSeconds;
  }
  const oldTol = Array.isArray(oldSpec.tolerations) ? oldSpec.tolerations : [];
  const newTol = Array.isArray(newSpec.tolerations) ? newSpec.tolerations : [];
  const oldTolKeys = new Set(oldTol.map(canonical));
  if (oldTol.every((t) => newTol.some((n) => canonical(n) === canonical(t)))) {
    if (oldSpec.tolerations === undefined) delete munged.tolerations;
    else munged.tolerations = oldSpec.tolerations;
  }
  void oldTolKeys;
  if (canonical(munged) !== canonical(oldSpec)) {
    const keys = [...new Set([...Object.keys(oldSpec), ...Object.keys(munged)])].sort();
    const lines = ['  core.PodSpec{'];
    for (const k of keys) {
      if (canonical(oldSpec[k]) === canonical(munged[k])) continue;
      if (oldSpec[k] !== undefined) lines.push(`- \t${goFieldName(k)}: ${canonical(oldSpec[k])},`);
      if (munged[k] !== undefined) lines.push(`+ \t${goFieldName(k)}: ${canonical(munged[k])},`);
    }
    lines.push('  }');
    errs.push(fieldErr.forbidden('spec', `pod updates may not change fields other than ${UPDATABLE}\n${lines.join('\n')}\n`));
  }
  if (oldAds !== undefined && oldAds !== null && (newAds === undefined || newAds === null)) {
    errs.push(fieldErr.invalid('spec.activeDeadlineSeconds', null, 'must not update from a positive integer to nil value'));
  } else if (oldAds !== undefined && oldAds !== null && Number(newAds) > Number(oldAds)) {
    errs.push(fieldErr.invalid('spec.activeDeadlineSeconds', newAds, 'must be less than or equal to previous value'));
  }
  return errs;
}

// ---------------------------------------------------------------------------------------------------
// Warnings (pkg/api/pod/warnings.go: the most common ones)

const DEPRECATED_NODE_LABELS: Record<string, string> = {
  'beta.kubernetes.io/arch': 'deprecated since v1.14; use "kubernetes.io/arch" instead',
  'beta.kubernetes.io/os': 'deprecated since v1.14; use "kubernetes.io/os" instead',
  'failure-domain.beta.kubernetes.io/region': 'deprecated since v1.17; use "topology.kubernetes.io/region" instead',
  'failure-domain.beta.kubernetes.io/zone': 'deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
  'beta.kubernetes.io/instance-type': 'deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
};

/**
 * Warnings for a pod spec and its metadata; `prefix` is '' for a Pod and e.g. 'spec.template' for a
 * template (paths then read `spec.template.spec.nodeSelector[...]`).
 */
export function podWarnings(specIn: unknown, metaIn: unknown, prefix: string): string[] {
  const spec = obj(specIn) ?? {};
  const meta = obj(metaIn) ?? {};
  const p = (s: string) => (prefix ? `${prefix}.${s}` : s);
  const out: string[] = [];
  const annotations = obj(meta.annotations) ?? {};
  for (const k of Object.keys(annotations)) {
    if (k === 'scheduler.alpha.kubernetes.io/critical-pod') out.push(`${p('metadata')}.annotations[${k}]: non-functional in v1.16+; use the "priorityClassName" field instead`);
    if (k === 'seccomp.security.alpha.kubernetes.io/pod' || k.startsWith('container.seccomp.security.alpha.kubernetes.io/')) {
      out.push(`${p('metadata')}.annotations[${k}]: non-functional in v1.27+; use the "seccompProfile" field instead`);
    }
    if (k === 'security.alpha.kubernetes.io/sysctls' || k === 'security.alpha.kubernetes.io/unsafe-sysctls') {
      out.push(`${p('metadata')}.annotations[${k}]: non-functional in v1.11+; use the "sysctls" field instead`);
    }
    if (k.startsWith('container.apparmor.security.beta.kubernetes.io/')) {
      out.push(`${p('metadata')}.annotations[${k}]: deprecated since v1.30; use the "appArmorProfile" field instead`);
    }
  }
  for (const k of Object.keys(obj(spec.nodeSelector) ?? {})) {
    if (DEPRECATED_NODE_LABELS[k]) out.push(`${p('spec')}.nodeSelector[${k}]: ${DEPRECATED_NODE_LABELS[k]}`);
  }
  if (typeof spec.terminationGracePeriodSeconds === 'number' && spec.terminationGracePeriodSeconds < 0) {
    out.push(`${p('spec')}.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1`);
  }
  for (const [listName, list] of [['initContainers', spec.initContainers], ['containers', spec.containers]] as const) {
    arr(list).forEach((c, i) => {
      const cp = `${p('spec')}.${listName}[${i}]`;
      const envSeen = new Map<string, number>();
      arr(c.env).forEach((e, j) => {
        const name = typeof e.name === 'string' ? e.name : '';
        if (envSeen.has(name)) out.push(`${cp}.env[${j}]: hides previous definition of ${JSON.stringify(name)}, which may be dropped when using apply`);
        else envSeen.set(name, j);
      });
      const portSeen = new Map<string, number>();
      arr(c.ports).forEach((port, j) => {
        const key = `${port.containerPort}/${port.protocol ?? 'TCP'}/${port.hostIP ?? ''}/${port.hostPort ?? 0}`;
        if (portSeen.has(key)) out.push(`${cp}.ports[${j}]: duplicate port definition with ${cp}.ports[${portSeen.get(key)}]`);
        else portSeen.set(key, j);
      });
    });
  }
  return out;
}

/** Only warnings that the previous object did not already have (updates repeat none). */
export function newWarnings(now: string[], before: string[]): string[] {
  const old = new Set(before);
  return now.filter((w) => !old.has(w));
}
