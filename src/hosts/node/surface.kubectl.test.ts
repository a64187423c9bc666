// Real kubectl 1.33 against the Node host: deprecation warnings, /metrics and the default objects.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKubectlEnv, type KubectlEnv } from './kubectl.js';
import { kubectlSuite } from './kubectl-suite.js';

const { found, suite } = kubectlSuite();

suite('kubectl (API surface)', () => {
  let k: KubectlEnv;
  beforeAll(async () => {
    k = await startKubectlEnv(found.path!);
  });
  afterAll(async () => {
    await k?.close();
  });

  it('get endpoints prints the deprecation warning on stderr', async () => {
    const { stdout, stderr } = await k.kubectl(['get', 'endpoints', '-n', 'default']);
    expect(stderr).toBe('Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice\n');
    expect(stdout).toMatch(/^NAME\s+ENDPOINTS\s+AGE\nkubernetes\s+172\.18\.0\.2:6443\s+\S+\n$/);
    // an endpoint that is not deprecated warns nothing
    const slices = await k.kubectl(['get', 'endpointslices', '-n', 'default', '-o', 'name']);
    expect(slices.stderr).toBe('');
    expect(slices.stdout).toBe('endpointslice.discovery.k8s.io/kubernetes\n');
  });

  it('get svc kubernetes shows the ClusterIP service on 443', async () => {
    const { stdout, stderr } = await k.kubectl(['get', 'svc', 'kubernetes']);
    expect(stderr).toBe('');
    expect(stdout).toMatch(/^NAME\s+TYPE\s+CLUSTER-IP\s+EXTERNAL-IP\s+PORT\(S\)\s+AGE\nkubernetes\s+ClusterIP\s+10\.96\.0\.1\s+<none>\s+443\/TCP\s+\S+\n$/);
  });

  it('get priorityclasses and the root CA ConfigMap of each namespace', async () => {
    const pc = await k.kubectl(['get', 'priorityclasses', '-o', 'custom-columns=NAME:.metadata.name,VALUE:.value', '--no-headers']);
    expect(pc.stdout.trim().split('\n').map((l) => l.split(/\s+/))).toEqual([
      ['system-cluster-critical', '2000000000'],
      ['system-node-critical', '2000001000'],
    ]);
    const cms = await k.kubectl(['get', 'configmaps', '-A', '--field-selector', 'metadata.name=kube-root-ca.crt', '-o', 'custom-columns=NS:.metadata.namespace', '--no-headers']);
    expect(cms.stdout.trim().split('\n')).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
  });

  it('get --raw /metrics serves the request metrics in the Prometheus text format', async () => {
    await k.kubectl(['get', 'endpoints', '-n', 'kube-system']);
    const { stdout } = await k.kubectl(['get', '--raw', '/metrics']);
    expect(stdout).toContain('# TYPE apiserver_request_total counter\n');
    expect(stdout).toContain('# TYPE apiserver_request_duration_seconds histogram\n');
    expect(stdout).toContain('# TYPE apiserver_requested_deprecated_apis gauge\n');
    expect(stdout).toContain('apiserver_requested_deprecated_apis{group="",removed_release="",resource="endpoints",subresource="",version="v1"} 1\n');
    expect(stdout).toMatch(/\napiserver_request_total\{code="200",component="apiserver",dry_run="",group="",resource="endpoints",scope="namespace",subresource="",verb="LIST",version="v1"\} [1-9]\d*\n/);
    expect(stdout).toMatch(/\napiserver_request_duration_seconds_bucket\{component="apiserver",dry_run="",group="",resource="endpoints",scope="namespace",subresource="",verb="LIST",version="v1",le="\+Inf"\} [1-9]\d*\n/);
  });
});
