// Group commit over IndexedDB: writes that reach the storage while its transaction is open go together into
// its next transaction (idb-storage.ts), and the engine lets go of its write lock before a commit is durable
// (registry/state.ts commitQueued), so the writes of concurrent requests meet there. Each answer still comes
// only once its write is durable; revisions stay gap-free and in order; a transaction that fails fails the
// writes in it and nothing else, and leaves no trace in the cache or the watch history.
import 'fake-indexeddb/auto';
import { IDBDatabase as FakeIDBDatabase, IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { testClient, type TestClient } from '../../engine/testing/harness.js';
import { openIdbStorage } from './idb-storage.js';

const CM = '/api/v1/namespaces/default/configmaps';

/** Every readwrite transaction that writes objects (a commit), as IndexedDB is asked for it. */
const commits: IDBTransaction[] = [];
/** Called with each such transaction as it is created (to make one fail). */
let onCommit: ((tx: IDBTransaction, n: number) => void) | undefined;
const original = FakeIDBDatabase.prototype.transaction;
FakeIDBDatabase.prototype.transaction = function (this: IDBDatabase, ...args: Parameters<IDBDatabase['transaction']>) {
  const tx = original.apply(this, args);
  const stores = typeof args[0] === 'string' ? [args[0]] : [...args[0]];
  if (args[1] === 'readwrite' && stores.includes('objects')) {
    commits.push(tx);
    onCommit?.(tx, commits.length);
  }
  return tx;
} as IDBDatabase['transaction'];

afterEach(() => {
  onCommit = undefined;
});

/** Makes `tx` abort right after its last request (the new revision) is issued: the whole transaction fails. */
function failAtRevisionPut(tx: IDBTransaction): void {
  const objectStore = tx.objectStore.bind(tx);
  tx.objectStore = (name: string) => {
    const store = objectStore(name);
    if (name !== 'meta') return store;
    const put = store.put.bind(store);
    store.put = (value: unknown, key?: IDBValidKey) => {
      const r = put(value, key);
      if (key === 'revision') tx.abort();
      return r;
    };
    return store;
  };
}

const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: name } });

async function engine(factory: IDBFactory, name: string): Promise<TestClient> {
  return testClient(await openIdbStorage({ name, indexedDB: factory }), { controllers: [] });
}

/** Reads `n` watch events (JSON lines) from a watch response. */
async function readEvents(body: ReadableStream<Uint8Array>, n: number): Promise<{ type: string; object: any }[]> {
  const reader = body.getReader();
  const dec = new TextDecoder();
  let text = '';
  const lines = () => text.split('\n').filter(Boolean);
  while (lines().length < n) {
    const { done, value } = await reader.read();
    if (done) break;
    text += dec.decode(value, { stream: true });
  }
  void reader.cancel().catch(() => undefined);
  return lines().map((l) => JSON.parse(l));
}

describe('group commit over IndexedDB (fake-indexeddb)', () => {
  it('concurrent creates land in fewer transactions than writes, each answered with a durable, gap-free revision', async () => {
    const factory = new IDBFactory();
    const c = await engine(factory, 'group-1');
    const before = Number((await c.req('GET', CM)).body.metadata.resourceVersion);
    const first = commits.length;
    const n = 40;
    const answers = await Promise.all(Array.from({ length: n }, (_, i) => c.req('POST', CM, cm(`cm-${i}`))));
    const transactions = commits.length - first;
    expect(answers.map((a) => a.status)).toEqual(Array(n).fill(201));
    // one transaction each before: the writes waited for each other's commit under the lock
    expect(transactions).toBeLessThan(n / 2);
    const revisions = answers.map((a) => Number(a.body.metadata.resourceVersion)).sort((a, b) => a - b);
    expect(revisions).toEqual(Array.from({ length: n }, (_, i) => before + 1 + i));
    await c.server.close();

    // durable: a new connection to the database holds every answered object at its answered revision
    const again = await openIdbStorage({ name: 'group-1', indexedDB: factory });
    for (const a of answers) {
      const stored = await again.get(`/core/configmaps/default/${a.body.metadata.name}`);
      expect(stored?.object.metadata?.resourceVersion).toBe(a.body.metadata.resourceVersion);
      expect(stored?.object).toEqual(a.body);
    }
    expect(await again.revision()).toBe(before + n);
    expect((await again.events(before)).map((e) => e.revision)).toEqual(revisions);
    await again.close();
  });

  it('a failed transaction fails exactly the writes in it, with the Status a lone failed commit gets; the others land', async () => {
    const factory = new IDBFactory();
    const c = await engine(factory, 'group-2');
    // the answer of one write whose transaction fails, alone
    onCommit = (tx) => failAtRevisionPut(tx);
    const lone = await c.req('POST', CM, cm('lone'));
    onCommit = undefined;
    expect(lone.status).toBe(500);
    expect(lone.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'InternalError', code: 500 });
    expect((await c.req('GET', `${CM}/lone`)).status).toBe(404);

    const before = Number((await c.req('GET', CM)).body.metadata.resourceVersion);
    const watch = await c.raw('GET', `${CM}?watch=1&resourceVersion=${before}`);
    // the first transaction takes the write that arrives first; the second gathers the ones behind it: fail it
    const start = commits.length;
    onCommit = (tx, k) => {
      if (k === start + 2) failAtRevisionPut(tx);
    };
    const n = 12;
    const firstWave = Array.from({ length: n / 2 }, (_, i) => c.req('POST', CM, cm(`cm-${i}`)));
    // the second half arrives while the second transaction is open: it goes into a third
    while (commits.length < start + 2) await new Promise((r) => setTimeout(r, 0));
    const secondWave = Array.from({ length: n / 2 }, (_, i) => c.req('POST', CM, cm(`cm-${n / 2 + i}`)));
    const answers = await Promise.all([...firstWave, ...secondWave]);
    expect(commits.length - start).toBeGreaterThanOrEqual(3);
    onCommit = undefined;
    const failed = answers.filter((a) => a.status !== 201);
    const landed = answers.filter((a) => a.status === 201);
    expect(failed.length).toBeGreaterThan(1); // a batch of several failed together
    expect(landed.length).toBeGreaterThan(1); // the batches before and after it landed
    for (const f of failed) expect(f.body).toEqual(lone.body);
    // landed ones: revisions gap-free from `before` on (the failed batch took no revision)
    const revisions = landed.map((a) => Number(a.body.metadata.resourceVersion)).sort((a, b) => a - b);
    expect(revisions).toEqual(Array.from({ length: landed.length }, (_, i) => before + 1 + i));

    // the cache: the failed ones are absent, the landed ones present; a list shows exactly the landed ones
    const failedNames = new Set<string>();
    answers.forEach((a, i) => a.status !== 201 && failedNames.add(`cm-${i}`));
    for (const name of failedNames) expect((await c.req('GET', `${CM}/${name}`)).status).toBe(404);
    const list = (await c.req('GET', CM)).body;
    expect(list.items.map((i: any) => i.metadata.name).filter((n: string) => n.startsWith('cm-')).sort()).toEqual(landed.map((a) => a.body.metadata.name).sort());
    expect(Number(list.metadata.resourceVersion)).toBe(before + landed.length);

    // the watch history: an ADDED event for each landed write, in revision order, none for a failed one
    const events = await readEvents(watch.body!, landed.length);
    expect(events.map((e) => e.type)).toEqual(Array(landed.length).fill('ADDED'));
    expect(events.map((e) => Number(e.object.metadata.resourceVersion))).toEqual(revisions);
    for (const e of events) expect(failedNames.has(e.object.metadata.name)).toBe(false);

    // the failed names can be created now (nothing of them was stored), at the next revisions
    const retried = await Promise.all([...failedNames].map((name) => c.req('POST', CM, cm(name))));
    expect(retried.map((a) => a.status)).toEqual(Array(failedNames.size).fill(201));
    await c.server.close();

    // durable state after a reopen: every landed and retried object, no gap in the history
    const again = await openIdbStorage({ name: 'group-2', indexedDB: factory });
    const end = before + landed.length + failedNames.size;
    expect(await again.revision()).toBe(end);
    expect((await again.events(before)).map((e) => e.revision)).toEqual(Array.from({ length: end - before }, (_, i) => before + 1 + i));
    expect((await again.list('/core/configmaps/default/cm-')).length).toBe(n);
    await again.close();
  });

  it('writes handed to the storage before close() are written and answered before the connection closes; later ones fail', async () => {
    const factory = new IDBFactory();
    const s = await openIdbStorage({ name: 'group-3', indexedDB: factory });
    const put = (name: string) => s.write([{ kind: 'put', key: `/core/configmaps/default/${name}`, object: cm(name), expectRevision: 0 }], 1);
    // the first opens a transaction; the rest wait for the next one, which close() must not drop
    const taken = ['a', 'b', 'c', 'd'].map(put);
    const closed = s.close();
    await expect(put('late')).rejects.toThrow(/closed/);
    const results = await Promise.all(taken);
    await closed;
    expect(results.map((r) => r.ok && r.revision)).toEqual([1, 2, 3, 4]);
    const again = await openIdbStorage({ name: 'group-3', indexedDB: factory });
    expect((await again.list('/core/configmaps/default/')).map((o) => o.key.split('/').pop())).toEqual(['a', 'b', 'c', 'd']);
    await again.close();
  });
});
