// Peers measured beside us in one run on the same work (issue 17 item 1), so that a ratio holds on a noisy
// machine: @ngrok/webernetes (its in-process client) for Namespace create/get/list/update/patch, and
// @marcbachmann/cel-js and @bufbuild/cel for CEL compile and evaluate over a set of rules of the kind real
// CRDs and admission policies carry. Peers are dev dependencies only; the engine never imports them.
//
// Rounds alternate between the implementations (ours, then each peer, then ours again...) and each figure is
// the median of its rounds, so a burst of machine noise lands on every column alike. The CEL evaluators run
// in this process; each API server instance runs in a process of its own (see apiTable).
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { build } from 'esbuild';
import type { Schema } from '../src/engine/schema/types.js';
import { median } from './run.js';
import { importBundled, textCaller } from './bundled.js';

// our engine as it ships (bundled, as the peers are), not as tsx runs TypeScript (see bench/bundled.ts); loaded
// when first used (the processes of the API table that run webernetes never load it)
const engine = () => importBundled<typeof import('./engine-entry.js')>('bench/engine-entry.ts');

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
// webernetes' client; more rows of ours through handle() (a fetch Request in, a Response read to the end) and
// of both API servers without their controllers.
//
// Each measured instance runs in a process of its own (API_SIDES), and the parent process takes the rounds in
// turn, one side at a time. In one process the instances shared a heap: every major collection marked all of
// them, and one side's garbage was collected in the other's time. Each process warms its code up on the
// instance it measures: a fresh engine's closures start cold (V8 keeps their feedback and optimized code per
// closure), so a warm-up on another instance left our first rounds up to 1.3x slower (BENCHMARKS.md,
// bench-peers).

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
  const { createApiServer, createMemoryStorage, systemEnv, serveCaller } = await engine();
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
let webernetesModule: Promise<Record<string, unknown>> | undefined;
function loadWebernetes(): Promise<Record<string, unknown>> {
  return (webernetesModule ??= (async () => {
    const dir = resolve('node_modules/.cache/bench-peers');
    mkdirSync(dir, { recursive: true });
    const outfile = resolve(dir, 'webernetes.mjs');
    await build({ entryPoints: ['@ngrok/webernetes'], bundle: true, format: 'esm', platform: 'node', outfile, logLevel: 'silent' });
    return (await import(pathToFileURL(outfile).href)) as Record<string, unknown>;
  })());
}

interface WebernetesCore {
  createNamespace(r: { body: unknown }): Promise<unknown>;
  readNamespace(r: { name: string }): Promise<{ metadata: { labels?: Record<string, string> } }>;
  listNamespace(r: object): Promise<{ items: unknown[] }>;
  listNamespacedPod(r: { namespace: string }): Promise<{ items: { status?: { phase?: string } }[] }>;
  replaceNamespace(r: { name: string; body: unknown }): Promise<unknown>;
  patchNamespace(r: { name: string; body: unknown; fieldManager?: string }, o?: unknown): Promise<unknown>;
}

/** How long webernetes' control-plane pods are given to reach Running. */
const CONTROL_PLANE_WAIT_MS = 20_000;

/**
 * webernetes; `controlPlane`: its control-plane pods running (scheduler, namespace controller, deployment and
 * replica-set controllers, garbage collector, endpoint-slice controller, kube-proxy, coredns), as the
 * cluster ships. They start on timers after `init()` (the kubelets pull and start their containers), so a
 * harness that never yields to the event loop measures the peer without them; this waits until every one is
 * Running. Without: the nodes' kubelets are not booted, so those pods never run (its etcd, stores and
 * typed client only, the peer's API server alone).
 */
async function webernetesApi(controlPlane = true): Promise<Api> {
  const mod = await loadWebernetes();
  const Cluster = mod.Cluster as new () => { init(): Promise<void>; close?(): Promise<void>; servers: { boot(ctx: unknown): Promise<void> }[]; api: { corev1: WebernetesCore } };
  const cluster = new Cluster();
  if (!controlPlane) for (const server of cluster.servers) server.boot = async () => {};
  await cluster.init();
  const c = cluster.api.corev1;
  if (controlPlane) {
    const until = performance.now() + CONTROL_PLANE_WAIT_MS;
    for (;;) {
      const pods = (await c.listNamespacedPod({ namespace: 'kube-system' })).items;
      const running = pods.filter((p) => p.status?.phase === 'Running').length;
      if (pods.length > 0 && running === pods.length) break;
      if (performance.now() > until) throw new Error(`its control-plane pods not running after ${CONTROL_PLANE_WAIT_MS / 1000} s (${running} of ${pods.length})`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
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

type ApiWork = 'create' | 'get' | 'update' | 'patch' | 'apply' | 'list';

/** One measured instance of the API table; each runs in a process of its own. */
interface ApiSide {
  id: string;
  impl: 'ours' | 'webernetes';
  /** Ours: through serve() or handle(). */
  entry?: 'serve' | 'handle';
  /** Ours: its default controllers running; webernetes: its control-plane pods running. */
  controllers: boolean;
  /** Its work in each round, in this order. */
  work: ApiWork[];
}

export const API_SIDES: ApiSide[] = [
  { id: 'ours', impl: 'ours', entry: 'serve', controllers: true, work: ['create', 'get', 'update', 'patch', 'apply', 'list'] },
  { id: 'webernetes', impl: 'webernetes', controllers: true, work: ['create', 'get', 'update', 'patch', 'list'] },
  { id: 'ours through handle()', impl: 'ours', entry: 'handle', controllers: true, work: ['create', 'get'] },
  { id: 'ours alone', impl: 'ours', entry: 'serve', controllers: false, work: ['create', 'update', 'patch'] },
  { id: 'webernetes alone', impl: 'webernetes', controllers: false, work: ['create', 'update', 'patch'] },
];

/** Warm-up objects per side, each created, read, updated and patched (and applied), on the measured instance. */
const API_WARM = 2000;
const API_ROUNDS = 5;
/** Objects per round and side. */
const API_PER = 200;

function openSide(side: ApiSide): Promise<Api> {
  return side.impl === 'ours' ? ourApi(side.entry, !side.controllers) : webernetesApi(side.controllers);
}

type SideMessage = { round: number } | { close: true };
type SideReply = { ready: true } | { round: number; p50: Partial<Record<ApiWork, number>> } | { error: string };

/** The child process of one side: warm up, open the measured instance, then one round per message. */
async function serveApiSide(id: string, { warm, per }: { warm: number; per: number }): Promise<void> {
  const send = (m: SideReply) => new Promise<void>((r) => process.send!(m, () => r()));
  const side = API_SIDES.find((s) => s.id === id);
  try {
    if (!side) throw new Error(`no side ${id}`);
    // V8 keeps optimizing our write path for thousands of requests (BENCHMARKS.md, perf-create6), and a figure
    // taken while one side is still cold compares compilers, not work; every side keeps its warm-up objects
    const api = await openSide(side);
    for (let i = 0; i < warm; i++) {
      const nm = `warm-${i}`;
      await api.create(nm);
      await api.get(nm);
      await api.update(nm, 0);
      await api.patch(nm, 0);
      if (api.apply) await api.apply(nm, 0);
    }
    process.on('message', (m: SideMessage) => {
      void (async () => {
        if ('close' in m) {
          await api.close();
          process.exit(0);
        }
        const nm = (i: number) => `bench-${m.round}-${i}`;
        const p50: Partial<Record<ApiWork, number>> = {};
        for (const work of side.work) {
          if (work === 'create') p50.create = await timeEach(per, (i) => api.create(nm(i)));
          else if (work === 'get') p50.get = await timeEach(per, (i) => api.get(nm(i)));
          else if (work === 'update') p50.update = await timeEach(per, (i) => api.update(nm(i), m.round));
          else if (work === 'patch') p50.patch = await timeEach(per, (i) => api.patch(nm(i), m.round));
          else if (work === 'apply' && api.apply) p50.apply = await timeEach(per, (i) => api.apply!(nm(i), m.round));
          else if (work === 'list') p50.list = await timeEach(3, () => api.list());
        }
        await send({ round: m.round, p50 });
      })().catch((e: Error) => send({ error: e.message.split('\n')[0] }));
    });
    await send({ ready: true });
  } catch (e) {
    await send({ error: (e as Error).message.split('\n')[0] });
    process.exit(1);
  }
}

/** A side's process seen from the parent: one message out, its one reply back. */
class SideProcess {
  private next?: { resolve: (r: SideReply) => void; reject: (e: Error) => void };
  private constructor(private readonly child: ChildProcess) {
    child.on('message', (m: SideReply) => {
      const n = this.next;
      this.next = undefined;
      n?.resolve(m);
    });
    child.on('exit', (code) => this.next?.reject(new Error(`exited with ${code}`)));
  }

  /** Starts the side's process and waits until it has warmed up and opened its measured instance. */
  static async start(side: ApiSide, sizes: { warm: number; per: number }): Promise<SideProcess> {
    // the same loader flags as this process when it runs under tsx; tsx's loader otherwise (under vitest), no
    // stdin, its output on ours
    const execArgv = process.execArgv.some((a) => a.includes('tsx')) ? process.execArgv : ['--import', 'tsx'];
    const p = new SideProcess(fork(fileURLToPath(import.meta.url), ['--api-side', side.id, JSON.stringify(sizes)], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
    const r = await p.reply();
    if ('error' in r) throw new Error(r.error);
    return p;
  }

  private reply(): Promise<SideReply> {
    return new Promise((resolve, reject) => (this.next = { resolve, reject }));
  }

  async round(round: number): Promise<Partial<Record<ApiWork, number>>> {
    const r = this.reply();
    this.child.send({ round } satisfies SideMessage);
    const m = await r;
    if ('error' in m) throw new Error(m.error);
    if (!('round' in m) || m.round !== round) throw new Error(`round ${round}: unexpected answer`);
    return m.p50;
  }

  close(): Promise<void> {
    return new Promise((r) => {
      if (this.child.exitCode !== null) return r();
      this.child.once('exit', () => r());
      this.child.send({ close: true } satisfies SideMessage);
    });
  }
}

export interface ApiTableOptions {
  /** Warm-up objects per side (default API_WARM). */
  warm?: number;
  rounds?: number;
  /** Objects per round and side. */
  per?: number;
}

export async function apiTable({ warm = API_WARM, rounds = API_ROUNDS, per = API_PER }: ApiTableOptions = {}): Promise<PeerTable> {
  const notes: string[] = [];
  const procs = new Map<string, SideProcess>();
  // one process after the other: a side warms up alone on the machine (the others, already warm, wait)
  for (const side of API_SIDES) {
    try {
      procs.set(side.id, await SideProcess.start(side, { warm, per }));
    } catch (e) {
      if (side.impl === 'ours') throw new Error(`${side.id}: ${(e as Error).message}`);
      notes.push(`${side.id} not measured: ${(e as Error).message}`);
    }
  }
  // by work, side: the per-round p50 in ms, in round order
  const samples: Partial<Record<ApiWork, Record<string, number[]>>> = {};
  const ids = [...procs.keys()];
  try {
    for (let round = 0; round < rounds; round++) {
      // sides in turn, the order reversed every other round
      for (const id of round % 2 ? [...ids].reverse() : ids) {
        const p50 = await procs.get(id)!.round(round);
        for (const [work, v] of Object.entries(p50) as [ApiWork, number][]) ((samples[work] ??= {})[id] ??= []).push(v);
      }
    }
  } finally {
    for (const p of procs.values()) await p.close();
  }
  const apply415 = 'answers 415 to application/apply-patch+yaml';
  const row = (work: string, w: ApiWork, ours: string, peer: string): PeerRow => {
    const o = samples[w]![ours];
    const p = samples[w]?.[peer];
    if (!p) return { work, ours: median(o), peers: { webernetes: undefined }, why: { webernetes: w === 'apply' ? apply415 : 'not measured' } };
    return { work, ours: median(o), peers: { webernetes: median(p) }, ratios: { webernetes: median(o.map((x, r) => x / p[r])) } };
  };
  const HANDLE = ' (ours through handle())';
  const ALONE = ' (both API servers alone: ours without controllers, webernetes without its control-plane pods)';
  const rows: PeerRow[] = [
    row('create Namespace', 'create', 'ours', 'webernetes'),
    row('get Namespace', 'get', 'ours', 'webernetes'),
    row('update Namespace (get + put, label change)', 'update', 'ours', 'webernetes'),
    row('merge patch Namespace (label change)', 'patch', 'ours', 'webernetes'),
    row('server-side apply Namespace (label change)', 'apply', 'ours', 'webernetes'),
    row(`create Namespace${HANDLE}`, 'create', 'ours through handle()', 'webernetes'),
    row(`get Namespace${HANDLE}`, 'get', 'ours through handle()', 'webernetes'),
    row(`create Namespace${ALONE}`, 'create', 'ours alone', 'webernetes alone'),
    row(`update Namespace (get + put, label change)${ALONE}`, 'update', 'ours alone', 'webernetes alone'),
    row(`merge patch Namespace (label change)${ALONE}`, 'patch', 'ours alone', 'webernetes alone'),
  ];
  // lists grow round by round (the warm-up's objects and every round's so far), the same size on both sides in
  // a round: figure and ratio over the rounds, as on the other rows (one list of the last round swung 3-5x)
  rows.push(row(`list all Namespaces, ${warm + per} to ${warm + rounds * per} (one request)`, 'list', 'ours', 'webernetes'));
  notes.push(
    `How it is measured: each instance in a process of its own (ours through serve() with its controllers; webernetes with its control-plane pods; ours through handle(); both API servers without their controllers), so that no side's garbage is collected in another's time; each process first warms its code up with ${warm} objects (each created, read, updated and patched) on the instance it then measures, which keeps them. Then the processes take ${rounds} rounds in turn, one at a time, the order reversed every other round, ${per} objects per round and side. A figure is the median of the per-round p50s, a ratio the median of the per-round ratios; on the list row (3 lists per round and side) the list grows round by round, the same size on both sides in each round.`,
    `webernetes' control-plane pods (scheduler, namespace controller, deployment, replica-set and endpoint-slice controllers, garbage collector, kube-proxy, coredns) start on timers after its init: its measured instance is timed only once every one is Running (a harness that never lets the event loop turn measures it without them, and its create then reads 16-18 µs instead of 23-25: BENCHMARKS.md, bench-peers). In the rows of both API servers alone, its nodes' kubelets are not booted, so those pods never run: its etcd, stores and typed client only, set against our engine without its controllers.`,
    `Ours goes through the engine's entry serve() (the request body given as JSON text and parsed, the response body serialized and read as text: serialization is counted, Node's fetch Request/Response objects are not); the rows marked 'through handle()' go through the public fetch entry (a Request parsed, a Response built and read) to keep that cost visible; webernetes is called through its in-process typed client (no serialization). On the list row most of ours is the client's JSON.parse of the answer, which the peer's objects need not; the server's own part of a list of 1,000 objects is the row 'node memory: list 1001 small ConfigMaps' of the main table. Both run as bundled JavaScript (ours bundled by esbuild for the run).`,
    `Not the same work on every row: our Namespace create also writes the namespace's kube-root-ca.crt ConfigMap (one more write, as a real cluster's root-CA publisher does); webernetes serves no ConfigMaps. As the engine ships, its controllers (namespace controller, garbage collector, quota and policy-status controllers) read every write's watch event on the same thread; of webernetes' control-plane pods, its namespace controller's informer reads each Namespace event. Every write of ours also records managedFields (server-side apply's field ownership), which webernetes' objects do not carry, and runs admission, validation of the whole ObjectMeta and the request's decode and type checks, which its typed client and stores do not (BENCHMARKS.md, perf-api8: without the root-CA write and managedFields our create and update take about 0.54x and 0.67x of their time).`,
  );
  return { suite: 'API (Namespaces, in-process, memory storage)', unit: 'ms', peerNames: ['webernetes'], rows, notes };
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

async function ourCel(): Promise<CelImpl> {
  const { createCelEnv, isCompileError, isRuntimeError, schemaToCelType } = await engine();
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
/** Compilations (each evaluated once) of every rule by every implementation before the first row, rules in turn. */
export const CEL_WARM_UP = 1000;

/** µs per operation over one batch. */
function perOpUs(fn: () => void, batch: number): number {
  const t = performance.now();
  for (let i = 0; i < batch; i++) fn();
  return ((performance.now() - t) / batch) * 1000;
}

/** How the CEL table is taken; the defaults are the table's (the smoke test in npm test takes it small). */
export interface CelTableOptions {
  rounds?: number;
  warmUp?: number;
  /** Operations per timed batch: evaluate, compile + evaluate. */
  batches?: { evaluate: number; compile: number };
}

export async function celTable({ rounds = CEL_ROUNDS, warmUp = CEL_WARM_UP, batches: sizes = { evaluate: 1000, compile: 100 } }: CelTableOptions = {}): Promise<PeerTable> {
  const impls: Record<string, CelImpl> = { ours: await ourCel() };
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
  // the JIT tiers of the whole compile path (it was the worst ratio of the table for that reason alone). The
  // rules are taken in turn, not one rule 300 times then the next: warmed rule by rule, each new rule's shapes
  // deoptimized code optimized on the rules before it, and the first rows were measured while the compile
  // paths of both sides were still being optimized again (BENCHMARKS.md, perf-cel11)
  const failed = new Set<string>();
  for (let i = 0; i < warmUp; i++) {
    for (const impl of names) {
      for (const rule of RULES) {
        const key = `${impl}\0${rule.name}`;
        if (failed.has(key)) continue;
        try {
          impls[impl].compile(rule)(impl === 'ours' ? DATA : peerData);
        } catch {
          failed.add(key); // reported by the measurement below
        }
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
      const batch = phase === 'evaluate' ? sizes.evaluate : sizes.compile;
      const batches: Record<string, number[]> = {};
      for (let r = 0; r <= rounds; r++) {
        for (const impl of Object.keys(work)) {
          // each timed batch follows an untimed one of its own: no side is timed right after another
          // library's batch (its garbage, its code and data in the caches), which is what the order of the
          // columns otherwise decides (ours came after @bufbuild/cel's, the checked column after the plain
          // one of the same library: BENCHMARKS.md, perf-cel11)
          perOpUs(work[impl], batch);
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
    `Each rule evaluated over the same 10-container object (true for every rule); ours type-checks against the object schema at compile, as the API server does. µs per operation, median of ${rounds} batches taken in turn with the peers (after ${warmUp} compilations of every rule by every implementation, the rules in turn, and one warm-up batch each); each timed batch follows an untimed batch of the same implementation, so that none is timed right after another library's; each ratio is the median of the ${rounds} per-round ratios, not the ratio of the medians.`,
    "The peers get the object with integer fields as bigint (CEL ints), ours reads JSON numbers with the schema's types.",
    "'@marcbachmann/cel-js checked': the same library through its Environment, type-checking each expression at compile (`parse` then `check`, variables declared as `map`), the like-for-like peer of our compile (parse, type check against the schema, AST validators, closures); the plain column parses only (it checks dynamically at the first evaluation). Environments are made once, outside the timing, for every implementation.",
  );
  return { suite: 'CEL (rules of CRD and policy shape)', unit: 'µs', peerNames: names.slice(1), rows, notes };
}

export async function peerTables(): Promise<PeerTable[]> {
  return [await apiTable(), await celTable()];
}

/** One table alone: `npx tsx bench/peers.ts cel` or `npx tsx bench/peers.ts api`. */
if (process.argv[1]?.endsWith('peers.ts') && process.argv[2] === '--api-side') {
  await serveApiSide(process.argv[3], JSON.parse(process.argv[4]) as { warm: number; per: number });
} else if (process.argv[1]?.endsWith('peers.ts') && (process.argv[2] === 'cel' || process.argv[2] === 'api')) {
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
