// Injected failures on the fake clock: a container told to fail crash-loops with the kubelet's real back-off
// and texts; a failed node goes Unknown after the grace period, gets the unreachable taints, its pods lose
// Ready and are evicted when their 300 s toleration ends; recovery undoes it. The endpoint's requests and
// refusals are checked on the wire.
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { fakeEnv, testClient, type TestClient } from '../testing/harness.js';
import { goDuration } from './nodes.js';
import { evictionTime } from './node-lifecycle.js';

let c: TestClient;
let storage: ReturnType<typeof createMemoryStorage>;
beforeEach(async () => {
  storage = createMemoryStorage();
  c = await testClient(storage, { workloads: {} });
  await c.settle();
});

async function run(ms: number, step = 500): Promise<void> {
  for (let t = 0; t < ms; t += step) {
    await c.env.advance(Math.min(step, ms - t));
    await c.settle();
  }
}

const POD = '/api/v1/namespaces/default/pods/p';
const pod = async () => (await c.req('GET', POD)).body;
const cond = (o: any, type: string) => (o.status?.conditions ?? []).find((x: any) => x.type === type);
const list = async (path: string) => (await c.req('GET', path)).body.items as any[];

async function runningPod(spec: Record<string, unknown> = {}): Promise<any> {
  await run(500);
  await c.req('POST', '/api/v1/namespaces/default/pods', { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec } });
  await run(2000);
  const p = await pod();
  expect(p.status.phase).toBe('Running');
  return p;
}

describe('a container told to fail', () => {
  it('crash-loops: exits with Error, restarts at once, then CrashLoopBackOff 10s, 20s, 40s ... 5m0s; BackOff events', async () => {
    const p = await runningPod();
    const uid = p.metadata.uid;
    const failedAt = c.env.clock.now();
    const r = await c.req('POST', '/x-playground/fail?pod=default/p');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 200,
      message: 'simulation: container "c" of pod "p" in namespace "default" now exits with an error (exit code 1) whenever it runs',
      details: { name: 'p', kind: 'pods' },
    });
    await c.settle();
    // the first exit: restarted at once (no back-off yet)
    let s = (await pod()).status.containerStatuses[0];
    expect(s.restartCount).toBe(1);
    expect(s.state.running).toBeDefined();
    expect(s.lastState.terminated).toMatchObject({ exitCode: 1, reason: 'Error', startedAt: p.status.containerStatuses[0].state.running.startedAt, finishedAt: new Date(Math.floor(failedAt / 1000) * 1000).toISOString().replace('.000Z', 'Z') });
    expect(s.lastState.terminated.containerID).toBe(p.status.containerStatuses[0].containerID);
    expect(s.containerID).not.toBe(p.status.containerStatuses[0].containerID);

    // it exits again a second later: back-off 10s
    await run(1000);
    let q = await pod();
    s = q.status.containerStatuses[0];
    expect(s).toMatchObject({ ready: false, started: false, restartCount: 1, state: { waiting: { reason: 'CrashLoopBackOff', message: `back-off 10s restarting failed container=c pod=p_default(${uid})` } } });
    expect(q.status.phase).toBe('Running');
    expect(cond(q, 'Ready')).toMatchObject({ status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [c]' });
    expect(cond(q, 'ContainersReady')).toMatchObject({ status: 'False', reason: 'ContainersNotReady' });
    const ev = (await list('/api/v1/namespaces/default/events')).find((e) => e.reason === 'BackOff');
    expect(ev).toMatchObject({
      type: 'Warning',
      message: `Back-off restarting failed container c in pod p_default(${uid})`,
      involvedObject: { kind: 'Pod', name: 'p', namespace: 'default', uid, fieldPath: 'spec.containers{c}' },
      source: { component: 'kubelet', host: q.spec.nodeName },
    });

    // each back-off doubles up to 5 minutes
    const seen: string[] = [];
    for (let i = 0; i < 9; i++) {
      await run(i < 4 ? 5000 : 30_000, 500);
      const m = (await pod()).status.containerStatuses[0].state.waiting?.message as string | undefined;
      const d = m && /^back-off (\S+) /.exec(m)?.[1];
      if (d && seen[seen.length - 1] !== d) seen.push(d);
    }
    for (let i = 0; i < 12; i++) {
      await run(60_000, 1000);
      const m = (await pod()).status.containerStatuses[0].state.waiting?.message as string | undefined;
      const d = m && /^back-off (\S+) /.exec(m)?.[1];
      if (d && seen[seen.length - 1] !== d) seen.push(d);
    }
    expect(seen).toEqual(['10s', '20s', '40s', '1m20s', '2m40s', '5m0s']);
    q = await pod();
    expect(q.status.containerStatuses[0].restartCount).toBeGreaterThanOrEqual(7);
    const backoffs = (await list('/api/v1/namespaces/default/events')).filter((e) => e.reason === 'BackOff');
    expect(backoffs).toHaveLength(1);
    expect(backoffs[0].count).toBeGreaterThanOrEqual(6);
  });

  it('recover: the container starts after its back-off and keeps running; Ready again', async () => {
    await runningPod();
    await c.req('POST', '/x-playground/fail?pod=default/p&container=c');
    await run(2000);
    expect((await pod()).status.containerStatuses[0].state.waiting.reason).toBe('CrashLoopBackOff');
    const r = await c.req('POST', '/x-playground/recover?pod=default/p');
    expect(r.body.message).toBe('simulation: the containers of pod "p" in namespace "default" run normally again once restarted');
    await run(12_000);
    const q = await pod();
    expect(q.status.containerStatuses[0]).toMatchObject({ ready: true, restartCount: 2, state: { running: {} } });
    expect(cond(q, 'Ready').status).toBe('True');
    await run(60_000, 5000);
    expect((await pod()).status.containerStatuses[0].restartCount).toBe(2);
    // after 10 minutes without a restart the back-off is forgotten: restarted at once, then 10s again
    await run(10 * 60_000, 10_000);
    await c.req('POST', '/x-playground/fail?pod=default/p');
    await c.settle();
    expect((await pod()).status.containerStatuses[0]).toMatchObject({ restartCount: 3, state: { running: {} } });
    await run(1000);
    expect((await pod()).status.containerStatuses[0].state.waiting.message).toMatch(/^back-off 10s restarting failed container=c pod=p_default\(/);
  });

  it('the fault is kept with the cluster: a restarted engine keeps the container failing', async () => {
    await runningPod();
    await c.req('POST', '/x-playground/fail?pod=default/p');
    await run(2000);
    expect((await pod()).status.containerStatuses[0].state.waiting.reason).toBe('CrashLoopBackOff');
    const before = (await pod()).status.containerStatuses[0].restartCount;
    c.server.engine.controllers?.stop();
    const env = fakeEnv(c.env.clock.now() + 1000);
    c = await testClient(storage, { env, workloads: {} });
    await c.settle();
    await run(30_000, 500);
    const s = (await pod()).status.containerStatuses[0];
    // a new kubelet has no back-off yet: it restarts at once, then backs off 10s again; still failing
    expect(s.restartCount).toBe(before + 2);
    expect(s.state.waiting).toMatchObject({ reason: 'CrashLoopBackOff', message: expect.stringMatching(/^back-off 20s /) });
    await c.req('POST', '/x-playground/recover?pod=default/p');
    await run(30_000, 1000);
    expect((await pod()).status.containerStatuses[0].state.running).toBeDefined();
  });

  it('restartPolicy Never: no restart, the pod fails', async () => {
    await runningPod({ restartPolicy: 'Never' });
    await c.req('POST', '/x-playground/fail?pod=default/p');
    await run(1000);
    const q = await pod();
    expect(q.status.phase).toBe('Failed');
    expect(q.status.containerStatuses[0]).toMatchObject({ restartCount: 0, state: { terminated: { exitCode: 1, reason: 'Error' } } });
    expect(cond(q, 'Ready')).toMatchObject({ status: 'False', reason: 'PodFailed' });
  });

  it('a deployment loses availability while its pod crash-loops', async () => {
    await run(500);
    await c.req('POST', '/apis/apps/v1/namespaces/default/deployments', {
      metadata: { name: 'web' },
      spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    await run(4000);
    const [p] = await list('/api/v1/namespaces/default/pods');
    expect((await c.req('GET', '/apis/apps/v1/namespaces/default/deployments/web')).body.status.availableReplicas).toBe(1);
    await c.req('POST', `/x-playground/fail?pod=default/${p.metadata.name}`);
    await run(3000);
    const d = (await c.req('GET', '/apis/apps/v1/namespaces/default/deployments/web')).body;
    expect(d.status).toMatchObject({ replicas: 1, unavailableReplicas: 1 });
    expect(d.status.availableReplicas).toBeUndefined();
    expect(cond(d, 'Available')).toMatchObject({ status: 'False', reason: 'MinimumReplicasUnavailable' });
  });

  it('the endpoint: usage, unknown pod or container, method, authorization as an update of pods/status', async () => {
    await runningPod();
    expect((await c.req('POST', '/x-playground/fail')).body.message).toBe('one of ?pod=<namespace>/<name>[&container=<name>] or ?node=<name> is required, e.g. /x-playground/fail?pod=default/web-1');
    expect((await c.req('POST', '/x-playground/fail?pod=p')).status).toBe(400);
    const missing = await c.req('POST', '/x-playground/fail?pod=default/nope');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('pods "nope" not found');
    const bad = await c.req('POST', '/x-playground/fail?pod=default/p&container=x');
    expect([bad.status, bad.body.message]).toEqual([400, 'container x is not valid for pod p']);
    expect((await c.req('GET', '/x-playground/fail?pod=default/p')).status).toBe(405);
    const denied = await c.req('POST', '/x-playground/fail?pod=default/p', undefined, { 'Impersonate-User': 'jane' });
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe('pods "p" is forbidden: User "jane" cannot update resource "pods/status" in API group "" in the namespace "default"');
    // nothing changed
    await run(3000);
    expect((await pod()).status.containerStatuses[0].restartCount).toBe(0);
  });
});

describe('a failed node', () => {
  it('Unknown after 50 s without lease renewal, unreachable taints, pods not Ready, eviction after 300 s; recovery', async () => {
    const p = await runningPod();
    const node = p.spec.nodeName;
    expect(p.spec.tolerations).toContainEqual({ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 });
    const r = await c.req('POST', `/x-playground/fail?node=${node}`);
    expect(r.body.message).toBe(`simulation: the kubelet of node "${node}" stopped posting node status and renewing its lease`);
    const failedAt = c.env.clock.now();
    const leaseBefore = (await c.req('GET', `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${node}`)).body.spec.renewTime;
    await run(40_000, 1000);
    let n = (await c.req('GET', `/api/v1/nodes/${node}`)).body;
    expect(cond(n, 'Ready').status).toBe('True');
    expect((await c.req('GET', `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${node}`)).body.spec.renewTime).toBe(leaseBefore);
    await run(30_000, 1000);
    n = (await c.req('GET', `/api/v1/nodes/${node}`)).body;
    const ready = cond(n, 'Ready');
    expect(ready).toMatchObject({ status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' });
    // the grace period runs from the last renewal the controller saw (renewals every 10 s), checked every 5 s
    const unknownAt = Date.parse(ready.lastTransitionTime);
    expect(unknownAt - Date.parse(leaseBefore)).toBeGreaterThan(50_000);
    expect(unknownAt - Date.parse(leaseBefore)).toBeLessThanOrEqual(56_000);
    for (const t of ['MemoryPressure', 'DiskPressure', 'PIDPressure']) expect(cond(n, t)).toMatchObject({ status: 'Unknown', reason: 'NodeStatusUnknown' });
    expect(n.spec.taints.map((t: any) => [t.key, t.effect])).toEqual([
      ['node.kubernetes.io/unreachable', 'NoSchedule'],
      ['node.kubernetes.io/unreachable', 'NoExecute'],
    ]);
    const statusManagers = n.metadata.managedFields.map((m: any) => m.manager);
    expect(statusManagers).toContain('kube-controller-manager');
    let q = await pod();
    expect(cond(q, 'Ready').status).toBe('False');
    const evs = await list('/api/v1/namespaces/default/events');
    expect(evs.find((e) => e.reason === 'NodeNotReady' && e.involvedObject.kind === 'Pod')).toMatchObject({ type: 'Warning', message: 'Node is not ready', source: { component: 'node-controller' } });
    const nodeEvs = await list('/api/v1/namespaces/default/events?fieldSelector=involvedObject.kind=Node');
    expect(nodeEvs.find((e) => e.reason === 'NodeNotReady')).toMatchObject({ type: 'Normal', message: `Node ${node} status is now: NodeNotReady` });

    // evicted 300 s after the NoExecute taint was added
    const taintedAt = Date.parse(n.spec.taints[1].timeAdded);
    await run(taintedAt + 299_000 - c.env.clock.now(), 5000);
    expect((await pod()).metadata.deletionTimestamp).toBeUndefined();
    await run(2000, 500);
    q = await pod();
    expect(q.metadata.deletionTimestamp).toBeDefined();
    expect(cond(q, 'DisruptionTarget')).toMatchObject({ status: 'True', reason: 'DeletionByTaintManager', message: 'Taint manager: deleting due to NoExecute taint' });
    const eviction = (await list('/api/v1/namespaces/default/events')).find((e) => e.reason === 'TaintManagerEviction');
    expect(eviction).toMatchObject({ type: 'Normal', message: 'Marking for deletion Pod default/p', source: { component: 'taint-eviction-controller' } });
    // its kubelet is gone: the pod stays Terminating
    await run(60_000, 5000);
    expect((await c.req('GET', POD)).status).toBe(200);
    expect(failedAt).toBeLessThan(c.env.clock.now());

    // recovery: status posted, lease renewed, taints lifted, the terminating pod finally removed
    const rec = await c.req('POST', `/x-playground/recover?node=${node}`);
    expect(rec.body.message).toBe(`simulation: the kubelet of node "${node}" posts node status and renews its lease again`);
    await run(6000, 500);
    n = (await c.req('GET', `/api/v1/nodes/${node}`)).body;
    expect(cond(n, 'Ready')).toMatchObject({ status: 'True', reason: 'KubeletReady' });
    expect(n.spec.taints).toBeUndefined();
    expect((await c.req('GET', POD)).status).toBe(404);
  });

  it('a pod that tolerates unreachable forever stays; a pod on a healthy node is untouched; Ready again after recovery', async () => {
    const p = await runningPod({ tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' }] });
    const node = p.spec.nodeName;
    await c.req('POST', `/x-playground/fail?node=${node}`);
    await run(420_000, 5000);
    const q = await pod();
    expect(q.metadata.deletionTimestamp).toBeUndefined();
    expect(cond(q, 'Ready').status).toBe('False');
    await c.req('POST', `/x-playground/recover?node=${node}`);
    await run(10_000, 500);
    expect(cond(await pod(), 'Ready').status).toBe('True');
  });

  it('evictionTime: untolerated at once, the shortest toleration from timeAdded, none without seconds', () => {
    const taint = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: '2025-01-01T00:00:00Z' };
    const t0 = Date.parse(taint.timeAdded);
    expect(evictionTime({ spec: {} }, [taint], t0 + 5)).toBe(t0 + 5);
    expect(evictionTime({ spec: { tolerations: [{ operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }, { key: taint.key, operator: 'Exists', tolerationSeconds: 30 }] } }, [taint], t0)).toBe(t0 + 30_000);
    expect(evictionTime({ spec: { tolerations: [{ key: taint.key, operator: 'Exists' }] } }, [taint], t0)).toBeUndefined();
    expect(evictionTime({ spec: {} }, [{ ...taint, effect: 'NoSchedule' }], t0)).toBeUndefined();
  });
});

it('goDuration prints as Go does', () => {
  expect([10_000, 20_000, 40_000, 80_000, 160_000, 300_000].map(goDuration)).toEqual(['10s', '20s', '40s', '1m20s', '2m40s', '5m0s']);
});
