// The foundation's HTTP behaviour, asserted on the wire: status codes, exact Status bodies, headers.
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../testing/harness.js';

let c: TestClient;
beforeEach(async () => {
  // from namespaces alone: the default objects of a fresh cluster are asserted in surface.test.ts
  c = await testClient(createMemoryStorage(), { defaultObjects: false });
});

const cm = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...extra },
  data: { a: '1' },
});

describe('cluster bootstrap and non-resource endpoints', () => {
  it('starts with the four namespaces, each Active with its name label', async () => {
    const r = await c.req('GET', '/api/v1/namespaces');
    expect(r.status).toBe(200);
    expect(r.body.kind).toBe('NamespaceList');
    expect(r.body.apiVersion).toBe('v1');
    expect(r.body.items.map((n: any) => n.metadata.name)).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    for (const ns of r.body.items) {
      expect(ns.status).toEqual({ phase: 'Active' });
      expect(ns.spec).toEqual({ finalizers: ['kubernetes'] });
      expect(ns.metadata.labels).toEqual({ 'kubernetes.io/metadata.name': ns.metadata.name });
      expect(ns.kind).toBeUndefined(); // typed list items carry no kind
    }
    expect(r.body.metadata.resourceVersion).toBe('4');
  });

  it('serves /version, /healthz, /livez, /readyz', async () => {
    const v = await c.req('GET', '/version');
    expect(v.status).toBe(200);
    expect(v.body).toMatchObject({ major: '1', minor: '33', gitVersion: 'v1.33.0' });
    // indented as the real server's WriteRawJSON writes it, with no trailing newline
    expect(v.text).toBe(JSON.stringify(v.body, null, 2));
    expect(v.text.split('\n').slice(0, 3)).toEqual(['{', '  "major": "1",', '  "minor": "33",']);
    expect(v.headers.get('content-type')).toBe('application/json');
    expect(v.headers.get('cache-control')).toBe('no-cache, private');
    for (const p of ['/healthz', '/livez', '/readyz']) {
      const r = await c.req('GET', p);
      expect(r.status).toBe(200);
      expect(r.text).toBe('ok');
    }
  });

  it('answers unknown paths with the real 404 Status', async () => {
    const r = await c.req('GET', '/api/v1/widgets');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'the server could not find the requested resource', reason: 'NotFound', details: {}, code: 404,
    });
    expect((await c.req('GET', '/apis/nope.example.com/v1')).status).toBe(404);
  });
});

describe('discovery', () => {
  it('/api lists v1', async () => {
    const r = await c.req('GET', '/api');
    expect(r.body).toMatchObject({ kind: 'APIVersions', versions: ['v1'] });
  });

  it('/apis lists groups in the real order with preferred versions', async () => {
    const r = await c.req('GET', '/apis');
    expect(r.body.kind).toBe('APIGroupList');
    const names = r.body.groups.map((g: any) => g.name);
    // a v1.33 server with its default group versions: the aggregator orders groups by groupPriorityMinimum
    // (apiregistration.k8s.io always first), ties by name
    expect(names).toEqual([
      'apiregistration.k8s.io', 'apps', 'events.k8s.io', 'authentication.k8s.io', 'authorization.k8s.io', 'autoscaling', 'batch',
      'certificates.k8s.io', 'networking.k8s.io', 'policy', 'rbac.authorization.k8s.io', 'storage.k8s.io', 'admissionregistration.k8s.io',
      'apiextensions.k8s.io', 'scheduling.k8s.io', 'coordination.k8s.io', 'node.k8s.io', 'discovery.k8s.io', 'flowcontrol.apiserver.k8s.io',
    ]);
    const autoscaling = r.body.groups.find((g: any) => g.name === 'autoscaling');
    expect(autoscaling.preferredVersion).toEqual({ groupVersion: 'autoscaling/v2', version: 'v2' });
  });

  it('/api/v1 lists resources with verbs, short names and subresources', async () => {
    const r = await c.req('GET', '/api/v1');
    expect(r.body.kind).toBe('APIResourceList');
    expect(r.body.groupVersion).toBe('v1');
    const cmRes = r.body.resources.find((x: any) => x.name === 'configmaps');
    expect(cmRes).toMatchObject({ singularName: 'configmap', namespaced: true, kind: 'ConfigMap', shortNames: ['cm'] });
    expect(cmRes.verbs).toEqual(['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
    expect(r.body.resources.find((x: any) => x.name === 'pods/status')).toMatchObject({ kind: 'Pod', verbs: ['get', 'patch', 'update'] });
    expect(r.body.resources.find((x: any) => x.name === 'namespaces').namespaced).toBe(false);
  });

  it('/apis/apps/v1 has the autoscaling/v1 Scale subresources', async () => {
    const r = await c.req('GET', '/apis/apps/v1');
    expect(r.body.resources.find((x: any) => x.name === 'deployments/scale')).toEqual({
      name: 'deployments/scale', singularName: '', namespaced: true, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'],
    });
  });

  it('serves aggregated discovery when asked first', async () => {
    const r = await c.req('GET', '/apis', undefined, {
      Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json',
    });
    expect(r.headers.get('Content-Type')).toBe('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    expect(r.body.kind).toBe('APIGroupDiscoveryList');
    const apps = r.body.items.find((i: any) => i.metadata.name === 'apps');
    const deploy = apps.versions[0].resources.find((x: any) => x.resource === 'deployments');
    expect(deploy).toMatchObject({ scope: 'Namespaced', singularResource: 'deployment', shortNames: ['deploy'], categories: ['all'] });
  });

  it('accepts the svc spelling of group names and mirrors it', async () => {
    const r = await c.req('GET', '/apis/networking.svc.io/v1');
    expect(r.status).toBe(200);
    expect(r.body.groupVersion).toBe('networking.svc.io/v1');
    expect(r.body.resources.map((x: any) => x.name)).toContain('ingresses');
  });
});

describe('create, get, list, update, delete', () => {
  it('creates with generated metadata and reads it back', async () => {
    const r = await c.req('POST', '/api/v1/namespaces/default/configmaps', cm('one'));
    expect(r.status).toBe(201);
    expect(r.body.metadata).toMatchObject({ name: 'one', namespace: 'default', resourceVersion: '5', creationTimestamp: '2025-01-01T00:00:00Z' });
    expect(r.body.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(Object.keys(r.body)).toEqual(['kind', 'apiVersion', 'metadata', 'data']);
    const g = await c.req('GET', '/api/v1/namespaces/default/configmaps/one');
    expect(g.status).toBe(200);
    expect(g.body.data).toEqual({ a: '1' });
    expect(g.body.metadata.uid).toBe(r.body.metadata.uid);
  });

  it('409 AlreadyExists with the real body', async () => {
    await c.req('POST', '/api/v1/namespaces/default/configmaps', cm('dup'));
    const r = await c.req('POST', '/api/v1/namespaces/default/configmaps', cm('dup'));
    expect(r.status).toBe(409);
    expect(r.body).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'configmaps "dup" already exists', reason: 'AlreadyExists', details: { name: 'dup', kind: 'configmaps' }, code: 409,
    });
  });

  it('404 for a missing object, with group in details for named groups', async () => {
    const r = await c.req('GET', '/apis/apps/v1/namespaces/default/deployments/nope');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'deployments.apps "nope" not found', reason: 'NotFound', details: { name: 'nope', group: 'apps', kind: 'deployments' }, code: 404,
    });
  });

  it('404 when the namespace does not exist', async () => {
    const r = await c.req('POST', '/api/v1/namespaces/ghost/configmaps', cm('x'));
    expect(r.status).toBe(404);
    expect(r.body.message).toBe('namespaces "ghost" not found');
    expect(r.body.details).toEqual({ name: 'ghost', kind: 'namespaces' });
  });

  it('generateName gives a 5-character suffix', async () => {
    const r = await c.req('POST', '/api/v1/namespaces/default/configmaps', { metadata: { generateName: 'gen-' }, data: {} });
    expect(r.status).toBe(201);
    expect(r.body.metadata.name).toMatch(/^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(r.body.metadata.generateName).toBe('gen-');
  });

  it('422 Invalid for a bad name, one cause per field error', async () => {
    const r = await c.req('POST', '/api/v1/namespaces/default/configmaps', cm('Bad_Name'));
    expect(r.status).toBe(422);
    expect(r.body.reason).toBe('Invalid');
    expect(r.body.message).toBe(
      `ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    );
    expect(r.body.details.kind).toBe('ConfigMap');
    expect(r.body.details.causes).toEqual([
      { reason: 'FieldValueInvalid', message: r.body.message.slice('ConfigMap "Bad_Name" is invalid: metadata.name: '.length), field: 'metadata.name' },
    ]);
  });

  it('422 when neither name nor generateName is given', async () => {
    const r = await c.req('POST', '/api/v1/namespaces/default/configmaps', { data: {} });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe('ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required');
  });

  it('400 when the body namespace differs from the URL', async () => {
    const r = await c.req('POST', '/api/v1/namespaces/default/configmaps', cm('x', { namespace: 'kube-system' }));
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('the namespace of the provided object does not match the namespace sent on the request');
  });

  it('400 for a body that is not JSON, nothing stored', async () => {
    const before = (await c.req('GET', '/api/v1/namespaces/default/configmaps')).body.metadata.resourceVersion;
    const r = await c.req('POST', '/api/v1/namespaces/default/configmaps', '{"metadata": {"name": "x"');
    expect(r.status).toBe(400);
    expect(r.body.kind).toBe('Status');
    expect(r.body.reason).toBe('BadRequest');
    const after = (await c.req('GET', '/api/v1/namespaces/default/configmaps')).body.metadata.resourceVersion;
    expect(after).toBe(before);
  });

  it('415 for an unsupported Content-Type', async () => {
    const r = await c.req('POST', '/api/v1/namespaces/default/configmaps', 'name: x', { 'Content-Type': 'text/plain' });
    expect(r.status).toBe(415);
    expect(r.body.reason).toBe('UnsupportedMediaType');
  });

  it('405 for methods without a route', async () => {
    const r = await c.req('PUT', '/api/v1/namespaces/default/configmaps', cm('x'));
    expect(r.status).toBe(405);
    expect(r.body).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'the server does not allow this method on the requested resource', reason: 'MethodNotAllowed', details: {}, code: 405,
    });
  });

  it('accepts YAML bodies and answers YAML when asked', async () => {
    const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yml\ndata:\n  k: v\n  \"on\": \"yes\"\n';
    const r = await c.raw('POST', '/api/v1/namespaces/default/configmaps', yaml, { 'Content-Type': 'application/yaml', Accept: 'application/yaml' });
    expect(r.status).toBe(201);
    expect(r.headers.get('Content-Type')).toBe('application/yaml');
    const text = await r.text();
    expect(text).toMatch(/^apiVersion: v1\ndata:\n  k: v\n  "on": "yes"\nkind: ConfigMap\nmetadata:\n  creationTimestamp: "2025-01-01T00:00:00Z"\n/);
    expect(text).toContain("\n  name: yml\n  namespace: default\n  resourceVersion: \"5\"\n");
  });

  it('PUT updates with optimistic concurrency; stale resourceVersion is a 409 Conflict', async () => {
    const created = (await c.req('POST', '/api/v1/namespaces/default/configmaps', cm('u'))).body;
    const upd = await c.req('PUT', '/api/v1/namespaces/default/configmaps/u', { ...created, data: { a: '2' } });
    expect(upd.status).toBe(200);
    expect(upd.body.data).toEqual({ a: '2' });
    expect(Number(upd.body.metadata.resourceVersion)).toBeGreaterThan(Number(created.metadata.resourceVersion));
    const stale = await c.req('PUT', '/api/v1/namespaces/default/configmaps/u', { ...created, data: { a: '3' } });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'Operation cannot be fulfilled on configmaps "u": the object has been modified; please apply your changes to the latest version and try again',
      reason: 'Conflict', details: { name: 'u', kind: 'configmaps' }, code: 409,
    });
    expect((await c.req('GET', '/api/v1/namespaces/default/configmaps/u')).body.data).toEqual({ a: '2' });
  });

  it('PUT with a different name in the body is a 400', async () => {
    await c.req('POST', '/api/v1/namespaces/default/configmaps', cm('n1'));
    const r = await c.req('PUT', '/api/v1/namespaces/default/configmaps/n1', cm('n2'));
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('the name of the object (n2) does not match the name on the URL (n1)');
  });

  it('PUT to a missing object of a kind without create-on-update is a 404', async () => {
    const r = await c.req('PUT', '/api/v1/namespaces/default/configmaps/missing', cm('missing'));
    expect(r.status).toBe(404);
  });

  it('DELETE answers a Success Status and the object is gone', async () => {
    const created = (await c.req('POST', '/api/v1/namespaces/default/configmaps', cm('d'))).body;
    const r = await c.req('DELETE', '/api/v1/namespaces/default/configmaps/d');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success',
      details: { name: 'd', kind: 'configmaps', uid: created.metadata.uid },
    });
    expect((await c.req('GET', '/api/v1/namespaces/default/configmaps/d')).status).toBe(404);
    expect((await c.req('DELETE', '/api/v1/namespaces/default/configmaps/d')).status).toBe(404);
  });

  it('deletecollection removes what the label selector matches', async () => {
    await c.req('POST', '/api/v1/namespaces/default/configmaps', cm('l1', { labels: { app: 'x' } }));
    await c.req('POST', '/api/v1/namespaces/default/configmaps', cm('l2', { labels: { app: 'y' } }));
    const r = await c.req('DELETE', '/api/v1/namespaces/default/configmaps?labelSelector=app%3Dx');
    expect(r.status).toBe(200);
    expect(r.body.kind).toBe('ConfigMapList');
    const left = (await c.req('GET', '/api/v1/namespaces/default/configmaps')).body.items.map((i: any) => i.metadata.name);
    expect(left).toEqual(['l2']);
  });

  it('lists across namespaces and per namespace', async () => {
    await c.req('POST', '/api/v1/namespaces/default/configmaps', cm('a'));
    await c.req('POST', '/api/v1/namespaces/kube-system/configmaps', cm('b'));
    const all = await c.req('GET', '/api/v1/configmaps');
    expect(all.body.items.map((i: any) => `${i.metadata.namespace}/${i.metadata.name}`)).toEqual(['default/a', 'kube-system/b']);
    const one = await c.req('GET', '/api/v1/namespaces/kube-system/configmaps');
    expect(one.body.items.map((i: any) => i.metadata.name)).toEqual(['b']);
  });

  it('cluster-scoped kinds reject a namespaced path', async () => {
    expect((await c.req('GET', '/api/v1/namespaces/default/nodes')).status).toBe(404);
  });

  it('dryRun=All answers as if created but stores nothing; other values are rejected', async () => {
    const r = await c.req('POST', '/api/v1/namespaces/default/configmaps?dryRun=All', cm('dry'));
    expect(r.status).toBe(201);
    expect(r.body.metadata.name).toBe('dry');
    expect((await c.req('GET', '/api/v1/namespaces/default/configmaps/dry')).status).toBe(404);
    const bad = await c.req('POST', '/api/v1/namespaces/default/configmaps?dryRun=Maybe', cm('dry'));
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe('CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Maybe"}: supported values: "All"');
  });

  it('deleting a namespace removes its content, then the namespace', async () => {
    await c.req('POST', '/api/v1/namespaces', { metadata: { name: 'tmp' } });
    await c.req('POST', '/api/v1/namespaces/tmp/configmaps', cm('inside'));
    const del = await c.req('DELETE', '/api/v1/namespaces/tmp');
    expect(del.status).toBe(200);
    expect(del.body.status.phase).toBe('Terminating');
    expect(del.body.metadata.deletionTimestamp).toBe('2025-01-01T00:00:00Z');
    const blocked = await c.req('POST', '/api/v1/namespaces/tmp/configmaps', cm('late'));
    expect(blocked.status).toBe(403);
    // the namespace controller looks at a deleted namespace 5 s after the delete
    await c.settle();
    await c.env.advance(4000);
    await c.settle();
    expect((await c.req('GET', '/api/v1/namespaces/tmp/configmaps/inside')).status).toBe(200);
    await c.env.advance(1000);
    await c.settle();
    expect((await c.req('GET', '/api/v1/namespaces/tmp/configmaps/inside')).status).toBe(404);
    expect((await c.req('GET', '/api/v1/namespaces/tmp')).status).toBe(404);
  });
});

describe('Table output', () => {
  it('default table has Name and Created At; includeObject=Metadata by default', async () => {
    await c.req('POST', '/api/v1/namespaces/default/configmaps', cm('t'));
    const r = await c.req('GET', '/api/v1/namespaces/default/limitranges', undefined, { Accept: 'application/json;as=Table;g=meta.k8s.io;v=v1' });
    expect(r.status).toBe(200);
    expect(r.body.kind).toBe('Table');
    expect(r.body.apiVersion).toBe('meta.k8s.io/v1');
    expect(r.body.columnDefinitions.map((x: any) => [x.name, x.type])).toEqual([
      ['Name', 'string'],
      ['Created At', 'date'],
    ]);
  });

  it('mirrors the svc spelling of the Table group', async () => {
    await c.req('POST', '/api/v1/namespaces/default/configmaps', cm('t'));
    const r = await c.req('GET', '/api/v1/namespaces/default/configmaps/t', undefined, { Accept: 'application/json;as=Table;g=meta.svc.io;v=v1' });
    expect(r.body.apiVersion).toBe('meta.svc.io/v1');
    expect(r.body.rows[0].cells[0]).toBe('t');
    expect(r.body.rows[0].object).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: 'meta.svc.io/v1', metadata: { name: 't' } });
  });

  it('406 when nothing acceptable is offered; a list of types falls back in order', async () => {
    const r = await c.req('GET', '/api/v1/namespaces', undefined, { Accept: 'text/html' });
    expect(r.status).toBe(406);
    expect(r.body.reason).toBe('NotAcceptable');
    expect(r.body.message).toBe('only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf');
    const ok = await c.req('GET', '/api/v1/namespaces', undefined, { Accept: 'text/html, application/json' });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('Content-Type')).toBe('application/json');
  });
});

describe('pretty printing', () => {
  it('indents for pretty=true and for curl, not otherwise', async () => {
    expect((await c.req('GET', '/api/v1/namespaces/default?pretty=true')).text).toMatch(/^\{\n  "kind": "Namespace"/);
    expect((await c.req('GET', '/api/v1/namespaces/default', undefined, { 'User-Agent': 'curl/8.0' })).text).toMatch(/^\{\n {2}"kind"/);
    expect((await c.req('GET', '/api/v1/namespaces/default')).text).toMatch(/^\{"kind":"Namespace"/);
  });
});

describe('playground CEL endpoint', () => {
  it('evaluates with variables, and reports compile errors with positions', async () => {
    const ok = await c.req('POST', '/x-playground/cel', { expression: 'self.items.size() * 2', variables: { self: { items: [1, 2, 3] } } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ value: 6, type: 'int' });
    expect(ok.body.cost).toBeGreaterThan(0);
    const bad = await c.req('POST', '/x-playground/cel', { expression: '"a" + 1' });
    expect(bad.body.error).toMatchObject({ kind: 'compile', message: "found no matching overload for '_+_' applied to '(string, int)'", position: { line: 1, column: 5 } });
    const noExpr = await c.req('POST', '/x-playground/cel', { nope: true });
    expect(noExpr.status).toBe(400);
  });
});
