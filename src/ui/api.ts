// The UI's one way to the API: `apiFetch(path, init)`. When a service worker controls the page it is a plain
// `fetch(base_url + path)`, exactly what any other client would do; otherwise (no service worker, a failed
// registration, or `?engine=page`) the request goes to an engine running in the page (src/hosts/page).
import type { PageHost } from '../hosts/page/page-host.js';
import { appBaseUrl, clusterBaseUrl, parseSettings } from './settings.js';

export type EngineMode = 'service-worker' | 'page';

export interface ApiConnection {
  mode: EngineMode;
  cluster: string;
  /** `<origin><app base>clusters/<cluster>`; reachable with plain fetch only in 'service-worker' mode. */
  baseUrl: string;
  /** Why the in-page engine is used (mode 'page'). */
  fallbackReason?: string;
  warnings: string[];
}

const CONTROL_TIMEOUT_MS = 10_000;

let connection: Promise<ApiConnection> | undefined;
let pageHost: PageHost | undefined;

function appBase(): string {
  return appBaseUrl(location.origin, import.meta.env.BASE_URL);
}

/** A performance mark of the start-up (`kube:<step>`; bench/ui.ts reads them for the time-to-interactive breakdown). */
export function markStartup(step: string): void {
  try {
    performance.mark(`kube:${step}`);
  } catch {
    // no User Timing
  }
}

/** Resolves when `navigator.serviceWorker.controller` is set, or rejects after `ms`. */
function waitForController(container: ServiceWorkerContainer, ms: number): Promise<void> {
  if (container.controller) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      container.removeEventListener('controllerchange', onChange);
      reject(new Error(`the service worker did not take control within ${ms / 1000}s`));
    }, ms);
    function onChange() {
      if (!container.controller) return;
      clearTimeout(timer);
      container.removeEventListener('controllerchange', onChange);
      resolve();
    }
    container.addEventListener('controllerchange', onChange);
  });
}

/** The registration index.html starts before this script loads (same script URL, scope and options). */
function earlyRegistration(): Promise<ServiceWorkerRegistration> | undefined {
  return (globalThis as { kubeEarlyRegistration?: Promise<ServiceWorkerRegistration> }).kubeEarlyRegistration;
}

const FIRST_INSTALL_SCRIPT = 'sw-first.js';
const WORKER_SCRIPT = 'sw.js';
/** The options of every registration (index.html's early one too): scope the app's base, scripts never from the HTTP cache. */
const registrationOptions = (base: string): RegistrationOptions => ({ scope: base, updateViaCache: 'none' });

/**
 * The worker script to register (as index.html's early registration chooses it): the newest worker's of the
 * registration that exists, else `sw-first.js`, the same code as `sw.js` compiled lazily, which installs
 * faster (vite.config.ts, firstInstallWorker).
 */
async function workerScript(container: ServiceWorkerContainer, base: string): Promise<string> {
  const r = await container.getRegistration(base);
  const w = r && (r.installing ?? r.waiting ?? r.active);
  return w ? w.scriptURL : `${base}${FIRST_INSTALL_SCRIPT}`;
}

/** How long a page that stays in view waits before it moves the registration on anyway (a demo's tab). */
const MOVE_WHEN_VISIBLE_AFTER_MS = 5 * 60_000;

/**
 * A worker installed from `sw-first.js` compiles its code again at every start (a string has no code cache).
 * Once this page has been hidden for a second (the user is elsewhere), or has been open five minutes (a tab
 * that never leaves the screen, as in a live demo; the move waits for an idle moment of the page), the
 * registration moves to `sw.js`: the browser installs it beside the running worker, with a full code cache,
 * and it takes over when the running worker has nothing in progress (its tabs closed, or the browser stopping
 * it; open watches end then and resume from their last resourceVersion, as after any stop; docs/hosts.md 1).
 */
function moveToWorkerScriptLater(container: ServiceWorkerContainer, base: string): void {
  if (!container.controller?.scriptURL.endsWith(`/${FIRST_INSTALL_SCRIPT}`)) return;
  let hiddenTimer: ReturnType<typeof setTimeout> | undefined;
  let moved = false;
  const move = () => {
    if (moved) return; // the idle callback may still come after a move once hidden
    moved = true;
    document.removeEventListener('visibilitychange', onChange);
    clearTimeout(hiddenTimer);
    clearTimeout(visibleTimer);
    container.register(`${base}${WORKER_SCRIPT}`, registrationOptions(base)).catch(() => undefined);
  };
  const onChange = () => {
    clearTimeout(hiddenTimer);
    if (document.visibilityState !== 'hidden') return;
    hiddenTimer = setTimeout(() => {
      if (document.visibilityState === 'hidden') move();
    }, 1000);
  };
  const visibleTimer = setTimeout(() => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(move, { timeout: 10_000 });
    else move();
  }, MOVE_WHEN_VISIBLE_AFTER_MS);
  document.addEventListener('visibilitychange', onChange);
}

/** Registers the worker (or takes over the registration index.html started) and waits until it controls this page. */
async function startServiceWorker(): Promise<void> {
  const container = navigator.serviceWorker;
  const base = import.meta.env.BASE_URL;
  const registration = await (earlyRegistration() ?? container.register(await workerScript(container, base), registrationOptions(base)));
  markStartup('sw-registered');
  if (container.controller) return;
  const controlled = waitForController(container, CONTROL_TIMEOUT_MS);
  // The worker claims every open page when it activates; a page opened without a controller while the
  // worker was already active (e.g. a hard reload) asks it to claim again. `ready` never settles when the
  // worker cannot be installed, hence the race with the timeout.
  const ready = await Promise.race([container.ready, controlled.then(() => undefined)]);
  if (!container.controller) (ready?.active ?? registration.active)?.postMessage({ type: 'claim' });
  await controlled;
}

async function startPageEngine(): Promise<void> {
  const { createPageHost } = await import('../hosts/page/page-host.js');
  pageHost = createPageHost({ appBase: appBase() });
}

async function establish(): Promise<ApiConnection> {
  markStartup('connect');
  const settings = parseSettings(location.search);
  const baseUrl = clusterBaseUrl(appBase(), settings.cluster);
  const common = { cluster: settings.cluster, baseUrl, warnings: settings.warnings };
  let fallbackReason: string;
  if (settings.forcePageEngine) {
    fallbackReason = 'requested with ?engine=page';
  } else if (!('serviceWorker' in navigator) || !navigator.serviceWorker) {
    fallbackReason = 'service workers are not available in this browser context';
  } else {
    try {
      await startServiceWorker();
      markStartup('connected');
      moveToWorkerScriptLater(navigator.serviceWorker, import.meta.env.BASE_URL);
      return { ...common, mode: 'service-worker' };
    } catch (err) {
      fallbackReason = `service worker unavailable: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
  await startPageEngine();
  markStartup('connected');
  return { ...common, mode: 'page', fallbackReason };
}

/** Starts (once) the service worker or the in-page engine; every apiFetch waits for it. */
export function connect(): Promise<ApiConnection> {
  connection ??= establish().then((c) => (established = c));
  return connection;
}

let established: ApiConnection | undefined;

/**
 * What `promise` (the one connect() returns) resolved to, once it has; else undefined. A page the
 * worker already controls (a repeat visit) is connected before React's first render, which then shows it.
 */
export function settledConnection(promise: Promise<ApiConnection>): ApiConnection | undefined {
  return promise === connection ? established : undefined;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Delays before the retries of a write that met a network error (the worker restarts in between). */
const WRITE_RETRY_DELAYS_MS = [50, 250, 1000];

function newRequestId(): string {
  return crypto.randomUUID();
}

/**
 * Sends `path` (e.g. `/api/v1/namespaces`) to the current cluster's API. Every write carries an
 * `Idempotency-Key` (kept when the caller set one): the hosts record it with the write (src/hosts/sw/
 * idempotency.ts), so a request delivered twice takes effect once, and a write that met a network error
 * (e.g. the service worker was stopped while it ran) is retried with the same key and answered with the
 * outcome of the delivery that was stored, if any.
 */
export async function apiFetch(path: string, init?: RequestInit): Promise<Response> {
  const conn = await connect();
  const url = conn.baseUrl + (path.startsWith('/') ? path : `/${path}`);
  const send = (i?: RequestInit) => (conn.mode === 'page' && pageHost ? pageHost.fetch(url, i) : fetch(url, i));
  const method = (init?.method ?? 'GET').toUpperCase();
  if (!WRITE_METHODS.has(method)) return send(init);
  const headers = new Headers(init?.headers);
  if (!headers.has('Idempotency-Key')) headers.set('Idempotency-Key', newRequestId());
  const keyed = { ...init, headers };
  for (let attempt = 0; ; attempt++) {
    try {
      return await send(keyed);
    } catch (err) {
      // only a network error (TypeError) is retried; an abort or a body that cannot be sent again is not
      const retriable = err instanceof TypeError && !init?.signal?.aborted && !(init?.body instanceof ReadableStream);
      if (!retriable || attempt >= WRITE_RETRY_DELAYS_MS.length) throw err;
      await new Promise((resolve) => setTimeout(resolve, WRITE_RETRY_DELAYS_MS[attempt]));
    }
  }
}

/** GET `path` as JSON; throws with the Status message on an error response. */
export async function apiGetJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  const res = await apiFetch(path, { headers: { Accept: 'application/json' }, signal });
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!res.ok) {
    const message = (body as { message?: unknown } | undefined)?.message;
    throw new Error(`${res.status}: ${typeof message === 'string' ? message : text.slice(0, 200) || res.statusText}`);
  }
  return body as T;
}
