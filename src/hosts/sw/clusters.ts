// Cluster routing shared by the two browser hosts (the service worker and the in-page fallback):
// `<app base>clusters/<cluster>/...` goes to that cluster's engine. Every cluster is one engine over its own
// IndexedDB database, created on first use and kept for the life of the host (DESIGN.md 1). The engine
// keeps everything that matters in IndexedDB, so a host that is stopped and started again only has to
// recreate the engine.
import type { Storage } from '../../engine/storage/interface.js';
import { createApiServer, type ApiServer } from '../../engine/server.js';
import { badRequest, internalError, type StatusError } from '../../engine/errors.js';
import { systemEnv } from '../../adapters/system-env.js';
import { openIdbStorage } from '../../adapters/idb/idb-storage.js';

/** Cluster names are DNS labels, so they are safe in URLs and database names. */
export const CLUSTER_NAME_PATTERN = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

export const DEFAULT_CLUSTER = 'default';

/** The IndexedDB database holding one cluster. */
export function clusterDatabaseName(cluster: string): string {
  return `kube-cluster-${cluster}`;
}

/**
 * Name of the shared Web Lock every browser engine holds while it serves a cluster. The engine keeps a
 * cache of its database and does not see writes made by another engine over the same database, so the UI
 * counts the holders (`navigator.locks.query()`) to warn when a service worker and an in-page engine (or
 * two in-page engines in two tabs) serve one cluster at the same time.
 */
export function clusterLockName(cluster: string): string {
  return `kube-engine:${cluster}`;
}

interface LockManagerLike {
  request(name: string, options: { mode: 'shared' }, callback: () => Promise<void>): Promise<unknown>;
}

/** Holds the cluster's shared lock until the returned function is called (no-op without Web Locks). */
function holdClusterLock(cluster: string): () => void {
  const locks = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks;
  if (!locks) return () => undefined;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  locks.request(clusterLockName(cluster), { mode: 'shared' }, () => held).catch(() => undefined);
  return release;
}

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

export interface ClusterEnginesOptions {
  host: BrowserHost;
  /**
   * Opens the storage of a cluster (default: IndexedDB database `clusterDatabaseName(cluster)`). `onLost`
   * tells that the storage can no longer be used (e.g. the database was deleted): the engine is dropped and
   * the next request starts a new one.
   */
  openStorage?: (cluster: string, onLost: () => void) => Storage | Promise<Storage>;
}

export interface ClusterEngines {
  /** The ready engine of a cluster, created on first use. */
  engine(route: ClusterRoute): Promise<ApiServer>;
  /** Answers one API request addressed to `route`; never rejects (failures become Status responses). */
  handle(route: ClusterRoute & { invalid?: true }, request: Request): Promise<Response>;
  /** Closes every engine created so far. */
  closeAll(): Promise<void>;
}

function statusResponse(err: StatusError): Response {
  return new Response(JSON.stringify(err.status), {
    status: err.status.code,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private', ...err.headers },
  });
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function createClusterEngines(options: ClusterEnginesOptions): ClusterEngines {
  const openStorage =
    options.openStorage ??
    ((cluster: string, onLost: () => void) => openIdbStorage({ name: clusterDatabaseName(cluster), onClose: onLost }));
  const engines = new Map<string, Promise<ApiServer>>();

  function drop(key: string, pending: Promise<ApiServer>): void {
    if (engines.get(key) !== pending) return;
    engines.delete(key);
    pending.then((server) => server.close()).catch(() => undefined);
  }

  async function start(route: ClusterRoute, onLost: () => void): Promise<ApiServer> {
    const storage = await openStorage(route.cluster, onLost);
    const server = createApiServer({ storage, env: systemEnv(), basePath: route.basePath, host: options.host });
    const release = holdClusterLock(route.cluster);
    try {
      await server.ready;
    } catch (err) {
      release();
      await server.close().catch(() => undefined); // also closes the storage
      throw err;
    }
    const close = server.close.bind(server);
    return {
      handle: (request) => server.handle(request),
      ready: server.ready,
      close: async () => {
        release();
        await close();
      },
    };
  }

  function engine(route: ClusterRoute): Promise<ApiServer> {
    const key = route.basePath;
    let pending = engines.get(key);
    if (!pending) {
      const started: Promise<ApiServer> = start(route, () => drop(key, started));
      engines.set(key, started);
      // A failed start is not cached: the next request tries again.
      started.catch(() => {
        if (engines.get(key) === started) engines.delete(key);
      });
      pending = started;
    }
    return pending;
  }

  async function handle(route: ClusterRoute & { invalid?: true }, request: Request): Promise<Response> {
    if (route.invalid) {
      return statusResponse(
        badRequest(`invalid cluster name "${route.cluster}": must be a lowercase DNS label (${CLUSTER_NAME_PATTERN.source})`),
      );
    }
    let server: ApiServer;
    try {
      server = await engine(route);
    } catch (err) {
      return statusResponse(internalError(`cluster "${route.cluster}" could not be started: ${messageOf(err)}`));
    }
    try {
      return await server.handle(request);
    } catch (err) {
      return statusResponse(internalError(messageOf(err)));
    }
  }

  async function closeAll(): Promise<void> {
    const all = [...engines.values()];
    engines.clear();
    await Promise.all(all.map(async (p) => (await p.catch(() => undefined))?.close()));
  }

  return { engine, handle, closeAll };
}
