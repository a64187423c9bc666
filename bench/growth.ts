// Growth (issue 17 item 4): each cost measured while its work doubles four times, and the factor by which it
// grows per doubling. In process, through handle(), over the memory storage.
//   - objects in the cluster (1k..16k): a get, a `limit=500` chunk from the middle of the list, a merge-patch
//     write: each should not grow at all (factor 1);
//   - watchers of the collection (1..16): a write to its delivery at the last watcher: fan-out is linear
//     (factor 2) at most;
//   - field managers on one object (1..16): one manager's apply of a value change: managedFields grow with
//     the managers, the apply should stay near constant, linear at most;
//   - CEL rules on one CRD (1..16): a create of its custom resource: linear in the rules at most.
// A factor above 2 (worse than linear) is a defect to fix or to explain in BENCHMARKS.md.
//   npm run bench -- --only growth
import { createMemoryStorage } from '../src/adapters/memory/memory-storage.js';
import { systemEnv } from '../src/adapters/system-env.js';
import { createApiServer } from '../src/engine/server.js';
import type { Row } from './run.js';

export interface GrowthOptions {
  /** The first size of each series (doubled `doublings` times). */
  objects?: number;
  doublings?: number;
  /** Timed requests per size. */
  samples?: number;
}

export interface Series {
  cost: string;
  /** What doubles, and its sizes. */
  axis: string;
  sizes: number[];
  /** p50 in ms, one per size. */
  p50Ms: number[];
  /** The geometric mean of the per-doubling factors: (last / first) ^ (1 / doublings). */
  factor: number;
  /** The largest single doubling's factor. */
  worst: number;
  /** The factor a cost of this kind may reach: 1 (constant) or 2 (linear). */
  allowed: 1 | 2;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

type Api = ReturnType<typeof createApiServer>;

async function newApi(): Promise<Api> {
  // no controllers: their informers and writes would land in the measured loops
  const api = createApiServer({ storage: createMemoryStorage(), env: systemEnv(), host: 'test', controllers: [], defaultObjects: false });
  await api.ready;
  return api;
}

function caller(api: Api) {
  return async (method: string, path: string, body?: unknown, contentType = 'application/json', expect?: number): Promise<string> => {
    const r = await api.handle(
      new Request('http://bench' + path, { method, body: body === undefined ? undefined : JSON.stringify(body), headers: { 'Content-Type': contentType, 'User-Agent': 'bench/1' } }),
    );
    const text = await r.text();
    if (expect !== undefined ? r.status !== expect : r.status >= 300) throw new Error(`growth bench: ${method} ${path}: ${r.status} ${text.slice(0, 300)}`);
    return text;
  };
}

async function timed(n: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(20, n); i++) await fn(-1 - i); // warm-up
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    xs.push(performance.now() - t);
  }
  return median(xs);
}

function series(cost: string, axis: string, sizes: number[], p50Ms: number[], allowed: 1 | 2): Series {
  const steps = sizes.length - 1;
  const factor = steps > 0 ? (p50Ms[steps] / p50Ms[0]) ** (1 / steps) : 1;
  let worst = 0;
  for (let i = 1; i < sizes.length; i++) worst = Math.max(worst, p50Ms[i] / p50Ms[i - 1]);
  return { cost, axis, sizes, p50Ms, factor, worst, allowed };
}

const cmName = (i: number) => `cm-${String(i).padStart(6, '0')}`;

/** get, chunk and write against the number of objects in one namespace. */
async function objectSeries(sizes: number[], samples: number): Promise<Series[]> {
  const get: number[] = [];
  const chunk: number[] = [];
  const write: number[] = [];
  for (const n of sizes) {
    const api = await newApi();
    const call = caller(api);
    for (let i = 0; i < n; i++) {
      await call('POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: cmName(i), labels: { app: `app-${i % 20}` } }, data: { key: `value-${i}`, other: 'x'.repeat(100) } });
    }
    const path = (i: number) => `/api/v1/namespaces/default/configmaps/${cmName(((i < 0 ? -i : i) * 7919) % n)}`;
    get.push(await timed(samples, (i) => call('GET', path(i))));
    // a chunk of 500 (or what is left) from the middle of the list: the token of a first page of n/2
    const first = JSON.parse(await call('GET', `/api/v1/namespaces/default/configmaps?limit=${Math.max(1, n >> 1)}`)) as { metadata: { continue?: string } };
    const token = encodeURIComponent(first.metadata.continue ?? '');
    chunk.push(await timed(Math.max(5, samples >> 3), () => call('GET', `/api/v1/namespaces/default/configmaps?limit=500&continue=${token}`)));
    write.push(await timed(samples, (i) => call('PATCH', path(i), { metadata: { labels: { touched: `t${i < 0 ? 'w' : ''}${Math.abs(i)}` } } }, 'application/merge-patch+json')));
    await api.close();
  }
  return [
    series('get', 'objects', sizes, get, 1),
    series('limit=500 chunk from the middle of the list', 'objects', sizes, chunk, 1),
    series('merge-patch write', 'objects', sizes, write, 1),
  ];
}

/** A write to its delivery at the last of `n` watchers of the collection. */
async function watcherSeries(sizes: number[], samples: number): Promise<Series> {
  const out: number[] = [];
  for (const n of sizes) {
    const api = await newApi();
    const call = caller(api);
    const list = JSON.parse(await call('GET', '/api/v1/namespaces/default/configmaps?limit=1')) as { metadata: { resourceVersion: string } };
    const controllers: AbortController[] = [];
    const readers: ReadableStreamDefaultReader<Uint8Array>[] = [];
    for (let i = 0; i < n; i++) {
      const ac = new AbortController();
      const res = await api.handle(new Request(`http://bench/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${list.metadata.resourceVersion}`, { signal: ac.signal }));
      controllers.push(ac);
      readers.push(res.body!.getReader());
    }
    out.push(
      await timed(samples, async (i) => {
        const delivered = Promise.all(readers.map((r) => r.read()));
        await call('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: `w-${i < 0 ? `warm${-i}` : i}` }, data: { i: String(i) } });
        for (const r of await delivered) if (r.done) throw new Error('growth bench: a watch ended');
      }),
    );
    for (const ac of controllers) ac.abort();
    await api.close();
  }
  return series('write to delivery at the last watcher', 'watchers', sizes, out, 2);
}

/** One manager's apply (a value change) on an object whose fields `n` managers share out. */
async function managerSeries(sizes: number[], samples: number): Promise<Series> {
  const out: number[] = [];
  const APPLY = 'application/apply-patch+yaml';
  const path = '/api/v1/namespaces/default/configmaps/shared';
  const body = (m: number, v: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'shared', labels: { [`owner-${m}`]: 'yes' } }, data: { [`key-${m}`]: v } });
  for (const n of sizes) {
    const api = await newApi();
    const call = caller(api);
    for (let m = 0; m < n; m++) await call('PATCH', `${path}?fieldManager=manager-${m}`, body(m, 'v'), APPLY);
    out.push(await timed(samples, (i) => call('PATCH', `${path}?fieldManager=manager-0`, body(0, `v${i & 1}`), APPLY)));
    await api.close();
  }
  return series('apply (value change) by one of the managers', 'field managers on the object', sizes, out, 2);
}

/** A create of a custom resource whose CRD carries `n` CEL rules. */
async function celRuleSeries(sizes: number[], samples: number): Promise<Series> {
  const out: number[] = [];
  for (const n of sizes) {
    const api = await newApi();
    const call = caller(api);
    const properties: Record<string, unknown> = {};
    const rules: { rule: string; message: string }[] = [];
    for (let j = 0; j < n; j++) {
      properties[`f${j}`] = { type: 'integer', minimum: 0, maximum: 1000 };
      rules.push({ rule: `self.f${j} <= self.limit && self.f${j} % 2 == 0`, message: `f${j} must be even and within the limit` });
    }
    properties.limit = { type: 'integer' };
    await call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.bench.example.com' },
      spec: {
        group: 'bench.example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties, 'x-kubernetes-validations': rules } } } } }],
      },
    });
    const spec: Record<string, number> = { limit: 500 };
    for (let j = 0; j < n; j++) spec[`f${j}`] = 2 * j;
    out.push(
      await timed(samples, (i) =>
        call('POST', '/apis/bench.example.com/v1/namespaces/default/widgets', { apiVersion: 'bench.example.com/v1', kind: 'Widget', metadata: { name: `w-${i < 0 ? `warm${-i}` : i}` }, spec }, 'application/json', 201),
      ),
    );
    await api.close();
  }
  return series('create of the custom resource', 'CEL rules on the CRD', sizes, out, 2);
}

export async function growthSeries(opts: GrowthOptions = {}): Promise<Series[]> {
  const doublings = opts.doublings ?? 4;
  const samples = opts.samples ?? 300;
  const base = opts.objects ?? 1000;
  const sizes = (first: number) => Array.from({ length: doublings + 1 }, (_, i) => first * 2 ** i);
  return [
    ...(await objectSeries(sizes(base), samples)),
    await watcherSeries(sizes(1), samples),
    await managerSeries(sizes(1), samples),
    await celRuleSeries(sizes(1), samples),
  ];
}

const fmtMs = (v: number) => (v < 0.1 ? v.toFixed(4) : v.toFixed(3));

export function growthRows(all: Series[]): Row[] {
  return all.map((s) => ({
    name: `growth: ${s.cost}, ${s.axis} ${s.sizes[0]}..${s.sizes.at(-1)} (p50 at the largest)`,
    p50Ms: s.p50Ms.at(-1),
    target: s.allowed === 1 ? 'constant (factor ~1 per doubling)' : 'linear at most (<= 2 per doubling)',
    // a constant cost may wobble with the machine; more than 1.25 per doubling is a step linear in the size
    met: s.factor <= (s.allowed === 1 ? 1.25 : 2),
    note: `factor per doubling ${s.factor.toFixed(2)} (largest single doubling ${s.worst.toFixed(2)}); p50 ${s.p50Ms.map(fmtMs).join(' / ')} ms`,
  }));
}

export async function bench(): Promise<Row[]> {
  return growthRows(await growthSeries());
}
