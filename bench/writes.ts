// Writes benchmarks (issue 4), through the engine's entry `serve` of the bundled engine on Node over the memory storage (the request
// body given as JSON text, the response body read as bytes: serialization counted, no fetch objects), per operation:
//   - server-side apply of a label change on a small ConfigMap (issue 17: <= 0.25 ms);
//   - server-side apply of a Deployment with 3 containers: a no-op re-apply, a value change (image of one
//     container, alternating), and a conflict (another manager applying a different replicas value: 409);
//   - a strategic merge patch of the same Deployment (image of one container, alternating).
// Target (issue 4): each <= 0.5 ms p50.
import { importBundled } from './bundled.js';
import type { Row } from './run.js';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const PATH = '/apis/apps/v1/namespaces/default/deployments/bench';
const N = 300;
// V8 keeps optimizing the write path for thousands of requests (BENCHMARKS.md, perf-create6): each row is
// taken after 2,000 requests of its own kind
const WARMUP = 2000;

function deployment(replicas: number, image: string): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'bench', labels: { app: 'bench' } },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'bench' } },
      template: {
        metadata: { labels: { app: 'bench' } },
        spec: {
          containers: ['web', 'sidecar', 'metrics'].map((name, i) => ({
            name,
            image: i === 0 ? image : `registry.example.com/${name}:1.0`,
            ports: [{ containerPort: 8080 + i, name: `p-${name}` }],
            env: [{ name: 'MODE', value: name }],
            resources: { requests: { cpu: '100m', memory: '64Mi' } },
          })),
        },
      },
    },
  };
}

export async function bench(): Promise<Row[]> {
  // the engine as it ships (bundled, without tsx's per-function wrappers), as the node, steps and A/B benches run it
  const { createApiServer, createMemoryStorage, systemEnv, engineRequest } = await importBundled<typeof import('./engine-entry.js')>('bench/engine-entry.ts');
  const api = createApiServer({ storage: createMemoryStorage(), env: systemEnv(), host: 'test' });
  await api.ready;
  const call = async (contentType: string, query: string, body: unknown, expect: number) => {
    const r = await api.serve(engineRequest('PATCH', `http://bench${PATH}${query}`, [['Content-Type', contentType], ['User-Agent', 'bench/1']], JSON.stringify(body)));
    await r.bytes();
    if (r.status !== expect) throw new Error(`writes bench: expected ${expect}, got ${r.status}`);
  };
  const APPLY = 'application/apply-patch+yaml';
  const SMP = 'application/strategic-merge-patch+json';
  await call(APPLY, '?fieldManager=owner', deployment(3, 'nginx:1'), 201);

  const measure = async (fn: (i: number) => Promise<void>): Promise<number[]> => {
    const out: number[] = [];
    for (let i = 0; i < WARMUP + N; i++) {
      const t = performance.now();
      await fn(i);
      if (i >= WARMUP) out.push(performance.now() - t);
    }
    return out;
  };

  const CM = '/api/v1/namespaces/default/configmaps/bench';
  const configMap = (v: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bench', labels: { round: v } }, data: { k: 'v' } });
  const callAt = async (path: string, body: unknown, expect: number) => {
    const r = await api.serve(engineRequest('PATCH', `http://bench${path}?fieldManager=owner`, [['Content-Type', APPLY], ['User-Agent', 'bench/1']], JSON.stringify(body)));
    await r.bytes();
    if (r.status !== expect) throw new Error(`writes bench: expected ${expect}, got ${r.status}`);
  };
  await callAt(CM, configMap('a'), 201);
  const label = await measure((i) => callAt(CM, configMap(String(i % 2)), 200));
  const noop = await measure(() => call(APPLY, '?fieldManager=owner', deployment(3, 'nginx:1'), 200));
  const change = await measure((i) => call(APPLY, '?fieldManager=owner', deployment(3, `nginx:${2 + (i % 2)}`), 200));
  const conflict = await measure(() => call(APPLY, '?fieldManager=other', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'bench' }, spec: { replicas: 7 } }, 409));
  const smp = await measure((i) => call(SMP, '', { spec: { template: { spec: { containers: [{ name: 'web', image: `nginx:${4 + (i % 2)}` }] } } } }, 200));
  await api.close();

  const row = (name: string, xs: number[]): Row => {
    const p50 = median(xs);
    const limit = name.startsWith('strategic') ? 0.3 : name.includes('ConfigMap') ? 0.25 : 0.5;
    return { name: `writes: ${name} (p50 of ${N})`, p50Ms: p50, target: `<= ${limit} ms`, met: p50 <= limit };
  };
  return [
    row('apply ConfigMap, label change', label),
    row('apply Deployment (3 containers), no-op re-apply', noop),
    row('apply Deployment (3 containers), value change', change),
    row('apply Deployment (3 containers), conflict 409', conflict),
    row('strategic merge patch Deployment (3 containers), image change', smp),
  ];
}
