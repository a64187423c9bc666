// The history loader against the real engine over its HTTP surface (no browser): the window it finds,
// the state at the window's start, the replayed and live changes, and resource types that appear later.
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../../engine/testing/harness.js';
import type { PlaygroundStore } from '../playground.js';
import { ClusterHistory } from './cluster-history.js';
import { until } from '../../engine/testing/wait.js';

const CM = '/api/v1/namespaces/default/configmaps';
let c: TestClient;
let h: ClusterHistory | undefined;
afterEach(async () => {
  h?.stop();
  h = undefined;
  await c?.server.close();
});

function storeFor(client: TestClient): PlaygroundStore {
  const fetch = (path: string, init: RequestInit = {}) => client.server.handle(new Request(`http://127.0.0.1${path}`, init));
  return { fetch } as unknown as PlaygroundStore;
}

describe('ClusterHistory', () => {
  it('starts at the compacted revision, holds the state there and every change after it, then follows live', async () => {
    c = await testClient(createMemoryStorage(), { historyWindowMs: 1000, defaultObjects: false });
    await c.req('POST', CM, { metadata: { name: 'old' }, data: { v: '1' } });
    await c.req('POST', CM, { metadata: { name: 'gone' } });
    await c.env.advance(5000); // compacts everything written so far
    const upd = await c.req('PUT', `${CM}/old`, { metadata: { name: 'old' }, data: { v: '2' } });
    await c.req('DELETE', `${CM}/gone`);
    h = new ClusterHistory(storeFor(c));
    const stop = h.subscribe(() => undefined);
    const log = await until('the history to load', () => (h!.get().phase === 'live' ? h!.get().log : undefined), { ms: 5000, every: 20 });
    const window = h.get().window!;
    expect(window.via).toBe('watch');
    const before = await c.req('GET', `${CM}?resourceVersion=${window.start - 1}&resourceVersionMatch=Exact`);
    expect(before.status).toBe(410);
    // the state at the start: both objects, the old value
    const atStart = [...log.stateAt(window.start).values()].filter((s) => s.res.resource === 'configmaps');
    expect(atStart.map((s) => `${s.object.metadata?.name}:${JSON.stringify((s.object as { data?: unknown }).data ?? {})}`).sort()).toEqual(['gone:{}', 'old:{"v":"1"}']);
    expect(atStart[0].object.kind).toBe('ConfigMap');
    // the changes after it, replayed by the watches
    await until('the replayed changes', () => log.records.filter((r) => r.res.resource === 'configmaps').length === 2 || undefined, { ms: 5000, every: 20 });
    expect(log.records.filter((r) => r.res.resource === 'configmaps').map((r) => `${r.type} ${r.object.metadata?.name} ${r.revision}`)).toEqual([
      `MODIFIED old ${upd.body.metadata.resourceVersion}`,
      `DELETED gone ${Number(upd.body.metadata.resourceVersion) + 1}`,
    ]);
    // and live ones
    const created = await c.req('POST', CM, { metadata: { name: 'new' } });
    await until('the live change', () => log.records.some((r) => r.object.metadata?.name === 'new') || undefined, { ms: 5000, every: 20 });
    expect(log.latestRevision).toBe(Number(created.body.metadata.resourceVersion));
    expect(h.get().skipped).toEqual([]);
    stop();
  });

  it('follows a resource type that a CRD adds later, from the window start', async () => {
    c = await testClient(createMemoryStorage(), { defaultObjects: false });
    h = new ClusterHistory(storeFor(c));
    h.subscribe(() => undefined);
    const log = await until('the history to load', () => (h!.get().phase === 'live' ? h!.get().log : undefined), { ms: 5000, every: 20 });
    expect(h.get().window).toEqual({ start: 1, via: 'list' });
    const crd = await c.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gadgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'gadgets', kind: 'Gadget' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { n: { type: 'integer' } } } } } } }],
      },
    });
    expect(crd.status).toBe(201);
    await c.settle();
    const g = await c.req('POST', '/apis/example.com/v1/namespaces/default/gadgets', { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g1' }, spec: { n: 1 } });
    expect(g.status).toBe(201);
    await until('the custom resource in the history', () => log.records.some((r) => r.res.resource === 'gadgets' && r.object.metadata?.name === 'g1') || undefined, { ms: 5000, every: 20 });
    const rec = log.records.find((r) => r.res.resource === 'gadgets')!;
    expect(rec).toMatchObject({ type: 'ADDED', revision: Number(g.body.metadata.resourceVersion), res: { groupVersion: 'example.com/v1', kind: 'Gadget' } });
    expect(rec.resync).toBeUndefined();
  });
});
