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
// The sizes of a series are all set up first, then timed in rounds taken in turn (bench/alternate.ts), so
// load that comes and goes moves every size alike; a factor is the median of the rounds' factors.
//   npm run bench -- --only growth
import { createMemoryStorage } from '../src/adapters/memory/memory-storage.js';
import { systemEnv } from '../src/adapters/system-env.js';
import { createApiServer } from '../src/engine/server.js';
import type { Row } from './run.js';
import { alternate, median, perRoundRatios, spread } from './alternate.js';

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
  /** p50 in ms, one per size: the median of the per-round p50s. */
  p50Ms: number[];
  /** The geometric mean of the per-doubling factors, (last / first) ^ (1 / doublings), taken round by round: the median of the rounds'. */
  factor: number;
  /** The smallest and the largest of the rounds' factors. */
  factorSpread: string;
  /** The largest single doubling's factor (each the median of its per-round ratios). */
  worst: number;
  /** The factor a cost of this kind may reach: 1 (constant) or 2 (linear). */
  allowed: 1 | 2;
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

/**
 * `samples` calls of `run(k, n)` at every size k (index into the sizes), the sizes timed in rounds taken in
 * turn (bench/alternate.ts: at most 10 rounds, one more to warm up); `n` counts the calls at that size.
 * Returns the p50s per size, per round.
 */
async function timedBySize(sizes: number[], samples: number, run: (k: number, n: number) => Promise<unknown>): Promise<number[][]> {
  const sides = sizes.map((_, k) => String(k));
  const rounds = Math.min(10, samples);
  const p50s = await alternate(sides, { rounds, perRound: Math.ceil(samples / rounds) }, (side, n) => run(Number(side), n));
  return sides.map((s) => p50s[s]);
}

/** A series from the per-round p50s at each size (`perRound[k][r]`: size k, round r). */
export function series(cost: string, axis: string, sizes: number[], perRound: number[][], allowed: 1 | 2): Series {
  const steps = sizes.length - 1;
  const p50Ms = perRound.map(median);
  // factors round by round (every size of a round ran in the same stretch of time), then their median
  const factors = perRound[0].map((first, r) => (steps > 0 ? (perRound[steps][r] / first) ** (1 / steps) : 1));
  let worst = 0;
  for (let k = 1; k < sizes.length; k++) worst = Math.max(worst, median(perRoundRatios(perRound[k - 1], perRound[k])));
  return { cost, axis, sizes, p50Ms, factor: median(factors), factorSpread: spread(factors), worst, allowed };
}

const cmName = (i: number) => `cm-${String(i).padStart(6, '0')}`;

/** get, chunk and write against the number of objects in one namespace. */
async function objectSeries(sizes: number[], samples: number): Promise<Series[]> {
  const calls: ReturnType<typeof caller>[] = [];
  const apis: Api[] = [];
  const tokens: string[] = [];
  for (const n of sizes) {
    const api = await newApi();
    const call = caller(api);
    for (let i = 0; i < n; i++) {
      await call('POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: cmName(i), labels: { app: `app-${i % 20}` } }, data: { key: `value-${i}`, other: 'x'.repeat(100) } });
    }
    // a chunk of 500 (or what is left) from the middle of the list: the token of a first page of n/2
    const first = JSON.parse(await call('GET', `/api/v1/namespaces/default/configmaps?limit=${Math.max(1, n >> 1)}`)) as { metadata: { continue?: string } };
    tokens.push(encodeURIComponent(first.metadata.continue ?? ''));
    apis.push(api);
    calls.push(call);
  }
  const path = (k: number, n: number) => `/api/v1/namespaces/default/configmaps/${cmName((n * 7919) % sizes[k])}`;
  const get = await timedBySize(sizes, samples, (k, n) => calls[k]('GET', path(k, n)));
  const chunk = await timedBySize(sizes, Math.max(5, samples >> 3), (k) => calls[k]('GET', `/api/v1/namespaces/default/configmaps?limit=500&continue=${tokens[k]}`));
  const write = await timedBySize(sizes, samples, (k, n) => calls[k]('PATCH', path(k, n), { metadata: { labels: { touched: `t${n}` } } }, 'application/merge-patch+json'));
  for (const api of apis) await api.close();
  return [
    series('get', 'objects', sizes, get, 1),
    series('limit=500 chunk from the middle of the list', 'objects', sizes, chunk, 1),
    series('merge-patch write', 'objects', sizes, write, 1),
  ];
}

/** A write to its delivery at the last of `n` watchers of the collection. */
async function watcherSeries(sizes: number[], samples: number): Promise<Series> {
  const sides: { api: Api; call: ReturnType<typeof caller>; controllers: AbortController[]; readers: ReadableStreamDefaultReader<Uint8Array>[] }[] = [];
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
    sides.push({ api, call, controllers, readers });
  }
  const out = await timedBySize(sizes, samples, async (k, n) => {
    const { call, readers } = sides[k];
    const delivered = Promise.all(readers.map((r) => r.read()));
    await call('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: `w-${n}` }, data: { i: String(n) } });
    for (const r of await delivered) if (r.done) throw new Error('growth bench: a watch ended');
  });
  for (const s of sides) {
    for (const ac of s.controllers) ac.abort();
    await s.api.close();
  }
  return series('write to delivery at the last watcher', 'watchers', sizes, out, 2);
}

/** One manager's apply (a value change) on an object whose fields `n` managers share out. */
async function managerSeries(sizes: number[], samples: number): Promise<Series> {
  const APPLY = 'application/apply-patch+yaml';
  const path = '/api/v1/namespaces/default/configmaps/shared';
  const body = (m: number, v: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'shared', labels: { [`owner-${m}`]: 'yes' } }, data: { [`key-${m}`]: v } });
  const apis: Api[] = [];
  for (const n of sizes) {
    const api = await newApi();
    const call = caller(api);
    for (let m = 0; m < n; m++) await call('PATCH', `${path}?fieldManager=manager-${m}`, body(m, 'v'), APPLY);
    apis.push(api);
  }
  const calls = apis.map(caller);
  const out = await timedBySize(sizes, samples, (k, n) => calls[k]('PATCH', `${path}?fieldManager=manager-0`, body(0, `v${n & 1}`), APPLY));
  for (const api of apis) await api.close();
  return series('apply (value change) by one of the managers', 'field managers on the object', sizes, out, 2);
}

/** A create of a custom resource whose CRD carries `n` CEL rules. */
async function celRuleSeries(sizes: number[], samples: number): Promise<Series> {
  const apis: Api[] = [];
  const specs: Record<string, number>[] = [];
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
    apis.push(api);
    specs.push(spec);
  }
  const calls = apis.map(caller);
  const out = await timedBySize(sizes, samples, (k, n) =>
    calls[k]('POST', '/apis/bench.example.com/v1/namespaces/default/widgets', { apiVersion: 'bench.example.com/v1', kind: 'Widget', metadata: { name: `w-${n}` }, spec: specs[k] }, 'application/json', 201),
  );
  for (const api of apis) await api.close();
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
    note: `factor per doubling ${s.factor.toFixed(2)} (per round ${s.factorSpread}; largest single doubling ${s.worst.toFixed(2)}); p50 ${s.p50Ms.map(fmtMs).join(' / ')} ms`,
  }));
}

export async function bench(): Promise<Row[]> {
  return growthRows(await growthSeries());
}
