// Host 1: the service worker (docs/hosts.md 1). Served at `<app base>sw.js` with scope `<app base>`, it answers
// every fetch under `<app base>clusters/<cluster>` with that cluster's engine and lets all other requests go
// to the network. It takes control at once (skipWaiting + clients.claim) so the first page load is already
// served. Responses are never gzipped: the browser does not decode a synthetic response.
/// <reference lib="webworker" />
import { createClusterEngines, routeCluster } from './clusters.js';
import { addAppRoutes, installAppCache } from './app-cache.js';

declare const self: ServiceWorkerGlobalScope;

const appBase = new URL(self.registration.scope);
const clusters = createClusterEngines({ host: 'service-worker' });
installAppCache(self); // the app's own files offline; never the API (docs/hosts.md 1.1)

self.addEventListener('install', (event) => {
  addAppRoutes(event, appBase); // the app's files without waiting for this worker to start (app-cache.ts)
  event.waitUntil(self.skipWaiting());
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

// A page that loaded without a controller (e.g. after a hard reload) asks to be claimed.
self.addEventListener('message', (event) => {
  const data: unknown = event.data;
  if (typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'claim') {
    event.waitUntil(self.clients.claim());
  }
});

self.addEventListener('fetch', (event) => {
  const route = routeCluster(new URL(event.request.url), appBase);
  if (!route) return;
  event.respondWith(clusters.handle(route, event.request));
});
