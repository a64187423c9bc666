// Paths reach the engine as the client sent them (issue 11, item 1). Every request here goes over a real
// socket to the Node host with its path written verbatim, so nothing resolves `%2e%2e`, `.` or `\` on the
// way. A name that would leave its collection (`.`, `..`, one holding `/` or `%`) is refused with the
// real server's 400 (its store's key functions: `Name parameter invalid: "..": may not be '..'`) for every
// verb on every path shape, and the cluster is unchanged afterwards: the storage revision (every write
// bumps it) and the lists of every kind touched are compared before and after.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { systemEnv } from '../../adapters/system-env.js';
import { createApiServer, type ApiServer } from '../../engine/server.js';
import type { Storage } from '../../engine/storage/interface.js';
import { startHttpHost, type HttpHost } from './http-host.js';
import { rawRequest } from './raw-http.js';

let storage: Storage;
let api: ApiServer;
let host: HttpHost;

const LISTS = [
  '/api/v1/namespaces',
  '/api/v1/configmaps',
  '/api/v1/pods',
  '/apis/apps/v1/deployments',
  '/apis/rbac.authorization.k8s.io/v1/clusterroles',
];

async function post(path: string, body: unknown): Promise<void> {
  const r = await rawRequest(host.port, 'POST', path, { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
  expect(r.status, r.body).toBe(201);
}

beforeAll(async () => {
  storage = createMemoryStorage();
  api = createApiServer({ storage, env: systemEnv(), host: 'node' });
  await api.ready;
  host = await startHttpHost(api, { port: 0 });
  await post('/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'keep' }, data: { a: '1' } });
  await post('/api/v1/namespaces/default/pods', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'keep' },
    spec: { containers: [{ name: 'c', image: 'nginx' }] },
  });
  await post('/apis/apps/v1/namespaces/default/deployments', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'keep' },
    spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
  });
  await post('/apis/rbac.authorization.k8s.io/v1/clusterroles', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'keep' } });
});

afterAll(async () => {
  await host.close();
  await api.close();
});

/** Everything a client can see of the cluster: every list's names and resourceVersions, and the revision. */
async function snapshot(): Promise<{ revision: number; lists: string[][] }> {
  const lists: string[][] = [];
  for (const path of LISTS) {
    const r = await rawRequest(host.port, 'GET', path);
    expect(r.status).toBe(200);
    const items = (r.json() as { items: { metadata: { namespace?: string; name: string; resourceVersion: string; deletionTimestamp?: string } }[] }).items;
    lists.push(items.map((i) => `${i.metadata.namespace ?? ''}/${i.metadata.name}@${i.metadata.resourceVersion}${i.metadata.deletionTimestamp ? ' deleting' : ''}`));
  }
  return { revision: await storage.revision(), lists };
}

/** The message of the real store's key functions for a name from the path. */
function nameInvalid(name: string): string {
  const msgs: string[] = [];
  if (name === '.' || name === '..') msgs.push(`may not be '${name}'`);
  if (name.includes('/')) msgs.push("may not contain '/'");
  if (name.includes('%')) msgs.push("may not contain '%'");
  return `Name parameter invalid: ${JSON.stringify(name)}: ${msgs.join(';')}`;
}

/** Names as written in the path, and the name each one decodes to. */
const BAD_NAMES: [raw: string, name: string][] = [
  ['.', '.'],
  ['..', '..'],
  ['%2e', '.'],
  ['%2E', '.'],
  ['%2e%2e', '..'],
  ['%2E%2e', '..'],
  ['.%2e', '..'],
  ['%2e.', '..'],
  ['%2F', '/'],
  ['a%2Fb', 'a/b'],
  ['..%2F..', '../..'],
  ['%2e%2e%2f%2e%2e', '../..'],
  ['%25', '%'],
  ['a%25b', 'a%b'],
  ['%2e%2e%2F%25', '../%'],
];

/** Path shapes that address one named object; `N` is replaced by the raw name. */
const SHAPES: { shape: string; path: string; body: (name: string) => unknown }[] = [
  { shape: 'namespaced object', path: '/api/v1/namespaces/default/configmaps/N', body: (name) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' } }) },
  { shape: 'cluster object', path: '/apis/rbac.authorization.k8s.io/v1/clusterroles/N', body: (name) => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name } }) },
  { shape: 'status subresource', path: '/api/v1/namespaces/default/pods/N/status', body: (name) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' } }) },
  { shape: 'scale subresource', path: '/apis/apps/v1/namespaces/default/deployments/N/scale', body: (name) => ({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name, namespace: 'default' }, spec: { replicas: 0 } }) },
  { shape: 'namespace itself', path: '/api/v1/namespaces/N', body: (name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }) },
  { shape: 'namespace status subresource', path: '/api/v1/namespaces/N/status', body: (name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }) },
];

const VERBS: { verb: string; method: string; query?: string; contentType?: string; body?: 'object' | 'patch' }[] = [
  { verb: 'get', method: 'GET' },
  { verb: 'watch', method: 'GET', query: '?watch=true' },
  { verb: 'update', method: 'PUT', contentType: 'application/json', body: 'object' },
  { verb: 'patch', method: 'PATCH', contentType: 'application/merge-patch+json', body: 'patch' },
  { verb: 'delete', method: 'DELETE' },
];

async function send(method: string, path: string, contentType?: string, body?: unknown) {
  const headers: Record<string, string> = contentType ? { 'Content-Type': contentType } : {};
  return rawRequest(host.port, method, path, { headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

describe('a name from the path that would leave its collection is refused (400) and changes nothing', () => {
  for (const { shape, path, body } of SHAPES) {
    it(`${shape}: ${path}`, async () => {
      const before = await snapshot();
      let checked = 0;
      for (const [raw, name] of BAD_NAMES) {
        for (const trailing of ['', '/']) {
          const p = path.replace('N', raw) + trailing;
          for (const v of VERBS) {
            const r = await send(v.method, p + (v.query ?? ''), v.contentType, v.body === 'object' ? body(name) : v.body === 'patch' ? {} : undefined);
            if (v.verb === 'delete' && shape.endsWith('subresource')) {
              // no DELETE route on a subresource: 405 before any name is looked at
              expect([p, r.status, (r.json() as { reason: string }).reason]).toEqual([p, 405, 'MethodNotAllowed']);
              expect(await storage.revision(), `${v.method} ${p} wrote`).toBe(before.revision);
              continue;
            }
            expect({ verb: v.verb, path: p, status: r.status, body: r.json() }).toEqual({
              verb: v.verb,
              path: p,
              status: 400,
              body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: nameInvalid(name), reason: 'BadRequest', code: 400 },
            });
            expect(r.headers['content-type']).toBe('application/json');
            expect(await storage.revision(), `${v.method} ${p} wrote`).toBe(before.revision);
            checked++;
          }
          // create: no route takes a POST to a named object (or to these subresources)
          const r = await send('POST', p, 'application/json', body(name));
          expect([r.status, p]).toEqual([405, p]);
          expect(await storage.revision(), `POST ${p} wrote`).toBe(before.revision);
        }
      }
      expect(checked).toBeGreaterThan(BAD_NAMES.length * 2);
      expect(await snapshot()).toEqual(before);
    });
  }

  it('the namespace `default` survives DELETE .../configmaps/%2e%2e (it was deleted with everything in it)', async () => {
    const before = await snapshot();
    const r = await rawRequest(host.port, 'DELETE', '/api/v1/namespaces/default/configmaps/%2e%2e');
    expect(r.status).toBe(400);
    expect((r.json() as { message: string }).message).toBe(`Name parameter invalid: "..": may not be '..'`);
    const ns = await rawRequest(host.port, 'GET', '/api/v1/namespaces/default');
    expect(ns.status).toBe(200);
    expect((ns.json() as { metadata: { deletionTimestamp?: string } }).metadata.deletionTimestamp).toBeUndefined();
    expect(await snapshot()).toEqual(before);
  });

  it('DELETE .../configmaps/%2e (a deletecollection once resolved) deletes nothing', async () => {
    const before = await snapshot();
    const r = await rawRequest(host.port, 'DELETE', '/api/v1/namespaces/default/configmaps/%2e');
    expect([r.status, (r.json() as { message: string }).message]).toEqual([400, `Name parameter invalid: ".": may not be '.'`]);
    expect(await snapshot()).toEqual(before);
  });
});

describe('a hostile segment in the namespace position addresses an empty namespace, never another one', () => {
  const NAMESPACES = ['.', '..', '%2e%2e', '%2F', 'default%2F..', '%2e%2e%2Fdefault', 'default%2Fkeep'];
  it('list, deletecollection and create under /api/v1/namespaces/<segment>/configmaps', async () => {
    const before = await snapshot();
    for (const ns of NAMESPACES) {
      for (const trailing of ['', '/']) {
        const p = `/api/v1/namespaces/${ns}/configmaps${trailing}`;
        const list = await rawRequest(host.port, 'GET', p);
        expect([p, list.status, (list.json() as { items: unknown[] }).items]).toEqual([p, 200, []]);
        const dc = await rawRequest(host.port, 'DELETE', p);
        expect([p, dc.status, (dc.json() as { items: unknown[] }).items]).toEqual([p, 200, []]);
        const create = await send('POST', p, 'application/json', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
        expect(create.status, `${p}: ${create.body}`).toBeGreaterThanOrEqual(400);
        expect(create.status).toBeLessThan(500);
        expect(await storage.revision(), `${p} wrote`).toBe(before.revision);
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('a watch in such a namespace sees nothing of `default`', async () => {
    const r = await rawRequest(host.port, 'GET', '/api/v1/namespaces/%2e%2e/configmaps?watch=true&timeoutSeconds=1');
    expect(r.status).toBe(200);
    expect(r.body).toBe('');
  });
});

describe('other odd paths: NUL, empty segments, backslashes, dots elsewhere', () => {
  const notFound = (r: { status: number; json(): unknown }) => [r.status, (r.json() as { reason: string }).reason];

  it('a NUL name is an ordinary name that does not exist (404), for every verb', async () => {
    const before = await snapshot();
    // (a ClusterRole may be named NUL: RBAC names are only path segments, and a PUT creates it, as in the real server)
    for (const p of ['/api/v1/namespaces/default/configmaps/%00', '/api/v1/namespaces/%00']) {
      for (const v of VERBS) {
        if (v.verb === 'watch') continue; // a watch of one name streams: not a 404
        const body = v.body === 'object' ? { metadata: { name: '\u0000' } } : v.body === 'patch' ? {} : undefined;
        const r = await send(v.method, p, v.contentType, body);
        expect([p, v.verb, r.status], r.body).toEqual([p, v.verb, 404]);
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('empty segments (`//`) match no route: 404, nothing deleted', async () => {
    const before = await snapshot();
    for (const p of [
      '//api/v1/namespaces/default',
      '/api//v1/namespaces/default',
      '/api/v1//namespaces/default',
      '/api/v1/namespaces//default',
      '/api/v1/namespaces/default//configmaps/keep',
      '/api/v1/namespaces/default/configmaps//keep',
      '/api/v1/namespaces//configmaps',
      '/apis/rbac.authorization.k8s.io/v1//clusterroles/keep',
    ]) {
      for (const method of ['GET', 'DELETE']) {
        const r = await rawRequest(host.port, method, p);
        expect([method, p, ...notFound(r)]).toEqual([method, p, 404, 'NotFound']);
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('a trailing slash after a name addresses that name only', async () => {
    const r = await rawRequest(host.port, 'GET', '/api/v1/namespaces/default/configmaps/keep/');
    expect(r.status).toBe(200);
    expect((r.json() as { metadata: { name: string } }).metadata.name).toBe('keep');
  });

  it('a backslash is part of the segment (the URL parser made it a `/` and resolved `..`)', async () => {
    const before = await snapshot();
    for (const p of [
      '/api/v1/namespaces/default/configmaps/..\\..',
      '/api/v1/namespaces/default/configmaps/keep\\..',
      '/api/v1/namespaces/default/configmaps/x\\..\\..\\..',
      '/api/v1/namespaces/default\\..\\kube-system',
      '/apis/rbac.authorization.k8s.io/v1/clusterroles/..\\keep',
    ]) {
      for (const method of ['GET', 'DELETE']) {
        const r = await rawRequest(host.port, method, p);
        expect([method, p, ...notFound(r)]).toEqual([method, p, 404, 'NotFound']);
      }
    }
    const r = await rawRequest(host.port, 'DELETE', '/api/v1/namespaces/default/configmaps\\..');
    expect(notFound(r)).toEqual([404, 'NotFound']);
    expect(await snapshot()).toEqual(before);
  });

  it('dot segments in the group, version or resource position match no route', async () => {
    const before = await snapshot();
    for (const p of [
      '/api/v1/namespaces/default/%2e%2e/keep',
      '/api/v1/namespaces/default/configmaps/keep/%2e%2e',
      '/api/v1/namespaces/default/configmaps/keep/%2e%2e/%2e%2e',
      '/api/%2e%2e/namespaces/default',
      '/apis/apps/%2e%2e/namespaces/default/deployments/keep',
      '/api/v1/namespaces/default/pods/keep/status/%2e%2e',
    ]) {
      for (const method of ['GET', 'DELETE']) {
        const r = await rawRequest(host.port, method, p);
        expect([method, p, r.status]).toEqual([method, p, 404]);
      }
    }
    expect(await snapshot()).toEqual(before);
  });
});

describe('a name from the body is validated as the real server does (422, nothing stored)', () => {
  const invalid = (kind: string, name: string, msg: string) => `${kind} ${JSON.stringify(name)} is invalid: metadata.name: Invalid value: ${JSON.stringify(name)}: ${msg}`;
  const DNS_SUBDOMAIN =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
  const DNS_LABEL =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

  it('names that are path segments only (RBAC): `.`, `..`, `/` and `%` are refused with path-segment messages', async () => {
    const before = await snapshot();
    for (const [name, msg] of [
      ['.', "may not be '.'"],
      ['..', "may not be '..'"],
      ['a/b', "may not contain '/'"],
      ['a%b', "may not contain '%'"],
      ['../%', "may not contain '/', metadata.name: Invalid value: \"../%\": may not contain '%'"],
    ]) {
      const r = await send('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', 'application/json', {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name },
      });
      expect([name, r.status, (r.json() as { reason: string; message: string }).reason]).toEqual([name, 422, 'Invalid']);
      const message = (r.json() as { message: string }).message;
      if (name === '../%') expect(message).toBe(`ClusterRole.rbac.authorization.k8s.io "../%" is invalid: [metadata.name: Invalid value: "../%": ${msg}]`);
      else expect(message).toBe(invalid('ClusterRole.rbac.authorization.k8s.io', name, msg));
    }
    expect(await snapshot()).toEqual(before);
  });

  it('DNS names (ConfigMap, Namespace): the DNS message, for `..` and `a/b` alike', async () => {
    const before = await snapshot();
    for (const name of ['.', '..', 'a/b', 'a%b']) {
      const cm = await send('POST', '/api/v1/namespaces/default/configmaps', 'application/json', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
      expect([name, cm.status, (cm.json() as { message: string }).message]).toEqual([name, 422, invalid('ConfigMap', name, DNS_SUBDOMAIN)]);
      const ns = await send('POST', '/api/v1/namespaces', 'application/json', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
      expect([name, ns.status]).toEqual([name, 422]);
      expect((ns.json() as { message: string }).message).toContain(`metadata.name: Invalid value: ${JSON.stringify(name)}: ${name === '..' || name === '.' ? DNS_LABEL : ''}`);
    }
    expect(await snapshot()).toEqual(before);
  });
});
