import 'fake-indexeddb/auto';
import { IDBFactory, IDBObjectStore as FakeIDBObjectStore } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import type { HistoryEvent, Storage } from '../../engine/storage/interface.js';
import { testClient, type TestClient } from '../../engine/testing/harness.js';
import { memoryStorageFromState, type MemoryState } from '../memory/memory-storage.js';
import { storageConformanceCases } from '../../engine/storage/testing/index.js';
import { IDB_STORAGE_VERSION, openIdbStorage } from './idb-storage.js';
import { rawHistory } from './raw-history.testing.js';

let seq = 0;
const names = new WeakMap<Storage, string>();

async function make(): Promise<Storage> {
  const name = `conformance-${++seq}`;
  const s = await openIdbStorage({ name });
  names.set(s, name);
  return s;
}

async function reopen(old: Storage): Promise<Storage> {
  const name = names.get(old);
  if (name === undefined) throw new Error('reopen: unknown storage');
  const s = await openIdbStorage({ name });
  names.set(s, name);
  return s;
}

describe('storage conformance: IndexedDB backend (fake-indexeddb)', () => {
  for (const c of storageConformanceCases()) {
    it(c.name, () => c.run(make, reopen));
  }
});

// The same cases over connections that loaded the whole store first, as the engine does (readAll): their
// commits plan on what the connection knows and only verify the revision (idb-storage.ts `known`).
async function makeLoaded(): Promise<Storage> {
  const s = await make();
  await s.readAll!();
  return s;
}

async function reopenLoaded(old: Storage): Promise<Storage> {
  const s = await reopen(old);
  await s.readAll!();
  return s;
}

describe('storage conformance: IndexedDB backend after readAll (commits on known records)', () => {
  for (const c of storageConformanceCases()) {
    it(c.name, () => c.run(makeLoaded, reopenLoaded));
  }
});

/** Counts the gets IndexedDB is asked for, by store name. */
function countGets(): { counts: Map<string, number>; stop(): void } {
  const counts = new Map<string, number>();
  const original = FakeIDBObjectStore.prototype.get;
  FakeIDBObjectStore.prototype.get = function (this: IDBObjectStore, key: IDBValidKey | IDBKeyRange) {
    counts.set(this.name, (counts.get(this.name) ?? 0) + 1);
    return original.call(this, key);
  } as typeof original;
  return { counts, stop: () => void (FakeIDBObjectStore.prototype.get = original) };
}

describe('openIdbStorage: commits on what the connection knows, verified by the revision', () => {
  const cm = (name: string, v: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'd' }, data: { v } });
  const key = (name: string) => `/core/configmaps/d/${name}`;

  it('after readAll, a commit reads the revision only; before it, the revision and the records', async () => {
    const s = await openIdbStorage({ name: 'known-reads' });
    await s.write([{ kind: 'put', key: key('a'), object: cm('a', '1') }], 1);
    const cold = countGets();
    try {
      await s.write([{ kind: 'put', key: key('b'), object: cm('b', '1'), expectRevision: 0 }], 2);
    } finally {
      cold.stop();
    }
    expect(Object.fromEntries(cold.counts)).toEqual({ meta: 1, objects: 1 });
    await s.readAll!();
    const warm = countGets();
    let results;
    try {
      results = [
        await s.write([{ kind: 'put', key: key('a'), object: cm('a', '2'), expectRevision: 1 }], 3),
        await s.write([{ kind: 'delete', key: key('b'), expectRevision: 2 }], 4),
        await s.write([{ kind: 'put', key: key('b'), object: cm('b', '2'), expectRevision: 0 }], 5),
        await s.write([{ kind: 'put', key: key('a'), object: cm('a', '3'), expectRevision: 3 }], 6),
      ];
    } finally {
      warm.stop();
    }
    expect(Object.fromEntries(warm.counts)).toEqual({ meta: 4 });
    expect(results.map((r) => r.ok && r.revision)).toEqual([3, 4, 5, 6]);
    // the events carry the states before them, as a read of the records would have given them
    expect(results.map((r) => r.ok && r.events.map((e) => [e.type, e.prevObject?.data]))).toEqual([
      [['MODIFIED', { v: '1' }]],
      [['DELETED', { v: '1' }]],
      [['ADDED', undefined]],
      [['MODIFIED', { v: '2' }]],
    ]);
    await s.close();
  });

  it('another connection writes after this one loaded: the commit is aborted, its puts leave no trace, and it runs again on the records as they are', async () => {
    const factory = new IDBFactory();
    const a = await openIdbStorage({ name: 'known-stale', indexedDB: factory });
    const b = await openIdbStorage({ name: 'known-stale', indexedDB: factory });
    await a.write([{ kind: 'put', key: key('x'), object: cm('x', 'a0') }], 1);
    await a.readAll!(); // a knows the store at revision 1
    // b writes revisions 2 and 3: x changed, y created
    expect(await b.write([{ kind: 'put', key: key('x'), object: cm('x', 'b'), expectRevision: 1 }], 2)).toMatchObject({ ok: true, revision: 2 });
    expect(await b.write([{ kind: 'put', key: key('y'), object: cm('y', 'b'), expectRevision: 0 }], 3)).toMatchObject({ ok: true, revision: 3 });
    // planned on what a knows, both writes would pass and land at revisions 2 and 3 (over b's history
    // records); the read of the revision shows 3, so the batch runs again on the stored records
    const [z, y] = await Promise.all([
      a.write([{ kind: 'put', key: key('z'), object: cm('z', 'a') }], 4),
      a.write([{ kind: 'put', key: key('y'), object: cm('y', 'a'), expectRevision: 0 }], 5),
    ]);
    expect(z).toMatchObject({ ok: true, revision: 4 });
    expect(y).toMatchObject({ ok: false, failedKey: key('y'), reason: 'exists', currentRevision: 3 });
    // x's record is read, not taken from what a knew: its precondition and its event's prevObject are b's
    expect(await a.write([{ kind: 'put', key: key('x'), object: cm('x', 'a1'), expectRevision: 1 }], 6)).toMatchObject({ ok: false, reason: 'revision-mismatch', currentRevision: 2 });
    const x = await a.write([{ kind: 'put', key: key('x'), object: cm('x', 'a1'), expectRevision: 2 }], 7);
    expect(x.ok && x.events.map((e) => [e.type, e.prevObject?.data])).toEqual([['MODIFIED', { v: 'b' }]]);
    await a.close();
    await b.close();

    const c = await openIdbStorage({ name: 'known-stale', indexedDB: factory });
    expect(await c.revision()).toBe(5);
    expect((await c.list('')).map((o) => [o.key, o.revision, o.object.data])).toEqual([
      [key('x'), 5, { v: 'a1' }],
      [key('y'), 3, { v: 'b' }],
      [key('z'), 4, { v: 'a' }],
    ]);
    expect((await c.events(0)).map((e) => [e.revision, e.type, e.key, e.object.data])).toEqual([
      [1, 'ADDED', key('x'), { v: 'a0' }],
      [2, 'MODIFIED', key('x'), { v: 'b' }],
      [3, 'ADDED', key('y'), { v: 'b' }],
      [4, 'ADDED', key('z'), { v: 'a' }],
      [5, 'MODIFIED', key('x'), { v: 'a1' }],
    ]);
    await c.close();
  });
});

describe('openIdbStorage: connections and lifecycle', () => {
  const pod = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'd' } });

  it('uses the given IDBFactory, and reopening on it finds the data', async () => {
    const factory = new IDBFactory();
    const s = await openIdbStorage({ name: 'own-factory', indexedDB: factory });
    expect(await s.write([{ kind: 'put', key: '/core/pods/d/a', object: pod('a') }], 1)).toMatchObject({ ok: true, revision: 1 });
    await s.close();
    const other = await openIdbStorage({ name: 'own-factory' }); // the global factory: a different database
    expect(await other.revision()).toBe(0);
    await other.close();
    const again = await openIdbStorage({ name: 'own-factory', indexedDB: factory });
    expect(await again.revision()).toBe(1);
    expect((await again.get('/core/pods/d/a'))?.object.metadata?.resourceVersion).toBe('1');
    await again.close();
  });

  it('two connections to one database (page and service worker) share one revision sequence', async () => {
    const a = await openIdbStorage({ name: 'shared-db' });
    const b = await openIdbStorage({ name: 'shared-db' });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? a : b).write([{ kind: 'put', key: `/core/pods/d/p${String(i).padStart(2, '0')}`, object: pod(`p${i}`) }], i),
      ),
    );
    expect(results.map((r) => (r.ok ? r.revision : -1)).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(await a.revision()).toBe(20);
    expect((await b.list('/core/pods/d/')).length).toBe(20);
    expect((await a.events(0)).map((e) => e.revision)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    await a.close();
    await b.close();
  });

  it('steps aside when another connection upgrades the database, then rejects calls clearly', async () => {
    const reasons: string[] = [];
    const s = await openIdbStorage({ name: 'upgraded', onClose: (r) => reasons.push(r) });
    await s.write([{ kind: 'put', key: '/core/pods/d/a', object: pod('a') }], 1);
    let blocked = false;
    const upgrade = indexedDB.open('upgraded', IDB_STORAGE_VERSION + 1);
    upgrade.onblocked = () => {
      blocked = true;
    };
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      upgrade.onsuccess = () => resolve(upgrade.result);
      upgrade.onerror = () => reject(upgrade.error);
    });
    expect(db.version).toBe(IDB_STORAGE_VERSION + 1);
    expect(blocked).toBe(false);
    expect(reasons).toEqual(['versionchange']);
    await expect(s.revision()).rejects.toThrow(
      'storage: IndexedDB database "upgraded" was closed because another connection is upgrading or deleting it',
    );
    db.close();
    await s.close();
    await expect(s.get('/core/pods/d/a')).rejects.toThrow('storage: IndexedDB storage "upgraded" is closed');
    // That version is newer than this code's schema.
    await expect(openIdbStorage({ name: 'upgraded' })).rejects.toThrow(
      `openIdbStorage: database "upgraded" is at a version past ${IDB_STORAGE_VERSION}: a newer app wrote it (reload), or the cluster was just renamed`,
    );
  });

  it('does not block a deleteDatabase from another tab', async () => {
    const reasons: string[] = [];
    const s = await openIdbStorage({ name: 'deleted', onClose: (r) => reasons.push(r) });
    await s.write([{ kind: 'put', key: '/core/pods/d/a', object: pod('a') }], 1);
    await new Promise<void>((resolve, reject) => {
      const req = indexedDB.deleteDatabase('deleted');
      req.onsuccess = () => resolve();
      req.onerror = () => reject(req.error);
      req.onblocked = () => reject(new Error('deleteDatabase was blocked'));
    });
    expect(reasons).toEqual(['versionchange']);
    const fresh = await openIdbStorage({ name: 'deleted' });
    expect(await fresh.revision()).toBe(0);
    await fresh.close();
  });

  it('rejects every call after close; close is idempotent', async () => {
    const s = await openIdbStorage({ name: 'closing' });
    await s.close();
    await s.close();
    for (const call of [
      () => s.revision(),
      () => s.compactedRevision(),
      () => s.get('/x'),
      () => s.list(''),
      () => s.write([], 1),
      () => s.events(0),
      () => s.compact(1),
    ]) {
      await expect(call()).rejects.toThrow('storage: IndexedDB storage "closing" is closed');
    }
  });
});

describe('openIdbStorage: atomicity when IndexedDB refuses a value', () => {
  it.each([
    ['', false],
    [' (after readAll: the puts issued behind the read of the revision)', true],
  ])('a put that cannot be cloned aborts the whole write%s', async (_, loaded) => {
    const s = await openIdbStorage({ name: `uncloneable-${loaded}` });
    if (loaded) await s.readAll!();
    const bad = { kind: 'Pod', metadata: { name: 'b' }, spec: { fn: () => 1 } } as never;
    await expect(
      s.write(
        [
          { kind: 'put', key: '/core/pods/d/a', object: { kind: 'Pod', metadata: { name: 'a' } } },
          { kind: 'put', key: '/core/pods/d/b', object: bad },
        ],
        1,
      ),
    ).rejects.toMatchObject({ name: 'DataCloneError' });
    expect(await s.revision()).toBe(0);
    expect(await s.list('')).toEqual([]);
    expect(await s.events(0)).toEqual([]);
    // and the connection goes on from the store as it is
    expect(await s.write([{ kind: 'put', key: '/core/pods/d/a', object: { kind: 'Pod', metadata: { name: 'a' } }, expectRevision: 0 }], 2)).toMatchObject({ ok: true, revision: 1 });
    await s.close();
  });
});

describe('openIdbStorage: request journal (version 2)', () => {
  const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'd' } });

  it('a version 1 database is upgraded in place: its objects stay, and request ids can be recorded', async () => {
    const v1 = indexedDB.open('from-v1', 1);
    v1.onupgradeneeded = () => {
      const db = v1.result;
      db.createObjectStore('objects', { keyPath: 'key' });
      db.createObjectStore('history', { keyPath: 'revision' }).createIndex('time', 'time');
      const meta = db.createObjectStore('meta');
      meta.put(1, 'revision');
    };
    const old = await new Promise<IDBDatabase>((resolve, reject) => {
      v1.onsuccess = () => resolve(v1.result);
      v1.onerror = () => reject(v1.error);
    });
    old.close();
    const s = await openIdbStorage({ name: 'from-v1' });
    expect(await s.revision()).toBe(1);
    const r = await s.writeFor({ id: 'req-1', request: 'POST /x' }, [{ kind: 'put', key: '/core/configmaps/d/a', object: cm('a') }], 7);
    expect(r).toMatchObject({ ok: true, revision: 2 });
    expect(await s.requestRecord('req-1')).toMatchObject({ id: 'req-1', request: 'POST /x', revision: 2, time: 7, events: [{ type: 'ADDED', key: '/core/configmaps/d/a' }] });
    await s.close();
  });

  it('a write whose precondition fails records no request id', async () => {
    const s = await openIdbStorage({ name: 'journal-precondition' });
    await s.write([{ kind: 'put', key: '/core/configmaps/d/a', object: cm('a') }], 1);
    const r = await s.writeFor({ id: 'req-x', request: 'POST /x' }, [{ kind: 'put', key: '/core/configmaps/d/a', object: cm('a'), expectRevision: 0 }], 2);
    expect(r).toMatchObject({ ok: false, reason: 'exists' });
    expect(await s.requestRecord('req-x')).toBeUndefined();
    await s.recordResponse('req-x', { status: 201, headers: [], body: '' }); // nothing to complete: stays absent
    expect(await s.requestRecord('req-x')).toBeUndefined();
    await s.close();
  });
});

describe('openIdbStorage: history layout 3 (each state stored once)', () => {
  const cmKey = (name: string) => `/core/configmaps/team/${name}`;

  /** A watch from `rv` read until `n` events have come: type, name, resourceVersion and data of each. */
  async function watchFrom(c: TestClient, rv: string, n: number): Promise<unknown[]> {
    const w = await c.raw('GET', `/api/v1/namespaces/team/configmaps?watch=1&resourceVersion=${rv}`);
    if (w.status !== 200) throw new Error(`watch from ${rv}: ${w.status} ${await w.text()}`);
    const reader = w.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (text.split('\n').length <= n) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    await reader.cancel();
    return text
      .split('\n')
      .slice(0, n)
      .map((l) => JSON.parse(l) as { type: string; object: { metadata: { name: string; resourceVersion: string }; data?: unknown } })
      .map((e) => ({ type: e.type, name: e.object.metadata.name, rv: e.object.metadata.resourceVersion, data: e.object.data }));
  }

  /** A cluster made through the API over memory storage: creates, updates, a delete, a re-create. */
  async function memoryCluster(): Promise<{ storage: ReturnType<typeof memoryStorageFromState>; rvs: string[] }> {
    const storage = memoryStorageFromState();
    const c = await testClient(storage, { controllers: [] });
    const rvs: string[] = [];
    const rv = (r: { body: { metadata: { resourceVersion: string } } }) => rvs.push(r.body.metadata.resourceVersion);
    expect((await c.req('POST', '/api/v1/namespaces', { metadata: { name: 'team' } })).status).toBe(201);
    for (const n of ['a', 'b', 'c']) rv(await c.req('POST', '/api/v1/namespaces/team/configmaps', { metadata: { name: n }, data: { v: '1' } }));
    rv(await c.req('PATCH', '/api/v1/namespaces/team/configmaps/a', { data: { v: '2' } }, { 'Content-Type': 'application/merge-patch+json' }));
    expect((await c.req('DELETE', '/api/v1/namespaces/team/configmaps/b')).status).toBe(200);
    await c.env.advance(60_000);
    rv(await c.req('POST', '/api/v1/namespaces/team/configmaps', { metadata: { name: 'b' }, data: { v: 'again' } }));
    rv(await c.req('PATCH', '/api/v1/namespaces/team/configmaps/a', { data: { v: '3' } }, { 'Content-Type': 'application/merge-patch+json' }));
    rv(await c.req('PATCH', '/api/v1/namespaces/team/configmaps/b', { data: { v: '4' } }, { 'Content-Type': 'application/merge-patch+json' }));
    const state = storage.exportState();
    await c.server.close(); // closes the storage: the content goes on in a new one
    return { storage: memoryStorageFromState(state), rvs };
  }

  /** Writes a memory storage's content as a version 2 database (history events whole, as version 2 stored them). */
  async function writeVersion2(name: string, state: MemoryState): Promise<void> {
    const open = indexedDB.open(name, 2);
    open.onupgradeneeded = () => {
      const db = open.result;
      db.createObjectStore('objects', { keyPath: 'key' });
      db.createObjectStore('history', { keyPath: 'revision' }).createIndex('time', 'time');
      db.createObjectStore('meta');
      db.createObjectStore('requests', { keyPath: 'id' }).createIndex('time', 'time');
    };
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const tx = db.transaction(['objects', 'history', 'meta'], 'readwrite');
    for (const o of state.objects) tx.objectStore('objects').put(o);
    const records = new Map<number, { revision: number; time: number; events: HistoryEvent[] }>();
    for (const e of state.history) {
      const r = records.get(e.revision) ?? { revision: e.revision, time: e.time, events: [] };
      r.events.push(e);
      records.set(e.revision, r);
    }
    for (const r of records.values()) tx.objectStore('history').put(r);
    tx.objectStore('meta').put(state.revision, 'revision');
    tx.objectStore('meta').put(state.compacted, 'compactedRevision');
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
    db.close();
  }

  it('a write stores its events without their new states: ADDED holds its key only, MODIFIED and DELETED the state before', async () => {
    const s = await openIdbStorage({ name: 'layout-3' });
    const cm = (v: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'team' }, data: { v } });
    await s.write([{ kind: 'put', key: cmKey('a'), object: cm('1') }], 1);
    await s.write([{ kind: 'put', key: cmKey('a'), object: cm('2') }], 2);
    await s.write([{ kind: 'delete', key: cmKey('a') }], 3);
    const events = await s.events(0);
    await s.close();
    expect(await rawHistory('layout-3')).toEqual([
      { revision: 1, time: 1, events: [{ type: 'ADDED', key: cmKey('a') }] },
      { revision: 2, time: 2, events: [{ type: 'MODIFIED', key: cmKey('a'), prevObject: events[0].object }] },
      { revision: 3, time: 3, events: [{ type: 'DELETED', key: cmKey('a'), prevObject: events[1].object }] },
    ]);
    expect(events.map((e) => [e.type, e.object.data, e.object.metadata?.resourceVersion])).toEqual([
      ['ADDED', { v: '1' }, '1'],
      ['MODIFIED', { v: '2' }, '2'],
      ['DELETED', { v: '2' }, '3'],
    ]);
    // one object per state: an event's new state is the next event's previous one
    expect(events[1].prevObject).toBe(events[0].object);
    expect(events[2].prevObject).toBe(events[1].object);
  });

  it('a version 2 database (whole events) opens with the same objects and history; watches from old revisions see the same events', async () => {
    const { storage: mem, rvs } = await memoryCluster();
    await writeVersion2('from-v2-history', mem.exportState());
    const s = await openIdbStorage({ name: 'from-v2-history' });
    expect(await s.list('')).toEqual(await mem.list(''));
    expect(await s.events(0)).toEqual(await mem.events(0));
    expect(await s.readAll!()).toEqual(await mem.readAll!());

    const viaIdb = await testClient(s, { controllers: [] });
    const memAfter = memoryStorageFromState(mem.exportState());
    const viaMemory = await testClient(memAfter, { controllers: [] });
    const eventsAfter = async (rv: string) => (await mem.events(Number(rv))).filter((e) => e.key.startsWith('/core/configmaps/team/')).length;
    for (const rv of rvs.slice(0, -1)) {
      const n = await eventsAfter(rv);
      const want = await watchFrom(viaMemory, rv, n);
      expect(want).toHaveLength(n);
      expect(await watchFrom(viaIdb, rv, n)).toEqual(want);
    }
    // new writes on top of the old records (both layouts in one database), then compaction of the old ones
    for (const c of [viaIdb, viaMemory]) {
      expect((await c.req('PATCH', '/api/v1/namespaces/team/configmaps/c', { data: { v: '5' } }, { 'Content-Type': 'application/merge-patch+json' })).status).toBe(200);
      expect((await c.req('DELETE', '/api/v1/namespaces/team/configmaps/a')).status).toBe(200);
    }
    expect(await viaIdb.server.engine.store.state.eventsAfter(Number(rvs[0]))).toEqual(await viaMemory.server.engine.store.state.eventsAfter(Number(rvs[0])));
    const n0 = (await eventsAfter(rvs[0])) + 2;
    expect(await watchFrom(viaIdb, rvs[0], n0)).toEqual(await watchFrom(viaMemory, rvs[0], n0));
    const raw = await rawHistory('from-v2-history');
    expect(raw.slice(-2).flatMap((r) => r.events.map((e) => 'object' in e))).toEqual([false, false]);
    expect(raw[0].events.every((e) => 'object' in e)).toBe(true);
    const state = memAfter.exportState();
    await viaIdb.server.close(); // closes the storages
    await viaMemory.server.close();

    // compaction up to the re-created ConfigMap b: the old records go, the states of the rest stay
    const compactAt = state.history.find((e) => e.key === cmKey('b') && e.type === 'ADDED' && e.revision > Number(rvs[2]))!.time;
    const other = memoryStorageFromState(state);
    const reopened = await openIdbStorage({ name: 'from-v2-history' });
    expect(await reopened.compact(compactAt)).toBe(await other.compact(compactAt));
    expect(await reopened.compactedRevision()).toBeGreaterThan(Number(rvs[2]));
    expect(await reopened.events(await reopened.compactedRevision())).toEqual(await other.events(await other.compactedRevision()));
    await reopened.close();
    const again = await openIdbStorage({ name: 'from-v2-history' });
    expect(await again.events(await again.compactedRevision())).toEqual(await other.events(await other.compactedRevision()));
    await again.close();
  });

  it('compaction of layout-3 records keeps the states of the events after it', async () => {
    const s = await openIdbStorage({ name: 'layout-3-compaction' });
    const mem = memoryStorageFromState();
    const cm = (v: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'team' }, data: { v } });
    for (const st of [s, mem]) {
      await st.write([{ kind: 'put', key: cmKey('a'), object: cm('1') }], 1);
      await st.write([{ kind: 'put', key: cmKey('a'), object: cm('2') }, { kind: 'put', key: cmKey('b'), object: cm('b') }], 2);
      await st.write([{ kind: 'put', key: cmKey('a'), object: cm('3') }], 3);
      await st.write([{ kind: 'delete', key: cmKey('b') }], 4);
      await st.write([{ kind: 'put', key: cmKey('b'), object: cm('b2') }], 5);
    }
    for (const t of [2, 3, 5, 6]) {
      expect(await s.compact(t)).toBe(await mem.compact(t));
      const c = await s.compactedRevision();
      expect(await s.events(c)).toEqual(await mem.events(c));
      expect(await s.readAll!()).toEqual(await mem.readAll!());
    }
    await s.close();
  });
});
