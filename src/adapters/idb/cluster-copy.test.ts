import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openIdbStorage } from './idb-storage.js';
import { databaseExists, dumpClusterDatabase, moveClusterDatabase, restoreClusterDatabase } from './cluster-copy.js';
import { deleteDatabase } from './cluster-database.js';
import { rawHistory } from './raw-history.testing.js';

const key = (name: string) => `/core/configmaps/team/${name}`;
const cm = (name: string, v: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'team' }, data: { v } });

async function cluster(name: string) {
  const s = await openIdbStorage({ name });
  await s.write([{ kind: 'put', key: key('a'), object: cm('a', '1') }, { kind: 'put', key: key('b'), object: cm('b', '1') }], 10);
  await s.write([{ kind: 'put', key: key('a'), object: cm('a', '2') }], 20);
  await s.write([{ kind: 'delete', key: key('b') }], 30);
  await s.write([{ kind: 'put', key: key('b'), object: cm('b', '2') }], 40);
  await s.write([{ kind: 'put', key: key('a'), object: cm('a', '3') }], 50);
  const events = await s.events(0);
  const objects = await s.list('');
  await s.close();
  return { events, objects };
}

describe('cluster copies of layout-3 databases', () => {
  it('a dump holds every event whole (the export file format), and its restore reads back the same history stored once', async () => {
    const { events, objects } = await cluster('copy-src');
    const dump = await dumpClusterDatabase('copy-src');
    expect(dump.objects).toEqual(objects);
    expect(dump.history.map((r) => r.revision)).toEqual([1, 2, 3, 4, 5]);
    expect(dump.history.flatMap((r) => r.events)).toEqual(events);
    // through JSON, as an export file is
    await restoreClusterDatabase('copy-dst', JSON.parse(JSON.stringify(dump)));
    const s = await openIdbStorage({ name: 'copy-dst' });
    expect(await s.events(0)).toEqual(events);
    expect(await s.list('')).toEqual(objects);
    await s.close();
    expect((await rawHistory('copy-dst')).flatMap((r) => r.events.map((e) => 'object' in e))).toEqual([false, false, false, false, false, false]);
  });

  it('an event of a file whose state would not read back the same is stored whole and read as given', async () => {
    const { events } = await cluster('odd-src');
    const dump = JSON.parse(JSON.stringify(await dumpClusterDatabase('odd-src')));
    dump.history[1].events[0].object.data.v = 'edited by hand';
    await restoreClusterDatabase('odd-dst', dump);
    const s = await openIdbStorage({ name: 'odd-dst' });
    const got = await s.events(0);
    expect(got[2].object.data).toEqual({ v: 'edited by hand' });
    expect(got.filter((_, i) => i !== 2)).toEqual(events.filter((_, i) => i !== 2));
    await s.close();
    expect((await rawHistory('odd-dst')).map((r) => r.events.map((e) => 'object' in e))).toEqual([[false, false], [true], [false], [false], [false]]);
  });
});

const settledWithin = <T>(p: Promise<T>, ms: number): Promise<boolean> =>
  Promise.race([p.then(() => true, () => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

describe('moving a cluster database to a new name while holding the old one', () => {
  it('the engine holding it steps aside, a write that comes during the copy waits and then fails, and the new name has everything before it', async () => {
    const { events, objects } = await cluster('move-src');
    const closed: string[] = [];
    const engine = await openIdbStorage({ name: 'move-src', onClose: (why) => closed.push(why) });
    let late: Promise<unknown> | undefined;
    let waited = false;
    await moveClusterDatabase('move-src', 'move-dst', async () => {
      late = openIdbStorage({ name: 'move-src' }).then((s) => s.write([{ kind: 'put', key: key('c'), object: cm('c', 'late') }], 60));
      waited = !(await settledWithin(late, 50));
    });
    expect(closed).toEqual(['versionchange']);
    await expect(engine.write([{ kind: 'put', key: key('d'), object: cm('d', 'x') }], 70)).rejects.toThrow(/another connection is upgrading or deleting it/);
    expect(waited).toBe(true);
    await expect(late).rejects.toThrow('openIdbStorage: database "move-src" is at a version past 3: a newer app wrote it (reload), or the cluster was just renamed');
    const moved = await openIdbStorage({ name: 'move-dst' });
    expect(await moved.list('')).toEqual(objects);
    expect(await moved.events(0)).toEqual(events);
    await moved.close();
    // what the old name holds is unchanged (no late write got in) until the caller deletes it, and it says
    // where the cluster went
    expect((await dumpClusterDatabase('move-src')).objects).toEqual(objects);
    const old = await new Promise<IDBDatabase>((res, rej) => {
      const r = indexedDB.open('move-src');
      r.onsuccess = () => res(r.result);
      r.onerror = () => rej(r.error);
    });
    expect(old.version).toBe(4);
    const movedTo = await new Promise((res) => {
      const g = old.transaction('meta').objectStore('meta').get('movedTo');
      g.onsuccess = () => res(g.result);
    });
    old.close();
    expect(movedTo).toBe('move-dst');
    await deleteDatabase('move-src');
    expect(await databaseExists('move-src')).toBe(false);
  });

  it('a move whose last step fails changes nothing: the old database keeps its version and data and takes writes again; the new name is gone', async () => {
    const { objects } = await cluster('fail-src');
    const version = async () => {
      const r = indexedDB.open('fail-src');
      const db = await new Promise<IDBDatabase>((res, rej) => {
        r.onsuccess = () => res(r.result);
        r.onerror = () => rej(r.error);
      });
      db.close();
      return db.version;
    };
    const before = await version();
    let late: Promise<unknown> | undefined;
    await expect(
      moveClusterDatabase('fail-src', 'fail-dst', async () => {
        late = openIdbStorage({ name: 'fail-src' }).then(async (s) => {
          await s.write([{ kind: 'put', key: key('c'), object: cm('c', 'late') }], 60);
          return s;
        });
        throw new Error('the settings could not be written');
      }),
    ).rejects.toThrow('the settings could not be written');
    // the write held during the copy goes through once the hold is released
    const s = (await late) as Awaited<ReturnType<typeof openIdbStorage>>;
    expect((await s.list('')).map((o) => o.key)).toEqual([...objects.map((o) => o.key), key('c')].sort());
    await s.close();
    expect(await version()).toBe(before);
    expect(await databaseExists('fail-dst')).toBe(false);
  });

  it('a connection that does not step aside: the move gives up after the limit and changes nothing', async () => {
    const { objects } = await cluster('stuck-src');
    const r = indexedDB.open('stuck-src');
    const stuck = await new Promise<IDBDatabase>((res, rej) => {
      r.onsuccess = () => res(r.result);
      r.onerror = () => rej(r.error);
    });
    let ran = false;
    await expect(
      moveClusterDatabase('stuck-src', 'stuck-dst', async () => {
        ran = true;
      }, { blockedTimeoutMs: 30 }),
    ).rejects.toThrow('cluster database stuck-src is still open somewhere (another tab?)');
    const version = stuck.version;
    stuck.close();
    // the queued upgrade is aborted when it gets through: same version, same data, no copy
    await new Promise((res) => setTimeout(res, 20));
    expect(ran).toBe(false);
    expect(await databaseExists('stuck-dst')).toBe(false);
    const again = await openIdbStorage({ name: 'stuck-src' });
    expect(await again.list('')).toEqual(objects);
    await again.close();
    const check = indexedDB.open('stuck-src');
    const db = await new Promise<IDBDatabase>((res) => (check.onsuccess = () => res(check.result)));
    expect(db.version).toBe(version);
    db.close();
  });
});
