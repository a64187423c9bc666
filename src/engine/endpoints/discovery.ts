// Discovery documents [K8S endpoints/discovery]: /api, /apis, /apis/{group}, /api/v1, /apis/{g}/{v},
// and the aggregated form (apidiscovery.k8s.io/v2) that kubectl 1.33 asks for first.

import { isPods } from './handlers/binding.js';
import type { ResourceRegistry } from '../registry/resources.js';
import { groupVersion, type ResourceDefinition, type Verb } from '../registry/types.js';
import { mirrorGroup } from '../util/spelling.js';
import { storageLocation } from '../registry/conversion.js';

const VERB_ORDER: Verb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

function sortedVerbs(verbs: readonly string[]): string[] {
  return [...verbs].sort((a, b) => VERB_ORDER.indexOf(a as Verb) - VERB_ORDER.indexOf(b as Verb));
}

/** Deterministic short hash (base64 of 8 bytes), standing in for storageVersionHash. */
export function shortHash(input: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < input.length; i++) {
    const c = input.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 16777619) >>> 0;
    h2 = Math.imul(h2 ^ c, 2246822507) >>> 0;
  }
  const bytes = [h1 >>> 24, (h1 >>> 16) & 255, (h1 >>> 8) & 255, h1 & 255, h2 >>> 24, (h2 >>> 16) & 255, (h2 >>> 8) & 255, h2 & 255];
  return btoa(String.fromCharCode(...bytes));
}

export function apiVersions(serverAddress: string): unknown {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

function groupEntry(name: string, versions: string[]) {
  return {
    name,
    versions: versions.map((v) => ({ groupVersion: `${name}/${v}`, version: v })),
    preferredVersion: { groupVersion: `${name}/${versions[0]}`, version: versions[0] },
  };
}

export function apiGroupList(registry: ResourceRegistry, spelling = ''): unknown {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: registry.groups().map((g) => groupEntry(mirrorGroup(g.name, spelling || g.name), g.versions)),
  };
}

export function apiGroup(registry: ResourceRegistry, group: string, spelling: string): unknown | undefined {
  const g = registry.groups().find((x) => x.name === group);
  if (!g) return undefined;
  return { kind: 'APIGroup', apiVersion: 'v1', ...groupEntry(mirrorGroup(g.name, spelling), g.versions) };
}

function resourceEntries(def: ResourceDefinition): Record<string, unknown>[] {
  const main: Record<string, unknown> = {
    name: def.plural,
    singularName: def.singular,
    namespaced: def.namespaced,
    kind: def.kind,
    verbs: sortedVerbs(def.verbs),
  };
  if (def.shortNames?.length) main.shortNames = def.shortNames;
  if (def.categories?.length) main.categories = def.categories;
  // served forms sharing one store (events.k8s.io and core Events) share the hash of that store
  const at = storageLocation(def);
  main.storageVersionHash = shortHash(`${at.group}/${at.resource}/${def.kind}`);
  const subs = subresourceFacts(def).map((s) => {
    const e: Record<string, unknown> = { name: `${def.plural}/${s.name}`, singularName: '', namespaced: def.namespaced };
    if (s.kind.group) {
      e.group = s.kind.group;
      e.version = s.kind.version;
    }
    e.kind = s.kind.kind;
    e.verbs = s.verbs;
    return e;
  });
  return [main, ...subs];
}

interface SubresourceFacts {
  name: string;
  kind: { group: string; version: string; kind: string };
  verbs: string[];
}

/** Every subresource of a definition as discovery lists it, in name order (as the real installer sorts paths). */
function subresourceFacts(def: ResourceDefinition): SubresourceFacts[] {
  const own = { group: '', version: '', kind: def.kind };
  const out: SubresourceFacts[] = [];
  if (def.subresources.approval) out.push({ name: 'approval', kind: own, verbs: ['get', 'patch', 'update'] });
  if (isPods(def)) out.push({ name: 'binding', kind: { group: '', version: '', kind: 'Binding' }, verbs: ['create'] });
  if (def.subresources.ephemeralcontainers) out.push({ name: 'ephemeralcontainers', kind: own, verbs: ['get', 'patch', 'update'] });
  if (def.subresources.resize) out.push({ name: 'resize', kind: own, verbs: ['get', 'patch', 'update'] });
  if (def.subresources.scale) out.push({ name: 'scale', kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'patch', 'update'] });
  if (def.subresources.finalize) out.push({ name: 'finalize', kind: own, verbs: ['update'] });
  if (def.subresources.status) out.push({ name: 'status', kind: own, verbs: ['get', 'patch', 'update'] });
  for (const c of def.connect ?? []) out.push({ name: c.name, kind: c.kind ?? own, verbs: sortedVerbs(c.verbs) });
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export function apiResourceList(registry: ResourceRegistry, group: string, version: string, spelling: string): unknown {
  const defs = registry.resourcesIn(group, version).sort((a, b) => (a.plural < b.plural ? -1 : 1));
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: group ? `${mirrorGroup(group, spelling)}/${version}` : version,
    resources: withBindings(group, version, defs.flatMap(resourceEntries), 'name', { name: 'bindings', singularName: 'binding', namespaced: true, kind: 'Binding', verbs: ['create'] }),
  };
}

export const AGGREGATED_CONTENT_TYPE = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

/** True when the Accept header asks for aggregated discovery v2 (or v2beta1) before anything else. */
export function wantsAggregated(accept: string | null): 'v2' | 'v2beta1' | undefined {
  if (!accept) return undefined;
  for (const part of accept.split(',')) {
    const p = part.replace(/\s+/g, '');
    if (!p.includes('g=apidiscovery.k8s.io') || !p.includes('as=APIGroupDiscoveryList')) {
      if (p.startsWith('application/json') || p.startsWith('*/*')) return undefined;
      continue;
    }
    if (p.includes('v=v2beta1')) return 'v2beta1';
    if (p.includes('v=v2')) return 'v2';
  }
  return undefined;
}

function discoveryResource(def: ResourceDefinition): Record<string, unknown> {
  const r: Record<string, unknown> = {
    resource: def.plural,
    responseKind: { group: '', version: '', kind: def.kind },
    scope: def.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: def.singular,
    verbs: sortedVerbs(def.verbs),
  };
  if (def.shortNames?.length) r.shortNames = def.shortNames;
  if (def.categories?.length) r.categories = def.categories;
  const subs = subresourceFacts(def).map((s) => ({ subresource: s.name, responseKind: s.kind, verbs: s.verbs }));
  if (subs.length) r.subresources = subs;
  return r;
}

/** apidiscovery.k8s.io/v2 APIGroupDiscoveryList for /api (core) or /apis (named groups). */
export function aggregatedDiscovery(registry: ResourceRegistry, core: boolean, version: 'v2' | 'v2beta1'): unknown {
  const groups = core ? [{ name: '', versions: ['v1'] }] : registry.groups();
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: `apidiscovery.k8s.io/${version}`,
    metadata: {},
    items: groups.map((g) => ({
      metadata: { name: g.name, creationTimestamp: null },
      versions: g.versions.map((v) => ({
        version: v,
        resources: withBindings(g.name, v, registry
          .resourcesIn(g.name, v)
          .sort((a, b) => (a.plural < b.plural ? -1 : 1))
          .map(discoveryResource), 'resource', {
          resource: 'bindings', responseKind: { group: '', version: '', kind: 'Binding' }, scope: 'Namespaced', singularResource: 'binding', verbs: ['create'],
        }),
        freshness: 'Current',
      })),
    })),
  };
}

/** The core v1 `bindings` resource (create only, never stored) in its sorted place. */
function withBindings(group: string, version: string, entries: Record<string, unknown>[], key: string, entry: Record<string, unknown>): Record<string, unknown>[] {
  if (group !== '' || version !== 'v1') return entries;
  const i = entries.findIndex((e) => String(e[key]) > 'bindings');
  return i < 0 ? [...entries, entry] : [...entries.slice(0, i), entry, ...entries.slice(i)];
}

export { groupVersion };
