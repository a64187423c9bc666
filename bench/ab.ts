// A/B of two builds of the engine in one process (alternating rounds, median of the per-round p50s), so a
// ratio holds on a loaded machine: this tree's engine against another build of bench/engine-entry.ts.
//   npx esbuild <main>/bench/engine-entry.ts --bundle --format=esm --platform=node --packages=external --outfile=/tmp/before.mjs
//   npx tsx bench/ab.ts /tmp/before.mjs [rounds]
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { importBundled, textCaller } from './bundled.js';
import { median } from './run.js';

type Entry = typeof import('./engine-entry.js');
const after = await importBundled<Entry>('bench/engine-entry.ts');
const before = (await import(pathToFileURL(resolve(process.argv[2])).href)) as Entry;
const ROUNDS = Number(process.argv[3] ?? 8);
const PER_ROUND = 150;

const cm = (name: string, v: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { app: 'bench' } }, data: { key: v, other: 'x'.repeat(100) } });
const CM = '/api/v1/namespaces/default/configmaps';
const works: Record<string, { setup?: (call: ReturnType<typeof textCaller>) => Promise<unknown>; run: (call: ReturnType<typeof textCaller>, i: number, r: number) => Promise<unknown> }> = {
  'create ConfigMap': { run: (call, i, r) => call('POST', CM, cm(`c-${r}-${i}`, String(i))) },
  'get ConfigMap': { setup: (call) => call('POST', CM, cm('g', '1')), run: (call) => call('GET', `${CM}/g`) },
  'update ConfigMap (get + put)': {
    setup: (call) => call('POST', CM, cm('u', '1')),
    run: async (call, i) => {
      const cur = JSON.parse(await call('GET', `${CM}/u`));
      cur.data.key = String(i);
      await call('PUT', `${CM}/u`, cur);
    },
  },
  'merge patch ConfigMap': { setup: (call) => call('POST', CM, cm('p', '1')), run: (call, i) => call('PATCH', `${CM}/p`, { data: { key: String(i) } }, 'application/merge-patch+json') },
  'list 100 ConfigMaps': {
    setup: async (call) => {
      for (let i = 0; i < 100; i++) await call('POST', CM, cm(`l-${i}`, String(i)));
    },
    run: (call) => call('GET', CM),
  },
};

async function engine(e: Entry) {
  const api = e.createApiServer({ storage: e.createMemoryStorage(), env: e.systemEnv(), host: 'test', controllers: [] });
  await api.ready;
  return { api, call: textCaller(api) };
}

for (const [name, w] of Object.entries(works)) {
  const sides = { before: await engine(before), after: await engine(after) };
  for (const s of Object.values(sides)) await w.setup?.(s.call);
  const p50s: Record<string, number[]> = { before: [], after: [] };
  for (let r = 0; r < ROUNDS + 1; r++) {
    for (const side of (r % 2 ? ['after', 'before'] : ['before', 'after']) as ('before' | 'after')[]) {
      const t: number[] = [];
      for (let i = 0; i < PER_ROUND; i++) {
        const t0 = performance.now();
        await w.run(sides[side].call, i, r);
        t.push(performance.now() - t0);
      }
      if (r > 0) p50s[side].push(median(t)); // round 0 warms up
    }
  }
  const b = median(p50s.before);
  const a = median(p50s.after);
  console.log(`${name}: before ${(b * 1000).toFixed(0)} µs, after ${(a * 1000).toFixed(0)} µs, after/before ${(a / b).toFixed(2)}x`);
  for (const s of Object.values(sides)) await s.api.close();
}
process.exit(0);
