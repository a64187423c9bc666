// What a write to the status subresource keeps of the request's metadata, kind by kind, over every kind
// the catalog serves with a status subresource (and a custom resource), from a table derived from the real
// status strategies (PrepareForUpdate of each *StatusStrategy in kubernetes/kubernetes pkg/registry and of
// apiextensions-apiserver):
//   - most kinds reset only spec: labels, annotations, finalizers and owner references from the request stay;
//   - pods pin ownerReferences (podStatusStrategy), deployments pin labels (deploymentStatusStrategy);
//   - ValidatingAdmissionPolicy calls metav1.ResetObjectMetaForStatus: none of the four changes (APIService
//     and the flow-control kinds restore them too);
//   - CustomResourceDefinition calls ResetObjectMetaForStatus(new, new), which resets nothing: all stay;
//   - custom resources copy the stored object and take only status: none of the four changes.
// Also: spec is never taken from a status write, a main-resource write never takes status, nodes keep the
// status given on create, and the pod create defaults (podIPs mirrors podIP).
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../testing/harness.js';
import { builtinResources } from './index.js';
import { sampleObject } from './samples.js';
import type { ResourceDefinition } from '../registry/types.js';

type Meta = 'labels' | 'annotations' | 'finalizers' | 'ownerReferences';
const ALL: Meta[] = ['labels', 'annotations', 'finalizers', 'ownerReferences'];

/** Metadata fields a status write may NOT change, per group/resource; unlisted kinds reset spec only. */
const PINNED: Record<string, Meta[]> = {
  '/pods': ['ownerReferences'],
  'apps/deployments': ['labels'],
  'admissionregistration.k8s.io/validatingadmissionpolicies': ALL,
  // kube-aggregator's apiServerStatusStrategy restores the four; flowcontrol's status strategies restore
  // the whole ObjectMeta but managedFields
  'apiregistration.k8s.io/apiservices': ALL,
  'flowcontrol.apiserver.k8s.io/flowschemas': ALL,
  'flowcontrol.apiserver.k8s.io/prioritylevelconfigurations': ALL,
  'example.com/gadgets': ALL,
};

let c: TestClient;
beforeEach(async () => {
  c = await testClient(createMemoryStorage());
});

function collection(def: ResourceDefinition, ns: string): string {
  const base = def.group ? `/apis/${def.group}/${def.version}` : `/api/${def.version}`;
  return def.namespaced ? `${base}/namespaces/${ns}/${def.plural}` : `${base}/${def.plural}`;
}

const changes = {
  labels: { added: 'by-status' },
  annotations: { 'example.com/note': 'by-status' },
  finalizers: ['example.com/by-status'],
  ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: '6f1c1a52-0000-4000-8000-000000000001' }],
};

async function checkStatusWrite(def: ResourceDefinition, body: Record<string, any>): Promise<void> {
  const path = collection(def, 'default');
  const created = await c.req('POST', path, body);
  expect(created.status, created.text).toBe(201);
  const name = created.body.metadata.name;
  const next = structuredClone(created.body);
  next.metadata.labels = { ...(next.metadata.labels ?? {}), ...changes.labels };
  next.metadata.annotations = { ...(next.metadata.annotations ?? {}), ...changes.annotations };
  next.metadata.finalizers = [...(next.metadata.finalizers ?? []), ...changes.finalizers];
  next.metadata.ownerReferences = changes.ownerReferences;
  const r = await c.req('PUT', `${path}/${name}/status`, next);
  expect(r.status, r.text).toBe(200);
  const got = (await c.req('GET', `${path}/${name}`)).body;
  const pinned = PINNED[`${def.group}/${def.plural}`] ?? [];
  for (const f of ALL) {
    const expected = pinned.includes(f) ? created.body.metadata[f] : next.metadata[f];
    expect([f, got.metadata[f]]).toEqual([f, expected]);
  }
  expect(got.spec).toEqual(created.body.spec);
  // a main-resource write never takes status (every strategy's PrepareForUpdate keeps the stored one)
  const main = structuredClone(got);
  main.status = {};
  const m = await c.req('PUT', `${path}/${name}`, main);
  expect(m.status, m.text).toBe(200);
  expect(m.body.status).toEqual(got.status);
}

describe('status writes keep or pin metadata as each kind\'s real status strategy does', () => {
  const statusKinds = builtinResources.filter((d) => d.subresources.status && !(d.group === 'autoscaling' && d.version === 'v1'));
  it('the catalog has the status kinds this table was derived from', () => {
    expect(statusKinds.length).toBeGreaterThanOrEqual(19);
  });
  for (const def of statusKinds) {
    it(`${def.plural}.${def.group || 'core'}/${def.version}`, async () => {
      const body = sampleObject(def, `st-${def.plural.slice(0, 20)}`)!;
      expect(body, 'every status kind has a sample').toBeDefined();
      await checkStatusWrite(def, body as Record<string, any>);
    });
  }

  it('custom resources (CRD with a status subresource)', async () => {
    const crd = await c.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      metadata: { name: 'gadgets.example.com' },
      spec: {
        group: 'example.com', scope: 'Namespaced', names: { plural: 'gadgets', kind: 'Gadget' },
        versions: [{ name: 'v1', served: true, storage: true, subresources: { status: {} }, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
      },
    });
    expect(crd.status).toBe(201);
    await c.env.advance(1000);
    await c.settle();
    const def = { group: 'example.com', version: 'v1', plural: 'gadgets', namespaced: true } as ResourceDefinition;
    await checkStatusWrite(def, { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g' }, spec: { size: 1 } });
  });
});

describe('spec and status belong to their own endpoints', () => {
  const PODS = '/api/v1/namespaces/default/pods';
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } };

  it('a status write cannot change spec; a main write cannot change status', async () => {
    const created = (await c.req('POST', PODS, pod)).body;
    const s = structuredClone(created);
    s.spec.activeDeadlineSeconds = 30;
    s.status.phase = 'Running';
    const r = await c.req('PUT', `${PODS}/web/status`, s);
    expect(r.status).toBe(200);
    expect(r.body.spec.activeDeadlineSeconds).toBeUndefined();
    expect(r.body.status.phase).toBe('Running');
    const m = structuredClone(r.body);
    m.status.phase = 'Failed';
    m.metadata.labels = { a: 'b' };
    const r2 = await c.req('PUT', `${PODS}/web`, m);
    expect(r2.status).toBe(200);
    expect(r2.body.status.phase).toBe('Running');
    expect(r2.body.metadata.labels).toEqual({ a: 'b' });
  });

  it('an invalid label in a status write is refused (ValidateObjectMetaUpdate runs on status writes)', async () => {
    const created = (await c.req('POST', PODS, pod)).body;
    created.metadata.labels = { 'bad key!': 'x' };
    const r = await c.req('PUT', `${PODS}/web/status`, created);
    expect(r.status).toBe(422);
    expect(r.body.message).toContain('metadata.labels: Invalid value: "bad key!"');
  });

  it('podIPs mirrors podIP, hostIPs mirrors hostIP (the v1 PodStatus conversion)', async () => {
    const created = (await c.req('POST', PODS, pod)).body;
    created.status = { ...created.status, phase: 'Running', podIP: '10.244.0.7', hostIP: '172.18.0.2' };
    const r = await c.req('PUT', `${PODS}/web/status`, created);
    expect(r.status, r.text).toBe(200);
    expect(r.body.status).toMatchObject({ podIP: '10.244.0.7', podIPs: [{ ip: '10.244.0.7' }], hostIP: '172.18.0.2', hostIPs: [{ ip: '172.18.0.2' }] });
    // a list alone fills the single field
    const s2 = structuredClone(r.body);
    delete s2.status.podIP;
    s2.status.podIPs = [{ ip: '10.244.0.8' }, { ip: 'fd00::8' }];
    const r2 = await c.req('PUT', `${PODS}/web/status`, s2);
    expect(r2.body.status.podIP).toBe('10.244.0.8');
    expect(r2.body.status.podIPs).toEqual([{ ip: '10.244.0.8' }, { ip: 'fd00::8' }]);
  });

  it('a new pod carries the defaults of a real `kubectl get pod -o yaml`', async () => {
    const created = (await c.req('POST', PODS, pod)).body;
    expect(created.spec).toEqual({
      containers: [{ name: 'app', image: 'nginx:1.27', imagePullPolicy: 'IfNotPresent', resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' }],
      dnsPolicy: 'ClusterFirst', enableServiceLinks: true, preemptionPolicy: 'PreemptLowerPriority', priority: 0, restartPolicy: 'Always',
      schedulerName: 'default-scheduler', securityContext: {},
      terminationGracePeriodSeconds: 30,
      tolerations: [
        { effect: 'NoExecute', key: 'node.kubernetes.io/not-ready', operator: 'Exists', tolerationSeconds: 300 },
        { effect: 'NoExecute', key: 'node.kubernetes.io/unreachable', operator: 'Exists', tolerationSeconds: 300 },
      ],
    });
    expect(created.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
  });

  it('nodes keep the status given on create (nodeStrategy allows every field on create)', async () => {
    const r = await c.req('POST', '/api/v1/nodes', { metadata: { name: 'n1' }, status: { capacity: { cpu: '2' }, conditions: [{ type: 'Ready', status: 'True' }] } });
    expect(r.status, r.text).toBe(201);
    expect(r.body.status).toMatchObject({ capacity: { cpu: '2' }, allocatable: { cpu: '2' }, conditions: [{ type: 'Ready', status: 'True' }] });
    const svc = await c.req('POST', '/api/v1/namespaces/default/services', { metadata: { name: 's' }, spec: { ports: [{ port: 80 }] }, status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } } });
    expect(svc.body.status).toEqual({ loadBalancer: {} });
  });
});
