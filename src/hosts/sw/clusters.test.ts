import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import type { Storage } from '../../engine/storage/interface.js';
import { clusterDatabaseName, createClusterEngines, routeCluster } from './clusters.js';

describe('routeCluster', () => {
  const root = new URL('http://localhost:5173/');
  const sub = new URL('https://example.dev/play/');
  it('routes URLs under <app base>clusters/<cluster>', () => {
    expect(routeCluster(new URL('http://localhost:5173/clusters/default/api/v1/namespaces'), root)).toEqual({
      cluster: 'default',
      basePath: '/clusters/default',
    });
    expect(routeCluster(new URL('http://localhost:5173/clusters/dev-2'), root)).toEqual({ cluster: 'dev-2', basePath: '/clusters/dev-2' });
    expect(routeCluster(new URL('https://example.dev/play/clusters/x/apis?timeout=1s'), sub)).toEqual({
      cluster: 'x',
      basePath: '/play/clusters/x',
    });
  });
  it('leaves everything else to the network', () => {
    expect(routeCluster(new URL('http://localhost:5173/'), root)).toBeUndefined();
    expect(routeCluster(new URL('http://localhost:5173/assets/main.js'), root)).toBeUndefined();
    expect(routeCluster(new URL('http://localhost:5173/clusters/'), root)).toBeUndefined();
    expect(routeCluster(new URL('http://localhost:5173/clustersx/a'), root)).toBeUndefined();
    expect(routeCluster(new URL('http://other:5173/clusters/default/api'), root)).toBeUndefined();
    expect(routeCluster(new URL('https://example.dev/clusters/default/api'), sub)).toBeUndefined();
  });
  it('marks invalid cluster names', () => {
    expect(routeCluster(new URL('http://localhost:5173/clusters/Prod/api'), root)).toEqual({
      cluster: 'Prod',
      basePath: '/clusters/Prod',
      invalid: true,
    });
  });
  it('names one database per cluster', () => {
    expect(clusterDatabaseName('default')).toBe('kube-cluster-default');
  });
});

describe('createClusterEngines', () => {
  const route = { cluster: 'default', basePath: '/clusters/default' };
  const url = (path: string) => `http://localhost/clusters/default${path}`;

  it('starts one engine per cluster on first use and reuses it', async () => {
    const opened: string[] = [];
    const engines = createClusterEngines({
      host: 'page',
      openStorage: (cluster) => {
        opened.push(cluster);
        return createMemoryStorage();
      },
    });
    const res = await engines.handle(route, new Request(url('/api/v1/namespaces')));
    expect(res.status).toBe(200);
    const list = (await res.json()) as { kind: string; items: { metadata: { name: string } }[] };
    expect(list.kind).toBe('NamespaceList');
    expect(list.items.map((i) => i.metadata.name).sort()).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    const created = await engines.handle(
      route,
      new Request(url('/api/v1/namespaces/default/configmaps'), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } }),
      }),
    );
    expect(created.status).toBe(201);
    expect((await engines.handle(route, new Request(url('/api/v1/namespaces/default/configmaps/a')))).status).toBe(200);
    await engines.handle({ cluster: 'other', basePath: '/clusters/other' }, new Request('http://localhost/clusters/other/api'));
    expect(opened).toEqual(['default', 'other']);
    await engines.closeAll();
  });

  it('answers an invalid cluster name with a 400 Status', async () => {
    const engines = createClusterEngines({ host: 'page', openStorage: () => createMemoryStorage() });
    const res = await engines.handle({ cluster: 'A_B', basePath: '/clusters/A_B', invalid: true }, new Request('http://localhost/clusters/A_B/api'));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'invalid cluster name "A_B": must be a lowercase DNS label (^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$)',
      reason: 'BadRequest',
      code: 400,
    });
  });

  it('does not cache a failed start, and drops an engine whose storage is lost', async () => {
    let attempts = 0;
    let lose: (() => void) | undefined;
    const engines = createClusterEngines({
      host: 'page',
      openStorage: (_cluster, onLost): Storage => {
        attempts++;
        if (attempts === 1) throw new Error('disk on fire');
        lose = onLost;
        return createMemoryStorage();
      },
    });
    const failed = await engines.handle(route, new Request(url('/api')));
    expect(failed.status).toBe(500);
    expect(await failed.json()).toMatchObject({
      reason: 'InternalError',
      message: 'Internal error occurred: cluster "default" could not be started: disk on fire',
      code: 500,
    });
    expect((await engines.handle(route, new Request(url('/api')))).status).toBe(200);
    expect((await engines.handle(route, new Request(url('/api')))).status).toBe(200);
    expect(attempts).toBe(2);
    lose?.();
    expect((await engines.handle(route, new Request(url('/api')))).status).toBe(200);
    expect(attempts).toBe(3);
    await engines.closeAll();
  });
});
