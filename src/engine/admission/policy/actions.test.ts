// ValidatingAdmissionPolicy validationActions on the wire: Deny refuses with the exact Status, Warn answers
// Warning headers (also on DELETE), Audit leaves the request alone (its audit annotation: audit/audit.test.ts); dry
// run is refused like the real request; custom resources are covered; several policies and bindings.
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../../testing/harness.js';
import { CM, CONFIGMAPS, binding, cm, constraints, denied, policy, warnings } from './test-kit.js';

let c: TestClient;
beforeEach(async () => {
  c = await testClient(createMemoryStorage());
});

const noBad = { matchConstraints: constraints(['configmaps']), validations: [{ expression: "object == null || object.metadata.name != 'bad'", message: 'bad is not a name' }] };
const warning = (p: string, b: string, m: string) => `299 - "Validation failed for ValidatingAdmissionPolicy '${p}' with binding '${b}': ${m}"`;

describe('validationActions', () => {
  it('Deny: 422 with the exact Status, nothing stored', async () => {
    await policy(c, 'p', noBad);
    await binding(c, 'b', { policyName: 'p', validationActions: ['Deny'] });
    const r = await c.req('POST', CM, cm('bad'));
    expect(r.status).toBe(422);
    expect(r.text).toBe(`${JSON.stringify(denied(CONFIGMAPS, 'bad', "ValidatingAdmissionPolicy 'p' with binding 'b' denied request: bad is not a name"))}\n`);
    expect(r.headers.get('warning')).toBeNull();
    expect((await c.req('GET', `${CM}/bad`)).status).toBe(404);
  });

  it('Warn: stored, with the Warning header', async () => {
    await policy(c, 'p', noBad);
    await binding(c, 'b', { policyName: 'p', validationActions: ['Warn'] });
    const r = await c.req('POST', CM, cm('bad'));
    expect(r.status).toBe(201);
    expect(warnings(r.headers)).toEqual([warning('p', 'b', 'bad is not a name')]);
    const ok = await c.req('POST', CM, cm('good'));
    expect(ok.headers.get('warning')).toBeNull();
  });

  it('Audit: stored, no warning', async () => {
    await policy(c, 'p', noBad);
    await binding(c, 'b', { policyName: 'p', validationActions: ['Audit'] });
    const r = await c.req('POST', CM, cm('bad'));
    expect(r.status).toBe(201);
    expect(r.headers.get('warning')).toBeNull();
  });

  it('Warn and Audit together warn; Deny and Audit together refuse', async () => {
    await policy(c, 'p', noBad);
    await binding(c, 'warn-audit', { policyName: 'p', validationActions: ['Warn', 'Audit'] });
    const r = await c.req('POST', CM, cm('bad'));
    expect(warnings(r.headers)).toEqual([warning('p', 'warn-audit', 'bad is not a name')]);
    await binding(c, 'deny-audit', { policyName: 'p', validationActions: ['Deny', 'Audit'] });
    const d = await c.req('PUT', `${CM}/bad`, { ...cm('bad'), data: { x: 'y' } });
    expect(d.status).toBe(422);
    expect(d.body.message).toBe(`configmaps "bad" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'deny-audit' denied request: bad is not a name`);
  });

  it('several failing validations: one warning each, in order; the first denial answers', async () => {
    await policy(c, 'p', {
      matchConstraints: constraints(['configmaps']),
      validations: [{ expression: "'a' in object.data", message: 'needs a' }, { expression: "'b' in object.data", message: 'needs b' }],
    });
    await binding(c, 'w', { policyName: 'p', validationActions: ['Warn'] });
    const r = await c.req('POST', CM, cm('x'));
    expect(warnings(r.headers)).toEqual([warning('p', 'w', 'needs a'), warning('p', 'w', 'needs b')]);
    await binding(c, 'z-deny', { policyName: 'p', validationActions: ['Deny'] });
    const d = await c.req('POST', CM, cm('y'));
    expect(d.body.message).toBe(`configmaps "y" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'z-deny' denied request: needs a`);
  });

  it('two policies, one denying and one warning: the refusal carries the warning', async () => {
    await policy(c, 'a-deny', noBad);
    await binding(c, 'a-deny', { policyName: 'a-deny', validationActions: ['Deny'] });
    await policy(c, 'b-warn', noBad);
    await binding(c, 'b-warn', { policyName: 'b-warn', validationActions: ['Warn'] });
    const r = await c.req('POST', CM, cm('bad'));
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(`configmaps "bad" is forbidden: ValidatingAdmissionPolicy 'a-deny' with binding 'a-deny' denied request: bad is not a name`);
    expect(warnings(r.headers)).toEqual([warning('b-warn', 'b-warn', 'bad is not a name')]);
  });
});

describe('DELETE', () => {
  const protect = { matchConstraints: constraints(['configmaps'], { operations: ['DELETE'] }), validations: [{ expression: "object == null && !('protected' in oldObject.data)", messageExpression: "'configmap ' + oldObject.metadata.name + ' is protected'" }] };

  it('object is null and oldObject is the stored object; Deny refuses', async () => {
    await c.req('POST', CM, cm('keep', { protected: 'yes' }));
    await policy(c, 'p', protect);
    await binding(c, 'b', { policyName: 'p', validationActions: ['Deny'] });
    const r = await c.req('DELETE', `${CM}/keep`);
    expect(r.status).toBe(422);
    expect(r.body).toEqual(denied(CONFIGMAPS, 'keep', "ValidatingAdmissionPolicy 'p' with binding 'b' denied request: configmap keep is protected"));
    expect((await c.req('GET', `${CM}/keep`)).status).toBe(200);
  });

  it('Warn answers the warning with the delete', async () => {
    await c.req('POST', CM, cm('keep', { protected: 'yes' }));
    await policy(c, 'p', protect);
    await binding(c, 'b', { policyName: 'p', validationActions: ['Warn'] });
    const r = await c.req('DELETE', `${CM}/keep`);
    expect(r.status).toBe(200);
    expect(warnings(r.headers)).toEqual([warning('p', 'b', 'configmap keep is protected')]);
    expect((await c.req('GET', `${CM}/keep`)).status).toBe(404);
  });

  it('deletecollection answers the refusal; the protected map stays', async () => {
    await c.req('POST', CM, cm('a-free'));
    await c.req('POST', CM, cm('keep', { protected: 'yes' }));
    await c.req('POST', CM, cm('z-free'));
    await policy(c, 'p', protect);
    await binding(c, 'b', { policyName: 'p', validationActions: ['Deny'] });
    const r = await c.req('DELETE', CM);
    expect(r.status).toBe(422);
    expect(r.body).toEqual(denied(CONFIGMAPS, 'keep', "ValidatingAdmissionPolicy 'p' with binding 'b' denied request: configmap keep is protected"));
    expect((await c.req('GET', `${CM}/keep`)).status).toBe(200);
  });
});

describe('dry run', () => {
  it('a dry-run create, update and delete are refused as the real ones', async () => {
    await c.req('POST', CM, cm('bad'));
    await policy(c, 'p', { ...noBad, validations: [{ expression: "object == null ? oldObject.metadata.name != 'bad' : object.metadata.name != 'bad'", message: 'bad is not a name' }] });
    await binding(c, 'b', { policyName: 'p', validationActions: ['Deny'] });
    const msg = `configmaps "bad" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: bad is not a name`;
    expect((await c.req('POST', `${CM}?dryRun=All`, cm('bad'))).body.message).toBe(msg);
    expect((await c.req('PUT', `${CM}/bad?dryRun=All`, { ...cm('bad'), data: { a: 'b' } })).body.message).toBe(msg);
    const d = await c.req('DELETE', `${CM}/bad?dryRun=All`);
    expect(d.status).toBe(422);
    expect(d.body.message).toBe(msg);
    expect((await c.req('POST', `${CM}?dryRun=All`, cm('good'))).status).toBe(201);
  });
});

describe('custom resources', () => {
  it('a policy on a CRD kind refuses its objects, with the CRD schema behind object', async () => {
    const crd = await c.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } }],
      },
    });
    expect(crd.status, crd.text).toBe(201);
    await policy(c, 'p', {
      matchConstraints: { resourceRules: [{ apiGroups: ['example.com'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['widgets'] }] },
      validations: [{ expression: 'object.spec.size <= 10', messageExpression: "'size ' + string(object.spec.size) + ' is over 10'", reason: 'Forbidden' }],
    });
    await binding(c, 'b', { policyName: 'p', validationActions: ['Deny'] });
    const W = '/apis/example.com/v1/namespaces/default/widgets';
    expect((await c.req('POST', W, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'small' }, spec: { size: 3 } })).status).toBe(201);
    const r = await c.req('POST', W, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'big' }, spec: { size: 30 } });
    expect(r.status).toBe(403);
    expect(r.body).toEqual(denied({ group: 'example.com', resource: 'widgets' }, 'big', "ValidatingAdmissionPolicy 'p' with binding 'b' denied request: size 30 is over 10", 'Forbidden', 403));
  });
});

it('generateName: the denial names the generated object', async () => {
  await policy(c, 'p', { matchConstraints: constraints(['configmaps']), validations: [{ expression: "!object.metadata.name.startsWith('gen-')" }] });
  await binding(c, 'b', { policyName: 'p', validationActions: ['Deny'] });
  const r = await c.req('POST', CM, { metadata: { generateName: 'gen-' } });
  expect(r.status).toBe(422);
  expect(r.body.details.name).toMatch(/^gen-[a-z0-9]{5}$/);
  expect(r.body.message).toBe(`configmaps "${r.body.details.name}" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: failed expression: !object.metadata.name.startsWith('gen-')`);
});
