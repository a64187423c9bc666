// ResourceQuota on the wire: the quota controller fills status.hard/status.used, admission refuses what
// would exceed a quota with the real 403 and charges status.used in the same write, dry run charges nothing,
// deletes are given back by the controller, scopes select the pods a quota counts.
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../testing/harness.js';

let c: TestClient;
beforeEach(async () => {
  c = await testClient(createMemoryStorage());
  await c.settle();
});

const NS = '/api/v1/namespaces/default';
const pod = (name: string, extra: Record<string, unknown> = {}, resources?: Record<string, unknown>) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name },
  spec: { containers: [{ name: 'app', image: 'nginx', ...(resources ? { resources } : {}) }], ...extra },
});
const quota = async (name: string, spec: Record<string, unknown>) => {
  const r = await c.req('POST', `${NS}/resourcequotas`, { metadata: { name }, spec });
  expect(r.status, r.text).toBe(201);
  await c.settle();
  return r;
};
const status = async (name: string) => (await c.req('GET', `${NS}/resourcequotas/${name}`)).body.status;
const forbidden = (resource: string, name: string, message: string, group?: string) => ({
  kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
  message: `${group ? `${resource}.${group}` : resource} "${name}" is forbidden: ${message}`, reason: 'Forbidden', details: { name, ...(group ? { group } : {}), kind: resource }, code: 403,
});

describe('the quota controller', () => {
  it('a new quota starts with an empty status; the controller fills hard and used (sorted), and gives back what a delete frees', async () => {
    await c.req('POST', `${NS}/pods`, pod('p0'));
    const r = await c.req('POST', `${NS}/resourcequotas`, { metadata: { name: 'q' }, spec: { hard: { pods: '5', 'count/configmaps': '10', services: '2' } } });
    expect(r.body.status).toEqual({});
    await c.settle();
    // the root-CA ConfigMap and the kubernetes Service are counted
    expect(await status('q')).toEqual({ hard: { 'count/configmaps': '10', pods: '5', services: '2' }, used: { 'count/configmaps': '1', pods: '1', services: '1' } });
    await c.req('DELETE', `${NS}/pods/p0?gracePeriodSeconds=0`);
    await c.settle();
    expect((await status('q')).used).toEqual({ 'count/configmaps': '1', pods: '0', services: '1' });
  });

  it('a spec change resyncs hard and used', async () => {
    await quota('q', { hard: { pods: '5' } });
    const cur = (await c.req('GET', `${NS}/resourcequotas/q`)).body;
    await c.req('PUT', `${NS}/resourcequotas/q`, { ...cur, spec: { hard: { pods: '3', 'requests.cpu': '2' } } });
    await c.settle();
    expect(await status('q')).toEqual({ hard: { pods: '3', 'requests.cpu': '2' }, used: { pods: '0', 'requests.cpu': '0' } });
  });
});

describe('ResourceQuota admission', () => {
  it('the second pod over pods=1 is refused with the real 403; the first is charged in status.used', async () => {
    await quota('q', { hard: { pods: '1' } });
    expect((await c.req('POST', `${NS}/pods`, pod('p1'))).status).toBe(201);
    expect((await status('q')).used).toEqual({ pods: '1' });
    const r = await c.req('POST', `${NS}/pods`, pod('p2'));
    expect(r.status).toBe(403);
    expect(r.body).toEqual(forbidden('pods', 'p2', 'exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1'));
    expect((await c.req('GET', `${NS}/pods/p2`)).status).toBe(404);
  });

  it('the charge is written with the object: one resourceVersion, a MODIFIED quota in the same transaction', async () => {
    await quota('q', { hard: { pods: '3' } });
    const p = await c.req('POST', `${NS}/pods`, pod('p1'));
    const q = (await c.req('GET', `${NS}/resourcequotas/q`)).body;
    expect(q.metadata.resourceVersion).toBe(p.body.metadata.resourceVersion);
  });

  it('dry run is checked but not charged', async () => {
    await quota('q', { hard: { pods: '1' } });
    const rv = (await c.req('GET', `${NS}/resourcequotas/q`)).body.metadata.resourceVersion;
    expect((await c.req('POST', `${NS}/pods?dryRun=All`, pod('p1'))).status).toBe(201);
    const after = (await c.req('GET', `${NS}/resourcequotas/q`)).body;
    expect(after.status.used).toEqual({ pods: '0' });
    expect(after.metadata.resourceVersion).toBe(rv);
    await c.req('POST', `${NS}/pods`, pod('p1'));
    const r = await c.req('POST', `${NS}/pods?dryRun=All`, pod('p2'));
    expect(r.body.message).toBe('pods "p2" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1');
  });

  it('compute quotas need every container to state them, then are summed', async () => {
    await quota('compute', { hard: { 'limits.cpu': '1', 'requests.memory': '1Gi' } });
    const bare = await c.req('POST', `${NS}/pods`, pod('p'));
    expect(bare.body).toEqual(forbidden('pods', 'p', 'failed quota: compute: must specify limits.cpu for: app; requests.memory for: app'));
    const ok = await c.req('POST', `${NS}/pods`, pod('a', {}, { limits: { cpu: '600m' }, requests: { memory: '512Mi' } }));
    expect(ok.status, ok.text).toBe(201);
    expect((await status('compute')).used).toEqual({ 'limits.cpu': '600m', 'requests.memory': '512Mi' });
    const big = await c.req('POST', `${NS}/pods`, pod('b', {}, { limits: { cpu: '500m' }, requests: { memory: '256Mi' } }));
    expect(big.body.message).toBe('pods "b" is forbidden: exceeded quota: compute, requested: limits.cpu=500m, used: limits.cpu=600m, limited: limits.cpu=1');
  });

  it('object counts of any kind, services.loadbalancers and services.nodeports', async () => {
    await quota('objects', { hard: { 'count/deployments.apps': '1', configmaps: '1', 'services.nodeports': '1', 'services.loadbalancers': '0' } });
    const dep = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'x' }] } } } };
    expect((await c.req('POST', '/apis/apps/v1/namespaces/default/deployments', dep)).status).toBe(201);
    const d2 = await c.req('POST', '/apis/apps/v1/namespaces/default/deployments', { ...dep, metadata: { name: 'd2' } });
    expect(d2.body).toEqual(forbidden('deployments', 'd2', 'exceeded quota: objects, requested: count/deployments.apps=1, used: count/deployments.apps=1, limited: count/deployments.apps=1', 'apps'));
    // kube-root-ca.crt already uses the one ConfigMap
    expect((await c.req('POST', `${NS}/configmaps`, { metadata: { name: 'x' } })).body.message).toBe('configmaps "x" is forbidden: exceeded quota: objects, requested: configmaps=1, used: configmaps=1, limited: configmaps=1');
    const lb = await c.req('POST', `${NS}/services`, { metadata: { name: 'lb' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } });
    expect(lb.body.message).toBe('services "lb" is forbidden: exceeded quota: objects, requested: services.loadbalancers=1, used: services.loadbalancers=0, limited: services.loadbalancers=0');
    expect((await c.req('POST', `${NS}/services`, { metadata: { name: 'np' }, spec: { type: 'NodePort', ports: [{ port: 80 }] } })).status).toBe(201);
    const np2 = await c.req('POST', `${NS}/services`, { metadata: { name: 'np2' }, spec: { type: 'NodePort', ports: [{ port: 80, name: 'a' }, { port: 81, name: 'b' }] } });
    expect(np2.body.message).toBe('services "np2" is forbidden: exceeded quota: objects, requested: services.nodeports=2, used: services.nodeports=1, limited: services.nodeports=1');
  });

  it('an update that raises usage is checked and charged the difference (a ClusterIP service turned NodePort)', async () => {
    await quota('q', { hard: { 'services.nodeports': '1' } });
    const s = await c.req('POST', `${NS}/services`, { metadata: { name: 's' }, spec: { ports: [{ port: 80, name: 'a' }, { port: 81, name: 'b' }] } });
    expect(s.status, s.text).toBe(201);
    const r = await c.req('PATCH', `${NS}/services/s`, { spec: { type: 'NodePort' } }, { 'Content-Type': 'application/merge-patch+json' });
    expect(r.body.message).toBe('services "s" is forbidden: exceeded quota: q, requested: services.nodeports=2, used: services.nodeports=0, limited: services.nodeports=1');
  });

  it('storage: requests.storage and per-class claims', async () => {
    await quota('storage', { hard: { 'requests.storage': '10Gi', 'gold.storageclass.storage.k8s.io/persistentvolumeclaims': '0' } });
    const claim = (name: string, size: string, cls?: string) => ({ metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: size } }, ...(cls ? { storageClassName: cls } : {}) } });
    expect((await c.req('POST', `${NS}/persistentvolumeclaims`, claim('a', '8Gi'))).status).toBe(201);
    expect((await c.req('POST', `${NS}/persistentvolumeclaims`, claim('b', '4Gi'))).body.message).toBe('persistentvolumeclaims "b" is forbidden: exceeded quota: storage, requested: requests.storage=4Gi, used: requests.storage=8Gi, limited: requests.storage=10Gi');
    expect((await c.req('POST', `${NS}/persistentvolumeclaims`, claim('g', '1Gi', 'gold'))).body.message).toBe('persistentvolumeclaims "g" is forbidden: exceeded quota: storage, requested: gold.storageclass.storage.k8s.io/persistentvolumeclaims=1, used: gold.storageclass.storage.k8s.io/persistentvolumeclaims=0, limited: gold.storageclass.storage.k8s.io/persistentvolumeclaims=0');
  });

  it('scopes: BestEffort, NotTerminating and a PriorityClass scopeSelector count only their pods', async () => {
    await c.req('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', { metadata: { name: 'high' }, value: 1000 });
    await quota('besteffort', { hard: { pods: '1' }, scopes: ['BestEffort'] });
    await quota('high', { hard: { pods: '0' }, scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] } });
    await quota('terminating', { hard: { pods: '0' }, scopes: ['Terminating'] });
    expect((await c.req('POST', `${NS}/pods`, pod('be'))).status).toBe(201);
    expect((await c.req('POST', `${NS}/pods`, pod('be2'))).body.message).toBe('pods "be2" is forbidden: exceeded quota: besteffort, requested: pods=1, used: pods=1, limited: pods=1');
    // a pod with requests is not BestEffort
    expect((await c.req('POST', `${NS}/pods`, pod('burst', {}, { requests: { cpu: '100m' } }))).status).toBe(201);
    expect((await c.req('POST', `${NS}/pods`, pod('hi', { priorityClassName: 'high' }, { requests: { cpu: '100m' } }))).body.message).toBe('pods "hi" is forbidden: exceeded quota: high, requested: pods=1, used: pods=0, limited: pods=0');
    expect((await c.req('POST', `${NS}/pods`, pod('job', { activeDeadlineSeconds: 60 }, { requests: { cpu: '100m' } }))).body.message).toBe('pods "job" is forbidden: exceeded quota: terminating, requested: pods=1, used: pods=0, limited: pods=0');
    expect((await status('besteffort')).used).toEqual({ pods: '1' });
  });

  it('a quota the controller has not measured matches nothing; one with a hard limit not measured refuses with "status unknown"', async () => {
    // no controller manager: the quota's status stays as written
    c = await testClient(createMemoryStorage(), { controllers: [] });
    const q = await c.req('POST', `${NS}/resourcequotas`, { metadata: { name: 'q' }, spec: { hard: { pods: '0', 'count/secrets': '1' } } });
    expect((await c.req('POST', `${NS}/pods`, pod('p'))).status).toBe(201);
    const w = await c.req('PUT', `${NS}/resourcequotas/q/status`, { ...q.body, status: { hard: { pods: '0', 'count/secrets': '1' }, used: { pods: '0' } } });
    expect(w.status, w.text).toBe(200);
    const r = await c.req('POST', `${NS}/secrets`, { metadata: { name: 's' } });
    expect(r.body.message).toBe('secrets "s" is forbidden: status unknown for quota: q, resources: count/secrets');
  });
});
