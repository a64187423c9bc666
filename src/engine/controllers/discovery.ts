// What the controllers know of the served resources: aggregated discovery (/api and /apis, one request
// each) read through the API, as client-go's discovery client does.

import type { ApiClient } from './client.js';

export interface DiscoveredResource {
  group: string;
  version: string;
  resource: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
  /** The group's preferred version (the first one listed). */
  preferred: boolean;
}

const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

interface AggregatedList {
  items?: { metadata?: { name?: string }; versions?: { version: string; resources?: { resource: string; responseKind?: { kind?: string }; scope?: string; verbs?: string[] }[] }[] }[];
}

export async function discoverResources(client: ApiClient): Promise<DiscoveredResource[]> {
  const out: DiscoveredResource[] = [];
  for (const path of ['/api', '/apis']) {
    const r = await client.request<AggregatedList>('GET', path, undefined, undefined, AGGREGATED);
    if (r.status !== 200) throw new Error(`unable to retrieve the complete list of server APIs: ${path}: ${r.status}`);
    for (const g of r.body.items ?? []) {
      const group = g.metadata?.name ?? '';
      (g.versions ?? []).forEach((v, i) => {
        for (const res of v.resources ?? []) {
          out.push({
            group,
            version: v.version,
            resource: res.resource,
            kind: res.responseKind?.kind ?? '',
            namespaced: res.scope === 'Namespaced',
            verbs: res.verbs ?? [],
            preferred: i === 0,
          });
        }
      });
    }
  }
  return out;
}

/** The collection path of a resource, in one namespace or across all. */
export function collectionPath(r: { group: string; version: string; resource: string }, namespace = ''): string {
  const prefix = r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
  return namespace ? `${prefix}/namespaces/${namespace}/${r.resource}` : `${prefix}/${r.resource}`;
}

/** The path of one object. */
export function objectPath(r: { group: string; version: string; resource: string; namespaced: boolean }, namespace: string, name: string): string {
  return `${collectionPath(r, r.namespaced ? namespace : '')}/${encodeURIComponent(name)}`;
}
