// A/B of the writes rows (bench/writes.ts) between two builds of bench/engine-entry.ts in one process, with
// the requests interleaved one by one (before, after, after, before, ...), so a burst of load on a shared
// machine falls on both sides; the median (and p25) of every request's time per side. Against itself it
// gives 1.00-1.01x where alternating rounds of 100 requests gave 0.86-1.24x.
//   npx esbuild <main>/bench/engine-entry.ts --bundle --format=esm --platform=node --packages=external --outfile=/tmp/before.mjs
//   npx tsx bench/ab-writes.ts /tmp/before.mjs [after.mjs] [requests per side]
// Without after.mjs this tree's engine is bundled (bench/bundled.ts).
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { importBundled } from './bundled.js';
import { median } from './run.js';

type Entry = typeof import('./engine-entry.js');
const load = (f: string) => import(pathToFileURL(resolve(f)).href) as Promise<Entry>;
const before = await load(process.argv[2]);
const after = process.argv[3]?.endsWith('.mjs') ? await load(process.argv[3]) : await importBundled<Entry>('bench/engine-entry.ts');
const N = Number(process.argv.find((a, i) => i >= 3 && /^\d+$/.test(a)) ?? 2000);

const DEP = '/apis/apps/v1/namespaces/default/deployments/bench';
const CM = '/api/v1/namespaces/default/configmaps/bench?fieldManager=owner';
const APPLY = 'application/apply-patch+yaml';
const deployment = (image: string) => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'bench', labels: { app: 'bench' } },
  spec: { replicas: 3, selector: { matchLabels: { app: 'bench' } }, template: { metadata: { labels: { app: 'bench' } }, spec: { containers: ['web', 'sidecar', 'metrics'].map((name, i) => ({ name, image: i === 0 ? image : `registry.example.com/${name}:1.0`, ports: [{ containerPort: 8080 + i, name: `p-${name}` }], env: [{ name: 'MODE', value: name }], resources: { requests: { cpu: '100m', memory: '64Mi' } } })) } } },
});
const configMap = (v: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bench', labels: { round: v } }, data: { k: 'v' } });
type Call = (path: string, contentType: string, body: unknown, expect: number) => Promise<void>;

const works: Record<string, { setup: (c: Call) => Promise<void>; run: (c: Call, i: number) => Promise<void> }> = {
  'apply ConfigMap, label change': { setup: (c) => c(CM, APPLY, configMap('a'), 201), run: (c, i) => c(CM, APPLY, configMap(String(i % 2)), 200) },
  'apply Deployment (3 containers), no-op': { setup: (c) => c(`${DEP}?fieldManager=owner`, APPLY, deployment('nginx:1'), 201), run: (c) => c(`${DEP}?fieldManager=owner`, APPLY, deployment('nginx:1'), 200) },
  'apply Deployment (3 containers), value change': { setup: (c) => c(`${DEP}?fieldManager=owner`, APPLY, deployment('nginx:1'), 201), run: (c, i) => c(`${DEP}?fieldManager=owner`, APPLY, deployment(`nginx:${2 + (i % 2)}`), 200) },
  'apply Deployment (3 containers), conflict 409': {
    setup: (c) => c(`${DEP}?fieldManager=owner`, APPLY, deployment('nginx:1'), 201),
    run: (c) => c(`${DEP}?fieldManager=other`, APPLY, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'bench' }, spec: { replicas: 7 } }, 409),
  },
  'strategic merge patch Deployment (image)': {
    setup: (c) => c(`${DEP}?fieldManager=owner`, APPLY, deployment('nginx:1'), 201),
    run: (c, i) => c(DEP, 'application/strategic-merge-patch+json', { spec: { template: { spec: { containers: [{ name: 'web', image: `nginx:${4 + (i % 2)}` }] } } } }, 200),
  },
};

async function engine(e: Entry) {
  const api = e.createApiServer({ storage: e.createMemoryStorage(), env: e.systemEnv(), host: 'test', controllers: [] });
  await api.ready;
  const call: Call = async (path, contentType, body, expect) => {
    const r = await api.handle(new Request(`http://bench${path}`, { method: 'PATCH', body: JSON.stringify(body), headers: { 'Content-Type': contentType, 'User-Agent': 'bench/1' } }));
    await r.arrayBuffer();
    if (r.status !== expect) throw new Error(`${path}: expected ${expect}, got ${r.status}`);
  };
  return { api, call };
}

const quantile = (xs: number[], f: number) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * f)];
for (const [name, w] of Object.entries(works)) {
  const sides = { before: await engine(before), after: await engine(after) };
  for (const s of Object.values(sides)) await w.setup(s.call);
  for (let i = 0; i < 50; i++) for (const s of Object.values(sides)) await w.run(s.call, i); // warm-up
  const t: Record<'before' | 'after', number[]> = { before: [], after: [] };
  for (let i = 0; i < 2 * N; i++) {
    for (const side of (i % 2 ? ['after', 'before'] : ['before', 'after']) as ('before' | 'after')[]) {
      const t0 = performance.now();
      await w.run(sides[side].call, i >> 1);
      t[side].push(performance.now() - t0);
    }
  }
  const b = median(t.before);
  const a = median(t.after);
  const p25 = quantile(t.after, 0.25) / quantile(t.before, 0.25);
  console.log(`${name}: before ${(b * 1000).toFixed(0)} µs, after ${(a * 1000).toFixed(0)} µs, after/before ${(a / b).toFixed(2)}x (p25 ${p25.toFixed(2)}x)`);
  for (const s of Object.values(sides)) await s.api.close();
}
process.exit(0);
