import { describe, expect, it } from 'vitest';
import { bindingName, rolesAllowing, ruleAllows, rulesOf, subjectFor, suggestBinding, type PolicyRule, type RequestAttributes } from './rules.js';
import { parseAll } from '../editor/actions.js';

const req = (over: Partial<RequestAttributes> = {}): RequestAttributes => ({
  verb: 'list',
  resourceRequest: true,
  apiGroup: '',
  resource: 'pods',
  subresource: '',
  namespace: 'default',
  name: '',
  path: '',
  ...over,
});

describe('ruleAllows: every rule shape', () => {
  const cases: [string, PolicyRule, Partial<RequestAttributes>, boolean][] = [
    // verbs
    ['exact verb', { verbs: ['list'], apiGroups: [''], resources: ['pods'] }, {}, true],
    ['other verb', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, {}, false],
    ['verb *', { verbs: ['*'], apiGroups: [''], resources: ['pods'] }, { verb: 'deletecollection' }, true],
    ['no verbs', { verbs: [], apiGroups: [''], resources: ['pods'] }, {}, false],
    // apiGroups
    ['core group ""', { verbs: ['list'], apiGroups: [''], resources: ['deployments'] }, { apiGroup: 'apps', resource: 'deployments' }, false],
    ['named group', { verbs: ['list'], apiGroups: ['apps'], resources: ['deployments'] }, { apiGroup: 'apps', resource: 'deployments' }, true],
    ['group *', { verbs: ['list'], apiGroups: ['*'], resources: ['deployments'] }, { apiGroup: 'apps', resource: 'deployments' }, true],
    ['group * also matches core', { verbs: ['list'], apiGroups: ['*'], resources: ['pods'] }, {}, true],
    ['no apiGroups', { verbs: ['list'], resources: ['pods'] }, {}, false],
    // resources
    ['other resource', { verbs: ['list'], apiGroups: [''], resources: ['services'] }, {}, false],
    ['resource *', { verbs: ['list'], apiGroups: [''], resources: ['*'] }, {}, true],
    ['resource * covers subresources', { verbs: ['get'], apiGroups: [''], resources: ['*'] }, { verb: 'get', subresource: 'log', name: 'web' }, true],
    ['resource does not cover its subresource', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, { verb: 'get', subresource: 'log', name: 'web' }, false],
    ['exact subresource', { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, { verb: 'get', subresource: 'log', name: 'web' }, true],
    ['subresource does not cover the resource', { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, { verb: 'get', name: 'web' }, false],
    ['*/subresource', { verbs: ['update'], apiGroups: ['*'], resources: ['*/scale'] }, { verb: 'update', apiGroup: 'apps', resource: 'deployments', subresource: 'scale', name: 'w' }, true],
    ['*/subresource, other subresource', { verbs: ['update'], apiGroups: ['*'], resources: ['*/scale'] }, { verb: 'update', resource: 'pods', subresource: 'status', name: 'w' }, false],
    ['*/subresource, no subresource', { verbs: ['get'], apiGroups: ['*'], resources: ['*/scale'] }, { verb: 'get', resource: 'scale', name: 'w' }, false],
    ['other resource/subresource', { verbs: ['get'], apiGroups: [''], resources: ['services/status'] }, { verb: 'get', subresource: 'status', name: 'w' }, false],
    ['no resources', { verbs: ['list'], apiGroups: [''] }, {}, false],
    // resourceNames
    ['resourceNames: named request', { verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['web'] }, { verb: 'get', name: 'web' }, true],
    ['resourceNames: other name', { verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['web'] }, { verb: 'get', name: 'db' }, false],
    ['resourceNames: a list has no name', { verbs: ['list'], apiGroups: [''], resources: ['pods'], resourceNames: ['web'] }, {}, false],
    ['resourceNames: empty list is every name', { verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: [] }, { verb: 'get', name: 'db' }, true],
    ['resourceNames: a create has no name', { verbs: ['create'], apiGroups: [''], resources: ['pods'], resourceNames: ['web'] }, { verb: 'create' }, false],
    // non-resource URLs
    ['url exact', { verbs: ['get'], nonResourceURLs: ['/healthz'] }, { resourceRequest: false, verb: 'get', path: '/healthz' }, true],
    ['url prefix *', { verbs: ['get'], nonResourceURLs: ['/healthz/*'] }, { resourceRequest: false, verb: 'get', path: '/healthz/etcd' }, true],
    ['url prefix * is a prefix, not a segment', { verbs: ['get'], nonResourceURLs: ['/api*'] }, { resourceRequest: false, verb: 'get', path: '/apis/apps' }, true],
    ['url *', { verbs: ['get'], nonResourceURLs: ['*'] }, { resourceRequest: false, verb: 'get', path: '/metrics' }, true],
    ['url other', { verbs: ['get'], nonResourceURLs: ['/healthz'] }, { resourceRequest: false, verb: 'get', path: '/metrics' }, false],
    ['url other verb', { verbs: ['get'], nonResourceURLs: ['/healthz'] }, { resourceRequest: false, verb: 'post', path: '/healthz' }, false],
    ['resource rule never matches a URL', { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, { resourceRequest: false, verb: 'get', path: '/healthz' }, false],
    ['URL rule never matches a resource', { verbs: ['*'], nonResourceURLs: ['*'] }, {}, false],
  ];
  for (const [name, rule, over, want] of cases) {
    it(`${name} -> ${want}`, () => expect(ruleAllows(req(over), rule)).toBe(want));
  }
});

describe('rulesOf', () => {
  it('keeps string entries only and tolerates junk', () => {
    expect(rulesOf({ rules: [{ verbs: ['get', 3], apiGroups: [''], resources: ['pods'] }, null] })).toEqual([
      { verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: [], nonResourceURLs: [] },
      { verbs: [], apiGroups: [], resources: [], resourceNames: [], nonResourceURLs: [] },
    ]);
    expect(rulesOf({})).toEqual([]);
    expect(rulesOf(null)).toEqual([]);
  });
});

const role = (name: string, rules: PolicyRule[], namespace?: string) => ({ metadata: { name, namespace }, rules });

describe('rolesAllowing', () => {
  const clusterRoles = [
    role('cluster-admin', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, { verbs: ['*'], nonResourceURLs: ['*'] }]),
    role('view', [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods', 'services', 'configmaps'] }]),
    role('edit', [{ verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], apiGroups: [''], resources: ['pods', 'services', 'configmaps', 'secrets'] }]),
    role('system:controller:x', [{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }]),
    role('secrets-only', [{ verbs: ['list'], apiGroups: [''], resources: ['secrets'] }]),
  ];
  const roles = [role('pod-reader', [{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }], 'default'), role('elsewhere', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], 'other')];

  it('orders Roles of the namespace, then ClusterRoles narrowest first, system: roles last', () => {
    const ms = rolesAllowing(req(), clusterRoles, roles);
    expect(ms.map((m) => `${m.kind}/${m.name}`)).toEqual(['Role/pod-reader', 'ClusterRole/view', 'ClusterRole/edit', 'ClusterRole/cluster-admin', 'ClusterRole/system:controller:x']);
    expect(ms[1].rules).toEqual([{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods', 'services', 'configmaps'], resourceNames: [], nonResourceURLs: [] }]);
    expect(ms[0].namespace).toBe('default');
  });
  it('a cluster-scoped request is granted by ClusterRoles only', () => {
    const ms = rolesAllowing(req({ resource: 'nodes', namespace: '' }), clusterRoles, roles);
    expect(ms.map((m) => m.name)).toEqual(['cluster-admin']);
  });
  it('a non-resource request matches nonResourceURLs rules', () => {
    const ms = rolesAllowing(req({ resourceRequest: false, verb: 'get', path: '/metrics', namespace: '' }), clusterRoles, roles);
    expect(ms.map((m) => m.name)).toEqual(['cluster-admin']);
    expect(ms[0].rules).toEqual([{ verbs: ['*'], apiGroups: [], resources: [], resourceNames: [], nonResourceURLs: ['*'] }]);
  });
  it('none', () => expect(rolesAllowing(req({ verb: 'escalate' }), clusterRoles.slice(1), [])).toEqual([]));
});

describe('suggestBinding', () => {
  it('a RoleBinding of an existing ClusterRole to a user, in the namespace', () => {
    const text = suggestBinding(req(), 'jane', { kind: 'ClusterRole', name: 'view' });
    expect(parseAll(text)).toEqual([
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'jane-view', namespace: 'default' },
        subjects: [{ kind: 'User', name: 'jane', apiGroup: 'rbac.authorization.k8s.io' }],
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      },
    ]);
  });
  it('a service account subject', () => {
    const [b] = parseAll(suggestBinding(req(), 'system:serviceaccount:team:builder', { kind: 'Role', name: 'pod-reader' })) as { subjects: unknown; metadata: unknown }[];
    expect(b.subjects).toEqual([{ kind: 'ServiceAccount', name: 'builder', namespace: 'team' }]);
    expect(b.metadata).toEqual({ name: 'builder-pod-reader', namespace: 'default' });
  });
  it('without a role: a Role with exactly the needed rule (subresource, name) and its binding', () => {
    const docs = parseAll(suggestBinding(req({ verb: 'get', subresource: 'log', name: 'web' }), 'jane'));
    expect(docs).toEqual([
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { name: 'jane-get-pods-log', namespace: 'default' },
        rules: [{ apiGroups: [''], resources: ['pods/log'], resourceNames: ['web'], verbs: ['get'] }],
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'jane-get-pods-log', namespace: 'default' },
        subjects: [{ kind: 'User', name: 'jane', apiGroup: 'rbac.authorization.k8s.io' }],
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'jane-get-pods-log' },
      },
    ]);
  });
  it('cluster scope: a ClusterRoleBinding (and a ClusterRole for a non-resource URL)', () => {
    const docs = parseAll(suggestBinding(req({ resourceRequest: false, verb: 'get', path: '/metrics', namespace: '' }), 'Jane Doe')) as { kind: string; rules?: unknown; metadata: unknown }[];
    expect(docs.map((d) => d.kind)).toEqual(['ClusterRole', 'ClusterRoleBinding']);
    expect(docs[0].rules).toEqual([{ nonResourceURLs: ['/metrics'], verbs: ['get'] }]);
    expect(docs[1].metadata).toEqual({ name: 'jane-doe-get-path' });
    const [crb] = parseAll(suggestBinding(req({ resource: 'nodes', namespace: '' }), 'jane', { kind: 'ClusterRole', name: 'system:node-reader' })) as { kind: string; metadata: unknown; roleRef: unknown }[];
    expect(crb.kind).toBe('ClusterRoleBinding');
    expect(crb.metadata).toEqual({ name: 'jane-system-node-reader' });
    expect(crb.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:node-reader' });
  });
  it('names that YAML would misread are quoted', () => {
    const [b] = parseAll(suggestBinding(req({ namespace: 'true' }), 'yes', { kind: 'ClusterRole', name: 'view' })) as { subjects: { name: unknown }[]; metadata: { namespace: unknown } }[];
    expect(b.subjects[0].name).toBe('yes');
    expect(b.metadata.namespace).toBe('true');
  });
});

describe('subjects and names', () => {
  it('subjectFor', () => {
    expect(subjectFor('system:serviceaccount:ns:sa')).toEqual({ kind: 'ServiceAccount', name: 'sa', namespace: 'ns' });
    expect(subjectFor('system:serviceaccount:bad')).toEqual({ kind: 'User', name: 'system:serviceaccount:bad', apiGroup: 'rbac.authorization.k8s.io' });
  });
  it('bindingName is a DNS subdomain', () => {
    expect(bindingName('Jane@Example.com', 'view')).toBe('jane-example.com-view');
    expect(bindingName('-x-', 'system:aggregate-to-view')).toBe('x-system-aggregate-to-view');
    expect(bindingName('a'.repeat(300), 'view')).toHaveLength(253);
  });
});
