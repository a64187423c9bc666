// Informers on the wire: a metadata informer (client-go's, as the garbage collector's monitors use) lists and
// watches PartialObjectMetadata, so its handlers and store hold kind, apiVersion and metadata only; a plain
// informer gets whole objects. The garbage collector still collects through its metadata monitors.
import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import type { KubeObject } from '../object.js';
import { testClient } from '../testing/harness.js';
import type { ControllerSpec } from './manager.js';
import { Informer } from './informer.js';
import type { ApiClient } from './client.js';
import { EngineResponse, engineRequest } from '../endpoints/wire.js';
import { fakeEnv } from '../testing/harness.js';

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

/** A controller that does nothing but hand its API client out. */
function clientOut() {
  const out: { client?: ApiClient } = {};
  const spec: ControllerSpec = { serviceAccount: 'generic-garbage-collector', start: (ctx) => ((out.client = ctx.client), { name: 'client-out' }) };
  return { spec, out };
}

const METADATA = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';

/** Reads a watch body to its end: the JSON lines it carried, parsed. */
async function lines(body: ReadableStream<Uint8Array>): Promise<{ type: string; object: any }[]> {
  const text = await new Response(body).text();
  return text.split('\n').filter((l) => l).map((l) => JSON.parse(l));
}

describe('informers', () => {
  it('the engine\'s own watch hands over the objects a JSON watch client reads, and its body ends with the watch, empty', async () => {
    const co = clientOut();
    const c = await testClient(createMemoryStorage(), { defaultObjects: false, controllers: [co.spec] });
    await c.settle();
    await c.req('POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'before' }, data: { k: 'v' } });
    for (const [accept, name] of [['application/json', 'whole'], [METADATA, 'meta']]) {
      const rv = (await c.req('GET', CMS)).body.metadata.resourceVersion;
      const q = `watch=1&allowWatchBookmarks=true&timeoutSeconds=60&resourceVersion=${rv}`;
      // the same watch twice: in-process objects, and bytes through handle() as any client reads them
      const got: { type: string; object: any }[] = [];
      const objects = await co.out.client!.watch(`${CMS}?${q}`, accept, (type, object) => got.push({ type, object }));
      const bytes = await c.server.handle(new Request(`http://127.0.0.1${CMS}?${q}`, { headers: { Accept: accept } }));
      expect([objects.status, bytes.status]).toEqual([200, 200]);
      await c.req('POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { a: 'b' } }, data: { big: 'x'.repeat(50) } });
      await c.req('PATCH', `${CMS}/${name}`, { metadata: { labels: { a: null, c: 'd' } }, data: { n: '1' } }, { 'Content-Type': 'application/merge-patch+json' });
      await c.req('DELETE', `${CMS}/${name}`);
      await c.req('PATCH', `${CMS}/before`, { data: { k: name } }, { 'Content-Type': 'application/merge-patch+json' });
      // the watches time out: both bodies end (the in-process one with no bytes in it)
      await c.env.advance(61_000);
      const served = await lines(bytes.body!);
      expect(served.length).toBeGreaterThanOrEqual(4);
      expect(served.map((e) => `${e.type} ${e.object.kind} ${e.object.metadata?.name ?? ''}`).slice(0, 4)).toEqual(
        accept === METADATA
          ? ['ADDED PartialObjectMetadata meta', 'MODIFIED PartialObjectMetadata meta', 'DELETED PartialObjectMetadata meta', 'MODIFIED PartialObjectMetadata before']
          : ['ADDED ConfigMap whole', 'MODIFIED ConfigMap whole', 'DELETED ConfigMap whole', 'MODIFIED ConfigMap before'],
      );
      expect(JSON.parse(JSON.stringify(got))).toEqual(served);
      expect(await lines(objects.body as ReadableStream<Uint8Array>)).toEqual([]);
    }
  });

  it('in-process watchers of one collection share one frozen object per event (a simulated cluster runs a dozen informers on pods)', async () => {
    const co = clientOut();
    const c = await testClient(createMemoryStorage(), { defaultObjects: false, controllers: [co.spec] });
    await c.settle();
    const rv = (await c.req('GET', CMS)).body.metadata.resourceVersion;
    const got: unknown[][] = [[], [], []];
    const q = `${CMS}?watch=1&timeoutSeconds=60&resourceVersion=${rv}`;
    for (const seen of got.slice(0, 2)) await co.out.client!.watch(q, 'application/json', (_t, o) => seen.push(o));
    await co.out.client!.watch(q, METADATA, (_t, o) => got[2].push(o));
    await c.req('POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { k: 'v' } });
    await c.req('PATCH', `${CMS}/x`, { data: { k: 'w' } }, { 'Content-Type': 'application/merge-patch+json' });
    await c.settle();
    expect(got.map((g) => g.length)).toEqual([2, 2, 2]);
    for (let i = 0; i < 2; i++) {
      expect(got[0][i]).toBe(got[1][i]);
      expect(Object.isFrozen(got[0][i]) && Object.isFrozen((got[0][i] as KubeObject).metadata)).toBe(true);
      // the metadata watcher gets its own presentation
      expect((got[2][i] as KubeObject).kind).toBe('PartialObjectMetadata');
    }
    expect((got[0][1] as { data: object }).data).toEqual({ k: 'w' });
  });

  it('a watch the engine did not build itself ignores watchEvents and answers bytes', async () => {
    const c = await testClient(createMemoryStorage(), { defaultObjects: false, controllers: [] });
    const rv = (await c.req('GET', CMS)).body.metadata.resourceVersion;
    const called: string[] = [];
    const res = await c.server.serve({
      ...engineRequest('GET', `http://127.0.0.1${CMS}?watch=1&timeoutSeconds=60&resourceVersion=${rv}`, [['Accept', 'application/json']]),
      watchEvents: (type) => called.push(type),
    });
    await c.req('POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
    await c.env.advance(61_000);
    expect((await lines(res.body as ReadableStream<Uint8Array>)).map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED x']);
    expect(called).toEqual([]);
  });

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

describe('informer: a watch that ends in an ERROR event', () => {
  // an API client of one collection whose watches answer 410 Gone as an ERROR event handed over as an
  // object, before the answer (the hub sends it while the watch opens) or once the body is being read
  function goneClient(when: 'before' | 'after') {
    const lists: string[] = [];
    let items = [{ metadata: { name: 'a', resourceVersion: '5' } }, { metadata: { name: 'b', resourceVersion: '6' } }];
    const watches: ReadableStreamDefaultController<Uint8Array>[] = [];
    const client = {
      request: async () => {
        lists.push(items.map((i) => i.metadata.name).join(','));
        return { status: 200, body: { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: String(10 + lists.length) }, items } };
      },
      watch: async (_path: string, _accept: string, onEvent: (type: string, object: unknown) => void) => {
        const gone = () => onEvent('ERROR', { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Expired', code: 410 });
        // the first watch only: after the first list the collection changes, and the relist must find b
        // gone and c new; the watch after the relist stays open
        if (watches.length === 0) {
          items = [{ metadata: { name: 'a', resourceVersion: '5' } }, { metadata: { name: 'c', resourceVersion: '9' } }];
          if (when === 'before') gone();
          else setTimeout(gone, 5);
        }
        return new EngineResponse(new ReadableStream<Uint8Array>({ start: (c) => void watches.push(c) }), { status: 200 });
      },
    };
    return { client: client as unknown as ApiClient, lists, watches };
  }

  for (const when of ['before', 'after'] as const) {
    it(`relists on 410 Gone (the ERROR event ${when} the answer) and hands over what changed meanwhile`, async () => {
      const g = goneClient(when);
      const seen: string[] = [];
      const env = fakeEnv();
      const inf = new Informer(g.client, env, CMS, { add: (o) => seen.push(`add ${o.metadata?.name}`), update: (_, o) => seen.push(`update ${o.metadata?.name}`), delete: (o) => seen.push(`delete ${o.metadata?.name}`) });
      inf.start();
      await env.advance(0);
      for (let i = 0; i < 20 && g.lists.length < 2; i++) await new Promise((r) => setTimeout(r, 5));
      inf.stop();
      expect(g.lists).toEqual(['a,b', 'a,c']);
      expect(seen).toEqual(['add a', 'add b', 'add c', 'delete b']);
      // the first watch's body was let go (cancelled), the second one is the watch in progress
      expect(g.watches.length).toBe(2);
    });
  }
});
