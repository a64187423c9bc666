// Real kubectl 1.33 against the Node host: one object served in several versions (core v1 and
// events.k8s.io/v1 Events, autoscaling/v1 and autoscaling/v2 HorizontalPodAutoscalers).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKubectlEnv, type KubectlEnv } from './kubectl.js';
import { kubectlSuite } from './kubectl-suite.js';

const { found, suite } = kubectlSuite();

suite('kubectl (versions of one object)', () => {
  let k: KubectlEnv;
  beforeAll(async () => {
    k = await startKubectlEnv(found.path!);
  });
  afterAll(async () => {
    await k?.close();
  });

  it('a core/v1 Event created with kubectl reads back through events.v1.events.k8s.io', async () => {
    const manifest = [
      'apiVersion: v1',
      'kind: Event',
      'metadata:',
      '  name: web.17a',
      '  namespace: default',
      'involvedObject:',
      '  kind: Pod',
      '  name: web',
      '  namespace: default',
      'reason: Started',
      'message: Started container app',
      'type: Normal',
      'count: 2',
      'source:',
      '  component: kubelet',
      '  host: node-1',
      '',
    ].join('\n');
    const created = await k.kubectl(['create', '-f', '-'], { input: manifest });
    expect(created.stdout).toBe('event/web.17a created\n');
    const y = await k.kubectl(['get', 'events.v1.events.k8s.io', 'web.17a', '-n', 'default', '-o', 'yaml']);
    expect(y.stdout).toContain('apiVersion: events.k8s.io/v1\n');
    expect(y.stdout).toContain('note: Started container app\n');
    expect(y.stdout).toContain('deprecatedCount: 2\n');
    expect(y.stdout).toMatch(/\nregarding:\n {2}kind: Pod\n {2}name: web\n {2}namespace: default\n/);
    expect(y.stdout).not.toContain('involvedObject');
    const table = await k.kubectl(['get', 'events.v1.events.k8s.io', '-n', 'default']);
    expect(table.stdout).toMatch(/\nweb\.17a\s+\S+\s+Normal\s+Started\s+pod\/web\s+Started container app\n$/);
  });

  it('kubectl autoscale creates an autoscaling/v2 object that reads as v2 with metrics', async () => {
    const deploy = await k.kubectl(['create', 'deployment', 'web', '--image=nginx:1.27', '-n', 'default']);
    expect(deploy.stdout).toBe('deployment.apps/web created\n');
    const hpa = await k.kubectl(['autoscale', 'deployment', 'web', '--min=2', '--max=5', '--cpu-percent=60', '-n', 'default']);
    expect(hpa.stdout).toBe('horizontalpodautoscaler.autoscaling/web autoscaled\n');
    const v2 = await k.kubectl(['get', 'hpa.v2.autoscaling', 'web', '-n', 'default', '-o', 'yaml']);
    expect(v2.stdout).toContain('apiVersion: autoscaling/v2\n');
    expect(v2.stdout).toMatch(/\n {2}metrics:\n {2}- resource:\n {6}name: cpu\n {6}target:\n {8}averageUtilization: 60\n {8}type: Utilization\n {4}type: Resource\n/);
    expect(v2.stdout).toContain('  maxReplicas: 5\n');
    expect(v2.stdout).toContain('  minReplicas: 2\n');
    // (kubectl expands the short name to the preferred version: the full resource name keeps v1)
    const v1 = await k.kubectl(['get', 'horizontalpodautoscalers.v1.autoscaling', 'web', '-n', 'default', '-o', 'jsonpath={.apiVersion} {.spec.targetCPUUtilizationPercentage}']);
    expect(v1.stdout).toBe('autoscaling/v1 60');
    const table = await k.kubectl(['get', 'hpa', 'web', '-n', 'default']);
    expect(table.stdout).toMatch(/^NAME\s+REFERENCE\s+TARGETS\s+MINPODS\s+MAXPODS\s+REPLICAS\s+AGE\nweb\s+Deployment\/web\s+cpu: <unknown>\/60%\s+2\s+5\s+0\s+\S+\n$/);
  });

  it('patch --subresource=status keeps label changes on a pod, not on a deployment (their status strategies)', async () => {
    await k.kubectl(['run', 'p1', '--image=nginx:1.27', '-n', 'default']);
    const patch = '{"metadata":{"labels":{"via":"status"}},"status":{"phase":"Running"}}';
    const p = await k.kubectl(['patch', 'pod', 'p1', '-n', 'default', '--subresource=status', '--type=merge', '-p', patch]);
    expect(p.stdout).toBe('pod/p1 patched\n');
    const pod = await k.kubectl(['get', 'pod', 'p1', '-n', 'default', '-o', 'jsonpath={.metadata.labels.via} {.status.phase}']);
    expect(pod.stdout).toBe('status Running');
    await k.kubectl(['create', 'deployment', 'd1', '--image=nginx:1.27', '-n', 'default']);
    const d = await k.kubectl(['patch', 'deployment', 'd1', '-n', 'default', '--subresource=status', '--type=merge', '-p', '{"metadata":{"labels":{"via":"status"},"annotations":{"via":"status"}},"status":{"observedGeneration":1}}']);
    expect(d.stdout).toBe('deployment.apps/d1 patched\n');
    const dep = await k.kubectl(['get', 'deployment', 'd1', '-n', 'default', '-o', 'jsonpath={.metadata.labels.via}|{.metadata.annotations.via}']);
    expect(dep.stdout).toBe('|status');
  });
});
