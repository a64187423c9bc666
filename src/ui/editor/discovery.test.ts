import { describe, expect, it } from 'vitest';
import { changesDiscovery, DiscoveryCache, groupVersionsOf, indexDiscovery, resolveManifest } from './discovery.js';

const core = {
  kind: 'APIResourceList',
  groupVersion: 'v1',
  resources: [
    { name: 'configmaps', kind: 'ConfigMap', namespaced: true, verbs: ['create', 'get', 'list'] },
    { name: 'namespaces', kind: 'Namespace', namespaced: false, verbs: ['create', 'get'] },
    { name: 'pods/status', kind: 'Pod', namespaced: true, verbs: ['get'] },
    { name: 'pods', kind: 'Pod', namespaced: true, verbs: ['get'] },
  ],
};
const apps = {
  groupVersion: 'apps/v1',
  resources: [
    { name: 'deployments', kind: 'Deployment', namespaced: true, verbs: ['get'] },
    { name: 'deployments/scale', kind: 'Scale', namespaced: true, verbs: ['get'] },
  ],
};
const index = indexDiscovery([
  { groupVersion: 'v1', list: core },
  { groupVersion: 'apps/v1', list: apps },
]);

describe('resolveManifest', () => {
  it('resolves a namespaced core kind, defaulting the namespace', () => {
    const r = resolveManifest(index, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a b' } });
    expect(r).toEqual({
      ok: true,
      target: {
        resource: { groupVersion: 'v1', group: '', version: 'v1', plural: 'configmaps', kind: 'ConfigMap', namespaced: true, verbs: ['create', 'get', 'list'] },
        namespace: 'default',
        name: 'a b',
        collectionPath: '/api/v1/namespaces/default/configmaps',
        itemPath: '/api/v1/namespaces/default/configmaps/a%20b',
      },
    });
  });

  it('uses the manifest namespace and the group path', () => {
    const r = resolveManifest(index, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'prod' } }, 'other');
    expect(r.ok && r.target.itemPath).toBe('/apis/apps/v1/namespaces/prod/deployments/web');
  });

  it('ignores a namespace on a cluster-scoped kind; subresources do not shadow the resource', () => {
    const ns = resolveManifest(index, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x', namespace: 'y' } });
    expect(ns.ok && [ns.target.collectionPath, ns.target.itemPath, ns.target.namespace]).toEqual(['/api/v1/namespaces', '/api/v1/namespaces/x', undefined]);
    const pod = resolveManifest(index, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } });
    expect(pod.ok && pod.target.resource.plural).toBe('pods');
  });

  it('without a name there is only a collection path (generateName)', () => {
    const r = resolveManifest(index, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'x-' } });
    expect(r.ok && r.target.itemPath).toBeUndefined();
    expect(r.ok && r.target.collectionPath).toBe('/api/v1/namespaces/default/configmaps');
  });

  it('reports unknown kinds as kubectl does, and missing apiVersion/kind', () => {
    expect(resolveManifest(index, { apiVersion: 'example.com/v1', kind: 'Widget' })).toEqual({ ok: false, error: 'no matches for kind "Widget" in version "example.com/v1"' });
    expect(resolveManifest(index, { kind: 'Widget' })).toEqual({ ok: false, error: 'apiVersion not set' });
    expect(resolveManifest(index, { apiVersion: 'v1' })).toEqual({ ok: false, error: 'kind not set' });
  });
});

describe('discovery', () => {
  it('lists preferred then other group versions', () => {
    expect(
      groupVersionsOf({
        groups: [
          { name: 'apps', versions: [{ groupVersion: 'apps/v1' }], preferredVersion: { groupVersion: 'apps/v1' } },
          { name: 'x', versions: [{ groupVersion: 'x/v2' }, { groupVersion: 'x/v1' }], preferredVersion: { groupVersion: 'x/v1' } },
        ],
      }),
    ).toEqual(['apps/v1', 'x/v1', 'x/v2']);
  });

  it('CRDs and APIServices change discovery', () => {
    expect(changesDiscovery({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' })).toBe(true);
    expect(changesDiscovery({ apiVersion: 'v1', kind: 'ConfigMap' })).toBe(false);
  });

  it('DiscoveryCache reads once, and again after invalidate()', async () => {
    const calls: string[] = [];
    const docs: Record<string, unknown> = {
      '/apis': { groups: [{ versions: [{ groupVersion: 'apps/v1' }], preferredVersion: { groupVersion: 'apps/v1' } }] },
      '/api/v1': core,
      '/apis/apps/v1': apps,
    };
    const cache = new DiscoveryCache(async (p) => {
      calls.push(p);
      return docs[p];
    });
    const a = await cache.get();
    await cache.get();
    expect(a.byGvk.has('apps/v1/Deployment')).toBe(true);
    expect(calls.sort()).toEqual(['/api/v1', '/apis', '/apis/apps/v1']);
    cache.invalidate();
    await cache.get();
    expect(calls.length).toBe(6);
  });
});
