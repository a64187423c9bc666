// Where the heap of the scale row goes: creates N ConfigMaps as bench/scale.ts does, then drops one holder
// at a time (storage history, storage records, the cache's history, the cache) and reports what each freed.
// npx tsx bench/heap-breakdown.ts [N] [--engine other-build.mjs]
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { importBundled, textCaller } from './bundled.js';

const other = process.argv.includes('--engine') ? process.argv[process.argv.indexOf('--engine') + 1] : undefined;
const { createApiServer, createMemoryStorage, systemEnv } = other
  ? ((await import(pathToFileURL(resolve(other)).href)) as typeof import('./engine-entry.js'))
  : await importBundled<typeof import('./engine-entry.js')>('bench/engine-entry.ts');
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heap = () => (gc(), gc(), process.memoryUsage().heapUsed);
const N = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 20_000);
const mib = (b: number) => `${(b / 2 ** 20).toFixed(1)} MiB`;

const base = heap();
const storage = createMemoryStorage();
const api = createApiServer({ storage, env: systemEnv(), host: 'test' });
await api.ready;
const call = textCaller(api);
for (let k = 0; k < 10; k++) await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `ns-${k}` } });
let stored = 0;
for (let i = 0; i < N; i++) {
  const text = await call('POST', `/api/v1/namespaces/ns-${i % 10}/configmaps`, {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `cm-${String(i).padStart(6, '0')}`, labels: { app: `app-${i % 20}`, shard: String(i % 10) } },
    data: { key: `value-${i}`, other: 'x'.repeat(100) },
  });
  stored += text.length;
}
let last = heap();
const total = last - base;
console.log(`N=${N} JSON ${mib(stored)} heap ${mib(total)} ratio ${(total / stored).toFixed(2)}x`);
const step = (what: string, fn: () => void) => {
  fn();
  const h = heap();
  console.log(`  ${what}: ${mib(last - h)} (${((last - h) / stored).toFixed(2)}x)`);
  last = h;
};
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const s = storage as any;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const state = (api as any).engine.store.state as any;
step('storage history entries', () => (s.history = []));
step('storage records', () => (s.records.clear(), (s.keys.length = 0)));
step('cache history entries', () => (state.history = []));
step('cache indexes', () => state.indexes.clear());
console.log(`  rest (engine, controllers, metrics...): ${mib(last - base)} (${((last - base) / stored).toFixed(2)}x)`);
process.exit(0);
