// What a destructive request will take with it, in words for the confirm dialog: the objects of a namespace
// by resource and count, the members of a collection by name, the custom resources of a CRD. Read over
// HTTP through the fetch function given (the panels' logged fetch); pure otherwise.
import { groupVersionPath, resolveManifest, type DiscoveryIndex, type ManifestIdentity } from '../editor/discovery.js';

export type FetchJson = (path: string) => Promise<unknown>;

const LIST_LIMIT = 500;

interface ListBody {
  items?: { metadata?: { name?: string; namespace?: string } }[];
  metadata?: { remainingItemCount?: number; continue?: string };
}

/** Number of items of a list response (with the server's count of the rest when it is chunked). */
function countOf(list: unknown): number {
  const l = list as ListBody | null;
  const n = Array.isArray(l?.items) ? l.items.length : 0;
  return n + (typeof l?.metadata?.remainingItemCount === 'number' ? l.metadata.remainingItemCount : 0);
}

function withLimit(path: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}limit=${LIST_LIMIT}`;
}

export interface Impact {
  /** One line per kind (`configmaps: 3`) or per object (`default/web`). */
  lines: string[];
  /** Objects counted. */
  total: number;
}

/** Everything in a namespace, by resource: `configmaps: 3`, `deployments.apps: 1` (resources with none are left out). */
export async function namespaceContents(index: DiscoveryIndex, namespace: string, fetchJson: FetchJson): Promise<Impact> {
  const seen = new Set<string>();
  const resources = [...index.byGvk.values()].filter((r) => {
    const id = `${r.group}/${r.plural}`;
    if (!r.namespaced || !r.verbs.includes('list') || seen.has(id)) return false;
    seen.add(id);
    return true;
  });
  const counted = await Promise.all(
    resources.map(async (r) => {
      const name = r.group ? `${r.plural}.${r.group}` : r.plural;
      try {
        const list = await fetchJson(withLimit(`${groupVersionPath(r.groupVersion)}/namespaces/${encodeURIComponent(namespace)}/${r.plural}`));
        return { name, count: countOf(list) };
      } catch {
        return { name, count: -1 };
      }
    }),
  );
  const lines: string[] = [];
  let total = 0;
  for (const c of counted.sort((a, b) => a.name.localeCompare(b.name))) {
    if (c.count < 0) lines.push(`${c.name}: could not be counted`);
    else if (c.count > 0) {
      lines.push(`${c.name}: ${c.count}`);
      total += c.count;
    }
  }
  return { lines, total };
}

/** The members of a collection (the list path as the request gives it, selectors included), by name. */
export async function collectionContents(path: string, fetchJson: FetchJson): Promise<Impact> {
  const list = (await fetchJson(withLimit(path))) as ListBody | null;
  const items = Array.isArray(list?.items) ? list.items : [];
  const lines = items.map((i) => (i.metadata?.namespace ? `${i.metadata.namespace}/${i.metadata?.name ?? ''}` : (i.metadata?.name ?? '')));
  return { lines, total: countOf(list) };
}

/** What an API path addresses, for a DELETE: a namespace, a collection, or one object. */
export type DeleteTarget =
  | { kind: 'namespace'; name: string }
  | { kind: 'collection'; path: string; resource: string; namespace?: string }
  | { kind: 'object'; path: string; resource: string; namespace?: string; name: string };

/** Parses `/api/v1/...` and `/apis/<group>/<version>/...` paths (query kept for collections); undefined for others. */
export function deleteTarget(path: string): DeleteTarget | undefined {
  const [pathname] = path.split('?');
  const parts = pathname.split('/').filter(Boolean).map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return p;
    }
  });
  let rest: string[];
  let group = '';
  if (parts[0] === 'api' && parts.length >= 3) rest = parts.slice(2);
  else if (parts[0] === 'apis' && parts.length >= 4) {
    group = parts[1];
    rest = parts.slice(3);
  } else return undefined;
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3 && rest[2] !== 'status' && rest[2] !== 'finalize') {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const [plural, name] = rest;
  if (!plural) return undefined;
  const resource = group ? `${plural}.${group}` : plural;
  if (!group && plural === 'namespaces' && name && rest.length === 2) return { kind: 'namespace', name };
  if (!name) return { kind: 'collection', path, resource, namespace };
  return { kind: 'object', path, resource, namespace, name };
}

/** The custom resources a CRD manifest serves, counted across namespaces: `widgets.example.com: 4`. */
export async function crdContents(doc: unknown, fetchJson: FetchJson): Promise<Impact | undefined> {
  const spec = (doc as { spec?: { group?: unknown; names?: { plural?: unknown }; versions?: { name?: unknown; served?: unknown }[] } } | null)?.spec;
  const group = spec?.group;
  const plural = spec?.names?.plural;
  const version = spec?.versions?.find((v) => v.served !== false && typeof v.name === 'string')?.name;
  if (typeof group !== 'string' || typeof plural !== 'string' || typeof version !== 'string') return undefined;
  try {
    const list = await fetchJson(withLimit(`/apis/${group}/${version}/${plural}`));
    const n = countOf(list);
    return { lines: [`${plural}.${group}: ${n}`], total: n };
  } catch {
    return undefined;
  }
}

/** The confirm dialog's title and lines for deleting the objects of the editor's documents. */
export async function editorDeleteImpact(
  index: DiscoveryIndex,
  docs: unknown[],
  fetchJson: FetchJson,
): Promise<{ title: string; lines: string[] }> {
  const lines: string[] = [];
  const objects: string[] = [];
  for (const doc of docs) {
    const r = resolveManifest(index, doc as ManifestIdentity);
    if (!r.ok || !r.target.name) continue; // the request will fail on its own, deleting nothing
    const { resource, namespace, name } = r.target;
    const label = `${resource.kind} ${namespace ? `${namespace}/` : ''}${name}`;
    objects.push(label);
    lines.push(label);
    if (resource.group === '' && resource.plural === 'namespaces') {
      const inside = await namespaceContents(index, name, fetchJson);
      lines.push(
        inside.total === 0 && inside.lines.length === 0
          ? `  and everything in it: no objects now`
          : `  and everything in it (${inside.total} object${inside.total === 1 ? '' : 's'}): ${inside.lines.join(', ')}`,
      );
    } else if (resource.group === 'apiextensions.k8s.io' && resource.plural === 'customresourcedefinitions') {
      const crs = await crdContents(doc, fetchJson);
      lines.push(crs ? `  and all its custom resources: ${crs.lines.join(', ')}` : '  and all its custom resources');
    }
  }
  const title = objects.length === 1 ? `Delete ${objects[0]}?` : `Delete ${objects.length} objects?`;
  return { title, lines };
}
