// ValidatingAdmissionPolicy expressions on the wire: variables (lazy, composable), matchConditions,
// message / messageExpression / reason, the CEL variables (object, oldObject, request, namespaceObject,
// authorizer, authorizer.requestResource, params elsewhere), failurePolicy for runtime errors, the cost
// limits, and expressions refused when the policy is written.
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../../testing/harness.js';
import { CM, CONFIGMAPS, VAP, binding, cm, constraints, denied, denyPolicy, policy, warnings } from './test-kit.js';

let c: TestClient;
beforeEach(async () => {
  c = await testClient(createMemoryStorage());
});

const PREFIX = "ValidatingAdmissionPolicy 'p' with binding 'p-binding' denied request: ";
const DEPLOY = '/apis/apps/v1/namespaces/default/deployments';
const deployment = (name: string, replicas: number) => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name },
  spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
});
const MERGE = { 'Content-Type': 'application/merge-patch+json' };

describe('variables', () => {
  it('compose: a variable reads the ones before it', async () => {
    await denyPolicy(c, 'p', {
      matchConstraints: constraints(['deployments']),
      variables: [{ name: 'replicas', expression: 'object.spec.replicas' }, { name: 'tooMany', expression: 'variables.replicas > 5' }],
      validations: [{ expression: '!variables.tooMany', messageExpression: "'replicas ' + string(variables.replicas) + ' > 5'" }],
    });
    expect((await c.req('POST', DEPLOY, deployment('small', 3))).status).toBe(201);
    const r = await c.req('POST', DEPLOY, deployment('big', 7));
    expect(r.status).toBe(422);
    expect(r.body).toEqual(denied({ group: 'apps', resource: 'deployments' }, 'big', `${PREFIX}replicas 7 > 5`));
  });

  it('are lazy: one that fails is harmless until an expression reads it', async () => {
    await denyPolicy(c, 'p', {
      matchConstraints: constraints(['configmaps']),
      variables: [{ name: 'flag', expression: "object.data.flag == 'on'" }],
      validations: [{ expression: "object.metadata.name != 'check' || variables.flag" }],
    });
    expect((await c.req('POST', CM, cm('other'))).status).toBe(201);
    expect((await c.req('POST', CM, cm('check', { flag: 'on' }))).status).toBe(201);
    await c.req('DELETE', `${CM}/check`);
    const r = await c.req('POST', CM, cm('check'));
    expect(r.body.message).toBe(
      `configmaps "check" is forbidden: ${PREFIX}expression 'object.metadata.name != 'check' || variables.flag' resulted in error: composited variable "flag" fails to evaluate: no such key: flag`,
    );
  });
});

describe('matchConditions', () => {
  const spec = (failurePolicy: string) => ({
    failurePolicy,
    matchConstraints: constraints(['configmaps']),
    matchConditions: [
      { name: 'creating', expression: "request.operation == 'CREATE'" },
      { name: 'flagged', expression: "object.data.mode == 'strict'" },
    ],
    validations: [{ expression: 'size(object.data) <= 1', message: 'strict maps hold one key' }],
  });

  it('all must hold for the policy to be evaluated; an error refuses (Fail)', async () => {
    await denyPolicy(c, 'p', spec('Fail'));
    expect((await c.req('POST', CM, cm('loose', { mode: 'loose', a: 'b' }))).status).toBe(201);
    const r = await c.req('POST', CM, cm('strict', { mode: 'strict', a: 'b' }));
    expect(r.body.message).toBe(`configmaps "strict" is forbidden: ${PREFIX}strict maps hold one key`);
    // an update is not matched by the first condition
    expect((await c.req('PATCH', `${CM}/loose`, { data: { mode: 'strict' } }, MERGE)).status).toBe(200);
    const e = await c.req('POST', CM, cm('nomode', { a: 'b' }));
    expect(e.status).toBe(422);
    expect(e.body).toEqual(denied(CONFIGMAPS, 'nomode', `${PREFIX}expression 'object.data.mode == 'strict'' resulted in error: no such key: mode`));
  });

  it('an error skips the policy with failurePolicy Ignore', async () => {
    await denyPolicy(c, 'p', spec('Ignore'));
    expect((await c.req('POST', CM, cm('nomode', { a: 'b' }))).status).toBe(201);
  });
});

describe('messages and reasons', () => {
  const refusing = (v: Record<string, unknown>) => ({ matchConstraints: constraints(['configmaps']), validations: [{ expression: "object.metadata.name != 'no'", ...v }] });

  it('without a message: "failed expression: ..." and reason Invalid (422)', async () => {
    await denyPolicy(c, 'p', refusing({}));
    const r = await c.req('POST', CM, cm('no'));
    expect(r.status).toBe(422);
    expect(r.body).toEqual(denied(CONFIGMAPS, 'no', `${PREFIX}failed expression: object.metadata.name != 'no'`));
  });

  it.each([
    ['Forbidden', 403],
    ['Unauthorized', 401],
    ['RequestEntityTooLarge', 413],
    ['Invalid', 422],
  ])('reason %s answers %i', async (reason, code) => {
    await denyPolicy(c, 'p', refusing({ reason, message: 'not this name' }));
    const r = await c.req('POST', CM, cm('no'));
    expect(r.status).toBe(code);
    expect(r.body).toEqual(denied(CONFIGMAPS, 'no', `${PREFIX}not this name`, reason, code));
  });

  it('messageExpression wins over message; an error, an empty or a multi-line result falls back to message', async () => {
    await policy(c, 'p', {
      matchConstraints: constraints(['configmaps']),
      validations: [
        { expression: "object.metadata.name != 'a'", message: 'fixed a', messageExpression: "'computed ' + object.metadata.name" },
        { expression: "object.metadata.name != 'b'", message: 'fixed b', messageExpression: "'x' + object.data.missing" },
        { expression: "object.metadata.name != 'c'", message: 'fixed c', messageExpression: "'  '" },
        { expression: "object.metadata.name != 'd'", message: 'fixed d', messageExpression: "'two\\nlines'" },
        { expression: "object.metadata.name != 'e'", messageExpression: "'  trimmed  '" },
      ],
    });
    await c.req('POST', '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings', { metadata: { name: 'p-binding' }, spec: { policyName: 'p', validationActions: ['Warn'] } });
    const got: string[] = [];
    for (const n of ['a', 'b', 'c', 'd', 'e']) {
      const r = await c.req('POST', CM, cm(n));
      expect(r.status).toBe(201);
      got.push(...warnings(r.headers));
    }
    const w = (m: string) => `299 - "Validation failed for ValidatingAdmissionPolicy 'p' with binding 'p-binding': ${m}"`;
    expect(got).toEqual([w('computed a'), w('fixed b'), w('fixed c'), w('fixed d'), w('trimmed')]);
  });
});

describe('the variables of an expression', () => {
  it('request: operation, names, resource, kind, user, dryRun, options', async () => {
    await denyPolicy(c, 'p', {
      matchConstraints: constraints(['configmaps']),
      validations: [{
        expression: 'false',
        // a list literal may not mix string and dyn (options is dyn): concatenation instead
        messageExpression: "[request.operation, request.name, request.namespace, request.resource.resource, request.kind.kind, request.requestKind.version, request.userInfo.username, string(request.dryRun)].join(' ') + ' ' + request.options.kind",
      }],
    });
    const r = await c.req('POST', `${CM}?dryRun=All`, cm('a'));
    expect(r.body.message).toBe(`configmaps "a" is forbidden: ${PREFIX}CREATE a default configmaps ConfigMap v1 kubernetes-admin true CreateOptions`);
  });

  it('object and oldObject: an update compares them; a create has no oldObject', async () => {
    await denyPolicy(c, 'p', {
      matchConstraints: constraints(['configmaps']),
      validations: [{ expression: 'oldObject == null || int(object.data.v) >= int(oldObject.data.v)', messageExpression: "'v may not go down from ' + oldObject.data.v" }],
    });
    expect((await c.req('POST', CM, cm('a', { v: '2' }))).status).toBe(201);
    expect((await c.req('PATCH', `${CM}/a`, { data: { v: '3' } }, MERGE)).status).toBe(200);
    const r = await c.req('PATCH', `${CM}/a`, { data: { v: '1' } }, MERGE);
    expect(r.body.message).toBe(`configmaps "a" is forbidden: ${PREFIX}v may not go down from 3`);
  });

  it("namespaceObject: the request's namespace", async () => {
    await c.req('POST', '/api/v1/namespaces', { metadata: { name: 'prod', labels: { env: 'prod' } } });
    await denyPolicy(c, 'p', {
      matchConstraints: constraints(['configmaps']),
      validations: [{ expression: "!has(namespaceObject.metadata.labels) || !('env' in namespaceObject.metadata.labels) || namespaceObject.metadata.labels.env != 'prod'", messageExpression: "'no maps in ' + namespaceObject.metadata.name" }],
    });
    expect((await c.req('POST', CM, cm('a'))).status).toBe(201);
    const r = await c.req('POST', '/api/v1/namespaces/prod/configmaps', cm('a'));
    expect(r.body.message).toBe(`configmaps "a" is forbidden: ${PREFIX}no maps in prod`);
  });

  it('authorizer and authorizer.requestResource ask the cluster authorizer about the acting user', async () => {
    // jane may create and delete configmaps in default, but may not create ClusterRoles
    await c.req('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles', {
      metadata: { name: 'cm-writer' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'delete'] }],
    });
    await c.req('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', {
      metadata: { name: 'jane-cm' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm-writer' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'jane' }],
    });
    await denyPolicy(c, 'p', {
      matchConstraints: constraints(['configmaps']),
      validations: [
        { expression: 'authorizer.requestResource.check("delete").allowed()', message: 'creators must be able to delete' },
        { expression: "authorizer.group('rbac.authorization.k8s.io').resource('clusterroles').check('create').allowed()", messageExpression: "'only cluster admins, not ' + request.userInfo.username" },
      ],
    });
    expect((await c.req('POST', CM, cm('by-admin'))).status).toBe(201);
    const r = await c.req('POST', CM, cm('by-jane'), { 'Impersonate-User': 'jane' });
    expect(r.status, r.text).toBe(422);
    expect(r.body.message).toBe(`configmaps "by-jane" is forbidden: ${PREFIX}only cluster admins, not jane`);
    // joe may create configmaps but not delete them: the check of the request's own resource fails first
    await c.req('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles', {
      metadata: { name: 'cm-creator' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create'] }],
    });
    await c.req('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', {
      metadata: { name: 'joe-cm' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm-creator' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'joe' }],
    });
    const j = await c.req('POST', CM, cm('by-joe'), { 'Impersonate-User': 'joe' });
    expect(j.body.message).toBe(`configmaps "by-joe" is forbidden: ${PREFIX}creators must be able to delete`);
  });
});

describe('failurePolicy for runtime errors', () => {
  const failing = (failurePolicy: string) => ({ failurePolicy, matchConstraints: constraints(['configmaps']), validations: [{ expression: "object.data.required == 'yes'" }] });
  const ERROR = "expression 'object.data.required == 'yes'' resulted in error: no such key: required";

  it('Fail refuses with the error', async () => {
    await denyPolicy(c, 'p', failing('Fail'));
    const r = await c.req('POST', CM, cm('a'));
    expect(r.body).toEqual(denied(CONFIGMAPS, 'a', `${PREFIX}${ERROR}`));
  });

  it('Ignore admits', async () => {
    await denyPolicy(c, 'p', failing('Ignore'));
    expect((await c.req('POST', CM, cm('a'))).status).toBe(201);
  });

  it('Fail with a Warn binding warns with the error', async () => {
    await policy(c, 'p', failing('Fail'));
    await binding(c, 'p-binding', { policyName: 'p', validationActions: ['Warn'] });
    const r = await c.req('POST', CM, cm('a'));
    expect(r.status).toBe(201);
    expect(warnings(r.headers)).toEqual([`299 - "Validation failed for ValidatingAdmissionPolicy 'p' with binding 'p-binding': ${ERROR}"`]);
  });
});

describe('cost limits', () => {
  const L = (n: number) => `[${Array.from({ length: n }, (_, i) => i).join(',')}]`;

  it('an expression over the per-expression limit (1,000,000) is an error', async () => {
    const expr = `${L(100)}.all(a, ${L(100)}.all(b, ${L(100)}.all(x, true)))`;
    await denyPolicy(c, 'p', { matchConstraints: constraints(['configmaps']), validations: [{ expression: expr }] });
    const r = await c.req('POST', CM, cm('a'));
    expect(r.body.message).toBe(`configmaps "a" is forbidden: ${PREFIX}expression '${expr}' resulted in error: operation cancelled: actual cost limit exceeded`);
  });

  it("a binding's expressions share a budget of 10,000,000", async () => {
    const expr = `${L(100)}.all(a, ${L(100)}.all(b, ${L(30)}.all(x, true)))`;
    await denyPolicy(c, 'p', { matchConstraints: constraints(['configmaps']), validations: Array.from({ length: 11 }, () => ({ expression: expr })) });
    const r = await c.req('POST', CM, cm('a'));
    expect(r.body).toEqual(denied(CONFIGMAPS, 'a', `${PREFIX}validation failed due to running out of cost budget, no further validation rules will be run`));
  });
});

describe('auditAnnotations', () => {
  it('are evaluated: a value is published to the audit log (none here), an error refuses (Fail)', async () => {
    await denyPolicy(c, 'p', {
      matchConstraints: constraints(['configmaps']),
      auditAnnotations: [{ key: 'owner', valueExpression: 'string(object.metadata.labels.owner)' }],
    });
    expect((await c.req('POST', CM, cm('a', {}, { owner: 'jane' }))).status).toBe(201);
    const r = await c.req('POST', CM, cm('b'));
    expect(r.body).toEqual(denied(CONFIGMAPS, 'b', `${PREFIX}expression 'string(object.metadata.labels.owner)' resulted in error: no such key: labels`));
  });
});

describe('expressions are compiled when the policy is written', () => {
  it('an undeclared reference, a result of the wrong type: 422 at the fields', async () => {
    const r = await c.req('POST', VAP, {
      metadata: { name: 'bad' },
      spec: {
        matchConstraints: constraints(['configmaps']),
        variables: [{ name: 'v', expression: 'nope' }],
        validations: [{ expression: '1', messageExpression: '2' }],
        auditAnnotations: [{ key: 'k', valueExpression: '3' }],
      },
    });
    expect(r.status).toBe(422);
    const causes = r.body.details.causes.map((x: { field: string; message: string }) => [x.field, x.message]);
    expect(causes).toEqual([
      ['spec.variables[0].expression', `Invalid value: "nope": compilation failed: ERROR: <input>:1:1: undeclared reference to 'nope' (in container '')\n | nope\n | ^`],
      ['spec.validations[0].expression', 'Invalid value: "1": must evaluate to bool but got int'],
      ['spec.validations[0].messageExpression', 'Invalid value: "2": must evaluate to string but got int'],
      ['spec.auditAnnotations[0].valueExpression', 'Invalid value: "3": must evaluate to one of [string null_type] but got int'],
    ]);
  });
});
