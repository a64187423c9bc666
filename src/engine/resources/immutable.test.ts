// Immutable and update-only fields, kind by kind, as the real update validation (pkg/apis/*/validation
// ValidateXUpdate and the registries' update preparation) has them: a table of (kind, object, change) with
// the real 422 message; every change is refused and leaves the stored object as it was, and an allowed
// change beside each rule succeeds.
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../testing/harness.js';

type Obj = Record<string, any>;

interface Case {
  name: string;
  path: string;
  body: Obj;
  /** Mutates the object as read back. */
  change: (o: Obj) => void;
  /** The exact message, or (for messages that carry a Go diff) its first line. */
  message: string;
  prefixOnly?: boolean;
  /** Text the message must also contain. */
  contains?: string;
  /** A change the same rule allows (must succeed). */
  allowed?: (o: Obj) => void;
}

const NS = '/api/v1/namespaces/default';
const podSpec = { containers: [{ name: 'app', image: 'nginx:1.27' }] };

const CASES: Case[] = [
  {
    name: 'Service: clusterIP may not change once set (clusterIPs follow the singular field)',
    path: `${NS}/services`,
    body: { metadata: { name: 'svc' }, spec: { ports: [{ port: 80 }] } },
    change: (o) => { o.spec.clusterIP = '10.96.200.200'; },
    message: 'Service "svc" is invalid: spec.clusterIPs[0]: Invalid value: []string{"10.96.200.200"}: may not change once set',
    allowed: (o) => { delete o.spec.clusterIP; delete o.spec.clusterIPs; o.spec.ports[0].port = 81; },
  },
  {
    name: 'Service: clusterIPs may not change once set',
    path: `${NS}/services`,
    body: { metadata: { name: 'svc2' }, spec: { ports: [{ port: 80 }] } },
    change: (o) => { o.spec.clusterIP = '10.96.200.201'; o.spec.clusterIPs = ['10.96.200.201']; },
    message: 'Service "svc2" is invalid: spec.clusterIPs[0]: Invalid value: []string{"10.96.200.201"}: may not change once set',
  },
  {
    name: 'Service: ipFamilies may not change once set',
    path: `${NS}/services`,
    body: { metadata: { name: 'svc3' }, spec: { ports: [{ port: 80 }] } },
    change: (o) => { o.spec.ipFamilies = ['IPv6']; },
    message: 'Service "svc3" is invalid: spec.ipFamilies[0]: Invalid value: []core.IPFamily{"IPv6"}: may not change once set',
  },
  {
    name: 'Service: a headless service may not take a cluster IP',
    path: `${NS}/services`,
    body: { metadata: { name: 'headless' }, spec: { clusterIP: 'None', ports: [{ port: 80 }] } },
    change: (o) => { o.spec.clusterIP = '10.96.0.50'; o.spec.clusterIPs = ['10.96.0.50']; },
    message: 'Service "headless" is invalid: spec.clusterIPs[0]: Invalid value: []string{"10.96.0.50"}: may not change once set',
  },
  {
    name: 'Node: podCIDR may only go from unset to set',
    path: '/api/v1/nodes',
    body: { metadata: { name: 'node-a' }, spec: { podCIDR: '10.244.1.0/24', podCIDRs: ['10.244.1.0/24'] } },
    change: (o) => { o.spec.podCIDR = '10.244.2.0/24'; o.spec.podCIDRs = ['10.244.2.0/24']; },
    message: 'Node "node-a" is invalid: spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid',
    allowed: (o) => { o.spec.unschedulable = true; },
  },
  {
    name: 'Node: providerID may only go from unset to set',
    path: '/api/v1/nodes',
    body: { metadata: { name: 'node-b' }, spec: { providerID: 'cloud://one' } },
    change: (o) => { o.spec.providerID = 'cloud://two'; },
    message: 'Node "node-b" is invalid: spec.providerID: Forbidden: node updates may not change providerID except from "" to valid',
  },
  {
    name: 'Node: a podCIDR may be assigned to a node that had none',
    path: '/api/v1/nodes',
    body: { metadata: { name: 'node-c' } },
    change: (o) => { o.spec.podCIDR = 'not-a-cidr'; o.spec.podCIDRs = ['not-a-cidr']; },
    message: 'Node "node-c" is invalid: spec.podCIDRs[0]: Invalid value: "not-a-cidr": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
    allowed: (o) => { o.spec.podCIDR = '10.244.3.0/24'; o.spec.podCIDRs = ['10.244.3.0/24']; },
  },
  {
    name: 'ResourceQuota: scopes are immutable',
    path: `${NS}/resourcequotas`,
    body: { metadata: { name: 'quota' }, spec: { hard: { pods: '5' }, scopes: ['BestEffort'] } },
    change: (o) => { o.spec.scopes = ['NotBestEffort']; },
    message: 'ResourceQuota "quota" is invalid: spec.scopes: Invalid value: []core.ResourceQuotaScope{"NotBestEffort"}: field is immutable',
    allowed: (o) => { o.spec.hard.pods = '6'; },
  },
  {
    name: 'PersistentVolume: the volume source is immutable',
    path: '/api/v1/persistentvolumes',
    body: { metadata: { name: 'pv' }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/a' } } },
    change: (o) => { o.spec.hostPath.path = '/b'; },
    message: 'PersistentVolume "pv" is invalid: spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation',
    prefixOnly: true,
    allowed: (o) => { o.spec.capacity.storage = '2Gi'; },
  },
  {
    name: 'PersistentVolume: volumeMode is immutable',
    path: '/api/v1/persistentvolumes',
    body: { metadata: { name: 'pv2' }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/a' } } },
    change: (o) => { o.spec.volumeMode = 'Block'; },
    message: 'PersistentVolume "pv2" is invalid: volumeMode: Invalid value: "Block": field is immutable',
  },
  {
    name: 'PersistentVolumeClaim: the spec is immutable but for requests',
    path: `${NS}/persistentvolumeclaims`,
    body: { metadata: { name: 'claim' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
    change: (o) => { o.spec.accessModes = ['ReadWriteMany']; },
    message: 'PersistentVolumeClaim "claim" is invalid: spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
    prefixOnly: true,
  },
  {
    name: 'Secret: data of an immutable secret',
    path: `${NS}/secrets`,
    body: { metadata: { name: 'frozen' }, immutable: true, data: { a: 'MQ==' } },
    change: (o) => { o.data.a = 'Mg=='; },
    message: 'Secret "frozen" is invalid: data: Forbidden: field is immutable when `immutable` is set',
    allowed: (o) => { o.metadata.labels = { a: 'b' }; },
  },
  {
    name: 'Secret: immutable cannot be unset',
    path: `${NS}/secrets`,
    body: { metadata: { name: 'frozen2' }, immutable: true, data: { a: 'MQ==' } },
    change: (o) => { o.immutable = false; },
    message: 'Secret "frozen2" is invalid: immutable: Forbidden: field is immutable when `immutable` is set',
  },
  {
    name: 'Secret: type is immutable',
    path: `${NS}/secrets`,
    body: { metadata: { name: 'typed' }, type: 'example.com/one', data: { a: 'MQ==' } },
    change: (o) => { o.type = 'example.com/two'; },
    message: 'Secret "typed" is invalid: type: Invalid value: "example.com/two": field is immutable',
    allowed: (o) => { o.data.a = 'Mg=='; },
  },
  {
    name: 'ConfigMap: data of an immutable config map',
    path: `${NS}/configmaps`,
    body: { metadata: { name: 'frozen' }, immutable: true, data: { a: '1' } },
    change: (o) => { o.data.a = '2'; },
    message: 'ConfigMap "frozen" is invalid: data: Forbidden: field is immutable when `immutable` is set',
  },
  {
    name: 'Job: the pod template is immutable',
    path: '/apis/batch/v1/namespaces/default/jobs',
    body: { metadata: { name: 'job' }, spec: { template: { spec: { ...podSpec, restartPolicy: 'Never' } } } },
    change: (o) => { o.spec.template.spec.containers[0].image = 'nginx:2'; },
    message: 'Job.batch "job" is invalid: spec.template: Invalid value: ',
    prefixOnly: true,
    allowed: (o) => { o.spec.parallelism = 2; },
  },
  {
    name: 'Job: the selector is immutable',
    path: '/apis/batch/v1/namespaces/default/jobs',
    body: { metadata: { name: 'job2' }, spec: { template: { spec: { ...podSpec, restartPolicy: 'Never' } } } },
    change: (o) => { o.spec.selector.matchLabels.extra = 'x'; },
    // the new object's own checks come first, then the update rules (the job strategy appends them)
    message: 'Job.batch "job2" is invalid: [spec.template.metadata.labels: Invalid value: ',
    prefixOnly: true,
    contains: '`selector` does not match template `labels`, spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"batch.kubernetes.io/controller-uid":',
  },
  {
    name: 'StatefulSet: spec fields other than the updatable ones',
    path: '/apis/apps/v1/namespaces/default/statefulsets',
    body: { metadata: { name: 'sts' }, spec: { serviceName: 'sts', selector: { matchLabels: { app: 'sts' } }, template: { metadata: { labels: { app: 'sts' } }, spec: podSpec } } },
    change: (o) => { o.spec.serviceName = 'other'; },
    message: "StatefulSet.apps \"sts\" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    allowed: (o) => { o.spec.replicas = 3; },
  },
  {
    name: 'Deployment: the selector is immutable',
    path: '/apis/apps/v1/namespaces/default/deployments',
    body: { metadata: { name: 'dep' }, spec: { selector: { matchLabels: { app: 'dep' } }, template: { metadata: { labels: { app: 'dep', tier: 'web' } }, spec: podSpec } } },
    change: (o) => { o.spec.selector.matchLabels.tier = 'web'; },
    message: 'Deployment.apps "dep" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"dep", "tier":"web"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
    allowed: (o) => { o.spec.replicas = 2; },
  },
  {
    name: 'IngressClass: the controller is immutable',
    path: '/apis/networking.k8s.io/v1/ingressclasses',
    body: { metadata: { name: 'ic' }, spec: { controller: 'example.com/one' } },
    change: (o) => { o.spec.controller = 'example.com/two'; },
    message: 'IngressClass.networking.k8s.io "ic" is invalid: spec.controller: Invalid value: "example.com/two": field is immutable',
  },
  {
    name: 'EndpointSlice: addressType is immutable',
    path: '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices',
    body: { metadata: { name: 'es' }, addressType: 'IPv4', endpoints: [] },
    change: (o) => { o.addressType = 'IPv6'; },
    message: 'EndpointSlice.discovery.k8s.io "es" is invalid: addressType: Invalid value: "IPv6": field is immutable',
  },
  {
    name: 'RoleBinding: roleRef cannot change',
    path: '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings',
    body: { metadata: { name: 'rb' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'one' }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'jane' }] },
    change: (o) => { o.roleRef.name = 'two'; },
    message: 'RoleBinding.rbac.authorization.k8s.io "rb" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"Role", Name:"two"}: cannot change roleRef',
    allowed: (o) => { o.subjects.push({ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'joe' }); },
  },
  {
    name: 'PriorityClass: value may not change',
    path: '/apis/scheduling.k8s.io/v1/priorityclasses',
    body: { metadata: { name: 'pc' }, value: 100 },
    change: (o) => { o.value = 200; },
    message: 'PriorityClass.scheduling.k8s.io "pc" is invalid: value: Forbidden: may not be changed in an update.',
    allowed: (o) => { o.description = 'now described'; },
  },
  {
    name: 'StorageClass: the provisioner may not change',
    path: '/apis/storage.k8s.io/v1/storageclasses',
    body: { metadata: { name: 'sc' }, provisioner: 'example.com/one' },
    change: (o) => { o.provisioner = 'example.com/two'; },
    message: 'StorageClass.storage.k8s.io "sc" is invalid: provisioner: Forbidden: updates to provisioner are forbidden.',
    allowed: (o) => { o.allowVolumeExpansion = true; },
  },
  {
    name: 'Pod: the spec beyond images, tolerations and deadlines',
    path: `${NS}/pods`,
    body: { metadata: { name: 'pod' }, spec: podSpec },
    change: (o) => { o.spec.restartPolicy = 'Never'; },
    message: 'Pod "pod" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
    prefixOnly: true,
    allowed: (o) => { o.spec.containers[0].image = 'nginx:2'; },
  },
  {
    name: 'ReplicaSet: the selector is immutable',
    path: '/apis/apps/v1/namespaces/default/replicasets',
    body: { metadata: { name: 'rs' }, spec: { selector: { matchLabels: { app: 'rs' } }, template: { metadata: { labels: { app: 'rs', tier: 'web' } }, spec: podSpec } } },
    change: (o) => { o.spec.selector.matchLabels.tier = 'web'; },
    message: 'ReplicaSet.apps "rs" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"rs", "tier":"web"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
    allowed: (o) => { o.spec.replicas = 2; },
  },
  {
    name: 'DaemonSet: the selector is immutable',
    path: '/apis/apps/v1/namespaces/default/daemonsets',
    body: { metadata: { name: 'ds' }, spec: { selector: { matchLabels: { app: 'ds' } }, template: { metadata: { labels: { app: 'ds', tier: 'web' } }, spec: podSpec } } },
    change: (o) => { o.spec.selector.matchLabels.tier = 'web'; },
    message: 'DaemonSet.apps "ds" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"ds", "tier":"web"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
    allowed: (o) => { o.spec.minReadySeconds = 5; },
  },
  {
    name: 'ClusterRoleBinding: roleRef cannot change',
    path: '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
    body: { metadata: { name: 'crb' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'jane' }] },
    change: (o) => { o.roleRef.name = 'edit'; },
    message: 'ClusterRoleBinding.rbac.authorization.k8s.io "crb" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef',
  },
  {
    name: 'CustomResourceDefinition: scope is immutable',
    path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
    body: {
      metadata: { name: 'things.imm.example.com' },
      spec: {
        group: 'imm.example.com', scope: 'Namespaced', names: { plural: 'things', singular: 'thing', kind: 'Thing', listKind: 'ThingList' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }],
      },
    },
    change: (o) => { o.spec.scope = 'Cluster'; },
    message: 'CustomResourceDefinition.apiextensions.k8s.io "things.imm.example.com" is invalid: spec.scope: Invalid value: "Cluster": field is immutable',
  },
  {
    name: 'StorageClass: reclaimPolicy and volumeBindingMode may not change',
    path: '/apis/storage.k8s.io/v1/storageclasses',
    body: { metadata: { name: 'sc2' }, provisioner: 'example.com/one' },
    change: (o) => { o.reclaimPolicy = 'Retain'; o.volumeBindingMode = 'WaitForFirstConsumer'; },
    message: 'StorageClass.storage.k8s.io "sc2" is invalid: [reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden., volumeBindingMode: Invalid value: "WaitForFirstConsumer": field is immutable]',
  },
  {
    name: 'PriorityClass: preemptionPolicy is immutable',
    path: '/apis/scheduling.k8s.io/v1/priorityclasses',
    body: { metadata: { name: 'pc2' }, value: 100 },
    change: (o) => { o.preemptionPolicy = 'Never'; },
    message: 'PriorityClass.scheduling.k8s.io "pc2" is invalid: preemptionPolicy: Invalid value: "Never": field is immutable',
  },
  {
    name: 'Event (events.k8s.io/v1): note and the other descriptive fields are immutable, under their internal names',
    path: '/apis/events.k8s.io/v1/namespaces/default/events',
    body: {
      metadata: { name: 'ev' }, eventTime: '2025-01-01T00:00:00.000000Z', reportingController: 'example.com/c', reportingInstance: 'c-1',
      action: 'Test', reason: 'Tested', type: 'Normal', note: 'first', regarding: { kind: 'Pod', name: 'p', namespace: 'default' },
    },
    change: (o) => { o.note = 'second'; o.regarding.name = 'q'; },
    message: 'Event.events.k8s.io "ev" is invalid: [involvedObject: Invalid value: core.ObjectReference{Kind:"Pod", Namespace:"default", Name:"q", UID:"", APIVersion:"", ResourceVersion:"", FieldPath:""}: field is immutable, message: Invalid value: "second": field is immutable]',
    allowed: (o) => { o.series = { count: 2, lastObservedTime: '2025-01-01T00:01:00.000000Z' }; },
  },
];

let c: TestClient;
beforeEach(async () => {
  c = await testClient(createMemoryStorage());
});

describe('immutable and update-only fields', () => {
  it('core v1 Events keep their legacy (mutable) update rules', async () => {
    const body = { metadata: { name: 'legacy' }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' }, reason: 'R', message: 'one' };
    expect((await c.req('POST', `${NS}/events`, body)).status).toBe(201);
    const r = await c.req('PUT', `${NS}/events/legacy`, { ...body, message: 'two', count: 3 });
    expect(r.status, r.text).toBe(200);
  });

  for (const t of CASES) {
    it(t.name, async () => {
      const created = await c.req('POST', t.path, t.body);
      expect(created.status, created.text).toBe(201);
      const url = `${t.path}/${created.body.metadata.name}`;
      const read = (await c.req('GET', url)).body;
      const changed = JSON.parse(JSON.stringify(read));
      t.change(changed);
      const r = await c.req('PUT', url, changed);
      expect(r.status, r.text).toBe(422);
      expect(r.body.reason).toBe('Invalid');
      if (t.prefixOnly) expect(r.body.message.startsWith(t.message), r.body.message).toBe(true);
      else expect(r.body.message).toBe(t.message);
      if (t.contains) expect(r.body.message).toContain(t.contains);
      expect((await c.req('GET', url)).body).toEqual(read);
      if (t.allowed) {
        const ok = JSON.parse(JSON.stringify(read));
        t.allowed(ok);
        const r2 = await c.req('PUT', url, ok);
        expect(r2.status, r2.text).toBe(200);
      }
    });
  }
});
