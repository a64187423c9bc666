import { describe, expect, it } from 'vitest';
import { indexDiscovery } from '../editor/discovery.js';
import { collectionContents, deleteTarget, editorDeleteImpact, namespaceContents } from './impact.js';

const index = indexDiscovery([
  {
    groupVersion: 'v1',
    list: {
      resources: [
        { name: 'namespaces', kind: 'Namespace', namespaced: false, verbs: ['list', 'delete'] },
        { name: 'configmaps', kind: 'ConfigMap', namespaced: true, verbs: ['list', 'delete'] },
        { name: 'secrets', kind: 'Secret', namespaced: true, verbs: ['list'] },
        { name: 'bindings', kind: 'Binding', namespaced: true, verbs: ['create'] },
      ],
    },
  },
  { groupVersion: 'apps/v1', list: { resources: [{ name: 'deployments', kind: 'Deployment', namespaced: true, verbs: ['list'] }] } },
  {
    groupVersion: 'apiextensions.k8s.io/v1',
    list: { resources: [{ name: 'customresourcedefinitions', kind: 'CustomResourceDefinition', namespaced: false, verbs: ['list'] }] },
  },
]);

const items = (n: number, ns = 'team') => ({ items: Array.from({ length: n }, (_, i) => ({ metadata: { name: `o${i}`, namespace: ns } })) });

function fake(lists: Record<string, unknown>) {
  const asked: string[] = [];
  const fetchJson = async (path: string) => {
    asked.push(path);
    const key = path.split('?')[0];
    if (!(key in lists)) throw new Error(`404 from ${path}`);
    return lists[key];
  };
  return { asked, fetchJson };
}

describe('what a delete takes with it', () => {
  it("counts a namespace's objects by resource, every listable namespaced resource once", async () => {
    const { asked, fetchJson } = fake({
      '/api/v1/namespaces/team/configmaps': items(2),
      '/api/v1/namespaces/team/secrets': { items: [{}], metadata: { remainingItemCount: 600 } },
      '/apis/apps/v1/namespaces/team/deployments': items(0),
    });
    expect(await namespaceContents(index, 'team', fetchJson)).toEqual({ lines: ['configmaps: 2', 'secrets: 601'], total: 603 });
    expect(asked.sort()).toEqual([
      '/api/v1/namespaces/team/configmaps?limit=500',
      '/api/v1/namespaces/team/secrets?limit=500',
      '/apis/apps/v1/namespaces/team/deployments?limit=500',
    ]);
    const failing = fake({ '/api/v1/namespaces/team/configmaps': items(1) });
    expect(await namespaceContents(index, 'team', failing.fetchJson)).toEqual({
      lines: ['configmaps: 1', 'deployments.apps: could not be counted', 'secrets: could not be counted'],
      total: 1,
    });
  });

  it('names the members of a collection, selectors kept', async () => {
    const { asked, fetchJson } = fake({ '/api/v1/namespaces/team/configmaps': items(2) });
    expect(await collectionContents('/api/v1/namespaces/team/configmaps?labelSelector=a%3Db', fetchJson)).toEqual({ lines: ['team/o0', 'team/o1'], total: 2 });
    expect(asked).toEqual(['/api/v1/namespaces/team/configmaps?labelSelector=a%3Db&limit=500']);
  });

  it('parses what a DELETE path addresses', () => {
    expect(deleteTarget('/api/v1/namespaces/team')).toEqual({ kind: 'namespace', name: 'team' });
    expect(deleteTarget('/api/v1/namespaces/team/configmaps?labelSelector=x')).toEqual({
      kind: 'collection',
      path: '/api/v1/namespaces/team/configmaps?labelSelector=x',
      resource: 'configmaps',
      namespace: 'team',
    });
    expect(deleteTarget('/apis/apps/v1/namespaces/team/deployments/web')).toMatchObject({ kind: 'object', resource: 'deployments.apps', namespace: 'team', name: 'web' });
    expect(deleteTarget('/api/v1/namespaces')).toMatchObject({ kind: 'collection', resource: 'namespaces' });
    expect(deleteTarget('/apis/example.com/v1/widgets')).toMatchObject({ kind: 'collection', resource: 'widgets.example.com' });
    expect(deleteTarget('/api/v1/nodes/n1')).toMatchObject({ kind: 'object', resource: 'nodes', name: 'n1' });
    expect(deleteTarget('/healthz')).toBeUndefined();
  });

  it("the editor's Delete: each object, a namespace with its contents, a CRD with its resources", async () => {
    const { fetchJson } = fake({
      '/api/v1/namespaces/team/configmaps': items(3),
      '/api/v1/namespaces/team/secrets': items(0),
      '/apis/apps/v1/namespaces/team/deployments': items(1),
      '/apis/example.com/v1/widgets': items(4),
    });
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: { group: 'example.com', names: { plural: 'widgets' }, versions: [{ name: 'v1', served: true }] },
    };
    const out = await editorDeleteImpact(
      index,
      [
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } },
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } },
        crd,
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'x-' } },
        { apiVersion: 'example.com/v9', kind: 'Nope', metadata: { name: 'n' } },
      ],
      fetchJson,
    );
    expect(out).toEqual({
      title: 'Delete 3 objects?',
      lines: [
        'ConfigMap default/c',
        'Namespace team',
        '  and everything in it (4 objects): configmaps: 3, deployments.apps: 1',
        'CustomResourceDefinition widgets.example.com',
        '  and all its custom resources: widgets.example.com: 4',
      ],
    });
    expect((await editorDeleteImpact(index, [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'ns' } }], fetchJson)).title).toBe('Delete ConfigMap ns/c?');
  });
});
