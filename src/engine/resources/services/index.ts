// Services (core v1): SetDefaults_Service, the service REST layer's allocation of cluster IPs from the
// service CIDR 10.96.0.0/12 (single-stack IPv4 cluster) and node ports from 30000-32767, keeping allocated
// values on update, ValidateService/Update (main checks) and the service printer.

import { fieldErr, invalid, type FieldError } from '../../errors.js';
import { isPlainObject, type KubeObject } from '../../object.js';
import type { ResourceDefinition, StrategyContext } from '../../registry/types.js';
import {
  inclusiveRangeError, isDNS1123Label, isIP, isIPv4, isValidPortName, isValidPortNum, nameIsDNS1035Label, validateLabels,
} from '../../util/validation.js';
import { builtin } from '../factory.js';
import { goIntOrString, goQuote, goStringSlice, invalidRepr } from '../common/go-repr.js';
import { formatLabels } from '../common/labels.js';
import { a, ageColumn, col, o, str } from '../common/printers.js';

type Obj = Record<string, unknown>;

export const SERVICE_CIDR = '10.96.0.0/12';
const CIDR_BASE = (10 << 24) | (96 << 16); // 10.96.0.0
const CIDR_SIZE = 1 << 20; // /12
/** The lower band is kept for static choices; dynamic allocation prefers addresses above it. */
const STATIC_BAND = 256;
export const NODE_PORT_MIN = 30000;
export const NODE_PORT_MAX = 32767;

function ipToInt(ip: string): number {
  return ip.split('.').reduce((n, p) => n * 256 + Number(p), 0);
}
function intToIp(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

const isHeadless = (spec: Obj) => spec.clusterIP === 'None' || (Array.isArray(spec.clusterIPs) && spec.clusterIPs[0] === 'None');
const externallyAccessible = (spec: Obj) =>
  spec.type === 'LoadBalancer' || spec.type === 'NodePort' || (spec.type === 'ClusterIP' && Array.isArray(spec.externalIPs) && spec.externalIPs.length > 0);

export function defaultService(obj: KubeObject): void {
  const spec = (obj.spec = o(obj.spec));
  if (!spec.sessionAffinity) spec.sessionAffinity = 'None';
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP') {
    const timeout = o(o(spec.sessionAffinityConfig).clientIP).timeoutSeconds;
    if (timeout === undefined || timeout === null) spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: 10800 } };
  }
  if (!spec.type) spec.type = 'ClusterIP';
  for (const p of a(spec.ports)) {
    if (!p.protocol) p.protocol = 'TCP';
    if (p.targetPort === undefined || p.targetPort === null || p.targetPort === 0 || p.targetPort === '') p.targetPort = p.port;
  }
  if (Array.isArray(spec.ports)) spec.ports = a(spec.ports);
  if (externallyAccessible(spec) && !spec.externalTrafficPolicy) spec.externalTrafficPolicy = 'Cluster';
  if ((spec.internalTrafficPolicy === undefined || spec.internalTrafficPolicy === null) && ['NodePort', 'LoadBalancer', 'ClusterIP'].includes(String(spec.type))) {
    spec.internalTrafficPolicy = 'Cluster';
  }
  if (spec.type === 'LoadBalancer' && (spec.allocateLoadBalancerNodePorts === undefined || spec.allocateLoadBalancerNodePorts === null)) {
    spec.allocateLoadBalancerNodePorts = true;
  }
  if (spec.type === 'LoadBalancer') {
    for (const ing of a(o(o(obj.status).loadBalancer).ingress)) if (ing.ip && ing.ipMode === undefined) ing.ipMode = 'VIP';
  }
}

function usedClusterIPs(ctx: StrategyContext, self?: KubeObject): Set<string> {
  const used = new Set<string>(['10.96.0.1']);
  for (const s of ctx.list('', 'services')) {
    if (self && s.metadata?.uid && s.metadata.uid === self.metadata?.uid) continue;
    const sp = o(s.spec);
    for (const ip of Array.isArray(sp.clusterIPs) ? sp.clusterIPs : [sp.clusterIP]) if (typeof ip === 'string' && ip) used.add(ip);
  }
  // the kubernetes service owns 10.96.0.1 even before it exists
  return used;
}

function usedNodePorts(ctx: StrategyContext, self?: KubeObject): Set<number> {
  const used = new Set<number>();
  for (const s of ctx.list('', 'services')) {
    if (self && s.metadata?.uid && s.metadata.uid === self.metadata?.uid) continue;
    const sp = o(s.spec);
    for (const p of a(sp.ports)) if (typeof p.nodePort === 'number' && p.nodePort) used.add(p.nodePort);
    if (typeof sp.healthCheckNodePort === 'number' && sp.healthCheckNodePort) used.add(sp.healthCheckNodePort);
  }
  return used;
}

function reject(obj: KubeObject, errs: FieldError[]): never {
  throw invalid({ group: '', kind: 'Service' }, obj.metadata?.name ?? '', errs);
}

function allocateClusterIP(obj: KubeObject, ctx: StrategyContext): void {
  const spec = o(obj.spec);
  const requested = str(spec.clusterIP) || (Array.isArray(spec.clusterIPs) ? str(spec.clusterIPs[0]) : '');
  if (requested && requested !== 'None') {
    if (!isIPv4(requested)) return; // validation reports a malformed address
    const used = usedClusterIPs(ctx);
    const n = ipToInt(requested);
    const offset = n - CIDR_BASE;
    const fail = (why: string) => reject(obj, [invalidRepr('spec.clusterIPs', goStringSlice([requested]), `failed to allocate IP ${requested}: ${why}`)]);
    if (offset <= 0 || offset >= CIDR_SIZE - 1) fail(`the provided IP (${requested}) is not in the valid range. The range of valid IPs is ${SERVICE_CIDR}`);
    if (used.has(requested)) fail('provided IP is already allocated');
    spec.clusterIP = requested;
    spec.clusterIPs = [requested];
    return;
  }
  const used = usedClusterIPs(ctx);
  const dynamic = CIDR_SIZE - 2 - STATIC_BAND;
  const start = ctx.env.ids.int(dynamic);
  for (let i = 0; i < CIDR_SIZE - 2; i++) {
    // try the dynamic band first, then fall back to the static band
    const off = i < dynamic ? STATIC_BAND + 1 + ((start + i) % dynamic) : 1 + (i - dynamic);
    const ip = intToIp((CIDR_BASE + off) >>> 0);
    if (!used.has(ip)) {
      spec.clusterIP = ip;
      spec.clusterIPs = [ip];
      return;
    }
  }
  reject(obj, [fieldErr.internal('spec.clusterIPs', 'range is full')]);
}

function initIPFamilies(spec: Obj, obj: KubeObject): void {
  if (spec.type === 'ExternalName') return;
  const headless = isHeadless(spec);
  const hasSelector = isPlainObject(spec.selector) && Object.keys(spec.selector).length > 0;
  if (headless) {
    spec.clusterIP = 'None';
    spec.clusterIPs = ['None'];
    if (!hasSelector) {
      // headless services without a selector default to RequireDualStack; a single-stack cluster has only
      // its one family to give them
      if (!spec.ipFamilyPolicy) spec.ipFamilyPolicy = 'RequireDualStack';
      if (!Array.isArray(spec.ipFamilies) || spec.ipFamilies.length === 0) spec.ipFamilies = ['IPv4'];
      return;
    }
  }
  if (!spec.ipFamilyPolicy) spec.ipFamilyPolicy = 'SingleStack';
  if (spec.ipFamilyPolicy === 'RequireDualStack') {
    reject(obj, [fieldErr.invalid('spec.ipFamilyPolicy', 'RequireDualStack', 'this cluster is not configured for dual-stack services')]);
  }
  const families = Array.isArray(spec.ipFamilies) ? (spec.ipFamilies as unknown[]) : [];
  families.forEach((f, i) => {
    if (f === 'IPv6') reject(obj, [fieldErr.invalid(`spec.ipFamilies[${i}]`, f, 'not configured on this cluster')]);
  });
  spec.ipFamilies = ['IPv4'];
}

function allocateNodePorts(obj: KubeObject, ctx: StrategyContext, old?: KubeObject): void {
  const spec = o(obj.spec);
  const needs = spec.type === 'NodePort' || (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false);
  const ports = a(spec.ports);
  const used = usedNodePorts(ctx, old);
  const errs: FieldError[] = [];
  const mine = new Map<number, number>(); // port number -> node port within this service (TCP/UDP pairs share)
  const oldPorts = old ? a(o(old.spec).ports) : [];
  ports.forEach((p, i) => {
    const np = p.nodePort;
    if (typeof np === 'number' && np !== 0) {
      const wasMine = oldPorts.some((q) => q.nodePort === np);
      if (np < NODE_PORT_MIN || np > NODE_PORT_MAX) {
        errs.push(fieldErr.invalid(`spec.ports[${i}].nodePort`, np, `provided port is not in the valid range. The range of valid ports is ${NODE_PORT_MIN}-${NODE_PORT_MAX}`));
      } else if (used.has(np) && !wasMine) {
        errs.push(fieldErr.invalid(`spec.ports[${i}].nodePort`, np, 'provided port is already allocated'));
      } else {
        used.add(np);
        mine.set(Number(p.port), np);
      }
    }
  });
  if (errs.length) reject(obj, errs);
  if (!needs) return;
  const range = NODE_PORT_MAX - NODE_PORT_MIN + 1;
  const pick = (): number => {
    const start = ctx.env.ids.int(range);
    for (let i = 0; i < range; i++) {
      const cand = NODE_PORT_MIN + ((start + i) % range);
      if (!used.has(cand)) {
        used.add(cand);
        return cand;
      }
    }
    return reject(obj, [fieldErr.internal('spec.ports', 'range is full')]);
  };
  for (const p of ports) {
    if (typeof p.nodePort === 'number' && p.nodePort !== 0) continue;
    const shared = mine.get(Number(p.port));
    const np = shared ?? pick();
    p.nodePort = np;
    mine.set(Number(p.port), np);
  }
  if (spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local' && !spec.healthCheckNodePort) spec.healthCheckNodePort = pick();
}

function prepareServiceCreate(obj: KubeObject, ctx: StrategyContext): void {
  const spec = (obj.spec = o(obj.spec));
  if (spec.type !== 'ExternalName') {
    if (!isHeadless(spec)) allocateClusterIP(obj, ctx);
    initIPFamilies(spec, obj);
    allocateNodePorts(obj, ctx);
  }
  obj.status = { loadBalancer: {} };
}

/**
 * normalizeClusterIPs on update: a changed clusterIP with clusterIPs left as they were moves clusterIPs
 * along (so that update validation reports the change on clusterIPs[0]); a cleared one clears them.
 */
function normalizeClusterIPs(spec: Obj, prev: Obj): void {
  if (str(spec.clusterIP) === str(prev.clusterIP)) return;
  const same = JSON.stringify(spec.clusterIPs ?? null) === JSON.stringify(prev.clusterIPs ?? null);
  if (!same) return;
  if (!str(spec.clusterIP)) delete spec.clusterIPs;
  else spec.clusterIPs = [spec.clusterIP];
}

/** patchAllocatedValues: an update that omits allocated values keeps them. */
function prepareServiceUpdate(obj: KubeObject, old: KubeObject, ctx: StrategyContext): void {
  const spec = (obj.spec = o(obj.spec));
  const prev = o(old.spec);
  if (spec.type !== 'ExternalName' && prev.type !== 'ExternalName') {
    if (!spec.clusterIP && prev.clusterIP) spec.clusterIP = prev.clusterIP;
    if ((!Array.isArray(spec.clusterIPs) || spec.clusterIPs.length === 0) && Array.isArray(prev.clusterIPs)) spec.clusterIPs = [...prev.clusterIPs];
    if (!spec.ipFamilyPolicy && prev.ipFamilyPolicy) spec.ipFamilyPolicy = prev.ipFamilyPolicy;
    if ((!Array.isArray(spec.ipFamilies) || spec.ipFamilies.length === 0) && Array.isArray(prev.ipFamilies)) spec.ipFamilies = [...prev.ipFamilies];
    normalizeClusterIPs(spec, prev);
  } else if (spec.type !== 'ExternalName' && prev.type === 'ExternalName') {
    if (!isHeadless(spec)) allocateClusterIP(obj, ctx);
    initIPFamilies(spec, obj);
  } else if (spec.type === 'ExternalName') {
    delete spec.clusterIP;
    delete spec.clusterIPs;
    delete spec.ipFamilies;
    delete spec.ipFamilyPolicy;
  }
  const needsNodePorts = spec.type === 'NodePort' || (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false);
  if (needsNodePorts) {
    const prevPorts = a(prev.ports);
    for (const p of a(spec.ports)) {
      if (p.nodePort) continue;
      const match = prevPorts.find((q) => q.port === p.port && (q.protocol ?? 'TCP') === (p.protocol ?? 'TCP') && q.nodePort);
      if (match) p.nodePort = match.nodePort;
    }
    if (!spec.healthCheckNodePort && prev.healthCheckNodePort && spec.externalTrafficPolicy === 'Local') spec.healthCheckNodePort = prev.healthCheckNodePort;
    allocateNodePorts(obj, ctx, old);
  } else {
    for (const p of a(spec.ports)) if (spec.type === 'ClusterIP' || spec.type === 'ExternalName') delete p.nodePort;
  }
}

function goServicePort(p: Obj): string {
  const app = typeof p.appProtocol === 'string' ? `(*string)(${goQuote(p.appProtocol)})` : '(*string)(nil)';
  return `core.ServicePort{Name:${goQuote(str(p.name))}, Protocol:${goQuote(str(p.protocol))}, AppProtocol:${app}, Port:${Number(p.port ?? 0)}, TargetPort:${goIntOrString(p.targetPort ?? 0)}, NodePort:${Number(p.nodePort ?? 0)}}`;
}

const TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];

function validateService(obj: KubeObject): FieldError[] {
  const spec = o(obj.spec);
  const errs: FieldError[] = [];
  const ports = a(spec.ports);
  const headless = isHeadless(spec);
  if (ports.length === 0 && !headless && spec.type !== 'ExternalName') errs.push(fieldErr.required('spec.ports', ''));
  if (spec.type === 'ExternalName') {
    if (spec.clusterIP) errs.push(fieldErr.forbidden('spec.clusterIP', 'may not be set for ExternalName services'));
    const en = str(spec.externalName);
    if (!en) errs.push(fieldErr.required('spec.externalName', ''));
  } else {
    const ips = Array.isArray(spec.clusterIPs) ? spec.clusterIPs : spec.clusterIP ? [spec.clusterIP] : [];
    ips.forEach((ip, i) => {
      if (ip !== 'None' && ip !== '' && !isIP(String(ip))) {
        errs.push(fieldErr.invalid(`spec.clusterIPs[${i}]`, ip, "must be empty, 'None', or a valid IP address"));
      }
    });
  }
  const names = new Set<string>();
  const seen = new Set<string>();
  ports.forEach((p, i) => {
    const pp = `spec.ports[${i}]`;
    const name = str(p.name);
    if (ports.length > 1 && !name) errs.push(fieldErr.required(`${pp}.name`, ''));
    else if (name) {
      for (const m of isDNS1123Label(name)) errs.push(fieldErr.invalid(`${pp}.name`, name, m));
      if (names.has(name)) errs.push(fieldErr.duplicate(`${pp}.name`, name));
      names.add(name);
    }
    for (const m of isValidPortNum(Number(p.port ?? 0))) errs.push(fieldErr.invalid(`${pp}.port`, Number(p.port ?? 0), m));
    if (!p.protocol) errs.push(fieldErr.required(`${pp}.protocol`, ''));
    else if (!['SCTP', 'TCP', 'UDP'].includes(String(p.protocol))) errs.push(fieldErr.notSupported(`${pp}.protocol`, p.protocol, ['SCTP', 'TCP', 'UDP']));
    if (typeof p.targetPort === 'number') {
      for (const m of isValidPortNum(p.targetPort)) errs.push(fieldErr.invalid(`${pp}.targetPort`, p.targetPort, m));
    } else if (typeof p.targetPort === 'string') {
      for (const m of isValidPortName(p.targetPort)) errs.push(fieldErr.invalid(`${pp}.targetPort`, p.targetPort, m));
    }
    if (spec.type === 'ClusterIP' && p.nodePort) errs.push(fieldErr.forbidden(`${pp}.nodePort`, "may not be used when `type` is 'ClusterIP'"));
    if (spec.type === 'ExternalName' && p.nodePort) errs.push(fieldErr.forbidden(`${pp}.nodePort`, "may not be used when `type` is 'ExternalName'"));
    if (typeof p.nodePort === 'number' && p.nodePort !== 0) {
      for (const m of isValidPortNum(p.nodePort)) errs.push(fieldErr.invalid(`${pp}.nodePort`, p.nodePort, m));
    }
    const key = `${p.port}/${p.protocol}`;
    // a repeated port/protocol pair is reported with the Go struct the real server prints
    if (seen.has(key)) errs.push({ ...invalidRepr(pp, goServicePort(p), ''), type: 'FieldValueDuplicate' });
    seen.add(key);
  });
  if (spec.type !== undefined && !TYPES.includes(String(spec.type))) errs.push(fieldErr.notSupported('spec.type', spec.type, TYPES));
  if (spec.sessionAffinity !== undefined && !['ClientIP', 'None'].includes(String(spec.sessionAffinity))) {
    errs.push(fieldErr.notSupported('spec.sessionAffinity', spec.sessionAffinity, ['ClientIP', 'None']));
  }
  errs.push(...validateLabels(spec.selector, 'spec.selector'));
  if (spec.externalTrafficPolicy && !externallyAccessible(spec)) {
    errs.push(fieldErr.invalid('spec.externalTrafficPolicy', spec.externalTrafficPolicy, 'may only be set for externally-accessible services'));
  } else if (spec.externalTrafficPolicy && !['Cluster', 'Local'].includes(String(spec.externalTrafficPolicy))) {
    errs.push(fieldErr.notSupported('spec.externalTrafficPolicy', spec.externalTrafficPolicy, ['Cluster', 'Local']));
  }
  if (spec.internalTrafficPolicy && !['Cluster', 'Local'].includes(String(spec.internalTrafficPolicy))) {
    errs.push(fieldErr.notSupported('spec.internalTrafficPolicy', spec.internalTrafficPolicy, ['Cluster', 'Local']));
  }
  const timeout = o(o(spec.sessionAffinityConfig).clientIP).timeoutSeconds;
  if (typeof timeout === 'number' && (timeout <= 0 || timeout > 86400)) {
    errs.push(fieldErr.invalid('spec.sessionAffinityConfig.clientIP.timeoutSeconds', timeout, inclusiveRangeError(1, 86400)));
  }
  return errs;
}

function validateServiceChange(obj: KubeObject, old: KubeObject): FieldError[] {
  const spec = o(obj.spec);
  const prev = o(old.spec);
  const errs: FieldError[] = [];
  if (spec.type === 'ExternalName' || prev.type === 'ExternalName') return errs;
  if (isHeadless(spec) && isHeadless(prev)) return errs;
  const n = Array.isArray(spec.clusterIPs) ? (spec.clusterIPs as unknown[]).map(String) : [];
  const p = Array.isArray(prev.clusterIPs) ? (prev.clusterIPs as unknown[]).map(String) : [];
  if (n.length === p.length) {
    p.forEach((ip, i) => {
      if (ip !== n[i]) errs.push(invalidRepr(`spec.clusterIPs[${i}]`, goStringSlice(n), 'may not change once set'));
    });
  } else if (n.length === 0 && p.length > 0) {
    errs.push(invalidRepr('spec.clusterIPs[0]', goStringSlice(n), 'primary clusterIP can not be unset'));
  }
  // validateUpgradeDowngradeIPFamilies: a family may be added or released, not changed (the real check
  // names index 0 whichever entry differs)
  if (isHeadless(spec) === isHeadless(prev)) {
    const nf = Array.isArray(spec.ipFamilies) ? (spec.ipFamilies as unknown[]).map(String) : [];
    const pf = Array.isArray(prev.ipFamilies) ? (prev.ipFamilies as unknown[]).map(String) : [];
    const families = `[]core.IPFamily{${nf.map((f) => JSON.stringify(f)).join(', ')}}`;
    if (nf.length === pf.length) {
      pf.forEach((f, i) => {
        if (f !== nf[i]) errs.push(invalidRepr('spec.ipFamilies[0]', families, 'may not change once set'));
      });
    } else if (nf.length > pf.length && pf.length > 0 && nf[0] !== pf[0]) {
      errs.push(invalidRepr('spec.ipFamilies[0]', families, 'may not change once set'));
    }
  }
  return errs;
}

function portsString(ports: Obj[]): string {
  return ports.map((p) => (Number(p.nodePort) > 0 ? `${p.port}:${p.nodePort}/${p.protocol}` : `${p.port}/${p.protocol}`)).join(',');
}

function externalIP(obj: KubeObject): string {
  const spec = o(obj.spec);
  const ext = Array.isArray(spec.externalIPs) ? (spec.externalIPs as string[]) : [];
  switch (spec.type) {
    case 'ClusterIP':
    case 'NodePort':
      return ext.length ? ext.join(',') : '<none>';
    case 'LoadBalancer': {
      const lb = [...new Set(a(o(o(obj.status).loadBalancer).ingress).map((i) => str(i.ip) || str(i.hostname)).filter(Boolean))].sort().join(',');
      if (ext.length) return [...(lb ? lb.split(',') : []), ...ext].join(',');
      return lb || '<pending>';
    }
    case 'ExternalName':
      return str(spec.externalName);
    default:
      return '<unknown>';
  }
}

export const services = builtin('', 'v1', 'services', {
  nameValidator: nameIsDNS1035Label,
  allowCreateOnUpdate: true,
  default: defaultService,
  prepareForCreate: prepareServiceCreate,
  prepareForUpdate: (obj, old, ctx) => {
    if (ctx.subresource === '') prepareServiceUpdate(obj, old, ctx);
  },
  validateObject: (obj) => validateService(obj),
  validateChange: validateServiceChange,
  tableColumns: [
    col('Type', 'string', 'type determines how the Service is exposed. Defaults to ClusterIP. Valid options are ExternalName, ClusterIP, NodePort, and LoadBalancer. "ClusterIP" allocates a cluster-internal IP address for load-balancing to endpoints. Endpoints are determined by the selector or if that is not specified, by manual construction of an Endpoints object or EndpointSlice objects. If clusterIP is "None", no virtual IP is allocated and the endpoints are published as a set of endpoints rather than a virtual IP. "NodePort" builds on ClusterIP and allocates a port on every node which routes to the same endpoints as the clusterIP. "LoadBalancer" builds on NodePort and creates an external load-balancer (if supported in the current cloud) which routes to the same endpoints as the clusterIP. "ExternalName" aliases this service to the specified externalName. Several other fields do not apply to ExternalName services. More info: https://kubernetes.io/docs/concepts/services-networking/service/#publishing-services-service-types', (obj) => str(o(obj.spec).type)),
    col('Cluster-IP', 'string', 'clusterIP is the IP address of the service and is usually assigned randomly. If an address is specified manually, is in-range (as per system configuration), and is not in use, it will be allocated to the service; otherwise creation of the service will fail. This field may not be changed through updates unless the type field is also being changed to ExternalName (which requires this field to be blank) or the type field is being changed from ExternalName (in which case this field may optionally be specified, as describe above).  Valid values are "None", empty string (""), or a valid IP address. Setting this to "None" makes a "headless service" (no virtual IP), which is useful when direct endpoint connections are preferred and proxying is not required.  Only applies to types ClusterIP, NodePort, and LoadBalancer. If this field is specified when creating a Service of type ExternalName, creation will fail. This field will be wiped when updating a Service to type ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies', (obj) => {
      const ips = o(obj.spec).clusterIPs;
      return Array.isArray(ips) && ips.length ? String(ips[0]) : '<none>';
    }),
    col('External-IP', 'string', 'externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.  These IPs are not managed by Kubernetes.  The user is responsible for ensuring that traffic arrives at a node with this IP.  A common example is external load-balancers that are not part of the Kubernetes system.', (obj) => externalIP(obj)),
    col('Port(s)', 'string', 'The list of ports that are exposed by this service. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies', (obj) => portsString(a(o(obj.spec).ports)) || '<none>'),
    ageColumn(),
    col('Selector', 'string', 'Route service traffic to pods with label keys and values matching this selector. If empty or not present, the service is assumed to have an external process managing its endpoints, which Kubernetes will not modify. Only applies to types ClusterIP, NodePort, and LoadBalancer. Ignored if type is ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/', (obj) => formatLabels(o(obj.spec).selector), 1),
  ],
}) satisfies ResourceDefinition;
