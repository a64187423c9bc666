// Discovery for the resource browser: which groups and resources the server lists (/api, /apis), so custom
// resources appear once their CRD is established. Pure parts are exported for tests.
import type { PlaygroundStore } from '../../playground.js';
import { fetchJson } from '../common/ui.js';

export interface ApiResource {
  groupVersion: string;
  /** '' for the core group */
  group: string;
  name: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
  shortNames?: string[];
}

export interface ApiGroupView {
  /** '' for the core group, shown as "core" */
  name: string;
  groupVersion: string;
  resources: ApiResource[];
}

interface ResourceList {
  groupVersion?: string;
  resources?: { name: string; kind: string; namespaced: boolean; verbs?: string[]; shortNames?: string[] }[];
}

/** Top-level resources of a group version that can be listed (subresources like `pods/status` are left out). */
export function listableResources(list: ResourceList, groupVersion: string): ApiResource[] {
  const group = groupVersion.includes('/') ? groupVersion.split('/')[0] : '';
  return (list.resources ?? [])
    .filter((r) => !r.name.includes('/') && (r.verbs ?? []).includes('list'))
    .map((r) => ({ groupVersion, group, name: r.name, kind: r.kind, namespaced: r.namespaced, verbs: r.verbs ?? [], shortNames: r.shortNames }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The core group first, then the others by name. */
export function sortGroups(groups: ApiGroupView[]): ApiGroupView[] {
  return [...groups].sort((a, b) => (a.name === '' ? -1 : b.name === '' ? 1 : a.name.localeCompare(b.name)));
}

/** Reads /api and /apis and every preferred group version. */
export async function discover(store: PlaygroundStore, source = 'browser'): Promise<ApiGroupView[]> {
  const [core, apis] = await Promise.all([
    fetchJson<{ versions?: string[] }>(store, '/api', source),
    fetchJson<{ groups?: { name: string; preferredVersion?: { groupVersion: string }; versions?: { groupVersion: string }[] }[] }>(store, '/apis', source),
  ]);
  const targets: { name: string; groupVersion: string; path: string }[] = [];
  for (const v of core.versions ?? []) targets.push({ name: '', groupVersion: v, path: `/api/${v}` });
  for (const g of apis.groups ?? []) {
    const gv = g.preferredVersion?.groupVersion ?? g.versions?.[0]?.groupVersion;
    if (gv) targets.push({ name: g.name, groupVersion: gv, path: `/apis/${gv}` });
  }
  const lists = await Promise.all(
    targets.map((t) =>
      fetchJson<ResourceList>(store, t.path, source).then(
        (l) => ({ ...t, resources: listableResources(l, t.groupVersion) }),
        () => ({ ...t, resources: [] as ApiResource[] }),
      ),
    ),
  );
  return sortGroups(lists.map(({ name, groupVersion, resources }) => ({ name, groupVersion, resources })));
}

export const TABLE_ACCEPT = 'application/json;as=Table;g=meta.k8s.io;v=v1, application/json';

export interface TableView {
  columns: { name: string; type: string; priority: number }[];
  rows: { cells: unknown[]; name: string; namespace?: string }[];
  resourceVersion?: string;
}

interface TableBody {
  kind?: string;
  metadata?: { resourceVersion?: string };
  columnDefinitions?: { name: string; type: string; priority?: number }[];
  rows?: { cells: unknown[]; object?: { metadata?: { name?: string; namespace?: string } } }[];
  items?: { metadata?: { name?: string; namespace?: string; creationTimestamp?: string } }[];
}

/** A Table response (or, from a server without Table support, a plain list) as columns and rows. */
export function toTableView(body: TableBody, wide = false): TableView {
  if (body.kind === 'Table' && body.columnDefinitions) {
    const keep = body.columnDefinitions.map((c, i) => ({ c, i })).filter(({ c }) => wide || (c.priority ?? 0) === 0);
    const nameIdx = body.columnDefinitions.findIndex((c) => c.name === 'Name');
    return {
      columns: keep.map(({ c }) => ({ name: c.name, type: c.type, priority: c.priority ?? 0 })),
      rows: (body.rows ?? []).map((r) => ({
        cells: keep.map(({ i }) => r.cells[i]),
        name: r.object?.metadata?.name ?? String(r.cells[nameIdx >= 0 ? nameIdx : 0] ?? ''),
        namespace: r.object?.metadata?.namespace,
      })),
      resourceVersion: body.metadata?.resourceVersion,
    };
  }
  return {
    columns: [
      { name: 'Name', type: 'string', priority: 0 },
      { name: 'Created At', type: 'date', priority: 0 },
    ],
    rows: (body.items ?? []).map((o) => ({
      cells: [o.metadata?.name ?? '', o.metadata?.creationTimestamp ?? ''],
      name: o.metadata?.name ?? '',
      namespace: o.metadata?.namespace,
    })),
    resourceVersion: body.metadata?.resourceVersion,
  };
}
