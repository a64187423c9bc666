import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import type { Storage } from '../../engine/storage/interface.js';
import { storageConformanceCases } from '../../engine/storage/testing/index.js';
import { IDB_STORAGE_VERSION, openIdbStorage } from './idb-storage.js';

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
      `openIdbStorage: database "upgraded" has a newer schema than version ${IDB_STORAGE_VERSION} (written by a newer app; reload)`,
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
  it('a put that cannot be cloned aborts the whole write', async () => {
    const s = await openIdbStorage({ name: 'uncloneable' });
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
