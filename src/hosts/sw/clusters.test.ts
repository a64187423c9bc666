import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import type { Storage } from '../../engine/storage/interface.js';
import { SETTINGS_CHANGED_HEADER } from '../../adapters/idb/cluster-settings.js';
import { clusterDatabaseName, createClusterEngines, routeCluster, type PeerChannel } from './clusters.js';

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

  it('answers a get by name while the engine loads (early answers); a list waits for the load', async () => {
    const store = createMemoryStorage();
    const connection = (over: Partial<Storage> = {}): Storage => ({
      revision: () => store.revision(), compactedRevision: () => store.compactedRevision(), get: (k) => store.get(k), list: (p) => store.list(p),
      write: (ops, t) => store.write(ops, t), events: (a) => store.events(a), readAll: () => store.readAll!(), readKeys: (k) => store.readKeys!(k),
      compact: (t) => store.compact(t), close: async () => undefined, ...over,
    });
    const first = createClusterEngines({ host: 'page', channel: null, openStorage: () => connection() });
    const made = await first.handle(route, new Request(url('/api/v1/namespaces/default/configmaps'), {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ metadata: { name: 'a' }, data: { k: 'v' } }),
    }));
    expect(made.status).toBe(201);
    await first.closeAll();
    // the next engine's read of the whole store is held until released
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const engines = createClusterEngines({
      host: 'page', channel: null,
      openStorage: () => connection({ readAll: async () => { const all = await store.readAll!(); await held; return all; } }),
    });
    const got = await engines.handle(route, new Request(url('/api/v1/namespaces/default/configmaps/a')));
    expect(got.status).toBe(200);
    expect(((await got.json()) as { data: unknown }).data).toEqual({ k: 'v' });
    let listed = false;
    const list = engines.handle(route, new Request(url('/api/v1/namespaces/default/configmaps'))).then((r) => ((listed = true), r));
    await new Promise((r) => setTimeout(r, 30));
    expect(listed).toBe(false);
    release();
    expect((await list).status).toBe(200);
    // once ready, gets are served by the loaded engine
    expect((await engines.handle(route, new Request(url('/api/v1/namespaces/default/configmaps/a')))).status).toBe(200);
    await engines.closeAll();
  });

  it('starts one engine per cluster on first use and reuses it', async () => {
    const opened: string[] = [];
    const engines = createClusterEngines({
      host: 'page',
      channel: null,
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
    const engines = createClusterEngines({ host: 'page', channel: null, openStorage: () => createMemoryStorage() });
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
      channel: null,
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

describe('write requests in turn', () => {
  const route = { cluster: 'default', basePath: '/clusters/default' };
  const url = (path: string) => `http://localhost/clusters/default${path}`;

  /**
   * A connection whose writes of the test's ConfigMaps (w-*: unkeyed, k-*: keyed) stay open a few
   * milliseconds; it counts how many are open at once, and whether a keyed one was ever open with another.
   */
  function slowWrites() {
    const store = createMemoryStorage();
    const open = new Set<string>();
    const seen = { most: 0, keyedWithOthers: 0 };
    const connection: Storage = {
      revision: () => store.revision(), compactedRevision: () => store.compactedRevision(), get: (k) => store.get(k), list: (p) => store.list(p),
      events: (a) => store.events(a), readAll: () => store.readAll!(), readKeys: (k) => store.readKeys!(k),
      compact: (t) => store.compact(t), close: async () => undefined,
      async write(ops, t) {
        const name = /\/configmaps\/default\/([wk]-.*)$/.exec(ops[0]?.key ?? '')?.[1];
        if (!name) return store.write(ops, t);
        open.add(name);
        seen.most = Math.max(seen.most, open.size);
        if (open.size > 1 && [...open].some((n) => n.startsWith('k-'))) seen.keyedWithOthers++;
        try {
          await new Promise((r) => setTimeout(r, 5));
          return await store.write(ops, t);
        } finally {
          open.delete(name);
        }
      },
    };
    return { connection, seen };
  }

  const post = (name: string, key?: string) =>
    new Request(url('/api/v1/namespaces/default/configmaps'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(key ? { 'Idempotency-Key': key } : {}) },
      body: JSON.stringify({ metadata: { name } }),
    });

  it('write requests without an Idempotency-Key are served together: their commits reach storage at once', async () => {
    const { connection, seen } = slowWrites();
    const engines = createClusterEngines({ host: 'page', channel: null, openStorage: () => connection });
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => engines.handle(route, post(`w-${i}`))));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(201));
    expect(seen.most).toBeGreaterThan(1);
    await engines.closeAll();
  });

  it('a keyed write request is served alone: no other write request runs with it', async () => {
    const { connection, seen } = slowWrites();
    const engines = createClusterEngines({ host: 'page', channel: null, openStorage: () => connection });
    // unkeyed ones, a keyed one, unkeyed ones, a keyed one: the unkeyed ones meet, a keyed one meets none
    const requests = ['w-0', 'w-1', 'w-2', 'k-3', 'w-4', 'w-5', 'k-6', 'w-7'].map((name) => post(name, name.startsWith('k-') ? `key-${name}` : undefined));
    const answers = await Promise.all(requests.map((r) => engines.handle(route, r)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(201));
    expect(seen.most).toBeGreaterThan(1);
    expect(seen.keyedWithOthers).toBe(0);
    await engines.closeAll();
  });
});

describe('several engines over one database', () => {
  const route = { cluster: 'default', basePath: '/clusters/default' };
  const url = (path: string) => `http://localhost/clusters/default${path}`;
  const tick = () => new Promise((r) => setTimeout(r, 30));

  /** One database shared by two hosts; each engine gets its own "connection" whose close() is local. */
  function sharedDatabase() {
    const db = createMemoryStorage();
    const opens = { a: 0, b: 0 };
    const connect = (host: 'a' | 'b') => (): Storage => {
      opens[host]++;
      return reopenable(db);
    };
    return { connect, opens };
  }
  const post = (name: string, data: Record<string, string>, method = 'POST', path = '/api/v1/namespaces/default/configmaps') =>
    new Request(url(path), {
      method,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data }),
    });
  const dataOf = async (res: Response) => ((await res.json()) as { data?: Record<string, string> }).data;
  const namesOf = async (res: Response) =>
    ((await res.json()) as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name);

  it('see each other\'s writes through the peer channel and the revision check', async () => {
    const { connect, opens } = sharedDatabase();
    const name = `test-engines-${Math.random()}`;
    const a = createClusterEngines({ host: 'service-worker', openStorage: connect('a'), channel: new BroadcastChannel(name) });
    const b = createClusterEngines({ host: 'page', openStorage: connect('b'), channel: new BroadcastChannel(name) });
    try {
      expect((await a.handle(route, new Request(url('/api/v1/namespaces')))).status).toBe(200);
      expect((await b.handle(route, new Request(url('/api/v1/namespaces')))).status).toBe(200);
      await tick();

      expect((await b.handle(route, post('from-b', { v: '1' }))).status).toBe(201);
      const seen = await a.handle(route, new Request(url('/api/v1/namespaces/default/configmaps/from-b')));
      expect(seen.status).toBe(200);
      expect(await dataOf(seen)).toEqual({ v: '1' });

      const current = (await (await a.handle(route, new Request(url('/api/v1/namespaces/default/configmaps/from-b')))).json()) as {
        metadata: { resourceVersion: string };
      };
      const put = new Request(url('/api/v1/namespaces/default/configmaps/from-b'), {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'from-b', resourceVersion: current.metadata.resourceVersion }, data: { v: '2' } }),
      });
      expect((await a.handle(route, put)).status).toBe(200);
      expect(await dataOf(await b.handle(route, new Request(url('/api/v1/namespaces/default/configmaps/from-b'))))).toEqual({ v: '2' });

      // No waiting for the channel: the per-request revision check alone keeps the reader current.
      expect((await b.handle(route, post('quick', { q: '1' }))).status).toBe(201);
      expect(await namesOf(await a.handle(route, new Request(url('/api/v1/namespaces/default/configmaps'))))).toEqual(['from-b', 'kube-root-ca.crt', 'quick']);
      expect(opens.a).toBeGreaterThan(1);
      expect(opens.b).toBeGreaterThan(1);
    } finally {
      await a.closeAll();
      await b.closeAll();
    }
  });

  it('a read while the engine\'s own write is in flight still sees a write another engine made meanwhile (its notice late)', async () => {
    const db = createMemoryStorage();
    let gate: Promise<void> | undefined;
    let release = () => {};
    // a's connection: its writes wait at the gate while one is set (a write of its own, in flight)
    const connectA = (): Storage => {
      const inner = reopenable(db);
      return {
        ...inner,
        write: async (ops, t) => {
          if (gate) await gate;
          return inner.write(ops, t);
        },
      };
    };
    const name = `test-engines-${Math.random()}`;
    // a hears that b exists, but b's write notices reach it only after the read (they are dropped here)
    const inner = new BroadcastChannel(name);
    const late: PeerChannel = {
      postMessage: (m) => inner.postMessage(m),
      addEventListener: (type, listener) =>
        inner.addEventListener(type, (event) => {
          if ((event.data as { type?: string }).type !== 'wrote') listener(event);
        }),
      close: () => inner.close(),
    };
    const a = createClusterEngines({ host: 'service-worker', openStorage: connectA, channel: late });
    const b = createClusterEngines({ host: 'page', openStorage: () => reopenable(db), channel: new BroadcastChannel(name) });
    try {
      expect((await a.handle(route, new Request(url('/api/v1/namespaces')))).status).toBe(200);
      expect((await b.handle(route, new Request(url('/api/v1/namespaces')))).status).toBe(200);
      await tick();

      gate = new Promise((r) => (release = r));
      const write = a.handle(route, post('from-a', { v: '1' }));
      await tick();
      expect((await b.handle(route, post('from-b', { v: '1' }))).status).toBe(201);
      const read = a.handle(route, new Request(url('/api/v1/namespaces/default/configmaps/from-b')));
      // the own write stays in flight well past any fixed wait a read might allow it
      setTimeout(() => {
        gate = undefined;
        release();
      }, 120);
      const seen = await read;
      expect(seen.status).toBe(200);
      expect(await dataOf(seen)).toEqual({ v: '1' });
      expect((await write).status).toBe(201);
    } finally {
      release();
      await a.closeAll();
      await b.closeAll();
    }
  });

  it('without a channel, an engine whose commit skipped revisions starts afresh', async () => {
    const { connect, opens } = sharedDatabase();
    const a = createClusterEngines({ host: 'page', openStorage: connect('a'), channel: null });
    const b = createClusterEngines({ host: 'page', openStorage: connect('b'), channel: null });
    try {
      expect((await a.handle(route, new Request(url('/api')))).status).toBe(200);
      expect((await b.handle(route, post('from-b', { v: '1' }))).status).toBe(201);
      // a does not know yet (no peer channel) ...
      expect((await a.handle(route, new Request(url('/api/v1/namespaces/default/configmaps/from-b')))).status).toBe(404);
      // ... until its own commit lands two revisions ahead of what it had seen.
      expect((await a.handle(route, post('from-a', { v: '1' }))).status).toBe(201);
      expect(await namesOf(await a.handle(route, new Request(url('/api/v1/namespaces/default/configmaps'))))).toEqual(['from-a', 'from-b', 'kube-root-ca.crt']);
      expect(opens.a).toBe(2);
    } finally {
      await a.closeAll();
      await b.closeAll();
    }
  });
});

/** The same database each time it is opened: a restarted engine reads what the last one stored. */
function reopenable(shared: Storage): Storage {
  return {
    revision: () => shared.revision(),
    compactedRevision: () => shared.compactedRevision(),
    get: (k) => shared.get(k),
    list: (p) => shared.list(p),
    write: (ops, t) => shared.write(ops, t),
    events: (a) => shared.events(a),
    compact: (t) => shared.compact(t),
    close: async () => undefined,
  };
}

describe('cluster settings (PUT /x-playground/settings)', () => {
  it('a stored change restarts the cluster\'s engine, so the next request runs with the new settings', async () => {
    const shared = createMemoryStorage();
    let opens = 0;
    const engines = createClusterEngines({
      host: 'page',
      channel: null,
      // the same database each time (a restarted engine reads what the last one stored)
      openStorage: () => {
        opens++;
        return reopenable(shared);
      },
    });
    const route = { cluster: 'default', basePath: '/clusters/default' };
    const url = (path: string) => `http://localhost/clusters/default${path}`;
    expect((await engines.handle(route, new Request(url('/apis/batch/v1')))).status).toBe(200);
    const refused = await engines.handle(route, new Request(url('/x-playground/settings'), { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ featureGates: '', runtimeConfig: 'batch=false' }) }));
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toBe('runtime-config invalid key batch');
    expect(opens).toBe(1);
    const put = await engines.handle(route, new Request(url('/x-playground/settings'), { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ featureGates: '', runtimeConfig: 'batch/v1=false' }) }));
    expect(put.status).toBe(200);
    expect((await engines.handle(route, new Request(url('/apis/batch/v1')))).status).toBe(404);
    expect(opens).toBe(2);
    await engines.closeAll();
  });
});

describe('cluster settings changed by the page (the in-band header)', () => {
  it('a request that carries it is served by an engine started with the new settings; one without it is not', async () => {
    const shared = createMemoryStorage();
    let opens = 0;
    let simulated = false;
    const seen: boolean[] = [];
    const engines = createClusterEngines({
      host: 'page',
      channel: null,
      simulated: async () => {
        seen.push(simulated);
        return simulated;
      },
      openStorage: () => {
        opens++;
        return reopenable(shared);
      },
    });
    const route = { cluster: 'default', basePath: '/clusters/default' };
    const url = (path: string) => `http://localhost/clusters/default${path}`;
    try {
      expect((await engines.handle(route, new Request(url('/version')))).status).toBe(200);
      expect(seen).toEqual([false]);
      simulated = true;
      // without the header the running engine keeps serving (its settings are read once, at start)
      expect((await engines.handle(route, new Request(url('/version')))).status).toBe(200);
      expect(opens).toBe(1);
      const res = await engines.handle(route, new Request(url('/x-playground/settings'), { headers: { [SETTINGS_CHANGED_HEADER]: 'true' } }));
      expect(res.status).toBe(200);
      expect(opens).toBe(2);
      expect(seen).toEqual([false, true]);
      // and the new engine stays for later requests
      expect((await engines.handle(route, new Request(url('/version')))).status).toBe(200);
      expect(opens).toBe(2);
    } finally {
      await engines.closeAll();
    }
  });
});
