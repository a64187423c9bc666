// Corrupt objects on the wire (issue 12 item 5; the spec's "Unreadable (corrupt) resource" rows): the
// playground's simulation endpoint makes one object's stored value undecodable; reads and normal deletes then
// fail with the real storage errors (different with AllowUnsafeMalformedObjectDeletion on and off); a delete
// with ignoreStoreReadErrorWithClusterBreakingPotential removes it (gate on, both verbs), skipping finalizers
// and preconditions; refused on a readable object and with other options; ignored with the gate off. The
// undecodable value persists through a restart (memory state, IndexedDB).
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { createMemoryStorage, memoryStorageFromState } from '../../adapters/memory/memory-storage.js';
import { openIdbStorage } from '../../adapters/idb/idb-storage.js';
import { testClient, type TestClient } from '../testing/harness.js';

const CM = '/api/v1/namespaces/default/configmaps';
const D = '/apis/apps/v1/namespaces/default/deployments';
const GATE = { AllowUnsafeMalformedObjectDeletion: true };
const DECODE = "couldn't get version/kind; json parse error: unexpected end of JSON input";
const FORCE = { ignoreStoreReadErrorWithClusterBreakingPotential: true };

const cm = (name: string, meta: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...meta }, data: { a: '1' } });

async function corrupt(c: TestClient, path: string) {
  return c.req('POST', `/x-playground/corrupt?path=${encodeURIComponent(path)}`);
}

/** Creates configmap `name` and corrupts it; returns the revision of the corrupting write. */
async function corrupted(c: TestClient, name: string, meta: Record<string, unknown> = {}): Promise<number> {
  expect((await c.req('POST', CM, cm(name, meta))).status).toBe(201);
  const r = await corrupt(c, `${CM}/${name}`);
  expect(r.status).toBe(200);
  return Number((await c.req('GET', '/api/v1/namespaces/kube-system/configmaps')).body.metadata.resourceVersion);
}

function corruptGetError(key: string, revision: number) {
  const message = `StorageError: corrupt object, Code: 7, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: object not decodable revision=${revision}: ${DECODE}`;
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `Internal error occurred: ${message}`, reason: 'InternalError', details: { causes: [{ message }] }, code: 500 };
}

const RAW = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: DECODE, code: 500 };

describe('the simulation endpoint', () => {
  it('POST corrupts one object (200 Status), a second time says so; other methods 405; a missing object 404; a bad path 400', async () => {
    const c = await testClient(createMemoryStorage(), { controllers: [], defaultObjects: false });
    await c.req('POST', CM, cm('x'));
    const r = await corrupt(c, `${CM}/x`);
    expect(r.body).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success',
      message: 'simulation: the stored value of configmaps "x" in namespace "default" is now undecodable; reads fail as for a corrupt object in etcd',
      details: { name: 'x', kind: 'configmaps' }, code: 200,
    });
    expect((await corrupt(c, `${CM}/x`)).body.message).toBe('simulation: the stored value of configmaps "x" in namespace "default" was already undecodable');
    expect((await c.req('GET', `/x-playground/corrupt?path=${CM}/x`)).status).toBe(405);
    const missing = await corrupt(c, `${CM}/nope`);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('configmaps "nope" not found');
    const bad = await corrupt(c, CM);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('"/api/v1/namespaces/default/configmaps" is not the API path of one object');
  });

  it('is authorized as an update of the object (403 for a user who may only read)', async () => {
    const c = await testClient(createMemoryStorage(), { controllers: [], auth: { bootstrapPolicy: true } });
    await c.req('POST', CM, cm('x'));
    const r = await c.req('POST', `/x-playground/corrupt?path=${CM}/x`, undefined, { 'Impersonate-User': 'jane' });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('configmaps "x" is forbidden: User "jane" cannot update resource "configmaps" in API group "" in the namespace "default"');
    expect((await c.req('GET', `${CM}/x`)).status).toBe(200);
  });
});

describe('reads of a corrupt object, AllowUnsafeMalformedObjectDeletion on', () => {
  it('get, update, patch and a normal delete: 500 InternalError naming the corrupt-object StorageError; create of the name: 409', async () => {
    const c = await testClient(createMemoryStorage(), { controllers: [], featureGates: GATE });
    const rev = await corrupted(c, 'x');
    const want = corruptGetError('/configmaps/default/x', rev);
    expect((await c.req('GET', `${CM}/x`)).body).toEqual(want);
    const put = await c.req('PUT', `${CM}/x`, cm('x'));
    expect(put.body).toEqual(want);
    const patch = await c.req('PATCH', `${CM}/x`, { data: { b: '2' } }, { 'Content-Type': 'application/merge-patch+json' });
    expect(patch.body).toEqual(want);
    const del = await c.req('DELETE', `${CM}/x`);
    expect(del.body).toEqual(want);
    const again = await c.req('POST', CM, cm('x'));
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('configmaps "x" already exists');
  });

  it('a list over it: 500 StoreReadError with a cause per object; lists of other namespaces and other objects still answer', async () => {
    const c = await testClient(createMemoryStorage(), { controllers: [], featureGates: GATE });
    const rev = await corrupted(c, 'x');
    const key = '/registry/configmaps/default/x';
    const want = {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'failed to read one or more configmaps from the storage',
      reason: 'StoreReadError',
      details: { name: 'list', kind: 'configmaps', causes: [{ reason: 'UnexpectedServerResponse', message: `StorageError: corrupt object, Code: 7, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: object not decodable revision=${rev}: ${DECODE}`, field: key }] },
      code: 500,
    };
    expect((await c.req('GET', CM)).body).toEqual(want);
    expect((await c.req('GET', '/api/v1/configmaps')).body).toEqual(want);
    expect((await c.req('GET', `${CM}?resourceVersion=0`)).status).toBe(500);
    expect((await c.req('GET', '/api/v1/namespaces/kube-system/configmaps')).status).toBe(200);
    expect((await c.req('GET', `${CM}/kube-root-ca.crt`)).status).toBe(200);
    // deletecollection lists first: nothing is deleted
    expect((await c.req('DELETE', CM)).body).toEqual(want);
    expect((await c.req('GET', `${CM}/kube-root-ca.crt`)).status).toBe(200);
  });

  it('watch: open watches of the resource end at the corruption; new ones are refused with 429 until it is gone', async () => {
    const c = await testClient(createMemoryStorage(), { controllers: [], featureGates: GATE });
    await c.req('POST', CM, cm('x'));
    const rv = (await c.req('GET', CM)).body.metadata.resourceVersion;
    const res = await c.raw('GET', `/api/v1/configmaps?watch=1&resourceVersion=${rv}&timeoutSeconds=3600`);
    const reader = res.body!.getReader();
    await corrupt(c, `${CM}/x`);
    const chunks: string[] = [];
    for (;;) {
      const r = await reader.read();
      if (r.done) break;
      chunks.push(new TextDecoder().decode(r.value));
    }
    expect(chunks).toEqual([]);
    const w = await c.req('GET', '/api/v1/namespaces/kube-system/configmaps?watch=1');
    expect(w.status).toBe(429);
    expect(w.headers.get('Retry-After')).toBe('1');
    expect(w.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'storage is (re)initializing', reason: 'TooManyRequests', details: { retryAfterSeconds: 1 }, code: 429 });
    // other resources are served
    expect((await c.raw('GET', '/api/v1/namespaces/default/secrets?watch=1&timeoutSeconds=0')).status).toBe(200);
  });
});

describe('reads of a corrupt object, gate off', () => {
  it('the decoder error reaches the client as is (500, no reason); the force option is ignored, so the delete fails the same way', async () => {
    const c = await testClient(createMemoryStorage(), { controllers: [] });
    await corrupted(c, 'x');
    expect((await c.req('GET', `${CM}/x`)).body).toEqual(RAW);
    expect((await c.req('GET', CM)).body).toEqual(RAW);
    expect((await c.req('DELETE', `${CM}/x`)).body).toEqual(RAW);
    expect((await c.req('DELETE', `${CM}/x`, FORCE)).body).toEqual(RAW);
    // with the gate off, even conflicting options are not looked at (the option is dropped first)
    expect((await c.req('DELETE', `${CM}/x?ignoreStoreReadErrorWithClusterBreakingPotential=true&dryRun=All`)).body).toEqual(RAW);
  });
});

describe('forced delete', () => {
  it('removes the corrupt object despite finalizers and with no preconditions: 200 Success naming the kind; then 404, the list answers, watches work again', async () => {
    const c = await testClient(createMemoryStorage(), { controllers: [], featureGates: GATE });
    await corrupted(c, 'x', { finalizers: ['example.com/hold'] });
    const r = await c.req('DELETE', `${CM}/x`, FORCE);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'x', kind: 'ConfigMap' }, code: 200 });
    expect((await c.req('GET', `${CM}/x`)).status).toBe(404);
    const list = await c.req('GET', CM);
    expect(list.status).toBe(200);
    expect(list.body.items.map((i: any) => i.metadata.name)).toEqual(['kube-root-ca.crt']);
    expect((await c.raw('GET', `${CM}?watch=1&timeoutSeconds=0`)).status).toBe(200);
    // the name can be used again
    expect((await c.req('POST', CM, cm('x'))).status).toBe(201);
  });

  it('a watch resumed from before the corruption or the removal: 410 (the watch cache was rebuilt after them)', async () => {
    const c = await testClient(createMemoryStorage(), { controllers: [], featureGates: GATE });
    await c.req('POST', CM, cm('x'));
    const before = (await c.req('GET', CM)).body.metadata.resourceVersion;
    await corrupt(c, `${CM}/x`);
    await c.req('DELETE', `${CM}/x`, FORCE);
    const after = Number((await c.req('GET', CM)).body.metadata.resourceVersion);
    const res = await c.raw('GET', `${CM}?watch=1&resourceVersion=${before}&timeoutSeconds=3600`);
    expect(res.status).toBe(200);
    expect(JSON.parse(await res.text())).toEqual({
      type: 'ERROR',
      object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `too old resource version: ${before} (${after})`, reason: 'Expired', code: 410 },
    });
  });

  it('on a readable object, and on a missing one: 422 (the corrupt-object deleter reads first)', async () => {
    const c = await testClient(createMemoryStorage(), { controllers: [], featureGates: GATE });
    await c.req('POST', CM, cm('ok'));
    for (const name of ['ok', 'missing']) {
      const r = await c.req('DELETE', `${CM}/${name}`, FORCE);
      expect(r.status).toBe(422);
      expect(r.body.message).toBe(`configmaps "${name}" is invalid: ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: is exclusively used to delete corrupt object(s), try again by removing this option`);
    }
    expect((await c.req('GET', `${CM}/ok`)).status).toBe(200);
  });

  it('with any other delete option set: 422 DeleteOptions, one cause per option, nothing removed', async () => {
    const c = await testClient(createMemoryStorage(), { controllers: [], featureGates: GATE });
    await corrupted(c, 'x');
    const r = await c.req('DELETE', `${CM}/x`, {
      ...FORCE, dryRun: ['All'], gracePeriodSeconds: 0, preconditions: { uid: 'u' }, propagationPolicy: 'Background',
    });
    const msg = (opt: string) => `Invalid value: true: cannot be set together with .${opt}`;
    expect(r.body).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: `DeleteOptions.meta.k8s.io "" is invalid: [ignoreStoreReadErrorWithClusterBreakingPotential: ${msg('dryRun')}, ignoreStoreReadErrorWithClusterBreakingPotential: ${msg('propagationPolicy')}, ignoreStoreReadErrorWithClusterBreakingPotential: ${msg('gracePeriodSeconds')}, ignoreStoreReadErrorWithClusterBreakingPotential: ${msg('preconditions')}]`,
      reason: 'Invalid',
      details: { group: 'meta.k8s.io', kind: 'DeleteOptions', causes: ['dryRun', 'propagationPolicy', 'gracePeriodSeconds', 'preconditions'].map((o) => ({ reason: 'FieldValueInvalid', message: msg(o), field: 'ignoreStoreReadErrorWithClusterBreakingPotential' })) },
      code: 422,
    });
    const orphan = await c.req('DELETE', `${CM}/x?ignoreStoreReadErrorWithClusterBreakingPotential=true&orphanDependents=false`);
    expect(orphan.body.message).toBe(`DeleteOptions.meta.k8s.io "" is invalid: ignoreStoreReadErrorWithClusterBreakingPotential: ${msg('orphanDependents')}`);
    expect((await c.req('GET', `${CM}/x`)).status).toBe(500);
  });

  it('needs the unsafe-delete-ignore-read-errors verb besides delete (403 without it, object kept)', async () => {
    const c = await testClient(createMemoryStorage(), { controllers: [], featureGates: GATE, auth: { bootstrapPolicy: true } });
    await corrupted(c, 'x');
    await c.req('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', { metadata: { name: 'deleter' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['delete'] }] });
    await c.req('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', { metadata: { name: 'deleter' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'deleter' }, subjects: [{ kind: 'User', name: 'jane', apiGroup: 'rbac.authorization.k8s.io' }] });
    const r = await c.req('DELETE', `${CM}/x`, FORCE, { 'Impersonate-User': 'jane' });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('configmaps "x" is forbidden: not permitted to do "unsafe-delete-ignore-read-errors", reason: ');
    await c.req('PATCH', '/apis/rbac.authorization.k8s.io/v1/clusterroles/deleter', { rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['delete', 'unsafe-delete-ignore-read-errors'] }] }, { 'Content-Type': 'application/merge-patch+json' });
    expect((await c.req('DELETE', `${CM}/x`, FORCE, { 'Impersonate-User': 'jane' })).status).toBe(200);
  });

  it('works for every kind the same way (a deployment, cluster-scoped: a namespace-less key)', async () => {
    const c = await testClient(createMemoryStorage(), { controllers: [], featureGates: GATE });
    await c.req('POST', D, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } });
    await corrupt(c, `${D}/web`);
    expect((await c.req('GET', `${D}/web`)).body.message).toMatch(/^Internal error occurred: StorageError: corrupt object, Code: 7, Key: \/deployments\/default\/web, /);
    expect((await c.req('GET', D)).body.message).toBe('failed to read one or more deployments.apps from the storage');
    const pc = '/apis/scheduling.k8s.io/v1/priorityclasses';
    await c.req('POST', pc, { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'p' }, value: 5 });
    await corrupt(c, `${pc}/p`);
    expect((await c.req('GET', `${pc}/p`)).body.message).toMatch(/Key: \/priorityclasses\/p, /);
    expect((await c.req('DELETE', `${pc}/p`, FORCE)).body.details).toEqual({ name: 'p', kind: 'PriorityClass' });
    expect((await c.req('DELETE', `${D}/web`, FORCE)).body.details).toEqual({ name: 'web', kind: 'Deployment' });
  });
});

describe('with the controllers running', () => {
  it('their informers wait while the resource is unreadable and resume after the forced delete (no busy loop)', async () => {
    const c = await testClient(createMemoryStorage(), { featureGates: GATE });
    await c.settle();
    await corrupted(c, 'x');
    await c.settle();
    expect((await c.req('DELETE', `${CM}/x`, FORCE)).status).toBe(200);
    await c.settle();
    // the garbage collector still works on configmaps: a dependent of a deleted owner goes
    const owner = await c.req('POST', CM, cm('owner'));
    await c.req('POST', CM, cm('child', { ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.body.metadata.uid }] }));
    await c.settle();
    await c.req('DELETE', `${CM}/owner`);
    for (let i = 0; i < 20 && (await c.req('GET', `${CM}/child`)).status !== 404; i++) {
      await c.env.advance(1000);
      await c.settle();
    }
    expect((await c.req('GET', `${CM}/child`)).status).toBe(404);
  });
});

describe('persistence', () => {
  it('the undecodable value survives a restart (memory state carried over)', async () => {
    const storage = memoryStorageFromState();
    const c = await testClient(storage, { controllers: [], featureGates: GATE });
    const rev = await corrupted(c, 'x');
    const again = await testClient(memoryStorageFromState(storage.exportState()), { controllers: [], featureGates: GATE });
    expect((await again.req('GET', `${CM}/x`)).body).toEqual(corruptGetError('/configmaps/default/x', rev));
    expect((await again.req('DELETE', `${CM}/x`, FORCE)).status).toBe(200);
  });

  it('and in IndexedDB', async () => {
    const indexedDB = new IDBFactory();
    const open = () => openIdbStorage({ name: 'corrupt', indexedDB });
    const c = await testClient(await open(), { controllers: [], featureGates: GATE });
    const rev = await corrupted(c, 'x');
    await c.server.close();
    const again = await testClient(await open(), { controllers: [], featureGates: GATE });
    expect((await again.req('GET', `${CM}/x`)).body).toEqual(corruptGetError('/configmaps/default/x', rev));
    await again.server.close();
  });
});
