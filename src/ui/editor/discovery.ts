// Discovery for the manifest editor: which URL a manifest goes to. Built from /api/v1 and every group
// version under /apis (the resource lists), keyed by apiVersion + kind, as kubectl's REST mapper does.
// Pure except `DiscoveryCache`, which takes its fetch function as an argument.

export interface ApiResourceInfo {
  /** "v1" or "apps/v1" */
  groupVersion: string;
  group: string;
  version: string;
  /** resource plural, e.g. "deployments" */
  plural: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
}

export interface DiscoveryIndex {
  /** key: `${apiVersion}/${kind}` (apiVersion "v1" or "apps/v1") */
  byGvk: Map<string, ApiResourceInfo>;
  /** Every group version served (the preferred one first per group). */
  groupVersions: string[];
}

interface RawResource {
  name?: unknown;
  kind?: unknown;
  namespaced?: unknown;
  verbs?: unknown;
}

function splitGroupVersion(gv: string): { group: string; version: string } {
  const slash = gv.indexOf('/');
  return slash < 0 ? { group: '', version: gv } : { group: gv.slice(0, slash), version: gv.slice(slash + 1) };
}

/** Indexes APIResourceList documents (subresources such as `deployments/scale` are skipped). */
export function indexDiscovery(lists: { groupVersion: string; list: unknown }[]): DiscoveryIndex {
  const byGvk = new Map<string, ApiResourceInfo>();
  const groupVersions: string[] = [];
  for (const { groupVersion, list } of lists) {
    groupVersions.push(groupVersion);
    const resources = (list as { resources?: unknown } | null)?.resources;
    if (!Array.isArray(resources)) continue;
    const { group, version } = splitGroupVersion(groupVersion);
    for (const r of resources as RawResource[]) {
      if (typeof r.name !== 'string' || r.name.includes('/') || typeof r.kind !== 'string') continue;
      const key = `${groupVersion}/${r.kind}`;
      if (byGvk.has(key)) continue;
      byGvk.set(key, {
        groupVersion,
        group,
        version,
        plural: r.name,
        kind: r.kind,
        namespaced: r.namespaced === true,
        verbs: Array.isArray(r.verbs) ? r.verbs.filter((v): v is string => typeof v === 'string') : [],
      });
    }
  }
  return { byGvk, groupVersions };
}

/** The group versions to read from an APIGroupList (/apis): every served version. */
export function groupVersionsOf(groupList: unknown): string[] {
  const groups = (groupList as { groups?: unknown } | null)?.groups;
  if (!Array.isArray(groups)) return [];
  const out: string[] = [];
  for (const g of groups as { versions?: { groupVersion?: unknown }[]; preferredVersion?: { groupVersion?: unknown } }[]) {
    const preferred = g.preferredVersion?.groupVersion;
    if (typeof preferred === 'string') out.push(preferred);
    for (const v of g.versions ?? []) {
      if (typeof v.groupVersion === 'string' && !out.includes(v.groupVersion)) out.push(v.groupVersion);
    }
  }
  return out;
}

export interface ManifestIdentity {
  apiVersion?: unknown;
  kind?: unknown;
  metadata?: { name?: unknown; namespace?: unknown; generateName?: unknown } | null;
}

export interface ResolvedTarget {
  resource: ApiResourceInfo;
  /** namespace used in the URL (undefined for cluster-scoped kinds) */
  namespace?: string;
  name?: string;
  /** e.g. /apis/apps/v1/namespaces/default/deployments */
  collectionPath: string;
  /** collectionPath + /name, when the manifest has a name */
  itemPath?: string;
}

export type Resolution = { ok: true; target: ResolvedTarget } | { ok: false; error: string };

/** API path prefix of a group version: `/api/v1` or `/apis/apps/v1`. */
export function groupVersionPath(groupVersion: string): string {
  return groupVersion.includes('/') ? `/apis/${groupVersion}` : `/api/${groupVersion}`;
}

/**
 * Where a manifest goes: the collection (POST) and item (PUT/PATCH/DELETE) URLs from its apiVersion and
 * kind (plural and scope from discovery), its namespace (defaultNamespace when absent and the kind is
 * namespaced) and its name.
 */
export function resolveManifest(index: DiscoveryIndex, doc: ManifestIdentity, defaultNamespace = 'default'): Resolution {
  const { apiVersion, kind } = doc;
  if (typeof apiVersion !== 'string' || apiVersion === '') return { ok: false, error: "apiVersion not set" };
  if (typeof kind !== 'string' || kind === '') return { ok: false, error: "kind not set" };
  const resource = index.byGvk.get(`${apiVersion}/${kind}`);
  if (!resource) {
    const { group, version } = splitGroupVersion(apiVersion);
    const gv = group ? `${group}/${version}` : version;
    return { ok: false, error: `no matches for kind "${kind}" in version "${gv}"` };
  }
  const meta = doc.metadata ?? {};
  const name = typeof meta.name === 'string' && meta.name !== '' ? meta.name : undefined;
  let namespace: string | undefined;
  if (resource.namespaced) {
    namespace = typeof meta.namespace === 'string' && meta.namespace !== '' ? meta.namespace : defaultNamespace;
  }
  const prefix = groupVersionPath(resource.groupVersion);
  const collectionPath = namespace !== undefined
    ? `${prefix}/namespaces/${encodeURIComponent(namespace)}/${resource.plural}`
    : `${prefix}/${resource.plural}`;
  return {
    ok: true,
    target: {
      resource,
      namespace,
      name,
      collectionPath,
      itemPath: name !== undefined ? `${collectionPath}/${encodeURIComponent(name)}` : undefined,
    },
  };
}

/** Whether a manifest changes discovery (a CRD or an APIService): the cache is then refreshed. */
export function changesDiscovery(doc: ManifestIdentity): boolean {
  return (
    (doc.apiVersion === 'apiextensions.k8s.io/v1' && doc.kind === 'CustomResourceDefinition') ||
    (doc.apiVersion === 'apiregistration.k8s.io/v1' && doc.kind === 'APIService')
  );
}

/** Reads and caches discovery through `fetchJson`; `invalidate()` makes the next `get()` read it again. */
export class DiscoveryCache {
  private current?: Promise<DiscoveryIndex>;
  constructor(private readonly fetchJson: (path: string) => Promise<unknown>) {}

  get(): Promise<DiscoveryIndex> {
    this.current ??= this.load().catch((err: unknown) => {
      this.current = undefined;
      throw err;
    });
    return this.current;
  }

  invalidate(): void {
    this.current = undefined;
  }

  private async load(): Promise<DiscoveryIndex> {
    const groupVersions = ['v1', ...groupVersionsOf(await this.fetchJson('/apis'))];
    const lists = await Promise.all(
      groupVersions.map(async (groupVersion) => {
        try {
          return { groupVersion, list: await this.fetchJson(groupVersionPath(groupVersion)) };
        } catch {
          return { groupVersion, list: undefined };
        }
      }),
    );
    return indexDiscovery(lists);
  }
}
