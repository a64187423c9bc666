// Host fallback (docs/hosts.md 2): where no service worker can serve the page (no `navigator.serviceWorker`, as in
// Firefox private windows, a failed registration, or `?engine=page`), the same engines run in the page and
// the UI hands its requests to them directly instead of going through `fetch`. Same routing, same
// IndexedDB databases as the service worker. Loaded lazily by src/ui/api.ts, so it costs nothing on first
// paint when a service worker is in control.
import { createClusterEngines, routeCluster, type ClusterEngines } from '../sw/clusters.js';
import type { Storage } from '../../engine/storage/interface.js';

export interface PageHost {
  /** Like `fetch`, for URLs under `<app base>clusters/<cluster>`; other URLs go to the network. */
  fetch(input: string | URL, init?: RequestInit): Promise<Response>;
  /** Closes every engine the page host started. */
  close(): Promise<void>;
}

export interface PageHostOptions {
  /** The app's base URL (what the service worker's scope would be), ending in `/`. */
  appBase: string | URL;
  /** Storage per cluster; default: the cluster's IndexedDB database. */
  openStorage?: (cluster: string, onLost: () => void) => Storage | Promise<Storage>;
}

export function createPageHost(options: PageHostOptions): PageHost {
  const appBase = new URL(options.appBase);
  const clusters: ClusterEngines = createClusterEngines({ host: 'page', openStorage: options.openStorage });
  return {
    fetch(input, init) {
      const request = new Request(String(input), init);
      const route = routeCluster(new URL(request.url), appBase);
      if (!route) return globalThis.fetch(request);
      return clusters.handle(route, request);
    },
    close: () => clusters.closeAll(),
  };
}
