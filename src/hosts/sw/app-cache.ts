// The playground's own files offline (docs/hosts.md 1.1): after one visit the app shell (HTML, scripts,
// styles, icons, the web app manifest) opens without a network. The engine needs no network at all, so
// with this the whole playground works offline.
//
// - Requests under `<app base>clusters/` are the API: never cached, never touched here (the cluster
//   routes of sw.ts answer them from IndexedDB).
// - Files with a content hash in their name (`<app base>assets/...`) never change: cache first.
// - Everything else of the app (the page itself, public files): network first, the copy when offline;
//   an offline navigation falls back to the cached page, whatever its query.
// - The copy is filled as files are fetched, and once per worker start (shortly after its first request,
//   so that it does not compete with the page's first load) from Vite's build manifest
//   (`build-manifest.json`, written by `vite build`; absent under the dev server), which names every chunk,
//   also those the page loads later (the editor, the panels). Hashed files it no longer names are dropped.
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
  // the worker script itself and the dev server's internals
  if (path === 'sw.js' || path.startsWith('@') || path.startsWith('node_modules/') || path.startsWith('src/')) return 'ignore';
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

async function fetchAndKeep(cache: Cache, request: Request | string): Promise<Response> {
  const res = await fetch(request);
  if (cacheable(res)) await cache.put(request, res.clone()).catch(() => undefined);
  return res;
}

/**
 * How long the precache waits after the worker's first request: the page loads what it needs first (and
 * those files are kept as they pass), then the precache fetches only what is still missing.
 */
export const PRECACHE_DELAY_MS = 5000;

/** Fills the cache from the build manifest; drops hashed files of older builds. Never throws. */
async function precache(appBase: URL): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, PRECACHE_DELAY_MS));
  try {
    const cache = await caches.open(APP_CACHE);
    let manifest: unknown;
    try {
      const res = await fetch(new URL(BUILD_MANIFEST, appBase), { cache: 'no-cache' });
      if (res.ok && (res.headers.get('Content-Type') ?? '').includes('json')) manifest = await res.json();
    } catch {
      // offline, or no manifest (the dev server): keep what is cached
    }
    const urls = precacheUrls(manifest, appBase);
    for (const url of urls) {
      // hashed files never change; the others (the page, public files) are refreshed
      if (classify(new URL(url), 'GET', appBase) === 'hashed' && (await cache.match(url, MATCH))) continue;
      await fetchAndKeep(cache, url).catch(() => undefined);
    }
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

/** Installs the app-shell cache in the service worker whose scope is the app's base. */
export function installAppCache(worker: ServiceWorkerGlobalScope): void {
  const appBase = new URL(worker.registration.scope);
  let filled: Promise<void> | undefined;
  worker.addEventListener('fetch', (event) => {
    const kind = classify(new URL(event.request.url), event.request.method, appBase);
    if (kind === 'ignore' || kind === 'api') return;
    // once per worker start, in the background of the first request for an app file
    filled ??= precache(appBase);
    event.waitUntil(filled);
    if (event.request.headers.has('Range')) return;
    event.respondWith(kind === 'hashed' ? cacheFirst(event.request) : networkFirst(event.request, appBase));
  });
}
