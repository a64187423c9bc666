// Early answers (api-server.ts Engine.serveEarly): before an engine has loaded its state, a get by name of a
// built-in object by the admin is answered from that object's record alone. The answer must be the one the
// loaded engine gives, byte for byte (status, headers but the audit ID, body), in every encoding; every
// other request must be left to the start (undefined); the audit log must hold the early request as it
// would; and the start must not load a revision older than one an early answer read.
import { beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { createApiServer, type ApiServer } from '../server.js';
import { fakeEnv } from '../testing/harness.js';
import { builtinResources } from '../resources/index.js';
import { sampleObject } from '../resources/samples.js';
import { ClusterState, PartialStateError } from '../registry/state.js';
import type { ApiServerOptions } from '../server.js';
import type { Storage, StorageContents } from '../storage/interface.js';
import type { ResourceDefinition } from '../registry/types.js';

const NS = 'early';
/** A connection to a shared store: closing it leaves the store open for the next engine. */
function connection(s: Storage, over: Partial<Storage> = {}): Storage {
  return {
    revision: () => s.revision(),
    compactedRevision: () => s.compactedRevision(),
    get: (k) => s.get(k),
    list: (p) => s.list(p),
    write: (ops, t) => s.write(ops, t),
    events: (a) => s.events(a),
    readAll: () => s.readAll!(),
    readKeys: (keys) => s.readKeys!(keys),
    compact: (t) => s.compact(t),
    close: async () => undefined,
    ...over,
  };
}
const opts = (storage: Storage, more: Partial<ApiServerOptions> = {}): ApiServerOptions => ({ storage: connection(storage), env: fakeEnv(), host: 'service-worker', controllers: [], ...more });

function collection(def: ResourceDefinition): string {
  const base = def.group ? `/apis/${def.group}/${def.version}` : `/api/${def.version}`;
  return `${base}${def.namespaced ? `/namespaces/${NS}` : ''}/${def.plural}`;
}

const request = (path: string, init: RequestInit = {}) => new Request(`http://127.0.0.1${path}`, init);

/** A response as the client sees it, without the audit ID (a new one per request). */
async function seen(res: Response): Promise<{ status: number; headers: [string, string][]; body: string }> {
  const headers = [...res.headers].filter(([k]) => k !== 'audit-id');
  return { status: res.status, headers, body: Buffer.from(await res.arrayBuffer()).toString('base64') };
}

// the kinds of groups without a dot (the ones early answers serve), one object each
const kinds = builtinResources.filter((d) => !d.group.includes('.') && !d.computed && d.verbs.includes('get') && d.verbs.includes('create'));
const storage = createMemoryStorage();
const created: string[] = [];
let loaded: ApiServer;

beforeAll(async () => {
  const first = createApiServer(opts(storage));
  await first.ready;
  const post = (path: string, body: unknown) => first.handle(request(path, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }));
  expect((await post('/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
  for (const def of kinds) {
    const body = sampleObject(def, `e-${def.version}`, NS);
    if (!body) continue;
    const res = await post(collection(def), body);
    if (res.status === 201) created.push(`${collection(def)}/e-${def.version}`);
  }
  await first.close();
  // the engine that has loaded: what every early answer must equal
  loaded = createApiServer(opts(storage));
  await loaded.ready;
}, 60_000);

/** An early answer of an engine started now over the shared storage, then that engine closed. */
async function early(req: () => Request, more: Partial<ApiServerOptions> = {}): Promise<Response | undefined> {
  const api = createApiServer(opts(storage, more));
  const res = await api.handleEarly(req());
  await api.close();
  return res;
}

describe('early answers equal the loaded engine', () => {
  it('covers the kinds', () => {
    expect(created.length).toBeGreaterThan(20);
    expect(created).toContain(`/api/v1/namespaces/${NS}/configmaps/e-v1`);
  });

  const variants: [string, string, Record<string, string>][] = [
    ['json', '', {}],
    ['pretty', '?pretty=true', {}],
    ['browser (pretty by User-Agent)', '', { 'User-Agent': 'Mozilla/5.0 (X11)' }],
    ['yaml', '', { Accept: 'application/yaml' }],
    ['protobuf', '', { Accept: 'application/vnd.kubernetes.protobuf' }],
    ['table', '', { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' }],
    ['metadata', '', { Accept: 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io' }],
    ['not acceptable', '', { Accept: 'text/csv' }],
    ['resourceVersion empty', '?resourceVersion=', {}],
  ];
  for (const [name, query, headers] of variants) {
    it(`every kind, ${name}`, async () => {
      for (const path of created) {
        const got = await early(() => request(path + query, { headers }));
        expect(got, path).toBeDefined();
        expect(await seen(got!), path).toEqual(await seen(await loaded.handle(request(path + query, { headers }))));
      }
    });
  }

  it('a name with no object, a namespace with none', async () => {
    for (const path of [`/api/v1/namespaces/${NS}/configmaps/absent`, `/api/v1/namespaces/${NS}/secrets/absent`, '/api/v1/namespaces/absent', '/api/v1/namespaces/absent/pods/e-v1']) {
      const got = await early(() => request(path));
      expect(got, path).toBeDefined();
      expect(await seen(got!), path).toEqual(await seen(await loaded.handle(request(path))));
    }
  });

  it('an undecodable record (the storage layer\'s error), and an object deleted', async () => {
    const post = (path: string, body: unknown) => loaded.handle(request(path, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }));
    expect((await post(`/api/v1/namespaces/${NS}/configmaps`, { metadata: { name: 'broken' } })).status).toBe(201);
    expect((await post(`/api/v1/namespaces/${NS}/configmaps`, { metadata: { name: 'gone' } })).status).toBe(201);
    expect((await loaded.handle(request(`/x-playground/corrupt?path=/api/v1/namespaces/${NS}/configmaps/broken`, { method: 'POST' }))).status).toBe(200);
    expect((await loaded.handle(request(`/api/v1/namespaces/${NS}/configmaps/gone`, { method: 'DELETE' }))).status).toBe(200);
    for (const name of ['broken', 'gone']) {
      const path = `/api/v1/namespaces/${NS}/configmaps/${name}`;
      const got = await early(() => request(path));
      expect(got, path).toBeDefined();
      const want = await loaded.handle(request(path));
      expect(want.status).toBe(name === 'broken' ? 500 : 404);
      expect(await seen(got!), path).toEqual(await seen(want));
    }
  });

  it('a resource turned off by runtime-config is not found, as on the loaded engine', async () => {
    const more = { runtimeConfig: { 'batch/v1': 'false' } };
    const path = `/apis/batch/v1/namespaces/${NS}/jobs/e-v1`;
    expect(created).toContain(path);
    const off = createApiServer(opts(storage, more));
    await off.ready;
    const got = await early(() => request(path), more);
    expect(got).toBeDefined();
    expect(await seen(got!)).toEqual(await seen(await off.handle(request(path))));
    expect(got!.status).toBe(404);
    await off.close();
  });

  it('is audited as the loaded engine audits it (the cluster\'s stored audit policy)', async () => {
    const path = `/api/v1/namespaces/${NS}/configmaps/e-v1`;
    const policy = 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: RequestResponse\n';
    const put = await loaded.handle(request('/x-playground/settings', { method: 'PUT', body: JSON.stringify({ auditPolicy: policy }), headers: { 'Content-Type': 'application/json' } }));
    expect(put.status).toBe(200);
    const api = createApiServer(opts(storage));
    expect(await api.handleEarly(request(path))).toBeDefined();
    await api.ready;
    expect(await api.handleEarly(request(path))).toBeUndefined(); // ready: the caller serves it
    const eventOf = async (s: ApiServer) => {
      const events = (await (await s.handle(request('/x-playground/audit'))).json()) as { items: Record<string, unknown>[] };
      const e = events.items.filter((i) => i.requestURI === path).at(-1)!;
      const { auditID, requestReceivedTimestamp, stageTimestamp, ...rest } = e;
      expect(auditID).toBeTruthy();
      return rest;
    };
    expect(await loaded.handle(request(path))).toBeDefined();
    expect(await eventOf(api)).toEqual(await eventOf(loaded));
    await api.close();
  });
});

describe('what early answers leave to the start', () => {
  const cm = `/api/v1/namespaces/${NS}/configmaps/e-v1`;
  const cases: [string, () => Request][] = [
    ['a list', () => request(`/api/v1/namespaces/${NS}/configmaps`)],
    ['a watch', () => request(`${cm.replace(/\/e-v1$/, '')}?watch=true&fieldSelector=metadata.name%3De-v1`)],
    ['a legacy watch path', () => request(`/api/v1/watch/namespaces/${NS}/configmaps/e-v1`)],
    ['a get at a resourceVersion', () => request(`${cm}?resourceVersion=1`)],
    ['a get at resourceVersion 0', () => request(`${cm}?resourceVersion=0`)],
    ['a status subresource', () => request(`/api/v1/namespaces/${NS}/pods/e-v1/status`)],
    ['a HEAD', () => request(cm, { method: 'HEAD' })],
    ['a write', () => request(cm, { method: 'DELETE' })],
    ['a bearer token', () => request(cm, { headers: { Authorization: 'Bearer abc' } })],
    ['impersonation', () => request(cm, { headers: { 'Impersonate-User': 'jane' } })],
    ['impersonation of extra only', () => request(cm, { headers: { 'Impersonate-Extra-Scope': 'x' } })],
    ['an RBAC object (the start reconciles them)', () => request('/apis/rbac.authorization.k8s.io/v1/clusterroles/admin')],
    ['a group with a dot (a CRD may serve it)', () => request(`/apis/networking.k8s.io/v1/namespaces/${NS}/ingresses/e-v1`)],
    ['the root CA ConfigMap (the start publishes it)', () => request(`/api/v1/namespaces/${NS}/configmaps/kube-root-ca.crt`)],
    ['a computed resource', () => request('/api/v1/componentstatuses/etcd-0')],
    ['a non-resource path', () => request('/version')],
    ['discovery', () => request('/api/v1')],
    ['an invalid name', () => request(`/api/v1/namespaces/${NS}/configmaps/a%25b`)],
    ['a path outside the base', () => request('/elsewhere/api/v1/namespaces/early/configmaps/e-v1')],
  ];
  for (const [name, req] of cases) {
    it(name, async () => {
      expect(await early(req)).toBeUndefined();
    });
  }

  it('every request of a cluster whose anonymous requests are not the admin', async () => {
    expect(await early(() => request(cm), { auth: { anonymous: true } })).toBeUndefined();
  });

  it('every request of an empty store (the start seeds it)', async () => {
    const api = createApiServer(opts(createMemoryStorage()));
    expect(await api.handleEarly(request(cm))).toBeUndefined();
    await api.close();
  });

  it('every request of a storage without readKeys', async () => {
    const api = createApiServer({ ...opts(storage), storage: connection(storage, { readKeys: undefined }) });
    expect(await api.handleEarly(request(cm))).toBeUndefined();
    await api.close();
  });
});

describe('the start after an early answer', () => {
  it('loads again when an early answer read a newer revision than its load (another engine wrote in between)', async () => {
    const shared = createMemoryStorage();
    const seedEngine = createApiServer(opts(shared));
    await seedEngine.ready;
    await seedEngine.close();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let loads = 0;
    const held = connection(shared, {
      readAll: async (): Promise<StorageContents> => {
        const all = await shared.readAll!();
        if (++loads === 1) await gate; // the first load's snapshot is taken, then held
        return all;
      },
    });
    const api = createApiServer({ ...opts(shared), storage: held });
    while (loads === 0) await new Promise((r) => setImmediate(r));
    // another engine of the database writes after the load's snapshot
    const other = createApiServer(opts(shared));
    await other.ready;
    const post = await other.handle(request('/api/v1/namespaces/default/configmaps', { method: 'POST', body: JSON.stringify({ metadata: { name: 'late' } }), headers: { 'Content-Type': 'application/json' } }));
    expect(post.status).toBe(201);
    const rv = Number(((await post.json()) as { metadata: { resourceVersion: string } }).metadata.resourceVersion);
    const got = await api.handleEarly(request('/api/v1/namespaces/default/configmaps/late'));
    expect(got?.status).toBe(200);
    release();
    await api.ready;
    expect(loads).toBe(2);
    expect(api.engine.store.state.revision).toBeGreaterThanOrEqual(rv);
    expect((await api.handle(request('/api/v1/namespaces/default/configmaps/late'))).status).toBe(200);
    await other.close();
    await api.close();
  });
});

describe('ClusterState.partial', () => {
  it('holds the keys read and refuses everything else', async () => {
    const s = ClusterState.partial(storage, ['/core/configmaps/a/x', '/core/configmaps/a/y'], {
      revision: 7,
      compactedRevision: 2,
      objects: [{ key: '/core/configmaps/a/x', revision: 5, object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'a', resourceVersion: '5' } } }],
    });
    expect(s.revision).toBe(7);
    expect(s.compactedRevision).toBe(2);
    expect(s.get('/core/configmaps/a/x')?.revision).toBe(5);
    expect(s.get('/core/configmaps/a/y')).toBeUndefined();
    expect(s.unreadable('/core/configmaps/a/y')).toBeUndefined();
    expect(s.missed).toBeUndefined();
    expect(() => s.get('/core/configmaps/a/z')).toThrow(PartialStateError);
    expect(s.missed).toBe('key /core/configmaps/a/z');
    expect(() => s.list('/core/configmaps/a/')).toThrow(PartialStateError);
    expect(() => s.listAt('/core/configmaps/a/', 6)).toThrow(PartialStateError);
    expect(() => s.eventsAfter(3)).toThrow(PartialStateError);
    expect(() => s.unreadableUnder('/core/')).toThrow(PartialStateError);
    expect(() => s.subscribe(() => undefined)).toThrow(PartialStateError);
    await expect(s.commit([], 0)).rejects.toThrow(PartialStateError);
    await expect(s.exclusive(async () => 1)).rejects.toThrow(PartialStateError);
    expect(s.missed).toBe('key /core/configmaps/a/z');
  });
});
