import { describe, expect, it } from 'vitest';
import * as Z from './authz.js';

const calls: Z.AuthorizerAttributes[] = [];
const policy: Z.Authorizer = {
  authorize(a) {
    calls.push(a);
    if (a.user === 'system:anonymous') return { decision: 'deny', reason: 'anonymous' };
    if (a.path === '/readyz') return { decision: 'noopinion', reason: '' };
    if (a.resource === 'flaky') return { decision: 'noopinion', reason: '', error: 'timeout calling webhook' };
    return { decision: 'allow', reason: `RBAC: allowed ${a.verb}` };
  },
};
const alice = Z.newAuthorizer({ user: 'alice', groups: ['system:authenticated'] }, policy);

describe('authorizer library', () => {
  it('defaults to allow-all', () => {
    const d = Z.checkResource(Z.resource(Z.group(Z.newAuthorizer({ user: 'x' }), ''), 'pods'), 'get');
    expect([Z.allowed(d), Z.reason(d), Z.errored(d), Z.error(d)]).toEqual([true, '', false, '']);
    expect(Z.allowAllAuthorizer.authorize({ verb: 'delete' })).toEqual({ decision: 'allow', reason: '' });
  });

  const cases: [string, () => unknown, unknown][] = [
    ['resource check allowed', () => Z.allowed(Z.checkResource(Z.resource(Z.group(alice, 'apps'), 'deployments'), 'get')), true],
    ['resource check reason', () => Z.reason(Z.checkResource(Z.resource(Z.group(alice, 'apps'), 'deployments'), 'get')), 'RBAC: allowed get'],
    ['path check noopinion is not allowed', () => Z.allowed(Z.checkPath(Z.path(alice, '/readyz'), 'get')), false],
    ['path check allowed', () => Z.allowed(Z.checkPath(Z.path(alice, '/healthz'), 'get')), true],
    ['errored decision', () => Z.errored(Z.checkResource(Z.resource(Z.group(alice, ''), 'flaky'), 'get')), true],
    ['error text', () => Z.error(Z.checkResource(Z.resource(Z.group(alice, ''), 'flaky'), 'get')), 'timeout calling webhook'],
    ['not errored', () => Z.errored(Z.checkPath(Z.path(alice, '/x'), 'get')), false],
    ['error empty when none', () => Z.error(Z.checkPath(Z.path(alice, '/x'), 'get')), ''],
    ['deny', () => Z.allowed(Z.checkPath(Z.path(Z.newAuthorizer({ user: 'system:anonymous' }, policy), '/x'), 'get')), false],
    ['deny reason', () => Z.reason(Z.checkPath(Z.path(Z.newAuthorizer({ user: 'system:anonymous' }, policy), '/x'), 'get')), 'anonymous'],
    ['service account user', () => Z.serviceAccount(alice, 'kube-system', 'default').userInfo.user, 'system:serviceaccount:kube-system:default'],
    ['service account groups', () => Z.serviceAccount(alice, 'ns', 'sa').userInfo.groups, ['system:serviceaccounts', 'system:serviceaccounts:ns']],
    ['service account keeps the authorizer', () => Z.serviceAccount(alice, 'ns', 'sa').authorizer, policy],
    ['builders do not mutate', () => {
      const r = Z.resource(Z.group(alice, ''), 'pods');
      Z.namespace(r, 'x');
      return r.namespace;
    }, ''],
    ['subresource', () => Z.subresource(Z.resource(Z.group(alice, ''), 'pods'), 'status').subresource, 'status'],
    ['name', () => Z.name(Z.resource(Z.group(alice, ''), 'pods'), 'web').name, 'web'],
    ['fieldSelector', () => Z.fieldSelector(Z.resource(Z.group(alice, ''), 'pods'), 'spec.nodeName=n1').fieldSelector, 'spec.nodeName=n1'],
    ['labelSelector', () => Z.labelSelector(Z.resource(Z.group(alice, ''), 'pods'), 'app in (a,b)').labelSelector, 'app in (a,b)'],
    ['requestResource preset', () => Z.newResourceCheck(alice, { group: 'apps', resource: 'deployments', subresource: 'scale', namespace: 'n', name: 'w' }).subresource, 'scale'],
    ['empty group is allowed (core group)', () => Z.group(alice, '').group, ''],
  ];
  it.each(cases)('%s', (_n, f, want) => {
    expect(f()).toEqual(want);
  });

  it('validation errors', () => {
    expect(() => Z.path(alice, '')).toThrow('path must not be empty');
    expect(() => Z.path(alice, ' \t')).toThrow('path must not be empty');
    expect(() => Z.resource(Z.group(alice, 'apps'), '  ')).toThrow('resource must not be empty');
    expect(() => Z.serviceAccount(alice, 'ns', 'Not_Valid')).toThrow('Invalid service account name');
    expect(() => Z.serviceAccount(alice, 'ns.with.dots', 'sa')).toThrow('Invalid service account namespace');
    expect(() => Z.serviceAccount(alice, 'ns', 'sa.with.dots')).not.toThrow();
  });

  it('sends the AttributesRecord fields to the authorizer', () => {
    calls.length = 0;
    const r = Z.labelSelector(Z.fieldSelector(Z.name(Z.namespace(Z.subresource(Z.resource(Z.group(alice, 'apps'), 'deployments'), 'scale'), 'prod'), 'web'), 'a=b'), 'x=y');
    Z.checkResource(r, 'update');
    Z.checkResource(Z.resource(Z.group(alice, ''), 'pods'), 'list');
    Z.checkPath(Z.path(alice, '/apis'), 'get');
    expect(calls).toEqual([
      {
        user: 'alice', groups: ['system:authenticated'], verb: 'update', resourceRequest: true, apiVersion: '*', group: 'apps',
        resource: 'deployments', subresource: 'scale', namespace: 'prod', name: 'web', fieldSelector: 'a=b', labelSelector: 'x=y',
      },
      { user: 'alice', groups: ['system:authenticated'], verb: 'list', resourceRequest: true, apiVersion: '*', group: '', resource: 'pods', subresource: '', namespace: '', name: '' },
      { user: 'alice', groups: ['system:authenticated'], verb: 'get', path: '/apis', resourceRequest: false },
    ]);
  });

  it('an authorizer that throws gives an errored no-opinion decision', () => {
    const boom = Z.newAuthorizer({ user: 'a' }, { authorize: () => { throw new Error('boom'); } });
    const d = Z.checkPath(Z.path(boom, '/'), 'get');
    expect([Z.allowed(d), Z.errored(d), Z.error(d)]).toEqual([false, true, 'boom']);
  });
});
