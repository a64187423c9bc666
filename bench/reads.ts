// Reads benchmarks (issue 3), through the engine's entry `serve` on Node over the memory storage (the response
// body read as text: serialization counted, no fetch objects):
//   - a list of 10,000 pods of ~2 KiB in one response, and the same list in chunks of 500;
//   - watch delivery: time from the start of a write to the event read from the watch stream, for one
//     watcher and for 100 watchers (to the last delivery).
// The service-worker numbers are measured by bench/browser.ts.
import { createMemoryStorage } from '../src/adapters/memory/memory-storage.js';
import { systemEnv } from '../src/adapters/system-env.js';
import { createApiServer, engineRequest, type EngineResponse } from '../src/engine/server.js';
import type { Row } from './run.js';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const PODS = 10_000;

function pod(i: number): Record<string, unknown> {
  const name = `pod-${String(i).padStart(5, '0')}`;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      labels: { app: `app-${i % 50}`, tier: i % 2 ? 'backend' : 'frontend', 'pod-template-hash': '5d4f8c9b7' },
      annotations: { 'example.com/owner': 'team-' + (i % 7) },
    },
    spec: {
      nodeName: `node-${i % 20}`,
      containers: [
        {
          name: 'app',
          image: 'registry.example.com/team/app:1.2.3',
          args: ['--port=8080', '--log-level=info'],
          ports: [{ containerPort: 8080, name: 'http' }],
          env: Array.from({ length: 3 }, (_, k) => ({ name: `SETTING_${k}`, value: `value-${k}-${'y'.repeat(20)}` })),
          resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
        },
      ],
    },
  };
}

type Api = ReturnType<typeof createApiServer>;

function call(api: Api, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<EngineResponse> {
  const pairs = Object.entries({ 'Content-Type': 'application/json', 'User-Agent': 'bench/1', ...headers });
  return api.serve(engineRequest(method, 'http://bench' + path, pairs, body === undefined ? undefined : JSON.stringify(body)));
}

async function listRows(): Promise<Row[]> {
  const api = createApiServer({ storage: createMemoryStorage(), env: systemEnv(), host: 'test' });
  await api.ready;
  for (let i = 0; i < PODS; i++) {
    const r = await call(api, 'POST', '/api/v1/namespaces/default/pods', pod(i));
    if (r.status !== 201) throw new Error(`create pod ${i}: HTTP ${r.status} ${await r.text()}`);
    await r.bytes();
  }
  const whole: number[] = [];
  let bytes = 0;
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const r = await call(api, 'GET', '/api/v1/namespaces/default/pods');
    const b = await r.bytes();
    whole.push(performance.now() - t);
    bytes = b.byteLength;
  }
  const chunks: number[] = [];
  let walk = 0;
  for (let round = 0; round < 3; round++) {
    const t0 = performance.now();
    let cont = '';
    let n = 0;
    do {
      const t = performance.now();
      const r = await call(api, 'GET', `/api/v1/namespaces/default/pods?limit=500${cont ? `&continue=${cont}` : ''}`);
      const text = await r.text();
      chunks.push(performance.now() - t);
      // the list metadata comes first: read the token without parsing the items
      cont = /^\{"kind":"PodList","apiVersion":"v1","metadata":\{[^}]*"continue":"([^"]+)"/.exec(text)?.[1] ?? '';
      n += text.split('{"metadata":{"name":"pod-').length - 1;
    } while (cont);
    if (n !== PODS) throw new Error(`chunked walk saw ${n} pods`);
    walk = performance.now() - t0;
  }
  // chunks served from a past revision: writes land after the first chunk
  const past: number[] = [];
  {
    const first = await (await call(api, 'GET', '/api/v1/namespaces/default/pods?limit=500')).text();
    let cont = /"continue":"([^"]+)"/.exec(first)?.[1] ?? '';
    for (let i = 0; i < 10; i++) await (await call(api, 'POST', '/api/v1/namespaces/default/pods', pod(PODS + i))).bytes();
    while (cont) {
      const t = performance.now();
      const text = await (await call(api, 'GET', `/api/v1/namespaces/default/pods?limit=500&continue=${cont}`)).text();
      past.push(performance.now() - t);
      cont = /^\{"kind":"PodList","apiVersion":"v1","metadata":\{[^}]*"continue":"([^"]+)"/.exec(text)?.[1] ?? '';
    }
  }
  await api.close();
  const wholeP50 = median(whole);
  const chunkP50 = median(chunks);
  return [
    {
      name: `list 10,000 pods (~${Math.round(bytes / PODS / 102.4) / 10} KiB each, ${(bytes / 2 ** 20).toFixed(1)} MiB) in one response (median of 5)`,
      totalMs: wholeP50,
      target: '<= 300 ms (through the worker)',
      met: wholeP50 <= 300,
      note: 'Node, through serve (no fetch objects); the worker figure is in the service worker rows',
    },
    { name: 'list 10,000 pods in chunks of 500: one chunk (p50 of 60)', p50Ms: chunkP50, target: '<= 20 ms', met: chunkP50 <= 20 },
    { name: 'list 10,000 pods in chunks of 500: whole walk (last of 3)', totalMs: walk },
    { name: 'list in chunks of 500 at a past revision (10 writes after the first chunk): one chunk (p50)', p50Ms: median(past), target: '<= 20 ms', met: median(past) <= 20 },
  ];
}

/** Opens `n` watches from the current revision; `next(k)` resolves when each has read k more events. */
async function openWatchers(api: Api, n: number): Promise<{ waitAll(): Promise<number>; close(): void }> {
  const list = JSON.parse(await (await call(api, 'GET', '/api/v1/namespaces/default/configmaps?limit=1')).text()) as { metadata: { resourceVersion: string } };
  const controllers: AbortController[] = [];
  const readers: ReadableStreamDefaultReader<Uint8Array>[] = [];
  for (let i = 0; i < n; i++) {
    const ac = new AbortController();
    const res = await api.serve(engineRequest('GET', `http://bench/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${list.metadata.resourceVersion}`, [], undefined, ac.signal));
    controllers.push(ac);
    readers.push(res.stream()!.getReader());
  }
  return {
    // resolves with the time at which the last watcher has read one event
    async waitAll() {
      let last = 0;
      await Promise.all(
        readers.map(async (r) => {
          const { done } = await r.read();
          if (done) throw new Error('watch ended');
          last = Math.max(last, performance.now());
        }),
      );
      return last;
    },
    close() {
      for (const ac of controllers) ac.abort();
    },
  };
}

async function watchRows(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const n of [1, 100]) {
    const api = createApiServer({ storage: createMemoryStorage(), env: systemEnv(), host: 'test' });
    await api.ready;
    const w = await openWatchers(api, n);
    const lat: number[] = [];
    const rounds = n === 1 ? 500 : 100;
    for (let i = 0; i < rounds; i++) {
      const delivered = w.waitAll();
      const t0 = performance.now();
      const r = await call(api, 'POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: `w-${i}` }, data: { i: String(i) } });
      await r.bytes();
      lat.push((await delivered) - t0);
    }
    w.close();
    await api.close();
    const p50 = median(lat);
    rows.push({
      name: `watch: write to ${n === 1 ? 'delivery, 1 watcher' : 'last delivery, 100 watchers'} (p50 of ${rounds})`,
      p50Ms: p50,
      target: n === 1 ? '<= 2 ms' : '<= 50 ms',
      met: p50 <= (n === 1 ? 2 : 50),
      note: 'Node, through serve (includes the write itself)',
    });
  }
  return rows;
}

export async function bench(): Promise<Row[]> {
  return [...(await listRows()), ...(await watchRows())];
}
