import { describe, expect, it } from 'vitest';
import { load } from 'js-yaml';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient } from '../../engine/testing/harness.js';
import { listableResources } from '../panels/browser/discovery.js';
import { cleanForExport, collectObjects, exportObjects, isDefaultObject, toKubectlYaml } from './export.js';

describe('cleanForExport', () => {
  it('drops what the server owns, keeps the manifest', () => {
    expect(
      cleanForExport({
        apiVersion: 'v1',
        kind: 'Service',
        metadata: {
          name: 's',
          namespace: 'a',
          uid: 'u',
          resourceVersion: '5',
          creationTimestamp: 't',
          generation: 1,
          managedFields: [],
          ownerReferences: [{ uid: 'x' }],
          labels: { app: 's' },
          annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}' },
        },
        spec: { clusterIP: '10.0.0.1', clusterIPs: ['10.0.0.1'], ports: [{ port: 80 }] },
        status: { loadBalancer: {} },
      }),
    ).toEqual({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'a', labels: { app: 's' } }, spec: { ports: [{ port: 80 }] } });
    expect(cleanForExport({ kind: 'Service', metadata: { name: 'h' }, spec: { clusterIP: 'None' } }).spec).toEqual({ clusterIP: 'None' });
  });
});

describe('export of a real cluster (the browser hosts\' defaults)', () => {
  it('a fresh cluster exports nothing; the user\'s objects export in apply order and apply again to a fresh cluster', async () => {
    const c = await testClient(createMemoryStorage(), { auth: { bootstrapPolicy: true } });
    await c.settle();
    const resources = async (client: typeof c) => {
      const out = listableResources((await client.req('GET', '/api/v1')).body, 'v1');
      for (const g of (await client.req('GET', '/apis')).body.groups) {
        const gv = g.preferredVersion.groupVersion;
        out.push(...listableResources((await client.req('GET', `/apis/${gv}`)).body, gv));
      }
      return out;
    };
    const getJson = (client: typeof c) => async (p: string) => (await client.req('GET', p)).body;
    const fresh = exportObjects(await collectObjects(await resources(c), getJson(c)));
    expect(fresh.map((o) => `${o.kind} ${o.metadata?.namespace ?? ''}/${o.metadata?.name}`)).toEqual([]);

    expect((await c.req('POST', '/api/v1/namespaces', { metadata: { name: 'team' } })).status).toBe(201);
    await c.settle();
    expect((await c.req('POST', '/api/v1/namespaces/team/configmaps', { metadata: { name: 'cfg' }, data: { a: '1' } })).status).toBe(201);
    expect((await c.req('POST', '/apis/apps/v1/namespaces/team/deployments', {
      metadata: { name: 'web' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    })).status).toBe(201);
    expect((await c.req('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/team/rolebindings', {
      metadata: { name: 'jane-view' }, subjects: [{ kind: 'User', name: 'jane', apiGroup: 'rbac.authorization.k8s.io' }], roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
    })).status).toBe(201);
    const objects = exportObjects(await collectObjects(await resources(c), getJson(c)));
    expect(objects.map((o) => `${o.kind} ${o.metadata?.namespace ?? ''}/${o.metadata?.name}`)).toEqual(['Namespace /team', 'ConfigMap team/cfg', 'Deployment team/web', 'RoleBinding team/jane-view']);
    const yaml = toKubectlYaml(objects, 'demo');
    expect(yaml.startsWith('# Exported from the browser cluster "demo"')).toBe(true);
    const docs = yaml.split(/^---\n/m).slice(1).map((d) => load(d) as Record<string, unknown>);
    expect(docs).toHaveLength(4);
    expect(docs[2]).not.toHaveProperty('status');

    // the documents apply, in their order, to another fresh cluster (as kubectl apply --server-side would)
    const other = await testClient(createMemoryStorage(), { auth: { bootstrapPolicy: true } });
    await other.settle();
    for (const d of docs) {
      const m = d.metadata as { name: string; namespace?: string };
      const gv = d.apiVersion as string;
      const plural = { Namespace: 'namespaces', ConfigMap: 'configmaps', Deployment: 'deployments', RoleBinding: 'rolebindings' }[d.kind as string];
      const path = `${gv.includes('/') ? '/apis' : '/api'}/${gv}${m.namespace ? `/namespaces/${m.namespace}` : ''}/${plural}/${m.name}?fieldManager=kubectl`;
      const r = await other.req('PATCH', path, JSON.stringify(d), { 'Content-Type': 'application/apply-patch+yaml' });
      expect(r.status, `${path}: ${r.text}`).toBe(201);
    }
    expect(isDefaultObject({ kind: 'Namespace', metadata: { name: 'team' } })).toBe(false);
  });
});
