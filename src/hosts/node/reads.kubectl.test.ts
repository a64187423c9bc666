// Real kubectl 1.33 against the Node host: reads (issue 3). Requests are counted at the host so that
// chunking is checked on the wire, not assumed from the output.
import { request as httpRequest } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKubectlEnv, type KubectlEnv } from './kubectl.js';
import { kubectlSuite } from './kubectl-suite.js';
import { until } from '../../engine/testing/wait.js';

const { found, suite } = kubectlSuite();

function cmYaml(name: string, labels: Record<string, string>, data: Record<string, string>): string {
  const lines = ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', `  name: ${name}`, '  labels:'];
  for (const [k, v] of Object.entries(labels)) lines.push(`    ${k}: ${v}`);
  lines.push('data:');
  for (const [k, v] of Object.entries(data)) lines.push(`  ${k}: "${v}"`);
  return lines.join('\n') + '\n';
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

suite('kubectl (reads)', () => {
  let k: KubectlEnv;
  const seen: string[] = [];
  beforeAll(async () => {
    k = await startKubectlEnv(found.path!);
    k.host.server.on('request', (req) => seen.push(`${req.method} ${req.url}`));
    const docs = ['a', 'b', 'c', 'd', 'e'].map((n) =>
      ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', `  name: ${n}`, '  labels:', `    app: ${n < 'c' ? 'web' : 'db'}`, 'data:', `  k: "${n}"`].join('\n'),
    );
    await k.kubectl(['create', '--validate=false', '-f', '-'], { input: docs.join('\n---\n') + '\n' });
  });
  afterAll(async () => {
    await k?.close();
  });

  it('get --chunk-size=2 really asks in chunks of 2 and prints one table', async () => {
    seen.length = 0;
    const { stdout } = await k.kubectl(['get', 'configmaps', '--chunk-size=2']);
    expect(stdout).toMatch(/^NAME\s+DATA\s+AGE\na\s+1\s+\d+s\nb\s+1\s+\d+s\nc\s+1\s+\d+s\nd\s+1\s+\d+s\ne\s+1\s+\d+s\nkube-root-ca\.crt\s+1\s+\d+s\n$/);
    const lists = seen.filter((s) => s.startsWith('GET /api/v1/namespaces/default/configmaps?'));
    expect(lists).toHaveLength(3);
    expect(lists[0]).toMatch(/[?&]limit=2(&|$)/);
    expect(lists[0]).not.toContain('continue=');
    expect(lists[1]).toMatch(/[?&]continue=[A-Za-z0-9_-]+/);
    expect(lists[2]).toMatch(/[?&]continue=[A-Za-z0-9_-]+/);
  });

  it('get -l and --field-selector filter on the server', async () => {
    seen.length = 0;
    const l = await k.kubectl(['get', 'cm', '-l', 'app=web', '-o', 'name']);
    expect(l.stdout).toBe('configmap/a\nconfigmap/b\n');
    expect(seen.some((s) => s.includes('labelSelector=app%3Dweb'))).toBe(true);
    const notin = await k.kubectl(['get', 'cm', '-l', 'app notin (web)', '-o', 'name']);
    expect(notin.stdout).toBe('configmap/c\nconfigmap/d\nconfigmap/e\nconfigmap/kube-root-ca.crt\n');
    const f = await k.kubectl(['get', 'cm', '--field-selector', 'metadata.name!=a,metadata.name!=e', '-o', 'name']);
    expect(f.stdout).toBe('configmap/b\nconfigmap/c\nconfigmap/d\nconfigmap/kube-root-ca.crt\n');
    const bad = await k.kubectl(['get', 'cm', '--field-selector', 'data.k=a'], { allowFail: true });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('Error from server (BadRequest): Unable to find "/v1, Resource=configmaps" that match label selector "", field selector "data.k=a": "data.k" is not a known field selector: only "metadata.name", "metadata.namespace"');
  });

  it('get -w prints the table, then one row per change', async () => {
    const w = k.spawnKubectl(['get', 'cm', '-w', '-l', 'app=db']);
    try {
      await until('the initial rows', () => /\ne\s+1\s+\S+\n/.test(w.output()), { ms: 10_000, every: 50 });
      expect(w.output()).toMatch(/^NAME\s+DATA\s+AGE\nc\s+1\s+\S+\nd\s+1\s+\S+\ne\s+1\s+\S+\n/);
      await k.kubectl(['create', 'configmap', 'f', '--from-literal=x=1', '--from-literal=y=2']);
      await sleep(300);
      expect(w.output()).not.toMatch(/\nf\s/);
      await k.kubectl(['replace', '--validate=false', '-f', '-'], { input: cmYaml('f', { app: 'db' }, { x: '1', y: '2' }) });
      await until('the row of f', () => /\nf\s+2\s+\S+\n/.test(w.output()), { ms: 10_000, every: 50 });
      await k.kubectl(['delete', 'cm', 'f']);
      await until('the deletion row of f', () => (w.output().match(/\nf\s+2\s+/g) ?? []).length >= 2, { ms: 10_000, every: 50 });
    } finally {
      await w.stop();
    }
  });

  it('get -w --output-watch-events names the event types', async () => {
    const w = k.spawnKubectl(['get', 'cm', 'a', '-w', '--output-watch-events']);
    try {
      await until('ADDED a', () => /ADDED\s+a\s+1/.test(w.output()), { ms: 10_000, every: 50 });
      await k.kubectl(['replace', '--validate=false', '-f', '-'], { input: cmYaml('a', { app: 'web' }, { k: "a", m: "2" }) });
      await until('MODIFIED a', () => /MODIFIED\s+a\s+2/.test(w.output()), { ms: 10_000, every: 50 });
      expect(w.output()).toMatch(/^EVENT\s+NAME\s+DATA\s+AGE\n/);
    } finally {
      await w.stop();
    }
  });

  it('wait --for=delete and --for=jsonpath', async () => {
    await k.kubectl(['create', 'configmap', 'doomed']);
    const waiting = k.kubectl(['wait', '--for=delete', 'cm/doomed', '--timeout=20s']);
    await sleep(500);
    await k.kubectl(['delete', 'cm', 'doomed']);
    expect((await waiting).stdout).toBe('configmap/doomed condition met\n');

    const jp = k.kubectl(['wait', '--for=jsonpath={.data.k}=changed', 'cm/b', '--timeout=20s']);
    await sleep(500);
    await k.kubectl(['replace', '--validate=false', '-f', '-'], { input: cmYaml('b', { app: 'web' }, { k: "changed" }) });
    expect((await jp).stdout).toBe('configmap/b condition met\n');
    const timeout = await k.kubectl(['wait', '--for=jsonpath={.data.k}=never', 'cm/c', '--timeout=1s'], { allowFail: true });
    expect(timeout.code).not.toBe(0);
    expect(timeout.stderr).toContain('timed out waiting for the condition on configmaps/c');
  });

  it('get pods and deployments look like kubectl against a real cluster', async () => {
    await k.kubectl(['create', 'deployment', 'web', '--image=nginx', '--replicas=2']);
    await k.kubectl(['run', 'solo', '--image=busybox']);
    const d = await k.kubectl(['get', 'deployments']);
    expect(d.stdout).toMatch(/^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\nweb\s+0\/2\s+0\s+0\s+\d+s\n$/);
    const p = await k.kubectl(['get', 'pods']);
    expect(p.stdout).toMatch(/^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\nsolo\s+0\/1\s+Pending\s+0\s+\d+s\n$/);
    const wide = await k.kubectl(['get', 'pods', '-o', 'wide']);
    expect(wide.stdout).toMatch(/^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+IP\s+NODE\s+NOMINATED NODE\s+READINESS GATES\nsolo\s+0\/1\s+Pending\s+0\s+\d+s\s+<none>\s+<none>\s+<none>\s+<none>\n$/);
    const ns = await k.kubectl(['get', 'ns']);
    expect(ns.stdout).toMatch(/^NAME\s+STATUS\s+AGE\ndefault\s+Active\s+\d+s\n/);
    await k.kubectl(['create', 'service', 'clusterip', 'web', '--tcp=80:8080']);
    await k.kubectl(['create', 'secret', 'generic', 's1', '--from-literal=a=b']);
    await k.kubectl(['create', 'job', 'j1', '--image=busybox']);
    expect((await k.kubectl(['get', 'svc'])).stdout).toMatch(/^NAME\s+TYPE\s+CLUSTER-IP\s+EXTERNAL-IP\s+PORT\(S\)\s+AGE\nkubernetes\s+ClusterIP\s+10\.96\.0\.1\s+<none>\s+443\/TCP\s+\d+s\nweb\s+ClusterIP\s+10\.\d+\.\d+\.\d+\s+<none>\s+80\/TCP\s+\d+s\n$/);
    expect((await k.kubectl(['get', 'secrets'])).stdout).toMatch(/^NAME\s+TYPE\s+DATA\s+AGE\ns1\s+Opaque\s+1\s+\d+s\n$/);
    expect((await k.kubectl(['get', 'jobs'])).stdout).toMatch(/^NAME\s+STATUS\s+COMPLETIONS\s+DURATION\s+AGE\nj1\s+Running\s+0\/1\s+\d+s\n$/);
    const empty = await k.kubectl(['get', 'events', '-n', 'kube-public']);
    expect(empty.stderr).toBe('No resources found in kube-public namespace.\n');
  });

  it('gzip on the Node host for large responses when asked (not for small ones, not when not asked)', async () => {
    const big = 'x'.repeat(40_000);
    for (let i = 0; i < 5; i++) {
      await k.kubectl(['create', '--validate=false', '-f', '-'], { input: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big-${i}\n  namespace: kube-public\ndata:\n  v: ${big}\n` });
    }
    const url = `${k.host.url}/api/v1/namespaces/kube-public/configmaps`;
    const gz = await rawGet(url, { 'Accept-Encoding': 'gzip' });
    expect(gz.status).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    const list = JSON.parse(gunzipSync(gz.body).toString());
    expect(list.items).toHaveLength(6); // and kube-root-ca.crt
    expect(gz.body.byteLength).toBeLessThan(10_000);
    const plain = await rawGet(url, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.byteLength).toBeGreaterThan(200_000);
    const small = await rawGet(`${k.host.url}/api/v1/namespaces/default/configmaps/a`, { 'Accept-Encoding': 'gzip' });
    expect(small.headers['content-encoding']).toBeUndefined();
    // kubectl asks for gzip itself and reads the compressed list
    const names = await k.kubectl(['get', 'cm', '-n', 'kube-public', '-o', 'name']);
    expect(names.stdout.trim().split('\n')).toHaveLength(6);
  });
});
