// ValidatingAdmissionPolicy params on the wire: paramKind and a binding's paramRef by name or selector, in
// the request's namespace or a named one, one evaluation per param, parameterNotFoundAction, and the
// configuration errors with the real messages (decided by failurePolicy).
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../../testing/harness.js';
import { CM, CONFIGMAPS, binding, cm, constraints, denied, policy, warnings } from './test-kit.js';

let c: TestClient;
beforeEach(async () => {
  c = await testClient(createMemoryStorage());
});

const CM_PARAMS = { apiVersion: 'v1', kind: 'ConfigMap' };
/** Refuses configmaps whose name the param's data.forbidden holds. */
const byParam = (more: Record<string, unknown> = {}) => ({
  paramKind: CM_PARAMS,
  matchConstraints: constraints(['configmaps']),
  validations: [{ expression: 'object.metadata.name != params.data.forbidden', messageExpression: "'name ' + object.metadata.name + ' is forbidden by ' + params.metadata.name" }],
  ...more,
});
const param = (name: string, forbidden: string, ns = 'default', labels?: Record<string, string>) =>
  c.req('POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name, ...(labels ? { labels } : {}) }, data: { forbidden } });
const prefix = "ValidatingAdmissionPolicy 'p' with binding 'b' denied request: ";

describe('paramRef by name', () => {
  it('in a named namespace', async () => {
    await c.req('POST', '/api/v1/namespaces', { metadata: { name: 'params' } });
    await param('rules', 'bad', 'params');
    await policy(c, 'p', byParam());
    await binding(c, 'b', { policyName: 'p', paramRef: { name: 'rules', namespace: 'params', parameterNotFoundAction: 'Deny' } });
    expect((await c.req('POST', CM, cm('good'))).status).toBe(201);
    const r = await c.req('POST', CM, cm('bad'));
    expect(r.status).toBe(422);
    expect(r.body).toEqual(denied(CONFIGMAPS, 'bad', `${prefix}name bad is forbidden by rules`));
  });

  it("without a namespace: the request's namespace", async () => {
    await c.req('POST', '/api/v1/namespaces', { metadata: { name: 'other' } });
    await param('rules', 'x', 'default');
    await param('rules', 'y', 'other');
    await policy(c, 'p', byParam());
    await binding(c, 'b', { policyName: 'p', paramRef: { name: 'rules', parameterNotFoundAction: 'Allow' } });
    expect((await c.req('POST', CM, cm('x'))).status).toBe(422);
    expect((await c.req('POST', CM, cm('y'))).status).toBe(201);
    expect((await c.req('POST', '/api/v1/namespaces/other/configmaps', cm('y'))).status).toBe(422);
    expect((await c.req('POST', '/api/v1/namespaces/other/configmaps', cm('x'))).status).toBe(201);
  });

  it('a missing param: Allow admits, Deny refuses with the real message', async () => {
    await policy(c, 'p', byParam());
    await binding(c, 'b', { policyName: 'p', paramRef: { name: 'absent', parameterNotFoundAction: 'Allow' } });
    expect((await c.req('POST', CM, cm('a'))).status).toBe(201);
    const b = await c.req('GET', '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings/b');
    b.body.spec.paramRef.parameterNotFoundAction = 'Deny';
    expect((await c.req('PUT', '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings/b', b.body)).status).toBe(200);
    const r = await c.req('POST', CM, cm('z'));
    expect(r.status).toBe(422);
    expect(r.body).toEqual(denied(CONFIGMAPS, 'z', `${prefix}failed to configure binding: no params found for policy binding with \`Deny\` parameterNotFoundAction`));
  });

  it('a missing param with parameterNotFoundAction Deny and failurePolicy Ignore admits', async () => {
    await policy(c, 'p', byParam({ failurePolicy: 'Ignore' }));
    await binding(c, 'b', { policyName: 'p', paramRef: { name: 'absent', parameterNotFoundAction: 'Deny' } });
    expect((await c.req('POST', CM, cm('a'))).status).toBe(201);
  });
});

describe('paramRef by selector', () => {
  it('one evaluation per matched param: every failure warns', async () => {
    await param('one', 'a', 'default', { role: 'rules' });
    await param('two', 'a', 'default', { role: 'rules' });
    await param('three', 'a', 'default');
    await policy(c, 'p', byParam());
    await binding(c, 'b', { policyName: 'p', validationActions: ['Warn'], paramRef: { selector: { matchLabels: { role: 'rules' } }, parameterNotFoundAction: 'Allow' } });
    const r = await c.req('POST', CM, cm('a'));
    expect(r.status).toBe(201);
    expect(warnings(r.headers)).toEqual([
      `299 - "Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': name a is forbidden by one"`,
      `299 - "Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': name a is forbidden by two"`,
    ]);
  });

  it('nothing selected with Deny refuses', async () => {
    await policy(c, 'p', byParam());
    await binding(c, 'b', { policyName: 'p', paramRef: { selector: { matchLabels: { role: 'none' } }, parameterNotFoundAction: 'Deny' } });
    const r = await c.req('POST', CM, cm('a'));
    expect(r.body.message).toBe(`configmaps "a" is forbidden: ${prefix}failed to configure binding: no params found for policy binding with \`Deny\` parameterNotFoundAction`);
  });

  it('an empty selector selects every param of the namespace', async () => {
    await param('one', 'a');
    await policy(c, 'p', byParam());
    await binding(c, 'b', { policyName: 'p', paramRef: { selector: {}, parameterNotFoundAction: 'Deny' } });
    // kube-root-ca.crt is selected too (first, by name): it has no data.forbidden, a runtime error (failurePolicy Fail)
    const r = await c.req('POST', CM, cm('a'));
    expect(r.body.message).toBe(`configmaps "a" is forbidden: ${prefix}expression 'object.metadata.name != params.data.forbidden' resulted in error: no such key: forbidden`);
  });
});

describe('configuration errors', () => {
  it('a paramKind that is not served: the policy is refused as misconfigured', async () => {
    await policy(c, 'p', byParam({ paramKind: { apiVersion: 'example.com/v1', kind: 'Rules' } }));
    await binding(c, 'b', { policyName: 'p', paramRef: { name: 'x', parameterNotFoundAction: 'Allow' } });
    const r = await c.req('POST', CM, cm('a'));
    expect(r.status).toBe(422);
    expect(r.body).toEqual(denied(CONFIGMAPS, 'a', "ValidatingAdmissionPolicy 'p' denied request: failed to configure policy: failed to find resource referenced by paramKind: 'example.com/v1, Kind=Rules'"));
  });

  it('a namespaced paramKind without a namespace, for a cluster-scoped request', async () => {
    await policy(c, 'p', byParam({ matchConstraints: constraints(['namespaces']) }));
    await binding(c, 'b', { policyName: 'p', paramRef: { name: 'x', parameterNotFoundAction: 'Allow' } });
    const r = await c.req('POST', '/api/v1/namespaces', { metadata: { name: 'n' } });
    expect(r.body.message).toBe(`namespaces "n" is forbidden: ${prefix}failed to configure binding: cannot use namespaced paramRef in policy binding that matches cluster-scoped resources`);
  });

  it('a namespace for a cluster-scoped paramKind', async () => {
    await policy(c, 'p', byParam({ paramKind: { apiVersion: 'v1', kind: 'Namespace' } }));
    await binding(c, 'b', { policyName: 'p', paramRef: { name: 'default', namespace: 'default', parameterNotFoundAction: 'Allow' } });
    const r = await c.req('POST', CM, cm('a'));
    expect(r.body.message).toBe(`configmaps "a" is forbidden: ${prefix}failed to configure binding: paramRef.namespace must not be provided for a cluster-scoped \`paramKind\``);
  });

  it('failurePolicy Ignore admits a misconfigured policy', async () => {
    await policy(c, 'p', byParam({ failurePolicy: 'Ignore', paramKind: { apiVersion: 'example.com/v1', kind: 'Rules' } }));
    await binding(c, 'b', { policyName: 'p', paramRef: { name: 'x', parameterNotFoundAction: 'Deny' } });
    expect((await c.req('POST', CM, cm('a'))).status).toBe(201);
  });
});

it('a cluster-scoped param by name (a Namespace), and params null without a paramRef', async () => {
  await c.req('POST', '/api/v1/namespaces', { metadata: { name: 'settings', labels: { maxKeys: '1' } } });
  await policy(c, 'p', {
    paramKind: { apiVersion: 'v1', kind: 'Namespace' },
    matchConstraints: constraints(['configmaps']),
    validations: [{ expression: "params == null || size(object.data) <= int(params.metadata.labels.maxKeys)", message: 'too many keys' }],
  });
  await binding(c, 'b', { policyName: 'p', paramRef: { name: 'settings', parameterNotFoundAction: 'Deny' } });
  await binding(c, 'unparameterized', { policyName: 'p' });
  expect((await c.req('POST', CM, cm('a', { k: 'v' }))).status).toBe(201);
  const r = await c.req('POST', CM, cm('b', { k: 'v', l: 'w' }));
  expect(r.body.message).toBe(`configmaps "b" is forbidden: ${prefix}too many keys`);
});
