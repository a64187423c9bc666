// A minimal valid object of every built-in kind, for catalog-wide tests (paging, read-back updates): each
// one is accepted by a create on a fresh cluster, in any namespace, under any name given.

import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../registry/types.js';

type Sample = (name: string) => Record<string, unknown>;

const podSpec = { containers: [{ name: 'app', image: 'nginx:1.27' }] };
const template = (app: string) => ({ metadata: { labels: { app } }, spec: podSpec });
const selector = (app: string) => ({ matchLabels: { app } });

/** Everything but apiVersion/kind/metadata.name, by `group/plural`. */
const SAMPLES: Record<string, Sample> = {
  '/namespaces': () => ({}),
  '/pods': () => ({ spec: podSpec }),
  '/services': () => ({ spec: { ports: [{ port: 80 }] } }),
  '/configmaps': () => ({ data: { a: '1' } }),
  '/secrets': () => ({ stringData: { a: '1' } }),
  '/serviceaccounts': () => ({}),
  '/endpoints': () => ({ subsets: [{ addresses: [{ ip: '10.1.2.3' }], ports: [{ port: 80 }] }] }),
  '/events': (name) => ({ involvedObject: { kind: 'Pod', name, namespace: 'NAMESPACE' }, reason: 'Tested', message: 'sample' }),
  '/nodes': () => ({}),
  '/persistentvolumes': () => ({ spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/pv' } } }),
  '/persistentvolumeclaims': () => ({ spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }),
  '/resourcequotas': () => ({ spec: { hard: { pods: '100' } } }),
  '/limitranges': () => ({ spec: { limits: [{ type: 'Container', max: { cpu: '4' } }] } }),
  '/replicationcontrollers': (name) => ({ spec: { replicas: 1, selector: { app: name }, template: template(name) } }),
  '/podtemplates': (name) => ({ template: template(name) }),
  'apps/deployments': (name) => ({ spec: { selector: selector(name), template: template(name) } }),
  'apps/replicasets': (name) => ({ spec: { selector: selector(name), template: template(name) } }),
  'apps/statefulsets': (name) => ({ spec: { serviceName: name, selector: selector(name), template: template(name) } }),
  'apps/daemonsets': (name) => ({ spec: { selector: selector(name), template: template(name) } }),
  'apps/controllerrevisions': () => ({ data: { a: 1 }, revision: 1 }),
  'batch/jobs': () => ({ spec: { template: { spec: { ...podSpec, restartPolicy: 'Never' } } } }),
  'batch/cronjobs': () => ({ spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: { spec: { ...podSpec, restartPolicy: 'OnFailure' } } } } } }),
  'autoscaling/horizontalpodautoscalers': (name) => ({ spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name }, minReplicas: 1, maxReplicas: 3 } }),
  'policy/poddisruptionbudgets': (name) => ({ spec: { minAvailable: 1, selector: selector(name) } }),
  'networking.k8s.io/ingresses': (name) => ({ spec: { defaultBackend: { service: { name, port: { number: 80 } } } } }),
  'networking.k8s.io/ingressclasses': () => ({ spec: { controller: 'example.com/ingress' } }),
  'networking.k8s.io/networkpolicies': (name) => ({ spec: { podSelector: selector(name) } }),
  'discovery.k8s.io/endpointslices': () => ({ addressType: 'IPv4', endpoints: [{ addresses: ['10.1.2.3'] }], ports: [{ port: 80 }] }),
  'events.k8s.io/events': () => ({ eventTime: '2025-01-01T00:00:00.000000Z', reportingController: 'example.com/tester', reportingInstance: 'tester-1', action: 'Test', reason: 'Tested', type: 'Normal', regarding: { kind: 'Pod', name: 'p', namespace: 'NAMESPACE' } }),
  'coordination.k8s.io/leases': () => ({ spec: { holderIdentity: 'me', leaseDurationSeconds: 15 } }),
  'rbac.authorization.k8s.io/roles': () => ({ rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] }),
  'rbac.authorization.k8s.io/rolebindings': () => ({ roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'jane' }] }),
  'rbac.authorization.k8s.io/clusterroles': () => ({ rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] }),
  'rbac.authorization.k8s.io/clusterrolebindings': () => ({ roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'jane' }] }),
  'apiextensions.k8s.io/customresourcedefinitions': (name) => {
    // a CRD's name is <plural>.<group>: the sample's name gives the plural
    const plural = name.replace(/[^a-z0-9]/g, '');
    return {
      metadata: { name: `${plural}.samples.example.com` },
      spec: {
        group: 'samples.example.com',
        scope: 'Namespaced',
        names: { plural, singular: `${plural}s1`, kind: `K${plural}`, listKind: `K${plural}List` },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } } } } }],
      },
    };
  },
  'admissionregistration.k8s.io/validatingadmissionpolicies': () => ({ spec: { matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }] }, validations: [{ expression: 'true' }] } }),
  'admissionregistration.k8s.io/validatingadmissionpolicybindings': () => ({ spec: { policyName: 'p', validationActions: ['Deny'] } }),
  // webhooks for a group nothing serves: a sample never intercepts the requests of the test that made it
  'admissionregistration.k8s.io/mutatingwebhookconfigurations': () => ({ webhooks: [{ name: 'check.example.com', clientConfig: { url: 'https://webhook.example.com/check' }, sideEffects: 'None', admissionReviewVersions: ['v1'], rules: [{ operations: ['CREATE'], apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'] }] }] }),
  'admissionregistration.k8s.io/validatingwebhookconfigurations': () => ({ webhooks: [{ name: 'check.example.com', clientConfig: { url: 'https://webhook.example.com/check' }, sideEffects: 'None', admissionReviewVersions: ['v1'], rules: [{ operations: ['CREATE'], apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'] }] }] }),
  'storage.k8s.io/storageclasses': () => ({ provisioner: 'example.com/disk' }),
  'scheduling.k8s.io/priorityclasses': () => ({ value: 1000 }),
  'node.k8s.io/runtimeclasses': () => ({ handler: 'runc' }),
  'storage.k8s.io/csidrivers': () => ({ spec: { attachRequired: false } }),
  'storage.k8s.io/csinodes': () => ({ spec: { drivers: [{ name: 'example.com-disk', nodeID: 'node-1' }] } }),
  'storage.k8s.io/csistoragecapacities': () => ({ storageClassName: 'standard', capacity: '10Gi' }),
  'storage.k8s.io/volumeattachments': () => ({ spec: { attacher: 'example.com-disk', nodeName: 'node-1', source: { persistentVolumeName: 'pv-1' } } }),
  'networking.k8s.io/servicecidrs': () => ({ spec: { cidrs: ['10.100.0.0/16'] } }),
  // an IPAddress is named by its address: the sample's name picks one
  'networking.k8s.io/ipaddresses': (name) => ({ metadata: { name: sampleIP(name) }, spec: { parentRef: { group: '', resource: 'services', namespace: 'default', name } } }),
  // an APIService is named <version>.<group>: the sample's name gives the group
  'apiregistration.k8s.io/apiservices': (name) => {
    const group = `${name.replace(/[^a-z0-9]/g, '')}.samples.example.com`;
    return { metadata: { name: `v1.${group}` }, spec: { group, version: 'v1', groupPriorityMinimum: 1000, versionPriority: 15, service: { namespace: 'default', name: 'api' } } };
  },
  'certificates.k8s.io/certificatesigningrequests': () => ({ spec: { request: SAMPLE_CSR, signerName: 'example.com/signer', usages: ['client auth'] } }),
  'flowcontrol.apiserver.k8s.io/flowschemas': () => ({ spec: { priorityLevelConfiguration: { name: 'global-default' }, matchingPrecedence: 5000, rules: [{ subjects: [{ kind: 'Group', group: { name: 'system:authenticated' } }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] }] } }),
  'flowcontrol.apiserver.k8s.io/prioritylevelconfigurations': () => ({ spec: { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } } }),
};

/** A PEM CERTIFICATE REQUEST block (base64 of a fixed text: the playground does not parse the DER). */
export const SAMPLE_CSR = btoa(`-----BEGIN CERTIFICATE REQUEST-----\n${btoa('sample certificate request'.repeat(3))}\n-----END CERTIFICATE REQUEST-----\n`);

/** A private IPv4 address that depends on `name`. */
function sampleIP(name: string): string {
  let h = 0;
  for (const c of name) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return `10.${(h >>> 16) & 255}.${(h >>> 8) & 255}.${(h & 253) + 1}`;
}

/** The sample object of `def` named `name` (in `namespace` for namespaced kinds), or undefined when unknown. */
export function sampleObject(def: ResourceDefinition, name: string, namespace = 'default'): KubeObject | undefined {
  const sample = SAMPLES[`${def.group}/${def.plural}`];
  if (!sample) return undefined;
  const body = JSON.parse(JSON.stringify(sample(name)).replace(/"NAMESPACE"/g, JSON.stringify(namespace))) as Record<string, unknown>;
  const meta = { name, ...(body.metadata as object | undefined) };
  delete body.metadata;
  return { apiVersion: def.group ? `${def.group}/${def.version}` : def.version, kind: def.kind, metadata: meta, ...body } as KubeObject;
}

/** The kinds that have a sample (every built-in kind: a test asserts it). */
export function hasSample(def: ResourceDefinition): boolean {
  return `${def.group}/${def.plural}` in SAMPLES;
}
