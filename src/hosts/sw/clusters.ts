// Cluster routing shared by the two browser hosts (the service worker and the in-page fallback):
// `<app base>clusters/<cluster>/...` goes to that cluster's engine. Every cluster is one engine over its own
// IndexedDB database, created on first use and kept for the life of the host (docs/hosts.md 1). The engine
// keeps everything that matters in IndexedDB, so a host that is stopped and started again only has to
// recreate the engine.
//
// Several engines can serve one database at once: the service worker and in-page engines of other tabs
// (`?engine=page`, or browsers without service workers, where every tab runs its own). IndexedDB
// serialises their writes, but each engine answers reads from its in-memory view, which does not see the
// others' writes. So the hosts keep each other coherent over a BroadcastChannel: an engine announces
// itself and its commits; an engine that learns of a newer revision than its own is retired (its watches
// end, and clients resume from their last resourceVersion, as after a worker restart) and the next
// request starts a fresh one from the database. Once a peer is known, every request also compares the
// database's revision with the engine's before it is served.
import type { Storage } from '../../engine/storage/interface.js';
import { createApiServer, type ApiServer } from '../../engine/server.js';
import { badRequest, internalError, type StatusError } from '../../engine/errors.js';
import { goJsonText } from '../../engine/codec/go-format.js';
import { systemEnv } from '../../adapters/system-env.js';
import { isRequestJournal, openIdbStorage, type RequestJournal } from '../../adapters/idb/idb-storage.js';
import { readClusterSettings, SETTINGS_CHANGED_HEADER } from '../../adapters/idb/cluster-settings.js';
import { IDEMPOTENCY_KEY_HEADER, idempotentWrite, isWriteMethod, recordable, replay, writeMatches, type IdempotentWrite } from './idempotency.js';
import { clusterDatabaseName } from '../../adapters/idb/cluster-database.js';
import { workerResponse } from './worker-response.js';

/** Cluster names are DNS labels, so they are safe in URLs and database names. */
export const CLUSTER_NAME_PATTERN = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

export const DEFAULT_CLUSTER = 'default';

export { clusterDatabaseName };

export interface ClusterRoute {
  cluster: string;
  /** URL path prefix the engine serves under, e.g. `/clusters/default` (or `/app/clusters/default`). */
  basePath: string;
}

/**
 * The cluster a URL addresses, when it lies under `<appBase>clusters/<cluster>` (exactly, or followed by
 * `/`); `undefined` for every other URL (those go to the network). `appBase` is the app's base URL, i.e. the
 * service worker's scope, ending in `/`. A path segment that is not a valid cluster name yields
 * `{ cluster, basePath, invalid: true }` so the host can answer with a clear error.
 */
export function routeCluster(url: URL, appBase: URL): (ClusterRoute & { invalid?: true }) | undefined {
  if (url.origin !== appBase.origin) return undefined;
  const prefix = `${appBase.pathname}clusters/`;
  if (!url.pathname.startsWith(prefix)) return undefined;
  const rest = url.pathname.slice(prefix.length);
  const slash = rest.indexOf('/');
  const cluster = slash < 0 ? rest : rest.slice(0, slash);
  if (cluster === '') return undefined;
  const route = { cluster, basePath: `${prefix}${cluster}` };
  return CLUSTER_NAME_PATTERN.test(cluster) ? route : { ...route, invalid: true };
}

export type BrowserHost = 'service-worker' | 'page';

/** The BroadcastChannel name the browser hosts use to keep their engines coherent. */
export const ENGINES_CHANNEL = 'kube-engines';

/** What the hosts need of a BroadcastChannel (injectable for tests). */
export interface PeerChannel {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  close?(): void;
}

type PeerMessage =
  | { type: 'hello' | 'here' | 'settings'; cluster: string; from: string }
  | { type: 'wrote'; cluster: string; revision: number; from: string };

function isPeerMessage(v: unknown): v is PeerMessage {
  if (typeof v !== 'object' || v === null) return false;
  const m = v as Record<string, unknown>;
  if (typeof m.cluster !== 'string' || typeof m.from !== 'string') return false;
  return m.type === 'hello' || m.type === 'here' || m.type === 'settings' || (m.type === 'wrote' && typeof m.revision === 'number');
}

export interface ClusterEnginesOptions {
  host: BrowserHost;
  /**
   * Opens the storage of a cluster (default: IndexedDB database `clusterDatabaseName(cluster)`). `onLost`
   * tells that the storage can no longer be used (e.g. the database was deleted): the engine is dropped and
   * the next request starts a new one.
   */
  openStorage?: (cluster: string, onLost: () => void) => Storage | Promise<Storage>;
  /**
   * Whether a cluster is simulated (workload controllers, scheduler, simulated nodes), read when its engine
   * starts; default: the cluster settings in IndexedDB. A `settings` message on the channel restarts it.
   */
  simulated?: (cluster: string) => boolean | Promise<boolean>;
  /** Channel to the other engines of this origin; default `new BroadcastChannel(ENGINES_CHANNEL)`, null = none. */
  channel?: PeerChannel | null;
}

export interface ClusterEngines {
  /** The ready engine of a cluster, created on first use. */
  engine(route: ClusterRoute): Promise<ApiServer>;
  /** Answers one API request addressed to `route`; never rejects (failures become Status responses). */
  handle(route: ClusterRoute & { invalid?: true }, request: Request): Promise<Response>;
  /** Closes every engine created so far, and the peer channel. */
  closeAll(): Promise<void>;
}

function statusResponse(err: StatusError): Response {
  return new Response(goJsonText(JSON.stringify(err.status)), {
    status: err.status.code,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private', ...err.headers },
  });
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The write requests of a cluster in turn (createClusterEngines' writeTurn). */
interface WriteGate {
  /** The end of the last keyed write's turn (or of the shared turn before it). */
  tail: Promise<unknown>;
  /** Writes without a key served together since the last keyed one: they start after `after`, end by `done`. */
  shared?: { after: Promise<unknown>; done: Promise<unknown> };
}

/** One engine over one storage connection, with what the host tracks about it. */
interface Running {
  server: ApiServer;
  /** The raw storage, to read the database's current revision. */
  storage: Storage;
  /** Newest revision this engine has seen: loaded at start, then its own commits. */
  known: number;
  /** Writes of this engine in progress (the database may be ahead of `known` meanwhile). */
  writing: number;
  /** The same writes, to wait for. */
  pending: Set<Promise<unknown>>;
  /** Set when a commit skipped revisions: another engine wrote in between. */
  stale: boolean;
  /** Requests being handled (a retired engine is closed when the last one is done). */
  inflight: number;
  retired: boolean;
  closed: boolean;
  /**
   * The keyed write request being served (a keyed write request is served alone: writeTurn): its
   * first storage write of the object it addresses is made with writeFor. See idempotency.ts.
   */
  tag?: { write: IdempotentWrite; revision?: number };
}

/** Wraps a storage so that the host sees the revisions the engine loads and commits. */
function observe(inner: Storage, run: Pick<Running, 'known' | 'writing' | 'pending' | 'stale' | 'tag'>, loading: () => boolean, committed: (revision: number) => void): Storage {
  return {
    async revision() {
      const r = await inner.revision();
      if (loading() && r > run.known) run.known = r;
      return r;
    },
    compactedRevision: () => inner.compactedRevision(),
    ...(inner.readAll && {
      async readAll() {
        const all = await inner.readAll!();
        if (loading() && all.revision > run.known) run.known = all.revision;
        return all;
      },
    }),
    get: (key) => inner.get(key),
    list: (prefix) => inner.list(prefix),
    // the early answers' reads (api-server.ts serveEarly): not the engine's state, so `known` stays
    ...(inner.readKeys && { readKeys: (keys: string[]) => inner.readKeys!(keys) }),
    write(ops, time) {
      run.writing++;
      const done = (async () => {
        const tag = run.tag;
        const forRequest = tag && tag.revision === undefined && isRequestJournal(inner) && writeMatches(tag.write, ops);
        const result = forRequest ? await (inner as Storage & RequestJournal).writeFor(tag.write, ops, time) : await inner.write(ops, time);
        if (forRequest && result.ok && result.events.length > 0) tag.revision = result.revision;
        if (result.ok && result.events.length > 0) {
          if (result.revision !== run.known + 1) run.stale = true;
          if (result.revision > run.known) run.known = result.revision;
          committed(result.revision);
        }
        return result;
      })();
      const settled = done.finally(() => {
        run.writing--;
        run.pending.delete(settled);
      });
      run.pending.add(settled);
      return settled;
    },
    events: (after) => inner.events(after),
    compact: (beforeTime) => inner.compact(beforeTime),
    close: () => inner.close(),
  };
}

function defaultChannel(): PeerChannel | null {
  const BC = (globalThis as { BroadcastChannel?: new (name: string) => PeerChannel }).BroadcastChannel;
  return BC ? new BC(ENGINES_CHANNEL) : null;
}

function hostId(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  return c?.randomUUID ? c.randomUUID() : `${Date.now()}-${Math.random()}`;
}

export function createClusterEngines(options: ClusterEnginesOptions): ClusterEngines {
  const openStorage =
    options.openStorage ??
    ((cluster: string, onLost: () => void) => openIdbStorage({ name: clusterDatabaseName(cluster), onClose: onLost }));
  const channel = options.channel === undefined ? defaultChannel() : options.channel;
  const self = hostId();
  /** Engines by cluster name: starting or running. */
  const engines = new Map<string, Promise<Running>>();
  /** Engines that have started, by cluster name (for synchronous access from channel messages). */
  const running = new Map<string, Running>();
  /** Engines being started, by cluster name: the engine once created, before it is ready (early answers). */
  const starting = new Map<string, Promise<Running | undefined>>();
  /** Clusters another engine of this origin has been seen serving. */
  const peers = new Set<string>();

  function post(message: PeerMessage): void {
    try {
      channel?.postMessage(message);
    } catch {
      // a closed channel: nothing to tell
    }
  }

  function closeWhenIdle(run: Running): void {
    if (run.inflight > 0 || run.closed) return;
    run.closed = true;
    void run.server.close().catch(() => undefined);
  }

  /** Takes the cluster's engine out of service; the next request starts a new one. */
  function retire(cluster: string, run: Running): void {
    if (run.retired) return;
    run.retired = true;
    if (running.get(cluster) === run) {
      running.delete(cluster);
      engines.delete(cluster);
    }
    closeWhenIdle(run);
  }

  channel?.addEventListener('message', (event) => {
    const m = event.data;
    if (!isPeerMessage(m) || m.from === self) return;
    if (m.type === 'settings') {
      // the cluster's settings changed (the simulation switch): the next request starts a new engine
      const current = running.get(m.cluster);
      if (current) retire(m.cluster, current);
      return;
    }
    peers.add(m.cluster);
    if (m.type === 'hello' && engines.has(m.cluster)) post({ type: 'here', cluster: m.cluster, from: self });
    const run = running.get(m.cluster);
    if (m.type === 'wrote' && run && m.revision > run.known) retire(m.cluster, run);
  });

  async function start(route: ClusterRoute, lost: () => void, created: (run: Running) => void): Promise<Running> {
    const raw = await openStorage(route.cluster, lost);
    const tracked: Pick<Running, 'known' | 'writing' | 'pending' | 'stale' | 'tag'> = { known: 0, writing: 0, pending: new Set(), stale: false };
    let loading = true;
    const storage = observe(raw, tracked, () => loading, (revision) => {
      post({ type: 'wrote', cluster: route.cluster, revision, from: self });
    });
    const settings = options.simulated ? { simulated: await options.simulated(route.cluster) } : await readClusterSettings(route.cluster);
    const workloads = settings.simulated ? { controllers: settings.controllers ?? ('all' as const) } : undefined;
    const server = createApiServer({ storage, env: systemEnv(), basePath: route.basePath, host: options.host, workloads });
    const run: Running = Object.assign(tracked, { server, storage: raw, inflight: 0, retired: false, closed: false });
    created(run);
    try {
      await server.ready;
    } catch (err) {
      await server.close().catch(() => undefined); // also closes the storage
      throw err;
    }
    loading = false;
    post({ type: 'hello', cluster: route.cluster, from: self });
    return run;
  }

  function engineOf(route: ClusterRoute): Promise<Running> {
    const cluster = route.cluster;
    let pending = engines.get(cluster);
    if (!pending) {
      let made!: (run: Running | undefined) => void;
      const creating = new Promise<Running | undefined>((resolve) => (made = resolve));
      const started: Promise<Running> = start(route, () => {
        void started.then((run) => retire(cluster, run), () => undefined);
      }, made);
      engines.set(cluster, started);
      starting.set(cluster, creating);
      const settled = () => {
        made(undefined); // a start that failed before its engine was created
        if (starting.get(cluster) === creating) starting.delete(cluster);
      };
      started.then(
        (run) => {
          if (engines.get(cluster) === started) running.set(cluster, run);
          settled();
        },
        // A failed start is not cached: the next request tries again.
        () => {
          if (engines.get(cluster) === started) engines.delete(cluster);
          settled();
        },
      );
      pending = started;
    }
    return pending;
  }

  /**
   * Whether the engine holds every revision the database has. Its own writes in flight (the controllers of
   * a simulated cluster write all the time) put the database ahead of `known` until they return, so the
   * revision read is compared once the writes that started before it are done: what the database held
   * then, this engine must know by then, unless another engine wrote.
   */
  async function caughtUp(run: Running): Promise<boolean> {
    const before = [...run.pending];
    let revision: number;
    try {
      revision = await run.storage.revision();
    } catch {
      return false; // the connection is gone
    }
    await Promise.allSettled(before);
    return !run.stale && revision <= run.known;
  }

  /** The engine to serve a request with: a fresh one when the current one missed another engine's writes. */
  async function current(route: ClusterRoute, first?: Promise<Running>): Promise<Running> {
    let run = await (first ?? engineOf(route));
    if (!run.retired && (run.stale || peers.has(route.cluster)) && !(await caughtUp(run))) retire(route.cluster, run);
    if (run.retired) run = await engineOf(route);
    return run;
  }

  /**
   * Per cluster, the turns of write requests. A keyed write (Idempotency-Key) is served alone: after every
   * write request before it, and before any after it, so that the storage write it makes can be told from
   * the others (see idempotency.ts). Writes without a key are served together (between keyed ones): their
   * commits then meet in one storage transaction (group commit, idb-storage.ts).
   */
  const writeGates = new Map<string, WriteGate>();

  function writeTurn<T>(cluster: string, alone: boolean, fn: () => Promise<T>): Promise<T> {
    let gate = writeGates.get(cluster);
    if (!gate) writeGates.set(cluster, (gate = { tail: Promise.resolve() }));
    let run: Promise<T>;
    let end: Promise<unknown>;
    if (alone) {
      run = (gate.shared ? gate.shared.done : gate.tail).then(fn, fn);
      gate.shared = undefined;
      end = gate.tail = run.catch(() => undefined);
    } else {
      const shared = (gate.shared ??= { after: gate.tail, done: gate.tail });
      run = shared.after.then(fn, fn);
      end = shared.done = Promise.all([shared.done, run.catch(() => undefined)]).then(() => undefined);
    }
    const g = gate;
    void end.then(() => {
      if (writeGates.get(cluster) === g && (g.shared ? g.shared.done : g.tail) === end) writeGates.delete(cluster);
    });
    return run;
  }

  async function handle(route: ClusterRoute & { invalid?: true }, request: Request): Promise<Response> {
    if (route.invalid) {
      return statusResponse(
        badRequest(`invalid cluster name "${route.cluster}": must be a lowercase DNS label (${CLUSTER_NAME_PATTERN.source})`),
      );
    }
    if (isWriteMethod(request.method)) {
      const alone = request.headers.has(IDEMPOTENCY_KEY_HEADER) || request.headers.get(SETTINGS_CHANGED_HEADER) === 'true';
      return writeTurn(route.cluster, alone, () => serve(route, request));
    }
    return serve(route, request);
  }

  /**
   * A read that arrives while the cluster's engine starts (a stopped worker woken by it): the engine's
   * early answer if it can give one (api-server.ts serveEarly: a get by name from the object's own record),
   * else undefined and the request waits for the engine as usual. The answer is read from the database
   * when the request comes, so it is as current as any engine of the origin.
   */
  async function early(route: ClusterRoute, request: Request): Promise<Response | undefined> {
    if (isWriteMethod(request.method) || request.headers.get(SETTINGS_CHANGED_HEADER) === 'true') return undefined;
    const run = await starting.get(route.cluster);
    if (!run || run.retired) return undefined;
    run.inflight++;
    try {
      const res = await run.server.serveEarly(request);
      return res && workerResponse(res);
    } catch {
      return undefined;
    } finally {
      run.inflight--;
      if (run.retired) closeWhenIdle(run);
    }
  }

  async function serve(route: ClusterRoute, request: Request): Promise<Response> {
    // the engine this request starts or finds starting (a failed start is answered as below, not retried)
    const first = running.has(route.cluster) ? undefined : engineOf(route);
    if (first) {
      first.catch(() => undefined);
      const answer = await early(route, request);
      if (answer) return answer;
    }
    let run: Running;
    try {
      run = await current(route, first);
      // the page changed this cluster's settings (simulation, controllers): this request, and every later
      // one, goes to an engine started with them
      if (request.headers.get(SETTINGS_CHANGED_HEADER) === 'true') {
        retire(route.cluster, run);
        run = await current(route);
      }
    } catch (err) {
      return statusResponse(internalError(`cluster "${route.cluster}" could not be started: ${messageOf(err)}`));
    }
    run.inflight++;
    try {
      const keyed = isRequestJournal(run.storage) ? idempotentWrite(request, route.basePath) : undefined;
      if (keyed && 'error' in keyed) return statusResponse(badRequest(keyed.error));
      const res = keyed ? await serveOnce(run, run.storage as Storage & RequestJournal, keyed.write, request) : workerResponse(await run.server.serve(request));
      // the cluster's settings changed (PUT /x-playground/settings): they apply on the engine's next start
      if (res.headers.get('X-Playground-Restart') === 'true') retire(route.cluster, run);
      return res;
    } catch (err) {
      return statusResponse(internalError(messageOf(err)));
    } finally {
      run.inflight--;
      if (run.retired) closeWhenIdle(run);
    }
  }

  /** Serves a keyed write, or answers with the outcome recorded for its key. */
  async function serveOnce(run: Running, journal: RequestJournal, write: IdempotentWrite, request: Request): Promise<Response> {
    const prior = await journal.requestRecord(write.id);
    if (prior) {
      if (prior.request !== write.request) {
        return statusResponse(badRequest(`Idempotency-Key "${write.id}" was already used for another request (${prior.request})`));
      }
      return replay(prior, write);
    }
    const tag: NonNullable<Running['tag']> = { write };
    run.tag = tag;
    let res: Response;
    try {
      res = workerResponse(await run.server.serve(request));
    } finally {
      if (run.tag === tag) run.tag = undefined;
    }
    if (tag.revision === undefined) return res;
    // The write is stored: nothing from here on may turn it into an error.
    try {
      const { response, recorded } = await recordable(res);
      await journal.recordResponse(write.id, recorded).catch(() => undefined);
      return response;
    } catch {
      return res;
    }
  }

  async function closeAll(): Promise<void> {
    const all = [...engines.values()];
    engines.clear();
    running.clear();
    channel?.close?.();
    await Promise.all(all.map(async (p) => (await p.catch(() => undefined))?.server.close()));
  }

  return { engine: async (route) => (await engineOf(route)).server, handle, closeAll };
}
