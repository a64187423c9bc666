// The API surface on the wire: deprecation warnings, /metrics, the legacy watch paths, and the objects a
// fresh cluster starts with.
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../testing/harness.js';
import { goFloat, REQUEST_DURATION_BUCKETS } from './metrics.js';

let c: TestClient;
beforeEach(async () => {
  c = await testClient(createMemoryStorage());
});

const EP_WARNING = '299 - "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice"';
const EP = '/api/v1/namespaces/default/endpoints';
const endpoints = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Endpoints',
  metadata: { name },
  subsets: [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80 }] }],
  ...extra,
});

// ---------------------------------------------------------------------------------------------------
// helpers

interface Watch {
  res: Response;
  take(n: number): Promise<any[]>;
  close(): void;
}

async function watch(path: string): Promise<Watch> {
  const ac = new AbortController();
  const res = await c.server.handle(new Request(`http://127.0.0.1${path}`, { signal: ac.signal }));
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let buf = '';
  const queue: any[] = [];
  return {
    res,
    async take(n) {
      const deadline = Date.now() + 2000;
      while (queue.length < n) {
        if (Date.now() > deadline) throw new Error(`timed out; got ${JSON.stringify(queue)}`);
        const r = await Promise.race([reader.read(), new Promise<never>((_, rej) => setTimeout(() => rej(new Error(`timed out; got ${JSON.stringify(queue)}`)), 2000))]);
        if (r.done) throw new Error(`stream ended with ${JSON.stringify(queue)}`);
        buf += dec.decode(r.value, { stream: true });
        let i: number;
        while ((i = buf.indexOf('\n')) >= 0) {
          queue.push(JSON.parse(buf.slice(0, i)));
          buf = buf.slice(i + 1);
        }
      }
      return queue.splice(0, n);
    },
    close: () => {
      ac.abort();
      void reader.cancel().catch(() => undefined);
    },
  };
}

/** The samples of a Prometheus text exposition: name, labels, value; plus the TYPE of each family. */
function parseMetrics(text: string): { types: Record<string, string>; samples: { name: string; labels: Record<string, string>; value: string }[] } {
  const types: Record<string, string> = {};
  const samples: { name: string; labels: Record<string, string>; value: string }[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const t = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (t) {
      types[t[1]] = t[2];
      continue;
    }
    if (line.startsWith('# HELP ')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    const names: string[] = [];
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/g)) {
      labels[l[1]] = l[2];
      names.push(l[1]);
    }
    // the label names of a sample are written sorted (le last on buckets)
    const plain = names.filter((n) => n !== 'le');
    expect(plain).toEqual([...plain].sort());
    samples.push({ name: m[1], labels, value: m[3] });
  }
  return { types, samples };
}

async function metrics() {
  const r = await c.raw('GET', '/metrics');
  expect(r.status).toBe(200);
  expect(r.headers.get('Content-Type')).toBe('text/plain; version=0.0.4; charset=utf-8; escaping=underscores');
  return parseMetrics(await r.text());
}

const REQUEST_LABELS = ['code', 'component', 'dry_run', 'group', 'resource', 'scope', 'subresource', 'verb', 'version'];

// ---------------------------------------------------------------------------------------------------

describe('deprecated endpoints', () => {
  it('core/v1 Endpoints answers every verb with the real warning, errors included', async () => {
    const seen: (string | null)[] = [];
    const w = await watch(`${EP}?watch=true`);
    seen.push(w.res.headers.get('Warning'));
    w.close();
    const created = await c.req('POST', EP, endpoints('a'));
    expect(created.status).toBe(201);
    seen.push(created.headers.get('Warning'));
    const got = await c.req('GET', `${EP}/a`);
    seen.push(got.headers.get('Warning'));
    seen.push((await c.req('GET', EP)).headers.get('Warning'));
    seen.push((await c.req('GET', '/api/v1/endpoints')).headers.get('Warning'));
    seen.push((await c.req('PUT', `${EP}/a`, got.body)).headers.get('Warning'));
    const patched = await c.req('PATCH', `${EP}/a`, { metadata: { labels: { x: 'y' } } }, { 'Content-Type': 'application/merge-patch+json' });
    expect(patched.status).toBe(200);
    seen.push(patched.headers.get('Warning'));
    const applied = await c.req('PATCH', `${EP}/b?fieldManager=t`, endpoints('b'), { 'Content-Type': 'application/apply-patch+yaml' });
    expect(applied.status).toBe(201);
    seen.push(applied.headers.get('Warning'));
    seen.push((await c.req('DELETE', `${EP}/a`)).headers.get('Warning'));
    seen.push((await c.req('DELETE', EP)).headers.get('Warning'));
    const missing = await c.req('GET', `${EP}/nope`);
    expect(missing.status).toBe(404);
    seen.push(missing.headers.get('Warning'));
    const badName = await c.req('GET', `${EP}/a%25b`);
    expect(badName.status).toBe(400);
    seen.push(badName.headers.get('Warning'));
    expect(seen).toEqual(seen.map(() => EP_WARNING));
  });

  it('the deprecation warning comes before the warnings of the handler', async () => {
    const r = await c.req('POST', `${EP}?fieldValidation=Warn`, endpoints('a', { bogus: 1 }));
    expect(r.status).toBe(201);
    expect(r.headers.get('Warning')).toBe(`${EP_WARNING}, 299 - "unknown field \\"bogus\\""`);
  });

  it('no other served built-in resource warns (v1.33 marks only Endpoints and ComponentStatus among them)', async () => {
    const defs = c.server.engine.registry.all().filter((d) => !(d as { custom?: boolean }).custom && d.verbs.includes('list'));
    expect(defs.length).toBeGreaterThan(30);
    const expected: Record<string, string> = {
      endpoints: EP_WARNING,
      componentstatuses: '299 - "v1 ComponentStatus is deprecated in v1.19+"',
    };
    for (const d of defs) {
      const base = d.group ? `/apis/${d.group}/${d.version}` : `/api/${d.version}`;
      const r = await c.req('GET', `${base}/${d.plural}`);
      expect(r.status, d.plural).toBe(200);
      expect(r.headers.get('Warning'), `${d.group}/${d.version} ${d.plural}`).toBe((!d.group && expected[d.plural]) || null);
    }
  });

});

describe('GET /metrics', () => {
  it('counts requests per route and code with the real labels', async () => {
    await c.req('POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } });
    await c.req('POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } });
    await c.req('GET', '/api/v1/namespaces/default/configmaps/a');
    await c.req('GET', '/api/v1/namespaces/default/configmaps');
    await c.req('GET', '/api/v1/configmaps');
    await c.req('POST', '/api/v1/namespaces/default/configmaps?dryRun=All', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b' } });
    await c.req('PATCH', '/apis/apps/v1/namespaces/default/deployments/d?fieldManager=m', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' } }, { 'Content-Type': 'application/apply-patch+yaml' }); // 422: no spec
    await c.req('GET', '/api/v1/nodes/n1');
    await c.req('GET', '/version');
    await c.req('GET', '/api/v1/widgets');
    const { types, samples } = await metrics();
    expect(types).toMatchObject({
      apiserver_request_total: 'counter',
      apiserver_request_duration_seconds: 'histogram',
      apiserver_validation_declarative_validation_mismatch_total: 'counter',
    });
    // registered from the start, as in v1.33; no declarative validation here, so it never counts
    expect(samples.filter((s) => s.name === 'apiserver_validation_declarative_validation_mismatch_total')).toEqual([
      { name: 'apiserver_validation_declarative_validation_mismatch_total', labels: {}, value: '0' },
    ]);
    const totals = samples.filter((s) => s.name === 'apiserver_request_total');
    for (const s of totals) expect(Object.keys(s.labels)).toEqual(REQUEST_LABELS);
    const row = (verb: string, resource: string, scope: string, code: string, group = '', dryRun = '') =>
      ({ name: 'apiserver_request_total', labels: { code, component: 'apiserver', dry_run: dryRun, group, resource, scope, subresource: '', verb, version: 'v1' }, value: '1' });
    expect(totals).toEqual(
      expect.arrayContaining([
        row('POST', 'configmaps', 'resource', '201'),
        row('POST', 'configmaps', 'resource', '409'),
        row('POST', 'configmaps', 'resource', '201', '', 'All'),
        row('GET', 'configmaps', 'resource', '200'),
        row('LIST', 'configmaps', 'namespace', '200'),
        row('LIST', 'configmaps', 'cluster', '200'),
        row('APPLY', 'deployments', 'resource', '422', 'apps'),
        row('GET', 'nodes', 'resource', '404'),
      ]),
    );
    // non-resource paths and paths with no route are not counted
    expect(totals).toHaveLength(8);
    expect(samples.some((s) => s.name === 'apiserver_requested_deprecated_apis')).toBe(false);
  });

  it('measures durations on the injected clock, a watch until its stream ends', async () => {
    const w = await watch('/api/v1/namespaces/default/configmaps?watch=true');
    await c.env.advance(2500);
    w.close();
    await new Promise((r) => setTimeout(r, 10));
    await c.req('GET', '/api/v1/namespaces/default/configmaps');
    const { samples } = await metrics();
    const labels = { component: 'apiserver', dry_run: '', group: '', resource: 'configmaps', scope: 'namespace', subresource: '', version: 'v1' };
    const series = (verb: string) => samples.filter((s) => s.name.startsWith('apiserver_request_duration_seconds') && s.labels.verb === verb && s.labels.resource === 'configmaps' && s.labels.scope === 'namespace');
    const watchSeries = series('WATCH');
    const buckets = watchSeries.filter((s) => s.name === 'apiserver_request_duration_seconds_bucket');
    expect(buckets.map((b) => b.labels.le)).toEqual([...REQUEST_DURATION_BUCKETS.map(goFloat), '+Inf']);
    expect(buckets.map((b) => b.labels.le)).toEqual(['0.005', '0.025', '0.05', '0.1', '0.2', '0.4', '0.6', '0.8', '1', '1.25', '1.5', '2', '3', '4', '5', '6', '8', '10', '15', '20', '30', '45', '60', '+Inf']);
    expect(buckets.map((b) => b.value)).toEqual([...Array(12).fill('0'), ...Array(12).fill('1')]);
    for (const b of buckets) expect(b.labels).toEqual({ ...labels, verb: 'WATCH', le: b.labels.le });
    expect(watchSeries.find((s) => s.name === 'apiserver_request_duration_seconds_sum')).toEqual({ name: 'apiserver_request_duration_seconds_sum', labels: { ...labels, verb: 'WATCH' }, value: '2.5' });
    expect(watchSeries.find((s) => s.name === 'apiserver_request_duration_seconds_count')?.value).toBe('1');
    // a request that took no time on the clock lands in the first bucket
    const list = series('LIST').filter((s) => s.name === 'apiserver_request_duration_seconds_bucket');
    expect(list.every((b) => b.value === '1')).toBe(true);
    expect(series('LIST').find((s) => s.name === 'apiserver_request_duration_seconds_sum')?.value).toBe('0');
    expect(samples.find((s) => s.name === 'apiserver_request_total' && s.labels.verb === 'WATCH')?.labels.code).toBe('200');
  });

  it('sets apiserver_requested_deprecated_apis with its five labels once Endpoints is requested', async () => {
    await c.req('GET', EP);
    await c.req('GET', `${EP}/x`);
    const { types, samples } = await metrics();
    expect(types.apiserver_requested_deprecated_apis).toBe('gauge');
    expect(samples.filter((s) => s.name === 'apiserver_requested_deprecated_apis')).toEqual([
      { name: 'apiserver_requested_deprecated_apis', labels: { group: '', removed_release: '', resource: 'endpoints', subresource: '', version: 'v1' }, value: '1' },
    ]);
  });

  it('formats sample values as Go does', () => {
    expect([0, 1, 2.5, 0.005, 123456, 1e6, 1234567, 0.0001, 0.00001, Infinity].map(goFloat)).toEqual(['0', '1', '2.5', '0.005', '123456', '1e+06', '1.234567e+06', '0.0001', '1e-05', '+Inf']);
  });
});

describe('legacy watch paths', () => {
  const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { t: '1' } }, data: { a: '1' } });

  it('namespaced, all-namespace and named watches of the core group', async () => {
    await c.req('POST', '/api/v1/namespaces/default/configmaps', cm('a'));
    // (the selector leaves out the kube-root-ca.crt ConfigMaps every namespace has)
    const ns = await watch('/api/v1/watch/namespaces/default/configmaps?labelSelector=t%3D1');
    const all = await watch('/api/v1/watch/configmaps?labelSelector=t%3D1');
    const named = await watch('/api/v1/watch/namespaces/default/configmaps/b');
    for (const w of [ns, all, named]) {
      expect(w.res.status).toBe(200);
      expect(w.res.headers.get('Content-Type')).toBe('application/json');
    }
    expect((await ns.take(1)).map((e) => [e.type, e.object.metadata.name])).toEqual([['ADDED', 'a']]);
    expect((await all.take(1)).map((e) => [e.type, e.object.metadata.name])).toEqual([['ADDED', 'a']]);
    await c.req('POST', '/api/v1/namespaces/default/configmaps', cm('b'));
    expect((await ns.take(1)).map((e) => [e.type, e.object.metadata.name])).toEqual([['ADDED', 'b']]);
    expect((await all.take(1)).map((e) => [e.type, e.object.metadata.name])).toEqual([['ADDED', 'b']]);
    const ev = (await named.take(1))[0];
    expect([ev.type, ev.object.kind, ev.object.metadata.name]).toEqual(['ADDED', 'ConfigMap', 'b']);
    for (const w of [ns, all, named]) w.close();
  });

  it('named groups, cluster-scoped kinds and namespaces themselves', async () => {
    const deps = await watch('/apis/apps/v1/watch/namespaces/default/deployments');
    const nodes = await watch('/api/v1/watch/nodes');
    const nsNamed = await watch('/api/v1/watch/namespaces/kube-public');
    await c.req('POST', '/apis/apps/v1/namespaces/default/deployments', {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
    });
    await c.req('POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } });
    expect((await deps.take(1)).map((e) => [e.type, e.object.metadata.name])).toEqual([['ADDED', 'd']]);
    expect((await nodes.take(1)).map((e) => [e.type, e.object.metadata.name])).toEqual([['ADDED', 'n1']]);
    expect((await nsNamed.take(1)).map((e) => [e.type, e.object.metadata.name])).toEqual([['ADDED', 'kube-public']]);
    for (const w of [deps, nodes, nsNamed]) w.close();
  });

  it('is a watch whatever the query says, carries the deprecation warning and counts as WATCH', async () => {
    const w = await watch('/api/v1/watch/namespaces/default/endpoints?watch=false');
    expect(w.res.headers.get('Warning')).toBe(EP_WARNING);
    await c.req('POST', EP, endpoints('a'));
    expect((await w.take(1)).map((e) => e.type)).toEqual(['ADDED']);
    w.close();
    await new Promise((r) => setTimeout(r, 10));
    const { samples } = await metrics();
    expect(samples.filter((s) => s.name === 'apiserver_request_total' && s.labels.resource === 'endpoints').map((s) => [s.labels.verb, s.labels.scope])).toEqual([
      ['WATCH', 'namespace'], // series sorted by label values, code first: 200 before 201
      ['POST', 'resource'],
    ]);
  });

  it('has no routes for other methods, subresources or namespaced names outside a namespace', async () => {
    const notFound = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', details: {}, code: 404 };
    expect((await c.req('GET', '/api/v1/watch/namespaces/default/pods/x/status')).body).toEqual(notFound);
    expect((await c.req('GET', '/api/v1/watch/pods/x')).body).toEqual(notFound);
    expect((await c.req('GET', '/api/v1/watch')).status).toBe(404);
    const post = await c.req('POST', '/api/v1/watch/namespaces/default/configmaps', cm('a'));
    expect(post.status).toBe(405);
    expect(post.body.reason).toBe('MethodNotAllowed');
  });
});

describe('default objects of a fresh cluster', () => {
  const ROOT_CA_DESCRIPTION =
    'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';

  async function rootCaNamespaces(client: TestClient): Promise<string[]> {
    const r = await client.req('GET', '/api/v1/configmaps?fieldSelector=metadata.name%3Dkube-root-ca.crt');
    return r.body.items.map((i: any) => i.metadata.namespace);
  }

  async function eventually<T>(fn: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
    let v = await fn();
    for (let i = 0; i < 50 && !ok(v); i++) {
      await new Promise((r) => setTimeout(r, 10));
      v = await fn();
    }
    return v;
  }

  it('the kubernetes Service in default, as the apiserver writes it', async () => {
    const r = await c.req('GET', '/api/v1/namespaces/default/services/kubernetes');
    expect(r.status).toBe(200);
    const { uid, resourceVersion, creationTimestamp, managedFields, ...meta } = r.body.metadata;
    expect([typeof uid, typeof resourceVersion, creationTimestamp]).toEqual(['string', 'string', '2025-01-01T00:00:00Z']);
    expect(meta).toEqual({ name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } });
    expect(managedFields.map((m: any) => [m.manager, m.operation])).toEqual([['kube-apiserver', 'Update']]);
    expect(r.body.spec).toEqual({
      ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: 6443 }],
      clusterIP: '10.96.0.1',
      clusterIPs: ['10.96.0.1'],
      type: 'ClusterIP',
      sessionAffinity: 'None',
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      internalTrafficPolicy: 'Cluster',
    });
    expect(r.body.status).toEqual({ loadBalancer: {} });
    // its address is taken: a Service asking for it is refused
    const taken = await c.req('POST', '/api/v1/namespaces/default/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { clusterIP: '10.96.0.1', ports: [{ port: 80 }] } });
    expect(taken.status).toBe(422);
  });

  it('its Endpoints and EndpointSlice, as the endpoint reconciler writes them', async () => {
    const ep = await c.req('GET', '/api/v1/namespaces/default/endpoints/kubernetes');
    expect(ep.status).toBe(200);
    expect(ep.headers.get('Warning')).toBe(EP_WARNING);
    expect(ep.body.metadata.labels).toEqual({ 'endpointslice.kubernetes.io/skip-mirror': 'true' });
    expect(ep.body.subsets).toEqual([{ addresses: [{ ip: '172.18.0.2' }], ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] }]);
    const slice = await c.req('GET', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes');
    expect(slice.status).toBe(200);
    expect(slice.body.metadata.labels).toEqual({ 'kubernetes.io/service-name': 'kubernetes' });
    expect(slice.body.addressType).toBe('IPv4');
    expect(slice.body.endpoints).toEqual([{ addresses: ['172.18.0.2'], conditions: { ready: true } }]);
    expect(slice.body.ports).toEqual([{ name: 'https', port: 6443, protocol: 'TCP' }]);
  });

  it('the system PriorityClasses with their real values and descriptions', async () => {
    const r = await c.req('GET', '/apis/scheduling.k8s.io/v1/priorityclasses');
    expect(r.body.items.map((p: any) => [p.metadata.name, p.value, p.description, p.preemptionPolicy, p.globalDefault])).toEqual([
      ['system-cluster-critical', 2000000000, 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.', 'PreemptLowerPriority', undefined],
      ['system-node-critical', 2000001000, 'Used for system critical pods that must not be moved from their current node.', 'PreemptLowerPriority', undefined],
    ]);
    for (const p of r.body.items) expect(p.metadata.managedFields[0].fieldsV1).toEqual({ 'f:description': {}, 'f:preemptionPolicy': {}, 'f:value': {} });
  });

  it('kube-root-ca.crt in every namespace, new ones included, recreated when deleted', async () => {
    expect(await rootCaNamespaces(c)).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    const cm = await c.req('GET', '/api/v1/namespaces/default/configmaps/kube-root-ca.crt');
    expect(cm.body.metadata.annotations).toEqual({ 'kubernetes.io/description': ROOT_CA_DESCRIPTION });
    expect(cm.body.metadata.managedFields.map((m: any) => m.manager)).toEqual(['kube-controller-manager']);
    expect(Object.keys(cm.body.data)).toEqual(['ca.crt']);
    const pem: string = cm.body.data['ca.crt'];
    expect(pem).toMatch(/^-----BEGIN CERTIFICATE-----\n([A-Za-z0-9+/=]{1,64}\n)+-----END CERTIFICATE-----\n$/);
    expect(atob(pem.split('\n').slice(1, -2).join(''))).toContain('placeholder');

    await c.req('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } });
    expect(await eventually(() => rootCaNamespaces(c), (n) => n.includes('team-a'))).toContain('team-a');
    const mine = await c.req('GET', '/api/v1/namespaces/team-a/configmaps/kube-root-ca.crt');
    expect(mine.body.data).toEqual({ 'ca.crt': pem });

    expect((await c.req('DELETE', '/api/v1/namespaces/team-a/configmaps/kube-root-ca.crt')).status).toBe(200);
    const back = await eventually(() => c.req('GET', '/api/v1/namespaces/team-a/configmaps/kube-root-ca.crt'), (r) => r.status === 200);
    expect(back.status).toBe(200);
    expect(back.body.metadata.uid).not.toBe(mine.body.metadata.uid);
  });

  it('a restart over the same storage keeps them once each; a fresh cluster starts at revision 38', async () => {
    const storage = createMemoryStorage();
    const first = await testClient(storage);
    const rv = (await first.req('GET', '/api/v1/namespaces')).body.metadata.resourceVersion;
    // 4 namespaces, 2 PriorityClasses, Service, Endpoints, EndpointSlice, 20 Local APIServices, 2 FlowSchemas,
    // 2 PriorityLevelConfigurations, the ServiceCIDR, 4 root-CA ConfigMaps
    expect(rv).toBe('38');
    const snapshot = async (client: TestClient) => ({
      services: (await client.req('GET', '/api/v1/services')).body.items.map((i: any) => [i.metadata.namespace, i.metadata.name, i.metadata.uid]),
      endpoints: (await client.req('GET', '/api/v1/endpoints')).body.items.map((i: any) => [i.metadata.namespace, i.metadata.name, i.metadata.uid]),
      slices: (await client.req('GET', '/apis/discovery.k8s.io/v1/endpointslices')).body.items.map((i: any) => [i.metadata.namespace, i.metadata.name, i.metadata.uid]),
      classes: (await client.req('GET', '/apis/scheduling.k8s.io/v1/priorityclasses')).body.items.map((i: any) => [i.metadata.name, i.metadata.uid]),
      configmaps: (await client.req('GET', '/api/v1/configmaps')).body.items.map((i: any) => [i.metadata.namespace, i.metadata.name, i.metadata.uid]),
    });
    const before = await snapshot(first);
    expect(before.configmaps).toHaveLength(4);
    // stop without closing the storage (a reload of the service worker), then start over the same data
    const second = await testClient(storage);
    expect(await snapshot(second)).toEqual(before);
    expect((await second.req('GET', '/api/v1/namespaces')).body.metadata.resourceVersion).toBe('38');
  });
});
