// An @kubernetes/client-node informer (list + watch) against the Node host, kept in sync through creates,
// updates, deletes, a compaction (the watch resumes from a compacted version: ERROR 410, then a relist)
// and a restart of the host (a new engine over the same storage, same port).
import zlib from 'node:zlib';
import workerThreads from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import type { V1ConfigMap } from '@kubernetes/client-node';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { systemEnv } from '../../adapters/system-env.js';
import { createApiServer, type ApiServer } from '../../engine/server.js';
import type { Storage } from '../../engine/storage/interface.js';
import { startHttpHost, type HttpHost } from './http-host.js';
import { until } from '../../engine/testing/wait.js';

// client-node 2 pulls undici 8, which binds Node >= 22 APIs at load (zlib's zstd decoder,
// worker_threads.markAsUncloneable, Promise.withResolvers); on an older Node give it stand-ins (zstd is never negotiated here)
const z = zlib as unknown as Record<string, unknown>;
if (typeof z.createZstdDecompress !== 'function') {
  z.createZstdDecompress = () => {
    throw new Error('zstd is not available on this Node');
  };
  const c = zlib.constants as unknown as Record<string, number>;
  if (c.ZSTD_d_windowLogMax === undefined) Object.defineProperty(c, 'ZSTD_d_windowLogMax', { value: 100 });
}
const wt = workerThreads as unknown as Record<string, unknown>;
if (typeof wt.markAsUncloneable !== 'function') wt.markAsUncloneable = () => undefined;
const P = Promise as unknown as { withResolvers?: unknown };
if (typeof P.withResolvers !== 'function') {
  P.withResolvers = () => {
    let resolve!: (v: unknown) => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise((res, rej) => ((resolve = res), (reject = rej)));
    return { promise, resolve, reject };
  };
}
const { CoreV1Api, KubeConfig, makeInformer } = await import('@kubernetes/client-node');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The same storage handed to successive engines: closing an engine leaves it open. */
function keepOpen(s: Storage): Storage {
  return new Proxy(s, { get: (t, p) => (p === 'close' ? async () => undefined : (t as any)[p]?.bind?.(t) ?? (t as any)[p]) });
}

interface Node {
  api: ApiServer & { engine: any };
  host: HttpHost;
  requests: string[];
}

async function startNode(storage: Storage, port = 0, historyWindowMs = 1500): Promise<Node> {
  // resourceVersions counted from a cluster of namespaces alone
  const api = createApiServer({ storage, env: systemEnv(), host: 'node', historyWindowMs, defaultObjects: false }) as Node['api'];
  await api.ready;
  const host = await startHttpHost(api, { port });
  const requests: string[] = [];
  host.server.on('request', (req) => requests.push(`${req.method} ${req.url}`));
  return { api, host, requests };
}

let node: Node | undefined;
let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  await node?.host.close();
  await node?.api.close();
  node = undefined;
  stop = undefined;
});

describe('@kubernetes/client-node informer against the Node host', () => {
  it('stays in sync through writes, a compaction and a host restart', async () => {
    const storage = keepOpen(createMemoryStorage());
    node = await startNode(storage);
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'pg', server: node.host.url, skipTLSVerify: true }],
      users: [{ name: 'pg' }],
      contexts: [{ name: 'pg', cluster: 'pg', user: 'pg' }],
      currentContext: 'pg',
    });
    const core = kc.makeApiClient(CoreV1Api);
    const ns = 'default';
    const informer = makeInformer<V1ConfigMap>(kc, `/api/v1/namespaces/${ns}/configmaps`, () => core.listNamespacedConfigMap({ namespace: ns }));
    const events: string[] = [];
    informer.on('add', (o) => events.push(`add ${o.metadata!.name}`));
    informer.on('update', (o) => events.push(`update ${o.metadata!.name}`));
    informer.on('delete', (o) => events.push(`delete ${o.metadata!.name}`));
    let errors = 0;
    informer.on('error', () => {
      // the documented pattern: restart the informer after an error (here: the host went away)
      errors++;
      setTimeout(() => void informer.start().catch(() => undefined), 300);
    });
    await informer.start();
    stop = () => informer.stop();

    const view = () => informer.list(ns).map((o) => `${o.metadata!.name}=${JSON.stringify(o.data ?? {})}@${o.metadata!.resourceVersion}`).sort();
    const truth = async () => (await core.listNamespacedConfigMap({ namespace: ns })).items.map((o) => `${o.metadata!.name}=${JSON.stringify(o.data ?? {})}@${o.metadata!.resourceVersion}`).sort();
    const inSync = async () => JSON.stringify(view()) === JSON.stringify(await truth());

    // creates, updates, deletes
    await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'a' }, data: { v: '1' } } });
    await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'b' }, data: { v: '1' } } });
    const a = await core.readNamespacedConfigMap({ name: 'a', namespace: ns });
    await core.replaceNamespacedConfigMap({ name: 'a', namespace: ns, body: { ...a, data: { v: '2' } } });
    await core.deleteNamespacedConfigMap({ name: 'b', namespace: ns });
    await until('the informer to see the writes', inSync, { ms: 10_000, every: 25 });
    expect(view()).toEqual(['a={"v":"2"}@7']);
    expect(events).toEqual(['add a', 'add b', 'update a', 'delete b']);

    // compaction: the informer is stopped, the cluster moves on and its history is compacted; on restart
    // the watch from the old version gets ERROR 410 and the informer lists again
    await informer.stop();
    await until('the server to see the watch end', () => node!.api.engine.watch.count === 0, { ms: 10_000, every: 25 });
    const stoppedAt = (informer as unknown as { latestResourceVersion(): string }).latestResourceVersion();
    expect(stoppedAt).toBe('8');
    await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'c' }, data: { v: '1' } } });
    await core.deleteNamespacedConfigMap({ name: 'a', namespace: ns });
    await node.api.engine.store.state.compact(Date.now() + 1);
    expect(node.api.engine.store.state.compactedRevision).toBe(10);
    node.requests.length = 0;
    events.length = 0;
    await informer.start();
    await until('the informer to relist after 410', inSync, { ms: 10_000, every: 25 });
    expect(view()).toEqual(['c={"v":"1"}@9']);
    expect(events.sort()).toEqual(['add c', 'delete a']);
    const path = `/api/v1/namespaces/${ns}/configmaps`;
    // the watch from the compacted version (answered with ERROR 410), then a list, then a watch from the list
    expect(node.requests[0]).toMatch(new RegExp(`^GET ${path}\\?watch=true&resourceVersion=${stoppedAt}$`));
    await until('the watch from the relist', () => node!.requests.some((r) => r === `GET ${path}?watch=true&resourceVersion=10`), { ms: 10_000, every: 25 });

    // a host restart: a new engine over the same storage on the same port; the informer reconnects
    const port = node.host.port;
    await node.host.close();
    await node.api.close();
    await core.listNamespacedConfigMap({ namespace: ns }).then(
      () => expect.unreachable('the host is down'),
      () => undefined,
    );
    node = await startNode(storage, port);
    await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'd' }, data: { v: '1' } } });
    const c = await core.readNamespacedConfigMap({ name: 'c', namespace: ns });
    await core.replaceNamespacedConfigMap({ name: 'c', namespace: ns, body: { ...c, data: { v: '3' } } });
    await until('the informer to catch up after the restart', inSync, { ms: 15_000, every: 25 });
    expect(view()).toEqual(['c={"v":"3"}@12', 'd={"v":"1"}@11']);
    expect(errors + node.requests.filter((r) => r.includes('watch=true')).length).toBeGreaterThan(0);
  }, 40_000);
});

describe('gzip on the Node host (APIResponseCompression)', () => {
  it('compresses get/list bodies of at least 128 KiB when asked, never watches, and not when turned off', async () => {
    const { request } = await import('node:http');
    const { gunzipSync } = await import('node:zlib');
    const get = (url: string, headers: Record<string, string>) =>
      new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        const req = request(url, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        });
        req.on('error', reject);
        req.end();
      });
    node = await startNode(createMemoryStorage());
    const base = `${node.host.url}/api/v1/namespaces/default/configmaps`;
    const post = (name: string, size: number) =>
      fetch(base, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ metadata: { name }, data: { v: 'x'.repeat(size) } }) });
    expect((await post('small', 10)).status).toBe(201);
    // a small list is sent as is
    const small = await get(base, { 'Accept-Encoding': 'gzip' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect((await post('big', 140 * 1024)).status).toBe(201);
    const big = await get(base, { 'Accept-Encoding': 'gzip, deflate' });
    expect(big.headers['content-encoding']).toBe('gzip');
    expect(big.headers.vary).toBe('Accept-Encoding');
    expect(JSON.parse(gunzipSync(big.body).toString()).items.map((i: any) => i.metadata.name)).toEqual(['big', 'small']);
    const one = await get(`${base}/big`, { 'Accept-Encoding': 'gzip' });
    expect(one.headers['content-encoding']).toBe('gzip');
    const plain = await get(base, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    // a watch streams, uncompressed
    const ac = new AbortController();
    const w = await fetch(`${base}?watch=true`, { headers: { 'Accept-Encoding': 'gzip' }, signal: ac.signal });
    expect(w.headers.get('content-encoding')).toBeNull();
    ac.abort();
    // turned off on the host
    const off = await startHttpHost(node.api, { compression: false });
    try {
      const r = await get(`${off.url}/api/v1/namespaces/default/configmaps`, { 'Accept-Encoding': 'gzip' });
      expect(r.headers['content-encoding']).toBeUndefined();
      expect(r.body.byteLength).toBeGreaterThan(140 * 1024);
    } finally {
      await off.close();
    }
  });
});
