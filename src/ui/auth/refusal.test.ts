import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient } from '../../engine/testing/harness.js';
import { describeAttributes, parseRefusal } from './refusal.js';
import { rolesAllowing } from './rules.js';

const status = (message: string, code = 403, reason = 'Forbidden') => ({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });

describe('parseRefusal: the real RBAC 403s of the engine', () => {
  it('reads verb, resource, subresource, group, namespace, name and user from each form, and the bootstrap roles that allow it', async () => {
    // the browser hosts' cluster: the bootstrap roles, `view` filled by the aggregation controller
    const c = await testClient(createMemoryStorage(), { auth: { bootstrapPolicy: true } });
    await c.settle();
    const as = { 'Impersonate-User': 'jane' };
    const cases: [string, string, string][] = [
      ['GET', '/api/v1/namespaces/default/pods', 'list pods in namespace "default"'],
      ['GET', '/api/v1/nodes', 'list nodes at the cluster scope'],
      ['GET', '/apis/apps/v1/namespaces/dev/deployments/web', 'get deployments.apps "web" in namespace "dev"'],
      ['PUT', '/apis/apps/v1/namespaces/dev/deployments/web/scale', 'update deployments/scale.apps "web" in namespace "dev"'],
      ['GET', '/metrics', 'get path /metrics'],
    ];
    const clusterRoles = (await c.req('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles')).body.items;
    for (const [method, path, described] of cases) {
      const r = await c.req(method, path, method === 'PUT' ? {} : undefined, as);
      expect(r.status, path).toBe(403);
      const refusal = parseRefusal(r.body);
      expect(refusal?.kind, r.body.message).toBe('rbac');
      if (refusal?.kind !== 'rbac') continue;
      expect(refusal.user).toBe('jane');
      expect(refusal.message).toBe(r.body.message);
      expect(describeAttributes(refusal.attributes)).toBe(described);
      // cluster-admin allows everything; it is always among the matches
      expect(rolesAllowing(refusal.attributes, clusterRoles).map((m) => m.name)).toContain('cluster-admin');
    }
    const pods = parseRefusal((await c.req('GET', '/api/v1/namespaces/default/pods', undefined, as)).body);
    if (pods?.kind !== 'rbac') throw new Error('not rbac');
    expect(pods.attributes).toEqual({ verb: 'list', resourceRequest: true, apiGroup: '', resource: 'pods', subresource: '', namespace: 'default', name: '', path: '' });
    // the narrowest non-system ClusterRole that lists pods is the aggregated `view`
    expect(rolesAllowing(pods.attributes, clusterRoles)[0].name).toBe('view');
  });

  it('a service account user and a quoted name', () => {
    const r = parseRefusal(status('configmaps "a\\"b" is forbidden: User "system:serviceaccount:team:builder" cannot delete resource "configmaps" in API group "" in the namespace "team"'));
    expect(r).toMatchObject({ kind: 'rbac', user: 'system:serviceaccount:team:builder', attributes: { verb: 'delete', name: 'a"b', namespace: 'team' } });
  });
});

describe('parseRefusal: admission', () => {
  it('a ValidatingAdmissionPolicy with a binding and a failed expression', () => {
    const r = parseRefusal(
      status(
        `deployments.apps "web" is forbidden: ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit-binding' denied request: failed expression: object.spec.replicas <= 5`,
        422,
        'Invalid',
      ),
    );
    expect(r).toEqual({
      kind: 'policy',
      message: `deployments.apps "web" is forbidden: ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit-binding' denied request: failed expression: object.spec.replicas <= 5`,
      policy: 'replica-limit',
      binding: 'replica-limit-binding',
      detail: 'failed expression: object.spec.replicas <= 5',
      expression: 'object.spec.replicas <= 5',
    });
  });
  it('a policy message (no expression), without a binding', () => {
    const r = parseRefusal(status(`configmaps "x" is forbidden: ValidatingAdmissionPolicy 'p' denied request: too many keys`, 403));
    expect(r).toMatchObject({ kind: 'policy', policy: 'p', detail: 'too many keys' });
    expect(r).not.toHaveProperty('binding');
    expect(r).not.toHaveProperty('expression');
  });
  it('PodSecurity: level, version and each check (commas inside details kept)', () => {
    const message =
      'pods "priv" is forbidden: violates PodSecurity "restricted:latest": privileged (container "c" must not set securityContext.privileged=true), ' +
      'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), ' +
      'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or containers "a", "b" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';
    const r = parseRefusal(status(message));
    expect(r).toEqual({
      kind: 'pod-security',
      message,
      level: 'restricted',
      version: 'latest',
      violations: [
        { check: 'privileged', detail: 'container "c" must not set securityContext.privileged=true' },
        { check: 'allowPrivilegeEscalation != false', detail: 'container "c" must set securityContext.allowPrivilegeEscalation=false' },
        { check: 'unrestricted capabilities', detail: 'container "c" must set securityContext.capabilities.drop=["ALL"]' },
        { check: 'runAsNonRoot != true', detail: 'pod or container "c" must set securityContext.runAsNonRoot=true' },
        { check: 'seccompProfile', detail: 'pod or containers "a", "b" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"' },
      ],
    });
  });
  it('an exceeded quota with several resources', () => {
    const r = parseRefusal(status('pods "p2" is forbidden: exceeded quota: compute, requested: pods=1,requests.cpu=500m, used: pods=2,requests.cpu=1, limited: pods=2,requests.cpu=1'));
    expect(r).toMatchObject({
      kind: 'quota',
      quota: 'compute',
      requested: { pods: '1', 'requests.cpu': '500m' },
      used: { pods: '2', 'requests.cpu': '1' },
      limited: { pods: '2', 'requests.cpu': '1' },
    });
  });
  it('a quota that requires a field', () => {
    expect(parseRefusal(status('pods "p" is forbidden: failed quota: compute: must specify limits.cpu for: c; limits.memory for: c'))).toMatchObject({
      kind: 'quota-missing',
      quota: 'compute',
      detail: 'must specify limits.cpu for: c; limits.memory for: c',
    });
  });
  it('anything else is not a refusal', () => {
    expect(parseRefusal(status('configmaps "x" not found', 404, 'NotFound'))).toBeUndefined();
    expect(parseRefusal(status('namespaces "kube-system" is forbidden: this namespace may not be deleted'))).toBeUndefined();
    expect(parseRefusal({ message: 'no kind' })).toBeUndefined();
    expect(parseRefusal('text')).toBeUndefined();
    expect(parseRefusal(null)).toBeUndefined();
  });
});
