// The playground's own files offline (docs/hosts.md 1.1): after one visit the app shell (HTML, scripts,
// styles, icons, the web app manifest) opens without a network. The engine needs no network at all, so
// with this the whole playground works offline.
//
// - Requests under `<app base>clusters/` are the API: never cached, never touched here (the cluster
//   routes of sw.ts answer them from IndexedDB).
// - Files with a content hash in their name (`<app base>assets/...`) never change: cache first.
// - Everything else of the app (the page itself, public files): network first, the copy when offline;
//   an offline navigation falls back to the cached page, whatever its query.
// - The copy is filled as files are fetched, and once per worker start (at its activation or first
//   request: the page and its entry chunk at once, the rest a few seconds later, so that it does not
//   compete with the page's first load) from Vite's build manifest (`build-manifest.json`, written by
//   `vite build`; absent under the dev server), which names every chunk, also those the page loads later
//   (the editor, the panels). Hashed files it no longer names are dropped.
// - Where the browser has the static routing API (appRoutes), hashed files are served from the copy and
//   navigations race the network, without waiting for the worker to start.
/// <reference lib="webworker" />

export const APP_CACHE = 'kube-playground-app-v1';

/** Vite's build manifest, as vite.config.ts names it (not under `.vite/`: static servers hide dot folders). */
export const BUILD_MANIFEST = 'build-manifest.json';

/** Public files of the app shell (not in Vite's manifest, which lists only built chunks and assets). */
export const SHELL_FILES = ['', 'manifest.webmanifest', 'icons/icon.svg', 'icons/icon-192.png', 'icons/icon-512.png'];

export type RequestClass = 'api' | 'hashed' | 'shell' | 'ignore';

/** How a request is treated: the API, a content-hashed file, another file of the app, or not ours. */
export function classify(url: URL, method: string, appBase: URL): RequestClass {
  if (url.origin !== appBase.origin || !url.pathname.startsWith(appBase.pathname)) return 'ignore';
  const path = url.pathname.slice(appBase.pathname.length);
  if (path === 'clusters' || path.startsWith('clusters/')) return 'api';
  if (method !== 'GET') return 'ignore';
  // the worker's scripts (sw-first.js: a first install's, vite.config.ts) and the dev server's internals
  if (path === 'sw.js' || path === 'sw-first.js' || path.startsWith('@') || path.startsWith('node_modules/') || path.startsWith('src/')) return 'ignore';
  if (path.startsWith('assets/')) return 'hashed';
  return 'shell';
}

interface ManifestChunk {
  file?: string;
  css?: string[];
  assets?: string[];
}

/** Every URL the build manifest names (chunk files, their CSS and assets), plus the shell's public files. */
export function precacheUrls(manifest: unknown, appBase: URL): string[] {
  const files = new Set<string>(SHELL_FILES);
  if (manifest && typeof manifest === 'object') {
    for (const chunk of Object.values(manifest as Record<string, ManifestChunk>)) {
      if (!chunk || typeof chunk !== 'object') continue;
      if (typeof chunk.file === 'string') files.add(chunk.file);
      for (const f of [...(chunk.css ?? []), ...(chunk.assets ?? [])]) if (typeof f === 'string') files.add(f);
    }
  }
  return [...files].map((f) => new URL(f, appBase).href);
}

/**
 * Servers answer `Vary: Origin` (vite preview does); module scripts are fetched with an Origin header, the
 * precache without one. The files do not depend on it, so the Vary header is not honoured.
 */
const MATCH: CacheQueryOptions = { ignoreVary: true };

function cacheable(res: Response): boolean {
  return res.status === 200 && res.type === 'basic' && !res.redirected;
}

/**
 * The copy kept of a response: without its Vary header, since the files do not depend on the request's
 * headers, and the browser's static routes (appRoutes) match cached entries honouring Vary.
 */
function keptCopy(res: Response): Response {
  const copy = res.clone();
  if (!copy.headers.has('Vary')) return copy;
  const headers = new Headers(copy.headers);
  headers.delete('Vary');
  return new Response(copy.body, { status: copy.status, statusText: copy.statusText, headers });
}

async function fetchAndKeep(cache: Cache, request: Request | string): Promise<Response> {
  const res = await fetch(request);
  if (cacheable(res)) await cache.put(request, keptCopy(res)).catch(() => undefined);
  return res;
}

/**
 * How long the rest of the precache waits after its start (the worker's activation, or its first request
 * after a restart): the page loads what it needs first, then the precache fetches what is still missing.
 * The files a reload needs first (the page and the entry chunk with its static imports) are kept at once.
 */
export const PRECACHE_DELAY_MS = 5000;

interface EntryChunk extends ManifestChunk {
  isEntry?: boolean;
  imports?: string[];
}

/** The page and what it loads before anything dynamic: entry chunks, their static imports and their CSS. */
export function entryUrls(manifest: unknown, appBase: URL): string[] {
  const files = new Set<string>(['']);
  if (manifest && typeof manifest === 'object') {
    const chunks = manifest as Record<string, EntryChunk>;
    const seen = new Set<string>();
    const visit = (key: string) => {
      const chunk = chunks[key];
      if (seen.has(key) || !chunk || typeof chunk !== 'object') return;
      seen.add(key);
      if (typeof chunk.file === 'string') files.add(chunk.file);
      for (const f of chunk.css ?? []) if (typeof f === 'string') files.add(f);
      for (const i of chunk.imports ?? []) if (typeof i === 'string') visit(i);
    };
    for (const [key, chunk] of Object.entries(chunks)) if (chunk && typeof chunk === 'object' && chunk.isEntry) visit(key);
  }
  return [...files].map((f) => new URL(f, appBase).href);
}

async function fetchManifest(appBase: URL): Promise<unknown> {
  try {
    const res = await fetch(new URL(BUILD_MANIFEST, appBase), { cache: 'no-cache' });
    if (res.ok && (res.headers.get('Content-Type') ?? '').includes('json')) return await res.json();
  } catch {
    // offline, or no manifest (the dev server): keep what is cached
  }
  return undefined;
}

/**
 * How many files the precache fetches at once: one large chunk (Monaco's, ~4 MB) must not hold back the
 * small lazy chunks behind it in the manifest's order, which the page may need offline as soon as the next
 * visit.
 */
const PRECACHE_LANES = 4;

/** Keeps each URL not yet done: hashed files once (a copy kept with Vary is replaced), the others refreshed. */
async function keepAll(cache: Cache, urls: string[], done: Set<string>, appBase: URL): Promise<void> {
  const keep = async (url: string): Promise<void> => {
    if (classify(new URL(url), 'GET', appBase) === 'hashed') {
      const hit = await cache.match(url, MATCH);
      if (hit && !hit.headers.has('Vary')) return;
      if (hit) {
        await cache.put(url, keptCopy(hit)).catch(() => undefined);
        return;
      }
    }
    await fetchAndKeep(cache, url).catch(() => undefined);
  };
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < urls.length) {
      const url = urls[next++];
      if (done.has(url)) continue;
      done.add(url);
      await keep(url);
    }
  };
  await Promise.all(Array.from({ length: PRECACHE_LANES }, lane));
}

/** Fills the cache from the build manifest, the entry files first; drops hashed files of older builds. Never throws. */
async function precache(appBase: URL): Promise<void> {
  try {
    const cache = await caches.open(APP_CACHE);
    const manifest = await fetchManifest(appBase);
    const done = new Set<string>();
    await keepAll(cache, entryUrls(manifest, appBase), done, appBase);
    await new Promise((resolve) => setTimeout(resolve, PRECACHE_DELAY_MS));
    const urls = precacheUrls(manifest, appBase);
    await keepAll(cache, urls, done, appBase);
    if (manifest) {
      const wanted = new Set(urls);
      for (const req of await cache.keys()) {
        if (classify(new URL(req.url), 'GET', appBase) === 'hashed' && !wanted.has(req.url)) await cache.delete(req);
      }
    }
  } catch {
    // no Cache Storage (e.g. an opaque origin): the app simply needs the network
  }
}

async function cacheFirst(request: Request): Promise<Response> {
  const cache = await caches.open(APP_CACHE);
  const hit = await cache.match(request, MATCH);
  return hit ?? fetchAndKeep(cache, request);
}

async function networkFirst(request: Request, appBase: URL): Promise<Response> {
  const cache = await caches.open(APP_CACHE);
  try {
    return await fetchAndKeep(cache, request);
  } catch (err) {
    const hit = await cache.match(request, { ...MATCH, ignoreSearch: request.mode === 'navigate' });
    if (hit) return hit;
    if (request.mode === 'navigate') {
      const page = await cache.match(appBase.href, MATCH);
      if (page) return page;
    }
    throw err;
  }
}

/** URLPattern syntax characters escaped, so a base path is matched literally. */
function literalPattern(path: string): string {
  return path.replace(/[\\:*?+(){}]/g, (c) => `\\${c}`);
}

/** One rule of the Service Worker static routing API (Chromium 123+; not in TypeScript's lib yet). */
export interface RouterRule {
  condition: { urlPattern?: { pathname: string }; requestMode?: RequestMode };
  source: 'cache' | 'fetch-event' | 'race-network-and-fetch-handler' | { cacheName: string };
}

/**
 * The static routes the worker declares at install, so the app's own files do not wait for the worker to
 * start (or for its JavaScript) on a repeat visit. First match wins:
 * - the API under `<app base>clusters` always goes to the fetch handler (the engine);
 * - content-hashed files come from the app cache; one not kept yet falls back to the network, as the
 *   routing API does on a cache miss (the precache keeps it later);
 * - a navigation races the network with the fetch handler, so the page does not wait for the worker's
 *   start online, and offline the fetch handler answers from the cache (networkFirst below).
 * Everything else (public files, the worker's own fetches) goes to the fetch handler as before.
 */
export function appRoutes(appBase: URL): RouterRule[] {
  const base = literalPattern(appBase.pathname);
  return [
    { condition: { urlPattern: { pathname: `${base}clusters` } }, source: 'fetch-event' },
    { condition: { urlPattern: { pathname: `${base}clusters/*` } }, source: 'fetch-event' },
    { condition: { urlPattern: { pathname: `${base}assets/*` } }, source: { cacheName: APP_CACHE } },
    { condition: { requestMode: 'navigate' }, source: 'race-network-and-fetch-handler' },
  ];
}

/**
 * Declares appRoutes() in an install event where the browser has the static routing API; elsewhere (and
 * if the browser refuses a rule) every request keeps going to the fetch handlers, which serve the same
 * answers. Never fails the install.
 */
export function addAppRoutes(event: ExtendableEvent, appBase: URL): void {
  const add = (event as ExtendableEvent & { addRoutes?: (rules: RouterRule[]) => Promise<void> }).addRoutes;
  if (typeof add !== 'function') return;
  try {
    event.waitUntil(add.call(event, appRoutes(appBase)).catch(() => undefined));
  } catch {
    // rules this browser does not know: no static routes
  }
}

/** Installs the app-shell cache in the service worker whose scope is the app's base. */
export function installAppCache(worker: ServiceWorkerGlobalScope): void {
  const appBase = new URL(worker.registration.scope);
  let filled: Promise<void> | undefined;
  // once per worker start: when it activates, or else with its first request (hashed files no longer pass
  // through the fetch handler where the static routes are in place)
  const fill = () => (filled ??= precache(appBase));
  worker.addEventListener('activate', () => void fill());
  worker.addEventListener('fetch', (event) => {
    const kind = classify(new URL(event.request.url), event.request.method, appBase);
    if (kind === 'ignore') return;
    event.waitUntil(fill());
    if (kind === 'api') return;
    if (event.request.headers.has('Range')) return;
    event.respondWith(kind === 'hashed' ? cacheFirst(event.request) : networkFirst(event.request, appBase));
  });
}
