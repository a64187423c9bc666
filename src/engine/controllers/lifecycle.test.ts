// The controllers on the wire: the namespace controller (5 s after a delete, content removal, the real
// status conditions, /finalize), the garbage collector (Background, Foreground with blockOwnerDeletion,
// Orphan, dangling owners, cluster-scoped owners), their identity in managedFields, and resuming from
// stored state after a restart. Time is the injected clock.
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import type { Storage } from '../storage/interface.js';
import { fakeEnv, testClient, type TestClient } from '../testing/harness.js';
import { collectEvents } from '../testing/events.js';

let storage: Storage;
let c: TestClient;
beforeEach(async () => {
  storage = createMemoryStorage();
  // from namespaces alone (no root-CA ConfigMaps among the objects the controllers delete)
  c = await testClient(storage, { defaultObjects: false });
  await c.settle();
});

const NS = '/api/v1/namespaces';
const MERGE = { 'Content-Type': 'application/merge-patch+json' };
const cm = (name: string, meta: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...meta }, data: { a: '1' } });
const pod = (name: string, spec: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec } });

async function advance(ms: number): Promise<void> {
  await c.settle();
  await c.env.advance(ms);
  await c.settle();
}

const conditions = (ns: any) => Object.fromEntries((ns.status.conditions ?? []).map((x: any) => [x.type, [x.status, x.reason, x.message]]));

describe('namespace controller', () => {
  it('looks 5 s after the delete, removes the content, sets the conditions, finalizes; the namespace goes', async () => {
    await c.req('POST', NS, { metadata: { name: 'tmp' } });
    await c.req('POST', `${NS}/tmp/configmaps`, cm('a'));
    await c.req('POST', `${NS}/tmp/secrets`, { metadata: { name: 's' }, stringData: { k: 'v' } });
    await c.settle();
    const w = await collectEvents(c, NS);
    await c.req('DELETE', `${NS}/tmp`);
    await advance(4900);
    expect((await c.req('GET', `${NS}/tmp/configmaps/a`)).status).toBe(200);
    await advance(100);
    expect((await c.req('GET', `${NS}/tmp/configmaps/a`)).status).toBe(404);
    expect((await c.req('GET', `${NS}/tmp/secrets/s`)).status).toBe(404);
    expect((await c.req('GET', `${NS}/tmp`)).status).toBe(404);
    expect(w.types()).toEqual(['MODIFIED tmp', 'MODIFIED tmp', 'DELETED tmp']);
    // the DELETED event carries the last stored state: the /finalize update that emptied spec.finalizers
    // removed the namespace instead of storing it
    const last = w.all()[2].object;
    expect(last.spec).toEqual({ finalizers: ['kubernetes'] });
    expect(conditions(last)).toEqual({
      NamespaceDeletionDiscoveryFailure: ['False', 'ResourcesDiscovered', 'All resources successfully discovered'],
      NamespaceDeletionGroupVersionParsingFailure: ['False', 'ParsedGroupVersions', 'All legacy kube types successfully parsed'],
      NamespaceDeletionContentFailure: ['False', 'ContentDeleted', 'All content successfully deleted, may be waiting on finalization'],
      NamespaceContentRemaining: ['False', 'ContentRemoved', 'All content successfully removed'],
      NamespaceFinalizersRemaining: ['False', 'ContentHasNoFinalizers', 'All content-preserving finalizers finished'],
    });
    expect(last.status.conditions[0].lastTransitionTime).toBe('2025-01-01T00:00:05Z');
    // the controller's writes are managed by kube-controller-manager
    const managers = last.metadata.managedFields.map((m: any) => [m.manager, m.operation, m.subresource]);
    expect(managers).toContainEqual(['kube-controller-manager', 'Update', 'status']);
    w.close();
  });

  it('a stuck finalizer: SomeResourcesRemain / SomeFinalizersRemain with counts; released by a patch, the namespace goes', async () => {
    await c.req('POST', NS, { metadata: { name: 'stuck' } });
    await c.req('POST', `${NS}/stuck/configmaps`, cm('held', { finalizers: ['example.com/hold'] }));
    await c.req('POST', `${NS}/stuck/configmaps`, cm('held2', { finalizers: ['example.com/hold', 'example.com/other'] }));
    await c.req('POST', `${NS}/stuck/configmaps`, cm('free'));
    await c.req('DELETE', `${NS}/stuck`);
    await advance(5000);
    const ns = (await c.req('GET', `${NS}/stuck`)).body;
    expect(ns.status.phase).toBe('Terminating');
    expect(conditions(ns)).toMatchObject({
      NamespaceContentRemaining: ['True', 'SomeResourcesRemain', 'Some resources are remaining: configmaps. has 2 resource instances'],
      NamespaceFinalizersRemaining: ['True', 'SomeFinalizersRemain', 'Some content in the namespace has finalizers remaining: example.com/hold in 2 resource instances, example.com/other in 1 resource instances'],
      NamespaceDeletionContentFailure: ['False', 'ContentDeleted', 'All content successfully deleted, may be waiting on finalization'],
    });
    const held = (await c.req('GET', `${NS}/stuck/configmaps/held`)).body;
    expect(held.metadata.deletionTimestamp).toBe('2025-01-01T00:00:05Z');
    expect((await c.req('GET', `${NS}/stuck/configmaps/free`)).status).toBe(404);
    await advance(60_000);
    expect((await c.req('GET', `${NS}/stuck`)).status).toBe(200);
    await c.req('PATCH', `${NS}/stuck/configmaps/held`, { metadata: { finalizers: null } }, MERGE);
    await c.req('PATCH', `${NS}/stuck/configmaps/held2`, { metadata: { finalizers: null } }, MERGE);
    await advance(5000);
    expect((await c.req('GET', `${NS}/stuck`)).status).toBe(404);
  });

  it('custom resources in the namespace are deleted too', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
      },
    };
    expect((await c.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status).toBe(201);
    await c.req('POST', NS, { metadata: { name: 'cr' } });
    expect((await c.req('POST', '/apis/example.com/v1/namespaces/cr/widgets', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } })).status).toBe(201);
    await c.req('DELETE', `${NS}/cr`);
    await advance(5000);
    expect((await c.req('GET', '/apis/example.com/v1/namespaces/cr/widgets/w')).status).toBe(404);
    expect((await c.req('GET', `${NS}/cr`)).status).toBe(404);
  });

  it('pods on a node with no agent: content remains for the grace period, then NamespaceDeletionContentFailure', async () => {
    await c.req('POST', NS, { metadata: { name: 'p' } });
    await c.req('POST', `${NS}/p/pods`, pod('bound', { nodeName: 'node-1' }));
    await c.req('DELETE', `${NS}/p`);
    await advance(5000);
    const pending = (await c.req('GET', `${NS}/p/pods/bound`)).body;
    expect(pending.metadata).toMatchObject({ deletionTimestamp: '2025-01-01T00:00:35Z', deletionGracePeriodSeconds: 30 });
    expect(conditions((await c.req('GET', `${NS}/p`)).body).NamespaceContentRemaining).toEqual(['True', 'SomeResourcesRemain', 'Some resources are remaining: pods. has 1 resource instances']);
    for (let i = 0; i < 8; i++) await advance(5000);
    const ns = (await c.req('GET', `${NS}/p`)).body;
    expect(conditions(ns).NamespaceDeletionContentFailure).toEqual(['True', 'ContentDeletionFailed', 'Failed to delete all resource types, 1 remaining: unexpected items still remain in namespace: p for gvr: /v1, Resource=pods']);
    // the agent's confirmation (a delete with grace 0) lets the namespace go
    await c.req('DELETE', `${NS}/p/pods/bound?gracePeriodSeconds=0`);
    await advance(70_000);
    expect((await c.req('GET', `${NS}/p`)).status).toBe(404);
  });

  it('resumes after a restart: a namespace left terminating is emptied by the next engine', async () => {
    await c.req('POST', NS, { metadata: { name: 'again' } });
    await c.req('POST', `${NS}/again/configmaps`, cm('x'));
    await c.req('DELETE', `${NS}/again`);
    await c.settle();
    c.server.engine.controllers?.stop();
    const env = fakeEnv(c.env.clock.now() + 1000);
    const next = await testClient(storage, { env, defaultObjects: false });
    await next.settle();
    expect((await next.req('GET', `${NS}/again`)).status).toBe(200);
    await env.advance(5000);
    await next.settle();
    expect((await next.req('GET', `${NS}/again/configmaps/x`)).status).toBe(404);
    expect((await next.req('GET', `${NS}/again`)).status).toBe(404);
  });
});

describe('garbage collector', () => {
  const D = '/apis/apps/v1/namespaces/default/deployments';
  const CM = '/api/v1/namespaces/default/configmaps';
  const dep = (name: string) => ({
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name },
    spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
  });
  const ref = (owner: any, extra: Record<string, unknown> = {}) => ({ apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name, uid: owner.metadata.uid, ...extra });
  const names = async (path: string) => (await c.req('GET', path)).body.items.map((i: any) => i.metadata.name);

  it('Background (the default): the owner goes at once, then its dependents', async () => {
    const owner = (await c.req('POST', D, dep('web'))).body;
    await c.req('POST', CM, cm('d1', { ownerReferences: [ref(owner, { controller: true, blockOwnerDeletion: true })] }));
    await c.req('POST', CM, cm('keep'));
    await c.settle();
    const r = await c.req('DELETE', `${D}/web`);
    expect(r.body).toMatchObject({ kind: 'Status', status: 'Success' });
    await c.settle();
    expect(await names(CM)).toEqual(['keep']);
  });

  it('Foreground: the owner waits (foregroundDeletion) until its blocking dependents are gone', async () => {
    const owner = (await c.req('POST', D, dep('web'))).body;
    await c.req('POST', CM, cm('blocking', { ownerReferences: [ref(owner, { blockOwnerDeletion: true })], finalizers: ['example.com/hold'] }));
    await c.req('POST', CM, cm('loose', { ownerReferences: [ref(owner)] }));
    await c.settle();
    const w = await collectEvents(c, D);
    const r = await c.req('DELETE', `${D}/web`, { propagationPolicy: 'Foreground' });
    expect(r.status).toBe(200);
    expect(r.body.metadata.finalizers).toEqual(['foregroundDeletion']);
    await c.settle();
    // both dependents are deleted; the blocking one is held by its own finalizer, so the owner stays
    expect(await names(CM)).toEqual(['blocking']);
    expect((await c.req('GET', `${CM}/blocking`)).body.metadata.deletionTimestamp).toBeTruthy();
    expect((await c.req('GET', `${D}/web`)).status).toBe(200);
    await c.req('PATCH', `${CM}/blocking`, { metadata: { finalizers: null } }, MERGE);
    await c.settle();
    expect((await c.req('GET', `${D}/web`)).status).toBe(404);
    expect(w.types()).toEqual(['MODIFIED web', 'DELETED web']);
    w.close();
  });

  it('Orphan (and orphanDependents=true): references are removed from the dependents, which stay; then the owner goes', async () => {
    for (const [name, opts] of [['o1', { propagationPolicy: 'Orphan' }], ['o2', { orphanDependents: true }]] as const) {
      const owner = (await c.req('POST', D, dep(name))).body;
      const other = (await c.req('POST', D, dep(`${name}-other`))).body;
      await c.req('POST', CM, cm(`${name}-child`, { ownerReferences: [ref(owner, { controller: true }), ref(other)] }));
      await c.settle();
      const r = await c.req('DELETE', `${D}/${name}`, opts);
      expect(r.body.metadata.finalizers).toEqual(['orphan']);
      await c.settle();
      expect((await c.req('GET', `${D}/${name}`)).status).toBe(404);
      const child = (await c.req('GET', `${CM}/${name}-child`)).body;
      expect(child.metadata.ownerReferences).toEqual([ref(other)]);
      // a removal gives the collector no field to own: no managedFields entry of its own
      expect(child.metadata.managedFields.map((m: any) => m.manager)).toEqual(['unknown']);
    }
  });

  it('a Job orphans its pods by default', async () => {
    const job = (await c.req('POST', '/apis/batch/v1/namespaces/default/jobs', {
      apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
    })).body;
    await c.req('POST', '/api/v1/namespaces/default/pods', { ...pod('j-1'), metadata: { name: 'j-1', ownerReferences: [ref(job, { controller: true, blockOwnerDeletion: true })] } });
    await c.settle();
    await c.req('DELETE', '/apis/batch/v1/namespaces/default/jobs/j');
    await c.settle();
    expect((await c.req('GET', '/apis/batch/v1/namespaces/default/jobs/j')).status).toBe(404);
    const p = (await c.req('GET', '/api/v1/namespaces/default/pods/j-1')).body;
    expect(p.metadata.ownerReferences).toBeUndefined();
  });

  it('dependents whose owner is absent from the start are deleted (owner checked by uid); a live owner keeps them', async () => {
    const owner = (await c.req('POST', D, dep('web'))).body;
    await c.req('POST', CM, cm('absent', { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'nobody', uid: '11111111-1111-4111-8111-111111111111' }] }));
    await c.req('POST', CM, cm('wrong-uid', { ownerReferences: [{ ...ref(owner), uid: '22222222-2222-4222-8222-222222222222' }] }));
    await c.req('POST', CM, cm('mixed', { ownerReferences: [ref(owner), { apiVersion: 'v1', kind: 'ConfigMap', name: 'ghost', uid: '33333333-3333-4333-8333-333333333333' }] }));
    await c.req('POST', CM, cm('owned', { ownerReferences: [ref(owner)] }));
    await c.settle();
    expect(await names(CM)).toEqual(['mixed', 'owned']);
    expect((await c.req('GET', `${CM}/mixed`)).body.metadata.ownerReferences).toEqual([ref(owner)]);
  });

  it('an owner the graph holds is not fetched again on every change of its dependent (as the real graph builder); an absent one is', async () => {
    // the engine's GET counters (apiserver_request_total) by resource, every code
    const gets = async (resource: string) => {
      const text = (await c.req('GET', '/metrics')).text;
      let n = 0;
      for (const line of text.split('\n')) if (line.startsWith('apiserver_request_total{') && line.includes(`resource="${resource}"`) && line.includes('verb="GET"')) n += Number(line.split(' ').pop());
      return n;
    };
    const owner = (await c.req('POST', D, dep('web'))).body;
    await c.req('POST', CM, cm('owned', { ownerReferences: [ref(owner)] }));
    await c.settle();
    const [cms, deps] = [await gets('configmaps'), await gets('deployments')];
    for (let i = 0; i < 5; i++) await c.req('PATCH', `${CM}/owned`, { data: { a: String(i) } }, MERGE);
    await c.settle();
    expect([await gets('configmaps'), await gets('deployments')]).toEqual([cms, deps]);
    // a reference gained to an owner the graph does not hold is verified (the dependent and the owner read)
    await c.req('PATCH', `${CM}/owned`, { metadata: { ownerReferences: [ref(owner), { apiVersion: 'v1', kind: 'ConfigMap', name: 'ghost', uid: '33333333-3333-4333-8333-333333333333' }] } }, MERGE);
    await c.settle();
    expect(await gets('configmaps')).toBeGreaterThan(cms);
    expect((await c.req('GET', `${CM}/owned`)).body.metadata.ownerReferences).toEqual([ref(owner)]);
    // the owner goes: its dependent follows
    await c.req('DELETE', `${D}/web`);
    await c.settle();
    expect(await names(CM)).toEqual([]);
  });

  it('resumes after a restart: dependents left dangling while no collector ran are deleted by the next engine', async () => {
    const quiet = createMemoryStorage();
    const off = await testClient(quiet, { controllers: [], defaultObjects: false });
    const owner = (await off.req('POST', D, dep('web'))).body;
    await off.req('POST', CM, cm('left', { ownerReferences: [ref(owner)] }));
    await off.req('DELETE', `${D}/web`);
    expect((await off.req('GET', `${CM}/left`)).status).toBe(200);
    const next = await testClient(quiet, { env: fakeEnv(off.env.clock.now()), defaultObjects: false });
    await next.settle();
    expect((await next.req('GET', `${CM}/left`)).status).toBe(404);
  });

  it('resumes after a restart: an owner left with the orphan finalizer is finished with its whole graph seen first', async () => {
    const quiet = createMemoryStorage();
    const off = await testClient(quiet, { controllers: [], defaultObjects: false });
    const owner = (await off.req('POST', D, dep('web'))).body;
    await off.req('POST', CM, cm('kept', { ownerReferences: [ref(owner)] }));
    await off.req('DELETE', `${D}/web`, { propagationPolicy: 'Orphan' });
    const next = await testClient(quiet, { env: fakeEnv(off.env.clock.now()), defaultObjects: false });
    await next.settle();
    expect((await next.req('GET', `${D}/web`)).status).toBe(404);
    const kept = await next.req('GET', `${CM}/kept`);
    expect(kept.status).toBe(200);
    expect(kept.body.metadata.ownerReferences).toBeUndefined();
  });

  it('a cluster-scoped owner of namespaced dependents', async () => {
    const owner = (await c.req('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'owner' }, rules: [] })).body;
    await c.req('POST', CM, cm('child', { ownerReferences: [ref(owner)] }));
    await c.settle();
    expect((await c.req('GET', `${CM}/child`)).status).toBe(200);
    await c.req('DELETE', '/apis/rbac.authorization.k8s.io/v1/clusterroles/owner');
    await c.settle();
    expect((await c.req('GET', `${CM}/child`)).status).toBe(404);
  });

  it('dependents of custom resources are collected', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
      },
    };
    await c.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
    await c.settle();
    const w = (await c.req('POST', '/apis/example.com/v1/namespaces/default/widgets', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } })).body;
    await c.req('POST', CM, cm('of-widget', { ownerReferences: [ref(w)] }));
    await c.settle();
    await c.req('DELETE', '/apis/example.com/v1/namespaces/default/widgets/w', { propagationPolicy: 'Foreground' });
    await c.settle();
    expect((await c.req('GET', `${CM}/of-widget`)).status).toBe(404);
    expect((await c.req('GET', '/apis/example.com/v1/namespaces/default/widgets/w')).status).toBe(404);
  });
});

describe('controller runtime', () => {
  it('runs the namespace controller, the garbage collector, the policy status controller and the quota controller; their watches are not counted as clients\'', async () => {
    expect(c.server.engine.controllers?.names).toEqual(['namespace-controller', 'garbage-collector-controller', 'validatingadmissionpolicy-status-controller', 'resourcequota-controller']);
    expect(c.server.engine.watch.count).toBe(0);
  });
});

describe('the controllers under the bootstrap RBAC policy (as in the browser hosts)', () => {
  it('act as their service accounts, which the bootstrap roles allow: a namespace empties and goes, an orphan is collected', async () => {
    const rbac = await testClient(createMemoryStorage(), { auth: { bootstrapPolicy: true } });
    await rbac.settle();
    const step = async (ms: number) => {
      await rbac.settle();
      await rbac.env.advance(ms);
      await rbac.settle();
    };
    expect((await rbac.req('GET', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/system:controller:namespace-controller')).status).toBe(200);
    await rbac.req('POST', NS, { metadata: { name: 'gone' } });
    expect((await rbac.req('POST', `${NS}/gone/configmaps`, cm('a'))).status).toBe(201);
    const owner = (await rbac.req('POST', `${NS}/default/configmaps`, cm('owner'))).body;
    await rbac.req('POST', `${NS}/default/configmaps`, cm('dependent', { ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid }] }));
    await rbac.req('DELETE', `${NS}/gone`);
    await rbac.req('DELETE', `${NS}/default/configmaps/owner`);
    await step(6000);
    await step(1000);
    expect((await rbac.req('GET', `${NS}/gone`)).status).toBe(404);
    expect((await rbac.req('GET', `${NS}/default/configmaps/dependent`)).status).toBe(404);
  });
});
