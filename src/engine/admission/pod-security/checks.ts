// The Pod Security Standards checks [K8S k8s.io/pod-security-admission policy], as of v1.33: each check has an
// id, a level and versions (the first Kubernetes minor it applies from); restricted checks may replace
// baseline ones. A level evaluates its checks in id order, baseline ones first, and a failing check gives a
// reason and a detail with the real wording.

import { goQuote } from '../../codec/go-format.js';
import { a, o, str } from '../../resources/common/printers.js';

type Obj = Record<string, unknown>;

export type Level = 'privileged' | 'baseline' | 'restricted';

/** A policy version: "latest", or v1.<minor>. */
export interface Version {
  latest: boolean;
  minor: number;
}

export interface CheckResult {
  reason: string;
  detail: string;
}

type CheckFn = (meta: Obj, spec: Obj) => CheckResult | undefined;

interface Check {
  id: string;
  level: 'baseline' | 'restricted';
  /** Oldest first: each applies from its minor version until the next one. */
  versions: { minor: number; fn: CheckFn; overrides?: string[] }[];
}

const plural = (one: string, many: string, n: number) => (n === 1 ? one : many);
const joinQuote = (items: string[]) => (items.length ? `"${items.join('", "')}"` : '');
const sortedSet = (s: Set<string>) => [...s].sort();

/** Init containers, containers, ephemeral containers, in that order (the real visitor's). */
function containers(spec: Obj): Obj[] {
  return [...a(spec.initContainers), ...a(spec.containers), ...a(spec.ephemeralContainers)];
}
const sc = (c: Obj): Obj | undefined => (c.securityContext && typeof c.securityContext === 'object' ? (c.securityContext as Obj) : undefined);
const podSc = (spec: Obj): Obj | undefined => sc({ securityContext: spec.securityContext });
const isWindows = (spec: Obj) => str(o(spec.os).name) === 'windows';
const containersPhrase = (names: string[]) => `${plural('container', 'containers', names.length)} ${joinQuote(names)}`;

function privileged(_m: Obj, spec: Obj): CheckResult | undefined {
  const bad = containers(spec).filter((c) => sc(c)?.privileged === true).map((c) => str(c.name));
  if (!bad.length) return undefined;
  return { reason: 'privileged', detail: `${containersPhrase(bad)} must not set securityContext.privileged=true` };
}

function hostNamespaces(_m: Obj, spec: Obj): CheckResult | undefined {
  const ns: string[] = [];
  if (spec.hostNetwork === true) ns.push('hostNetwork=true');
  if (spec.hostPID === true) ns.push('hostPID=true');
  if (spec.hostIPC === true) ns.push('hostIPC=true');
  return ns.length ? { reason: 'host namespaces', detail: ns.join(', ') } : undefined;
}

function hostPathVolumes(_m: Obj, spec: Obj): CheckResult | undefined {
  const bad = a(spec.volumes).filter((v) => v.hostPath !== undefined && v.hostPath !== null).map((v) => str(v.name));
  if (!bad.length) return undefined;
  return { reason: 'hostPath volumes', detail: `${plural('volume', 'volumes', bad.length)} ${joinQuote(bad)}` };
}

function hostPorts(_m: Obj, spec: Obj): CheckResult | undefined {
  const bad: string[] = [];
  const ports = new Set<string>();
  for (const c of containers(spec)) {
    let valid = true;
    for (const p of a(c.ports)) {
      if (typeof p.hostPort === 'number' && p.hostPort !== 0) {
        valid = false;
        ports.add(String(p.hostPort));
      }
    }
    if (!valid) bad.push(str(c.name));
  }
  if (!bad.length) return undefined;
  return {
    reason: 'hostPort',
    detail: `${containersPhrase(bad)} ${plural('uses', 'use', bad.length)} ${plural('hostPort', 'hostPorts', ports.size)} ${sortedSet(ports).join(', ')}`,
  };
}

const BASELINE_CAPABILITIES = new Set(['AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT']);

function capabilitiesBaseline(_m: Obj, spec: Obj): CheckResult | undefined {
  const bad: string[] = [];
  const caps = new Set<string>();
  for (const c of containers(spec)) {
    const cap = sc(c)?.capabilities;
    if (!cap || typeof cap !== 'object') continue;
    let valid = true;
    for (const x of Array.isArray((cap as Obj).add) ? ((cap as Obj).add as unknown[]) : []) {
      if (!BASELINE_CAPABILITIES.has(String(x))) {
        valid = false;
        caps.add(String(x));
      }
    }
    if (!valid) bad.push(str(c.name));
  }
  if (!bad.length) return undefined;
  return { reason: 'non-default capabilities', detail: `${containersPhrase(bad)} must not include ${joinQuote(sortedSet(caps))} in securityContext.capabilities.add` };
}

function appArmorProfile(meta: Obj, spec: Obj): CheckResult | undefined {
  const allowedType = (t: unknown) => t === 'RuntimeDefault' || t === 'Localhost';
  const setters: string[] = [];
  const values = new Set<string>();
  const pp = podSc(spec)?.appArmorProfile;
  if (pp && typeof pp === 'object' && !allowedType((pp as Obj).type)) {
    setters.push('pod');
    values.add(str((pp as Obj).type));
  }
  const bad: string[] = [];
  for (const c of containers(spec)) {
    const p = sc(c)?.appArmorProfile;
    if (p && typeof p === 'object' && !allowedType((p as Obj).type)) {
      bad.push(str(c.name));
      values.add(str((p as Obj).type));
    }
  }
  if (bad.length) setters.push(containersPhrase(bad));
  const annotations: string[] = [];
  for (const [k, v] of Object.entries(o(meta.annotations))) {
    const value = str(v);
    if (k.startsWith('container.apparmor.security.beta.kubernetes.io/') && !(value === '' || value === 'runtime/default' || value.startsWith('localhost/'))) {
      annotations.push(`${k}=${goQuote(value)}`);
    }
  }
  const list = sortedSet(values);
  if (annotations.length) {
    list.push(...annotations.sort());
    setters.push(plural('annotation', 'annotations', annotations.length));
  }
  if (!setters.length) return undefined;
  return {
    reason: plural('forbidden AppArmor profile', 'forbidden AppArmor profiles', list.length),
    detail: `${setters.join(' and ')} must not set AppArmor profile type to ${joinQuote(list)}`,
  };
}

function seLinuxOptions(allowed: Set<string>): CheckFn {
  return (_m, spec) => {
    const setters: string[] = [];
    const types = new Set<string>();
    let user = false;
    let role = false;
    const valid = (opts: Obj) => {
      let ok = true;
      if (!allowed.has(str(opts.type))) {
        ok = false;
        types.add(str(opts.type));
      }
      if (str(opts.user)) {
        ok = false;
        user = true;
      }
      if (str(opts.role)) {
        ok = false;
        role = true;
      }
      return ok;
    };
    const po = podSc(spec)?.seLinuxOptions;
    if (po && typeof po === 'object' && !valid(po as Obj)) setters.push('pod');
    const bad: string[] = [];
    for (const c of containers(spec)) {
      const co = sc(c)?.seLinuxOptions;
      if (co && typeof co === 'object' && !valid(co as Obj)) bad.push(str(c.name));
    }
    if (bad.length) setters.push(containersPhrase(bad));
    if (!setters.length) return undefined;
    const data: string[] = [];
    if (types.size) data.push(`${plural('type', 'types', types.size)} ${joinQuote(sortedSet(types))}`);
    if (user) data.push('user may not be set');
    if (role) data.push('role may not be set');
    return { reason: 'seLinuxOptions', detail: `${setters.join(' and ')} set forbidden securityContext.seLinuxOptions: ${data.join('; ')}` };
  };
}

function procMount(_m: Obj, spec: Obj): CheckResult | undefined {
  const bad: string[] = [];
  const types = new Set<string>();
  for (const c of containers(spec)) {
    const pm = sc(c)?.procMount;
    if (pm === undefined || pm === null) continue;
    if (pm !== 'Default') {
      bad.push(str(c.name));
      types.add(str(pm));
    }
  }
  if (!bad.length) return undefined;
  return { reason: 'procMount', detail: `${containersPhrase(bad)} must not set securityContext.procMount to ${joinQuote(sortedSet(types))}` };
}

const validSeccomp = (t: unknown) => t === 'Localhost' || t === 'RuntimeDefault';
const SECCOMP_POD_ANNOTATION = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';

function seccompBaselineAnnotations(meta: Obj, spec: Obj): CheckResult | undefined {
  const ann = o(meta.annotations);
  const okValue = (v: string) => v === 'runtime/default' || v === 'docker/default' || v.startsWith('localhost/');
  const bad = new Set<string>();
  if (SECCOMP_POD_ANNOTATION in ann && !okValue(str(ann[SECCOMP_POD_ANNOTATION]))) bad.add(`${SECCOMP_POD_ANNOTATION}=${goQuote(str(ann[SECCOMP_POD_ANNOTATION]))}`);
  for (const c of containers(spec)) {
    const k = SECCOMP_CONTAINER_PREFIX + str(c.name);
    if (k in ann && !okValue(str(ann[k]))) bad.add(`${k}=${goQuote(str(ann[k]))}`);
  }
  if (!bad.size) return undefined;
  return { reason: 'seccompProfile', detail: `forbidden ${plural('annotation', 'annotations', bad.size)} ${sortedSet(bad).join(', ')}` };
}

/** The seccomp check of both levels; `restricted` also requires a profile on every container. */
function seccomp(restricted: boolean): CheckFn {
  return (_m, spec) => {
    if (restricted && isWindows(spec)) return undefined;
    const setters: string[] = [];
    const values = new Set<string>();
    let podSet = false;
    const pp = podSc(spec)?.seccompProfile;
    if (pp && typeof pp === 'object') {
      if (!validSeccomp((pp as Obj).type)) {
        setters.push('pod');
        values.add(str((pp as Obj).type));
      } else podSet = true;
    }
    const explicit: string[] = [];
    const implicit: string[] = [];
    for (const c of containers(spec)) {
      const p = sc(c)?.seccompProfile;
      if (p && typeof p === 'object') {
        if (!validSeccomp((p as Obj).type)) {
          explicit.push(str(c.name));
          values.add(str((p as Obj).type));
        }
      } else if (!podSet) implicit.push(str(c.name));
    }
    if (explicit.length) setters.push(containersPhrase(explicit));
    if (setters.length) return { reason: 'seccompProfile', detail: `${setters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(values))}` };
    if (restricted && implicit.length) {
      return { reason: 'seccompProfile', detail: `pod or ${containersPhrase(implicit)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"` };
    }
    return undefined;
  };
}

const SYSCTLS_1_0 = ['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range', 'net.ipv4.ip_unprivileged_port_start'];
const SYSCTLS_1_27 = [...SYSCTLS_1_0, 'net.ipv4.ip_local_reserved_ports'];
const SYSCTLS_1_29 = [...SYSCTLS_1_27, 'net.ipv4.tcp_keepalive_time', 'net.ipv4.tcp_fin_timeout', 'net.ipv4.tcp_keepalive_intvl', 'net.ipv4.tcp_keepalive_probes'];
const SYSCTLS_1_32 = [...SYSCTLS_1_29, 'net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem'];

function sysctls(allowed: string[]): CheckFn {
  const set = new Set(allowed);
  return (_m, spec) => {
    const bad = a(podSc(spec)?.sysctls).map((s) => str(s.name)).filter((n) => !set.has(n));
    return bad.length ? { reason: 'forbidden sysctls', detail: bad.join(', ') } : undefined;
  };
}

function windowsHostProcess(_m: Obj, spec: Obj): CheckResult | undefined {
  const hp = (x: Obj | undefined) => o(x?.windowsOptions).hostProcess === true;
  const bad = containers(spec).filter((c) => hp(sc(c))).map((c) => str(c.name));
  const setters: string[] = [];
  if (hp(podSc(spec))) setters.push('pod');
  if (bad.length) setters.push(containersPhrase(bad));
  if (!setters.length) return undefined;
  return { reason: 'hostProcess', detail: `${setters.join(' and ')} must not set securityContext.windowsOptions.hostProcess=true` };
}

function allowPrivilegeEscalation(skipWindows: boolean): CheckFn {
  return (_m, spec) => {
    if (skipWindows && isWindows(spec)) return undefined;
    const bad = containers(spec).filter((c) => sc(c)?.allowPrivilegeEscalation !== false).map((c) => str(c.name));
    if (!bad.length) return undefined;
    return { reason: 'allowPrivilegeEscalation != false', detail: `${containersPhrase(bad)} must set securityContext.allowPrivilegeEscalation=false` };
  };
}

function capabilitiesRestricted(skipWindows: boolean): CheckFn {
  return (_m, spec) => {
    if (skipWindows && isWindows(spec)) return undefined;
    const missingDrop: string[] = [];
    const adding: string[] = [];
    const forbidden = new Set<string>();
    for (const c of containers(spec)) {
      const cap = sc(c)?.capabilities;
      if (!cap || typeof cap !== 'object') {
        missingDrop.push(str(c.name));
        continue;
      }
      const drop = Array.isArray((cap as Obj).drop) ? ((cap as Obj).drop as unknown[]) : [];
      if (!drop.includes('ALL')) missingDrop.push(str(c.name));
      let added = false;
      for (const x of Array.isArray((cap as Obj).add) ? ((cap as Obj).add as unknown[]) : []) {
        if (x !== 'NET_BIND_SERVICE') {
          added = true;
          forbidden.add(String(x));
        }
      }
      if (added) adding.push(str(c.name));
    }
    const details: string[] = [];
    if (missingDrop.length) details.push(`${containersPhrase(missingDrop)} must set securityContext.capabilities.drop=["ALL"]`);
    if (adding.length) details.push(`${containersPhrase(adding)} must not include ${joinQuote(sortedSet(forbidden))} in securityContext.capabilities.add`);
    return details.length ? { reason: 'unrestricted capabilities', detail: details.join('; ') } : undefined;
  };
}

const ALLOWED_VOLUME_TYPES = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'image', 'persistentVolumeClaim', 'projected', 'secret'];
const RESTRICTED_VOLUME_TYPES = [
  'hostPath', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'nfs', 'iscsi', 'glusterfs', 'rbd', 'flexVolume', 'cinder', 'cephfs',
  'flocker', 'fc', 'azureFile', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'portworxVolume', 'scaleIO', 'storageos',
];

function restrictedVolumes(_m: Obj, spec: Obj): CheckResult | undefined {
  const bad: string[] = [];
  const types = new Set<string>();
  const set = (v: Obj, k: string) => v[k] !== undefined && v[k] !== null;
  for (const v of a(spec.volumes)) {
    if (ALLOWED_VOLUME_TYPES.some((t) => set(v, t))) continue;
    bad.push(str(v.name));
    types.add(RESTRICTED_VOLUME_TYPES.find((t) => set(v, t)) ?? 'unknown');
  }
  if (!bad.length) return undefined;
  return {
    reason: 'restricted volume types',
    detail: `${plural('volume', 'volumes', bad.length)} ${joinQuote(bad)} ${plural('uses', 'use', bad.length)} ${plural('restricted volume type', 'restricted volume types', types.size)} ${joinQuote(sortedSet(types))}`,
  };
}

function runAsNonRoot(_m: Obj, spec: Obj): CheckResult | undefined {
  const setters: string[] = [];
  let podNonRoot = false;
  const p = podSc(spec);
  if (p && typeof p.runAsNonRoot === 'boolean') {
    if (!p.runAsNonRoot) setters.push('pod');
    else podNonRoot = true;
  }
  const explicit: string[] = [];
  const implicit: string[] = [];
  for (const c of containers(spec)) {
    const s = sc(c);
    if (s && typeof s.runAsNonRoot === 'boolean') {
      if (!s.runAsNonRoot) explicit.push(str(c.name));
    } else if (!podNonRoot) implicit.push(str(c.name));
  }
  if (explicit.length) setters.push(containersPhrase(explicit));
  if (setters.length) return { reason: 'runAsNonRoot != true', detail: `${setters.join(' and ')} must not set securityContext.runAsNonRoot=false` };
  if (implicit.length) return { reason: 'runAsNonRoot != true', detail: `pod or ${containersPhrase(implicit)} must set securityContext.runAsNonRoot=true` };
  return undefined;
}

function runAsUser(_m: Obj, spec: Obj): CheckResult | undefined {
  const setters: string[] = [];
  if (podSc(spec)?.runAsUser === 0) setters.push('pod');
  const bad = containers(spec).filter((c) => sc(c)?.runAsUser === 0).map((c) => str(c.name));
  if (bad.length) setters.push(containersPhrase(bad));
  return setters.length ? { reason: 'runAsUser=0', detail: `${setters.join(' and ')} must not set runAsUser=0` } : undefined;
}

const SELINUX_1_0 = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);
const SELINUX_1_31 = new Set([...SELINUX_1_0, 'container_engine_t']);

const CHECKS: Check[] = [
  { id: 'appArmorProfile', level: 'baseline', versions: [{ minor: 0, fn: appArmorProfile }] },
  { id: 'capabilities_baseline', level: 'baseline', versions: [{ minor: 0, fn: capabilitiesBaseline }] },
  { id: 'hostNamespaces', level: 'baseline', versions: [{ minor: 0, fn: hostNamespaces }] },
  { id: 'hostPathVolumes', level: 'baseline', versions: [{ minor: 0, fn: hostPathVolumes }] },
  { id: 'hostPorts', level: 'baseline', versions: [{ minor: 0, fn: hostPorts }] },
  { id: 'privileged', level: 'baseline', versions: [{ minor: 0, fn: privileged }] },
  { id: 'procMount', level: 'baseline', versions: [{ minor: 0, fn: procMount }] },
  { id: 'seLinuxOptions', level: 'baseline', versions: [{ minor: 0, fn: seLinuxOptions(SELINUX_1_0) }, { minor: 31, fn: seLinuxOptions(SELINUX_1_31) }] },
  { id: 'seccompProfile_baseline', level: 'baseline', versions: [{ minor: 0, fn: seccompBaselineAnnotations }, { minor: 19, fn: seccomp(false) }] },
  { id: 'sysctls', level: 'baseline', versions: [{ minor: 0, fn: sysctls(SYSCTLS_1_0) }, { minor: 27, fn: sysctls(SYSCTLS_1_27) }, { minor: 29, fn: sysctls(SYSCTLS_1_29) }, { minor: 32, fn: sysctls(SYSCTLS_1_32) }] },
  { id: 'windowsHostProcess', level: 'baseline', versions: [{ minor: 0, fn: windowsHostProcess }] },
  { id: 'allowPrivilegeEscalation', level: 'restricted', versions: [{ minor: 8, fn: allowPrivilegeEscalation(false) }, { minor: 25, fn: allowPrivilegeEscalation(true) }] },
  { id: 'capabilities_restricted', level: 'restricted', versions: [{ minor: 22, fn: capabilitiesRestricted(false), overrides: ['capabilities_baseline'] }, { minor: 25, fn: capabilitiesRestricted(true), overrides: ['capabilities_baseline'] }] },
  { id: 'restrictedVolumes', level: 'restricted', versions: [{ minor: 0, fn: restrictedVolumes, overrides: ['hostPathVolumes'] }] },
  { id: 'runAsNonRoot', level: 'restricted', versions: [{ minor: 0, fn: runAsNonRoot }] },
  { id: 'runAsUser', level: 'restricted', versions: [{ minor: 23, fn: runAsUser }] },
  { id: 'seccompProfile_restricted', level: 'restricted', versions: [{ minor: 19, fn: seccomp(true), overrides: ['seccompProfile_baseline'] }, { minor: 25, fn: seccomp(true), overrides: ['seccompProfile_baseline'] }] },
];

function versionAt(check: Check, v: Version) {
  let found: Check['versions'][number] | undefined;
  for (const x of check.versions) if (v.latest || x.minor <= v.minor) found = x;
  return found;
}

/** EvaluatePod: the failing checks of a level at a version (nothing for privileged). */
export function evaluatePod(level: Level, version: Version, meta: Obj, spec: Obj): CheckResult[] {
  if (level === 'privileged') return [];
  const active = CHECKS.map((c) => ({ c, v: versionAt(c, version) })).filter((x) => x.v && (level === 'restricted' || x.c.level === 'baseline'));
  const overridden = new Set(level === 'restricted' ? active.flatMap((x) => x.v!.overrides ?? []) : []);
  const out: CheckResult[] = [];
  for (const { c, v } of active) {
    if (overridden.has(c.id)) continue;
    const r = v!.fn(meta, spec);
    if (r) out.push(r);
  }
  return out;
}

/** AggregateCheckResult.ForbiddenDetail: `reason (detail), reason (detail)`. */
export function forbiddenDetail(results: CheckResult[]): string {
  return results.map((r) => (r.detail ? `${r.reason} (${r.detail})` : r.reason)).join(', ');
}

/** AggregateCheckResult.ForbiddenReason: the reasons alone. */
export function forbiddenReason(results: CheckResult[]): string {
  return results.map((r) => r.reason).join(', ');
}
