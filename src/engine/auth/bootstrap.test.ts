// The bootstrap RBAC policy on the wire: present from the start, reconciled at every start as the real
// server does, aggregated ClusterRoles filled by their controller, and the `default` service accounts.
import { describe, expect, it } from 'vitest';
import { createMemoryStorage, memoryStorageFromState } from '../../adapters/memory/memory-storage.js';
import type { ApiServerOptions } from '../server.js';
import { fakeEnv, testClient, type FakeEnv, type TestClient } from '../testing/harness.js';
import { BOOTSTRAP_CLUSTER_ROLES, BOOTSTRAP_CLUSTER_ROLE_BINDINGS } from './bootstrap-policy.js';

const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const as = (user: string) => ({ 'Impersonate-User': user });
/** An engine with the bootstrap policy, once its controller manager has done what it can. */
async function boot(storage = createMemoryStorage(), opts: Partial<ApiServerOptions> & { env?: FakeEnv } = {}): Promise<TestClient> {
  const c = await testClient(storage, { auth: { bootstrapPolicy: true }, ...opts });
  await c.settle();
  return c;
}
const rulesOf = async (c: TestClient, name: string) => (await c.req('GET', `${RBAC}/clusterroles/${name}`)).body.rules as any[];

describe('bootstrap policy', () => {
  it('the real roles and bindings exist from the start, marked for auto-update', async () => {
    const c = await boot();
    const roles = (await c.req('GET', `${RBAC}/clusterroles`)).body.items;
    expect(roles.map((r: any) => r.metadata.name)).toEqual(BOOTSTRAP_CLUSTER_ROLES.map((r) => r.name).sort());
    for (const name of ['cluster-admin', 'admin', 'edit', 'view', 'system:discovery', 'system:basic-user', 'system:public-info-viewer', 'system:aggregate-to-view']) {
      expect(roles.map((r: any) => r.metadata.name)).toContain(name);
    }
    for (const r of roles) {
      expect(r.metadata.annotations).toEqual({ 'rbac.authorization.kubernetes.io/autoupdate': 'true' });
      expect(r.metadata.labels['kubernetes.io/bootstrapping']).toBe('rbac-defaults');
    }
    const admin = roles.find((r: any) => r.metadata.name === 'cluster-admin');
    expect(admin.rules).toEqual([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, { verbs: ['*'], nonResourceURLs: ['*'] }]);
    const bindings = (await c.req('GET', `${RBAC}/clusterrolebindings`)).body.items;
    expect(bindings.map((b: any) => b.metadata.name)).toEqual(BOOTSTRAP_CLUSTER_ROLE_BINDINGS.map((b) => b.name).sort());
    const discovery = bindings.find((b: any) => b.metadata.name === 'system:public-info-viewer');
    expect(discovery.subjects).toEqual([
      { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:authenticated' },
      { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:unauthenticated' },
    ]);
    expect(admin.metadata.managedFields.map((m: any) => `${m.manager}/${m.operation}`)).toEqual(['kube-apiserver/Update']);
  });

  it('view, edit and admin aggregate their parts, applied by the aggregation controller', async () => {
    const c = await boot();
    const view = await rulesOf(c, 'view');
    const edit = await rulesOf(c, 'edit');
    const admin = await rulesOf(c, 'admin');
    expect(view).toEqual(await rulesOf(c, 'system:aggregate-to-view'));
    expect(edit).toEqual([...(await rulesOf(c, 'system:aggregate-to-edit')), ...view]);
    // by the selected roles' names: edit before system:aggregate-to-admin
    expect(admin).toEqual([...edit, ...(await rulesOf(c, 'system:aggregate-to-admin'))]);
    const mf = (await c.req('GET', `${RBAC}/clusterroles/view`)).body.metadata.managedFields;
    expect(mf[0]).toMatchObject({ manager: 'clusterrole-aggregation-controller', operation: 'Apply', fieldsV1: { 'f:rules': {} } });
    // a new labelled role joins view, and through it edit and admin
    await c.req('POST', `${RBAC}/clusterroles`, { metadata: { name: 'widgets-view', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } }, rules: [{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get'] }] });
    await c.env.advance(10);
    const widgets = { verbs: ['get'], apiGroups: ['example.com'], resources: ['widgets'] };
    expect(await rulesOf(c, 'view')).toContainEqual(widgets);
    expect(await rulesOf(c, 'edit')).toContainEqual(widgets);
    expect(await rulesOf(c, 'admin')).toContainEqual(widgets);
  });

  it('the user-facing roles work as real: view reads, edit writes, neither grants RBAC', async () => {
    const c = await boot();
    await c.req('POST', `${RBAC}/namespaces/default/rolebindings`, { metadata: { name: 'jane-view' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'jane' }] });
    expect((await c.req('GET', '/api/v1/namespaces/default/pods', undefined, as('jane'))).status).toBe(200);
    expect((await c.req('GET', '/api/v1/namespaces/default/secrets', undefined, as('jane'))).status).toBe(403);
    expect((await c.req('GET', '/api/v1/namespaces/kube-system/pods', undefined, as('jane'))).status).toBe(403);
    expect((await c.req('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'x' } }, as('jane'))).status).toBe(403);
    // system:discovery and system:basic-user for every authenticated user
    expect((await c.req('GET', '/apis', undefined, as('jane'))).status).toBe(200);
    const ssar = await c.req('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { spec: { resourceAttributes: { namespace: 'default', verb: 'list', resource: 'pods' } } }, as('jane'));
    expect(ssar.body.status).toEqual({ allowed: true, reason: 'RBAC: allowed by RoleBinding "jane-view/default" of ClusterRole "view" to User "jane"' });
  });

  it('reconciles at start: missing objects come back, missing rules and subjects are added, autoupdate=false is left alone', async () => {
    const storage = createMemoryStorage();
    const c = await boot(storage);
    await c.req('DELETE', `${RBAC}/clusterroles/system:discovery`);
    await c.req('PATCH', `${RBAC}/clusterroles/system:basic-user`, [{ op: 'remove', path: '/rules/1' }], { 'Content-Type': 'application/json-patch+json' });
    await c.req('PATCH', `${RBAC}/clusterrolebindings/system:public-info-viewer`, [{ op: 'remove', path: '/subjects/1' }], { 'Content-Type': 'application/json-patch+json' });
    await c.req('PATCH', `${RBAC}/clusterroles/system:monitoring`, { metadata: { annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' } }, rules: [] }, { 'Content-Type': 'application/merge-patch+json' });
    const again = await boot(storage);
    expect((await again.req('GET', `${RBAC}/clusterroles/system:discovery`)).status).toBe(200);
    expect(await rulesOf(again, 'system:basic-user')).toContainEqual({ verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] });
    expect((await again.req('GET', `${RBAC}/clusterrolebindings/system:public-info-viewer`)).body.subjects).toHaveLength(2);
    expect(await rulesOf(again, 'system:monitoring')).toEqual([]);
  });

  it('every namespace gets its default service account, created again when deleted', async () => {
    const c = await boot();
    const names = (await c.req('GET', '/api/v1/serviceaccounts')).body.items.map((s: any) => `${s.metadata.namespace}/${s.metadata.name}`);
    expect(names).toEqual(['default/default', 'kube-node-lease/default', 'kube-public/default', 'kube-system/default']);
    await c.req('POST', '/api/v1/namespaces', { metadata: { name: 'team-a' } });
    await c.env.advance(10);
    const sa = await c.req('GET', '/api/v1/namespaces/team-a/serviceaccounts/default');
    expect(sa.status).toBe(200);
    await c.req('DELETE', '/api/v1/namespaces/team-a/serviceaccounts/default');
    await c.env.advance(10);
    expect((await c.req('GET', '/api/v1/namespaces/team-a/serviceaccounts/default')).status).toBe(200);
  });

  it('the aggregation and service-account controllers resume after a restart over the same storage', async () => {
    /** Closes an engine and hands its storage's content to the next one. */
    const stop = async (c: TestClient, storage: ReturnType<typeof memoryStorageFromState>) => {
      const content = storage.exportState();
      await c.server.close();
      return memoryStorageFromState(content);
    };
    const first = memoryStorageFromState();
    const a = await boot(first);
    expect((await a.req('GET', '/api/v1/namespaces/default/serviceaccounts/default')).status).toBe(200);
    // while the controllers are stopped (an engine on the same storage whose controller manager runs none),
    // a namespace and a ClusterRole that view selects are created
    const second = await stop(a, first);
    const off = await testClient(second, { auth: { bootstrapPolicy: true }, controllers: [], env: fakeEnv(a.env.clock.now()) });
    await off.settle();
    expect((await off.req('POST', '/api/v1/namespaces', { metadata: { name: 'team-b' } })).status).toBe(201);
    const widgets = { verbs: ['list'], apiGroups: ['example.com'], resources: ['widgets'] };
    const labelled = { metadata: { name: 'widgets-view', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } }, rules: [widgets] };
    expect((await off.req('POST', `${RBAC}/clusterroles`, labelled)).status).toBe(201);
    await off.env.advance(10);
    await off.settle();
    expect((await off.req('GET', '/api/v1/namespaces/team-b/serviceaccounts/default')).status).toBe(404);
    expect(await rulesOf(off, 'view')).not.toContainEqual(widgets);
    // the next engine's controllers list what is stored and catch up
    const third = await stop(off, second);
    const next = await boot(third, { env: fakeEnv(off.env.clock.now()) });
    const sa = await next.req('GET', '/api/v1/namespaces/team-b/serviceaccounts/default');
    expect(sa.status).toBe(200);
    expect(await rulesOf(next, 'view')).toContainEqual(widgets);
    expect(await rulesOf(next, 'edit')).toContainEqual(widgets);
    expect(await rulesOf(next, 'admin')).toContainEqual(widgets);
    const view = (await next.req('GET', `${RBAC}/clusterroles/view`)).body.metadata.managedFields;
    expect(view.find((m: any) => m.operation === 'Apply')).toMatchObject({ manager: 'clusterrole-aggregation-controller', fieldsV1: { 'f:rules': {} } });
  });

  it('the controllers write with their service accounts; their informers list and watch as system:kube-controller-manager', async () => {
    const c = await boot();
    const allowed = async (user: string, groups: readonly string[], verb: string, resource: string, group = '') =>
      (await c.req('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', { spec: { user, groups, resourceAttributes: { verb, resource, group } } })).body.status.allowed;
    const sa = (name: string) => [`system:serviceaccount:kube-system:${name}`, ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated']] as const;
    expect(await allowed(...sa('service-account-controller'), 'create', 'serviceaccounts')).toBe(true);
    expect(await allowed(...sa('service-account-controller'), 'list', 'serviceaccounts')).toBe(false);
    expect(await allowed(...sa('clusterrole-aggregation-controller'), 'patch', 'clusterroles', 'rbac.authorization.k8s.io')).toBe(true);
    for (const verb of ['list', 'watch']) {
      expect(await allowed('system:kube-controller-manager', ['system:authenticated'], verb, 'serviceaccounts')).toBe(true);
      expect(await allowed('system:kube-controller-manager', ['system:authenticated'], verb, 'namespaces')).toBe(true);
    }
    expect(await allowed('system:kube-controller-manager', ['system:authenticated'], 'delete', 'namespaces')).toBe(false);
    // with these grants alone (the bootstrap policy is on) the controllers have done their work
    expect((await c.req('GET', '/api/v1/namespaces/kube-public/serviceaccounts/default')).status).toBe(200);
  });
});
