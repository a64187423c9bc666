// Informers on the wire: a metadata informer (client-go's, as the garbage collector's monitors use) lists and
// watches PartialObjectMetadata, so its handlers and store hold kind, apiVersion and metadata only; a plain
// informer gets whole objects. The garbage collector still collects through its metadata monitors.
import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import type { KubeObject } from '../object.js';
import { testClient } from '../testing/harness.js';
import type { ControllerSpec } from './manager.js';
import type { Informer } from './informer.js';

const CMS = '/api/v1/namespaces/default/configmaps';

/** A controller that only records what two informers of ConfigMaps hand over, one of them metadata only. */
function recorder() {
  const seen = { meta: [] as [string, KubeObject][], whole: [] as [string, KubeObject][] };
  const informers: { meta?: Informer; whole?: Informer } = {};
  const spec: ControllerSpec = {
    serviceAccount: 'generic-garbage-collector',
    start(ctx) {
      informers.meta = ctx.informer(CMS, { add: (o) => seen.meta.push(['add', o]), update: (_old, o) => seen.meta.push(['update', o]), delete: (o) => seen.meta.push(['delete', o]) }, undefined, { metadataOnly: true });
      informers.whole = ctx.informer(CMS, { add: (o) => seen.whole.push(['add', o]), update: (_old, o) => seen.whole.push(['update', o]) });
      return { name: 'recorder' };
    },
  };
  return { spec, seen, informers };
}

describe('informers', () => {
  it('a metadata informer lists and watches PartialObjectMetadata; a plain one gets whole objects', async () => {
    const r = recorder();
    const c2 = await testClient(createMemoryStorage(), { defaultObjects: false, controllers: [r.spec] });
    // the first object is there before the informers list, the second arrives through their watch
    await c2.req('POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'listed', labels: { a: 'b' } }, data: { big: 'x'.repeat(100) } });
    await c2.settle();
    await c2.req('POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'watched' }, data: { k: 'v' } });
    await c2.req('PATCH', `${CMS}/watched`, { metadata: { labels: { x: 'y' } } }, { 'Content-Type': 'application/merge-patch+json' });
    await c2.settle();
    expect(r.seen.meta.map(([t, o]) => `${t} ${o.metadata?.name}`)).toEqual(['add listed', 'add watched', 'update watched']);
    for (const [, o] of r.seen.meta) {
      expect(o.kind).toBe('PartialObjectMetadata');
      expect(o.apiVersion).toBe('meta.k8s.io/v1');
      expect(Object.keys(o).sort()).toEqual(['apiVersion', 'kind', 'metadata']);
      expect(o.metadata?.uid).toMatch(/./);
      expect(o.metadata?.managedFields?.length).toBeGreaterThan(0);
    }
    expect(r.seen.meta[2][1].metadata?.labels).toEqual({ x: 'y' });
    expect([...r.informers.meta!.store.values()].every((o) => !('data' in o))).toBe(true);
    // the plain informer of the same collection: whole ConfigMaps, data included
    expect(r.seen.whole.map(([t, o]) => `${t} ${o.kind} ${o.metadata?.name} ${Object.keys((o as { data?: object }).data ?? {}).join(',')}`)).toEqual([
      'add ConfigMap listed big',
      'add ConfigMap watched k',
      'update ConfigMap watched k',
    ]);
  });

  it('the garbage collector collects through its metadata monitors: a ConfigMap owned by a deleted one goes', async () => {
    const c = await testClient(createMemoryStorage(), { defaultObjects: false });
    await c.settle();
    const owner = (await c.req('POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owner' }, data: { a: '1' } })).body as KubeObject;
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata!.uid };
    expect((await c.req('POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'dependent', ownerReferences: [ref] }, data: { b: '2' } })).status).toBe(201);
    await c.settle();
    expect((await c.req('DELETE', `${CMS}/owner`)).status).toBe(200);
    await c.settle();
    expect((await c.req('GET', `${CMS}/dependent`)).status).toBe(404);
  });
});
