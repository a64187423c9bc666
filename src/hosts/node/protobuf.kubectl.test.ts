// Real kubectl 1.33 against the Node host: protobuf negotiation (typed clients ask for protobuf first),
// /openapi/v2 in protobuf (kind lookups, explain), protobuf DeleteOptions (drain --disable-eviction).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKubectlEnv, type KubectlEnv } from './kubectl.js';
import { kubectlSuite } from './kubectl-suite.js';

const { found, suite } = kubectlSuite();

interface Seen {
  method: string;
  url: string;
  accept: string;
  contentType: string;
}

suite('kubectl (protobuf)', () => {
  let k: KubectlEnv;
  const seen: Seen[] = [];
  const responses: Array<{ url: string; accept: string; status: number; contentType: string }> = [];
  beforeAll(async () => {
    k = await startKubectlEnv(found.path!);
    k.host.server.on('request', (req, res) => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', accept: String(req.headers.accept ?? ''), contentType: String(req.headers['content-type'] ?? '') });
      // the host writes its headers with writeHead: capture them there
      const writeHead = res.writeHead.bind(res) as (...a: unknown[]) => typeof res;
      (res as unknown as { writeHead: (...a: unknown[]) => typeof res }).writeHead = (...a: unknown[]) => {
        const h = a.find((x) => x && typeof x === 'object' && !Array.isArray(x)) as Record<string, unknown> | undefined;
        const ct = h ? Object.entries(h).find(([name]) => name.toLowerCase() === 'content-type')?.[1] : undefined;
        responses.push({ url: req.url ?? '', accept: String(req.headers.accept ?? ''), status: Number(a[0]), contentType: String(ct ?? res.getHeader('content-type') ?? '') });
        return writeHead(...a);
      };
    });
  });
  afterAll(async () => {
    await k?.close();
  });

  it('get -o yaml reads JSON (the dynamic client); describe reads protobuf (the typed clientset), byte-compatible', async () => {
    await k.kubectl(['run', 'web', '--image=nginx:1.27', '--labels=app=web']);
    seen.length = 0;
    responses.length = 0;
    const { stdout } = await k.kubectl(['get', 'pods', '-o', 'yaml']);
    // kubectl 1.33's get builds unstructured objects: it asks for JSON, not protobuf
    const list = seen.find((s) => s.method === 'GET' && s.url.startsWith('/api/v1/namespaces/default/pods'));
    expect(list?.accept).toBe('application/json');
    expect(stdout).toMatch(/- apiVersion: v1\n {2}kind: Pod\n/);
    seen.length = 0;
    responses.length = 0;
    const d = await k.kubectl(['describe', 'pod', 'web']);
    const typed = seen.filter((s) => s.method === 'GET' && s.accept === 'application/vnd.kubernetes.protobuf,application/json');
    expect(typed.map((s) => s.url.split('?')[0])).toEqual(['/api/v1/namespaces/default/pods/web', '/api/v1/namespaces/default/events']);
    for (const t of typed) {
      expect(responses.find((r) => r.url === t.url && r.accept === t.accept)).toMatchObject({ status: 200, contentType: 'application/vnd.kubernetes.protobuf' });
    }
    expect(d.stdout).toMatch(/^Name: +web\nNamespace: +default\n/);
    expect(d.stdout).toMatch(/Labels: +app=web\n/);
    expect(d.stdout).toMatch(/Image: +nginx:1\.27\n/);
    expect(d.stdout).toMatch(/Tolerations: +node\.kubernetes\.io\/not-ready:NoExecute op=Exists for 300s\n/);
    expect(d.stdout).toMatch(/QoS Class: +BestEffort\n/);
  });

  it('a Status error in protobuf reads as the real message', async () => {
    responses.length = 0;
    // create token uses the typed clientset: a protobuf TokenRequest, a protobuf answer
    const r = await k.kubectl(['create', 'token', 'nope'], { allowFail: true });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error: failed to create token: serviceaccounts "nope" not found');
    expect(responses.find((x) => x.url.startsWith('/api/v1/namespaces/default/serviceaccounts/nope/token'))).toMatchObject({ status: 404, contentType: 'application/vnd.kubernetes.protobuf' });
  });

  it('create -f of a misspelled kind: the real "no matches for kind" error (openapi v2 served in protobuf)', async () => {
    const manifest = ['apiVersion: apps/v1', 'kind: Deploymnet', 'metadata:', '  name: typo', 'spec: {}'].join('\n') + '\n';
    seen.length = 0;
    responses.length = 0;
    const r = await k.kubectl(['create', '-f', '-'], { input: manifest, allowFail: true });
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain('proto:');
    expect(r.stderr).toBe('error: resource mapping not found for name: "typo" namespace: "" from "STDIN": no matches for kind "Deploymnet" in version "apps/v1"\nensure CRDs are installed first\n');
    // kubectl read the v2 document in protobuf on the way
    const v2 = responses.find((x) => x.url.split('?')[0] === '/openapi/v2');
    expect(v2).toMatchObject({ status: 200, contentType: 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf' });
    expect(v2!.accept).toBe('application/com.github.proto-openapi.spec.v2@v1.0+protobuf');
  });

  it('explain pods.spec works', async () => {
    const r = await k.kubectl(['explain', 'pods.spec']);
    expect(r.stdout).toContain('KIND:       Pod');
    expect(r.stdout).toContain('FIELD: spec <PodSpec>');
    expect(r.stdout).toContain('containers');
    const v2 = await k.kubectl(['explain', 'pods.spec.containers', '--output=plaintext-openapiv2']);
    expect(v2.stdout).toContain('RESOURCE: containers <[]');
    expect(v2.stdout).toContain('FIELDS:\n   args\t<[]string>');
  });

  it('drain --disable-eviction: cordons the node and deletes its pods with protobuf DeleteOptions', async () => {
    await k.kubectl(['create', '-f', '-'], { input: 'apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n' });
    const pod = ['apiVersion: v1', 'kind: Pod', 'metadata:', '  name: on-n1', 'spec:', '  nodeName: n1', '  containers:', '  - name: c', '    image: nginx:1.27'].join('\n') + '\n';
    await k.kubectl(['create', '-f', '-'], { input: pod });
    seen.length = 0;
    // the pod has no controller: --force; nothing runs here, so the wait ends when the pod is gone
    const r = await k.kubectl(['drain', 'n1', '--disable-eviction', '--force', '--grace-period=0', '--timeout=20s'], { allowFail: true });
    expect(r.stderr + r.stdout).toContain('node/n1 cordoned');
    const del = seen.find((s) => s.method === 'DELETE' && s.url.startsWith('/api/v1/namespaces/default/pods/on-n1'));
    expect(del?.contentType).toBe('application/vnd.kubernetes.protobuf');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('node/n1 drained');
    const node = JSON.parse((await k.kubectl(['get', 'node', 'n1', '-o', 'json'])).stdout);
    expect(node.spec.unschedulable).toBe(true);
    const pods = await k.kubectl(['get', 'pod', 'on-n1'], { allowFail: true });
    expect(pods.stderr).toContain('pods "on-n1" not found');
  });
});
