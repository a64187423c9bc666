// Scale (issue 17 item 2): with 100,000 objects in one cluster, a `limit=500` chunk, a get and a write must
// cost within 1.5x of the same at 1,000 objects (no step linear in the cluster's size), and the engine's
// memory must stay under 3x the stored JSON. In process, through handle(), over the memory storage, with the
// engine bundled as it ships (bench/bundled.ts).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Row } from './run.js';
import { median } from './run.js';
import { importBundled, textCaller } from './bundled.js';

const { createApiServer, createMemoryStorage, systemEnv } = await importBundled<typeof import('./engine-entry.js')>('bench/engine-entry.ts');

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapUsed(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

const NAMESPACES = 10;

function configMap(i: number): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `cm-${String(i).padStart(6, '0')}`, labels: { app: `app-${i % 20}`, shard: String(i % 10) } },
    data: { key: `value-${i}`, other: 'x'.repeat(100) },
  };
}

interface Measures {
  chunkMs: number;
  getMs: number;
  writeMs: number;
  heapBytes: number;
  storedJsonBytes: number;
}

async function measure(n: number): Promise<Measures> {
  const before = heapUsed();
  const api = createApiServer({ storage: createMemoryStorage(), env: systemEnv(), host: 'test' });
  await api.ready;
  const call = textCaller(api);
  for (let k = 0; k < NAMESPACES; k++) await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `ns-${k}` } });
  let stored = 0;
  for (let i = 0; i < n; i++) {
    const text = await call('POST', `/api/v1/namespaces/ns-${i % NAMESPACES}/configmaps`, configMap(i));
    stored += text.length;
  }
  const heapBytes = heapUsed() - before;
  // a chunk of 500 from the middle of the cluster-wide list (a continue token from a first page)
  const chunks: number[] = [];
  for (let r = 0; r < 30; r++) {
    const first = JSON.parse(await call('GET', `/api/v1/configmaps?limit=${r % 2 ? 500 : 250}`)) as { metadata: { continue?: string } };
    const t = performance.now();
    await call('GET', `/api/v1/configmaps?limit=500&continue=${encodeURIComponent(first.metadata.continue ?? '')}`);
    chunks.push(performance.now() - t);
  }
  const gets: number[] = [];
  const writes: number[] = [];
  for (let r = 0; r < 400; r++) {
    const i = (r * 7919) % n;
    const path = `/api/v1/namespaces/ns-${i % NAMESPACES}/configmaps/cm-${String(i).padStart(6, '0')}`;
    let t = performance.now();
    await call('GET', path);
    gets.push(performance.now() - t);
    t = performance.now();
    await call('PATCH', path, { metadata: { labels: { touched: String(r) } } }, 'application/merge-patch+json');
    writes.push(performance.now() - t);
  }
  await api.close();
  return { chunkMs: median(chunks), getMs: median(gets), writeMs: median(writes), heapBytes, storedJsonBytes: stored };
}

export async function bench(): Promise<Row[]> {
  await measure(1_000); // warm-up: the first run pays for compilation
  const small = await measure(1_000);
  const large = await measure(100_000);
  const ratio = (a: number, b: number) => `${(b / a).toFixed(2)}x of the 1,000-object figure (${a.toFixed(3)} ms)`;
  const mem = large.heapBytes / large.storedJsonBytes;
  return [
    { name: 'scale: limit=500 chunk at 100,000 objects (p50 of 30)', p50Ms: large.chunkMs, target: '<= 1.5x of 1,000 objects', met: large.chunkMs <= 1.5 * small.chunkMs, note: ratio(small.chunkMs, large.chunkMs) },
    { name: 'scale: get at 100,000 objects (p50 of 400)', p50Ms: large.getMs, target: '<= 1.5x of 1,000 objects', met: large.getMs <= 1.5 * small.getMs, note: ratio(small.getMs, large.getMs) },
    { name: 'scale: merge-patch write at 100,000 objects (p50 of 400)', p50Ms: large.writeMs, target: '<= 1.5x of 1,000 objects', met: large.writeMs <= 1.5 * small.writeMs, note: ratio(small.writeMs, large.writeMs) },
    {
      name: 'scale: engine heap at 100,000 objects / stored JSON',
      target: '< 3x',
      met: mem < 3,
      note: `${mem.toFixed(2)}x (${(large.heapBytes / 2 ** 20).toFixed(0)} MiB heap for ${(large.storedJsonBytes / 2 ** 20).toFixed(0)} MiB of JSON as served, history included)`,
    },
  ];
}
