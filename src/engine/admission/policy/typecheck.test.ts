// Type checking of ValidatingAdmissionPolicies on the wire: the status controller writes
// status.observedGeneration and status.typeChecking.expressionWarnings (the checker's errors per matched
// kind, against its schema), and checks again when the generation moves.
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../../testing/harness.js';
import { VAP, policy } from './test-kit.js';

let c: TestClient;
beforeEach(async () => {
  c = await testClient(createMemoryStorage());
  await c.settle();
});

const apps = (resources: string[]) => ({ resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources }] });
const status = async (name: string) => {
  await c.settle();
  return (await c.req('GET', `${VAP}/${name}`)).body;
};

describe('status.typeChecking', () => {
  it("an undefined field: the real warning, per matched kind", async () => {
    await policy(c, 'p', { matchConstraints: apps(['deployments', 'replicasets']), validations: [{ expression: 'object.replicas > 1', message: 'must be replicated' }] });
    const p = await status('p');
    const part = (kind: string) => `apps/v1, Kind=${kind}: ERROR: <input>:1:7: undefined field 'replicas'\n | object.replicas > 1\n | ......^\n`;
    expect(p.status).toEqual({
      observedGeneration: 1,
      typeChecking: { expressionWarnings: [{ fieldRef: 'spec.validations[0].expression', warning: `${part('Deployment')}\n${part('ReplicaSet')}` }] },
    });
    const mf = p.metadata.managedFields.find((e: { subresource?: string }) => e.subresource === 'status');
    expect([mf.manager, mf.operation]).toEqual(['validatingadmissionpolicy-status-controller', 'Apply']);
  });

  it('a policy that checks: no warnings; a fix clears them at the next generation', async () => {
    await policy(c, 'p', { matchConstraints: apps(['deployments']), validations: [{ expression: 'object.spec.replicas > 1', messageExpression: "'got ' + object.spec.nope" }] });
    let p = await status('p');
    expect(p.status.observedGeneration).toBe(1);
    expect(p.status.typeChecking.expressionWarnings).toEqual([
      { fieldRef: 'spec.validations[0].messageExpression', warning: "apps/v1, Kind=Deployment: ERROR: <input>:1:21: undefined field 'nope'\n | 'got ' + object.spec.nope\n | ....................^\n" },
    ]);
    p.spec.validations[0].messageExpression = "'got ' + string(object.spec.replicas)";
    expect((await c.req('PUT', `${VAP}/p`, p)).status).toBe(200);
    p = await status('p');
    expect(p.metadata.generation).toBe(2);
    expect(p.status.observedGeneration).toBe(2);
    expect(p.status.typeChecking?.expressionWarnings).toBeUndefined();
  });

  it('variables and params are typed too; wildcards are not checked', async () => {
    await policy(c, 'p', {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      matchConstraints: apps(['deployments']),
      variables: [{ name: 'spec', expression: 'object.spec' }],
      validations: [{ expression: 'variables.spec.replica > 0' }, { expression: "params.data.max == '1' && params.spec == null" }],
    });
    const p = await status('p');
    expect(p.status.typeChecking.expressionWarnings.map((w: { fieldRef: string; warning: string }) => [w.fieldRef, w.warning.split('\n')[0]])).toEqual([
      ['spec.validations[0].expression', "apps/v1, Kind=Deployment: ERROR: <input>:1:15: undefined field 'replica'"],
      ['spec.validations[1].expression', "apps/v1, Kind=Deployment: ERROR: <input>:1:33: undefined field 'spec'"],
    ]);
    await policy(c, 'wild', { matchConstraints: { resourceRules: [{ apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*'] }] }, validations: [{ expression: 'object.nothing == 1' }] });
    expect((await status('wild')).status).toEqual({ observedGeneration: 1, typeChecking: {} });
  });
});

it('under the bootstrap RBAC policy the controller acts as its service account, which its role allows', async () => {
  const rbac = await testClient(createMemoryStorage(), { auth: { bootstrapPolicy: true } });
  await rbac.settle();
  expect((await rbac.req('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles/system:controller:validatingadmissionpolicy-status-controller')).body.rules).toEqual([
    { verbs: ['get', 'list', 'watch'], apiGroups: ['admissionregistration.k8s.io'], resources: ['validatingadmissionpolicies'] },
    { verbs: ['get', 'patch', 'update'], apiGroups: ['admissionregistration.k8s.io'], resources: ['validatingadmissionpolicies/status'] },
    { verbs: ['create', 'patch', 'update'], apiGroups: ['', 'events.k8s.io'], resources: ['events'] },
  ]);
  await policy(rbac, 'p', { matchConstraints: apps(['deployments']), validations: [{ expression: 'object.replicas > 1' }] });
  await rbac.settle();
  const p = (await rbac.req('GET', `${VAP}/p`)).body;
  expect(p.status.observedGeneration).toBe(1);
  expect(p.status.typeChecking.expressionWarnings[0].warning).toMatch(/^apps\/v1, Kind=Deployment: ERROR: <input>:1:7: undefined field 'replicas'/);
});

it('a custom resource is checked against its CRD schema', async () => {
  const crd = await c.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } }],
    },
  });
  expect(crd.status, crd.text).toBe(201);
  await c.settle();
  await policy(c, 'p', {
    matchConstraints: { resourceRules: [{ apiGroups: ['example.com'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['widgets'] }] },
    validations: [{ expression: 'object.spec.size < 10' }, { expression: 'object.spec.sise < 10' }],
  });
  const p = await status('p');
  expect(p.status.typeChecking.expressionWarnings).toEqual([
    { fieldRef: 'spec.validations[1].expression', warning: "example.com/v1, Kind=Widget: ERROR: <input>:1:12: undefined field 'sise'\n | object.spec.sise < 10\n | ...........^\n" },
  ]);
});
