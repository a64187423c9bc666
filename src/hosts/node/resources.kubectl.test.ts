// Real kubectl 1.33 against the Node host: the whole v1.33 resource list, componentstatuses, logs and exec of
// a pod no node runs, certificate approval, the Local APIServices, and drain through the eviction API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKubectlEnv, type KubectlEnv } from './kubectl.js';
import { builtins } from '../../engine/resources/generated/builtins.js';
import { SAMPLE_CSR } from '../../engine/resources/samples.js';
import { kubectlSuite } from './kubectl-suite.js';

const { found, suite } = kubectlSuite();

/** Resources of the v1.33 list served by work in progress elsewhere (admission webhooks, pod binding). */
const PENDING = new Set(['bindings', 'mutatingwebhookconfigurations', 'validatingwebhookconfigurations']);

suite('kubectl (the v1.33 resource list)', () => {
  let k: KubectlEnv;
  beforeAll(async () => {
    k = await startKubectlEnv(found.path!);
  });
  afterAll(async () => {
    await k?.close();
  });

  it('api-resources lists the v1.33 default resources, one per group at its preferred version', async () => {
    const { stdout } = await k.kubectl(['api-resources', '--no-headers', '-o', 'name']);
    const names = stdout.trim().split('\n');
    // kubectl's names: plural.group, or the plural for the core group
    const expected = new Set(builtins.catalog.filter((e) => !e.name.includes('/')).map((e) => (e.group ? `${e.name}.${e.group}` : e.name)));
    expect(names.filter((n) => !expected.has(n))).toEqual([]);
    const missing = [...expected].filter((n) => !names.includes(n));
    expect(missing.filter((n) => !PENDING.has(n.split('.')[0]))).toEqual([]);
    // 60 kinds in a real v1.33 cluster (horizontalpodautoscalers once, at autoscaling/v2)
    expect(names.length + missing.length).toBe(60);
    const wide = (await k.kubectl(['api-resources'])).stdout;
    expect(wide).toMatch(/\ncomponentstatuses\s+cs\s+v1\s+false\s+ComponentStatus\n/);
    expect(wide).toMatch(/\ncertificatesigningrequests\s+csr\s+certificates\.k8s\.io\/v1\s+false\s+CertificateSigningRequest\n/);
    expect(wide).toMatch(/\nipaddresses\s+ip\s+networking\.k8s\.io\/v1\s+false\s+IPAddress\n/);
    expect(wide).toMatch(/\ncsistoragecapacities\s+storage\.k8s\.io\/v1\s+true\s+CSIStorageCapacity\n/);
  });

  it('get componentstatuses warns and lists the healthy components', async () => {
    const { stdout, stderr } = await k.kubectl(['get', 'componentstatuses']);
    expect(stderr).toBe('Warning: v1 ComponentStatus is deprecated in v1.19+\n');
    expect(stdout.split('\n').map((l) => l.trim().split(/\s+/))).toEqual([
      ['NAME', 'STATUS', 'MESSAGE', 'ERROR'],
      ['controller-manager', 'Healthy', 'ok'],
      ['etcd-0', 'Healthy', 'ok'],
      ['scheduler', 'Healthy', 'ok'],
      [''],
    ]);
    const one = await k.kubectl(['get', 'cs', 'etcd-0', '-o', 'jsonpath={.conditions[0].type}={.conditions[0].status}']);
    expect(one.stdout).toBe('Healthy=True');
  });

  it('logs of a pod no node runs prints nothing; exec says it has no host', async () => {
    await k.kubectl(['run', 'idle', '--image=nginx:1.27']);
    const logs = await k.kubectl(['logs', 'idle'], { allowFail: true });
    expect(logs.code).toBe(0);
    expect(logs.stdout).toBe('');
    expect(logs.stderr).toBe('');
    const exec = await k.kubectl(['exec', 'idle', '--', 'ls'], { allowFail: true });
    expect(exec.code).not.toBe(0);
    expect(exec.stderr).toContain('pod idle does not have a host assigned');
  });

  it('get apiservices shows the Local ones, available', async () => {
    const { stdout } = await k.kubectl(['get', 'apiservices']);
    const rows = stdout.trim().split('\n').slice(1).map((l) => l.split(/\s+/).slice(0, 3));
    expect(rows.length).toBe(20);
    expect(rows[0]).toEqual(['v1.', 'Local', 'True']);
    expect(rows).toContainEqual(['v2.autoscaling', 'Local', 'True']);
    expect(rows).toContainEqual(['v1.flowcontrol.apiserver.k8s.io', 'Local', 'True']);
  });

  it('certificate approve goes through /approval', async () => {
    const csr = { apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'jane' }, spec: { request: SAMPLE_CSR, signerName: 'kubernetes.io/kube-apiserver-client', usages: ['client auth'], expirationSeconds: 86400 } };
    await k.kubectl(['create', '-f', '-'], { input: JSON.stringify(csr) });
    const pending = await k.kubectl(['get', 'csr', 'jane', '--no-headers']);
    expect(pending.stdout).toMatch(/^jane\s+\S+\s+kubernetes\.io\/kube-apiserver-client\s+kubernetes-admin\s+24h\s+Pending\n$/);
    const approve = await k.kubectl(['certificate', 'approve', 'jane']);
    expect(approve.stdout).toBe('certificatesigningrequest.certificates.k8s.io/jane approved\n');
    const after = await k.kubectl(['get', 'csr', 'jane', '-o', 'jsonpath={.status.conditions[0].type}/{.status.conditions[0].reason}']);
    expect(after.stdout).toBe('Approved/KubectlApprove');
  });

  it('drain evicts the pods of the node', async () => {
    await k.kubectl(['create', '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } }) });
    await k.kubectl(['create', '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'worker', labels: { app: 'w' } }, spec: { nodeName: 'n1', containers: [{ name: 'app', image: 'nginx' }] } }) });
    const { stdout } = await k.kubectl(['drain', 'n1', '--force', '--grace-period=0', '--timeout=30s']);
    expect(stdout).toContain('node/n1 cordoned\n');
    expect(stdout).toContain('evicting pod default/worker\n');
    expect(stdout).toContain('pod/worker evicted\n');
    expect(stdout).toContain('node/n1 drained\n');
    expect((await k.kubectl(['get', 'pod', 'worker'], { allowFail: true })).code).toBe(1);
  });
});
