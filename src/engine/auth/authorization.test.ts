// Authorization on the wire: the 403 bodies byte for byte, every RBAC rule shape, the access reviews,
// impersonation, bearer tokens, the write-time checks (apply-create, dry run, unsafe delete) and escalation.
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../testing/harness.js';
import { createCelEnv, isRuntimeError } from '../cel/env.js';
import { AUTHORIZER_TYPE } from '../cel/lib/index.js';
import { clusterAuthorizerValue } from '../cel/lib/authz-cluster.js';

const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const as = (user: string, ...groups: string[]): Record<string, string> => (groups.length ? { 'Impersonate-User': user, 'Impersonate-Group': groups.join(', ') } : { 'Impersonate-User': user });

let c: TestClient;
beforeEach(async () => {
  c = await testClient(createMemoryStorage(), {
    auth: { staticTokens: [{ token: 'jane-token', user: 'jane', uid: 'u-42', groups: ['devs'] }] },
  });
});

async function grant(name: string, rules: unknown[], subject: { kind: string; name: string; namespace?: string } = { kind: 'User', name: 'jane' }, namespace?: string) {
  expect((await c.req('POST', `${RBAC}/clusterroles`, { metadata: { name }, rules })).status).toBe(201);
  const binding = { metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name }, subjects: [subject] };
  const path = namespace ? `${RBAC}/namespaces/${namespace}/rolebindings` : `${RBAC}/clusterrolebindings`;
  expect((await c.req('POST', path, binding)).status).toBe(201);
}

async function sar(spec: Record<string, unknown>) {
  const r = await c.req('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user: 'jane', ...spec } });
  expect(r.status).toBe(201);
  return r.body.status as { allowed: boolean; reason?: string; denied?: boolean; evaluationError?: string };
}

/** system:basic-user's permission to ask who one is, for everyone authenticated. */
const whoamiForAll = () => grant('whoami', [{ apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'], verbs: ['create'] }], { kind: 'Group', name: 'system:authenticated' });

const allowed = async (ra: Record<string, string>) => (await sar({ resourceAttributes: ra })).allowed;

describe('the 403 of the authorization filter', () => {
  it('names the user, verb, resource, group and namespace, byte for byte', async () => {
    const r = await c.raw('GET', '/api/v1/namespaces/default/pods', undefined, { Authorization: 'Bearer jane-token' });
    expect(r.status).toBe(403);
    expect(r.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(await r.text()).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods is forbidden: User \\"jane\\" cannot list resource \\"pods\\" in API group \\"\\" in the namespace \\"default\\"","reason":"Forbidden","details":{"kind":"pods"},"code":403}\n',
    );
  });

  it('cluster scope, a named object of a group, a subresource, a non-resource path', async () => {
    const h = as('jane');
    expect((await c.req('GET', '/api/v1/nodes', undefined, h)).body).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'nodes is forbidden: User "jane" cannot list resource "nodes" in API group "" at the cluster scope', reason: 'Forbidden', details: { kind: 'nodes' }, code: 403,
    });
    expect((await c.req('GET', '/apis/apps/v1/namespaces/dev/deployments/web', undefined, h)).body).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'deployments.apps "web" is forbidden: User "jane" cannot get resource "deployments" in API group "apps" in the namespace "dev"', reason: 'Forbidden',
      details: { name: 'web', group: 'apps', kind: 'deployments' }, code: 403,
    });
    expect((await c.req('PUT', '/apis/apps/v1/namespaces/dev/deployments/web/scale', {}, h)).body.message).toBe(
      'deployments.apps "web" is forbidden: User "jane" cannot update resource "deployments/scale" in API group "apps" in the namespace "dev"',
    );
    expect((await c.req('GET', '/version', undefined, h)).body).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'forbidden: User "jane" cannot get path "/version"', reason: 'Forbidden', details: {}, code: 403,
    });
  });

  it('watch, deletecollection, and a namespace read in its own namespace', async () => {
    const h = as('jane');
    expect((await c.req('GET', '/api/v1/namespaces/default/configmaps?watch=1', undefined, h)).body.message).toBe(
      'configmaps is forbidden: User "jane" cannot watch resource "configmaps" in API group "" in the namespace "default"',
    );
    expect((await c.req('DELETE', '/api/v1/namespaces/default/configmaps', undefined, h)).body.message).toBe(
      'configmaps is forbidden: User "jane" cannot deletecollection resource "configmaps" in API group "" in the namespace "default"',
    );
    expect((await c.req('GET', '/api/v1/namespaces/kube-public', undefined, h)).body.message).toBe(
      'namespaces "kube-public" is forbidden: User "jane" cannot get resource "namespaces" in API group "" in the namespace "kube-public"',
    );
  });

  it('appends the RBAC resolution errors when a binding refers to a missing role', async () => {
    await c.req('POST', `${RBAC}/clusterrolebindings`, { metadata: { name: 'dangling' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'gone' }, subjects: [{ kind: 'User', name: 'jane' }] });
    await c.req('POST', `${RBAC}/namespaces/default/rolebindings`, { metadata: { name: 'dangling2' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'also-gone' }, subjects: [{ kind: 'User', name: 'jane' }] });
    const r = await c.req('GET', '/api/v1/namespaces/default/secrets', undefined, as('jane'));
    expect(r.body.message).toBe(
      'secrets is forbidden: User "jane" cannot list resource "secrets" in API group "" in the namespace "default": RBAC: [clusterrole.rbac.authorization.k8s.io "gone" not found, role.rbac.authorization.k8s.io "also-gone" not found]',
    );
    const one = await c.req('GET', '/api/v1/nodes', undefined, as('jane'));
    expect(one.body.message).toBe('nodes is forbidden: User "jane" cannot list resource "nodes" in API group "" at the cluster scope: RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found');
  });

  it('the default user is a cluster administrator, so requests without credentials work', async () => {
    expect((await c.req('GET', '/api/v1/namespaces/default/pods')).status).toBe(200);
    const who = await c.req('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
    expect(who.status).toBe(201);
    expect(who.body).toEqual({
      kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1', metadata: { creationTimestamp: '2025-01-01T00:00:00Z' },
      status: { userInfo: { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] } },
    });
  });
});

describe('RBAC rule shapes', () => {
  it('apiGroups, resources, verbs: exact values and *', async () => {
    await grant('r1', [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }, { apiGroups: ['apps'], resources: ['*'], verbs: ['watch'] }, { apiGroups: ['*'], resources: ['leases'], verbs: ['*'] }]);
    expect(await allowed({ verb: 'list', resource: 'pods', namespace: 'x' })).toBe(true);
    expect(await allowed({ verb: 'delete', resource: 'pods', namespace: 'x' })).toBe(false);
    expect(await allowed({ verb: 'list', resource: 'pods', group: 'apps' })).toBe(false);
    expect(await allowed({ verb: 'watch', resource: 'anything', group: 'apps' })).toBe(true);
    expect(await allowed({ verb: 'escalate', resource: 'leases', group: 'coordination.k8s.io' })).toBe(true);
    // and on the wire
    expect((await c.req('GET', '/api/v1/namespaces/default/pods', undefined, as('jane'))).status).toBe(200);
    expect((await c.req('GET', '/api/v1/namespaces/default/pods?watch=true', undefined, as('jane'))).status).toBe(403);
  });

  it('resource/subresource, */subresource, and a resource rule never covers its subresources', async () => {
    await grant('r2', [{ apiGroups: [''], resources: ['pods/log'], verbs: ['get'] }, { apiGroups: ['*'], resources: ['*/scale'], verbs: ['update'] }, { apiGroups: [''], resources: ['services'], verbs: ['get'] }]);
    expect(await allowed({ verb: 'get', resource: 'pods', subresource: 'log', name: 'p' })).toBe(true);
    expect(await allowed({ verb: 'get', resource: 'pods', name: 'p' })).toBe(false);
    expect(await allowed({ verb: 'update', resource: 'deployments', subresource: 'scale', group: 'apps' })).toBe(true);
    expect(await allowed({ verb: 'update', resource: 'deployments', subresource: 'status', group: 'apps' })).toBe(false);
    expect(await allowed({ verb: 'get', resource: 'services', subresource: 'status' })).toBe(false);
  });

  it('resourceNames limit named requests; a list names an object only through metadata.name', async () => {
    await grant('r3', [{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['settings'], verbs: ['get', 'list'] }]);
    await c.req('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'settings' } });
    expect((await c.req('GET', '/api/v1/namespaces/default/configmaps/settings', undefined, as('jane'))).status).toBe(200);
    expect((await c.req('GET', '/api/v1/namespaces/default/configmaps/other', undefined, as('jane'))).status).toBe(403);
    expect((await c.req('GET', '/api/v1/namespaces/default/configmaps', undefined, as('jane'))).status).toBe(403);
    const byName = await c.req('GET', '/api/v1/namespaces/default/configmaps?fieldSelector=metadata.name%3Dsettings', undefined, as('jane'));
    expect(byName.status).toBe(200);
    expect(byName.body.items.map((i: any) => i.metadata.name)).toEqual(['settings']);
  });

  it('nonResourceURLs: exact and trailing *', async () => {
    await grant('r4', [{ nonResourceURLs: ['/version', '/openapi/*'], verbs: ['get'] }]);
    expect((await c.req('GET', '/version', undefined, as('jane'))).status).toBe(200);
    expect((await c.req('GET', '/openapi/v3', undefined, as('jane'))).status).toBe(200);
    expect((await c.req('GET', '/openapi/v2', undefined, as('jane'))).status).toBe(200);
    expect((await c.req('GET', '/healthz', undefined, as('jane'))).status).toBe(403);
    expect((await sar({ nonResourceAttributes: { path: '/openapi', verb: 'get' } })).allowed).toBe(false);
  });

  it('RoleBindings grant in their namespace only; ServiceAccount and Group subjects', async () => {
    await grant('r5', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['list'] }], { kind: 'ServiceAccount', name: 'robot' }, 'default');
    const sa = (ns: string) => sar({ user: 'system:serviceaccount:default:robot', resourceAttributes: { verb: 'list', resource: 'configmaps', namespace: ns } });
    expect((await sa('default')).allowed).toBe(true);
    expect((await sa('kube-system')).allowed).toBe(false);
    expect((await c.req('POST', `${RBAC}/clusterrolebindings`, {
      metadata: { name: 'devs' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'r5' }, subjects: [{ kind: 'Group', name: 'devs', apiGroup: 'rbac.authorization.k8s.io' }],
    })).status).toBe(201);
    expect((await c.req('GET', '/api/v1/namespaces/kube-system/configmaps', undefined, as('someone', 'devs'))).status).toBe(200);
  });
});

describe('access reviews', () => {
  it('SubjectAccessReview: the allowing binding in the reason', async () => {
    await grant('pod-reader', [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]);
    const r = await c.req('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
      apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview',
      spec: { user: 'jane', resourceAttributes: { namespace: 'default', verb: 'get', resource: 'pods', name: 'p' } },
    });
    expect(r.status).toBe(201);
    expect(r.text).toBe(
      '{"kind":"SubjectAccessReview","apiVersion":"authorization.k8s.io/v1","metadata":{"creationTimestamp":null},"spec":{"resourceAttributes":{"namespace":"default","verb":"get","resource":"pods","name":"p"},"user":"jane"},"status":{"allowed":true,"reason":"RBAC: allowed by ClusterRoleBinding \\"pod-reader\\" of ClusterRole \\"pod-reader\\" to User \\"jane\\""}}\n',
    );
    expect(await sar({ resourceAttributes: { verb: 'delete', resource: 'pods' } })).toEqual({ allowed: false });
  });

  it('SubjectAccessReview validation: the real 422s', async () => {
    const r = await c.req('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', { spec: {} });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'SubjectAccessReview.authorization.k8s.io "" is invalid: [spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified, spec.user: Invalid value: "": at least one of user or group must be specified]',
    );
    expect((await c.req('GET', '/apis/authorization.k8s.io/v1/subjectaccessreviews')).status).toBe(405);
  });

  it('LocalSubjectAccessReview: the namespace must match', async () => {
    await grant('cm', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create'] }], { kind: 'User', name: 'jane' }, 'default');
    const path = '/apis/authorization.k8s.io/v1/namespaces/default/localsubjectaccessreviews';
    const ok = await c.req('POST', path, { spec: { user: 'jane', resourceAttributes: { namespace: 'default', verb: 'create', resource: 'configmaps' } } });
    expect(ok.status).toBe(201);
    expect(ok.body.metadata).toEqual({ namespace: 'default', creationTimestamp: null });
    expect(ok.body.status).toEqual({ allowed: true, reason: 'RBAC: allowed by RoleBinding "cm/default" of ClusterRole "cm" to User "jane"' });
    const bad = await c.req('POST', path, { spec: { user: 'jane', resourceAttributes: { namespace: 'other', verb: 'create', resource: 'configmaps' } } });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe('LocalSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "other": must match metadata.namespace');
  });

  it('SelfSubjectAccessReview and SelfSubjectRulesReview answer for the requester', async () => {
    await grant('basic', [{ apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'], verbs: ['create'] }, { nonResourceURLs: ['/healthz'], verbs: ['get'] }]);
    const self = await c.req('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { spec: { resourceAttributes: { verb: 'create', group: 'authorization.k8s.io', resource: 'selfsubjectrulesreviews' } } }, as('jane'));
    expect(self.status).toBe(201);
    expect(self.body.status).toEqual({ allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "basic" of ClusterRole "basic" to User "jane"' });
    const rules = await c.req('POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', { spec: { namespace: 'default' } }, as('jane'));
    expect(rules.status).toBe(201);
    expect(rules.body).toEqual({
      kind: 'SelfSubjectRulesReview', apiVersion: 'authorization.k8s.io/v1', metadata: { creationTimestamp: null }, spec: {},
      status: {
        resourceRules: [{ verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] }],
        nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
        incomplete: false,
      },
    });
  });

  it('the CEL authorizer library asks the same authorizer', async () => {
    await grant('cel', [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['list'] }]);
    const env = createCelEnv({ version: '1.33', variables: { authorizer: AUTHORIZER_TYPE } });
    const p = env.compile("[authorizer.group('apps').resource('deployments').namespace('x').check('list'), authorizer.group('apps').resource('deployments').check('delete')].map(d, string(d.allowed()) + ' ' + d.reason())");
    if ('message' in p && !('evaluate' in p)) throw new Error(String(p.message));
    const authz = (c.server as any).engine.auth.authorizer;
    const r = (p as any).evaluate({ authorizer: clusterAuthorizerValue(authz, { name: 'jane', groups: ['system:authenticated'] }) });
    expect(isRuntimeError(r)).toBe(false);
    expect(r.value).toEqual(['true RBAC: allowed by ClusterRoleBinding "cel" of ClusterRole "cel" to User "jane"', 'false ']);
  });
});

describe('impersonation', () => {
  beforeEach(whoamiForAll);

  it('is refused without the impersonate verb, with the real 403', async () => {
    await grant('self', [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }]);
    const r = await c.raw('GET', '/api/v1/namespaces/default/pods', undefined, { Authorization: 'Bearer jane-token', 'Impersonate-User': 'bob' });
    expect(r.status).toBe(403);
    expect(JSON.parse(await r.text())).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'users "bob" is forbidden: User "jane" cannot impersonate resource "users" in API group "" at the cluster scope', reason: 'Forbidden', details: { name: 'bob', kind: 'users' }, code: 403,
    });
    const g = await c.raw('GET', '/api/v1/namespaces/default/pods', undefined, { Authorization: 'Bearer jane-token', 'Impersonate-User': 'jane', 'Impersonate-Group': 'admins' });
    expect(JSON.parse(await g.text()).message).toBe('users "jane" is forbidden: User "jane" cannot impersonate resource "users" in API group "" at the cluster scope');
  });

  it('is allowed by rules on users, groups, uids and userextras; the new identity is what acts', async () => {
    await grant('imp', [
      { apiGroups: [''], resources: ['users', 'groups'], verbs: ['impersonate'] },
      { apiGroups: ['authentication.k8s.io'], resources: ['uids', 'userextras/scopes'], verbs: ['impersonate'] },
    ], { kind: 'Group', name: 'devs' });
    const headers = { Authorization: 'Bearer jane-token', 'Impersonate-User': 'bob', 'Impersonate-Group': 'qa', 'Impersonate-Uid': 'b-1', 'Impersonate-Extra-Scopes': 'view' };
    const r = await c.raw('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }), { ...headers, 'Content-Type': 'application/json' });
    expect(r.status).toBe(201);
    expect(JSON.parse(await r.text()).status).toEqual({ userInfo: { username: 'bob', uid: 'b-1', groups: ['qa', 'system:authenticated'], extra: { scopes: ['view'] } } });
    const extra = await c.raw('GET', '/api/v1/namespaces/default/pods', undefined, { ...headers, 'Impersonate-Extra-Other': 'x' });
    expect(JSON.parse(await extra.text()).message).toBe('userextras.authentication.k8s.io "x" is forbidden: User "jane" cannot impersonate resource "userextras/other" in API group "authentication.k8s.io" at the cluster scope');
  });

  it('a service account user gets its groups; groups without a user are a 500', async () => {
    const sa = await c.req('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {}, as('system:serviceaccount:ns1:bot'));
    expect(sa.body.status.userInfo).toEqual({ username: 'system:serviceaccount:ns1:bot', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated'] });
    const anon = await c.req('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {}, as('system:anonymous'));
    expect(anon.body.message).toBe('selfsubjectreviews.authentication.k8s.io is forbidden: User "system:anonymous" cannot create resource "selfsubjectreviews" in API group "authentication.k8s.io" at the cluster scope');
    const anonAuth = await c.req('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {}, as('system:anonymous', 'system:authenticated'));
    expect(anonAuth.body.status.userInfo).toEqual({ username: 'system:anonymous', groups: ['system:authenticated', 'system:unauthenticated'] });
    const r = await c.req('GET', '/api/v1/pods', undefined, { 'Impersonate-Group': 'devs' });
    expect(r.status).toBe(500);
  });
});

describe('bearer tokens', () => {
  beforeEach(whoamiForAll);
  const UNAUTHORIZED = '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}\n';

  it('an unknown token is the real 401; a static token names its user and groups', async () => {
    const bad = await c.raw('GET', '/api/v1/namespaces', undefined, { Authorization: 'Bearer nope' });
    expect(bad.status).toBe(401);
    expect(await bad.text()).toBe(UNAUTHORIZED);
    const who = await c.raw('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', '{}', { Authorization: 'Bearer jane-token', 'Content-Type': 'application/json' });
    expect(JSON.parse(await who.text()).status.userInfo).toEqual({ username: 'jane', uid: 'u-42', groups: ['devs', 'system:authenticated'] });
  });

  it('TokenRequest: a service-account token valid until it expires, for its audience only', async () => {
    await c.req('POST', '/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'bot' } });
    const tr = await c.req('POST', '/api/v1/namespaces/default/serviceaccounts/bot/token', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 600 } });
    expect(tr.status).toBe(201);
    expect(tr.body.spec).toEqual({ audiences: ['https://kubernetes.default.svc.cluster.local'], expirationSeconds: 600, boundObjectRef: null });
    expect(tr.body.status.expirationTimestamp).toBe('2025-01-01T00:10:00Z');
    const token = tr.body.status.token as string;
    expect(token.split('.')).toHaveLength(3);
    const who = async (t: string) => c.raw('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', '{}', { Authorization: `Bearer ${t}`, 'Content-Type': 'application/json' });
    const ok = await who(token);
    expect(ok.status).toBe(201);
    const info = JSON.parse(await ok.text()).status.userInfo;
    expect(info.username).toBe('system:serviceaccount:default:bot');
    expect(info.groups).toEqual(['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated']);
    // no permissions of its own
    const pods = await c.raw('GET', '/api/v1/namespaces/default/pods', undefined, { Authorization: `Bearer ${token}` });
    expect(JSON.parse(await pods.text()).message).toBe('pods is forbidden: User "system:serviceaccount:default:bot" cannot list resource "pods" in API group "" in the namespace "default"');
    // a tampered token
    expect((await who(token.slice(0, -2) + (token.endsWith('A') ? 'BB' : 'AA'))).status).toBe(401);
    // another audience
    const other = await c.req('POST', '/api/v1/namespaces/default/serviceaccounts/bot/token', { spec: { audiences: ['vault'] } });
    expect((await who(other.body.status.token)).status).toBe(401);
    // expiry on the injected clock (with the 60 s leeway of the real validator)
    await c.env.advance(600_000 + 59_000);
    expect((await who(token)).status).toBe(201);
    await c.env.advance(2_000);
    const expired = await who(token);
    expect(expired.status).toBe(401);
    expect(await expired.text()).toBe(UNAUTHORIZED);
  });

  it('TokenRequest validation and a missing service account', async () => {
    const short = await c.req('POST', '/api/v1/namespaces/default/serviceaccounts/bot/token', { spec: { expirationSeconds: 60 } });
    expect(short.status).toBe(422);
    expect(short.body.message).toBe('TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes');
    const missing = await c.req('POST', '/api/v1/namespaces/default/serviceaccounts/ghost/token', { spec: {} });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('serviceaccounts "ghost" not found');
  });

  it('a deleted service account invalidates its tokens', async () => {
    await c.req('POST', '/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'tmp' } });
    const token = (await c.req('POST', '/api/v1/namespaces/default/serviceaccounts/tmp/token', { spec: {} })).body.status.token;
    await c.req('DELETE', '/api/v1/namespaces/default/serviceaccounts/tmp');
    expect((await c.raw('GET', '/version', undefined, { Authorization: `Bearer ${token}` })).status).toBe(401);
  });
});

describe('anonymous requests', () => {
  it('with the anonymous option, requests without credentials are system:anonymous', async () => {
    const a = await testClient(createMemoryStorage(), { auth: { anonymous: true, bootstrapPolicy: true } });
    expect((await a.req('GET', '/healthz')).status).toBe(200);
    expect((await a.req('GET', '/version')).status).toBe(200);
    const r = await a.req('GET', '/api/v1/namespaces/default/pods');
    expect(r.body.message).toBe('pods is forbidden: User "system:anonymous" cannot list resource "pods" in API group "" in the namespace "default"');
    expect((await a.req('GET', '/apis')).body.message).toBe('forbidden: User "system:anonymous" cannot get path "/apis"');
  });
});

describe('the checks inside writes', () => {
  it('server-side apply needs patch, and create when it creates; dry run needs the same', async () => {
    await grant('patcher', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['patch'] }]);
    const apply = (name: string, dry = false) =>
      c.req('PATCH', `/api/v1/namespaces/default/configmaps/${name}?fieldManager=jane${dry ? '&dryRun=All' : ''}`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: '1' } }, { ...as('jane'), 'Content-Type': 'application/apply-patch+yaml' });
    const refused = await apply('new');
    expect(refused.status).toBe(403);
    expect(refused.text).toBe('{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps \\"new\\" is forbidden: ","reason":"Forbidden","details":{"name":"new","kind":"configmaps"},"code":403}\n');
    expect((await apply('new', true)).status).toBe(403);
    await c.req('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'old' } });
    expect((await apply('old')).status).toBe(200);
    expect((await apply('old', true)).status).toBe(200);
    await grant('creator', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create'] }]);
    expect((await apply('new')).status).toBe(201);
  });

  it('a PUT that creates needs create; a dry-run create needs create', async () => {
    await grant('updater', [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['update'] }]);
    const put = await c.req('PUT', `${RBAC}/clusterroles/fresh`, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'fresh' } }, as('jane'));
    expect(put.body.message).toBe('clusterroles.rbac.authorization.k8s.io "fresh" is forbidden: ');
    const dry = await c.req('POST', '/api/v1/namespaces/default/configmaps?dryRun=All', { metadata: { name: 'd' } }, as('jane'));
    expect(dry.body.message).toBe('configmaps is forbidden: User "jane" cannot create resource "configmaps" in API group "" in the namespace "default"');
  });

  it('a delete ignoring store read errors also needs unsafe-delete-ignore-read-errors', async () => {
    const g = await testClient(createMemoryStorage(), { featureGates: { AllowUnsafeMalformedObjectDeletion: true } });
    const post = (path: string, body: unknown) => g.req('POST', path, body);
    await post(`${RBAC}/clusterroles`, { metadata: { name: 'deleter' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['delete'] }] });
    await post(`${RBAC}/clusterrolebindings`, { metadata: { name: 'deleter' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'deleter' }, subjects: [{ kind: 'User', name: 'jane' }] });
    await post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'x' } });
    const r = await g.req('DELETE', '/api/v1/namespaces/default/configmaps/x?ignoreStoreReadErrorWithClusterBreakingPotential=true', undefined, as('jane'));
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('configmaps "x" is forbidden: not permitted to do "unsafe-delete-ignore-read-errors", reason: ');
    expect((await g.req('DELETE', '/api/v1/namespaces/default/configmaps/x', undefined, as('jane'))).status).toBe(200);
  });
});

describe('escalation prevention', () => {
  beforeEach(async () => {
    await grant('rbac-writer', [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles', 'rolebindings', 'clusterroles', 'clusterrolebindings'], verbs: ['create', 'update', 'get'] }, { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }]);
  });

  it('refuses a role with permissions the user does not hold, listing them as the real server does', async () => {
    const r = await c.req('POST', `${RBAC}/namespaces/default/roles`, { metadata: { name: 'too-much' }, rules: [{ apiGroups: [''], resources: ['configmaps', 'secrets'], verbs: ['get', 'list'] }, { apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['web'], verbs: ['get'] }] }, as('jane'));
    expect(r.status).toBe(403);
    expect(r.body).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'roles.rbac.authorization.k8s.io "too-much" is forbidden: user "jane" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["configmaps"], Verbs:["list"]}\n{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}\n{APIGroups:["apps"], Resources:["deployments"], ResourceNames:["web"], Verbs:["get"]}',
      reason: 'Forbidden', details: { name: 'too-much', group: 'rbac.authorization.k8s.io', kind: 'roles' }, code: 403,
    });
    expect((await c.req('POST', `${RBAC}/namespaces/default/roles`, { metadata: { name: 'fine' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }] }, as('jane'))).status).toBe(201);
  });

  it('names the resolution errors of the requester\'s own bindings', async () => {
    await c.req('POST', `${RBAC}/clusterrolebindings`, { metadata: { name: 'dangling' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'gone' }, subjects: [{ kind: 'User', name: 'jane' }] });
    const r = await c.req('POST', `${RBAC}/clusterroles`, { metadata: { name: 'x' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] }, as('jane'));
    expect(r.body.message).toBe('clusterroles.rbac.authorization.k8s.io "x" is forbidden: user "jane" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["pods"], Verbs:["get"]}; resolution errors: [clusterroles.rbac.authorization.k8s.io "gone" not found]');
  });

  it('the escalate verb lifts the check; bind lets a user bind a role it does not hold', async () => {
    const admin = { metadata: { name: 'admin-ish' }, rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] };
    expect((await c.req('POST', `${RBAC}/clusterroles`, admin, as('jane'))).status).toBe(403);
    const binding = { metadata: { name: 'b' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'rbac-writer' }, subjects: [{ kind: 'User', name: 'bob' }] };
    // jane holds rbac-writer's permissions: binding it is no escalation
    expect((await c.req('POST', `${RBAC}/namespaces/default/rolebindings`, binding, as('jane'))).status).toBe(201);
    await grant('escalator', [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['escalate'] }, { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], resourceNames: ['admin-ish'], verbs: ['bind'] }]);
    expect((await c.req('POST', `${RBAC}/clusterroles`, admin, as('jane'))).status).toBe(201);
    const bindAdmin = { ...binding, metadata: { name: 'b2' }, roleRef: { ...binding.roleRef, name: 'admin-ish' } };
    expect((await c.req('POST', `${RBAC}/clusterrolebindings`, bindAdmin, as('jane'))).status).toBe(201);
    const missing = await c.req('POST', `${RBAC}/clusterrolebindings`, { ...bindAdmin, metadata: { name: 'b3' }, roleRef: { ...binding.roleRef, name: 'nope' } }, as('jane'));
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('clusterroles.rbac.authorization.k8s.io "nope" not found');
  });

  it('an aggregationRule needs cluster-admin privileges', async () => {
    await grant('escalator', [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['escalate'] }]);
    // escalate lifts both checks
    expect((await c.req('POST', `${RBAC}/clusterroles`, { metadata: { name: 'agg' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { x: 'y' } }] } }, as('jane'))).status).toBe(201);
    const r = await c.req('POST', `${RBAC}/clusterroles`, { metadata: { name: 'agg2' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { x: 'y' } }] } }, as('bob-writer', 'writers'));
    expect(r.status).toBe(403);
    await grant('w', [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['create'] }], { kind: 'Group', name: 'writers' });
    const agg = await c.req('POST', `${RBAC}/clusterroles`, { metadata: { name: 'agg2' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { x: 'y' } }] } }, as('bob-writer', 'writers'));
    expect(agg.body.message).toBe('clusterroles.rbac.authorization.k8s.io "agg2" is forbidden: must have cluster-admin privileges to use the aggregationRule');
  });
});
