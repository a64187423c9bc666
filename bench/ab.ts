// A/B of two builds of the engine in one process, so that a before/after ratio holds on a loaded machine:
// this tree's engine (bundled as it ships, bench/bundled.ts) against another build of bench/engine-entry.ts.
// Both sides are set up first, then timed in rounds taken in turn (bench/alternate.ts).
//   npx tsx bench/ab.ts <before.mjs | --build <git-ref>> [requests] [serve] [writes] [cel]
//       [--after <after.mjs>] [--rounds N] [--per-round N] [--only <text in a row's name>] [--controllers]
// Suites (all when none is named):
//   requests  create, get, update (get + put) and merge patch of a ConfigMap, list of 100: 8 rounds of 150
//             requests per side; each figure the median of the per-round p50s;
//   serve     the same rows through the engine's own entry serve() instead of handle(); with
//             `--rounds 5000 --per-round 1` single requests are interleaved as in the writes suite (each figure
//             then the median of every request, with the p25 beside it): a build against itself reads 1.00x
//             that way, where rounds of 150-300 requests swing by 3-7% on a shared machine;
//   writes    the rows of bench/writes.ts (apply, strategic merge patch): requests interleaved one by one
//             (before, after, after, before, ...: rounds of one request, 2,000 per side after 50 of warm-up),
//             so a burst of load falls on both sides (against itself 1.00-1.01x, where rounds of 100 gave
//             0.86-1.24x); the median and the p25 of every request's time;
//   cel       compile + evaluate of the peer rules of bench/peers.ts: 15 rounds of 100 per side, after both
//             sides compiled every rule (rules in turn) as many times as peers.ts' warm-up does.
// `--controllers` runs both engines with their default controllers (namespace controller, garbage collector,
// quota and policy-status controllers, as the node rows and the peers' API table do), started at once and
// given a moment to list before the rounds: each write's watch event is then read by their informers on the
// same thread. The requests and serve suites then also time Namespace create and update (the peers' rows).
// Without it the engines run `controllers: []`, the API server alone.
// `--build <git-ref>` extracts that commit (git archive) into the system's temp directory and bundles its
// bench/engine-entry.ts as this tree's is bundled (kept there and reused for the same commit), e.g.
//   npx tsx bench/ab.ts --build main writes
// A build made by hand works as well:
//   npx esbuild <tree>/bench/engine-entry.ts --bundle --format=esm --platform=node --outfile=/tmp/before.mjs
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { alternate, median, perRoundRatios, quantile, spread, type RoundOptions } from './alternate.js';
import { importBundled, textCaller } from './bundled.js';

export type Entry = typeof import('./engine-entry.js');
type Side = 'before' | 'after';
const SIDES: readonly Side[] = ['before', 'after'];

export interface AbRow {
  suite: string;
  name: string;
  /** Median of the per-round p50s, µs. */
  beforeUs: number;
  afterUs: number;
  /** afterUs / beforeUs. */
  ratio: number;
  /** The smallest and largest per-round ratio (suites with rounds of more than one request). */
  rounds?: string;
  /** after / before of the p25s (the writes suite, whose rounds are single requests). */
  p25?: number;
}

/** Set by --controllers: the engines run their default controllers. */
let withControllers = false;

async function engine(e: Entry) {
  // by default no controller manager: its informers would add their own work to the timed loops
  const api = e.createApiServer({ storage: e.createMemoryStorage(), env: e.systemEnv(), host: 'test', ...(withControllers ? { controllerStartDelayMs: 0 } : { controllers: [] }) });
  await api.ready;
  // the controllers start on a timer of 0 ms and list every collection they watch: let them settle first
  if (withControllers) await new Promise((r) => setTimeout(r, 500));
  return api;
}

function row(suite: string, name: string, p50s: Record<Side, number[]>, perRound: number): AbRow {
  const b = median(p50s.before) * 1000;
  const a = median(p50s.after) * 1000;
  return {
    suite,
    name,
    beforeUs: b,
    afterUs: a,
    ratio: a / b,
    ...(perRound > 1 ? { rounds: spread(perRoundRatios(p50s.before, p50s.after)) } : { p25: quantile(p50s.after, 0.25) / quantile(p50s.before, 0.25) }),
  };
}

type Call = ReturnType<typeof textCaller>;
const cm = (name: string, v: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { app: 'bench' } }, data: { key: v, other: 'x'.repeat(100) } });
const CM = '/api/v1/namespaces/default/configmaps';
const REQUESTS: Record<string, { setup?: (call: Call) => Promise<unknown>; run: (call: Call, n: number) => Promise<unknown> }> = {
  'create ConfigMap': { run: (call, n) => call('POST', CM, cm(`c-${n}`, String(n))) },
  'get ConfigMap': { setup: (call) => call('POST', CM, cm('g', '1')), run: (call) => call('GET', `${CM}/g`) },
  'update ConfigMap (get + put)': {
    setup: (call) => call('POST', CM, cm('u', '1')),
    run: async (call, n) => {
      const cur = JSON.parse(await call('GET', `${CM}/u`));
      cur.data.key = String(n);
      await call('PUT', `${CM}/u`, cur);
    },
  },
  'merge patch ConfigMap': { setup: (call) => call('POST', CM, cm('p', '1')), run: (call, n) => call('PATCH', `${CM}/p`, { data: { key: String(n) } }, 'application/merge-patch+json') },
  'create Namespace (--controllers only)': { run: (call, n) => call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `n-${n}` } }) },
  'update Namespace (get + put) (--controllers only)': {
    setup: (call) => call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'u' } }),
    run: async (call, n) => {
      const cur = JSON.parse(await call('GET', '/api/v1/namespaces/u'));
      cur.metadata.labels = { round: String(n) };
      await call('PUT', '/api/v1/namespaces/u', cur);
    },
  },
  // an owned object (a simulated cluster's pods, its ReplicaSets): the garbage collector reads each change of it
  'merge patch owned ConfigMap (--controllers only)': {
    setup: async (call) => {
      const owner = JSON.parse(await call('POST', CM, cm('owner', '1')));
      await call('POST', CM, { ...cm('owned', '1'), metadata: { name: 'owned', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid }] } });
    },
    run: (call, n) => call('PATCH', `${CM}/owned`, { data: { key: String(n) } }, 'application/merge-patch+json'),
  },
  'list 100 ConfigMaps': {
    setup: async (call) => {
      for (let i = 0; i < 100; i++) await call('POST', CM, cm(`l-${i}`, String(i)));
    },
    run: (call) => call('GET', CM),
  },
};

const DEP = '/apis/apps/v1/namespaces/default/deployments/bench';
const CM_APPLY = '/api/v1/namespaces/default/configmaps/bench?fieldManager=owner';
const APPLY = 'application/apply-patch+yaml';
const deployment = (image: string) => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'bench', labels: { app: 'bench' } },
  spec: { replicas: 3, selector: { matchLabels: { app: 'bench' } }, template: { metadata: { labels: { app: 'bench' } }, spec: { containers: ['web', 'sidecar', 'metrics'].map((name, i) => ({ name, image: i === 0 ? image : `registry.example.com/${name}:1.0`, ports: [{ containerPort: 8080 + i, name: `p-${name}` }], env: [{ name: 'MODE', value: name }], resources: { requests: { cpu: '100m', memory: '64Mi' } } })) } } },
});
const configMap = (v: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bench', labels: { round: v } }, data: { k: 'v' } });
type Patch = (path: string, contentType: string, body: unknown, expect: number) => Promise<void>;
const WRITES: Record<string, { setup: (c: Patch) => Promise<void>; run: (c: Patch, n: number) => Promise<void> }> = {
  'apply ConfigMap, label change': { setup: (c) => c(CM_APPLY, APPLY, configMap('a'), 201), run: (c, n) => c(CM_APPLY, APPLY, configMap(String(n % 2)), 200) },
  'apply Deployment (3 containers), no-op': { setup: (c) => c(`${DEP}?fieldManager=owner`, APPLY, deployment('nginx:1'), 201), run: (c) => c(`${DEP}?fieldManager=owner`, APPLY, deployment('nginx:1'), 200) },
  'apply Deployment (3 containers), value change': { setup: (c) => c(`${DEP}?fieldManager=owner`, APPLY, deployment('nginx:1'), 201), run: (c, n) => c(`${DEP}?fieldManager=owner`, APPLY, deployment(`nginx:${2 + (n % 2)}`), 200) },
  'apply Deployment (3 containers), conflict 409': {
    setup: (c) => c(`${DEP}?fieldManager=owner`, APPLY, deployment('nginx:1'), 201),
    run: (c) => c(`${DEP}?fieldManager=other`, APPLY, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'bench' }, spec: { replicas: 7 } }, 409),
  },
  'strategic merge patch Deployment (image)': {
    setup: (c) => c(`${DEP}?fieldManager=owner`, APPLY, deployment('nginx:1'), 201),
    run: (c, n) => c(DEP, 'application/strategic-merge-patch+json', { spec: { template: { spec: { containers: [{ name: 'web', image: `nginx:${4 + (n % 2)}` }] } } } }, 200),
  },
};

function patcher(api: Awaited<ReturnType<typeof engine>>): Patch {
  return async (path, contentType, body, expect) => {
    const r = await api.handle(new Request(`http://bench${path}`, { method: 'PATCH', body: JSON.stringify(body), headers: { 'Content-Type': contentType, 'User-Agent': 'bench/1' } }));
    await r.arrayBuffer();
    if (r.status !== expect) throw new Error(`${path}: expected ${expect}, got ${r.status}`);
  };
}

function celSide(e: Entry, peers: typeof import('./peers.js')) {
  const envs = {
    self: e.createCelEnv({ variables: { self: e.schemaToCelType(peers.SCHEMA, {}, { resourceRoot: true })! } }),
    object: e.createCelEnv({ variables: { object: e.schemaToCelType(peers.SCHEMA, {}, { resourceRoot: false })! } }),
  };
  return (expr: string, v: 'self' | 'object') => {
    const p = envs[v].compile(expr);
    if (e.isCompileError(p)) throw new Error(p.formatted);
    const r = p.evaluateJson({ [v]: peers.DATA });
    if (e.isRuntimeError(r) || r.value !== true) throw new Error(`${expr}: not true`);
  };
}

interface Suite {
  defaults: RoundOptions;
  run(before: Entry, after: Entry, opts: RoundOptions, keep: (name: string) => boolean): AsyncGenerator<AbRow>;
}

/** The requests rows, each side called through `caller` (handle() or the engine's own entry serve()). */
async function* requestRows(suite: string, before: Entry, after: Entry, opts: RoundOptions, keep: (name: string) => boolean, caller: (e: Entry, api: Awaited<ReturnType<typeof engine>>) => Call) {
  const entries = { before, after };
  for (const [name, w] of Object.entries(REQUESTS)) {
    if (!keep(name) || (name.endsWith('(--controllers only)') && !withControllers)) continue;
    const apis = { before: await engine(before), after: await engine(after) };
    const calls = { before: caller(entries.before, apis.before), after: caller(entries.after, apis.after) };
    for (const s of SIDES) await w.setup?.(calls[s]);
    yield row(suite, name, await alternate(SIDES, opts, (s, n) => w.run(calls[s], n)), opts.perRound);
    for (const s of SIDES) await apis[s].close();
  }
}

export const SUITES: Record<string, Suite> = {
  requests: {
    defaults: { rounds: 8, perRound: 150 },
    run: (before, after, opts, keep) => requestRows('requests', before, after, opts, keep, (_e, api) => textCaller(api)),
  },
  // the same rows through the engine's own entry serve() (EngineRequest in, the answer read as text), as the
  // Node host and the peers' table call it: without the fetch Request/Response objects that dominate handle()
  serve: {
    defaults: { rounds: 8, perRound: 150 },
    run: (before, after, opts, keep) => requestRows('serve', before, after, opts, keep, (e, api) => e.serveCaller(api)),
  },
  writes: {
    defaults: { rounds: 2000, perRound: 1, warmupRounds: 50 },
    async *run(before, after, opts, keep) {
      for (const [name, w] of Object.entries(WRITES)) {
        if (!keep(name)) continue;
        const apis = { before: await engine(before), after: await engine(after) };
        const calls = { before: patcher(apis.before), after: patcher(apis.after) };
        for (const s of SIDES) await w.setup(calls[s]);
        yield row('writes', name, await alternate(SIDES, opts, (s, n) => w.run(calls[s], n)), opts.perRound);
        for (const s of SIDES) await apis[s].close();
      }
    },
  },
  cel: {
    defaults: { rounds: 15, perRound: 100 },
    async *run(before, after, opts, keep) {
      const peers = await import('./peers.js');
      const sides = { before: celSide(before, peers), after: celSide(after, peers) };
      // both sides compiled on every rule first, the rules in turn, as bench/peers.ts does before its table:
      // without it the first rows timed compile paths still being optimized (a build against itself read
      // 0.79x-1.12x, replicas at 8 µs where a warmed process takes 1.6; BENCHMARKS.md, perf-cel11)
      for (let i = 0; i < peers.CEL_WARM_UP; i++) for (const s of SIDES) for (const rule of peers.RULES) sides[s](rule.expr, rule.variable);
      for (const rule of peers.RULES) {
        const name = `compile + evaluate: ${rule.name}`;
        if (!keep(name)) continue;
        yield row('cel', name, await alternate(SIDES, opts, (s) => sides[s](rule.expr, rule.variable)), opts.perRound);
      }
    },
  },
};

/** One suite's rows as they are measured, `before` against `after`; `opts` overrides the suite's round counts. */
export function abRows(suite: string, before: Entry, after: Entry, opts: Partial<RoundOptions> = {}, only?: string): AsyncGenerator<AbRow> {
  const s = SUITES[suite];
  if (!s) throw new Error(`no suite ${suite} (suites: ${Object.keys(SUITES).join(', ')})`);
  return s.run(before, after, { ...s.defaults, ...opts }, (name) => !only || name.includes(only));
}

/** One suite's rows (see abRows). */
export async function abSuite(suite: string, before: Entry, after: Entry, opts: Partial<RoundOptions> = {}, only?: string): Promise<AbRow[]> {
  const rows: AbRow[] = [];
  for await (const r of abRows(suite, before, after, opts, only)) rows.push(r);
  return rows;
}

/** Extracts `ref` into the temp directory and bundles its bench/engine-entry.ts there; returns the bundle. */
export async function buildRef(ref: string): Promise<string> {
  const sha = execFileSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], { encoding: 'utf8' }).trim();
  const dir = join(tmpdir(), `bench-ab-${sha.slice(0, 12)}`);
  const outfile = join(dir, 'engine-entry.mjs');
  if (existsSync(outfile)) return outfile;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `git archive --format=tar ${sha} | tar -x -C "${dir}"`]);
  // the bundle imports its packages (as this tree's does): from this tree's node_modules
  symlinkSync(realpathSync('node_modules'), join(dir, 'node_modules'));
  await build({ entryPoints: [join(dir, 'bench/engine-entry.ts')], bundle: true, format: 'esm', platform: 'node', target: 'es2022', outfile, logLevel: 'silent', packages: 'external' });
  return outfile;
}

const fmtUs = (v: number) => (v < 100 ? v.toFixed(1) : v.toFixed(0));

export function formatRow(r: AbRow): string {
  const extra = r.rounds !== undefined ? `per round ${r.rounds}` : `p25 ${r.p25!.toFixed(2)}x`;
  return `${r.suite}: ${r.name}: before ${fmtUs(r.beforeUs)} µs, after ${fmtUs(r.afterUs)} µs, after/before ${r.ratio.toFixed(2)}x (${extra})`;
}

async function main(argv: string[]): Promise<void> {
  const flags = new Map<string, string>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--controllers') flags.set(argv[i], '');
    else if (argv[i].startsWith('--')) flags.set(argv[i], argv[++i]);
    else positional.push(argv[i]);
  }
  const load = (f: string) => import(pathToFileURL(resolve(f)).href) as Promise<Entry>;
  const ref = flags.get('--build');
  const beforeFile = ref !== undefined ? await buildRef(ref) : positional.shift();
  if (!beforeFile) throw new Error('usage: npx tsx bench/ab.ts <before.mjs | --build <git-ref>> [requests] [serve] [writes] [cel] [--after after.mjs] [--rounds N] [--per-round N] [--only text] [--controllers]');
  const before = await load(beforeFile);
  const after = flags.has('--after') ? await load(flags.get('--after')!) : await importBundled<Entry>('bench/engine-entry.ts');
  const opts: Partial<RoundOptions> = {};
  if (flags.has('--rounds')) opts.rounds = Number(flags.get('--rounds'));
  if (flags.has('--per-round')) opts.perRound = Number(flags.get('--per-round'));
  withControllers = flags.has('--controllers');
  console.log(`before: ${beforeFile}${ref !== undefined ? ` (${ref})` : ''}; after: ${flags.get('--after') ?? 'this tree'}${withControllers ? '; default controllers' : ''}`);
  for (const suite of positional.length ? positional : Object.keys(SUITES)) {
    const ratios: number[] = [];
    for await (const r of abRows(suite, before, after, opts, flags.get('--only'))) {
      console.log(formatRow(r));
      ratios.push(r.ratio);
    }
    if (ratios.length > 1) console.log(`${suite}: after/before ${spread(ratios)}, median ${median(ratios).toFixed(2)}x`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await main(process.argv.slice(2));
  process.exit(0);
}
