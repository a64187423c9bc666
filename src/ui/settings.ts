// Pure helpers for the shell's settings; they take their environment as arguments (tested without a browser).

export const DEFAULT_CLUSTER = 'default';
const CLUSTER_NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

export interface ShellSettings {
  /** Cluster name from `?cluster=` (default "default"). */
  cluster: string;
  /** `?engine=page` forces the in-page engine even where a service worker could serve. */
  forcePageEngine: boolean;
  /** Problems with the query, shown to the user (the defaults are used instead). */
  warnings: string[];
}

export function parseSettings(search: string): ShellSettings {
  const params = new URLSearchParams(search);
  const warnings: string[] = [];
  let cluster = DEFAULT_CLUSTER;
  const requested = params.get('cluster');
  if (requested !== null) {
    if (CLUSTER_NAME.test(requested)) cluster = requested;
    else warnings.push(`"${requested}" is not a valid cluster name (a lowercase DNS label); using "${DEFAULT_CLUSTER}"`);
  }
  const engine = params.get('engine');
  if (engine !== null && engine !== 'page' && engine !== 'sw') {
    warnings.push(`unknown engine "${engine}" (use "page" or "sw")`);
  }
  return { cluster, forcePageEngine: engine === 'page', warnings };
}

/** The app's base URL: `origin` + Vite's base (`/` or `/some/path/`), always ending in `/`. */
export function appBaseUrl(origin: string, base: string): string {
  const path = base.startsWith('/') ? base : `/${base}`;
  return `${origin}${path.endsWith('/') ? path : `${path}/`}`;
}

/** base_url of a cluster: `<origin><app base>clusters/<cluster>` (no trailing slash). */
export function clusterBaseUrl(appBase: string, cluster: string): string {
  return `${appBase}clusters/${cluster}`;
}

/** A resource the shell can list, from discovery. */
export interface ListableResource {
  /** "v1" for core, "apps/v1" otherwise. */
  groupVersion: string;
  plural: string;
  kind: string;
  namespaced: boolean;
}

/** Option value for a resource: `<groupVersion>/<plural>` (unique). */
export function resourceId(r: Pick<ListableResource, 'groupVersion' | 'plural'>): string {
  return `${r.groupVersion}/${r.plural}`;
}

/** Display label: `ConfigMap (configmaps)` or `Deployment (deployments.apps)`. */
export function resourceLabel(r: ListableResource): string {
  const slash = r.groupVersion.indexOf('/');
  const group = slash < 0 ? '' : r.groupVersion.slice(0, slash);
  return `${r.kind} (${group ? `${r.plural}.${group}` : r.plural})`;
}

/** API path listing `r` in `namespace` (namespaced resources) or cluster-wide. */
export function listPath(r: Pick<ListableResource, 'groupVersion' | 'plural' | 'namespaced'>, namespace: string): string {
  const prefix = r.groupVersion.includes('/') ? `/apis/${r.groupVersion}` : `/api/${r.groupVersion}`;
  return r.namespaced ? `${prefix}/namespaces/${encodeURIComponent(namespace)}/${r.plural}` : `${prefix}/${r.plural}`;
}

interface DiscoveryResource {
  name?: unknown;
  kind?: unknown;
  namespaced?: unknown;
  verbs?: unknown;
}

/** The namespaced, listable resources (no subresources) of an APIResourceList. */
export function listableResources(groupVersion: string, list: unknown): ListableResource[] {
  const resources = (list as { resources?: unknown } | null)?.resources;
  if (!Array.isArray(resources)) return [];
  const out: ListableResource[] = [];
  for (const r of resources as DiscoveryResource[]) {
    if (typeof r.name !== 'string' || r.name.includes('/') || typeof r.kind !== 'string') continue;
    if (r.namespaced !== true || !Array.isArray(r.verbs) || !r.verbs.includes('list')) continue;
    out.push({ groupVersion, plural: r.name, kind: r.kind, namespaced: true });
  }
  return out;
}

/** Creation time as a short age (`45s`, `3m`, `2h`, `5d`). */
export function shortAge(creationTimestamp: string | undefined | null, nowMs: number): string {
  if (!creationTimestamp) return '<unknown>';
  const t = Date.parse(creationTimestamp);
  if (Number.isNaN(t)) return '<invalid>';
  const s = Math.max(0, Math.floor((nowMs - t) / 1000));
  if (s < 120) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 120) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h`;
  return `${Math.floor(h / 24)}d`;
}

/** The status line of a cluster's simulation switch (the simulated cluster: controllers, scheduler, nodes). */
export function simulationStatus(simulated: boolean): string {
  return simulated
    ? 'Simulated cluster: a scheduler, simulated nodes and the workload controllers run in this browser, so pods start and rollouts finish.'
    : 'Bare API server: nothing schedules or runs pods (as an API server without a control plane around it).';
}
