// The engine's start over IndexedDB (fake-indexeddb) with N stored ConfigMaps: ClusterState.load,
// createApiServer().ready and the first answer of a get, this tree against another build in one process (alternating rounds, median of
// the per-round times). Each build writes its own database first (so each reads the layout it writes).
//   npx esbuild <main>/bench/cold-entry.ts --bundle --format=esm --platform=node --packages=external --outfile=/tmp/before.mjs
//   npx esbuild bench/cold-entry.ts --bundle --format=esm --platform=node --packages=external --outfile=/tmp/after.mjs
//   npx tsx bench/cold-start.ts /tmp/before.mjs /tmp/after.mjs [N] [rounds]
// With one build only it times that build (for a CPU profile: node --cpu-prof ...).
import 'fake-indexeddb/auto';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

type Entry = typeof import('./cold-entry.js');
const args = process.argv.slice(2);
const builds = args.filter((a) => a.endsWith('.mjs'));
const nums = args.filter((a) => /^\d+$/.test(a)).map(Number);
const N = nums[0] ?? 10_000;
const ROUNDS = nums[1] ?? 7;
const entries: Entry[] = [];
for (const b of builds) entries.push((await import(pathToFileURL(resolve(b)).href)) as Entry);

async function populate(e: Entry, name: string): Promise<void> {
  const storage = await e.openIdbStorage({ name });
  const api = e.createApiServer({ storage, env: e.systemEnv(), host: 'test', controllers: [] });
  await api.ready;
  const post = async (path: string, body: unknown) => {
    const r = await api.handle(new Request('http://bench' + path, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }));
    if (r.status >= 300) throw new Error(`${path}: ${r.status} ${await r.text()}`);
    return r.json();
  };
  await post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bulk' } });
  // one object through the API (managedFields and all), then its copies written straight to storage
  const proto = (await post('/api/v1/namespaces/bulk/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-000000', labels: { app: 'bench' } }, data: { key: 'v', other: 'x'.repeat(400) } })) as {
    metadata: Record<string, unknown>;
    data: Record<string, string>;
  };
  for (let i = 1; i < N; i++) {
    const name = `cm-${String(i).padStart(6, '0')}`;
    const object = { ...proto, metadata: { ...proto.metadata, name, uid: `uid-${i}` }, data: { ...proto.data, key: `value-${i}` } };
    const r = await storage.write([{ kind: 'put', key: `/core/configmaps/bulk/${name}`, object, expectRevision: 0 }], Date.now());
    if (!r.ok) throw new Error('populate failed');
  }
  await storage.close();
}

const names = entries.map((_, i) => `cold-bench-${i}`);
for (let i = 0; i < entries.length; i++) {
  const t0 = performance.now();
  await populate(entries[i], names[i]);
  console.error(`build ${i}: ${N} ConfigMaps written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

async function loadOnce(e: Entry, name: string): Promise<number> {
  const storage = await e.openIdbStorage({ name });
  const t0 = performance.now();
  const s = await e.ClusterState.load(storage);
  const ms = performance.now() - t0;
  if (s.list('/core/configmaps/bulk/cm-').length !== N) throw new Error(`load lost objects: ${s.list('/core/configmaps/bulk/').length} of ${N}, revision ${s.revision}`);
  await storage.close();
  return ms;
}

async function readyOnce(e: Entry, name: string): Promise<number> {
  const storage = await e.openIdbStorage({ name });
  const t0 = performance.now();
  const api = e.createApiServer({ storage, env: e.systemEnv(), host: 'test', controllers: [] });
  await api.ready;
  const r = await api.handle(new Request('http://bench/api/v1/namespaces/bulk/configmaps/cm-000000'));
  await r.text();
  const ms = performance.now() - t0;
  if (r.status !== 200) throw new Error(`get: ${r.status}`);
  await storage.close();
  return ms;
}

// The first answer of a get by name from a new engine: the early answer where the build has one
// (api-server.ts serveEarly), else the get served once the engine has started. The start is awaited after
// the timing (untimed), so that rounds do not overlap.
async function firstOnce(e: Entry, name: string): Promise<number> {
  const storage = await e.openIdbStorage({ name });
  const t0 = performance.now();
  const api = e.createApiServer({ storage, env: e.systemEnv(), host: 'test', controllers: [] });
  const get = () => new Request('http://bench/api/v1/namespaces/bulk/configmaps/cm-000000');
  const early = 'handleEarly' in api ? await (api as { handleEarly(r: Request): Promise<Response | undefined> }).handleEarly(get()) : undefined;
  const r = early ?? (await api.handle(get()));
  await r.text();
  const ms = performance.now() - t0;
  if (r.status !== 200) throw new Error(`first get: ${r.status}`);
  await api.ready;
  await storage.close();
  return ms;
}

// COLD_PROFILE=file.cpuprofile: a CPU profile of the timed rounds only (not of the populating)
const profile = process.env.COLD_PROFILE;
const { Session } = await import('node:inspector');
const session = profile ? new Session() : undefined;
const post = (method: string, params?: object) => new Promise<unknown>((res, rej) => session!.post(method, params ?? {}, (err, r) => (err ? rej(err) : res(r))));
if (session) {
  session.connect();
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 200 });
  await post('Profiler.start');
}
const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const load: number[][] = entries.map(() => []);
const ready: number[][] = entries.map(() => []);
const first: number[][] = entries.map(() => []);
for (let r = 0; r < ROUNDS; r++) {
  for (let j = 0; j < entries.length; j++) {
    const i = (r + j) % entries.length;
    load[i].push(await loadOnce(entries[i], names[i]));
    ready[i].push(await readyOnce(entries[i], names[i]));
    first[i].push(await firstOnce(entries[i], names[i]));
  }
}
if (session) {
  const { profile: p } = (await post('Profiler.stop')) as { profile: unknown };
  (await import('node:fs')).writeFileSync(profile!, JSON.stringify(p));
}
for (let i = 0; i < entries.length; i++) {
  console.log(`${builds[i]}: ClusterState.load ${median(load[i]).toFixed(1)} ms [${load[i].map((x) => x.toFixed(0)).join(' ')}], createApiServer().ready + get ${median(ready[i]).toFixed(1)} ms [${ready[i].map((x) => x.toFixed(0)).join(' ')}], first answer of a get ${median(first[i]).toFixed(1)} ms [${first[i].map((x) => x.toFixed(0)).join(' ')}]`);
}
if (entries.length === 2) {
  console.log(`after/before: load ${(median(load[1]) / median(load[0])).toFixed(2)}x, ready + get ${(median(ready[1]) / median(ready[0])).toFixed(2)}x, first answer ${(median(first[1]) / median(first[0])).toFixed(2)}x`);
}
process.exit(0);
