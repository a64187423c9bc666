// The subresources that are not stored state, on the wire: pods/log, exec, attach, portforward, proxy,
// services/proxy, nodes/proxy (the real errors where nothing could answer) and pods/eviction (deletes the
// pod, honouring PodDisruptionBudgets as the eviction REST does).
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../testing/harness.js';

let c: TestClient;
beforeEach(async () => {
  c = await testClient(createMemoryStorage());
});

const NS = '/api/v1/namespaces/default';
const status = (code: number, message: string, reason?: string, details?: Record<string, unknown>) => ({
  kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, ...(reason ? { reason } : {}), ...(details ? { details } : {}), code,
});

async function pod(name: string, extra: { containers?: string[]; initContainers?: string[]; nodeName?: string; labels?: Record<string, string> } = {}) {
  const containers = (extra.containers ?? ['app']).map((n) => ({ name: n, image: 'nginx' }));
  const spec: Record<string, unknown> = { containers };
  if (extra.initContainers) spec.initContainers = extra.initContainers.map((n) => ({ name: n, image: 'busybox' }));
  if (extra.nodeName) spec.nodeName = extra.nodeName;
  const r = await c.req('POST', `${NS}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: extra.labels ?? { app: 'web' } }, spec });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
}

async function node(name: string, addresses: { type: string; address: string }[] = [{ type: 'InternalIP', address: '172.18.0.3' }]) {
  expect((await c.req('POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name } })).status).toBe(201);
  const r = await c.req('PATCH', `/api/v1/nodes/${name}/status`, { status: { addresses } }, { 'Content-Type': 'application/merge-patch+json' });
  expect(r.status).toBe(200);
}

async function setPhase(name: string, phase: string) {
  const r = await c.req('PATCH', `${NS}/pods/${name}/status`, { status: { phase } }, { 'Content-Type': 'application/merge-patch+json' });
  expect(r.status).toBe(200);
}

describe('pods/log', () => {
  it('of a pod no node runs: 204 with no body (kubectl logs prints nothing)', async () => {
    await pod('p');
    const r = await c.raw('GET', `${NS}/pods/p/log`);
    expect(r.status).toBe(204);
    expect(await r.text()).toBe('');
  });

  it('picks the container as the real server does', async () => {
    await pod('multi', { containers: ['a', 'b'], initContainers: ['init'] });
    const none = await c.req('GET', `${NS}/pods/multi/log`);
    expect(none.status).toBe(400);
    expect(none.body).toEqual(status(400, 'a container name must be specified for pod multi, choose one of: [a b] or one of the init containers: [init]', 'BadRequest'));
    const wrong = await c.req('GET', `${NS}/pods/multi/log?container=c`);
    expect(wrong.body).toEqual(status(400, 'container c is not valid for pod multi', 'BadRequest'));
    expect((await c.raw('GET', `${NS}/pods/multi/log?container=b`)).status).toBe(204);
    expect((await c.raw('GET', `${NS}/pods/multi/log?container=init`)).status).toBe(204);
  });

  it('of a missing pod: 404', async () => {
    const r = await c.req('GET', `${NS}/pods/nope/log`);
    expect(r.body).toEqual(status(404, 'pods "nope" not found', 'NotFound', { name: 'nope', kind: 'pods' }));
  });

  it('of a scheduled pod: the kubelet does not answer (its node missing: 404; no address: 500; else connection refused)', async () => {
    await pod('far', { nodeName: 'ghost' });
    expect((await c.req('GET', `${NS}/pods/far/log`)).body).toEqual(status(404, 'nodes "ghost" not found', 'NotFound', { name: 'ghost', kind: 'nodes' }));
    await node('bare', []);
    await pod('bare-pod', { nodeName: 'bare' });
    expect((await c.req('GET', `${NS}/pods/bare-pod/log`)).body).toEqual(status(500, 'no preferred addresses found; known addresses: []'));
    await node('n1');
    await pod('on-n1', { nodeName: 'n1' });
    const r = await c.req('GET', `${NS}/pods/on-n1/log`);
    expect(r.status).toBe(500);
    expect(r.body).toEqual(status(500, 'Get "https://172.18.0.3:10250/containerLogs/default/on-n1/app": dial tcp 172.18.0.3:10250: connect: connection refused'));
  });

  it('is read only: other methods have no route', async () => {
    await pod('p');
    expect((await c.req('POST', `${NS}/pods/p/log`, {})).body).toEqual(status(405, 'the server does not allow this method on the requested resource', 'MethodNotAllowed', {}));
  });
});

describe('pods/exec, attach, portforward', () => {
  for (const sub of ['exec', 'attach', 'portforward']) {
    it(`${sub} of a pod no node runs: 400 does not have a host assigned`, async () => {
      await pod('p');
      for (const method of ['GET', 'POST']) {
        const r = await c.req(method, `${NS}/pods/p/${sub}?command=ls&stdout=true`);
        expect(r.status).toBe(400);
        expect(r.body).toEqual(status(400, 'pod p does not have a host assigned', 'BadRequest'));
      }
    });
  }

  it('exec checks the container before the host; portforward has no container', async () => {
    await pod('multi', { containers: ['a', 'b'] });
    expect((await c.req('POST', `${NS}/pods/multi/exec?command=ls`)).body.message).toBe('a container name must be specified for pod multi, choose one of: [a b]');
    expect((await c.req('POST', `${NS}/pods/multi/attach?container=zz`)).body.message).toBe('container zz is not valid for pod multi');
    expect((await c.req('POST', `${NS}/pods/multi/portforward?ports=80`)).body.message).toBe('pod multi does not have a host assigned');
  });

  it('of a scheduled pod: a plain request needs an upgrade; an upgrade reaches no kubelet', async () => {
    await node('n1');
    await pod('p', { nodeName: 'n1' });
    expect((await c.req('POST', `${NS}/pods/p/exec?command=ls`)).body).toEqual(status(400, 'Upgrade request required', 'BadRequest'));
    const up = await c.req('POST', `${NS}/pods/p/exec?command=ls`, undefined, { Connection: 'Upgrade', Upgrade: 'SPDY/3.1' });
    expect(up.body).toEqual(status(500, 'error dialing backend: dial tcp 172.18.0.3:10250: connect: connection refused'));
  });

  it('only GET and POST are routes', async () => {
    await pod('p');
    expect((await c.req('PUT', `${NS}/pods/p/exec`, {})).status).toBe(405);
    expect((await c.req('DELETE', `${NS}/pods/p/portforward`)).status).toBe(405);
  });
});

describe('proxies', () => {
  it('services/proxy: 503 no endpoints available for a service without endpoints', async () => {
    await c.req('POST', `${NS}/services`, { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { ports: [{ port: 80 }] } });
    await c.req('POST', `${NS}/endpoints`, { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'web' } });
    const r = await c.req('GET', `${NS}/services/web/proxy/`);
    expect(r.status).toBe(503);
    expect(r.body).toEqual(status(503, 'no endpoints available for service "web"', 'ServiceUnavailable'));
    expect((await c.req('GET', `${NS}/services/web:8080/proxy/`)).body).toEqual(status(503, 'no service port 8080 found for service "web"', 'ServiceUnavailable'));
    // no Endpoints object at all: its NotFound
    await c.req('POST', `${NS}/services`, { apiVersion: 'v1', kind: 'Service', metadata: { name: 'lonely' }, spec: { ports: [{ port: 80 }] } });
    expect((await c.req('GET', `${NS}/services/lonely/proxy/healthz`)).body).toEqual(status(404, 'endpoints "lonely" not found', 'NotFound', { name: 'lonely', kind: 'endpoints' }));
    expect((await c.req('GET', `${NS}/services/a:b:c:d/proxy`)).body).toEqual(status(400, 'invalid service request "a:b:c:d"', 'BadRequest'));
  });

  it('services/proxy with a ready endpoint: the connection is refused', async () => {
    await c.req('POST', `${NS}/services`, { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { ports: [{ port: 80 }] } });
    await c.req('POST', `${NS}/endpoints`, { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'web' }, subsets: [{ addresses: [{ ip: '10.244.0.5' }], ports: [{ port: 8080 }] }] });
    expect((await c.req('GET', `${NS}/services/web:80/proxy/`)).body).toEqual(status(500, 'dial tcp 10.244.0.5:8080: connect: connection refused'));
  });

  it('pods/proxy: the pod needs a routable IP', async () => {
    await pod('p');
    expect((await c.req('GET', `${NS}/pods/p/proxy/`)).body).toEqual(status(400, 'address not allowed', 'BadRequest'));
    await c.req('PATCH', `${NS}/pods/p/status`, { status: { podIP: '10.244.0.9', podIPs: [{ ip: '10.244.0.9' }] } }, { 'Content-Type': 'application/merge-patch+json' });
    expect((await c.req('GET', `${NS}/pods/p:8080/proxy/metrics`)).body).toEqual(status(500, 'dial tcp 10.244.0.9:8080: connect: connection refused'));
  });

  it('nodes/proxy: the kubelet does not answer', async () => {
    await node('n1');
    expect((await c.req('GET', '/api/v1/nodes/n1/proxy/metrics')).body).toEqual(status(500, 'dial tcp 172.18.0.3:10250: connect: connection refused'));
    expect((await c.req('GET', '/api/v1/nodes/zz/proxy/')).body).toEqual(status(404, 'nodes "zz" not found', 'NotFound', { name: 'zz', kind: 'nodes' }));
  });
});

const eviction = (name: string, extra: Record<string, unknown> = {}) => ({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: 'default' }, ...extra });
const SUCCESS = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };

async function pdb(name: string, st: Record<string, unknown>) {
  const r = await c.req('POST', '/apis/policy/v1/namespaces/default/poddisruptionbudgets', { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } });
  expect(r.status).toBe(201);
  const s = await c.req('PATCH', `/apis/policy/v1/namespaces/default/poddisruptionbudgets/${name}/status`, { status: st }, { 'Content-Type': 'application/merge-patch+json' });
  expect(s.status, JSON.stringify(s.body)).toBe(200);
}

describe('pods/eviction', () => {
  it('without a budget: the pod is deleted and the answer is a Success Status', async () => {
    await pod('p');
    await setPhase('p', 'Running');
    const r = await c.req('POST', `${NS}/pods/p/eviction`, eviction('p'));
    expect(r.status).toBe(201);
    expect(r.body).toEqual(SUCCESS);
    expect((await c.req('GET', `${NS}/pods/p`)).status).toBe(404);
  });

  it('a budget with no disruption allowed: 429 with the DisruptionBudget cause, the pod stays', async () => {
    await pod('p');
    await setPhase('p', 'Running');
    await pdb('web', { observedGeneration: 1, disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 });
    const r = await c.req('POST', `${NS}/pods/p/eviction`, eviction('p'));
    expect(r.status).toBe(429);
    expect(r.body).toEqual(status(429, "Cannot evict pod as it would violate the pod's disruption budget.", 'TooManyRequests', {
      causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget web needs 1 healthy pods and has 1 currently' }],
    }));
    expect(r.headers.get('Retry-After')).toBeNull();
    expect((await c.req('GET', `${NS}/pods/p`)).status).toBe(200);
  });

  it('a budget the disruption controller has not observed: 429, retry after 10 s', async () => {
    await pod('p');
    await setPhase('p', 'Running');
    await pdb('web', { disruptionsAllowed: 1 });
    const r = await c.req('POST', `${NS}/pods/p/eviction`, eviction('p'));
    expect(r.body).toEqual(status(429, "Cannot evict pod as it would violate the pod's disruption budget.", 'TooManyRequests', {
      causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget web is still being processed by the server.' }],
      retryAfterSeconds: 10,
    }));
    expect(r.headers.get('Retry-After')).toBe('10');
  });

  it('a budget that allows one: it is taken (disruptionsAllowed, disruptedPods, condition) and the pod deleted', async () => {
    await pod('p');
    await setPhase('p', 'Running');
    await pdb('web', { observedGeneration: 1, disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2 });
    expect((await c.req('POST', `${NS}/pods/p/eviction`, eviction('p'))).body).toEqual(SUCCESS);
    const b = (await c.req('GET', '/apis/policy/v1/namespaces/default/poddisruptionbudgets/web')).body;
    expect(b.status.disruptionsAllowed).toBe(0);
    expect(b.status.disruptedPods).toEqual({ p: '2025-01-01T00:00:00Z' });
    expect(b.status.conditions).toEqual([{ type: 'DisruptionAllowed', status: 'False', observedGeneration: 1, lastTransitionTime: '2025-01-01T00:00:00Z', reason: 'InsufficientPods', message: '' }]);
    expect((await c.req('GET', `${NS}/pods/p`)).status).toBe(404);
  });

  it('dry run: checked, nothing changed', async () => {
    await pod('p');
    await setPhase('p', 'Running');
    await pdb('web', { observedGeneration: 1, disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1 });
    expect((await c.req('POST', `${NS}/pods/p/eviction?dryRun=All`, eviction('p'))).body).toEqual(SUCCESS);
    expect((await c.req('POST', `${NS}/pods/p/eviction`, eviction('p', { deleteOptions: { dryRun: ['All'] } }))).body).toEqual(SUCCESS);
    expect((await c.req('GET', `${NS}/pods/p`)).status).toBe(200);
    expect((await c.req('GET', '/apis/policy/v1/namespaces/default/poddisruptionbudgets/web')).body.status.disruptionsAllowed).toBe(1);
  });

  it('a pod that stays while it terminates carries the DisruptionTarget condition', async () => {
    await node('n1');
    await pod('p', { nodeName: 'n1' });
    await setPhase('p', 'Running');
    expect((await c.req('POST', `${NS}/pods/p/eviction`, eviction('p'))).body).toEqual(SUCCESS);
    const p = (await c.req('GET', `${NS}/pods/p`)).body;
    expect(p.metadata.deletionTimestamp).toBeDefined();
    expect(p.status.conditions).toContainEqual({ type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime: '2025-01-01T00:00:00Z', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' });
  });

  it('a pending (or finished) pod needs no budget', async () => {
    await pod('p');
    await pdb('web', { observedGeneration: 1, disruptionsAllowed: 0 });
    expect((await c.req('POST', `${NS}/pods/p/eviction`, eviction('p'))).body).toEqual(SUCCESS);
    expect((await c.req('GET', `${NS}/pods/p`)).status).toBe(404);
  });

  it('two budgets for one pod: 500', async () => {
    await pod('p');
    await setPhase('p', 'Running');
    await pdb('a', { observedGeneration: 1, disruptionsAllowed: 1 });
    await pdb('b', { observedGeneration: 1, disruptionsAllowed: 1 });
    const r = await c.req('POST', `${NS}/pods/p/eviction`, eviction('p'));
    expect(r.body).toEqual(status(500, 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.', 'InternalError'));
  });

  it('the eviction names the pod of the URL; the pod must exist; deleteOptions apply', async () => {
    await pod('p');
    expect((await c.req('POST', `${NS}/pods/p/eviction`, eviction('q'))).body).toEqual(status(400, 'name in URL does not match name in Eviction object', 'BadRequest'));
    expect((await c.req('POST', `${NS}/pods/zz/eviction`, eviction('zz'))).body).toEqual(status(404, 'pods "zz" not found', 'NotFound', { name: 'zz', kind: 'pods' }));
    const pre = await c.req('POST', `${NS}/pods/p/eviction`, eviction('p', { deleteOptions: { preconditions: { uid: 'not-the-uid' } } }));
    expect(pre.status).toBe(409);
    expect((await c.req('GET', `${NS}/pods/p`)).status).toBe(200);
  });
});

describe('pods/ephemeralcontainers and pods/resize', () => {
  it('ephemeralcontainers: only the ephemeral containers change; they are added, never changed or removed', async () => {
    await pod('p');
    const cur = (await c.req('GET', `${NS}/pods/p/ephemeralcontainers`)).body;
    expect(cur.kind).toBe('Pod');
    const debug = { name: 'debugger', image: 'busybox', targetContainerName: 'app' };
    const r = await c.req('PUT', `${NS}/pods/p/ephemeralcontainers`, { ...cur, metadata: { ...cur.metadata, labels: { x: 'y' } }, spec: { ...cur.spec, containers: [{ name: 'other', image: 'x' }], ephemeralContainers: [debug] } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.spec.containers.map((x: any) => x.name)).toEqual(['app']);
    expect(r.body.metadata.labels).toEqual({ app: 'web' });
    expect(r.body.spec.ephemeralContainers[0]).toMatchObject(debug);
    const removed = await c.req('PATCH', `${NS}/pods/p/ephemeralcontainers`, [{ op: 'remove', path: '/spec/ephemeralContainers/0' }], { 'Content-Type': 'application/json-patch+json' });
    expect(removed.status).toBe(422);
    expect(removed.body.details.causes).toEqual([{ reason: 'FieldValueForbidden', message: 'Forbidden: existing ephemeral containers "debugger" may not be removed\n', field: 'spec.ephemeralContainers' }]);
    const ports = await c.req('PATCH', `${NS}/pods/p/ephemeralcontainers`, { spec: { ephemeralContainers: [debug, { name: 'two', image: 'busybox', ports: [{ containerPort: 80 }] }] } }, { 'Content-Type': 'application/strategic-merge-patch+json' });
    expect(ports.body.details.causes).toEqual([{ reason: 'FieldValueForbidden', message: 'Forbidden: cannot be set for an Ephemeral Container', field: 'spec.ephemeralContainers[1].ports' }]);
  });

  it('resize: only container resources change, cpu and memory only, and the QoS class stays', async () => {
    const made = await c.req('POST', `${NS}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '50m' } } }] } });
    expect(made.status).toBe(201);
    const set = (resources: Record<string, unknown>) =>
      c.req('PATCH', `${NS}/pods/p/resize`, { spec: { containers: [{ name: 'app', resources }] } }, { 'Content-Type': 'application/strategic-merge-patch+json' });
    const ok = await set({ requests: { cpu: '100m' }, limits: { cpu: '200m' } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.spec.containers[0].resources).toEqual({ requests: { cpu: '100m' }, limits: { cpu: '200m' } });
    const storage = await set({ requests: { cpu: '100m', 'ephemeral-storage': '1Gi' }, limits: { cpu: '200m' } });
    expect(storage.body.details.causes).toContainEqual({ reason: 'FieldValueForbidden', message: 'Forbidden: only cpu and memory resources are mutable', field: 'spec.containers[0].resources.requests[ephemeral-storage]' });
    const qos = await set({ requests: { cpu: null }, limits: { cpu: null } });
    expect(qos.body.details.causes).toEqual([{ reason: 'FieldValueForbidden', message: 'Forbidden: Pod QOS Class may not change as a result of resizing', field: 'spec' }]);
    // the main resource cannot change resources
    const main = await c.req('PATCH', `${NS}/pods/p`, { spec: { containers: [{ name: 'app', resources: { requests: { cpu: '150m' }, limits: { cpu: '200m' } } }] } }, { 'Content-Type': 'application/strategic-merge-patch+json' });
    expect(main.status).toBe(422);
  });
});
