// Scale (issue 17 item 2): with 100,000 objects in one cluster, a `limit=500` chunk, a get and a write must
// cost within 1.5x of the same at 1,000 objects (no step linear in the cluster's size), and the engine's
// memory must stay under 3x the stored JSON. In process, through handle(), over the memory storage, with the
// engine bundled as it ships (bench/bundled.ts). Both clusters are built first (two engines in one process),
// then each cost is timed in rounds taken in turn (1,000, 100,000, 100,000, 1,000, ...: bench/alternate.ts),
// so load that comes and goes moves both sides alike; a ratio is the median of the per-round ratios.
import type { Row } from './run.js';
import { alternate, median, middleHalf, perRoundRatios, spread } from './alternate.js';
import { importBundled, textCaller } from './bundled.js';
import { heapUsed } from './heap.js';

const { createApiServer, createMemoryStorage, systemEnv } = await importBundled<typeof import('./engine-entry.js')>('bench/engine-entry.ts');


const NAMESPACES = 10;

function configMap(i: number): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `cm-${String(i).padStart(6, '0')}`, labels: { app: `app-${i % 20}`, shard: String(i % 10) } },
    data: { key: `value-${i}`, other: 'x'.repeat(100) },
  };
}

async function cluster(n: number) {
  const api = createApiServer({ storage: createMemoryStorage(), env: systemEnv(), host: 'test' });
  await api.ready;
  const call = textCaller(api);
  for (let k = 0; k < NAMESPACES; k++) await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `ns-${k}` } });
  let stored = 0;
  for (let i = 0; i < n; i++) {
    const text = await call('POST', `/api/v1/namespaces/ns-${i % NAMESPACES}/configmaps`, configMap(i));
    stored += text.length;
  }
  return { n, api, call, stored };
}

export interface ScaleOptions {
  small?: number;
  large?: number;
  /** Rounds kept per cost (one more warms up, three for chunks), and calls per cluster and round: by default 15 rounds of 2
   *  chunks and 10 rounds of 40 gets and of 40 writes (the sample counts the rows' names give). */
  chunkRounds?: number;
  chunksPerRound?: number;
  requestRounds?: number;
  requestsPerRound?: number;
}

export interface ScaleCost {
  /** Median of the per-round p50s, ms. */
  smallMs: number;
  largeMs: number;
  /** Median of the per-round ratios large / small, their middle half and their range. */
  ratio: number;
  middle: string;
  spread: string;
  rounds: number;
}

export interface ScaleResult {
  chunk: ScaleCost;
  get: ScaleCost;
  write: ScaleCost;
  create: ScaleCost;
  firstPage: ScaleCost;
  /** The heap the large cluster added (after a full GC), and the JSON its creates answered with. */
  heapBytes: number;
  storedJsonBytes: number;
}

export async function scale(opts: ScaleOptions = {}): Promise<ScaleResult> {
  // the small cluster first: building it also warms the engine up
  const small = await cluster(opts.small ?? 1_000);
  const before = heapUsed();
  const large = await cluster(opts.large ?? 100_000);
  const heapBytes = heapUsed() - before; // the large cluster alone
  const clusters = { small, large };
  const SIDES = ['small', 'large'] as const;
  const cost = (p50s: Record<'small' | 'large', number[]>): ScaleCost => {
    const ratios = perRoundRatios(p50s.small, p50s.large);
    return { smallMs: median(p50s.small), largeMs: median(p50s.large), ratio: median(ratios), middle: middleHalf(ratios), spread: spread(ratios), rounds: ratios.length };
  };
  // a chunk of 500 from the middle of the cluster-wide list: the continue token of a first page of 250 or
  // 500, asked for (untimed) just before each chunk, as a client paging does; nothing before has listed,
  // so three rounds warm the list path up
  let token = '';
  const firstPage = async (s: string, n: number) => {
    const first = JSON.parse(await clusters[s as 'small' | 'large'].call('GET', `/api/v1/configmaps?limit=${n % 2 ? 500 : 250}`)) as { metadata: { continue?: string } };
    token = encodeURIComponent(first.metadata.continue ?? '');
  };
  const chunk = cost(await alternate(SIDES, { rounds: opts.chunkRounds ?? 15, perRound: opts.chunksPerRound ?? 2, warmupRounds: 3, untimed: firstPage }, (s) => clusters[s].call('GET', `/api/v1/configmaps?limit=500&continue=${token}`)));
  const path = (s: 'small' | 'large', n: number) => {
    const i = (n * 7919) % clusters[s].n;
    return `/api/v1/namespaces/ns-${i % NAMESPACES}/configmaps/cm-${String(i).padStart(6, '0')}`;
  };
  const each = { rounds: opts.requestRounds ?? 10, perRound: opts.requestsPerRound ?? 40 };
  const get = cost(await alternate(SIDES, each, (s, n) => clusters[s].call('GET', path(s, n))));
  const write = cost(await alternate(SIDES, each, (s, n) => clusters[s].call('PATCH', path(s, n), { metadata: { labels: { touched: String(n) } } }, 'application/merge-patch+json')));
  // the first page of a cluster-wide list right after a write (untimed): no snapshot of the revision exists,
  // as in a cluster that moves, so the page is read from the index itself
  const touch = (s: string, n: number) => clusters[s as 'small' | 'large'].call('PATCH', path(s as 'small' | 'large', n), { metadata: { labels: { paged: String(n) } } }, 'application/merge-patch+json');
  const afterWrite = cost(await alternate(SIDES, { ...each, untimed: touch }, (s) => clusters[s].call('GET', '/api/v1/configmaps?limit=500')));
  // a create whose name sorts before every stored one of its namespace: its key goes in front of the
  // namespace's range, where a sorted array of keys would move every later key (after the heap was read)
  let created = 0;
  const create = cost(await alternate(SIDES, each, (s) => clusters[s].call('POST', `/api/v1/namespaces/ns-${created % NAMESPACES}/configmaps`, { ...configMap(created), metadata: { name: `a-${String(created++).padStart(6, '0')}` } })));
  for (const s of SIDES) await clusters[s].api.close();
  return { chunk, get, write, create, firstPage: afterWrite, heapBytes, storedJsonBytes: large.stored };
}

export function scaleRows(r: ScaleResult): Row[] {
  const note = (c: ScaleCost) => `${c.ratio.toFixed(2)}x of the 1,000-object figure (${c.smallMs.toFixed(3)} ms); median of ${c.rounds} per-round ratios, middle half ${c.middle}, all ${c.spread}`;
  const mem = r.heapBytes / r.storedJsonBytes;
  return [
    { name: 'scale: limit=500 chunk at 100,000 objects (p50 of 30)', p50Ms: r.chunk.largeMs, target: '<= 1.5x of 1,000 objects', met: r.chunk.ratio <= 1.5, note: note(r.chunk) },
    { name: 'scale: get at 100,000 objects (p50 of 400)', p50Ms: r.get.largeMs, target: '<= 1.5x of 1,000 objects', met: r.get.ratio <= 1.5, note: note(r.get) },
    { name: 'scale: merge-patch write at 100,000 objects (p50 of 400)', p50Ms: r.write.largeMs, target: '<= 1.5x of 1,000 objects', met: r.write.ratio <= 1.5, note: note(r.write) },
    { name: 'scale: create at 100,000 objects (p50 of 400)', p50Ms: r.create.largeMs, target: '<= 1.5x of 1,000 objects', met: r.create.ratio <= 1.5, note: note(r.create) },
    { name: 'scale: limit=500 first page right after a write at 100,000 objects (p50 of 400)', p50Ms: r.firstPage.largeMs, target: '<= 1.5x of 1,000 objects', met: r.firstPage.ratio <= 1.5, note: note(r.firstPage) },
    {
      name: 'scale: engine heap at 100,000 objects / stored JSON',
      target: '< 3x',
      met: mem < 3,
      note: `${mem.toFixed(2)}x (${(r.heapBytes / 2 ** 20).toFixed(0)} MiB heap for ${(r.storedJsonBytes / 2 ** 20).toFixed(0)} MiB of JSON as served, history included)`,
    },
  ];
}

export async function bench(): Promise<Row[]> {
  return scaleRows(await scale());
}
