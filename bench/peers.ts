// Peers measured beside us in the same process on the same work (issue 17 item 1), so that a ratio holds on a
// noisy machine: @ngrok/webernetes (its in-process client) for Namespace create/get/list/update/patch, and
// @marcbachmann/cel-js and @bufbuild/cel for CEL compile and evaluate over a set of rules of the kind real
// CRDs and admission policies carry. Peers are dev dependencies only; the engine never imports them.
//
// Rounds alternate between the implementations (ours, then each peer, then ours again...) and each figure is
// the median of its rounds, so a burst of machine noise lands on every column alike.
import { mkdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { build } from 'esbuild';
import type { Schema } from '../src/engine/schema/types.js';
import { median } from './run.js';
import { importBundled, textCaller } from './bundled.js';

// our engine as it ships (bundled, as the peers are), not as tsx runs TypeScript (see bench/bundled.ts)
const { createApiServer, createMemoryStorage, systemEnv, createCelEnv, isCompileError, isRuntimeError, schemaToCelType, serveCaller } =
  await importBundled<typeof import('./engine-entry.js')>('bench/engine-entry.ts');

/** One row of a peer table: our p50 and each peer's (undefined: the peer cannot do this work). */
export interface PeerRow {
  work: string;
  ours: number;
  peers: Record<string, number | undefined>;
  /** Why a peer has no figure, by peer. */
  why?: Record<string, string>;
  /**
   * ours / peer as the median of per-round ratios, by peer (when the rows were taken in rounds): a burst of
   * load that lands on one round moves that round's ratio only. Without it the table divides the medians.
   */
  ratios?: Record<string, number>;
}

export interface PeerTable {
  suite: string;
  unit: 'ms' | 'µs';
  peerNames: string[];
  rows: PeerRow[];
  notes: string[];
}

// ---------------------------------------------------------------------------------------------------------
// API: our engine through its own entry serve() (the body as JSON text in, the answer read as text) against
// webernetes' client; one more row of ours through handle() (a fetch Request in, a Response read to the end).

interface Api {
  create(name: string): Promise<void>;
  get(name: string): Promise<void>;
  list(): Promise<number>;
  update(name: string, round: number): Promise<void>;
  patch(name: string, round: number): Promise<void>;
  apply?(name: string, round: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Our engine; `alone`: without its controllers (the API server alone). With them, as the engine ships for this
 * host, its default controllers (namespace controller, garbage collector, quota and policy-status
 * controllers) read every write's watch event on the same thread. Both write a new Namespace's
 * kube-root-ca.crt ConfigMap (the API server's own publisher); neither makes its default ServiceAccount (that
 * controller runs with the bootstrap RBAC policy, in the browser hosts).
 */
async function ourApi(entry: 'serve' | 'handle' = 'serve', alone = false): Promise<Api> {
  // the controllers start at once and are given a moment to list: the default start is a timer of 1 s, which
  // never fires while the timed loops run (memory storage answers in microtasks only), so without this
  // wait the rows "with controllers" ran without them
  const api = createApiServer({ storage: createMemoryStorage(), env: systemEnv(), host: 'test', ...(alone ? { controllers: [] } : { controllerStartDelayMs: 0 }) });
  await api.ready;
  if (!alone) await new Promise((r) => setTimeout(r, 500));
  const call = entry === 'serve' ? serveCaller(api) : textCaller(api);
  return {
    create: async (name) => void (await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { app: 'bench' } } })),
    get: async (name) => void (await call('GET', `/api/v1/namespaces/${name}`)),
    list: async () => (JSON.parse(await call('GET', '/api/v1/namespaces')) as { items: unknown[] }).items.length,
    update: async (name, round) => {
      const cur = JSON.parse(await call('GET', `/api/v1/namespaces/${name}`)) as { metadata: { labels?: Record<string, string> } };
      cur.metadata.labels = { ...cur.metadata.labels, round: String(round) };
      await call('PUT', `/api/v1/namespaces/${name}`, cur);
    },
    patch: async (name, round) => void (await call('PATCH', `/api/v1/namespaces/${name}`, { metadata: { labels: { patched: String(round) } } }, 'application/merge-patch+json')),
    apply: async (name, round) =>
      void (await call('PATCH', `/api/v1/namespaces/${name}?fieldManager=bench`, { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { applied: String(round) } } }, 'application/apply-patch+yaml')),
    close: () => api.close(),
  };
}

/** webernetes ships extensionless ESM imports (made for bundlers): bundle it once for Node. */
async function loadWebernetes(): Promise<Record<string, unknown>> {
  const dir = resolve('node_modules/.cache/bench-peers');
  mkdirSync(dir, { recursive: true });
  const outfile = resolve(dir, 'webernetes.mjs');
  await build({ entryPoints: ['@ngrok/webernetes'], bundle: true, format: 'esm', platform: 'node', outfile, logLevel: 'silent' });
  return (await import(pathToFileURL(outfile).href)) as Record<string, unknown>;
}

interface WebernetesCore {
  createNamespace(r: { body: unknown }): Promise<unknown>;
  readNamespace(r: { name: string }): Promise<{ metadata: { labels?: Record<string, string> } }>;
  listNamespace(r: object): Promise<{ items: unknown[] }>;
  replaceNamespace(r: { name: string; body: unknown }): Promise<unknown>;
  patchNamespace(r: { name: string; body: unknown; fieldManager?: string }, o?: unknown): Promise<unknown>;
}

async function webernetesApi(): Promise<Api> {
  const mod = await loadWebernetes();
  const Cluster = mod.Cluster as new () => { init(): Promise<void>; close?(): Promise<void>; api: { corev1: WebernetesCore } };
  const cluster = new Cluster();
  await cluster.init();
  const c = cluster.api.corev1;
  return {
    create: async (name) => void (await c.createNamespace({ body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { app: 'bench' } } } })),
    get: async (name) => void (await c.readNamespace({ name })),
    list: async () => (await c.listNamespace({})).items.length,
    update: async (name, round) => {
      const cur = await c.readNamespace({ name });
      cur.metadata.labels = { ...cur.metadata.labels, round: String(round) };
      await c.replaceNamespace({ name, body: cur });
    },
    patch: async (name, round) => void (await c.patchNamespace({ name, body: { metadata: { labels: { patched: String(round) } } } }, { headers: { 'Content-Type': 'application/merge-patch+json' } })),
    // no apply: its patch answers 415 to application/apply-patch+yaml
    close: async () => void (await cluster.close?.()),
  };
}

async function timeEach(n: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    xs.push(performance.now() - t);
  }
  return median(xs);
}

async function apiTable(): Promise<PeerTable> {
  const impls: Record<string, Api> = { ours: await ourApi() };
  const notes: string[] = [];
  const why: Record<string, string> = {};
  try {
    impls.webernetes = await webernetesApi();
  } catch (e) {
    notes.push(`webernetes not measured: ${(e as Error).message.split('\n')[0]}`);
  }
  const names = Object.keys(impls);
  // Warm every implementation's code up first, on an instance of its own (the measured ones keep their
  // object counts): V8 keeps optimizing our write path for thousands of requests (BENCHMARKS.md,
  // perf-create6), and a figure taken while one side is still cold compares compilers, not work.
  const WARM = 2000;
  const fresh: Record<string, () => Promise<Api>> = { ours: () => ourApi(), webernetes: webernetesApi };
  for (const impl of names) {
    const w = await fresh[impl]();
    for (let i = 0; i < WARM; i++) {
      const nm = `warm-${i}`;
      await w.create(nm);
      await w.get(nm);
      await w.update(nm, 0);
      await w.patch(nm, 0);
      if (w.apply) await w.apply(nm, 0);
    }
    await w.close();
  }
  const ROUNDS = 5;
  const PER = 200; // objects per round and implementation
  const samples: Record<string, Record<string, number[]>> = {};
  const add = (work: string, impl: string, v: number) => (((samples[work] ??= {})[impl] ??= []).push(v));
  // ours through handle(), and ours without controllers, each in an engine of its own (their namespaces do
  // not grow the other's list); their rows are set against the peer's figure for the same work
  const viaHandle = await ourApi('handle');
  const HANDLE_ROWS = ['create Namespace', 'get Namespace'];
  const apart = await ourApi('serve', true);
  const ALONE = ' (ours, the API server alone: no controllers)';
  const HANDLE = ' (ours through handle())';
  for (let round = 0; round < ROUNDS; round++) {
    for (const impl of names) {
      const api = impls[impl];
      const nm = (i: number) => `bench-${round}-${i}`;
      add('create Namespace', impl, await timeEach(PER, (i) => api.create(nm(i))));
      add('get Namespace', impl, await timeEach(PER, (i) => api.get(nm(i))));
      add('update Namespace (get + put, label change)', impl, await timeEach(PER, (i) => api.update(nm(i), round)));
      add('merge patch Namespace (label change)', impl, await timeEach(PER, (i) => api.patch(nm(i), round)));
      if (api.apply) add('server-side apply Namespace (label change)', impl, await timeEach(PER, (i) => api.apply!(nm(i), round)));
      else why.webernetes = 'answers 415 to application/apply-patch+yaml';
      add(`list all Namespaces (~${(round + 1) * PER})`, impl, await timeEach(3, () => api.list()));
      if (impl === 'ours') {
        add(`${HANDLE_ROWS[0]}${HANDLE}`, 'ours', await timeEach(PER, (i) => viaHandle.create(nm(i))));
        add(`${HANDLE_ROWS[1]}${HANDLE}`, 'ours', await timeEach(PER, (i) => viaHandle.get(nm(i))));
        add(`create Namespace${ALONE}`, 'ours', await timeEach(PER, (i) => apart.create(nm(i))));
        add(`update Namespace (get + put, label change)${ALONE}`, 'ours', await timeEach(PER, (i) => apart.update(nm(i), round)));
        add(`merge patch Namespace (label change)${ALONE}`, 'ours', await timeEach(PER, (i) => apart.patch(nm(i), round)));
      }
    }
  }
  for (const api of Object.values(impls)) await api.close();
  await viaHandle.close();
  await apart.close();
  const rows: PeerRow[] = [];
  for (const [work, byImpl] of Object.entries(samples)) {
    if (work.startsWith('list all')) continue;
    const suffix = [HANDLE, ALONE].find((x) => work.endsWith(x));
    const peerSamples = suffix ? samples[work.slice(0, -suffix.length)] : byImpl;
    const peers: Record<string, number | undefined> = {};
    for (const p of names.slice(1)) peers[p] = peerSamples[p] ? median(peerSamples[p]) : undefined;
    rows.push({ work, ours: median(byImpl.ours), peers, ...(Object.values(peers).some((v) => v === undefined) ? { why } : {}) });
  }
  // lists grow round by round: the last round's list (ROUNDS * PER objects), same size for every implementation
  const lastList = `list all Namespaces (~${ROUNDS * PER})`;
  const lp: Record<string, number | undefined> = {};
  for (const p of names.slice(1)) lp[p] = samples[lastList][p]?.at(-1);
  rows.push({ work: `list ${ROUNDS * PER} Namespaces (one request)`, ours: samples[lastList].ours.at(-1)!, peers: lp });
  notes.push(
    `Each figure (after ${WARM} warm-up objects per implementation, each created, read, updated and patched, in an instance of its own): the median over ${ROUNDS} alternating rounds of the per-round p50 (${PER} objects each). Ours goes through the engine's entry serve() (the request body given as JSON text and parsed, the response body serialized and read as text: serialization is counted, Node's fetch Request/Response objects are not); the rows marked 'through handle()' go through the public fetch entry (a Request parsed, a Response built and read) to keep that cost visible; webernetes is called through its in-process typed client (no serialization). On the list row most of ours is the client's JSON.parse of the answer (about 0.5 MB for 1,000 Namespaces), which the peer's objects need not; the server's own part of a list of 1,000 is the row 'node memory: list 1001 small ConfigMaps' of the main table. Both run as bundled JavaScript (ours bundled by esbuild for the run).`,
    `Not the same work on every row: our Namespace create also writes the namespace's kube-root-ca.crt ConfigMap (one more write, as a real cluster's root-CA publisher does); webernetes serves no ConfigMaps. As the engine ships, its controllers (namespace controller, garbage collector, quota and policy-status controllers) read every write's watch event on the same thread; webernetes runs its own control-plane pods during the run, of which its namespace controller's informer reads each Namespace event. The rows marked 'the API server alone' run our engine without its controllers. Every write of ours also records managedFields (server-side apply's field ownership), which webernetes' objects do not carry, and runs admission, validation of the whole ObjectMeta and the request's decode and type checks, which its typed client and stores do not (BENCHMARKS.md, perf-api8: without the root-CA write and managedFields our create and update take about 0.54x and 0.67x of their time).`,
  );
  return { suite: 'API (Namespaces, in-process, memory storage)', unit: 'ms', peerNames: names.slice(1), rows, notes };
}

// ---------------------------------------------------------------------------------------------------------
// CEL: the same rules and data in three evaluators. Rules written here in the shapes real CRDs and admission
// policies use (our own expressions, not copied from any project).

export interface Rule {
  name: string;
  expr: string;
  /** The variable the rule reads ('self' for CRD rules, 'object' for policies). */
  variable: 'self' | 'object';
}

export const RULES: Rule[] = [
  { name: 'replicas within bound', variable: 'self', expr: 'self.spec.replicas <= self.spec.maxReplicas' },
  { name: 'every image from the registry', variable: 'self', expr: "self.spec.containers.all(c, c.image.startsWith('registry.example/'))" },
  { name: 'unique container names', variable: 'self', expr: 'self.spec.containers.all(c, self.spec.containers.exists_one(d, d.name == c.name))' },
  { name: 'optional field guarded', variable: 'self', expr: "!has(self.spec.paused) || self.spec.paused == false || self.spec.replicas == 0" },
  { name: 'min below max', variable: 'self', expr: 'self.spec.minReplicas <= self.spec.replicas && self.spec.replicas <= self.spec.maxReplicas' },
  { name: 'label present and matches', variable: 'object', expr: "has(object.metadata.labels) && 'app' in object.metadata.labels && object.metadata.labels['app'].matches('^[a-z][a-z0-9-]*$')" },
  { name: 'no latest tag', variable: 'object', expr: "object.spec.containers.all(c, !c.image.endsWith(':latest'))" },
  { name: 'ports in range', variable: 'object', expr: 'object.spec.containers.all(c, !has(c.ports) || c.ports.all(p, p.containerPort > 0 && p.containerPort < 65536))' },
  { name: 'count of sidecars', variable: 'object', expr: "object.spec.containers.filter(c, c.name.startsWith('sidecar')).size() <= 2" },
  { name: 'names mapped and joined size', variable: 'object', expr: 'object.spec.containers.map(c, c.name).size() == size(object.spec.containers)' },
  { name: 'string size limit', variable: 'self', expr: 'size(self.spec.description) <= 256' },
  { name: 'enum membership', variable: 'self', expr: "self.spec.strategy in ['RollingUpdate', 'Recreate']" },
];

const CONTAINER_SCHEMA: Schema = {
  type: 'object',
  properties: {
    name: { type: 'string', maxLength: 63 },
    image: { type: 'string', maxLength: 256 },
    ports: { type: 'array', maxItems: 16, items: { type: 'object', properties: { containerPort: { type: 'integer' } } } },
  },
};

export const SCHEMA: Schema = {
  type: 'object',
  properties: {
    metadata: { type: 'object', properties: { name: { type: 'string' }, labels: { type: 'object', additionalProperties: { type: 'string', maxLength: 63 }, maxProperties: 64 } } },
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer' },
        minReplicas: { type: 'integer' },
        maxReplicas: { type: 'integer' },
        paused: { type: 'boolean' },
        description: { type: 'string', maxLength: 1024 },
        strategy: { type: 'string', maxLength: 32 },
        containers: { type: 'array', maxItems: 20, items: CONTAINER_SCHEMA },
      },
    },
  },
};

export const DATA = {
  metadata: { name: 'web', labels: { app: 'web-frontend', tier: 'frontend' } },
  spec: {
    replicas: 3,
    minReplicas: 1,
    maxReplicas: 5,
    paused: false,
    description: 'a small web deployment used by the benchmark',
    strategy: 'RollingUpdate',
    containers: Array.from({ length: 10 }, (_, i) => ({ name: i < 2 ? `sidecar-${i}` : `c${i}`, image: `registry.example/app-${i}:1.${i}`, ports: [{ containerPort: 8000 + i }] })),
  },
};

interface CelImpl {
  /** Compile (parse + check where the library checks); returns an evaluate function over the plain JSON data. */
  compile(rule: Rule): (data: unknown) => unknown;
}

function ourCel(): CelImpl {
  // a CRD rule sees `self` as a resource root (metadata: name and generateName only); a policy sees `object` whole
  const envs = {
    self: createCelEnv({ variables: { self: schemaToCelType(SCHEMA, {}, { resourceRoot: true })! } }),
    object: createCelEnv({ variables: { object: schemaToCelType(SCHEMA, {}, { resourceRoot: false })! } }),
  };
  return {
    compile(rule) {
      const p = envs[rule.variable].compile(rule.expr);
      if (isCompileError(p)) throw new Error(p.formatted);
      return (data) => {
        const r = p.evaluateJson({ [rule.variable]: data });
        if (isRuntimeError(r)) throw new Error(String(r.message ?? 'runtime error'));
        return r.value;
      };
    },
  };
}

/** JSON integers become the peers' CEL ints (bigint) where the schema says integer, as a Kubernetes server does. */
function intsToBigint(v: unknown, schema: Schema | undefined): unknown {
  if (schema?.type === 'integer' && typeof v === 'number') return BigInt(v);
  if (Array.isArray(v)) return v.map((x) => intsToBigint(x, schema?.items as Schema | undefined));
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = intsToBigint(x, (schema?.properties?.[k] as Schema | undefined) ?? (schema?.additionalProperties as Schema | undefined));
    return out;
  }
  return v;
}

async function marcbachmannCel(): Promise<CelImpl> {
  const mod = (await import('@marcbachmann/cel-js')) as unknown as { parse(e: string): ((ctx: object) => unknown) & { check?: () => unknown } };
  return {
    compile(rule) {
      const fn = mod.parse(rule.expr);
      return (data) => fn({ [rule.variable]: data });
    },
  };
}

/**
 * The same library type-checking at compile (its Environment with the variable declared as a map: it has no
 * schema types, so fields check as dyn), as ours always does: the like-for-like figure for compile + check.
 */
async function marcbachmannCheckedCel(): Promise<CelImpl> {
  type Parsed = ((ctx: object) => unknown) & { check(): { valid: boolean; error?: Error } };
  const mod = (await import('@marcbachmann/cel-js')) as unknown as {
    Environment: new () => { registerVariable(name: string, type: string): unknown; parse(e: string): Parsed };
  };
  const env = new mod.Environment();
  env.registerVariable('self', 'map');
  env.registerVariable('object', 'map');
  return {
    compile(rule) {
      const fn = env.parse(rule.expr);
      const checked = fn.check();
      if (!checked.valid) throw new Error(`check failed: ${checked.error?.message}`);
      return (data) => fn({ [rule.variable]: data });
    },
  };
}

async function bufbuildCel(): Promise<CelImpl> {
  const mod = (await import('@bufbuild/cel')) as unknown as {
    celEnv(o?: object): unknown;
    parse(e: string): unknown;
    plan(env: unknown, parsed: unknown): (ctx: object) => unknown;
    isCelError(v: unknown): boolean;
  };
  const env = mod.celEnv();
  return {
    compile(rule) {
      const planned = mod.plan(env, mod.parse(rule.expr));
      return (data) => {
        const r = planned({ [rule.variable]: data });
        if (mod.isCelError(r)) throw new Error(String((r as { message?: string }).message ?? r));
        return r;
      };
    },
  };
}

/** Batches per implementation and CEL row (after one warm-up batch), taken in turn. */
const CEL_ROUNDS = 21;

/** µs per operation over one batch. */
function perOpUs(fn: () => void, batch: number): number {
  const t = performance.now();
  for (let i = 0; i < batch; i++) fn();
  return ((performance.now() - t) / batch) * 1000;
}

async function celTable(): Promise<PeerTable> {
  const impls: Record<string, CelImpl> = { ours: ourCel() };
  const notes: string[] = [];
  for (const [name, load] of [['@marcbachmann/cel-js', marcbachmannCel], ['@marcbachmann/cel-js checked', marcbachmannCheckedCel], ['@bufbuild/cel', bufbuildCel]] as const) {
    try {
      impls[name] = await load();
    } catch (e) {
      notes.push(`${name} not measured: ${(e as Error).message.split('\n')[0]}`);
    }
  }
  const names = Object.keys(impls);
  const peerData = intsToBigint(DATA, SCHEMA);
  // warm every implementation's compiler up on every rule first: otherwise the first rule measured pays for
  // the JIT tiers of the whole compile path (it was the worst ratio of the table for that reason alone)
  for (const impl of names) {
    for (const rule of RULES) {
      try {
        for (let i = 0; i < 300; i++) impls[impl].compile(rule)(impl === 'ours' ? DATA : peerData);
      } catch {
        break; // reported by the measurement below
      }
    }
  }
  const rows: PeerRow[] = [];
  for (const rule of RULES) {
    for (const phase of ['evaluate', 'compile + evaluate'] as const) {
      const values: Record<string, number | undefined> = {};
      const why: Record<string, string> = {};
      // one warm-up batch each, then ROUNDS batches per implementation, taken in turn, so that a burst of
      // machine load lands on every column of a round alike; the ratio is the median of per-round ratios
      const work: Record<string, () => void> = {};
      for (const impl of names) {
        const data = impl === 'ours' ? DATA : peerData;
        try {
          const evaluate = impls[impl].compile(rule);
          const result = evaluate(data);
          if (result !== true) throw new Error(`answered ${String(result)}, not true`);
          work[impl] = phase === 'evaluate' ? () => void evaluate(data) : () => void impls[impl].compile(rule)(data);
        } catch (e) {
          values[impl] = undefined;
          why[impl] = (e as Error).message.split('\n')[0].slice(0, 120);
        }
      }
      const batch = phase === 'evaluate' ? 1000 : 100;
      const batches: Record<string, number[]> = {};
      for (let r = 0; r <= CEL_ROUNDS; r++) {
        for (const impl of Object.keys(work)) {
          const us = perOpUs(work[impl], batch);
          if (r > 0) (batches[impl] ??= []).push(us);
        }
      }
      for (const impl of Object.keys(work)) values[impl] = median(batches[impl]);
      if (values.ours === undefined) throw new Error(`our CEL failed on ${rule.name}: ${why.ours}`);
      const peers = Object.fromEntries(names.slice(1).map((p) => [p, values[p]]));
      const ratios = Object.fromEntries(
        names.slice(1).filter((p) => batches[p]).map((p) => [p, median(batches.ours.map((o, i) => o / batches[p][i]))]),
      );
      rows.push({ work: `${phase}: ${rule.name}`, ours: values.ours, peers, ratios, ...(Object.keys(why).length ? { why } : {}) });
    }
  }
  notes.push(
    `Each rule evaluated over the same 10-container object (true for every rule); ours type-checks against the object schema at compile, as the API server does. µs per operation, median of ${CEL_ROUNDS} batches taken in turn with the peers (after 300 compilations of every rule by every implementation and one warm-up batch each); each ratio is the median of the ${CEL_ROUNDS} per-round ratios, not the ratio of the medians.`,
    "The peers get the object with integer fields as bigint (CEL ints), ours reads JSON numbers with the schema's types.",
    "'@marcbachmann/cel-js checked': the same library through its Environment, type-checking each expression at compile (`parse` then `check`, variables declared as `map`), the like-for-like peer of our compile (parse, type check against the schema, AST validators, closures); the plain column parses only (it checks dynamically at the first evaluation). Environments are made once, outside the timing, for every implementation.",
  );
  return { suite: 'CEL (rules of CRD and policy shape)', unit: 'µs', peerNames: names.slice(1), rows, notes };
}

export async function peerTables(): Promise<PeerTable[]> {
  return [await apiTable(), await celTable()];
}

/** One table alone: `npx tsx bench/peers.ts cel` or `npx tsx bench/peers.ts api`. */
if (process.argv[1]?.endsWith('peers.ts') && (process.argv[2] === 'cel' || process.argv[2] === 'api')) {
  process.stdout.write(peerMarkdown([process.argv[2] === 'cel' ? await celTable() : await apiTable()]));
  process.exit(0);
}

function fmt(n: number | undefined): string {
  if (n === undefined) return '';
  return n < 0.1 ? n.toFixed(4) : n < 10 ? n.toFixed(3) : n.toFixed(1);
}

/** Markdown: one table per suite, our figure, each peer's, and ours/peer (below 1: we are faster). */
export function peerMarkdown(tables: PeerTable[]): string {
  const out: string[] = [];
  for (const t of tables) {
    out.push(`### ${t.suite} (${t.unit}, p50)`, '');
    const head = ['work', 'ours', ...t.peerNames.flatMap((p) => [p, `ours / ${p}`])];
    out.push(`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`);
    for (const r of t.rows) {
      const cells = [r.work, fmt(r.ours)];
      for (const p of t.peerNames) {
        const v = r.peers[p];
        cells.push(v === undefined ? `n/a${r.why?.[p] ? ` (${r.why[p]})` : ''}` : fmt(v));
        cells.push(v === undefined ? '' : (() => {
          const ratio = r.ratios?.[p] ?? r.ours / v;
          const s = `${ratio.toFixed(2)}x`;
          return ratio > 1 ? `**${s}**` : s;
        })());
      }
      out.push(`| ${cells.join(' | ')} |`);
    }
    out.push('', ...t.notes.map((n) => `- ${n}`), '');
  }
  return out.join('\n');
}
