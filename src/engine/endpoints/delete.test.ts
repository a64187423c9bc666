// The delete path of the generic store on the wire, with no controllers running (so that what the API
// server alone does is visible): two-phase delete with finalizers, the GC finalizers the propagation policy
// asks for, preconditions and dry run, graceful deletion of pods, the namespaces' own delete and /finalize,
// NamespaceLifecycle admission, ownerReferences validation. Status, body and watch events in order.
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../testing/harness.js';
import { collectEvents } from '../testing/events.js';

let c: TestClient;
beforeEach(async () => {
  c = await testClient(createMemoryStorage(), { controllers: [] });
});

const CM = '/api/v1/namespaces/default/configmaps';
const PODS = '/api/v1/namespaces/default/pods';
const D = '/apis/apps/v1/namespaces/default/deployments';
const JOBS = '/apis/batch/v1/namespaces/default/jobs';
const T0 = '2025-01-01T00:00:00Z';
const MERGE = { 'Content-Type': 'application/merge-patch+json' };
const tick = () => new Promise((r) => setImmediate(r));

const cm = (name: string, meta: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...meta }, data: { a: '1' } });
const pod = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
});
const dep = (name: string, meta: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, ...meta },
  spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
});

describe('two-phase delete (finalizers)', () => {
  it('Live -> Terminating: 200 with the object (deletionTimestamp = now, grace 0), MODIFIED; the object stays', async () => {
    await c.req('POST', CM, cm('f', { finalizers: ['example.com/hold'] }));
    const w = await collectEvents(c, CM);
    c.env.set(Date.parse(T0) + 7000);
    const r = await c.req('DELETE', `${CM}/f`);
    expect(r.status).toBe(200);
    expect(r.body.kind).toBe('ConfigMap');
    expect(r.body.metadata).toMatchObject({ deletionTimestamp: '2025-01-01T00:00:07Z', deletionGracePeriodSeconds: 0, finalizers: ['example.com/hold'] });
    const got = await c.req('GET', `${CM}/f`);
    expect(got.body.metadata.deletionTimestamp).toBe('2025-01-01T00:00:07Z');
    await tick();
    expect(w.types()).toEqual(['MODIFIED f']);
    w.close();
  });

  it('a second delete answers 200 with the object unchanged (no write, no event); orphanDependents=false answers 202', async () => {
    await c.req('POST', CM, cm('f', { finalizers: ['example.com/hold'] }));
    const first = await c.req('DELETE', `${CM}/f`);
    const w = await collectEvents(c, CM);
    c.env.set(Date.parse(T0) + 60_000);
    const again = await c.req('DELETE', `${CM}/f`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    await tick();
    expect(w.types()).toEqual([]);
    w.close();
  });

  it('Terminating: no new finalizers (422, the real message); deletionTimestamp cannot be changed (kept)', async () => {
    await c.req('POST', CM, cm('f', { finalizers: ['example.com/hold'] }));
    const del = (await c.req('DELETE', `${CM}/f`)).body;
    const add = await c.req('PATCH', `${CM}/f`, { metadata: { finalizers: ['example.com/hold', 'example.com/new', 'example.com/a'] } }, MERGE);
    expect(add.status).toBe(422);
    expect(add.body.message).toBe('ConfigMap "f" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/a", "example.com/new"}');
    expect(add.body.details.causes).toEqual([{ reason: 'FieldValueForbidden', message: 'Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/a", "example.com/new"}', field: 'metadata.finalizers' }]);
    const put = await c.req('PUT', `${CM}/f`, { ...del, metadata: { ...del.metadata, deletionTimestamp: '2030-01-01T00:00:00Z' }, data: { a: '2' } });
    expect(put.status).toBe(200);
    expect(put.body.metadata.deletionTimestamp).toBe(T0);
    expect(put.body.data).toEqual({ a: '2' });
  });

  it('setting deletionTimestamp on a live object is refused (immutable)', async () => {
    const live = (await c.req('POST', CM, cm('live'))).body;
    const r = await c.req('PUT', `${CM}/live`, { ...live, metadata: { ...live.metadata, deletionTimestamp: T0 } });
    expect(r.status).toBe(422);
    expect(r.body.details.causes.map((x: any) => x.field)).toEqual(['metadata.deletionTimestamp']);
  });

  it('Terminating -> Terminating when one finalizer goes (MODIFIED); -> Removed on the update removing the last (200 with the object, DELETED)', async () => {
    await c.req('POST', CM, cm('f', { finalizers: ['example.com/a', 'example.com/b'] }));
    await c.req('DELETE', `${CM}/f`);
    const w = await collectEvents(c, CM);
    const one = await c.req('PATCH', `${CM}/f`, { metadata: { finalizers: ['example.com/b'] } }, MERGE);
    expect(one.status).toBe(200);
    expect((await c.req('GET', `${CM}/f`)).status).toBe(200);
    const last = await c.req('PATCH', `${CM}/f`, { metadata: { finalizers: null } }, MERGE);
    expect(last.status).toBe(200);
    expect(last.body.kind).toBe('ConfigMap');
    expect(last.body.metadata.finalizers).toBeUndefined();
    expect(last.body.metadata.deletionTimestamp).toBe(T0);
    expect((await c.req('GET', `${CM}/f`)).status).toBe(404);
    await tick();
    expect(w.types()).toEqual(['MODIFIED f', 'DELETED f']);
    w.close();
  });

  it('marking an object that tracks generation moves the generation on', async () => {
    await c.req('POST', D, dep('web', { finalizers: ['example.com/hold'] }));
    const r = await c.req('DELETE', `${D}/web`);
    expect(r.body.metadata.generation).toBe(2);
  });

  it('orphanDependents=false on an object that stays answers 202', async () => {
    await c.req('POST', CM, cm('f', { finalizers: ['example.com/hold'] }));
    const r = await c.req('DELETE', `${CM}/f`, { orphanDependents: false });
    expect(r.status).toBe(202);
    expect(r.body.metadata.finalizers).toEqual(['example.com/hold']);
  });

  it('dryRun: the marked object is answered and nothing is stored; a removal is answered and nothing goes', async () => {
    await c.req('POST', CM, cm('f', { finalizers: ['example.com/hold'] }));
    await c.req('POST', CM, cm('plain'));
    const w = await collectEvents(c, CM);
    const f = await c.req('DELETE', `${CM}/f?dryRun=All`);
    expect(f.status).toBe(200);
    expect(f.body.metadata.deletionTimestamp).toBe(T0);
    expect((await c.req('GET', `${CM}/f`)).body.metadata.deletionTimestamp).toBeUndefined();
    const p = await c.req('DELETE', `${CM}/plain?dryRun=All`);
    expect(p.body).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'plain', kind: 'configmaps' } });
    expect((await c.req('GET', `${CM}/plain`)).status).toBe(200);
    await tick();
    expect(w.types()).toEqual([]);
    w.close();
  });

  it('preconditions are checked before anything else, also on a terminating object', async () => {
    await c.req('POST', CM, cm('f', { finalizers: ['example.com/hold'] }));
    await c.req('DELETE', `${CM}/f`);
    const r = await c.req('DELETE', `${CM}/f`, { preconditions: { resourceVersion: '1' } });
    expect(r.status).toBe(409);
    expect(r.body.message).toMatch(/^Operation cannot be fulfilled on ConfigMap "f": the ResourceVersion in the precondition \(1\) does not match the ResourceVersion in record \(\d+\)\. The object might have been modified$/);
  });
});

describe('propagationPolicy: the garbage collector finalizers', () => {
  it('Orphan (and orphanDependents=true) adds "orphan"; Foreground adds "foregroundDeletion"; orphanDependents=false is Background', async () => {
    for (const n of ['o1', 'o2', 'f1', 'f2', 'b1']) await c.req('POST', CM, cm(n));
    const o1 = await c.req('DELETE', `${CM}/o1`, { propagationPolicy: 'Orphan' });
    expect([o1.status, o1.body.metadata.finalizers, o1.body.metadata.deletionTimestamp]).toEqual([200, ['orphan'], T0]);
    const o2 = await c.req('DELETE', `${CM}/o2?orphanDependents=true`);
    expect([o2.status, o2.body.metadata.finalizers]).toEqual([200, ['orphan']]);
    const f1 = await c.req('DELETE', `${CM}/f1`, { propagationPolicy: 'Foreground' });
    expect([f1.status, f1.body.metadata.finalizers]).toEqual([200, ['foregroundDeletion']]);
    // an explicit orphanDependents overrides both finalizers: false means neither (shouldDeleteDependentsInForeground)
    const f2 = await c.req('DELETE', `${CM}/f2`, { orphanDependents: false });
    expect([f2.status, f2.body.kind]).toEqual([200, 'Status']);
    const b1 = await c.req('DELETE', `${CM}/b1`, { propagationPolicy: 'Background' });
    expect(b1.body).toMatchObject({ kind: 'Status', status: 'Success' });
  });

  it('a later delete may switch the policy of an object waiting on GC finalizers; Background drops them and removes it', async () => {
    await c.req('POST', CM, cm('x'));
    await c.req('DELETE', `${CM}/x`, { propagationPolicy: 'Foreground' });
    const o = await c.req('DELETE', `${CM}/x`, { propagationPolicy: 'Orphan' });
    expect(o.body.metadata.finalizers).toEqual(['orphan']);
    const b = await c.req('DELETE', `${CM}/x`, { propagationPolicy: 'Background' });
    expect(b.body).toMatchObject({ kind: 'Status', status: 'Success' });
    expect((await c.req('GET', `${CM}/x`)).status).toBe(404);
  });

  it('batch/v1 Jobs orphan by default, with the real warning; an explicit policy is not warned about', async () => {
    const job = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } };
    await c.req('POST', JOBS, job);
    const r = await c.req('DELETE', `${JOBS}/j`);
    expect(r.status).toBe(200);
    expect(r.body.metadata.finalizers).toEqual(['orphan']);
    expect(r.headers.get('Warning')).toBe('299 - "child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning"');
    await c.req('POST', JOBS, { ...job, metadata: { name: 'k' } });
    const k = await c.req('DELETE', `${JOBS}/k?propagationPolicy=Background`);
    expect(k.headers.get('Warning')).toBeNull();
    expect((await c.req('GET', `${JOBS}/k`)).status).toBe(404);
  });
});

describe('graceful deletion of pods', () => {
  it('an unscheduled pod goes at once: 200 with the pod, MODIFIED (deletionTimestamp, grace 0) then DELETED', async () => {
    await c.req('POST', PODS, pod('p'));
    const w = await collectEvents(c, PODS);
    const r = await c.req('DELETE', `${PODS}/p`);
    expect(r.status).toBe(200);
    expect(r.body.kind).toBe('Pod');
    expect(r.body.metadata).toMatchObject({ deletionTimestamp: T0, deletionGracePeriodSeconds: 0 });
    expect((await c.req('GET', `${PODS}/p`)).status).toBe(404);
    await tick();
    expect(w.types()).toEqual(['MODIFIED p', 'DELETED p']);
    w.close();
  });

  it('a pod bound to a node gets deletionTimestamp = now + terminationGracePeriodSeconds (default 30) and stays', async () => {
    await c.req('POST', PODS, pod('p', { nodeName: 'node-1' }));
    await c.req('POST', PODS, pod('q', { nodeName: 'node-1', terminationGracePeriodSeconds: 5 }));
    const r = await c.req('DELETE', `${PODS}/p`);
    expect(r.status).toBe(200);
    expect(r.body.metadata).toMatchObject({ deletionTimestamp: '2025-01-01T00:00:30Z', deletionGracePeriodSeconds: 30 });
    const q = await c.req('DELETE', `${PODS}/q`);
    expect(q.body.metadata).toMatchObject({ deletionTimestamp: '2025-01-01T00:00:05Z', deletionGracePeriodSeconds: 5 });
    await c.env.advance(120_000);
    expect((await c.req('GET', `${PODS}/p`)).status).toBe(200);
    // shorter, but the whole period has passed: now, and the shortest graceful period (1 s)
    const o = await c.req('DELETE', `${PODS}/p`, { gracePeriodSeconds: 7 });
    expect(o.body.metadata).toMatchObject({ deletionTimestamp: '2025-01-01T00:02:00Z', deletionGracePeriodSeconds: 1 });
  });

  it('a shorter grace period shortens a running one, a longer one changes nothing, 0 removes the pod', async () => {
    await c.req('POST', PODS, pod('p', { nodeName: 'node-1' }));
    await c.req('DELETE', `${PODS}/p`);
    const w = await collectEvents(c, PODS);
    c.env.set(Date.parse(T0) + 5000);
    const shorter = await c.req('DELETE', `${PODS}/p?gracePeriodSeconds=10`);
    expect(shorter.body.metadata).toMatchObject({ deletionTimestamp: '2025-01-01T00:00:10Z', deletionGracePeriodSeconds: 10 });
    const longer = await c.req('DELETE', `${PODS}/p?gracePeriodSeconds=20`);
    expect(longer.status).toBe(200);
    expect(longer.body.metadata).toMatchObject({ deletionTimestamp: '2025-01-01T00:00:10Z', deletionGracePeriodSeconds: 10 });
    const none = await c.req('DELETE', `${PODS}/p`);
    expect(none.body.metadata.deletionGracePeriodSeconds).toBe(10);
    const now = await c.req('DELETE', `${PODS}/p?gracePeriodSeconds=0`);
    expect(now.status).toBe(200);
    expect(now.body.metadata).toMatchObject({ deletionTimestamp: '2025-01-01T00:00:05Z', deletionGracePeriodSeconds: 0 });
    expect((await c.req('GET', `${PODS}/p`)).status).toBe(404);
    await tick();
    expect(w.types()).toEqual(['MODIFIED p', 'MODIFIED p', 'DELETED p']);
    w.close();
  });

  it('a period that has already passed is shortened to 1 s from now; gracePeriodSeconds=0 on a bound pod removes it at once', async () => {
    await c.req('POST', PODS, pod('p', { nodeName: 'node-1' }));
    await c.req('DELETE', `${PODS}/p`);
    c.env.set(Date.parse(T0) + 25_000);
    const r = await c.req('DELETE', `${PODS}/p?gracePeriodSeconds=2`);
    expect(r.body.metadata).toMatchObject({ deletionTimestamp: '2025-01-01T00:00:25Z', deletionGracePeriodSeconds: 1 });
    await c.req('POST', PODS, pod('z', { nodeName: 'node-1' }));
    const z = await c.req('DELETE', `${PODS}/z`, { gracePeriodSeconds: 0 });
    expect(z.status).toBe(200);
    expect((await c.req('GET', `${PODS}/z`)).status).toBe(404);
  });

  it('a terminated pod (Succeeded/Failed) goes at once', async () => {
    const p = (await c.req('POST', PODS, pod('done', { nodeName: 'node-1' }))).body;
    await c.req('PUT', `${PODS}/done/status`, { ...p, status: { ...p.status, phase: 'Succeeded' } });
    const r = await c.req('DELETE', `${PODS}/done`);
    expect(r.status).toBe(200);
    expect((await c.req('GET', `${PODS}/done`)).status).toBe(404);
  });

  it('a pod with finalizers and an ended grace period stays until the finalizers go', async () => {
    await c.req('POST', PODS, { ...pod('f'), metadata: { name: 'f', finalizers: ['example.com/hold'] } });
    const r = await c.req('DELETE', `${PODS}/f`);
    expect(r.body.metadata).toMatchObject({ deletionTimestamp: T0, deletionGracePeriodSeconds: 0 });
    expect((await c.req('GET', `${PODS}/f`)).status).toBe(200);
    await c.req('PATCH', `${PODS}/f`, { metadata: { finalizers: null } }, MERGE);
    expect((await c.req('GET', `${PODS}/f`)).status).toBe(404);
  });
});

describe('namespaces', () => {
  const forbidden = (name: string) => ({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
    message: `namespaces "${name}" is forbidden: this namespace may not be deleted`, reason: 'Forbidden',
    details: { name, kind: 'namespaces' }, code: 403,
  });

  it('default, kube-system, kube-public and kube-node-lease exist; the first three cannot be deleted', async () => {
    const names = (await c.req('GET', '/api/v1/namespaces')).body.items.map((n: any) => [n.metadata.name, n.spec.finalizers, n.status.phase]);
    expect(names).toEqual([
      ['default', ['kubernetes'], 'Active'], ['kube-node-lease', ['kubernetes'], 'Active'], ['kube-public', ['kubernetes'], 'Active'], ['kube-system', ['kubernetes'], 'Active'],
    ]);
    for (const n of ['default', 'kube-system', 'kube-public']) expect((await c.req('DELETE', `/api/v1/namespaces/${n}`)).body).toEqual(forbidden(n));
  });

  it('delete marks the namespace: 200, phase Terminating, deletionTimestamp, no grace period; spec.finalizers kept', async () => {
    await c.req('POST', '/api/v1/namespaces', { metadata: { name: 'tmp' } });
    const w = await collectEvents(c, '/api/v1/namespaces');
    const r = await c.req('DELETE', '/api/v1/namespaces/tmp');
    expect(r.status).toBe(200);
    expect(r.body.metadata.deletionTimestamp).toBe(T0);
    expect(r.body.metadata.deletionGracePeriodSeconds).toBeUndefined();
    expect(r.body.spec).toEqual({ finalizers: ['kubernetes'] });
    expect(r.body.status).toEqual({ phase: 'Terminating' });
    const again = await c.req('DELETE', '/api/v1/namespaces/tmp');
    expect(again.status).toBe(200);
    expect(again.body.metadata.resourceVersion).toBe(r.body.metadata.resourceVersion);
    await tick();
    expect(w.types()).toEqual(['MODIFIED tmp']);
    w.close();
  });

  it('creating in a terminating namespace is 403 with the NamespaceTerminating cause', async () => {
    await c.req('POST', '/api/v1/namespaces', { metadata: { name: 'tmp' } });
    await c.req('DELETE', '/api/v1/namespaces/tmp');
    const r = await c.req('POST', '/api/v1/namespaces/tmp/configmaps', cm('late'));
    expect(r.body).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'configmaps "late" is forbidden: unable to create new content in namespace tmp because it is being terminated',
      reason: 'Forbidden',
      details: { name: 'late', kind: 'configmaps', causes: [{ reason: 'NamespaceTerminating', message: 'namespace tmp is being terminated', field: 'metadata.namespace' }] },
      code: 403,
    });
    const d = await c.req('POST', '/apis/apps/v1/namespaces/tmp/deployments', { ...dep('x'), metadata: { generateName: 'web-' } });
    expect(d.body.message).toBe('deployments.apps "web-" is forbidden: unable to create new content in namespace tmp because it is being terminated');
    expect(d.body.details).toMatchObject({ name: 'web-', group: 'apps', kind: 'deployments' });
  });

  it('/finalize (PUT only) changes spec.finalizers; emptied on a terminating namespace, the namespace goes (DELETED)', async () => {
    await c.req('POST', '/api/v1/namespaces', { metadata: { name: 'tmp' } });
    const live = (await c.req('GET', '/api/v1/namespaces/tmp')).body;
    expect((await c.req('PATCH', '/api/v1/namespaces/tmp/finalize', { spec: { finalizers: [] } }, MERGE)).status).toBe(405);
    const viaMain = await c.req('PUT', '/api/v1/namespaces/tmp', { ...live, spec: { finalizers: [] } });
    expect(viaMain.body.spec).toEqual({ finalizers: ['kubernetes'] });
    const marked = (await c.req('DELETE', '/api/v1/namespaces/tmp')).body;
    const w = await collectEvents(c, '/api/v1/namespaces');
    const fin = await c.req('PUT', '/api/v1/namespaces/tmp/finalize', { ...marked, spec: { finalizers: [] } });
    expect(fin.status).toBe(200);
    expect(fin.body.spec).toEqual({ finalizers: [] });
    expect((await c.req('GET', '/api/v1/namespaces/tmp')).status).toBe(404);
    await tick();
    expect(w.types()).toEqual(['DELETED tmp']);
    w.close();
  });

  it('namespace delete preconditions use the namespace registry\'s messages', async () => {
    await c.req('POST', '/api/v1/namespaces', { metadata: { name: 'tmp' } });
    const r = await c.req('DELETE', '/api/v1/namespaces/tmp', { preconditions: { uid: 'nope' } });
    expect(r.status).toBe(409);
    expect(r.body.message).toMatch(/^Operation cannot be fulfilled on namespaces "tmp": Precondition failed: UID in precondition: nope, UID in object meta: [0-9a-f-]+$/);
  });

  it('discovery lists namespaces/finalize with the update verb', async () => {
    const list = (await c.req('GET', '/api/v1')).body.resources.filter((r: any) => r.name.startsWith('namespaces'));
    expect(list.map((r: any) => [r.name, r.verbs])).toEqual([
      ['namespaces', ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']],
      ['namespaces/finalize', ['update']],
      ['namespaces/status', ['get', 'patch', 'update']],
    ]);
  });
});

describe('ownerReferences validation (ValidateOwnerReferences)', () => {
  it('apiVersion, kind, name and uid are required; at most one controller', async () => {
    const r = await c.req('POST', CM, cm('x', { ownerReferences: [{ apiVersion: '', kind: '', name: '', uid: '' }] }));
    expect(r.status).toBe(422);
    expect(r.body.details.causes).toEqual([
      { reason: 'FieldValueInvalid', message: 'Invalid value: "": version must not be empty', field: 'metadata.ownerReferences.apiVersion' },
      { reason: 'FieldValueInvalid', message: 'Invalid value: "": kind must not be empty', field: 'metadata.ownerReferences.kind' },
      { reason: 'FieldValueInvalid', message: 'Invalid value: "": name must not be empty', field: 'metadata.ownerReferences.name' },
      { reason: 'FieldValueInvalid', message: 'Invalid value: "": uid must not be empty', field: 'metadata.ownerReferences.uid' },
    ]);
    const two = await c.req('POST', CM, cm('y', {
      ownerReferences: [
        { apiVersion: 'v1', kind: 'ConfigMap', name: 'a', uid: '1', controller: true },
        { apiVersion: 'v1', kind: 'ConfigMap', name: 'b', uid: '2', controller: true },
      ],
    }));
    expect(two.status).toBe(422);
    expect(two.body.details.causes[0].message).toMatch(/Only one reference can have Controller set to true\. Found "true" in references for ConfigMap\/a and ConfigMap\/b$/);
  });
});

describe('ignoreStoreReadErrorWithClusterBreakingPotential (no object here is unreadable)', () => {
  it('with AllowUnsafeMalformedObjectDeletion off the option is ignored: a normal delete', async () => {
    await c.req('POST', CM, cm('x'));
    const r = await c.req('DELETE', `${CM}/x?ignoreStoreReadErrorWithClusterBreakingPotential=true`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ kind: 'Status', status: 'Success' });
  });

  it('with the gate on, a readable object is refused (422), and so is deletecollection', async () => {
    const g = await testClient(createMemoryStorage(), { controllers: [], featureGates: { AllowUnsafeMalformedObjectDeletion: true } });
    await g.req('POST', D, dep('web'));
    const r = await g.req('DELETE', `${D}/web`, { ignoreStoreReadErrorWithClusterBreakingPotential: true });
    expect(r.body).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'deployments.apps "web" is invalid: ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: is exclusively used to delete corrupt object(s), try again by removing this option',
      reason: 'Invalid',
      details: { name: 'web', group: 'apps', kind: 'deployments', causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: true: is exclusively used to delete corrupt object(s), try again by removing this option', field: 'ignoreStoreReadErrorWithClusterBreakingPotential' }] },
      code: 422,
    });
    expect((await g.req('GET', `${D}/web`)).status).toBe(200);
    const dc = await g.req('DELETE', `${CM}?ignoreStoreReadErrorWithClusterBreakingPotential=true`);
    expect(dc.status).toBe(422);
    expect(dc.body.message).toBe('DeleteOptions.meta.k8s.io "" is invalid: ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: is not allowed with DELETECOLLECTION, try again after removing the option');
  });
});
