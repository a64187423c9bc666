// The objects a fresh real cluster holds besides its namespaces, as the components that write them leave them:
// the system PriorityClasses (the apiserver's post-start hook), the `kubernetes` Service in `default` and its
// Endpoints and EndpointSlice (the apiserver's bootstrap controller and endpoint reconciler), and the
// `kube-root-ca.crt` ConfigMap of each namespace (the controller manager's root-CA publisher, see
// root-ca-publisher.ts). Field values and managedFields are those of a v1.33 cluster; the apiserver's address
// is a private address like a kind node's, since the engine has no network address of its own.

import { rfc3339, type Env } from '../env.js';
import type { JsonObject, KubeObject, ManagedFieldsEntry } from '../object.js';
import { objectKey } from '../registry/keys.js';
import { normalizeLayout } from '../registry/store.js';
import { apiSurfaceObjects } from './api-surface-objects.js';

/** The first address of the service CIDR (10.96.0.0/12), which the `kubernetes` Service owns. */
export const KUBERNETES_SERVICE_IP = '10.96.0.1';
/** The address the apiserver advertises in its endpoints (a private address; never a loopback one, which endpoints refuse). */
export const APISERVER_ADVERTISE_IP = '172.18.0.2';
export const APISERVER_SECURE_PORT = 6443;

export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
const ROOT_CA_DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';

/**
 * The `ca.crt` the playground publishes: PEM armour around a fixed ASCII notice, so that it is stable across
 * clusters and restarts and plainly not a certificate (it does not parse as DER).
 */
export const PLACEHOLDER_CA_PEM = (() => {
  const notice = 'kube-api-playground placeholder: this cluster has no certificate authority. Not a certificate.';
  const b64 = btoa(notice);
  const lines: string[] = [];
  for (let i = 0; i < b64.length; i += 64) lines.push(b64.slice(i, i + 64));
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
})();

export interface SeedObject {
  key: string;
  object: KubeObject;
}

function managed(manager: string, apiVersion: string, time: string, fieldsV1: JsonObject): ManagedFieldsEntry[] {
  return [{ manager, operation: 'Update', apiVersion, time, fieldsType: 'FieldsV1', fieldsV1 }];
}

/** The system PriorityClasses, with the values and descriptions the real server creates them with. */
function priorityClasses(env: Env, time: string): SeedObject[] {
  const classes: [string, number, string][] = [
    ['system-node-critical', 2000001000, 'Used for system critical pods that must not be moved from their current node.'],
    ['system-cluster-critical', 2000000000, 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.'],
  ];
  return classes.map(([name, value, description]) => ({
    key: objectKey('scheduling.k8s.io', 'priorityclasses', '', name),
    object: normalizeLayout({
      kind: 'PriorityClass',
      apiVersion: 'scheduling.k8s.io/v1',
      metadata: {
        name,
        uid: env.ids.uid(),
        generation: 1,
        creationTimestamp: time,
        managedFields: managed('kube-apiserver', 'scheduling.k8s.io/v1', time, { 'f:description': {}, 'f:preemptionPolicy': {}, 'f:value': {} }),
      },
      value,
      description,
      preemptionPolicy: 'PreemptLowerPriority',
    }),
  }));
}

/** The `kubernetes` Service and the Endpoints and EndpointSlice the apiserver keeps for it. */
function kubernetesService(env: Env, time: string): SeedObject[] {
  const ns = 'default';
  const service: KubeObject = {
    kind: 'Service',
    apiVersion: 'v1',
    metadata: {
      name: 'kubernetes',
      namespace: ns,
      uid: env.ids.uid(),
      creationTimestamp: time,
      labels: { component: 'apiserver', provider: 'kubernetes' },
      managedFields: managed('kube-apiserver', 'v1', time, {
        'f:metadata': { 'f:labels': { '.': {}, 'f:component': {}, 'f:provider': {} } },
        'f:spec': {
          'f:clusterIP': {},
          'f:internalTrafficPolicy': {},
          'f:ipFamilyPolicy': {},
          'f:ports': { '.': {}, 'k:{"port":443,"protocol":"TCP"}': { '.': {}, 'f:name': {}, 'f:port': {}, 'f:protocol': {}, 'f:targetPort': {} } },
          'f:sessionAffinity': {},
          'f:type': {},
        },
      }),
    },
    spec: {
      ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: APISERVER_SECURE_PORT }],
      clusterIP: KUBERNETES_SERVICE_IP,
      clusterIPs: [KUBERNETES_SERVICE_IP],
      type: 'ClusterIP',
      sessionAffinity: 'None',
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      internalTrafficPolicy: 'Cluster',
    },
    status: { loadBalancer: {} },
  };
  const endpoints: KubeObject = {
    kind: 'Endpoints',
    apiVersion: 'v1',
    metadata: {
      name: 'kubernetes',
      namespace: ns,
      uid: env.ids.uid(),
      creationTimestamp: time,
      labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' },
      managedFields: managed('kube-apiserver', 'v1', time, {
        'f:metadata': { 'f:labels': { '.': {}, 'f:endpointslice.kubernetes.io/skip-mirror': {} } },
        'f:subsets': {},
      }),
    },
    subsets: [{ addresses: [{ ip: APISERVER_ADVERTISE_IP }], ports: [{ name: 'https', port: APISERVER_SECURE_PORT, protocol: 'TCP' }] }],
  };
  const slice: KubeObject = {
    kind: 'EndpointSlice',
    apiVersion: 'discovery.k8s.io/v1',
    metadata: {
      name: 'kubernetes',
      namespace: ns,
      uid: env.ids.uid(),
      generation: 1,
      creationTimestamp: time,
      labels: { 'kubernetes.io/service-name': 'kubernetes' },
      managedFields: managed('kube-apiserver', 'discovery.k8s.io/v1', time, {
        'f:addressType': {},
        'f:endpoints': {},
        'f:metadata': { 'f:labels': { '.': {}, 'f:kubernetes.io/service-name': {} } },
        'f:ports': {},
      }),
    },
    addressType: 'IPv4',
    endpoints: [{ addresses: [APISERVER_ADVERTISE_IP], conditions: { ready: true } }],
    ports: [{ name: 'https', port: APISERVER_SECURE_PORT, protocol: 'TCP' }],
  };
  return [
    { key: objectKey('', 'services', ns, 'kubernetes'), object: normalizeLayout(service) },
    { key: objectKey('', 'endpoints', ns, 'kubernetes'), object: normalizeLayout(endpoints) },
    { key: objectKey('discovery.k8s.io', 'endpointslices', ns, 'kubernetes'), object: normalizeLayout(slice) },
  ];
}

/** The root-CA ConfigMap of one namespace, as the controller manager's publisher creates it. */
export function rootCaConfigMap(env: Env, namespace: string, now: number): SeedObject {
  const time = rfc3339(now);
  return {
    key: objectKey('', 'configmaps', namespace, ROOT_CA_CONFIGMAP),
    object: normalizeLayout({
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: {
        name: ROOT_CA_CONFIGMAP,
        namespace,
        uid: env.ids.uid(),
        creationTimestamp: time,
        annotations: { 'kubernetes.io/description': ROOT_CA_DESCRIPTION },
        managedFields: managed('kube-controller-manager', 'v1', time, {
          'f:data': { '.': {}, 'f:ca.crt': {} },
          'f:metadata': { 'f:annotations': { '.': {}, 'f:kubernetes.io/description': {} } },
        }),
      },
      data: { 'ca.crt': PLACEHOLDER_CA_PEM },
    }),
  };
}

/** What a new cluster is seeded with after its namespaces (root-CA ConfigMaps come from the publisher). */
export function defaultObjects(env: Env, now: number): SeedObject[] {
  const time = rfc3339(now);
  return [...priorityClasses(env, time), ...kubernetesService(env, time), ...apiSurfaceObjects(env, time)];
}
