// The pod garbage collector on the fake clock: orphans after the quarantine (with DisruptionTarget /
// DeletionByPodGC), terminated pods above the threshold (evicted first, then the oldest), terminating pods
// never scheduled and terminating pods on out-of-service nodes; its writes are the PodGC field manager's.
import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../testing/harness.js';
import { GC_CHECK_PERIOD_MS, QUARANTINE_MS } from './pod-gc.js';

const PODS = '/api/v1/namespaces/default/pods';
const HOLD = 'example.com/hold';

async function start(terminatedPodGCThreshold?: number): Promise<TestClient> {
  const c = await testClient(createMemoryStorage(), { workloads: { controllers: ['podgc'], terminatedPodGCThreshold } });
  await c.settle();
  return c;
}
async function run(c: TestClient, ms: number, step = 1000): Promise<void> {
  for (let t = 0; t < ms; t += step) {
    await c.env.advance(step);
    await c.settle();
  }
}
const pod = (name: string, extra: { nodeName?: string; finalizers?: string[] } = {}) => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: { name, ...(extra.finalizers ? { finalizers: extra.finalizers } : {}) },
  spec: { containers: [{ name: 'c', image: 'nginx' }], ...(extra.nodeName ? { nodeName: extra.nodeName } : {}) },
});
async function setStatus(c: TestClient, name: string, status: Record<string, unknown>): Promise<void> {
  const cur = (await c.req('GET', `${PODS}/${name}`)).body;
  const r = await c.req('PUT', `${PODS}/${name}/status`, { ...cur, status: { ...cur.status, ...status } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}
const names = async (c: TestClient) => ((await c.req('GET', PODS)).body.items as any[]).map((p) => p.metadata.name).sort();

describe('pod garbage collector', () => {
  it('runs as pod-garbage-collector among the workload controllers', async () => {
    const c = await start();
    expect(c.server.engine.controllers?.names).toContain('pod-garbage-collector');
  });

  it('a pod bound to a node that is gone: kept through the quarantine, then marked Failed with DisruptionTarget/DeletionByPodGC and deleted', async () => {
    const c = await start();
    expect((await c.req('POST', '/api/v1/nodes', { metadata: { name: 'n1' } })).status).toBe(201);
    expect((await c.req('POST', PODS, pod('orphan', { nodeName: 'n1', finalizers: [HOLD] }))).status).toBe(201);
    expect((await c.req('POST', PODS, pod('other', { nodeName: 'n2' }))).status).toBe(201);
    await run(c, 2 * GC_CHECK_PERIOD_MS);
    // n2 never existed: its pod is an orphan too, and is deleted once the quarantine has passed
    expect(await names(c)).toEqual(['orphan', 'other']);
    expect((await c.req('DELETE', '/api/v1/nodes/n1')).status).toBe(200);
    const deletedAt = c.env.clock.now();
    await run(c, QUARANTINE_MS - 2000);
    let p = (await c.req('GET', `${PODS}/orphan`)).body;
    expect(p.metadata.deletionTimestamp).toBeUndefined();
    await run(c, QUARANTINE_MS);
    expect(c.env.clock.now() - deletedAt).toBeGreaterThan(QUARANTINE_MS);
    p = (await c.req('GET', `${PODS}/orphan`)).body;
    expect(p.metadata.deletionTimestamp).toBeDefined();
    expect(p.metadata.deletionGracePeriodSeconds).toBe(0);
    expect(p.status.phase).toBe('Failed');
    const cond = p.status.conditions.find((x: any) => x.type === 'DisruptionTarget');
    expect(cond).toMatchObject({ type: 'DisruptionTarget', status: 'True', reason: 'DeletionByPodGC', message: 'PodGC: node no longer exists' });
    expect(typeof cond.lastTransitionTime).toBe('string');
    const mf = p.metadata.managedFields.find((m: any) => m.manager === 'PodGC');
    expect(mf).toMatchObject({ manager: 'PodGC', operation: 'Apply', subresource: 'status' });
    expect(await names(c)).toEqual(['orphan']);
  }, 30_000);

  it('a node that comes back within the quarantine saves its pods', async () => {
    const c = await start();
    await c.req('POST', '/api/v1/nodes', { metadata: { name: 'n1' } });
    await c.req('POST', PODS, pod('p', { nodeName: 'n1' }));
    await c.req('DELETE', '/api/v1/nodes/n1');
    await run(c, GC_CHECK_PERIOD_MS + 1000);
    await c.req('POST', '/api/v1/nodes', { metadata: { name: 'n1' } });
    await run(c, 3 * GC_CHECK_PERIOD_MS);
    expect(await names(c)).toEqual(['p']);
  }, 30_000);

  it('terminated pods above the threshold: evicted ones first, then the oldest; running pods are never counted', async () => {
    const c = await start(2);
    for (const n of ['a', 'b', 'c', 'd', 'e']) {
      expect((await c.req('POST', PODS, pod(n))).status).toBe(201);
      await c.env.advance(1000);
    }
    await setStatus(c, 'a', { phase: 'Succeeded' });
    await setStatus(c, 'b', { phase: 'Failed' });
    await setStatus(c, 'c', { phase: 'Succeeded' });
    await setStatus(c, 'd', { phase: 'Failed', reason: 'Evicted' });
    // e stays Pending
    await run(c, GC_CHECK_PERIOD_MS + 1000);
    // four terminated, threshold two: d (evicted) and a (oldest) go
    expect(await names(c)).toEqual(['b', 'c', 'e']);
  }, 30_000);

  it('the default threshold (12500) leaves a few terminated pods alone', async () => {
    const c = await start();
    await c.req('POST', PODS, pod('done'));
    await setStatus(c, 'done', { phase: 'Succeeded' });
    await run(c, 2 * GC_CHECK_PERIOD_MS);
    expect(await names(c)).toEqual(['done']);
  }, 30_000);

  it('a terminating pod never scheduled is marked Failed (no condition) and deleted at once', async () => {
    const c = await start();
    await c.req('POST', PODS, pod('never', { finalizers: [HOLD] }));
    await c.req('DELETE', `${PODS}/never`);
    await run(c, GC_CHECK_PERIOD_MS + 1000);
    const p = (await c.req('GET', `${PODS}/never`)).body;
    expect(p.status.phase).toBe('Failed');
    expect((p.status.conditions ?? []).some((x: any) => x.type === 'DisruptionTarget')).toBe(false);
    expect(p.metadata.deletionGracePeriodSeconds).toBe(0);
  }, 30_000);

  it('a terminating pod on a not-ready node with the out-of-service taint is force-deleted; on a ready node it waits', async () => {
    const c = await start();
    const node = (name: string, ready: boolean) => ({
      metadata: { name },
      spec: { taints: [{ key: 'node.kubernetes.io/out-of-service', value: 'nodeshutdown', effect: 'NoExecute' }] },
      status: { conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', reason: 'KubeletNotReady', message: 'down' }] },
    });
    await c.req('POST', '/api/v1/nodes', node('down', false));
    await c.req('POST', '/api/v1/nodes', node('up', true));
    await c.req('POST', PODS, pod('stuck', { nodeName: 'down', finalizers: [HOLD] }));
    await c.req('POST', PODS, pod('fine', { nodeName: 'up', finalizers: [HOLD] }));
    await c.req('DELETE', `${PODS}/stuck`);
    await c.req('DELETE', `${PODS}/fine`);
    await run(c, GC_CHECK_PERIOD_MS + 1000);
    const stuck = (await c.req('GET', `${PODS}/stuck`)).body;
    expect(stuck.status.phase).toBe('Failed');
    expect(stuck.metadata.deletionGracePeriodSeconds).toBe(0);
    const fine = (await c.req('GET', `${PODS}/fine`)).body;
    expect(fine.status.phase).toBe('Pending');
    expect(fine.metadata.deletionGracePeriodSeconds).toBe(30);
  }, 30_000);
});
