// The audit layer (issue 14 item 5): audit.k8s.io/v1 Policy loading with the real validation messages, rule
// matching as the real evaluator (first match wins, no match is None), and the events on the wire: the
// Audit-Id header on every answer, stages, user and impersonated user, objectRef, responseStatus, request
// and response objects per level (managedFields omitted when asked), the annotations of authorization,
// deprecation, ValidatingAdmissionPolicy and PodSecurity, failed authentication, watches, and the
// playground's /x-playground/audit ring and policy setting.
import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../testing/harness.js';
import type { Attributes } from '../auth/attributes.js';
import { PLAYGROUND_DEFAULT_POLICY, PolicyEvaluator, parsePolicy } from './policy.js';
import { AuditLog } from './log.js';
import type { AuditEvent, Policy } from './types.js';
import { binding, cm, constraints, policy as vap } from '../admission/policy/test-kit.js';
import { builtinResources } from '../resources/index.js';
import { sampleObject } from '../resources/samples.js';

const policyOf = (rules: string, head = '') => parsePolicy(`apiVersion: audit.k8s.io/v1\nkind: Policy\n${head}rules:\n${rules}`);

function attrs(a: Partial<Attributes> & { user?: Attributes['user'] }): Attributes {
  return {
    user: a.user ?? { name: 'jane', groups: ['devs', 'system:authenticated'] },
    verb: a.verb ?? 'get',
    resourceRequest: a.resourceRequest ?? true,
    path: a.path ?? '',
    apiGroup: a.apiGroup ?? '',
    apiVersion: a.apiVersion ?? 'v1',
    resource: a.resource ?? 'pods',
    subresource: a.subresource ?? '',
    namespace: a.namespace ?? 'default',
    name: a.name ?? '',
  };
}

describe('policy loading', () => {
  it('accepts YAML and JSON; a policy without rules is refused', () => {
    const y = policyOf('- level: Metadata\n  omitStages: [RequestReceived]\n');
    expect(y.rules).toEqual([{ level: 'Metadata', omitStages: ['RequestReceived'] }]);
    const j = parsePolicy(JSON.stringify({ apiVersion: 'audit.k8s.io/v1', kind: 'Policy', rules: [{ level: 'None', verbs: ['get'] }] }));
    expect(j.rules).toEqual([{ level: 'None', verbs: ['get'] }]);
    expect(() => parsePolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: []\n')).toThrow(/^loaded illegal policy with 0 rules$/);
    expect(() => parsePolicy('apiVersion: audit.k8s.io/v1beta1\nkind: Policy\nrules: [{level: None}]\n')).toThrow(
      'failed decoding: no kind "Policy" is registered for version "audit.k8s.io/v1beta1" in scheme "k8s.io/apiserver/pkg/audit/scheme.go:30"',
    );
    expect(() => parsePolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: None\n  verbs: get\n')).toThrow(
      'failed decoding: json: cannot unmarshal string into Go struct field PolicyRule.rules.verbs of type []string',
    );
  });

  it('ValidatePolicy: every error of the policy, with the real field errors, aggregated', () => {
    expect(() => policyOf('- level: Loud\n')).toThrow('rules[0].level: Unsupported value: "Loud": supported values: "None", "Metadata", "Request", "RequestResponse"');
    expect(() => policyOf('- verbs: [get]\n')).toThrow(/^rules\[0\]\.level: Required value$/);
    expect(() => policyOf('- level: None\n  nonResourceURLs: ["healthz", "/a*b"]\n')).toThrow(
      `[rules[0].nonResourceURLs[0]: Invalid value: "healthz": non-resource URL rules must begin with a '/' character, rules[0].nonResourceURLs[1]: Invalid value: "/a*b": non-resource URL wildcards '*' must be the final character of the rule]`,
    );
    expect(() => policyOf('- level: None\n  nonResourceURLs: ["/healthz"]\n  namespaces: [default]\n')).toThrow(
      'rules[0].nonResourceURLs: Invalid value: []string{"/healthz"}: rules cannot apply to both regular resources and non-resource URLs',
    );
    expect(() => policyOf('- level: None\n  resources: [{group: "Bad_Group", resourceNames: [x]}]\n')).toThrow(
      `[rules[0].resources.group: Invalid value: "Bad_Group": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), rules[0].resources.resourceNames: Invalid value: []string{"x"}: using resourceNames requires at least one resource]`,
    );
    expect(() => policyOf('- level: None\n', 'omitStages: [Done]\n')).toThrow('omitStages[0]: Invalid value: "Done": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic');
  });

  it('the playground default policy loads', () => {
    expect(parsePolicy(PLAYGROUND_DEFAULT_POLICY).rules.length).toBeGreaterThan(2);
  });
});

describe('policy rule matching (EvaluatePolicyRule)', () => {
  const level = (p: Policy, a: Attributes, authenticated = true) => new PolicyEvaluator(p).evaluate(a, authenticated).level;

  it('first matching rule wins; no matching rule is None', () => {
    const p = policyOf('- level: None\n  verbs: [watch]\n- level: Request\n  users: [jane]\n- level: Metadata\n  userGroups: [ops]\n');
    expect(level(p, attrs({ verb: 'watch' }))).toBe('None');
    expect(level(p, attrs({}))).toBe('Request');
    expect(level(p, attrs({ user: { name: 'bob', groups: ['ops'] } }))).toBe('Metadata');
    expect(level(p, attrs({ user: { name: 'bob', groups: ['devs'] } }))).toBe('None');
    // a request that failed authentication has no user: user and group rules never match it
    expect(level(policyOf('- level: Metadata\n  userGroups: [system:unauthenticated]\n- level: Request\n'), attrs({}), false)).toBe('Request');
  });

  it('resources: group (and *), resources with subresource forms, resourceNames, namespaces', () => {
    const p = policyOf(
      [
        '- level: RequestResponse',
        '  resources: [{group: "", resources: ["pods/log"]}]',
        '- level: Request',
        '  resources: [{group: "*", resources: ["*/status"]}]',
        '- level: Metadata',
        '  resources: [{group: apps, resources: ["deployments/*"]}]',
        '- level: Request',
        '  namespaces: [kube-system]',
        '- level: Metadata',
        '  resources: [{group: "", resources: [configmaps], resourceNames: [special]}]',
        '- level: Request',
        '  resources: [{group: batch}]',
        '',
      ].join('\n'),
    );
    expect(level(p, attrs({ subresource: 'log' }))).toBe('RequestResponse');
    expect(level(p, attrs({}))).toBe('None');
    expect(level(p, attrs({ apiGroup: 'apps', resource: 'deployments', subresource: 'status' }))).toBe('Request');
    expect(level(p, attrs({ apiGroup: 'apps', resource: 'deployments', subresource: 'scale' }))).toBe('Metadata');
    expect(level(p, attrs({ apiGroup: 'apps', resource: 'deployments' }))).toBe('Metadata');
    expect(level(p, attrs({ apiGroup: 'apps', resource: 'replicasets' }))).toBe('None');
    expect(level(p, attrs({ namespace: 'kube-system' }))).toBe('Request');
    expect(level(p, attrs({ resource: 'configmaps', name: 'special' }))).toBe('Metadata');
    expect(level(p, attrs({ resource: 'configmaps', name: 'other' }))).toBe('None');
    expect(level(p, attrs({ apiGroup: 'batch', resource: 'jobs' }))).toBe('Request');
    // resource rules never match non-resource requests
    expect(level(p, attrs({ resourceRequest: false, path: '/healthz', resource: '', namespace: '' }))).toBe('None');
  });

  it('nonResourceURLs: exact, trailing *, and *', () => {
    const p = policyOf('- level: Request\n  nonResourceURLs: ["/healthz*", "/version"]\n- level: Metadata\n  nonResourceURLs: ["*"]\n');
    const nr = (path: string) => attrs({ resourceRequest: false, path, resource: '', namespace: '' });
    expect(level(p, nr('/healthz/etcd'))).toBe('Request');
    expect(level(p, nr('/version'))).toBe('Request');
    expect(level(p, nr('/version/x'))).toBe('Metadata');
    expect(level(p, attrs({}))).toBe('None');
  });

  it('omitStages: the policy\'s added to every rule\'s; omitManagedFields: the rule\'s over the policy\'s', () => {
    const p = policyOf('- level: Metadata\n  omitStages: [ResponseStarted]\n  omitManagedFields: false\n- level: Request\n', 'omitStages: [RequestReceived]\nomitManagedFields: true\n');
    const e = new PolicyEvaluator(p);
    expect(e.evaluate(attrs({})).omitStages.sort()).toEqual(['RequestReceived', 'ResponseStarted']);
    expect(e.evaluate(attrs({})).omitManagedFields).toBe(false);
    const q = policyOf('- level: Request\n  users: [bob]\n- level: Metadata\n', 'omitManagedFields: true\n');
    expect(new PolicyEvaluator(q).evaluate(attrs({})).omitManagedFields).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------------

interface Audited {
  c: TestClient;
  events: AuditEvent[];
}

async function audited(rules: string, head = '', opts: Record<string, unknown> = {}): Promise<Audited> {
  const events: AuditEvent[] = [];
  const c = await testClient(createMemoryStorage(), {
    audit: { policy: policyOf(rules, head), sinks: [(e) => events.push(e)] },
    auth: { bootstrapPolicy: true, staticTokens: [{ token: 'jane-token', user: 'jane', uid: 'u-42', groups: ['devs'] }] },
    ...opts,
  });
  await c.settle();
  events.length = 0;
  return { c, events };
}

const JANE = { Authorization: 'Bearer jane-token' };
const ADMIN = { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] };
const T0 = '2025-01-01T00:00:00.000000Z';

describe('events on the wire', () => {
  it('the Audit-Id header on every answer: a new UUID, or the one the client sent; none written without a policy', async () => {
    const events: AuditEvent[] = [];
    const c = await testClient(createMemoryStorage(), { audit: { sinks: [(e) => events.push(e)] } });
    const a = await c.req('GET', '/api/v1/namespaces');
    expect(a.headers.get('Audit-Id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const b = await c.req('GET', '/nope', undefined, { 'Audit-ID': 'my-own-id' });
    expect(b.status).toBe(404);
    expect(b.headers.get('Audit-Id')).toBe('my-own-id');
    expect((await c.req('GET', '/version')).headers.get('Audit-Id')).not.toBe(a.headers.get('Audit-Id'));
    expect(events).toEqual([]);
  });

  it('Metadata: RequestReceived and ResponseComplete with the real fields, in the real order', async () => {
    const { c, events } = await audited('- level: Metadata\n');
    const r = await c.req('POST', '/api/v1/namespaces/default/configmaps', cm('a', { x: '1' }), { 'User-Agent': 'kubectl/v1.33.0', 'X-Forwarded-For': '10.0.0.7' });
    expect(r.status).toBe(201);
    const id = r.headers.get('Audit-Id')!;
    const common = {
      kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: 'Metadata', auditID: id,
      requestURI: '/api/v1/namespaces/default/configmaps', verb: 'create', user: ADMIN, sourceIPs: ['10.0.0.7'], userAgent: 'kubectl/v1.33.0',
    };
    expect(events).toEqual([
      { ...common, stage: 'RequestReceived', objectRef: { resource: 'configmaps', namespace: 'default', apiVersion: 'v1' }, requestReceivedTimestamp: T0, stageTimestamp: T0 },
      {
        ...common, stage: 'ResponseComplete', objectRef: { resource: 'configmaps', namespace: 'default', name: 'a', apiVersion: 'v1' },
        responseStatus: { metadata: {}, code: 201 }, requestReceivedTimestamp: T0, stageTimestamp: T0,
        annotations: { 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '' },
      },
    ]);
    expect(JSON.stringify(events[1]).startsWith('{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID"')).toBe(true);
    expect(Object.keys(events[1])).toEqual(['kind', 'apiVersion', 'level', 'auditID', 'stage', 'requestURI', 'verb', 'user', 'sourceIPs', 'userAgent', 'objectRef', 'responseStatus', 'requestReceivedTimestamp', 'stageTimestamp', 'annotations']);
  });

  it('stageTimestamp from the injected clock; omitStages drops stages', async () => {
    const { c, events } = await audited('- level: Metadata\n', 'omitStages: [RequestReceived]\n');
    c.env.set(Date.UTC(2025, 0, 1, 0, 0, 5, 123));
    await c.req('GET', '/api/v1/namespaces/default');
    expect(events.map((e) => [e.stage, e.requestReceivedTimestamp, e.stageTimestamp])).toEqual([['ResponseComplete', '2025-01-01T00:00:05.123000Z', '2025-01-01T00:00:05.123000Z']]);
    expect(events[0].objectRef).toEqual({ resource: 'namespaces', namespace: 'default', name: 'default', apiVersion: 'v1' });
  });

  it('Request and RequestResponse: the request body and the response object; omitManagedFields drops managedFields', async () => {
    const { c, events } = await audited('- level: Request\n  verbs: [update]\n- level: RequestResponse\n', 'omitStages: [RequestReceived]\n');
    const created = await c.req('POST', '/api/v1/namespaces/default/configmaps', cm('a', { x: '1' }));
    const stored = created.body;
    // the object as the server decoded it (LogRequestObject after decoding): kind and apiVersion first, what
    // the typed encoding writes for an unset creationTimestamp, no system field set yet
    expect(JSON.stringify(events[0].requestObject)).toBe('{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","creationTimestamp":null},"data":{"x":"1"}}');
    expect(events[0].responseObject).toEqual(stored);
    expect((events[0].responseObject as any).metadata.managedFields).toHaveLength(1);
    events.length = 0;
    const upd = await c.req('PUT', '/api/v1/namespaces/default/configmaps/a', { ...stored, data: { x: '2' } });
    expect(upd.status).toBe(200);
    expect(events[0].level).toBe('Request');
    expect(events[0].requestObject).toEqual({ ...stored, data: { x: '2' } });
    expect(events[0].responseObject).toBeUndefined();
    // the request object's uid and resourceVersion complete the objectRef
    expect(events[0].objectRef).toEqual({ resource: 'configmaps', namespace: 'default', name: 'a', uid: stored.metadata.uid, apiVersion: 'v1', resourceVersion: stored.metadata.resourceVersion });
    events.length = 0;
    await c.req('PATCH', '/api/v1/namespaces/default/configmaps/a', { data: { y: '3' } }, { 'Content-Type': 'application/merge-patch+json' });
    expect(events[0].requestObject).toEqual({ data: { y: '3' } });
    expect((events[0].responseObject as any).data).toEqual({ x: '2', y: '3' });
    events.length = 0;
    await c.req('GET', '/api/v1/namespaces/default/configmaps');
    expect((events[0].responseObject as any).kind).toBe('ConfigMapList');
    expect((events[0].responseObject as any).items.map((i: any) => i.metadata.name)).toContain('a');

    const omit = await audited('- level: RequestResponse\n', 'omitStages: [RequestReceived]\nomitManagedFields: true\n');
    await omit.c.req('POST', '/api/v1/namespaces/default/configmaps', { ...cm('b'), metadata: { name: 'b', managedFields: [] } });
    expect((omit.events[0].responseObject as any).metadata.managedFields).toBeUndefined();
    expect((omit.events[0].requestObject as any).metadata).toEqual({ name: 'b', creationTimestamp: null });
    omit.events.length = 0;
    await omit.c.req('GET', '/api/v1/namespaces/default/configmaps');
    expect((omit.events[0].responseObject as any).items.every((i: any) => i.metadata.managedFields === undefined)).toBe(true);
  });

  it('the request object of a create and an update is the decoded object: defaulted, the empty status, unknown fields dropped; a patch is logged as sent', async () => {
    const { c, events } = await audited('- level: Request\n', 'omitStages: [RequestReceived]\n');
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx', bogus: 1 }] } };
    const created = await c.req('POST', '/api/v1/namespaces/default/pods', pod);
    expect(created.status).toBe(201);
    const logged = events[0].requestObject as any;
    expect(Object.keys(logged)).toEqual(['kind', 'apiVersion', 'metadata', 'spec', 'status']);
    expect(logged.metadata).toEqual({ name: 'p', creationTimestamp: null });
    expect(logged.status).toEqual({});
    expect(logged.spec).toMatchObject({ restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', terminationGracePeriodSeconds: 30, schedulerName: 'default-scheduler' });
    expect(logged.spec.containers[0]).toEqual(expect.objectContaining({ name: 'c', image: 'nginx', terminationMessagePath: '/dev/termination-log', imagePullPolicy: 'Always' }));
    expect(logged.spec.containers[0].bogus).toBeUndefined();
    // logging did not change the request: what was stored is the defaulted pod with the server's fields
    expect(created.body.spec.containers[0].bogus).toBeUndefined();
    expect(created.body.metadata.uid).toEqual(expect.any(String));
    events.length = 0;
    const put = await c.req('PUT', '/api/v1/namespaces/default/pods/p', { ...created.body, metadata: { ...created.body.metadata, labels: { a: 'b' } } });
    expect(put.status).toBe(200);
    expect((events[0].requestObject as any).metadata.labels).toEqual({ a: 'b' });
    expect((events[0].requestObject as any).metadata.uid).toBe(created.body.metadata.uid);
    events.length = 0;
    await c.req('PATCH', '/api/v1/namespaces/default/pods/p', { metadata: { labels: { c: 'd' } } }, { 'Content-Type': 'application/merge-patch+json' });
    expect(events[0].requestObject).toEqual({ metadata: { labels: { c: 'd' } } });
  });

  it('a create or update whose body is not decoded records no requestObject and does not complete the objectRef from it (a patch is logged as sent)', async () => {
    const { c, events } = await audited('- level: Request\n', 'omitStages: [RequestReceived]\n');
    const stored = (await c.req('POST', '/api/v1/namespaces/default/configmaps', cm('a', { x: '1' }))).body;
    const refused: [string, string, unknown, string][] = [
      ['POST', '/api/v1/namespaces/default/configmaps', '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b"', 'application/json'],
      ['POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'c', uid: 'u-1' } }, 'application/json'],
      ['POST', '/api/v1/namespaces/default/configmaps?fieldValidation=Strict', { ...cm('d'), bogus: 1 }, 'application/json'],
      ['POST', '/api/v1/namespaces/default/configmaps?dryRun=Maybe', cm('e'), 'application/json'],
      ['PUT', '/api/v1/namespaces/default/configmaps/a', { ...stored, data: 'not a map' }, 'application/json'],
    ];
    for (const [method, path, body, type] of refused) {
      events.length = 0;
      const r = await c.req(method, path, body, { 'Content-Type': type });
      expect(r.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
      expect(events, `${method} ${path}`).toHaveLength(1);
      expect(events[0].requestObject, `${method} ${path}`).toBeUndefined();
      expect(events[0].objectRef?.uid, `${method} ${path}`).toBeUndefined();
      expect(events[0].objectRef?.resourceVersion, `${method} ${path}`).toBeUndefined();
      if (method === 'POST') expect(events[0].objectRef?.name, `${method} ${path}`).toBeUndefined();
    }
    // decoded, then refused later (validation): the decoded object is recorded
    events.length = 0;
    const invalid = await c.req('POST', '/api/v1/namespaces/default/configmaps', { ...cm('Bad_Name') });
    expect(invalid.status).toBe(422);
    expect((events[0].requestObject as any).metadata.name).toBe('Bad_Name');
    events.length = 0;
    const patch = await c.req('PATCH', '/api/v1/namespaces/default/configmaps/a', '{"data":', { 'Content-Type': 'application/merge-patch+json' });
    expect(patch.status).toBe(400);
    expect(events[0].requestObject).toBeUndefined();
  });

  it('a forbidden request: decision forbid and the reason, the Status as responseStatus', async () => {
    const { c, events } = await audited('- level: Metadata\n', 'omitStages: [RequestReceived]\n');
    const r = await c.req('GET', '/api/v1/namespaces/default/secrets/x', undefined, JANE);
    expect(r.status).toBe(403);
    expect(events).toHaveLength(1);
    expect(events[0].user).toEqual({ username: 'jane', uid: 'u-42', groups: ['devs', 'system:authenticated'] });
    expect(events[0].responseStatus).toEqual({
      metadata: {}, status: 'Failure', message: r.body.message, reason: 'Forbidden', details: { name: 'x', kind: 'secrets' }, code: 403,
    });
    expect(events[0].annotations).toEqual({ 'authorization.k8s.io/decision': 'forbid', 'authorization.k8s.io/reason': '' });
    events.length = 0;
    // impersonation refused: the impersonation filter answers before authorization, so no decision
    const imp = await c.req('GET', '/api/v1/namespaces/default/secrets/x', undefined, { ...JANE, 'Impersonate-User': 'bob' });
    expect(imp.status).toBe(403);
    expect(events[0].responseStatus?.message).toBe('users "bob" is forbidden: User "jane" cannot impersonate resource "users" in API group "" at the cluster scope');
    expect(events[0].annotations).toBeUndefined();
    expect(events[0].impersonatedUser).toBeUndefined();
    events.length = 0;
    // an RBAC allow names the binding
    await c.req('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { spec: { resourceAttributes: { verb: 'get', resource: 'pods' } } }, JANE);
    expect(events[0].annotations).toEqual({
      'authorization.k8s.io/decision': 'allow',
      'authorization.k8s.io/reason': 'RBAC: allowed by ClusterRoleBinding "system:basic-user" of ClusterRole "system:basic-user" to Group "system:authenticated"',
    });
  });

  it('impersonation: user is the requester, impersonatedUser the one acting', async () => {
    const { c, events } = await audited('- level: Metadata\n', 'omitStages: [RequestReceived]\n');
    await c.req('GET', '/api/v1/namespaces/default/pods', undefined, { 'Impersonate-User': 'jane', 'Impersonate-Group': 'devs' });
    expect(events[0].user).toEqual(ADMIN);
    expect(events[0].impersonatedUser).toEqual({ username: 'jane', groups: ['devs', 'system:authenticated'] });
    expect(events[0].annotations?.['authorization.k8s.io/decision']).toBe('forbid');
  });

  it('policy chooses on the requester: users, verbs and resources; None writes nothing', async () => {
    const { c, events } = await audited('- level: None\n  users: [jane]\n- level: None\n  verbs: [list]\n- level: Metadata\n  resources: [{group: "", resources: [namespaces]}]\n', 'omitStages: [RequestReceived]\n');
    await c.req('GET', '/api/v1/namespaces/default', undefined, JANE);
    await c.req('GET', '/api/v1/namespaces');
    await c.req('GET', '/api/v1/namespaces/default/configmaps/x');
    expect(events).toEqual([]);
    const r = await c.req('GET', '/api/v1/namespaces/default');
    expect(events.map((e) => e.auditID)).toEqual([r.headers.get('Audit-Id')]);
  });

  it('deprecated endpoints: k8s.io/deprecated (with the Warning header); non-resource requests have no objectRef', async () => {
    const { c, events } = await audited('- level: Metadata\n', 'omitStages: [RequestReceived]\n');
    const r = await c.req('GET', '/api/v1/namespaces/default/endpoints');
    expect(r.headers.get('warning')).toContain('v1 Endpoints is deprecated in v1.33+');
    expect(events[0].annotations).toEqual({ 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '', 'k8s.io/deprecated': 'true' });
    events.length = 0;
    await c.req('GET', '/api/v1/componentstatuses');
    expect(events[0].annotations?.['k8s.io/deprecated']).toBe('true');
    expect(events[0].annotations?.['k8s.io/removed-release']).toBeUndefined();
    events.length = 0;
    await c.req('GET', '/version');
    expect(events[0].objectRef).toBeUndefined();
    expect(events[0].verb).toBe('get');
    expect(events[0].requestURI).toBe('/version');
  });

  it('failed authentication: one ResponseStarted event without a user, the 401 Status as responseStatus', async () => {
    const { c, events } = await audited('- level: Metadata\n  userGroups: [system:authenticated]\n- level: Request\n');
    const r = await c.req('GET', '/api/v1/namespaces?limit=1', undefined, { Authorization: 'Bearer wrong' });
    expect(r.status).toBe(401);
    expect(events).toEqual([
      {
        kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: 'Request', auditID: r.headers.get('Audit-Id'), stage: 'ResponseStarted',
        requestURI: '/api/v1/namespaces?limit=1', verb: 'list', user: {}, objectRef: { resource: 'namespaces', apiVersion: 'v1' },
        responseStatus: { metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 },
        requestReceivedTimestamp: T0, stageTimestamp: T0,
      },
    ]);
  });

  it('a watch is long-running: ResponseStarted when it answers, ResponseComplete when it ends', async () => {
    const { c, events } = await audited('- level: Metadata\n');
    const res = await c.raw('GET', '/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=30');
    expect(res.status).toBe(200);
    expect(res.headers.get('Audit-Id')).toBe(events[0].auditID);
    expect(events.map((e) => [e.stage, e.verb])).toEqual([['RequestReceived', 'watch'], ['ResponseStarted', 'watch']]);
    expect(events[1].responseStatus).toEqual({ metadata: {}, code: 200 });
    await res.body!.cancel();
    expect(events.map((e) => e.stage)).toEqual(['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
  });

  it('ValidatingAdmissionPolicy: the Audit action\'s validation_failure and the policies\' auditAnnotations', async () => {
    const { c, events } = await audited('- level: Metadata\n  verbs: [create]\n', 'omitStages: [RequestReceived]\n');
    await vap(c, 'p', {
      matchConstraints: constraints(['configmaps']),
      validations: [{ expression: 'true' }, { expression: "object.metadata.name != 'bad'", message: 'bad is not a name' }],
      auditAnnotations: [{ key: 'who', valueExpression: "'created ' + object.metadata.name" }, { key: 'none', valueExpression: 'null' }],
    });
    await binding(c, 'b', { policyName: 'p', validationActions: ['Audit', 'Warn'] });
    events.length = 0;
    const r = await c.req('POST', '/api/v1/namespaces/default/configmaps', cm('bad'));
    expect(r.status).toBe(201);
    expect(events[0].annotations).toEqual({
      'authorization.k8s.io/decision': 'allow',
      'authorization.k8s.io/reason': '',
      'p/who': 'created bad',
      'validation.policy.admission.k8s.io/validation_failure': '[{"message":"bad is not a name","policy":"p","binding":"b","expressionIndex":1,"validationActions":["Audit","Warn"]}]',
    });
  });

  it('PodSecurity: enforce-policy and audit-violations', async () => {
    const { c, events } = await audited('- level: Metadata\n  resources: [{group: "", resources: [pods]}]\n', 'omitStages: [RequestReceived]\n');
    const pod = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    await c.req('POST', '/api/v1/namespaces/default/pods', pod('a'));
    expect(events[0].annotations?.['pod-security.kubernetes.io/enforce-policy']).toBe('privileged:latest');
    await c.req('POST', '/api/v1/namespaces', { metadata: { name: 'watched', labels: { 'pod-security.kubernetes.io/audit': 'restricted' } } });
    events.length = 0;
    await c.req('POST', '/api/v1/namespaces/watched/pods', pod('b'));
    expect(events[0].annotations?.['pod-security.kubernetes.io/enforce-policy']).toBe('privileged:latest');
    expect(events[0].annotations?.['pod-security.kubernetes.io/audit-violations']).toMatch(/^would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false/);
  });
});

describe('the playground: /x-playground/audit and the policy in the cluster settings', () => {
  it('the ring keeps the latest events and counts every one written; sinks get copies', () => {
    const log = new AuditLog({ clock: { now: () => 0 }, timers: { setTimeout: () => 0, clearTimeout: () => undefined }, ids: { uid: () => 'u', suffix: () => 'x', int: () => 0 } }, undefined, 3);
    const seen: AuditEvent[] = [];
    log.addSink((e) => {
      seen.push(e);
      e.verb = 'changed by the sink';
    });
    const ev = (n: number) => ({ kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: 'Metadata', auditID: String(n), stage: 'ResponseComplete', requestURI: '/', verb: 'get', user: {}, requestReceivedTimestamp: '', stageTimestamp: '' }) as AuditEvent;
    for (let i = 1; i <= 5; i++) log.write(ev(i));
    const { items, total } = log.events();
    expect(items.map((e) => e.auditID)).toEqual(['3', '4', '5']);
    expect(total).toBe(5);
    expect(seen).toHaveLength(5);
    expect(items.every((e) => e.verb === 'get')).toBe(true);
  });

  it('the browser hosts audit with the default policy; the ring is served to admins only', async () => {
    const c = await testClient(createMemoryStorage(), { host: 'page', auth: { staticTokens: [{ token: 'jane-token', user: 'jane', uid: 'u-42', groups: ['devs'] }] } });
    await c.req('GET', '/api/v1/namespaces');
    const created = await c.req('POST', '/api/v1/namespaces/default/configmaps', cm('a'));
    const list = await c.req('GET', '/x-playground/audit');
    expect(list.status).toBe(200);
    expect(list.body.kind).toBe('EventList');
    const mine = list.body.items.filter((e: AuditEvent) => e.auditID === created.headers.get('Audit-Id'));
    expect(mine.map((e: AuditEvent) => [e.stage, e.level, e.verb])).toEqual([['ResponseComplete', 'RequestResponse', 'create']]);
    expect(list.body.items.some((e: AuditEvent) => e.verb === 'list')).toBe(false);
    const denied = await c.req('GET', '/x-playground/audit', undefined, JANE);
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe('forbidden: User "jane" cannot get path "/x-playground/audit"');
  });

  it('PUT /x-playground/settings: a refused policy is a 400 with the loader\'s message; a good one applies at once, without a restart', async () => {
    const c = await testClient(createMemoryStorage(), { host: 'page' });
    const bad = await c.req('PUT', '/x-playground/settings', { featureGates: '', runtimeConfig: '', auditPolicy: 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Loud\n' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('invalid audit policy: rules[0].level: Unsupported value: "Loud": supported values: "None", "Metadata", "Request", "RequestResponse"');
    const ok = await c.req('PUT', '/x-playground/settings', { featureGates: '', runtimeConfig: '', auditPolicy: 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n  verbs: [list]\n' });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('X-Playground-Restart')).toBeNull();
    expect(ok.body.auditPolicy).toContain('verbs: [list]');
    const l = await c.req('GET', '/api/v1/namespaces');
    const events = (await c.req('GET', '/x-playground/audit')).body.items as AuditEvent[];
    expect(events.filter((e) => e.auditID === l.headers.get('Audit-Id')).map((e) => e.stage)).toEqual(['RequestReceived', 'ResponseComplete']);
    // stored with the cluster: a new engine over the same storage keeps it
    expect((await c.req('GET', '/x-playground/settings')).body.auditPolicy).toContain('verbs: [list]');
  });
});

describe('the playground endpoints that change the cluster go through the filter chain and are audited', () => {
  it('/x-playground/corrupt: an update of the object (its objectRef, decision and user); refused for jane with forbid', async () => {
    const { c, events } = await audited('- level: Metadata\n', 'omitStages: [RequestReceived]\n');
    expect((await c.req('POST', '/api/v1/namespaces/default/configmaps', cm('x'))).status).toBe(201);
    events.length = 0;
    const uri = `/x-playground/corrupt?path=${encodeURIComponent('/api/v1/namespaces/default/configmaps/x')}`;
    const own = () => events.filter((e) => e.requestURI === uri);
    const r = await c.req('POST', uri);
    expect(r.status, r.text).toBe(200);
    expect(own()).toHaveLength(1);
    expect(own()[0]).toMatchObject({
      stage: 'ResponseComplete', verb: 'update', requestURI: uri, user: ADMIN,
      objectRef: { resource: 'configmaps', namespace: 'default', name: 'x', apiVersion: 'v1' },
      responseStatus: { code: 200 },
      annotations: { 'authorization.k8s.io/decision': 'allow' },
    });
    events.length = 0;
    const denied = await c.req('POST', uri, undefined, JANE);
    expect(denied.status).toBe(403);
    expect(own()).toHaveLength(1);
    expect(own()[0]).toMatchObject({ verb: 'update', user: { username: 'jane' }, responseStatus: { code: 403 }, annotations: { 'authorization.k8s.io/decision': 'forbid' } });
    events.length = 0;
    const unknown = await c.req('POST', uri, undefined, { Authorization: 'Bearer nope' });
    expect(unknown.status).toBe(401);
    expect(own()).toHaveLength(1);
    expect(own()[0]).toMatchObject({ stage: 'ResponseStarted', responseStatus: { code: 401 } });
  });
});

describe('the request object of a create, over the whole catalog', () => {
  // For every built-in kind: the object the event records is the decoded object (kind and apiVersion of the
  // request, no field the server sets, the typed encoding's creationTimestamp null), it is itself a valid
  // create body, and decoding it again changes nothing (defaulting a defaulted object is a no-op).
  it('every built-in kind: decoded, creatable as it stands, and a fixpoint of decoding', async () => {
    const { c, events } = await audited('- level: Request\n  verbs: [create]\n', 'omitStages: [RequestReceived]\n');
    expect((await c.req('POST', '/api/v1/namespaces', { metadata: { name: 'ro' } })).status).toBe(201);
    let checked = 0;
    for (const def of builtinResources) {
      const base = def.group ? `/apis/${def.group}/${def.version}` : `/api/${def.version}`;
      const path = `${base}${def.namespaced ? '/namespaces/ro' : ''}/${def.plural}`;
      // kinds served by two groups (events) share their objects: names differ by kind index
      const name = `ro-${builtinResources.indexOf(def)}-${def.version}`;
      const body = sampleObject(def, name, 'ro');
      if (!body) continue;
      const label = `${def.plural}.${def.version}.${def.group}`;
      // dry runs: nothing is stored, so the logged object can be sent back under the same name
      const created = async (sent: unknown) => {
        events.length = 0;
        const r = await c.req('POST', `${path}?dryRun=All`, sent);
        expect(r.status, `${label}: ${r.text}`).toBe(201);
        const own = events.find((e) => e.verb === 'create' && e.objectRef?.resource === def.plural && e.objectRef?.subresource === undefined);
        expect(own?.requestObject, label).toBeDefined();
        return own!.requestObject as Record<string, any>;
      };
      const logged = await created(body);
      expect(Object.keys(logged).slice(0, 3), label).toEqual(['kind', 'apiVersion', 'metadata']);
      expect([logged.kind, logged.apiVersion], label).toEqual([def.kind, def.group ? `${def.group}/${def.version}` : def.version]);
      expect(logged.metadata.creationTimestamp, label).toBeNull();
      for (const f of ['uid', 'resourceVersion', 'generation', 'managedFields']) expect(logged.metadata[f], `${label} metadata.${f}`).toBeUndefined();
      // the logged object is a valid create body, and decoding it again changes nothing
      expect(await created(logged), `${label}: decoded twice`).toEqual(logged);
      checked++;
    }
    expect(checked).toBeGreaterThan(50);
  });
});
