// The bootstrap RBAC policy a v1.33 API server creates at start (plugin/pkg/auth/authorizer/rbac/
// bootstrappolicy, facts taken from its testdata): the user-facing roles (cluster-admin and the aggregated
// admin/edit/view with their aggregate-to-* parts), the system: roles for discovery, basic users, public
// info, and the roles of the controllers this engine runs, with their bindings. Encoded as data.

import type { PolicyRule } from './attributes.js';

const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'delete', 'deletecollection', 'patch', 'update'];
const READ_WRITE = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

const r = (apiGroups: string[], resources: string[], verbs: string[], resourceNames?: string[]): PolicyRule =>
  resourceNames ? { apiGroups, resourceNames, resources, verbs } : { apiGroups, resources, verbs };
const urls = (nonResourceURLs: string[], verbs: string[]): PolicyRule => ({ nonResourceURLs, verbs });

const EVENTS = r(['', 'events.k8s.io'], ['events'], ['create', 'patch', 'update']);

/** The workload controllers' roles (their service accounts in kube-system are bound to them). */
const WORKLOAD_CONTROLLERS: { name: string; rules: PolicyRule[] }[] = [
  {
    name: 'cronjob-controller',
    rules: [
      r(['batch'], ['cronjobs'], ['get', 'list', 'update', 'watch']),
      r(['batch'], ['jobs'], ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']),
      r(['batch'], ['cronjobs/status'], ['update']),
      r(['batch'], ['cronjobs/finalizers'], ['update']),
      r([''], ['pods'], ['delete', 'list']),
      EVENTS,
    ],
  },
  {
    name: 'daemon-set-controller',
    rules: [
      r(['apps', 'extensions'], ['daemonsets'], ['get', 'list', 'watch']),
      r(['apps', 'extensions'], ['daemonsets/status'], ['update']),
      r(['apps', 'extensions'], ['daemonsets/finalizers'], ['update']),
      r([''], ['nodes'], ['list', 'watch']),
      r([''], ['pods'], ['create', 'delete', 'list', 'patch', 'watch']),
      r([''], ['pods/binding'], ['create']),
      r(['apps'], ['controllerrevisions'], ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']),
      EVENTS,
    ],
  },
  {
    name: 'deployment-controller',
    rules: [
      r(['apps', 'extensions'], ['deployments'], ['get', 'list', 'update', 'watch']),
      r(['apps', 'extensions'], ['deployments/status'], ['update']),
      r(['apps', 'extensions'], ['deployments/finalizers'], ['update']),
      r(['apps', 'extensions'], ['replicasets'], ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']),
      r([''], ['pods'], ['get', 'list', 'update', 'watch']),
      EVENTS,
    ],
  },
  {
    name: 'node-controller',
    rules: [
      r([''], ['nodes'], ['delete', 'get', 'list', 'patch', 'update']),
      r([''], ['nodes/status'], ['patch', 'update']),
      r([''], ['pods/status'], ['patch', 'update']),
      r([''], ['pods'], ['delete', 'list']),
      r([''], ['pods'], ['get']),
      EVENTS,
    ],
  },
  {
    name: 'endpoint-controller',
    rules: [
      r([''], ['pods', 'services'], ['get', 'list', 'watch']),
      r([''], ['endpoints'], ['create', 'delete', 'get', 'list', 'update']),
      r([''], ['endpoints/restricted'], ['create']),
      EVENTS,
    ],
  },
  {
    name: 'endpointslice-controller',
    rules: [
      r([''], ['nodes', 'pods', 'services'], ['get', 'list', 'watch']),
      r([''], ['services/finalizers'], ['update']),
      r(['discovery.k8s.io'], ['endpointslices'], ['create', 'delete', 'get', 'list', 'update']),
      EVENTS,
    ],
  },
  {
    name: 'job-controller',
    rules: [
      r(['batch'], ['jobs'], ['get', 'list', 'patch', 'update', 'watch']),
      r(['batch'], ['jobs/status'], ['update']),
      r(['batch'], ['jobs/finalizers'], ['update']),
      r([''], ['pods'], ['create', 'delete', 'list', 'patch', 'watch']),
      EVENTS,
    ],
  },
  {
    name: 'replicaset-controller',
    rules: [
      r(['apps', 'extensions'], ['replicasets'], ['get', 'list', 'update', 'watch']),
      r(['apps', 'extensions'], ['replicasets/status'], ['update']),
      r(['apps', 'extensions'], ['replicasets/finalizers'], ['update']),
      r([''], ['pods'], ['create', 'delete', 'list', 'patch', 'watch']),
      EVENTS,
    ],
  },
  {
    name: 'pod-garbage-collector',
    rules: [
      r([''], ['pods'], ['delete', 'list', 'watch']),
      r([''], ['nodes'], ['get', 'list']),
      r([''], ['pods/status'], ['patch']),
    ],
  },
  {
    name: 'statefulset-controller',
    rules: [
      r([''], ['pods'], ['list', 'watch']),
      r(['apps'], ['statefulsets'], ['get', 'list', 'watch']),
      r(['apps'], ['statefulsets/status'], ['update']),
      r(['apps'], ['statefulsets/finalizers'], ['update']),
      r([''], ['pods'], ['create', 'delete', 'get', 'patch', 'update']),
      r(['apps'], ['controllerrevisions'], ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']),
      r([''], ['persistentvolumeclaims'], ['create', 'get', 'list', 'watch']),
      r([''], ['persistentvolumeclaims'], ['delete', 'update']),
      r([''], ['pods/finalizers'], ['update']),
      EVENTS,
    ],
  },
];

function workloadControllerRoles(): BootstrapClusterRole[] {
  return WORKLOAD_CONTROLLERS.map((c) => ({ name: `system:controller:${c.name}`, rules: c.rules }));
}

export interface BootstrapClusterRole {
  name: string;
  labels?: Record<string, string>;
  aggregateFrom?: string;
  rules?: PolicyRule[];
}

export interface BootstrapBinding {
  name: string;
  role: string;
  subjects: { kind: 'User' | 'Group' | 'ServiceAccount'; name: string; namespace?: string }[];
}

const AGG = 'rbac.authorization.k8s.io/aggregate-to-';

export const BOOTSTRAP_CLUSTER_ROLES: BootstrapClusterRole[] = [
  { name: 'admin', aggregateFrom: `${AGG}admin` },
  { name: 'cluster-admin', rules: [r(['*'], ['*'], ['*']), urls(['*'], ['*'])] },
  { name: 'edit', labels: { [`${AGG}admin`]: 'true' }, aggregateFrom: `${AGG}edit` },
  {
    name: 'system:aggregate-to-admin',
    labels: { [`${AGG}admin`]: 'true' },
    rules: [r(['authorization.k8s.io'], ['localsubjectaccessreviews'], ['create']), r(['rbac.authorization.k8s.io'], ['rolebindings', 'roles'], READ_WRITE)],
  },
  {
    name: 'system:aggregate-to-edit',
    labels: { [`${AGG}edit`]: 'true' },
    rules: [
      r([''], ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy'], READ),
      r([''], ['serviceaccounts'], ['impersonate']),
      r([''], ['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy'], WRITE),
      r([''], ['pods/eviction'], ['create']),
      r([''], ['configmaps', 'events', 'persistentvolumeclaims', 'replicationcontrollers', 'replicationcontrollers/scale', 'secrets', 'serviceaccounts', 'services', 'services/proxy'], WRITE),
      r([''], ['serviceaccounts/token'], ['create']),
      r(['apps'], ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'replicasets', 'replicasets/scale', 'statefulsets', 'statefulsets/scale'], WRITE),
      r(['autoscaling'], ['horizontalpodautoscalers'], WRITE),
      r(['batch'], ['cronjobs', 'jobs'], WRITE),
      r(['extensions'], ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'ingresses', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicationcontrollers/scale'], WRITE),
      r(['policy'], ['poddisruptionbudgets'], WRITE),
      r(['networking.k8s.io'], ['ingresses', 'networkpolicies'], WRITE),
      r(['coordination.k8s.io'], ['leases'], READ_WRITE),
    ],
  },
  {
    name: 'system:aggregate-to-view',
    labels: { [`${AGG}view`]: 'true' },
    rules: [
      r([''], ['configmaps', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status'], READ),
      r([''], ['bindings', 'events', 'limitranges', 'namespaces/status', 'pods/log', 'pods/status', 'replicationcontrollers/status', 'resourcequotas', 'resourcequotas/status'], READ),
      r([''], ['namespaces'], READ),
      r(['discovery.k8s.io'], ['endpointslices'], READ),
      r(['apps'], ['controllerrevisions', 'daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'replicasets', 'replicasets/scale', 'replicasets/status', 'statefulsets', 'statefulsets/scale', 'statefulsets/status'], READ),
      r(['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status'], READ),
      r(['batch'], ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status'], READ),
      r(['extensions'], ['daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'ingresses', 'ingresses/status', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicasets/status', 'replicationcontrollers/scale'], READ),
      r(['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status'], READ),
      r(['networking.k8s.io'], ['ingresses', 'ingresses/status', 'networkpolicies'], READ),
    ],
  },
  { name: 'system:auth-delegator', rules: [r(['authentication.k8s.io'], ['tokenreviews'], ['create']), r(['authorization.k8s.io'], ['subjectaccessreviews'], ['create'])] },
  {
    name: 'system:basic-user',
    rules: [r(['authorization.k8s.io'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'], ['create']), r(['authentication.k8s.io'], ['selfsubjectreviews'], ['create'])],
  },
  {
    name: 'system:controller:clusterrole-aggregation-controller',
    rules: [r(['rbac.authorization.k8s.io'], ['clusterroles'], ['escalate', 'get', 'list', 'patch', 'update', 'watch'])],
  },
  {
    name: 'system:controller:generic-garbage-collector',
    rules: [r(['*'], ['*'], ['get', 'list', 'patch', 'update', 'watch', 'delete']), r(['', 'events.k8s.io'], ['events'], ['create', 'patch', 'update'])],
  },
  {
    name: 'system:controller:namespace-controller',
    rules: [
      r([''], ['namespaces'], ['delete', 'get', 'list', 'watch']),
      r([''], ['namespaces/finalize', 'namespaces/status'], ['update']),
      r(['*'], ['*'], ['delete', 'deletecollection', 'get', 'list']),
    ],
  },
  {
    name: 'system:controller:resourcequota-controller',
    rules: [
      r(['*'], ['*'], ['list', 'watch']),
      r([''], ['resourcequotas/status'], ['update']),
      r(['', 'events.k8s.io'], ['events'], ['create', 'patch', 'update']),
    ],
  },
  {
    name: 'system:controller:service-account-controller',
    rules: [r([''], ['serviceaccounts'], ['create']), r(['', 'events.k8s.io'], ['events'], ['create', 'patch', 'update'])],
  },
  {
    name: 'system:controller:validatingadmissionpolicy-status-controller',
    rules: [
      r(['admissionregistration.k8s.io'], ['validatingadmissionpolicies'], ['get', 'list', 'watch']),
      r(['admissionregistration.k8s.io'], ['validatingadmissionpolicies/status'], ['get', 'patch', 'update']),
      r(['', 'events.k8s.io'], ['events'], ['create', 'patch', 'update']),
    ],
  },
  ...workloadControllerRoles(),
  { name: 'system:discovery', rules: [urls(['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'], ['get'])] },
  {
    // kube-controller-manager's own identity: its shared informers list and watch everything with it
    name: 'system:kube-controller-manager',
    rules: [
      r(['', 'events.k8s.io'], ['events'], ['create', 'patch', 'update']),
      r(['coordination.k8s.io'], ['leases'], ['create']),
      r(['coordination.k8s.io'], ['leases'], ['get', 'update'], ['kube-controller-manager']),
      r([''], ['secrets', 'serviceaccounts'], ['create']),
      r([''], ['secrets'], ['delete']),
      r([''], ['configmaps', 'namespaces', 'secrets', 'serviceaccounts'], ['get']),
      r([''], ['secrets', 'serviceaccounts'], ['update']),
      r(['authentication.k8s.io'], ['tokenreviews'], ['create']),
      r(['authorization.k8s.io'], ['subjectaccessreviews'], ['create']),
      r(['*'], ['*'], ['list', 'watch']),
      r([''], ['serviceaccounts/token'], ['create']),
    ],
  },
  {
    // kube-scheduler's own user
    name: 'system:kube-scheduler',
    rules: [
      r(['', 'events.k8s.io'], ['events'], ['create', 'patch', 'update']),
      r(['coordination.k8s.io'], ['leases'], ['create']),
      r(['coordination.k8s.io'], ['leases'], ['get', 'update'], ['kube-scheduler']),
      r([''], ['nodes'], READ),
      r([''], ['pods'], ['delete', 'get', 'list', 'watch']),
      r([''], ['bindings', 'pods/binding'], ['create']),
      r([''], ['pods/status'], ['patch', 'update']),
      r([''], ['replicationcontrollers', 'services'], ['list', 'watch']),
      r(['apps', 'extensions'], ['replicasets'], ['list', 'watch']),
      r(['apps'], ['statefulsets'], ['list', 'watch']),
      r(['policy'], ['poddisruptionbudgets'], ['list', 'watch']),
      r([''], ['persistentvolumeclaims', 'persistentvolumes'], ['list', 'watch']),
      r(['authentication.k8s.io'], ['tokenreviews'], ['create']),
      r(['authorization.k8s.io'], ['subjectaccessreviews'], ['create']),
      r([''], ['namespaces'], ['list', 'watch']),
    ],
  },
  { name: 'system:monitoring', rules: [urls(['/healthz', '/healthz/*', '/livez', '/livez/*', '/metrics', '/metrics/slis', '/readyz', '/readyz/*'], ['get'])] },
  {
    // what the Node authorizer lets a node's kubelet do (simplified: the role's rules, not per-object graph checks)
    name: 'system:node',
    rules: [
      r(['authentication.k8s.io'], ['tokenreviews'], ['create']),
      r(['authorization.k8s.io'], ['localsubjectaccessreviews', 'subjectaccessreviews'], ['create']),
      r([''], ['services'], ['get', 'list', 'watch']),
      r([''], ['nodes'], ['create', 'get', 'list', 'watch']),
      r([''], ['nodes/status'], ['patch', 'update']),
      r([''], ['nodes'], ['patch', 'update']),
      r(['', 'events.k8s.io'], ['events'], ['create', 'patch', 'update']),
      r([''], ['pods'], ['get', 'list', 'watch']),
      r([''], ['pods'], ['create', 'delete']),
      r([''], ['pods/status'], ['patch', 'update']),
      r([''], ['pods/eviction'], ['create']),
      r([''], ['configmaps', 'secrets'], ['get', 'list', 'watch']),
      r([''], ['persistentvolumeclaims', 'persistentvolumes'], ['get']),
      r([''], ['endpoints'], ['get']),
      r(['certificates.k8s.io'], ['certificatesigningrequests'], ['create', 'get', 'list', 'watch']),
      r(['coordination.k8s.io'], ['leases'], ['create', 'delete', 'get', 'patch', 'update']),
      r(['storage.k8s.io'], ['volumeattachments'], ['get']),
      r([''], ['serviceaccounts/token'], ['create']),
      r([''], ['persistentvolumeclaims/status'], ['get', 'patch', 'update']),
      r(['node.k8s.io'], ['runtimeclasses'], ['get', 'list', 'watch']),
      r(['storage.k8s.io'], ['csidrivers'], ['get', 'list', 'watch']),
      r(['storage.k8s.io'], ['csinodes'], ['create', 'delete', 'get', 'patch', 'update']),
    ],
  },
  { name: 'system:public-info-viewer', rules: [urls(['/healthz', '/livez', '/readyz', '/version', '/version/'], ['get'])] },
  { name: 'system:service-account-issuer-discovery', rules: [urls(['/.well-known/openid-configuration', '/openid/v1/jwks'], ['get'])] },
  { name: 'view', labels: { [`${AGG}edit`]: 'true' }, aggregateFrom: `${AGG}view` },
];

export const BOOTSTRAP_CLUSTER_ROLE_BINDINGS: BootstrapBinding[] = [
  { name: 'cluster-admin', role: 'cluster-admin', subjects: [{ kind: 'Group', name: 'system:masters' }] },
  { name: 'system:basic-user', role: 'system:basic-user', subjects: [{ kind: 'Group', name: 'system:authenticated' }] },
  {
    name: 'system:controller:clusterrole-aggregation-controller',
    role: 'system:controller:clusterrole-aggregation-controller',
    subjects: [{ kind: 'ServiceAccount', name: 'clusterrole-aggregation-controller', namespace: 'kube-system' }],
  },
  {
    name: 'system:controller:generic-garbage-collector',
    role: 'system:controller:generic-garbage-collector',
    subjects: [{ kind: 'ServiceAccount', name: 'generic-garbage-collector', namespace: 'kube-system' }],
  },
  {
    name: 'system:controller:namespace-controller',
    role: 'system:controller:namespace-controller',
    subjects: [{ kind: 'ServiceAccount', name: 'namespace-controller', namespace: 'kube-system' }],
  },
  {
    name: 'system:controller:resourcequota-controller',
    role: 'system:controller:resourcequota-controller',
    subjects: [{ kind: 'ServiceAccount', name: 'resourcequota-controller', namespace: 'kube-system' }],
  },
  {
    name: 'system:controller:service-account-controller',
    role: 'system:controller:service-account-controller',
    subjects: [{ kind: 'ServiceAccount', name: 'service-account-controller', namespace: 'kube-system' }],
  },
  {
    name: 'system:controller:validatingadmissionpolicy-status-controller',
    role: 'system:controller:validatingadmissionpolicy-status-controller',
    subjects: [{ kind: 'ServiceAccount', name: 'validatingadmissionpolicy-status-controller', namespace: 'kube-system' }],
  },
  { name: 'system:discovery', role: 'system:discovery', subjects: [{ kind: 'Group', name: 'system:authenticated' }] },
  { name: 'system:monitoring', role: 'system:monitoring', subjects: [{ kind: 'Group', name: 'system:monitoring' }] },
  {
    name: 'system:public-info-viewer',
    role: 'system:public-info-viewer',
    subjects: [{ kind: 'Group', name: 'system:authenticated' }, { kind: 'Group', name: 'system:unauthenticated' }],
  },
  { name: 'system:kube-controller-manager', role: 'system:kube-controller-manager', subjects: [{ kind: 'User', name: 'system:kube-controller-manager' }] },
  { name: 'system:kube-scheduler', role: 'system:kube-scheduler', subjects: [{ kind: 'User', name: 'system:kube-scheduler' }] },
  ...WORKLOAD_CONTROLLERS.map((c) => ({
    name: `system:controller:${c.name}`,
    role: `system:controller:${c.name}`,
    subjects: [{ kind: 'ServiceAccount' as const, name: c.name, namespace: 'kube-system' }],
  })),
  { name: 'system:service-account-issuer-discovery', role: 'system:service-account-issuer-discovery', subjects: [{ kind: 'Group', name: 'system:serviceaccounts' }] },
];

export const BOOTSTRAP_LABELS = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };
export const AUTOUPDATE_ANNOTATION = 'rbac.authorization.kubernetes.io/autoupdate';
