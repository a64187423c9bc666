// A keyed write delivered twice (a fetch re-dispatched to a restarted worker, a client retry) takes effect
// once and is answered with its first outcome, through the hosts' cluster engines over IndexedDB.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openIdbStorage } from '../../adapters/idb/idb-storage.js';
import { createClusterEngines } from './clusters.js';

let seq = 0;
const route = { cluster: 'default', basePath: '/clusters/default' };
const CM = 'http://localhost/clusters/default/api/v1/namespaces/default/configmaps';

function engines(db: string) {
  return createClusterEngines({ host: 'service-worker', channel: null, openStorage: (_c, onLost) => openIdbStorage({ name: db, onClose: onLost }) });
}

function post(body: unknown, key?: string): Request {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (key !== undefined) headers['Idempotency-Key'] = key;
  return new Request(CM, { method: 'POST', headers, body: JSON.stringify(body) });
}

const cm = (metadata: Record<string, string>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata, data: { a: '1' } });

async function names(e: ReturnType<typeof engines>): Promise<string[]> {
  const res = await e.handle(route, new Request(CM));
  // (the root-CA ConfigMap every namespace holds is left out)
  return ((await res.json()) as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name).filter((n) => n !== 'kube-root-ca.crt').sort();
}

describe('idempotent writes (Idempotency-Key)', () => {
  it('a generateName create delivered twice makes one object; the second delivery gets the first answer', async () => {
    const e = engines(`idem-${++seq}`);
    const first = await e.handle(route, post(cm({ generateName: 'gen-' }), 'k1'));
    expect(first.status).toBe(201);
    const body = (await first.json()) as { metadata: { name: string; uid: string } };
    const again = await e.handle(route, post(cm({ generateName: 'gen-' }), 'k1'));
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(((await again.json()) as { metadata: { name: string; uid: string } }).metadata).toMatchObject(body.metadata);
    expect(await names(e)).toEqual([body.metadata.name]);
    // without the key (or with another) a second create is a second create
    expect((await e.handle(route, post(cm({ generateName: 'gen-' }), 'k2'))).status).toBe(201);
    expect((await e.handle(route, post(cm({ generateName: 'gen-' })))).status).toBe(201);
    expect(await names(e)).toHaveLength(3);
    await e.closeAll();
  });

  it('a fixed-name create delivered again after the worker restarted is answered 201, not 409', async () => {
    const db = `idem-${++seq}`;
    const first = engines(db);
    expect((await first.handle(route, post(cm({ name: 'fixed' }), 'k-fixed'))).status).toBe(201);
    await first.closeAll();
    const restarted = engines(db); // a new worker: the record is in IndexedDB
    const again = await restarted.handle(route, post(cm({ name: 'fixed' }), 'k-fixed'));
    expect(again.status).toBe(201);
    expect(await again.json()).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'fixed' } });
    // another client creating the same name still gets the real conflict
    const other = await restarted.handle(route, post(cm({ name: 'fixed' }), 'k-other'));
    expect(other.status).toBe(409);
    expect(await other.json()).toMatchObject({ reason: 'AlreadyExists' });
    await restarted.closeAll();
  });

  it('a worker stopped between the commit and the response: the record made with the write answers', async () => {
    const db = `idem-${++seq}`;
    // what the first delivery left behind: its write and the key, in one transaction, and no response
    const storage = await openIdbStorage({ name: db });
    const e0 = engines(db);
    expect(await names(e0)).toEqual([]); // seeds the cluster
    await e0.closeAll();
    const object = { ...cm({ name: 'half', namespace: 'default', uid: 'u-1' }) };
    const written = await storage.writeFor(
      { id: 'k-half', request: `POST /clusters/default/api/v1/namespaces/default/configmaps` },
      [{ kind: 'put', key: '/core/configmaps/default/half', object, expectRevision: 0 }],
      Date.now(),
    );
    expect(written.ok).toBe(true);
    await storage.close();
    const e = engines(db);
    const again = await e.handle(route, post(cm({ name: 'half' }), 'k-half'));
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await again.json()).toMatchObject({ metadata: { name: 'half', uid: 'u-1' } });
    expect(await names(e)).toEqual(['half']);
    await e.closeAll();
  });

  it('a failed write records nothing: its repetition is served again; a key reused for another request is refused', async () => {
    const e = engines(`idem-${++seq}`);
    const bad = await e.handle(route, post({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'Bad_Name' } }, 'k-bad'));
    expect(bad.status).toBe(422);
    const fixed = await e.handle(route, post(cm({ name: 'good' }), 'k-bad'));
    expect(fixed.status).toBe(201);
    const patch = await e.handle(
      route,
      new Request(`${CM}/good`, { method: 'PATCH', headers: { 'Content-Type': 'application/merge-patch+json', 'Idempotency-Key': 'k-bad' }, body: '{"data":{"b":"2"}}' }),
    );
    expect(patch.status).toBe(400);
    expect(await patch.json()).toMatchObject({ kind: 'Status', code: 400, message: expect.stringContaining('was already used for another request') });
    const badKey = await e.handle(route, post(cm({ name: 'other' }), 'has space'));
    expect(badKey.status).toBe(400);
    expect(await names(e)).toEqual(['good']);
    await e.closeAll();
  });

  it('a JSON patch appending to a list, delivered twice, appends once; a delete delivered twice is answered 200 twice', async () => {
    const e = engines(`idem-${++seq}`);
    expect((await e.handle(route, post({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'p', finalizers: ['a/x'] } }))).status).toBe(201);
    const patch = () =>
      new Request(`${CM}/p`, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json-patch+json', 'Idempotency-Key': 'k-patch' },
        body: JSON.stringify([{ op: 'add', path: '/metadata/finalizers/-', value: 'a/y' }]),
      });
    expect((await e.handle(route, patch())).status).toBe(200);
    expect((await e.handle(route, patch())).status).toBe(200);
    const got = (await (await e.handle(route, new Request(`${CM}/p`))).json()) as { metadata: { finalizers: string[] } };
    expect(got.metadata.finalizers).toEqual(['a/x', 'a/y']);
    expect((await e.handle(route, post(cm({ name: 'd' }))) ).status).toBe(201);
    const del = () => new Request(`${CM}/d`, { method: 'DELETE', headers: { 'Idempotency-Key': 'k-del' } });
    const d1 = await e.handle(route, del());
    const d2 = await e.handle(route, del());
    expect([d1.status, d2.status]).toEqual([200, 200]);
    expect(await d2.text()).toBe(await d1.text());
    await e.closeAll();
  });

  it('compaction drops request records with the history', async () => {
    const s = await openIdbStorage({ name: `idem-${++seq}` });
    await s.writeFor({ id: 'old', request: 'POST /x' }, [{ kind: 'put', key: '/core/configmaps/d/a', object: cm({ name: 'a' }) }], 1000);
    await s.writeFor({ id: 'new', request: 'POST /x' }, [{ kind: 'put', key: '/core/configmaps/d/b', object: cm({ name: 'b' }) }], 5000);
    await s.recordResponse('old', { status: 201, headers: [], body: '{}' });
    expect((await s.requestRecord('old'))?.response).toEqual({ status: 201, headers: [], body: '{}' });
    await s.compact(2000);
    expect(await s.requestRecord('old')).toBeUndefined();
    expect(await s.requestRecord('new')).toMatchObject({ id: 'new', revision: 2 });
    await s.close();
  });
});
