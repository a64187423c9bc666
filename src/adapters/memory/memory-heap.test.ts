// The engine's memory per stored object, held as a test: a cluster's heap must stay within a small multiple
// of the JSON it serves. A cache keyed by something every stored state keeps (a shared frozen encoding, a
// parsed body, a serialization) grows the heap per object without any answer changing, so no other test
// sees it; the scale benchmark measures it at 100,000 objects (2.3x), this bounds it at a few thousand
// objects with three states each.
import { describe, expect, it } from 'vitest';
import { createApiServer, engineRequest } from '../../engine/server.js';
import { createMemoryStorage } from './memory-storage.js';
import { systemEnv } from '../system-env.js';
import { heapUsed } from '../../../bench/heap.js';


describe('engine heap per stored object', () => {
  it('stays under 2.5x the JSON served for ConfigMaps created, then updated and patched (managedFields of two managers)', async () => {
    const api = createApiServer({ storage: createMemoryStorage(), env: systemEnv(), host: 'test', controllers: [] });
    await api.ready;
    const call = async (method: string, path: string, body: unknown, contentType = 'application/json', manager = 'bench') => {
      const r = await api.serve(engineRequest(method, `http://t${path}?fieldManager=${manager}`, [['Content-Type', contentType]], JSON.stringify(body)));
      const text = await r.text();
      expect(r.status, text).toBeLessThan(300);
      return text;
    };
    const cm = (i: number) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `cm-${i}`, labels: { app: `app-${i % 20}`, shard: String(i % 10) } },
      data: { key: `value-${i}`, other: 'x'.repeat(100) },
    });
    const fill = async (ns: string, n: number) => {
      await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
      // every state the writes answered with: the stored object and the history's earlier states
      let served = 0;
      for (let i = 0; i < n; i++) served += (await call('POST', `/api/v1/namespaces/${ns}/configmaps`, cm(i))).length;
      for (let i = 0; i < n; i++) {
        const path = `/api/v1/namespaces/${ns}/configmaps/cm-${i}`;
        served += (await call('PATCH', path, { metadata: { labels: { touched: 'yes' } } }, 'application/merge-patch+json', 'other')).length;
        served += (await call('PATCH', path, { data: { key: `changed-${i}` } }, 'application/merge-patch+json')).length;
      }
      return served;
    };
    // a first namespace warms every cache that is bounded, so the second measures what grows per object
    await fill('warm', 3000);
    const before = heapUsed();
    const json = await fill('measured', 3000);
    const grown = heapUsed() - before;
    const ratio = grown / json;
    // 1.7x today; 3.6x with the leak of 97d24ad (every stored state kept its decoded managedFields set alive)
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio, `heap ${ratio.toFixed(2)}x of the JSON of every state`).toBeLessThan(2.5);
    await api.close();
  }, 120_000);
});
