// The UI's API client (api.ts) against the real engine, without a browser, a worker or a port: msw's node
// interceptor hands every fetch under the cluster's base_url to the engine's `handle`, as the service worker
// does in the browser. The page sees a service worker in control, so apiFetch is a plain fetch.
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApiServer } from '../engine/server.js';
import { createMemoryStorage } from '../adapters/memory/memory-storage.js';
import { fakeEnv } from '../engine/testing/harness.js';
import { DiscoveryCache, resolveManifest } from './editor/discovery.js';

const ORIGIN = 'http://playground.test';
const engine = createApiServer({ storage: createMemoryStorage(), env: fakeEnv(), basePath: '/clusters/demo', host: 'service-worker' });
const seen: string[] = [];
const server = setupServer(
  http.all(`${ORIGIN}/clusters/demo/*`, ({ request }) => {
    seen.push(`${request.method} ${new URL(request.url).pathname}`);
    return engine.handle(request);
  }),
);

let api: typeof import('./api.js');
let PlaygroundStore: typeof import('./playground.js').PlaygroundStore;

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  vi.stubGlobal('location', { origin: ORIGIN, search: '?cluster=demo' });
  // a page already controlled by the service worker (sw.js): registration resolves at once, no fallback
  const worker = { scriptURL: `${ORIGIN}/sw.js` };
  vi.stubGlobal('navigator', { serviceWorker: { controller: worker, getRegistration: async () => ({ active: worker }), register: async () => ({ active: worker }) } });
  api = await import('./api.js');
  ({ PlaygroundStore } = await import('./playground.js'));
});

afterAll(async () => {
  server.close();
  vi.unstubAllGlobals();
  await engine.close();
});

describe('the UI API client over msw to the real engine', () => {
  it('connects in service-worker mode to the cluster named in the query', async () => {
    const conn = await api.connect();
    expect(conn).toEqual({ mode: 'service-worker', cluster: 'demo', baseUrl: `${ORIGIN}/clusters/demo`, warnings: [] });
  });

  it('apiGetJson reads a list from the engine at base_url', async () => {
    const list = await api.apiGetJson<{ kind: string; items: { metadata: { name: string } }[] }>('/api/v1/namespaces');
    expect(list.kind).toBe('NamespaceList');
    expect(list.items.map((n) => n.metadata.name)).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    expect(seen.at(-1)).toBe('GET /clusters/demo/api/v1/namespaces');
  });

  it('apiFetch sends writes with their body and headers; the object reads back', async () => {
    const res = await api.apiFetch('api/v1/namespaces/default/configmaps?fieldManager=ui-test', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { a: '1' } }),
    });
    expect(res.status).toBe(201);
    const cm = await api.apiGetJson<{ data: Record<string, string>; metadata: { managedFields: { manager: string }[] } }>(
      '/api/v1/namespaces/default/configmaps/settings',
    );
    expect(cm.data).toEqual({ a: '1' });
    expect(cm.metadata.managedFields.map((m) => m.manager)).toEqual(['ui-test']);
  });

  it('apiGetJson throws with the status code and the Status message', async () => {
    await expect(api.apiGetJson('/api/v1/namespaces/default/configmaps/missing')).rejects.toThrow('404: configmaps "missing" not found');
  });

  it("the editor's discovery cache resolves manifests from the engine's discovery", async () => {
    const cache = new DiscoveryCache((path) => api.apiGetJson(path));
    const index = await cache.get();
    const r = resolveManifest(index, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'team' } });
    expect(r).toMatchObject({ ok: true, target: { collectionPath: '/apis/apps/v1/namespaces/team/deployments', itemPath: '/apis/apps/v1/namespaces/team/deployments/web' } });
    expect(resolveManifest(index, { apiVersion: 'v1', kind: 'Nope' })).toEqual({ ok: false, error: 'no matches for kind "Nope" in version "v1"' });
  });

  it("the playground store logs each request with the engine's answer", async () => {
    const store = new PlaygroundStore({ theme: 'light' });
    const res = await store.fetch('/api/v1/namespaces/kube-system', {}, 'test');
    expect(res.status).toBe(200);
    const [logged] = store.get().requests;
    expect(logged).toMatchObject({ source: 'test', method: 'GET', path: '/api/v1/namespaces/kube-system', status: 200, streaming: false });
    expect(JSON.parse(logged.responseBody!)).toMatchObject({ kind: 'Namespace', metadata: { name: 'kube-system' } });
  });
});
