// ValidatingAdmissionPolicy matching on the wire: each field of matchConstraints and of a binding's
// matchResources decides whether a request is evaluated (the policy here refuses whatever it matches).
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../../testing/harness.js';
import { CM, CONFIGMAPS, cm, constraints, denied, denyPolicy, rule } from './test-kit.js';

let c: TestClient;
beforeEach(async () => {
  c = await testClient(createMemoryStorage());
});

const refuse = (mc: Record<string, unknown>) => ({ matchConstraints: mc, validations: [{ expression: 'false' }] });
const MSG = "ValidatingAdmissionPolicy 'p' with binding 'p-binding' denied request: failed expression: false";
const SECRETS = '/api/v1/namespaces/default/secrets';
const deployment = (name: string, replicas = 1) => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name },
  spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
});

describe('resourceRules', () => {
  it('a rule on configmaps refuses configmaps and nothing else, with the exact Status', async () => {
    await denyPolicy(c, 'p', refuse(constraints(['configmaps'])));
    const r = await c.req('POST', CM, cm('a'));
    expect(r.status).toBe(422);
    expect(r.body).toEqual(denied(CONFIGMAPS, 'a', MSG));
    expect((await c.req('POST', SECRETS, { metadata: { name: 's' } })).status).toBe(201);
  });

  it('operations: a rule for UPDATE lets the create through and refuses the update', async () => {
    await denyPolicy(c, 'p', refuse(constraints(['configmaps'], { operations: ['UPDATE'] })));
    expect((await c.req('POST', CM, cm('a'))).status).toBe(201);
    const r = await c.req('PATCH', `${CM}/a`, { data: { k: 'v' } }, { 'Content-Type': 'application/merge-patch+json' });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(`configmaps "a" is forbidden: ${MSG}`);
  });

  it('operations: DELETE refuses the delete', async () => {
    await c.req('POST', CM, cm('a'));
    await denyPolicy(c, 'p', refuse(constraints(['configmaps'], { operations: ['DELETE'] })));
    const r = await c.req('DELETE', `${CM}/a`);
    expect(r.status).toBe(422);
    expect(r.body).toEqual(denied(CONFIGMAPS, 'a', MSG));
    expect((await c.req('GET', `${CM}/a`)).status).toBe(200);
  });

  it('apiGroups and apiVersions: a rule for apps does not match the core group, nor v2 a v1 request', async () => {
    await denyPolicy(c, 'p', refuse({ resourceRules: [rule(['*'], { apiGroups: ['apps'] }), rule(['configmaps'], { apiVersions: ['v2'] })], matchPolicy: 'Exact' }));
    expect((await c.req('POST', CM, cm('a'))).status).toBe(201);
    const r = await c.req('POST', '/apis/apps/v1/namespaces/default/deployments', deployment('d'));
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(`deployments.apps "d" is forbidden: ${MSG}`);
    expect(r.body.details).toEqual({ name: 'd', group: 'apps', kind: 'deployments', causes: [{ message: MSG }] });
  });

  it('resource/subresource: deployments/status matches the status subresource only; deployments/* both', async () => {
    expect((await c.req('POST', '/apis/apps/v1/namespaces/default/deployments', deployment('d'))).status).toBe(201);
    await denyPolicy(c, 'p', refuse(constraints(['deployments/status'])));
    const merge = { 'Content-Type': 'application/merge-patch+json' };
    expect((await c.req('PATCH', '/apis/apps/v1/namespaces/default/deployments/d', { metadata: { labels: { a: 'b' } } }, merge)).status).toBe(200);
    const r = await c.req('PATCH', '/apis/apps/v1/namespaces/default/deployments/d/status', { status: { observedGeneration: 1 } }, merge);
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(`deployments.apps "d" is forbidden: ${MSG}`);
  });

  it('deployments/scale: the object is the autoscaling/v1 Scale', async () => {
    expect((await c.req('POST', '/apis/apps/v1/namespaces/default/deployments', deployment('d', 2))).status).toBe(201);
    await denyPolicy(c, 'p', {
      matchConstraints: constraints(['deployments/scale']),
      validations: [{ expression: 'object.spec.replicas <= 5', messageExpression: "object.apiVersion + ' ' + object.kind + ' ' + request.kind.kind + ' from ' + string(oldObject.spec.replicas) + ' to ' + string(object.spec.replicas) + ' of ' + object.status.selector" }],
    });
    const merge = { 'Content-Type': 'application/merge-patch+json' };
    expect((await c.req('PATCH', '/apis/apps/v1/namespaces/default/deployments/d/scale', { spec: { replicas: 4 } }, merge)).status).toBe(200);
    const r = await c.req('PATCH', '/apis/apps/v1/namespaces/default/deployments/d/scale', { spec: { replicas: 9 } }, merge);
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(`deployments.apps "d" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'p-binding' denied request: autoscaling/v1 Scale Scale from 4 to 9 of app=d`);
    // the main resource is not matched by a rule on the subresource
    expect((await c.req('PATCH', '/apis/apps/v1/namespaces/default/deployments/d', { spec: { replicas: 9 } }, merge)).status).toBe(200);
  });

  it('scope: Cluster matches cluster-scoped objects and namespaces, Namespaced the others', async () => {
    await denyPolicy(c, 'p', refuse(constraints(['*'], { scope: 'Cluster' })));
    expect((await c.req('POST', CM, cm('a'))).status).toBe(201);
    const r = await c.req('POST', '/api/v1/namespaces', { metadata: { name: 'n' } });
    expect(r.status).toBe(422);
    expect(r.body).toEqual(denied({ group: '', resource: 'namespaces' }, 'n', MSG));
    expect((await c.req('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', { metadata: { name: 'r' } })).status).toBe(422);
  });

  it('scope: Namespaced does not match a namespace nor a cluster-scoped object', async () => {
    await denyPolicy(c, 'p', refuse(constraints(['*'], { scope: 'Namespaced' })));
    expect((await c.req('POST', '/api/v1/namespaces', { metadata: { name: 'n' } })).status).toBe(201);
    expect((await c.req('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', { metadata: { name: 'r' } })).status).toBe(201);
    expect((await c.req('POST', CM, cm('a'))).status).toBe(422);
  });

  it('resourceNames: only the named objects', async () => {
    await denyPolicy(c, 'p', refuse(constraints(['configmaps'], { resourceNames: ['locked'] })));
    expect((await c.req('POST', CM, cm('a'))).status).toBe(201);
    expect((await c.req('POST', CM, cm('locked'))).status).toBe(422);
  });

  it('excludeResourceRules win over resourceRules', async () => {
    await denyPolicy(c, 'p', refuse({ resourceRules: [rule(['*'])], excludeResourceRules: [rule(['configmaps'], { resourceNames: ['free'] })] }));
    expect((await c.req('POST', CM, cm('free'))).status).toBe(201);
    expect((await c.req('POST', CM, cm('other'))).status).toBe(422);
  });
});

describe('selectors', () => {
  it("namespaceSelector: the namespace's labels decide; a namespace being created is judged by its own labels", async () => {
    await denyPolicy(c, 'p', refuse({ ...constraints(['configmaps', 'namespaces']), namespaceSelector: { matchLabels: { env: 'prod' } } }));
    expect((await c.req('POST', '/api/v1/namespaces', { metadata: { name: 'dev' } })).status).toBe(201);
    const r = await c.req('POST', '/api/v1/namespaces', { metadata: { name: 'prod', labels: { env: 'prod' } } });
    expect(r.status).toBe(422);
    expect((await c.req('POST', '/api/v1/namespaces/dev/configmaps', cm('a'))).status).toBe(201);
    // label an existing namespace: the update itself is judged by the new labels
    const l = await c.req('PATCH', '/api/v1/namespaces/dev', { metadata: { labels: { env: 'prod' } } }, { 'Content-Type': 'application/merge-patch+json' });
    expect(l.status).toBe(422);
  });

  it('namespaceSelector with matchExpressions on a stored namespace', async () => {
    await c.req('POST', '/api/v1/namespaces', { metadata: { name: 'team-a', labels: { team: 'a' } } });
    await denyPolicy(c, 'p', refuse({ ...constraints(['configmaps']), namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'In', values: ['a', 'b'] }] } }));
    expect((await c.req('POST', CM, cm('x'))).status).toBe(201);
    const r = await c.req('POST', '/api/v1/namespaces/team-a/configmaps', cm('x'));
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(`configmaps "x" is forbidden: ${MSG}`);
  });

  it('objectSelector: the new object or the old one', async () => {
    await denyPolicy(c, 'p', refuse({ ...constraints(['configmaps']), objectSelector: { matchLabels: { locked: 'true' } } }));
    expect((await c.req('POST', CM, cm('a'))).status).toBe(201);
    expect((await c.req('POST', CM, cm('b', {}, { locked: 'true' }))).status).toBe(422);
    // labelling an unlocked map: the new object matches
    const merge = { 'Content-Type': 'application/merge-patch+json' };
    expect((await c.req('PATCH', `${CM}/a`, { metadata: { labels: { locked: 'true' } } }, merge)).status).toBe(422);
  });

  it('objectSelector on DELETE: the old object', async () => {
    await c.req('POST', CM, cm('keep', {}, { locked: 'true' }));
    await c.req('POST', CM, cm('free'));
    await denyPolicy(c, 'p', refuse({ ...constraints(['configmaps']), objectSelector: { matchLabels: { locked: 'true' } } }));
    expect((await c.req('DELETE', `${CM}/free`)).status).toBe(200);
    expect((await c.req('DELETE', `${CM}/keep`)).status).toBe(422);
  });

  it("a binding's matchResources narrows the policy's", async () => {
    await denyPolicy(c, 'p', refuse(constraints(['configmaps'])), { matchResources: { objectSelector: { matchLabels: { check: 'yes' } } } });
    expect((await c.req('POST', CM, cm('a'))).status).toBe(201);
    expect((await c.req('POST', CM, cm('b', {}, { check: 'yes' }))).status).toBe(422);
  });
});

describe('matchPolicy', () => {
  const HPA_V2 = '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers';
  const hpa = (name: string) => ({
    apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' }, minReplicas: 1, maxReplicas: 3 },
  });
  const v1Rule = (matchPolicy: string) => ({
    matchConstraints: { resourceRules: [rule(['horizontalpodautoscalers'], { apiGroups: ['autoscaling'], apiVersions: ['v1'] })], matchPolicy },
    validations: [{ expression: 'false', messageExpression: "'seen as ' + request.kind.version + ' ' + request.resource.version + ', asked as ' + request.requestKind.version" }],
  });

  it('Equivalent (the default): a v1 rule matches a v2 request, seen as v1', async () => {
    await denyPolicy(c, 'p', v1Rule('Equivalent'));
    const r = await c.req('POST', HPA_V2, hpa('h'));
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(`horizontalpodautoscalers.autoscaling "h" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'p-binding' denied request: seen as v1 v1, asked as v2`);
  });

  it('Exact: a v1 rule does not match a v2 request', async () => {
    await denyPolicy(c, 'p', v1Rule('Exact'));
    expect((await c.req('POST', HPA_V2, hpa('h'))).status).toBe(201);
  });
});

it('a binding whose policy does not exist does nothing; the policy without a binding neither', async () => {
  await c.req('POST', '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings', {
    metadata: { name: 'orphan' }, spec: { policyName: 'missing', validationActions: ['Deny'] },
  });
  await c.req('POST', '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies', { metadata: { name: 'lonely' }, spec: refuse(constraints(['configmaps'])) });
  expect((await c.req('POST', CM, cm('a'))).status).toBe(201);
});

it('policies and bindings themselves are never matched (they could not be repaired otherwise)', async () => {
  await denyPolicy(c, 'p', refuse(constraints(['*'])));
  const r = await c.req('DELETE', '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings/p-binding');
  expect(r.status).toBe(200);
  expect((await c.req('POST', CM, cm('a'))).status).toBe(201);
});
