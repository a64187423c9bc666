// Mutating admission on the wire: what each plugin adds on create, what runs again on update (Priority,
// DefaultTolerationSeconds), and what runs on create only (ServiceAccount, TaintNodesByCondition), so that a
// replace of the manifest as first written succeeds or fails exactly as on a real server.
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../testing/harness.js';
import { mutatingPlugins } from './index.js';

let c: TestClient;
beforeEach(async () => {
  c = await testClient(createMemoryStorage());
});

const PODS = '/api/v1/namespaces/default/pods';
const TOLERATIONS = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
];

const pod = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], ...spec },
});

describe('the plugin chain', () => {
  it('runs the real order and declares its operations', () => {
    expect(mutatingPlugins.map((p) => [p.name, p.operations])).toEqual([
      ['NamespaceLifecycle', ['create']],
      ['LimitRanger', ['create']],
      ['ServiceAccount', ['create']],
      ['TaintNodesByCondition', ['create']],
      ['Priority', ['create', 'update']],
      ['DefaultTolerationSeconds', ['create', 'update']],
      ['MutatingAdmissionWebhook', ['create', 'update']],
    ]);
  });
});

describe('what admission and the strategy add belongs to no manager', () => {
  it('the creator owns its fields and the defaults, not priority, tolerations or the token volume', async () => {
    await c.req('POST', '/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'default' } });
    const r = await c.req('POST', `${PODS}?fieldManager=me`, pod('p'));
    expect(r.status, r.text).toBe(201);
    expect(r.body.spec.tolerations).toHaveLength(2);
    expect(r.body.spec.volumes).toHaveLength(1);
    const owned = r.body.metadata.managedFields[0].fieldsV1['f:spec'];
    expect(r.body.metadata.managedFields.map((e: { manager: string }) => e.manager)).toEqual(['me']);
    expect(Object.keys(owned).sort()).toEqual([
      'f:containers', 'f:dnsPolicy', 'f:enableServiceLinks', 'f:restartPolicy', 'f:schedulerName', 'f:securityContext', 'f:terminationGracePeriodSeconds',
    ]);
  });

  it('a Service creator does not own the allocated cluster IP', async () => {
    const r = await c.req('POST', '/api/v1/namespaces/default/services?fieldManager=me', { metadata: { name: 's' }, spec: { ports: [{ port: 80 }] } });
    expect(r.body.spec.clusterIP).toMatch(/^10\./);
    const owned = r.body.metadata.managedFields[0].fieldsV1['f:spec'];
    expect(owned['f:clusterIP']).toBeUndefined();
    expect(owned['f:clusterIPs']).toBeUndefined();
    expect(owned['f:ports']).toBeDefined();
  });
});

describe('Priority and DefaultTolerationSeconds run on create and on update', () => {
  it('a replace of the manifest keeps priority, preemptionPolicy and the default tolerations', async () => {
    expect((await c.req('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', { metadata: { name: 'high' }, value: 1000 })).status).toBe(201);
    const manifest = pod('p', { priorityClassName: 'high' });
    const created = await c.req('POST', PODS, manifest);
    expect(created.status).toBe(201);
    expect(created.body.spec).toMatchObject({ priority: 1000, preemptionPolicy: 'PreemptLowerPriority', tolerations: TOLERATIONS });
    for (const rv of [undefined, '0']) {
      const r = await c.req('PUT', `${PODS}/p`, rv ? { ...manifest, metadata: { name: 'p', resourceVersion: rv } } : manifest);
      expect(r.status, r.text).toBe(200);
      expect(r.body.spec).toMatchObject({ priority: 1000, preemptionPolicy: 'PreemptLowerPriority', tolerations: TOLERATIONS });
      expect(r.body.metadata.resourceVersion).toBe(created.body.metadata.resourceVersion);
    }
  });

  it('a toleration the user adds on update keeps the defaults beside it', async () => {
    await c.req('POST', PODS, pod('p'));
    const extra = { key: 'dedicated', operator: 'Equal', value: 'x', effect: 'NoSchedule' };
    const r = await c.req('PUT', `${PODS}/p`, pod('p', { tolerations: [extra] }));
    expect(r.status, r.text).toBe(200);
    expect(r.body.spec.tolerations).toEqual([extra, ...TOLERATIONS]);
  });

  it('a priority given that differs from the class is still refused on create (403)', async () => {
    const r = await c.req('POST', PODS, pod('p', { priority: 7 }));
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('pods "p" is forbidden: the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name');
  });

  it('a changed priority on update is refused by update validation', async () => {
    await c.req('POST', PODS, pod('p'));
    const r = await c.req('PUT', `${PODS}/p`, pod('p', { priority: 5 }));
    expect(r.status).toBe(422);
    expect(r.body.message).toContain('pod updates may not change fields other than');
    expect(r.body.message).toContain('- \tPriority: 0,');
  });
});

describe('ServiceAccount runs on create only', () => {
  beforeEach(async () => {
    expect((await c.req('POST', '/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'builder' } })).status).toBe(201);
  });

  it('mounts the token volume in every container of a pod naming its account', async () => {
    c.env.ids.suffix = () => 'abcde';
    const r = await c.req('POST', PODS, pod('p', { serviceAccountName: 'builder', initContainers: [{ name: 'init', image: 'busybox:1' }] }));
    expect(r.status, r.text).toBe(201);
    const mount = { name: 'kube-api-access-abcde', readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' };
    expect(r.body.spec.containers[0].volumeMounts).toEqual([mount]);
    expect(r.body.spec.initContainers[0].volumeMounts).toEqual([mount]);
    expect(r.body.spec.volumes).toEqual([{
      name: 'kube-api-access-abcde',
      projected: {
        sources: [
          { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
          { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
          { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
        ],
        defaultMode: 420,
      },
    }]);
  });

  it('so a replace of the manifest as first written is refused, as on a real server', async () => {
    const manifest = pod('p', { serviceAccountName: 'builder' });
    expect((await c.req('POST', PODS, manifest)).status).toBe(201);
    const r = await c.req('PUT', `${PODS}/p`, manifest);
    expect(r.status).toBe(422);
    expect(r.body.message).toMatch(/^Pod "p" is invalid: spec: Forbidden: pod updates may not change fields other than /);
    expect(r.body.message).toContain('Volumes:');
  });

  it('a pod that mounts no token can be replaced by its manifest', async () => {
    const manifest = pod('p', { serviceAccountName: 'builder', automountServiceAccountToken: false });
    const created = await c.req('POST', PODS, manifest);
    expect(created.status).toBe(201);
    expect(created.body.spec.volumes).toBeUndefined();
    const r = await c.req('PUT', `${PODS}/p`, manifest);
    expect(r.status, r.text).toBe(200);
  });

  it('the account can turn automounting off', async () => {
    await c.req('POST', '/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'quiet' }, automountServiceAccountToken: false });
    const r = await c.req('POST', PODS, pod('p', { serviceAccountName: 'quiet' }));
    expect(r.body.spec.volumes).toBeUndefined();
    expect(r.body.spec.containers[0].volumeMounts).toBeUndefined();
  });

  it('a container that already mounts the token path is left alone', async () => {
    const r = await c.req('POST', PODS, pod('p', {
      serviceAccountName: 'builder',
      volumes: [{ name: 'own', emptyDir: {} }],
      containers: [{ name: 'app', image: 'nginx:1.27', volumeMounts: [{ name: 'own', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }] }],
    }));
    expect(r.status, r.text).toBe(201);
    expect(r.body.spec.volumes).toEqual([{ name: 'own', emptyDir: {} }]);
  });
});

describe('TaintNodesByCondition', () => {
  it('a new Node is tainted not-ready:NoSchedule; a replace with resourceVersion "0" is unconditional', async () => {
    const created = await c.req('POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } });
    expect(created.status).toBe(201);
    expect(created.body.spec.taints).toEqual([{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]);
    const r = await c.req('PUT', '/api/v1/nodes/n1', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', resourceVersion: '0', labels: { a: 'b' } } });
    expect(r.status, r.text).toBe(200);
    expect(r.body.metadata.labels).toEqual({ a: 'b' });
    // the plugin does not run on update: the manifest's (absent) taints win
    expect(r.body.spec?.taints).toBeUndefined();
  });

  it('a node that already carries the taint keeps one', async () => {
    const taint = { key: 'node.kubernetes.io/not-ready', value: 'x', effect: 'NoSchedule' };
    const r = await c.req('POST', '/api/v1/nodes', { metadata: { name: 'n2' }, spec: { taints: [taint] } });
    expect(r.body.spec.taints).toEqual([taint]);
  });
});
