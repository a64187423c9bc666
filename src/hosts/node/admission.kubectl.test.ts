// Real kubectl 1.33 against the Node host: admission. PodSecurity refusing a privileged pod in a restricted
// namespace, a warning on a workload, a pods=1 quota refusing the second pod, `describe quota`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKubectlEnv, type KubectlEnv } from './kubectl.js';
import { kubectlSuite } from './kubectl-suite.js';

const { found, suite } = kubectlSuite();

suite('kubectl (admission)', () => {
  let k: KubectlEnv;
  beforeAll(async () => {
    k = await startKubectlEnv(found.path!);
  });
  afterAll(async () => {
    await k?.close();
  });

  it('PodSecurity restricted refuses a privileged pod with the real message', async () => {
    await k.kubectl(['create', 'namespace', 'secure']);
    const l = await k.kubectl(['label', 'namespace', 'secure', 'pod-security.kubernetes.io/enforce=restricted']);
    expect(l.stdout).toBe('namespace/secure labeled\n');
    const r = await k.kubectl(['run', 'x', '--image=nginx', '--privileged', '-n', 'secure'], { allowFail: true });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('Error from server (Forbidden): pods "x" is forbidden: violates PodSecurity "restricted:latest": privileged (container "x" must not set securityContext.privileged=true), allowPrivilegeEscalation != false (container "x" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "x" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "x" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "x" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")\n');
  });

  it('PodSecurity warns on a Deployment and on a label change over existing pods', async () => {
    await k.kubectl(['create', 'namespace', 'warned']);
    await k.kubectl(['run', 'old', '--image=nginx', '--privileged', '-n', 'warned']);
    const l = await k.kubectl(['label', 'namespace', 'warned', 'pod-security.kubernetes.io/enforce=baseline']);
    expect(l.stderr).toBe('Warning: existing pods in namespace "warned" violate the new PodSecurity enforce level "baseline:latest"\nWarning: old: privileged\n');
    const d = await k.kubectl(['create', 'deployment', 'web', '--image=nginx', '-n', 'warned']);
    expect(d.stdout).toBe('deployment.apps/web created\n');
    expect(d.stderr).toBe('');
    await k.kubectl(['label', 'namespace', 'warned', 'pod-security.kubernetes.io/warn=restricted']);
    const d2 = await k.kubectl(['create', 'deployment', 'web2', '--image=nginx', '-n', 'warned']);
    expect(d2.stderr).toBe('Warning: would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "nginx" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "nginx" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "nginx" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "nginx" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")\n');
  });

  it('a pods=1 quota refuses the second pod; describe quota shows used and hard', async () => {
    await k.kubectl(['create', 'namespace', 'quoted']);
    expect((await k.kubectl(['create', 'quota', 'q', '--hard=pods=1,count/configmaps=5', '-n', 'quoted'])).stdout).toBe('resourcequota/q created\n');
    // the quota controller fills status a moment later (its controller manager starts after the host serves)
    for (let i = 0; i < 100; i++) {
      const used = await k.kubectl(['get', 'quota', 'q', '-n', 'quoted', '-o', 'jsonpath={.status.used.pods}']);
      if (used.stdout === '0') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await k.kubectl(['run', 'p1', '--image=nginx', '-n', 'quoted'])).stdout).toBe('pod/p1 created\n');
    const second = await k.kubectl(['run', 'p2', '--image=nginx', '-n', 'quoted'], { allowFail: true });
    expect(second.code).toBe(1);
    expect(second.stderr).toBe('Error from server (Forbidden): pods "p2" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1\n');
    const describe = await k.kubectl(['describe', 'quota', 'q', '-n', 'quoted']);
    expect(describe.stdout).toBe([
      'Name:             q',
      'Namespace:        quoted',
      'Resource          Used  Hard',
      '--------          ----  ----',
      'count/configmaps  1     5',
      'pods              1     1',
      '',
    ].join('\n'));
    const table = await k.kubectl(['get', 'quota', '-n', 'quoted']);
    expect(table.stdout).toMatch(/^NAME\s+REQUEST\s+LIMIT\s+AGE\nq\s+count\/configmaps: 1\/5, pods: 1\/1\s+\S+\n$/);
  });
});
