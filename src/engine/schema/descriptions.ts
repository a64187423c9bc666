// Descriptions of the built-in kinds and their fields, written for this project: the vendored schema facts
// carry no prose, so every definition and property gets a short text made from its facts (type, format,
// list and map semantics, required, allowed values, default) and, for the kinds and the fields people
// meet first, a hand-written sentence. One source: the OpenAPI documents carry these texts (kubectl
// explain reads them) and the playground editor takes its hover text from those documents.
//
// ENUMS lists the allowed values of enum fields of k8s.io/api v0.33 (the real OpenAPI publishes them as
// `enum`; the vendored facts do not have them): they are rendered into the OpenAPI documents only, and
// are not used for validation (each kind's strategy validates its own fields).

import type { JsonValue } from '../object.js';
import type { Schema, SchemaRegistry } from './types.js';

const C = 'io.k8s.api.core.v1.';
const APPS = 'io.k8s.api.apps.v1.';
const BATCH = 'io.k8s.api.batch.v1.';
const NET = 'io.k8s.api.networking.v1.';

/** Allowed values of enum fields, by `Definition.property` (`[]` suffix: the items of a list). */
export const ENUMS: Record<string, string[]> = {
  [`${C}ServiceSpec.type`]: ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'],
  [`${C}ServiceSpec.sessionAffinity`]: ['ClientIP', 'None'],
  [`${C}ServiceSpec.externalTrafficPolicy`]: ['Cluster', 'Local'],
  [`${C}ServiceSpec.internalTrafficPolicy`]: ['Cluster', 'Local'],
  [`${C}ServiceSpec.ipFamilyPolicy`]: ['PreferDualStack', 'RequireDualStack', 'SingleStack'],
  [`${C}ServiceSpec.ipFamilies[]`]: ['', 'IPv4', 'IPv6'],
  [`${C}ServicePort.protocol`]: ['SCTP', 'TCP', 'UDP'],
  [`${C}ContainerPort.protocol`]: ['SCTP', 'TCP', 'UDP'],
  [`${C}EndpointPort.protocol`]: ['SCTP', 'TCP', 'UDP'],
  [`${C}Container.imagePullPolicy`]: ['Always', 'IfNotPresent', 'Never'],
  [`${C}Container.terminationMessagePolicy`]: ['FallbackToLogsOnError', 'File'],
  [`${C}EphemeralContainer.imagePullPolicy`]: ['Always', 'IfNotPresent', 'Never'],
  [`${C}EphemeralContainer.terminationMessagePolicy`]: ['FallbackToLogsOnError', 'File'],
  [`${C}PodSpec.restartPolicy`]: ['Always', 'Never', 'OnFailure'],
  [`${C}PodSpec.dnsPolicy`]: ['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None'],
  [`${C}PodSpec.preemptionPolicy`]: ['Never', 'PreemptLowerPriority'],
  [`${C}PodStatus.phase`]: ['Failed', 'Pending', 'Running', 'Succeeded', 'Unknown'],
  [`${C}PodStatus.qosClass`]: ['BestEffort', 'Burstable', 'Guaranteed'],
  [`${C}PodOS.name`]: ['linux', 'windows'],
  [`${C}Toleration.operator`]: ['Equal', 'Exists'],
  [`${C}Toleration.effect`]: ['NoExecute', 'NoSchedule', 'PreferNoSchedule'],
  [`${C}Taint.effect`]: ['NoExecute', 'NoSchedule', 'PreferNoSchedule'],
  [`${C}NodeSelectorRequirement.operator`]: ['DoesNotExist', 'Exists', 'Gt', 'In', 'Lt', 'NotIn'],
  [`${C}HTTPGetAction.scheme`]: ['HTTP', 'HTTPS'],
  [`${C}SeccompProfile.type`]: ['Localhost', 'RuntimeDefault', 'Unconfined'],
  [`${C}AppArmorProfile.type`]: ['Localhost', 'RuntimeDefault', 'Unconfined'],
  [`${C}TopologySpreadConstraint.whenUnsatisfiable`]: ['DoNotSchedule', 'ScheduleAnyway'],
  [`${C}PersistentVolumeSpec.persistentVolumeReclaimPolicy`]: ['Delete', 'Recycle', 'Retain'],
  [`${C}PersistentVolumeSpec.volumeMode`]: ['Block', 'Filesystem'],
  [`${C}PersistentVolumeClaimSpec.volumeMode`]: ['Block', 'Filesystem'],
  [`${C}PersistentVolumeSpec.accessModes[]`]: ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'],
  [`${C}PersistentVolumeClaimSpec.accessModes[]`]: ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'],
  [`${C}PersistentVolumeStatus.phase`]: ['Available', 'Bound', 'Failed', 'Pending', 'Released'],
  [`${C}PersistentVolumeClaimStatus.phase`]: ['Bound', 'Lost', 'Pending'],
  [`${C}NamespaceStatus.phase`]: ['Active', 'Terminating'],
  [`${C}ResourceQuotaSpec.scopes[]`]: ['BestEffort', 'CrossNamespacePodAffinity', 'NotBestEffort', 'NotTerminating', 'PriorityClass', 'Terminating', 'VolumeAttributesClass'],
  [`${C}Secret.type`]: [],
  [`${APPS}DeploymentStrategy.type`]: ['Recreate', 'RollingUpdate'],
  [`${APPS}StatefulSetSpec.podManagementPolicy`]: ['OrderedReady', 'Parallel'],
  [`${APPS}StatefulSetUpdateStrategy.type`]: ['OnDelete', 'RollingUpdate'],
  [`${APPS}DaemonSetUpdateStrategy.type`]: ['OnDelete', 'RollingUpdate'],
  [`${BATCH}JobSpec.completionMode`]: ['Indexed', 'NonIndexed'],
  [`${BATCH}JobSpec.podReplacementPolicy`]: ['Failed', 'TerminatingOrFailed'],
  [`${BATCH}CronJobSpec.concurrencyPolicy`]: ['Allow', 'Forbid', 'Replace'],
  [`${BATCH}PodFailurePolicyRule.action`]: ['Count', 'FailIndex', 'FailJob', 'Ignore'],
  [`${BATCH}PodFailurePolicyOnExitCodesRequirement.operator`]: ['In', 'NotIn'],
  ['io.k8s.api.policy.v1.PodDisruptionBudgetSpec.unhealthyPodEvictionPolicy']: ['AlwaysAllow', 'IfHealthyBudget'],
  [`${NET}HTTPIngressPath.pathType`]: ['Exact', 'ImplementationSpecific', 'Prefix'],
  [`${NET}NetworkPolicySpec.policyTypes[]`]: ['Egress', 'Ingress'],
  ['io.k8s.api.discovery.v1.EndpointSlice.addressType']: ['FQDN', 'IPv4', 'IPv6'],
  ['io.k8s.api.storage.v1.StorageClass.reclaimPolicy']: ['Delete', 'Recycle', 'Retain'],
  ['io.k8s.api.storage.v1.StorageClass.volumeBindingMode']: ['Immediate', 'WaitForFirstConsumer'],
  ['io.k8s.api.scheduling.v1.PriorityClass.preemptionPolicy']: ['Never', 'PreemptLowerPriority'],
  ['io.k8s.api.autoscaling.v2.MetricSpec.type']: ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'],
  ['io.k8s.api.autoscaling.v2.MetricTarget.type']: ['AverageValue', 'Utilization', 'Value'],
  ['io.k8s.api.autoscaling.v2.HPAScalingPolicy.type']: ['Percent', 'Pods'],
  ['io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicySpec.failurePolicy']: ['Fail', 'Ignore'],
  ['io.k8s.api.admissionregistration.v1.MatchResources.matchPolicy']: ['Equivalent', 'Exact'],
  ['io.k8s.api.admissionregistration.v1.ParamRef.parameterNotFoundAction']: ['Allow', 'Deny'],
  ['io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyBindingSpec.validationActions[]']: ['Audit', 'Deny', 'Warn'],
};
delete ENUMS[`${C}Secret.type`];

/** One sentence about each served kind (by definition name), in the project's own words. */
const KINDS: Record<string, string> = {
  [`${C}Namespace`]: 'A Namespace groups namespaced objects under one name; deleting it deletes everything in it.',
  [`${C}Pod`]: 'A Pod is one or more containers scheduled together on one node, sharing network and volumes.',
  [`${C}Service`]: 'A Service gives a stable name and virtual IP to a set of pods chosen by a label selector.',
  [`${C}ConfigMap`]: 'A ConfigMap holds non-secret configuration as key/value strings or bytes for pods to use.',
  [`${C}Secret`]: 'A Secret holds sensitive data (passwords, tokens, keys) as base64-encoded values.',
  [`${C}ServiceAccount`]: 'A ServiceAccount is an identity that processes in pods use to talk to the API.',
  [`${C}Endpoints`]: 'Endpoints list the addresses and ports behind a Service (the legacy form of EndpointSlices).',
  [`${C}Event`]: 'An Event records something that happened to an object (core/v1 form).',
  [`${C}Node`]: 'A Node is a machine that runs pods; its status reports capacity and health.',
  [`${C}PersistentVolume`]: 'A PersistentVolume is a piece of storage in the cluster, bound to at most one claim.',
  [`${C}PersistentVolumeClaim`]: 'A PersistentVolumeClaim asks for storage of a size and access mode; it binds to a PersistentVolume.',
  [`${C}ResourceQuota`]: 'A ResourceQuota caps how much of each resource the objects of a namespace may use.',
  [`${C}LimitRange`]: 'A LimitRange sets default and allowed resource limits for containers and pods in a namespace.',
  [`${C}ReplicationController`]: 'A ReplicationController keeps a number of pod copies running (the older form of a ReplicaSet).',
  [`${C}PodTemplate`]: 'A PodTemplate stores a pod description for other objects to copy.',
  [`${APPS}Deployment`]: 'A Deployment runs a number of identical pods and rolls out changes to them through ReplicaSets.',
  [`${APPS}ReplicaSet`]: 'A ReplicaSet keeps a number of identical pods running.',
  [`${APPS}StatefulSet`]: 'A StatefulSet runs pods with stable names and storage, created and updated in order.',
  [`${APPS}DaemonSet`]: 'A DaemonSet runs one copy of a pod on every (selected) node.',
  [`${APPS}ControllerRevision`]: 'A ControllerRevision is an immutable snapshot of a workload\'s state, kept for rollbacks.',
  [`${BATCH}Job`]: 'A Job runs pods until a number of them finish successfully.',
  [`${BATCH}CronJob`]: 'A CronJob creates Jobs on a repeating schedule written in cron syntax.',
  ['io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler']: 'A HorizontalPodAutoscaler changes the replica count of a workload to follow observed metrics.',
  ['io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler']: 'A HorizontalPodAutoscaler changes the replica count of a workload to follow CPU use (autoscaling/v1 form).',
  ['io.k8s.api.policy.v1.PodDisruptionBudget']: 'A PodDisruptionBudget limits how many pods of a set voluntary disruptions may take down at once.',
  [`${NET}Ingress`]: 'An Ingress routes outside HTTP(S) traffic to Services by host and path.',
  [`${NET}IngressClass`]: 'An IngressClass names the controller that implements a kind of Ingress.',
  [`${NET}NetworkPolicy`]: 'A NetworkPolicy says which traffic may reach or leave the pods it selects.',
  ['io.k8s.api.discovery.v1.EndpointSlice']: 'An EndpointSlice lists a part of the network endpoints behind a Service.',
  ['io.k8s.api.events.v1.Event']: 'An Event records something that happened to an object (events.k8s.io/v1 form).',
  ['io.k8s.api.coordination.v1.Lease']: 'A Lease is a lock with a holder and an expiry, used for leader election and heartbeats.',
  ['io.k8s.api.rbac.v1.Role']: 'A Role grants permissions on resources within one namespace.',
  ['io.k8s.api.rbac.v1.RoleBinding']: 'A RoleBinding gives the permissions of a Role or ClusterRole to users, groups or service accounts in one namespace.',
  ['io.k8s.api.rbac.v1.ClusterRole']: 'A ClusterRole grants permissions cluster-wide or, through RoleBindings, within namespaces.',
  ['io.k8s.api.rbac.v1.ClusterRoleBinding']: 'A ClusterRoleBinding gives the permissions of a ClusterRole to subjects across the whole cluster.',
  ['io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition']: 'A CustomResourceDefinition adds a new resource type, with its schema, to the API.',
  ['io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicy']: 'A ValidatingAdmissionPolicy checks requests with CEL expressions before they are stored.',
  ['io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyBinding']: 'A ValidatingAdmissionPolicyBinding applies a ValidatingAdmissionPolicy to chosen resources, with parameters.',
  ['io.k8s.api.storage.v1.StorageClass']: 'A StorageClass describes a kind of storage that claims can ask for and provisioners create.',
  ['io.k8s.api.scheduling.v1.PriorityClass']: 'A PriorityClass maps a name to a scheduling priority that pods can refer to.',
  ['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']: 'Metadata every persisted object has: its name, namespace, labels, annotations and the bookkeeping the server keeps.',
};

/** Sentences for common fields, by property name (any definition) or `Definition.property`. */
const FIELDS: Record<string, string> = {
  apiVersion: 'The group and version of the schema of this object, such as "apps/v1" or "v1".',
  kind: 'The type of this object, such as "Deployment"; with apiVersion it says how to read the rest.',
  metadata: 'Standard object metadata: name, namespace, labels, annotations and server-kept fields.',
  spec: 'The desired state: what you want this object to be.',
  status: 'The observed state, written by the system; clients usually do not set it.',
  items: 'The objects of this list.',
  replicas: 'How many copies of the pod should run.',
  selector: 'A label query that picks the objects this one manages or targets.',
  template: 'The pod description that new pods are created from.',
  containers: 'The containers of the pod; there must be at least one.',
  initContainers: 'Containers that run one after the other, to completion, before the regular containers start.',
  image: 'The container image to run, such as "nginx:1.27".',
  ports: 'The network ports this object exposes.',
  env: 'Environment variables to set in the container.',
  resources: 'Compute resources (CPU, memory...) requested and limited.',
  volumes: 'Volumes the containers of the pod can mount.',
  volumeMounts: 'Where the pod\'s volumes are mounted in this container.',
  command: 'The entrypoint to run instead of the image\'s own; not run in a shell.',
  args: 'Arguments to the entrypoint.',
  labels: 'Key/value pairs used to organize and select objects.',
  annotations: 'Key/value pairs for tools and people; not used to select objects.',
  conditions: 'The latest observations of the object\'s state, one entry per condition type.',
  [`io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta.name`]: 'The name of the object, unique within its namespace (or cluster-wide) for its kind.',
  [`io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta.namespace`]: 'The namespace the object lives in; empty for cluster-scoped kinds.',
  [`io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta.resourceVersion`]: 'An opaque version that changes on every write; used for optimistic concurrency and watches.',
  [`io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta.managedFields`]: 'Which field manager owns which fields, kept by the server for server-side apply.',
  [`${C}ServiceSpec.type`]: 'How the Service is exposed: a cluster-internal IP, node ports, an external load balancer, or a DNS name.',
  [`${C}ServiceSpec.clusterIP`]: 'The virtual IP of the Service inside the cluster; "None" makes a headless Service.',
  [`${C}Container.name`]: 'The name of the container, unique within the pod.',
  [`${C}PodSpec.restartPolicy`]: 'When the containers of the pod are restarted after they exit.',
  [`${C}PodSpec.nodeName`]: 'The node the pod runs on; set by the scheduler when empty.',
  [`${APPS}DeploymentSpec.strategy`]: 'How old pods are replaced by new ones when the template changes.',
  [`${BATCH}CronJobSpec.schedule`]: 'When to run, in cron syntax, such as "*/5 * * * *".',
  [`${C}ConfigMap.data`]: 'The configuration entries, as UTF-8 strings.',
  [`${C}Secret.data`]: 'The secret values, base64-encoded.',
  [`${C}Secret.stringData`]: 'Write-only convenience: plain strings merged into data on write.',
};

const WORDS: Record<string, string> = {
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': 'an integer or a string',
  'io.k8s.apimachinery.pkg.api.resource.Quantity': 'a quantity, such as "500m" or "1Gi"',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time': 'a time in RFC 3339 form',
  'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime': 'a time in RFC 3339 form with microseconds',
  'io.k8s.apimachinery.pkg.runtime.RawExtension': 'an embedded object, kept as is',
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1': 'a set of field paths, kept as is',
};

function article(noun: string): string {
  return `${/^[AEIOUaeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;
}

function shortName(ref: string): string {
  return ref.split('.').pop() ?? ref;
}

/** A noun phrase for the type of a schema node: "string", "list of Container", "map of string to string"... */
function typePhrase(s: Schema): string {
  const ref = s.$ref ?? (s.allOf?.length === 1 ? s.allOf[0].$ref : undefined);
  if (ref) return WORDS[ref] ?? article(shortName(ref));
  switch (s.type) {
    case 'array':
      return s.items ? `a list of ${plural(typePhrase(s.items))}` : 'a list';
    case 'object':
      if (s.additionalProperties && typeof s.additionalProperties === 'object') return `a map from string keys to ${plural(typePhrase(s.additionalProperties))}`;
      return 'an object';
    case 'string':
      if (s.format === 'byte') return 'base64-encoded bytes';
      if (s.format === 'int-or-string') return 'an integer or a string';
      return s.format ? `a string (${s.format})` : 'a string';
    case 'integer':
      return s.format ? `an integer (${s.format})` : 'an integer';
    case 'number':
      return s.format ? `a number (${s.format})` : 'a number';
    case 'boolean':
      return 'true or false';
  }
  return 'any value';
}

function plural(phrase: string): string {
  const m = /^(?:a|an) (.+)$/.exec(phrase);
  if (!m) return phrase;
  const rest = m[1];
  if (rest.startsWith('list of ') || rest.startsWith('map ')) return `${rest.replace(/^list/, 'lists').replace(/^map/, 'maps')}`;
  const [head, ...tail] = rest.split(' ');
  const word = /(s|x|ch|sh)$/.test(head) ? `${head}es` : /[^aeiou]y$/.test(head) ? `${head.slice(0, -1)}ies` : `${head}s`;
  return [word, ...tail].join(' ');
}

/** Notes on how a list or map merges (server-side apply, strategic merge patch). */
function mergeNote(s: Schema): string | undefined {
  const lt = s['x-kubernetes-list-type'];
  if (lt === 'map') {
    const keys = s['x-kubernetes-list-map-keys'] ?? [];
    return `Entries are identified by ${keys.join(' and ')}: writers own and merge single entries.`;
  }
  if (lt === 'set') return 'Entries are unique values: writers own and merge single values.';
  if (lt === 'atomic') return 'The list is replaced as a whole on merge.';
  if (s['x-kubernetes-map-type'] === 'atomic') return 'The object is replaced as a whole on merge.';
  if (s['x-kubernetes-patch-merge-key']) return `Merged by ${s['x-kubernetes-patch-merge-key']} in strategic merge patches.`;
  return undefined;
}

/** The generated description of a property (facts only), with a hand-written sentence first when there is one. */
export function propertyDescription(definition: string, prop: string, s: Schema, required: boolean): string {
  const parts: string[] = [];
  const hand = FIELDS[`${definition}.${prop}`] ?? FIELDS[prop];
  if (hand) parts.push(hand);
  const type = typePhrase(s);
  parts.push(`${type.charAt(0).toUpperCase()}${type.slice(1)}.`);
  if (required) parts.push('Required.');
  const values = ENUMS[`${definition}.${prop}`] ?? ENUMS[`${definition}.${prop}[]`];
  if (values?.length) parts.push(`One of ${values.map((v) => JSON.stringify(v)).join(', ')}.`);
  if (s.default !== undefined) parts.push(`Defaults to ${JSON.stringify(s.default)}.`);
  const note = mergeNote(s);
  if (note) parts.push(note);
  return parts.join(' ');
}

/** The description of a definition: the hand-written kind sentence, or a generated one. */
export function definitionDescription(name: string, s: Schema): string {
  if (KINDS[name]) return KINDS[name];
  const gvk = s['x-kubernetes-group-version-kind']?.[0];
  const short = shortName(name);
  if (gvk && gvk.kind === short && short.endsWith('List')) return `A list of ${short.slice(0, -4)} objects.`;
  const parts = name.split('.');
  const group = parts.length > 3 ? parts.slice(0, -1).join('.') : name;
  return `${short}: ${s.properties ? 'an object' : typePhrase(s)} of ${group.replace(/^io\.k8s\./, '')}.`;
}

/** A copy of a built-in definition with descriptions (definition and every property) and enums. */
export function describeDefinition(name: string, s: Schema): Schema {
  const out: Schema & { description?: string } = { ...s, description: definitionDescription(name, s) } as Schema & { description?: string };
  if (s.properties) {
    const required = new Set(s.required ?? []);
    const props: Record<string, Schema> = {};
    for (const [p, ps] of Object.entries(s.properties)) {
      const d: Schema & { description?: string } = { ...ps, description: propertyDescription(name, p, ps, required.has(p)) } as Schema & { description?: string };
      const values = ENUMS[`${name}.${p}`];
      if (values) d.enum = values as JsonValue[];
      const itemValues = ENUMS[`${name}.${p}[]`];
      if (itemValues && ps.items) d.items = { ...ps.items, enum: itemValues as JsonValue[] };
      props[p] = d;
    }
    out.properties = props;
  }
  return out;
}

/** Every definition of a registry, described. */
export function describeDefinitions(defs: SchemaRegistry): SchemaRegistry {
  const out: SchemaRegistry = {};
  for (const [n, s] of Object.entries(defs)) out[n] = describeDefinition(n, s);
  return out;
}
