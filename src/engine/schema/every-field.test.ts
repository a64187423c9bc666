// Every field kept: for every served built-in kind, an object with every property its schema declares
// (nested to the leaves, every list and map with an entry, int-or-string once as a number and once as a
// string) is created with fieldValidation=Strict, read back, updated, and applied with server-side apply:
// nothing is refused and every schema-declared path that was sent comes back.
//
// The objects are generated from the committed schema facts. Values follow the schema (formats, and the
// values the kind's validation accepts for enum-like fields: see VALUES). Where the real validation refuses
// a combination of fields that can each be set (one-of unions, fields allowed only with some type), the
// object is split in variants that set the members one at a time (UNIONS), and where a field cannot be set
// at all on create the reason is written in NOT_SENT. Nothing is left out silently: a test below checks
// that every declared property of every reachable definition is set in at least one variant.
import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../testing/harness.js';
import { builtinResources } from '../resources/index.js';
import { SAMPLE_CSR } from '../resources/samples.js';
import { builtinDefinitions } from '../resources/factory.js';
import type { ResourceDefinition } from '../registry/types.js';
import { GATED_FIELDS } from '../registry/gated-fields.js';
import { resolve, type Schema } from './types.js';

const defs = builtinDefinitions;
/** Definitions met while generating, and the `Definition.property` names set (over every kind). */
const REACHED = new Set<string>();
const COVERED = new Set<string>();
type Json = unknown;

interface GenContext {
  /** 0: int-or-string as a number, union member 0 ...; 1: as a string, union member 1 ... */
  variant: number;
  /** Definition names on the current path (recursive definitions are entered once). */
  stack: string[];
  /** Every `Definition.property` set, for the coverage check. */
  covered: Set<string>;
  kind: string;
  /** How int-or-string fields are written in this pass. */
  intOrString: 'int' | 'string';
  /** Property names from the root to here, `[]` for list items (for PATH_NOT_SENT). */
  path: string[];
  /** The list entry being generated when a per-item union is its item type. */
  item?: { def: string; index: number; count: number };
  /** How many variants the unions met so far need. */
  variants: number;
}

function refOf(s: Schema): string | undefined {
  if (s.$ref) return s.$ref;
  if (s.allOf?.length === 1 && s.allOf[0].$ref) return s.allOf[0].$ref;
  return undefined;
}

function sample(s: Schema, ctx: GenContext, owner: string, prop: string): Json {
  const ref = refOf(s);
  const key = `${owner}.${prop}`;
  if (`${ctx.kind}:${key}` in VALUES) return VALUES[`${ctx.kind}:${key}`](ctx);
  if (key in VALUES) return VALUES[key](ctx);
  if (prop in VALUES) return VALUES[prop](ctx);
  if (ref) {
    if (ref === 'io.k8s.apimachinery.pkg.util.intstr.IntOrString') return ctx.intOrString === 'int' ? 1 : '25%';
    if (ref === 'io.k8s.apimachinery.pkg.api.resource.Quantity') return '1';
    if (ref.endsWith('.Time') || ref.endsWith('.MicroTime')) return '2025-01-01T00:00:00Z';
    if (ref === 'io.k8s.apimachinery.pkg.runtime.RawExtension') return { apiVersion: 'v1', kind: 'ConfigMap', data: { a: 'b' } };
    if (ref === 'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1') return { 'f:metadata': {} };
    if (ref === 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta') return objectMeta(ctx);
    const target = defs[ref];
    if (!target) throw new Error(`no definition ${ref}`);
    if (ctx.stack.includes(ref)) return undefined;
    REACHED.add(ref);
    ctx.stack.push(ref);
    try {
      return sampleNode(target, ctx, ref);
    } finally {
      ctx.stack.pop();
    }
  }
  return sampleNode(s, ctx, key);
}

/** The properties of a definition variant `ctx.variant` sets (all of them unless the definition is a union). */
function unionMembers(name: string, props: string[], ctx: GenContext): Set<string> {
  const entry = UNIONS[`${ctx.kind}:${name}`] ?? UNIONS[name];
  if (!entry) return new Set(props);
  const unions = Array.isArray(entry) ? entry : [entry];
  let allowed = new Set(props);
  for (const u of unions) {
    if (u.groups.length === 0) continue;
    const named = new Set([...u.groups.flat(), ...(u.common ?? [])].filter((p) => p !== '*'));
    const rest = props.filter((p) => !named.has(p));
    const expand = (g: string[]) => g.flatMap((p) => (p === '*' ? rest : [p]));
    // a single group '*' is one group per remaining property
    const groups = u.groups.length === 1 && u.groups[0].length === 1 && u.groups[0][0] === '*' ? rest.map((p) => [p]) : u.groups.map(expand);
    const inList = u.perItem && ctx.item !== undefined && ctx.item.def === name;
    if (inList) ctx.item!.count = groups.length;
    else if (!u.byIntOrString) ctx.variants = Math.max(ctx.variants, groups.length);
    const members = new Set(groups.flat());
    const index = inList ? ctx.item!.index : u.byIntOrString ? (ctx.intOrString === 'int' ? 0 : 1) : ctx.variant;
    const chosen = new Set(groups[index % groups.length]);
    // a union leaves the other properties alone (several unions may share one definition)
    allowed = new Set([...allowed].filter((p) => !members.has(p) || chosen.has(p)));
  }
  return allowed;
}

function sampleNode(s: Schema, ctx: GenContext, name: string): Json {
  const r = resolve(s, defs) ?? s;
  if (r.properties) {
    const out: Record<string, Json> = {};
    const allowed = unionMembers(name, Object.keys(r.properties), ctx);
    for (const [p, ps] of Object.entries(r.properties)) {
      if (!allowed.has(p)) continue;
      if (`${name}.${p}` in NOT_SENT || `${ctx.kind}:${name}.${p}` in NOT_SENT) continue;
      const at = [...ctx.path, p].join('.');
      if (PATH_NOT_SENT.some(([re]) => re.test(at))) continue;
      ctx.path.push(p);
      const v = sample(ps, ctx, name, p);
      ctx.path.pop();
      if (v === undefined) continue;
      ctx.covered.add(`${name}.${p}`);
      out[p] = v;
    }
    return out;
  }
  switch (r.type) {
    case 'array': {
      if (!r.items) return [];
      ctx.path.push('[]');
      const itemRef = refOf(r.items);
      const u = itemRef ? UNIONS[`${ctx.kind}:${itemRef}`] ?? UNIONS[itemRef] : undefined;
      const out: Json[] = [];
      if (itemRef && u && !Array.isArray(u) && u.perItem) {
        // one entry per member of the union
        const saved = ctx.item;
        ctx.item = { def: itemRef, index: 0, count: 1 };
        for (; ctx.item.index < ctx.item.count; ctx.item.index++) {
          const item = sample(r.items, ctx, name, '[]');
          if (item !== undefined) out.push(item);
        }
        ctx.item = saved;
      } else {
        const item = sample(r.items, ctx, name, '[]');
        if (item !== undefined) out.push(item);
      }
      ctx.path.pop();
      return out;
    }
    case 'object':
      if (r.additionalProperties && typeof r.additionalProperties === 'object') {
        const v = sample(r.additionalProperties, ctx, name, '{}');
        return v === undefined ? {} : { a: v };
      }
      return {};
    case 'string':
      if (r.format === 'byte') return 'YQ==';
      if (r.format === 'date-time') return '2025-01-01T00:00:00Z';
      return 'a';
    case 'integer':
      return 1;
    case 'number':
      return 1.5;
    case 'boolean':
      return true;
  }
  return 'a';
}

function objectMeta(_ctx: GenContext): Json {
  return {
    name: 'every',
    generateName: 'every-',
    labels: { 'example.com/a': 'b' },
    annotations: { 'example.com/a': 'b' },
    finalizers: ['example.com/keep'],
    ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: '00000000-0000-4000-8000-00000000aaaa', controller: true, blockOwnerDeletion: true }],
  };
}

const C = 'io.k8s.api.core.v1.';
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const APPS = 'io.k8s.api.apps.v1.';
const BATCH = 'io.k8s.api.batch.v1.';
const NET = 'io.k8s.api.networking.v1.';
const RBAC = 'io.k8s.api.rbac.v1.';
const ADM = 'io.k8s.api.admissionregistration.v1.';
const EXT = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.';
const LABELS = { 'example.com/a': 'b' };

const v = (x: Json) => () => x;
/** A cluster IP of its own for each object (an allocated IP cannot be taken twice). */
const serviceIP = (ctx: GenContext) => `10.96.${ctx.variant}.${ctx.intOrString === 'int' ? 10 : 11}`;
let seq = 0;
const unique = (prefix: string) => () => `${prefix}${++seq}`;

/**
 * Values for fields whose validation accepts only some values (enum-like fields, names, paths, ports...),
 * keyed `Definition.property`. `[]` is the item of a list, `{}` the value of a map.
 */
const VALUES: Record<string, (ctx: GenContext) => Json> = {
  // selectors select what the templates carry
  [`${META}LabelSelector.matchLabels`]: v(LABELS),
  [`${META}LabelSelectorRequirement.key`]: v('example.com/a'),
  [`${META}LabelSelectorRequirement.operator`]: v('In'),
  [`${META}LabelSelectorRequirement.values`]: v(['b']),
  [`${C}ReplicationControllerSpec.selector`]: v(LABELS),
  [`${C}ServiceSpec.selector`]: v(LABELS),
  [`${C}NamespaceSpec.finalizers`]: v(['kubernetes']),
  // pods
  [`${C}Container.name`]: unique('c'),
  // the first volume is the one every volumeMount names
  [`${C}Volume.name`]: (ctx) => (ctx.item && ctx.item.index > 0 ? `v${ctx.item.index}` : 'a'),
  [`${C}EnvVar.name`]: (ctx) => `ENV_${ctx.item?.index ?? 0}`,
  [`${C}EphemeralContainer.name`]: unique('e'),
  [`${C}Container.imagePullPolicy`]: v('IfNotPresent'),
  [`${C}EphemeralContainer.imagePullPolicy`]: v('IfNotPresent'),
  [`${C}Container.terminationMessagePolicy`]: v('File'),
  [`${C}EphemeralContainer.terminationMessagePolicy`]: v('File'),
  [`${C}Container.restartPolicy`]: v('Always'),
  [`${C}ContainerPort.protocol`]: v('TCP'),
  [`${C}ContainerPort.name`]: unique('p'),
  [`${C}ContainerPort.containerPort`]: v(8080),
  [`${C}ContainerPort.hostPort`]: v(8080),
  [`${C}ContainerPort.hostIP`]: v('10.0.0.1'),
  // a Job with a podFailurePolicy requires restartPolicy Never
  [`${C}PodSpec.restartPolicy`]: (ctx) => (ctx.kind === 'Job' || ctx.kind === 'CronJob' ? 'Never' : 'Always'),
  [`${C}PodSpec.dnsPolicy`]: v('ClusterFirst'),
  [`${C}PodSpec.priorityClassName`]: v('system-cluster-critical'),
  [`${C}PodSpec.priority`]: v(2000000000),
  [`${C}PodSpec.preemptionPolicy`]: v('PreemptLowerPriority'),
  [`${C}ResourceRequirements.requests`]: v({ cpu: '1', memory: '1Gi' }),
  [`${C}ResourceRequirements.limits`]: v({ cpu: '1', memory: '1Gi' }),
  [`${C}VolumeResourceRequirements.requests`]: v({ storage: '1Gi' }),
  [`${C}VolumeResourceRequirements.limits`]: v({ storage: '1Gi' }),
  [`${C}Toleration.operator`]: v('Equal'),
  [`${C}Toleration.effect`]: v('NoExecute'),
  [`${C}Taint.effect`]: v('NoSchedule'),
  [`${C}NodeSelectorRequirement.operator`]: v('In'),
  [`${C}EndpointPort.protocol`]: v('TCP'),
  [`${C}EndpointAddress.ip`]: v('10.0.0.1'),
  [`${C}NodeSpec.podCIDR`]: v('10.244.0.0/24'),
  [`${C}NodeSpec.podCIDRs`]: v(['10.244.0.0/24']),
  [`${C}PersistentVolumeSpec.accessModes`]: v(['ReadWriteOnce']),
  [`${C}PersistentVolumeClaimSpec.accessModes`]: v(['ReadWriteOnce']),
  [`${C}PersistentVolumeSpec.persistentVolumeReclaimPolicy`]: v('Retain'),
  [`${C}PersistentVolumeSpec.volumeMode`]: v('Filesystem'),
  [`${C}PersistentVolumeClaimSpec.volumeMode`]: v('Filesystem'),
  [`${C}PersistentVolumeSpec.capacity`]: v({ storage: '1Gi' }),
  [`${C}ScopeSelector.matchExpressions`]: v([{ scopeName: 'PriorityClass', operator: 'In', values: ['a'] }]),
  [`${C}ResourceQuotaSpec.scopes`]: v(['NotTerminating']),
  [`${C}ResourceQuotaSpec.hard`]: v({ pods: '1' }),
  [`${C}ServicePort.nodePort`]: (ctx) => ctx.variant % 2 === 1 ? undefined : 30000 + 10 * ctx.variant + (ctx.intOrString === 'int' ? 1 : 2),
  [`${C}ServiceSpec.healthCheckNodePort`]: (ctx) => 30000 + 10 * ctx.variant + (ctx.intOrString === 'int' ? 3 : 4),
  [`${C}ServicePort.targetPort`]: (ctx) => (ctx.intOrString === 'int' ? 8080 : 'http'),
  [`${C}HTTPGetAction.port`]: (ctx) => (ctx.intOrString === 'int' ? 8080 : 'http'),
  [`${C}TCPSocketAction.port`]: (ctx) => (ctx.intOrString === 'int' ? 8080 : 'http'),
  [`${C}HTTPGetAction.scheme`]: v('HTTPS'),
  [`${C}HTTPGetAction.path`]: v('/healthz'),
  [`${C}ServiceSpec.type`]: (ctx) => (ctx.variant % 2 === 0 ? 'LoadBalancer' : 'ExternalName'),
  [`${C}ServiceSpec.clusterIP`]: (ctx) => serviceIP(ctx),
  [`${C}ServiceSpec.clusterIPs`]: (ctx) => [serviceIP(ctx)],
  [`${C}ServiceSpec.ipFamilies`]: v(['IPv4']),
  [`${C}ServiceSpec.ipFamilyPolicy`]: v('SingleStack'),
  [`${C}ServiceSpec.sessionAffinity`]: v('ClientIP'),
  [`${C}ServiceSpec.externalTrafficPolicy`]: v('Local'),
  [`${C}ServiceSpec.internalTrafficPolicy`]: v('Cluster'),
  [`${C}ServiceSpec.externalIPs`]: v(['10.0.0.2']),
  [`${C}ServiceSpec.loadBalancerIP`]: v('10.0.0.3'),
  [`${C}ServiceSpec.loadBalancerSourceRanges`]: v(['10.0.0.0/8']),
  [`${C}ServiceSpec.loadBalancerClass`]: v('example.com/lb'),
  [`${C}ServiceSpec.trafficDistribution`]: v('PreferClose'),
  [`${C}ServiceSpec.externalName`]: v('db.example.com'),
  [`${C}ConfigMap.binaryData`]: v({ b: 'YQ==' }),
  [`${C}PodSecurityContext.sysctls`]: v([{ name: 'kernel.shm_rmid_forced', value: '1' }]),
  [`${C}SeccompProfile.type`]: v('Localhost'),
  [`${C}AppArmorProfile.type`]: v('Localhost'),
  [`${C}SecurityContext.procMount`]: v('Default'),
  [`${C}PodSecurityContext.seLinuxChangePolicy`]: v('MountOption'),
  [`${C}PodSecurityContext.supplementalGroupsPolicy`]: v('Merge'),
  [`${C}PodSecurityContext.fsGroupChangePolicy`]: v('OnRootMismatch'),
  [`${C}HostAlias.ip`]: v('10.0.0.5'),
  [`${C}TopologySpreadConstraint.whenUnsatisfiable`]: v('DoNotSchedule'),
  [`${C}TopologySpreadConstraint.topologyKey`]: v('kubernetes.io/hostname'),
  [`${C}TopologySpreadConstraint.nodeAffinityPolicy`]: v('Honor'),
  [`${C}TopologySpreadConstraint.nodeTaintsPolicy`]: v('Honor'),
  [`${C}TopologySpreadConstraint.matchLabelKeys`]: v(['pod-template-hash']),
  [`${C}ContainerResizePolicy.resourceName`]: v('cpu'),
  [`${C}ContainerResizePolicy.restartPolicy`]: v('NotRequired'),
  [`${C}VolumeMount.mountPropagation`]: v('None'),
  [`${C}VolumeMount.recursiveReadOnly`]: v('Enabled'),
  [`${C}VolumeMount.mountPath`]: v('/data'),
  [`${C}PodOS.name`]: v('linux'),
  [`${C}PodDNSConfig.nameservers`]: v(['10.0.0.53']),
  [`${C}PodDNSConfig.searches`]: v(['example.com']),
  [`${C}ObjectFieldSelector.fieldPath`]: v('metadata.name'),
  [`${C}ObjectFieldSelector.apiVersion`]: v('v1'),
  [`${C}ResourceFieldSelector.resource`]: v('limits.cpu'),
  [`${C}ResourceFieldSelector.divisor`]: v('1'),
  [`${C}KeyToPath.path`]: v('key'),
  [`${C}DownwardAPIVolumeFile.path`]: v('labels'),
  [`${C}ServiceAccountTokenProjection.expirationSeconds`]: v(3600),
  [`${C}ServiceAccountTokenProjection.path`]: v('token'),
  [`${C}ClusterTrustBundleProjection.path`]: v('bundle.pem'),
  [`${C}PodResourceClaim.name`]: v('claim'),
  [`${C}ResourceClaim.name`]: v('claim'),
  [`${C}PodReadinessGate.conditionType`]: v('example.com/ready'),
  [`${C}ServicePort.protocol`]: v('TCP'),
  // workloads
  [`${APPS}DeploymentStrategy.type`]: v('RollingUpdate'),
  [`${APPS}DeploymentSpec.progressDeadlineSeconds`]: v(600),
  [`${APPS}StatefulSetSpec.podManagementPolicy`]: v('OrderedReady'),
  [`${APPS}StatefulSetUpdateStrategy.type`]: v('RollingUpdate'),
  [`${APPS}StatefulSetPersistentVolumeClaimRetentionPolicy.whenDeleted`]: v('Retain'),
  [`${APPS}StatefulSetPersistentVolumeClaimRetentionPolicy.whenScaled`]: v('Retain'),
  [`${APPS}DaemonSetUpdateStrategy.type`]: v('RollingUpdate'),
  [`${APPS}RollingUpdateDaemonSet.maxUnavailable`]: (ctx) => (ctx.variant % 2 === 0 ? (ctx.intOrString === 'int' ? 0 : '0%') : ctx.intOrString === 'int' ? 1 : '25%'),
  [`${BATCH}JobSpec.completionMode`]: v('Indexed'),
  [`${BATCH}CronJobSpec.schedule`]: v('*/5 * * * *'),
  [`${BATCH}CronJobSpec.concurrencyPolicy`]: v('Allow'),
  ['io.k8s.api.policy.v1.PodDisruptionBudgetSpec.unhealthyPodEvictionPolicy']: v('AlwaysAllow'),
  // networking
  [`${NET}HTTPIngressPath.pathType`]: v('Prefix'),
  [`${NET}HTTPIngressPath.path`]: v('/a'),
  [`${NET}IngressClassSpec.controller`]: v('example.com/ingress'),
  [`${NET}NetworkPolicySpec.policyTypes`]: v(['Ingress', 'Egress']),
  ['io.k8s.api.discovery.v1.EndpointSlice.addressType']: v('IPv4'),
  ['io.k8s.api.discovery.v1.Endpoint.addresses']: v(['10.0.0.1']),
  ['io.k8s.api.events.v1.Event.type']: v('Normal'),
  ['io.k8s.api.events.v1.EventSeries.count']: v(2),
  // rbac
  [`${RBAC}RoleRef.apiGroup`]: v('rbac.authorization.k8s.io'),
  [`${RBAC}Subject.kind`]: v('ServiceAccount'),
  [`${RBAC}Subject.apiGroup`]: v(''),
  [`${RBAC}RoleRef.kind`]: (ctx) => (ctx.kind === 'RoleBinding' ? 'Role' : 'ClusterRole'),
  // admission policies
  [`${ADM}Validation.reason`]: v('Invalid'),
  // expressions are compiled when a policy is written: a bool, a string, a string
  [`${ADM}Validation.expression`]: v('true'),
  [`${ADM}Validation.messageExpression`]: v("'m'"),
  [`${ADM}MatchCondition.expression`]: v('true'),
  [`${ADM}Variable.expression`]: v('true'),
  [`${ADM}AuditAnnotation.valueExpression`]: v("'v'"),
  [`${ADM}ValidatingAdmissionPolicySpec.failurePolicy`]: v('Fail'),
  [`${ADM}ValidatingAdmissionPolicyBindingSpec.validationActions`]: v(['Deny']),
  [`${ADM}ParamRef.parameterNotFoundAction`]: v('Deny'),
  [`${ADM}MutatingWebhook.name`]: (ctx) => `w${ctx.item?.index ?? 0}.example.com`,
  [`${ADM}MutatingWebhook.failurePolicy`]: v('Fail'),
  [`${ADM}MutatingWebhook.matchPolicy`]: v('Equivalent'),
  [`${ADM}MutatingWebhook.sideEffects`]: v('None'),
  [`${ADM}MutatingWebhook.timeoutSeconds`]: v(10),
  [`${ADM}MutatingWebhook.admissionReviewVersions`]: v(['v1']),
  [`${ADM}ValidatingWebhook.name`]: (ctx) => `w${ctx.item?.index ?? 0}.example.com`,
  [`${ADM}ValidatingWebhook.failurePolicy`]: v('Fail'),
  [`${ADM}ValidatingWebhook.matchPolicy`]: v('Equivalent'),
  [`${ADM}ValidatingWebhook.sideEffects`]: v('None'),
  [`${ADM}ValidatingWebhook.timeoutSeconds`]: v(10),
  [`${ADM}ValidatingWebhook.admissionReviewVersions`]: v(['v1']),
  [`${ADM}MutatingWebhook.reinvocationPolicy`]: v('Never'),
  [`${ADM}RuleWithOperations.operations`]: v(['CREATE']),
  [`${ADM}RuleWithOperations.scope`]: v('*'),
  [`${ADM}WebhookClientConfig.url`]: v('https://webhook.example.com/check'),
  [`${ADM}ServiceReference.path`]: v('/check'),
  [`${ADM}ServiceReference.port`]: v(443),
  [`${ADM}MatchCondition.name`]: (ctx) => `c${ctx.item?.index ?? 0}`,
  // storage, scheduling
  ['io.k8s.api.storage.v1.StorageClass.reclaimPolicy']: v('Retain'),
  ['io.k8s.api.storage.v1.StorageClass.volumeBindingMode']: v('WaitForFirstConsumer'),
  ['io.k8s.api.scheduling.v1.PriorityClass.preemptionPolicy']: v('Never'),
  ['io.k8s.api.storage.v1.CSIDriverSpec.fsGroupPolicy']: v('File'),
  ['io.k8s.api.storage.v1.CSIDriverSpec.volumeLifecycleModes']: v(['Persistent']),
  ['io.k8s.api.storage.v1.TokenRequest.expirationSeconds']: v(600),
  ['io.k8s.api.storage.v1.VolumeAttachmentSpec.attacher']: v('example.com-disk'),
  ['io.k8s.api.storage.v1.VolumeAttachmentSpec.nodeName']: v('node-1'),
  ['io.k8s.api.storage.v1.VolumeAttachmentSource.persistentVolumeName']: v('pv-1'),
  // networking, aggregation, certificates, flow control
  [`${NET}ServiceCIDRSpec.cidrs`]: v(['10.100.0.0/16']),
  ['io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceSpec.group']: (ctx) => apiServiceGroup(ctx),
  ['io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceSpec.version']: v('v1'),
  ['io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceSpec.groupPriorityMinimum']: v(1000),
  ['io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceSpec.versionPriority']: v(15),
  // a caBundle is sent, and the real validation refuses it together with insecureSkipTLSVerify
  ['io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceSpec.insecureSkipTLSVerify']: v(false),
  ['io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.ServiceReference.port']: v(443),
  ['io.k8s.api.certificates.v1.CertificateSigningRequestSpec.request']: v(SAMPLE_CSR),
  ['io.k8s.api.certificates.v1.CertificateSigningRequestSpec.signerName']: v('example.com/signer'),
  ['io.k8s.api.certificates.v1.CertificateSigningRequestSpec.usages']: v(['client auth']),
  ['io.k8s.api.certificates.v1.CertificateSigningRequestSpec.expirationSeconds']: v(600),
  // Approved and Denied are written through /approval only
  ['io.k8s.api.certificates.v1.CertificateSigningRequestCondition.type']: v('Failed'),
  ['io.k8s.api.certificates.v1.CertificateSigningRequestCondition.status']: v('True'),
  ['io.k8s.api.flowcontrol.v1.FlowDistinguisherMethod.type']: v('ByUser'),
  ['io.k8s.api.flowcontrol.v1.Subject.kind']: v('Group'),
  ['io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationSpec.type']: (ctx) => (ctx.variant === 0 ? 'Limited' : 'Exempt'),
  ['io.k8s.api.flowcontrol.v1.LimitResponse.type']: v('Queue'),
};

/** An APIService is named <version>.<group>: a group of its own for each object. */
const apiServiceGroup = (ctx: GenContext) => `g${ctx.variant}${ctx.intOrString}.example.com`;

/** Kinds whose name is data (an IPAddress is its address, an APIService <version>.<group>); others: the test's name. */
const NAMES: Record<string, (ctx: { variant: number; intOrString: 'int' | 'string' }) => string> = {
  IPAddress: (ctx) => `10.0.${ctx.variant}.${ctx.intOrString === 'int' ? 1 : 2}`,
  APIService: (ctx) => `v1.${apiServiceGroup(ctx as GenContext)}`,
};

/**
 * One-of groups (`Definition`: member groups): the real validation refuses more than one member at a time
 * ("may not specify more than 1 volume type", "more than 1 handler type", ...); variant i sets group i.
 * `'*'` stands for every property not named in the other groups or in `common`.
 */
interface Union {
  groups: string[][];
  common?: string[];
  /** Inside a list: one list entry per group (in one object) instead of one variant per group. */
  perItem?: boolean;
  /** Two groups chosen like int-or-string (number first), independent of the variant. */
  byIntOrString?: boolean;
}
const UNIONS: Record<string, Union | Union[]> = {
  [`${C}Volume`]: { groups: [['*']], common: ['name'], perItem: true },
  [`${C}PersistentVolumeSpec`]: {
    groups: [['*']],
    common: ['accessModes', 'capacity', 'claimRef', 'mountOptions', 'nodeAffinity', 'persistentVolumeReclaimPolicy', 'storageClassName', 'volumeMode', 'volumeAttributesClassName'],
  },
  [`${C}Probe`]: { groups: [['exec'], ['httpGet'], ['tcpSocket'], ['grpc']], common: ['*'] },
  ['io.k8s.api.storage.v1.VolumeAttachmentSource']: { groups: [['persistentVolumeName'], ['inlineVolumeSpec']] },
  ['io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationSpec']: { groups: [['limited'], ['exempt']], common: ['type'] },
  [`${C}LifecycleHandler`]: { groups: [['exec'], ['httpGet'], ['tcpSocket'], ['sleep']] },
  [`${C}EnvVar`]: { groups: [['value'], ['valueFrom']], common: ['name'], perItem: true },
  [`${C}EnvVarSource`]: { groups: [['*']] },
  [`${C}VolumeProjection`]: { groups: [['*']], perItem: true },
  ['io.k8s.api.policy.v1.PodDisruptionBudgetSpec']: { groups: [['minAvailable'], ['maxUnavailable']], common: ['*'] },
  [`${NET}IngressBackend`]: { groups: [['service'], ['resource']] },
  [`${ADM}ParamRef`]: { groups: [['name'], ['selector']], common: ['*'] },
  [`${ADM}WebhookClientConfig`]: { groups: [['url'], ['service']], common: ['caBundle'] },
  [`${C}PodSpec`]: [
    { groups: [['nodeName'], ['schedulingGates']], common: ['*'] },
    { groups: [['hostPID'], ['shareProcessNamespace']], common: ['*'] },
  ],
  [`${C}ServiceSpec`]: {
    // variant 0 is a LoadBalancer service (every field of the other types applies to it), variant 1 an
    // ExternalName service: externalName is refused for the other types, and the ExternalName type refuses
    // cluster IPs, IP families and the load-balancer fields
    groups: [['*'], ['externalName']],
    common: ['type', 'ports', 'selector', 'sessionAffinity', 'sessionAffinityConfig', 'publishNotReadyAddresses'],
  },
  [`${C}VolumeMount`]: { groups: [['subPath'], ['subPathExpr']], common: ['*'] },
  [`${C}PodResourceClaim`]: { groups: [['resourceClaimName'], ['resourceClaimTemplateName']], common: ['name'] },
  // maxSurge only with maxUnavailable 0 (else "may not be set when maxUnavailable is non-zero")
  [`${APPS}RollingUpdateDaemonSet`]: { groups: [['maxSurge', 'maxUnavailable'], ['maxUnavailable']] },
  [`${NET}ServiceBackendPort`]: { groups: [['number'], ['name']], byIntOrString: true },
  // a Role's rules are resource rules only (NOT_SENT)
  [`Role:${RBAC}PolicyRule`]: { groups: [] },
  [`${RBAC}PolicyRule`]: { groups: [['apiGroups', 'resources', 'resourceNames'], ['nonResourceURLs']], common: ['verbs'], perItem: true },
};

/** Fields not sent, with the reason (`Definition.property`, or `Kind:Definition.property` for one kind). */
const NOT_SENT: Record<string, string> = {
  ['io.k8s.api.events.v1.Event.deprecatedFirstTimestamp']: 'events.k8s.io/v1 refuses the deprecated core fields on create ("needs to be unset")',
  ['io.k8s.api.events.v1.Event.deprecatedLastTimestamp']: 'events.k8s.io/v1 refuses the deprecated core fields on create ("needs to be unset")',
  ['io.k8s.api.events.v1.Event.deprecatedCount']: 'events.k8s.io/v1 refuses the deprecated core fields on create ("needs to be unset")',
  ['io.k8s.api.events.v1.Event.deprecatedSource']: 'events.k8s.io/v1 refuses the deprecated core fields on create ("needs to be unset")',
  [`Role:${RBAC}PolicyRule.nonResourceURLs`]: 'a namespaced Role cannot name non-resource URLs (ClusterRole covers the field)',
  [`CronJob:${BATCH}JobSpec.selector`]: 'a CronJob job template may not set a selector: it is generated for each Job (Job covers the field)',
  [`CronJob:${BATCH}JobSpec.manualSelector`]: 'a CronJob job template may not set manualSelector (Job covers the field)',
  [`ReplicationController:${C}PodSpec.activeDeadlineSeconds`]: 'ReplicationController pod templates refuse activeDeadlineSeconds (Pod covers the field)',
};
for (const kind of ['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet']) {
  NOT_SENT[`${kind}:${C}PodSpec.activeDeadlineSeconds`] = `${kind} pod templates refuse activeDeadlineSeconds (Pod and Job cover the field)`;
}
NOT_SENT[`${C}PodSpec.ephemeralContainers`] =
  'ephemeral containers are refused on pod create ("cannot be set on create") and in every pod template; they are added only through the pods/ephemeralcontainers subresource, which the engine does not serve';

/** Fields the real server accepts but never returns (kind, path), with the reason. */
const WRITE_ONLY: [string, RegExp, string][] = [
  ['Secret', /^stringData(\.|$)/, 'stringData is write-only: its entries are merged into data (base64) and the field is not stored'],
  ['CertificateSigningRequest', /^spec\.(username|uid|groups|extra)(\.|\[|$)/, 'the requestor fields are the creating user\'s: the strategy overwrites what the body says'],
  ['EndpointSlice', /^endpoints\.\d+\.deprecatedTopology(\.|$)|^endpoints\[\d+\]\.deprecatedTopology(\.|$)/, 'discovery.k8s.io/v1 drops deprecatedTopology on write (the spec\'s removed fields; the real strategy clears it)'],
];

/** Fields not sent at some paths (regular expressions over the property path, `[]` for list items). */
const PATH_NOT_SENT: [RegExp, string][] = [
  [/(^|\.)containers\.\[\]\.restartPolicy$/, 'only init containers (sidecars) take a container restartPolicy'],
];

function compact(body: any): string {
  const causes = body?.details?.causes;
  return Array.isArray(causes) ? causes.map((c: any) => `${c.field}: ${c.message}`).join('\n') : JSON.stringify(body?.message ?? body);
}

function pathsOf(v: Json, prefix = ''): string[] {
  if (Array.isArray(v)) return v.flatMap((x, i) => pathsOf(x, `${prefix}[${i}]`));
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, Json>);
    if (entries.length === 0) return [prefix];
    return entries.flatMap(([k, x]) => pathsOf(x, prefix ? `${prefix}.${k}` : k));
  }
  return [prefix];
}

function pathOf(def: ResourceDefinition, name?: string): string {
  const gv = def.group ? `/apis/${def.group}/${def.version}` : `/api/${def.version}`;
  const ns = def.namespaced ? '/namespaces/default' : '';
  return `${gv}${ns}/${def.plural}${name ? `/${name}` : ''}`;
}

function build(def: ResourceDefinition, variant: number, intOrString: 'int' | 'string', covered: Set<string>): { obj: Record<string, Json>; variants: number } {
  const ref = refOf(def.schema)!;
  const ctx: GenContext = { variant, stack: [ref], covered, kind: def.kind, variants: 1, intOrString, path: [] };
  const obj = sampleNode(defs[ref], ctx, ref) as Record<string, Json>;
  obj.apiVersion = def.group ? `${def.group}/${def.version}` : def.version;
  obj.kind = def.kind;
  return { obj, variants: ctx.variants };
}

/** Paths of `sent` missing from `got` (list indexes and map keys included). */
function missing(sent: Json, got: Json, skip: (path: string) => boolean = () => false): string[] {
  const have = new Set(pathsOf(got));
  const prefixes = new Set<string>();
  for (const p of have) for (let i = 0; i < p.length; i++) if (p[i] === '.' || p[i] === '[') prefixes.add(p.slice(0, i));
  return pathsOf(sent).filter((p) => !skip(p) && !have.has(p) && !prefixes.has(p));
}

// Every field the v1.33 schema has is served with its feature gate on; fields behind a gate that is off by
// default are dropped on write (registry/gated-fields.ts, proved over its whole table in gated-fields.test.ts),
// so this test turns on every gate that guards a field.
const FIELD_GATES_ON = Object.fromEntries(GATED_FIELDS.map((r) => [r.gate, true]));

describe('every field kept', () => {
  // CustomResourceDefinition: see the CRD tests below (a generated JSONSchemaProps is not a valid schema)
  for (const def of builtinResources.filter((d) => d.kind !== 'CustomResourceDefinition')) {
    it(`${def.plural}.${def.version}${def.group ? `.${def.group}` : ''}: created (Strict), read back, updated, applied: nothing refused, nothing dropped`, async () => {
      const c: TestClient = await testClient(createMemoryStorage(), { featureGates: FIELD_GATES_ON });
      const covered = COVERED;
      const statusReset = !!def.subresources.status;
      const notStatus = (p: string) =>
        (statusReset && (p === 'status' || p.startsWith('status.'))) || WRITE_ONLY.some(([k, re]) => k === def.kind && re.test(p));
      let variants = 1;
      for (let variant = 0; variant < variants; variant++) for (const intOrString of ['int', 'string'] as const) {
        const built = build(def, variant, intOrString, covered);
        variants = built.variants;
        const obj = built.obj;
        const name = NAMES[def.kind]?.({ variant, intOrString }) ?? `every-${variant}-${intOrString}`;
        (obj.metadata as any).name = name;
        // a name that is data has no generated form
        if (NAMES[def.kind]) delete (obj.metadata as any).generateName;
        const where = `${def.kind} ${name}`;

        // create (Strict): nothing refused, nothing dropped (status of kinds with a status subresource is
        // reset on create, as the real strategies do; it is written through /status below)
        const r = await c.req('POST', `${pathOf(def)}?fieldValidation=Strict`, obj);
        expect(r.status, `${where}: ${compact(r.body)}`).toBe(201);
        // no warning but the deprecation warning of a deprecated version (v1 Endpoints in v1.33)
        expect(r.headers.get('warning'), where).toBe(def.deprecated ? `299 - "${def.deprecated}"` : null);
        const got = await c.req('GET', pathOf(def, name));
        expect(missing(obj, got.body, notStatus), `${where}: dropped on create`).toEqual([]);

        // update with the object as read back (Strict)
        const upd = await c.req('PUT', `${pathOf(def, name)}?fieldValidation=Strict`, got.body);
        expect(upd.status, `${where}: ${compact(upd.body)}`).toBe(200);
        expect(missing(obj, upd.body, notStatus), `${where}: dropped on update`).toEqual([]);

        // status through the status subresource
        if (def.subresources.status && obj.status !== undefined) {
          const st = await c.req('PUT', `${pathOf(def, name)}/status?fieldValidation=Strict`, { ...upd.body, status: obj.status });
          expect(st.status, `${where}: ${compact(st.body)}`).toBe(200);
          expect(missing({ status: obj.status }, st.body), `${where}: dropped on status update`).toEqual([]);
        }

        // server-side apply (Strict), twice, of the object as read back without the fields the server owns
        // (what admission added on create, e.g. a pod's default tolerations, is part of it)
        const config = JSON.parse(JSON.stringify(upd.body));
        for (const k of ['uid', 'resourceVersion', 'creationTimestamp', 'generation', 'managedFields']) delete config.metadata[k];
        if (statusReset) delete config.status;
        {
          const ap = await c.req('PATCH', `${pathOf(def, name)}?fieldManager=every&force=true&fieldValidation=Strict`, JSON.stringify(config), {
            'Content-Type': 'application/apply-patch+yaml',
          });
          expect(ap.status, `${where}: ${compact(ap.body)}`).toBe(200);
          expect(missing(obj, ap.body, notStatus), `${where}: dropped on apply`).toEqual([]);
        }
      }
      expect(variants, 'variants').toBeGreaterThan(0);
    }, 120_000);
  }

  it('every property of every definition the kinds reach was set, or is listed with its reason', () => {
    expect(REACHED.size).toBeGreaterThan(200);
    const unexplained: string[] = [];
    for (const name of REACHED) {
      for (const p of Object.keys(defs[name].properties ?? {})) {
        const key = `${name}.${p}`;
        if (COVERED.has(key) || key in NOT_SENT) continue;
        if (Object.keys(NOT_SENT).some((k) => k.endsWith(`:${key}`)) && COVERED.has(key)) continue;
        unexplained.push(key);
      }
    }
    expect(unexplained).toEqual([]);
    // every reason is written down
    for (const [k, why] of Object.entries(NOT_SENT)) expect(why.length, k).toBeGreaterThan(20);
  });
});

// A CRD whose schema uses every JSONSchemaProps field a v1 CRD may carry, and printer columns with every
// field: created (Strict), read back, updated and applied, its schema and columns come back unchanged.
describe('every field of a CustomResourceDefinition kept', () => {
  const schema = {
    type: 'object',
    description: 'A gadget: every schema keyword a structural schema may use.',
    title: 'Gadget',
    externalDocs: { description: 'How gadgets work', url: 'https://example.com/docs/gadgets' },
    example: { spec: { size: 3 } },
    required: ['spec'],
    'x-kubernetes-validations': [
      {
        rule: 'self.spec.size <= 100',
        message: 'size is at most 100',
        messageExpression: "'size is over ' + 'the limit'",
        reason: 'FieldValueInvalid',
        fieldPath: '.spec.size',
      },
    ],
    properties: {
      spec: {
        type: 'object',
        description: 'What the gadget should be.',
        minProperties: 1,
        maxProperties: 20,
        anyOf: [{ required: ['size'] }, { required: ['mode'] }],
        not: { required: ['forbidden'] },
        'x-kubernetes-validations': [{ rule: 'self.size == oldSelf.size || self.mode != "locked"', optionalOldSelf: false, message: 'a locked gadget keeps its size' }],
        properties: {
          size: { type: 'integer', format: 'int32', minimum: 0, maximum: 100, exclusiveMinimum: false, exclusiveMaximum: true, multipleOf: 1, default: 1, example: 3 },
          ratio: { type: 'number', format: 'double', nullable: true, minimum: 0.5, maximum: 9.5 },
          mode: { type: 'string', enum: ['open', 'locked'], default: 'open', description: 'open or locked' },
          name: { type: 'string', minLength: 1, maxLength: 63, pattern: '^[a-z]+$', format: 'hostname' },
          port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }], description: 'a number or a name' },
          tags: { type: 'array', items: { type: 'string' }, minItems: 0, maxItems: 10, uniqueItems: false, 'x-kubernetes-list-type': 'set' },
          ports: {
            type: 'array',
            maxItems: 8,
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['name', 'protocol'],
            items: {
              type: 'object',
              required: ['name', 'protocol'],
              properties: { name: { type: 'string' }, protocol: { type: 'string', default: 'TCP' }, number: { type: 'integer' } },
            },
          },
          labels: { type: 'object', additionalProperties: { type: 'string' }, 'x-kubernetes-map-type': 'granular' },
          selector: { type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { app: { type: 'string' } } },
          config: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, description: 'free-form' },
          template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
          shape: {
            type: 'object',
            properties: { kind: { type: 'string' }, sides: { type: 'integer' } },
            oneOf: [{ properties: { kind: { enum: ['square'] } } }, { properties: { kind: { enum: ['circle'] } } }],
            allOf: [{ properties: { sides: { minimum: 0 } } }],
          },
        },
      },
      status: { type: 'object', properties: { replicas: { type: 'integer' }, selector: { type: 'string' } } },
    },
  };
  const columns = [
    { name: 'Size', type: 'integer', format: 'int32', description: 'How big the gadget is.', priority: 0, jsonPath: '.spec.size' },
    { name: 'Mode', type: 'string', description: 'open or locked', priority: 1, jsonPath: '.spec.mode' },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ];
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'gadgets.example.com', labels: LABELS, annotations: LABELS },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      preserveUnknownFields: false,
      names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList', shortNames: ['gd'], categories: ['all'] },
      conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: 'https://example.com/convert', caBundle: 'YQ==' } } },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: schema },
          subresources: { status: {}, scale: { specReplicasPath: '.spec.size', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
          additionalPrinterColumns: columns,
          selectableFields: [{ jsonPath: '.spec.mode' }],
        },
        {
          name: 'v1beta1',
          served: true,
          storage: false,
          deprecated: true,
          deprecationWarning: 'example.com/v1beta1 Gadget is going away; use example.com/v1',
          schema: { openAPIV3Schema: schema },
          additionalPrinterColumns: columns,
        },
      ],
    },
  };
  const NOT_IN_V1: Record<string, string> = {
    $ref: 'v1 CRD schemas refuse $ref ("$ref is not supported")',
    $schema: 'v1 CRD schemas refuse $schema ("$schema is not supported")',
    id: 'v1 CRD schemas refuse id ("id is not supported")',
    additionalItems: 'v1 CRD schemas refuse additionalItems ("additionalItems is not supported")',
    definitions: 'v1 CRD schemas refuse definitions ("definitions is not supported")',
    dependencies: 'v1 CRD schemas refuse dependencies ("dependencies is not supported")',
    patternProperties: 'v1 CRD schemas refuse patternProperties ("patternProperties is not supported")',
  };
  const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

  it('the schema above uses every JSONSchemaProps field but the ones v1 refuses', () => {
    const used = new Set<string>();
    const walk = (n: Json) => {
      if (Array.isArray(n)) n.forEach(walk);
      else if (n && typeof n === 'object') {
        for (const [k, x] of Object.entries(n as Record<string, Json>)) {
          used.add(k);
          if (k === 'properties') Object.values(x as object).forEach(walk);
          else if (k !== 'example' && k !== 'default' && k !== 'enum') walk(x);
        }
      }
    };
    walk(schema);
    const declared = Object.keys(defs[`${EXT}JSONSchemaProps`].properties ?? {});
    expect(declared).toContain('description');
    expect(declared.filter((p) => !used.has(p) && !(p in NOT_IN_V1))).toEqual([]);
    const colProps = Object.keys(defs[`${EXT}CustomResourceColumnDefinition`].properties ?? {});
    expect(colProps.filter((p) => !columns.some((c) => p in c))).toEqual([]);
  });

  it('created (Strict), read back, updated and applied: schema and printer columns unchanged', async () => {
    const c = await testClient(createMemoryStorage());
    const r = await c.req('POST', `${CRDS}?fieldValidation=Strict`, crd);
    expect(r.status, compact(r.body)).toBe(201);
    expect(r.headers.get('warning')).toBeNull();
    const check = (got: any, what: string) => {
      expect(got.spec.versions[0].schema.openAPIV3Schema, what).toEqual(schema);
      expect(got.spec.versions[1].schema.openAPIV3Schema, what).toEqual(schema);
      expect(got.spec.versions[0].additionalPrinterColumns, what).toEqual(columns);
      expect(missing(crd, got), what).toEqual([]);
    };
    const got = await c.req('GET', `${CRDS}/gadgets.example.com`);
    check(got.body, 'read back');
    const upd = await c.req('PUT', `${CRDS}/gadgets.example.com?fieldValidation=Strict`, got.body);
    expect(upd.status, compact(upd.body)).toBe(200);
    check(upd.body, 'update');
    for (let i = 0; i < 2; i++) {
      const ap = await c.req('PATCH', `${CRDS}/gadgets.example.com?fieldManager=every&force=true&fieldValidation=Strict`, JSON.stringify(crd), {
        'Content-Type': 'application/apply-patch+yaml',
      });
      expect(ap.status, compact(ap.body)).toBe(200);
      check(ap.body, 'apply');
    }
    // the Table of the custom resources names the columns with their descriptions
    const t = await c.req('GET', '/apis/example.com/v1/namespaces/default/gadgets', undefined, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(t.body.columnDefinitions.slice(1, 3)).toEqual([
      { name: 'Size', type: 'integer', format: 'int32', description: 'How big the gadget is.', priority: 0 },
      { name: 'Mode', type: 'string', format: '', description: 'open or locked', priority: 1 },
    ]);
  });
});
