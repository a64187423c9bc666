// Which resource a word names, as kubectl's REST mapper answers: plural, singular, short name or kind (any
// case), optionally qualified as `resource.group` or `resource.version.group`; the core group first, then the
// groups in the server's discovery order, each at its preferred version.

export interface ResourceInfo {
  group: string;
  version: string;
  plural: string;
  singular: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
  shortNames: string[];
  categories: string[];
  /** Subresources served, e.g. ["status", "scale"]. */
  subresources: string[];
}

export type Fetcher = (path: string, init?: RequestInit) => Promise<Response>;

interface RawResource {
  name?: unknown;
  singularName?: unknown;
  kind?: unknown;
  namespaced?: unknown;
  verbs?: unknown;
  shortNames?: unknown;
  categories?: unknown;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

export class ResourceCatalog {
  /** Preferred versions, core first then discovery order. */
  readonly preferred: ResourceInfo[] = [];
  /** Every version (for `resource.version.group`). */
  readonly everyVersion: ResourceInfo[] = [];

  static async load(fetcher: Fetcher): Promise<ResourceCatalog> {
    const cat = new ResourceCatalog();
    const getJson = async (path: string): Promise<unknown> => {
      const r = await fetcher(path, { headers: { Accept: 'application/json' } });
      if (!r.ok) throw new Error(`discovery ${path}: ${r.status}`);
      return r.json();
    };
    const lists: { group: string; version: string; preferred: boolean; list: Promise<unknown> }[] = [];
    lists.push({ group: '', version: 'v1', preferred: true, list: getJson('/api/v1') });
    const groups = (await getJson('/apis')) as { groups?: { name: string; versions: { version: string }[]; preferredVersion?: { version: string } }[] };
    for (const g of groups.groups ?? []) {
      const pref = g.preferredVersion?.version ?? g.versions[0]?.version;
      for (const v of g.versions) lists.push({ group: g.name, version: v.version, preferred: v.version === pref, list: getJson(`/apis/${g.name}/${v.version}`) });
    }
    for (const l of lists) {
      const list = (await l.list.catch(() => ({}))) as { resources?: RawResource[] };
      const subs = new Map<string, string[]>();
      for (const r of list.resources ?? []) {
        if (typeof r.name !== 'string' || !r.name.includes('/')) continue;
        const [main, sub] = r.name.split('/');
        subs.set(main, [...(subs.get(main) ?? []), sub]);
      }
      for (const r of list.resources ?? []) {
        if (typeof r.name !== 'string' || r.name.includes('/') || typeof r.kind !== 'string') continue;
        const info: ResourceInfo = {
          group: l.group,
          version: l.version,
          plural: r.name,
          singular: typeof r.singularName === 'string' && r.singularName ? r.singularName : r.kind.toLowerCase(),
          kind: r.kind,
          namespaced: r.namespaced === true,
          verbs: strings(r.verbs),
          shortNames: strings(r.shortNames),
          categories: strings(r.categories),
          subresources: subs.get(r.name) ?? [],
        };
        cat.everyVersion.push(info);
        if (l.preferred) cat.preferred.push(info);
      }
    }
    return cat;
  }

  /** The resource a word names, or undefined (kubectl: `the server doesn't have a resource type "x"`). */
  resolve(word: string): ResourceInfo | undefined {
    const lower = word.toLowerCase();
    const matches = (r: ResourceInfo, name: string) =>
      r.plural === name || r.singular === name || r.shortNames.includes(name) || r.kind.toLowerCase() === name;
    // unqualified first (a name with dots may still be a plain resource name)
    const plain = this.preferred.find((r) => matches(r, lower));
    if (plain) return plain;
    const parts = lower.split('.');
    for (let i = 1; i < parts.length; i++) {
      const name = parts.slice(0, i).join('.');
      const rest = parts.slice(i);
      // resource.version.group
      if (rest.length >= 2) {
        const version = rest[0];
        const group = rest.slice(1).join('.');
        const hit = this.everyVersion.find((r) => r.version === version && r.group === group && matches(r, name));
        if (hit) return hit;
      }
      const group = rest.join('.');
      const hit = this.preferred.find((r) => r.group === group && matches(r, name));
      if (hit) return hit;
    }
    return undefined;
  }

  /** Resources of a category (`all`), as kubectl expands `get all`. */
  category(name: string): ResourceInfo[] {
    return this.preferred.filter((r) => r.categories.includes(name));
  }
}

/** `configmap` or `deployment.apps`: how kubectl names a resource kind in its messages. */
export function kindGroup(r: ResourceInfo): string {
  return r.group ? `${r.kind.toLowerCase()}.${r.group}` : r.kind.toLowerCase();
}

/** `configmaps` or `deployments.apps`: the resource with its group, as in Status messages. */
export function pluralGroup(r: ResourceInfo): string {
  return r.group ? `${r.plural}.${r.group}` : r.plural;
}

/** The collection path of a resource (namespace ignored for cluster-scoped ones). */
export function collectionPath(r: ResourceInfo, namespace: string | undefined): string {
  const base = r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
  return r.namespaced && namespace ? `${base}/namespaces/${encodeURIComponent(namespace)}/${r.plural}` : `${base}/${r.plural}`;
}

export function objectPath(r: ResourceInfo, namespace: string | undefined, name: string, subresource?: string): string {
  return `${collectionPath(r, r.namespaced ? namespace : undefined)}/${encodeURIComponent(name)}${subresource ? `/${subresource}` : ''}`;
}
