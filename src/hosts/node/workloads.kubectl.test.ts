// Real kubectl 1.33 against the Node host with the simulated cluster on (as `npm run serve -- --controllers`,
// with the bootstrap RBAC policy, so every controller acts under its own role): deployments roll out,
// history and undo, scaling, cascading delete, services' EndpointSlices, and an unschedulable pod.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKubectlEnv, type KubectlEnv } from './kubectl.js';
import { kubectlSuite, until as untilHolds } from './kubectl-suite.js';

const { found, suite } = kubectlSuite();

suite('kubectl (a simulated cluster: --controllers)', () => {
  let k: KubectlEnv;
  beforeAll(async () => {
    k = await startKubectlEnv(found.path!, { workloads: {}, auth: { bootstrapPolicy: true }, controllerStartDelayMs: 0 });
  });
  afterAll(async () => {
    await k?.close();
  });

  const out = async (args: string[]) => (await k.kubectl(args)).stdout;
  const until = (what: () => Promise<boolean>, ms = 30_000) => untilHolds(what, ms, 200);
  /** Pods of the selector: how many, and how many of them are being deleted. */
  const podCounts = async (selector: string) => {
    const items = JSON.parse(await out(['get', 'pods', '-l', selector, '-o', 'json'])).items as { metadata: { deletionTimestamp?: string } }[];
    return { all: items.length, terminating: items.filter((p) => p.metadata.deletionTimestamp).length };
  };

  it('create deployment --replicas=3, then rollout status returns; 3 Running pods on the simulated nodes', async () => {
    await k.kubectl(['create', 'deployment', 'web', '--image=nginx', '--replicas=3']);
    const status = await k.kubectl(['rollout', 'status', 'deployment/web', '--timeout=60s']);
    expect(status.stdout).toContain('deployment "web" successfully rolled out');
    expect(await out(['get', 'deployment', 'web', '-o', 'jsonpath={.status.readyReplicas}/{.status.replicas}'])).toBe('3/3');
    const phases = await out(['get', 'pods', '-l', 'app=web', '-o', 'jsonpath={.items[*].status.phase}']);
    expect(phases).toBe('Running Running Running');
    const nodes = await out(['get', 'nodes', '-o', 'jsonpath={.items[*].metadata.name}']);
    expect(nodes).toBe('node-1 node-2 node-3');
    expect(await out(['get', 'nodes', 'node-1', '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}'])).toBe('True');
  }, 90_000);

  it('describe pod shows the kubelet\'s container events: Pulling, Pulled, Created, Started', async () => {
    const pod = (await out(['get', 'pods', '-l', 'app=web', '-o', 'jsonpath={.items[0].metadata.name}'])).trim();
    const text = await out(['describe', 'pod', pod]);
    const events = text.slice(text.indexOf('Events:'));
    const lines = events.split('\n').filter((l) => /\skubelet\s/.test(l)).map((l) => l.trim().replace(/\s{2,}/g, '|'));
    expect(lines.map((l) => l.split('|').filter((x, i) => i === 1 || i >= 3).join(' | '))).toEqual([
      'Pulling | kubelet | Pulling image "nginx"',
      expect.stringMatching(/^Pulled \| kubelet \| Successfully pulled image "nginx" in [0-9.]+m?s \([0-9.]+m?s including waiting\)\. Image size: \d+ bytes\.$/),
      'Created | kubelet | Created container: nginx',
      'Started | kubelet | Started container nginx',
    ]);
  }, 30_000);

  it('set image then rollout history shows two revisions; rollout undo goes back', async () => {
    await k.kubectl(['set', 'image', 'deployment/web', 'nginx=nginx:1.27']);
    await k.kubectl(['rollout', 'status', 'deployment/web', '--timeout=60s']);
    const history = await out(['rollout', 'history', 'deployment/web']);
    expect(history.split('\n').filter((l) => /^\d+\s/.test(l)).map((l) => l.split(/\s+/)[0])).toEqual(['1', '2']);
    expect(await out(['get', 'rs', '-l', 'app=web', '-o', 'jsonpath={range .items[*]}{.spec.replicas}{end}'])).toMatch(/^(03|30)$/);
    await k.kubectl(['rollout', 'undo', 'deployment/web']);
    await k.kubectl(['rollout', 'status', 'deployment/web', '--timeout=60s']);
    expect(await out(['get', 'deployment', 'web', '-o', 'jsonpath={.spec.template.spec.containers[0].image}'])).toBe('nginx');
    const after = await out(['rollout', 'history', 'deployment/web']);
    expect(after.split('\n').filter((l) => /^\d+\s/.test(l)).map((l) => l.split(/\s+/)[0])).toEqual(['2', '3']);
    const annotations = JSON.parse(await out(['get', 'deployment', 'web', '-o', 'json'])).metadata.annotations;
    expect(annotations['deployment.kubernetes.io/revision']).toBe('3');
    await until(async () => JSON.stringify(await podCounts('app=web')) === JSON.stringify({ all: 3, terminating: 0 }));
  }, 120_000);

  it('rollout pause, resume and restart', async () => {
    await k.kubectl(['rollout', 'pause', 'deployment/web']);
    const paused = await out(['get', 'deployment', 'web', '-o', 'jsonpath={.spec.paused}']);
    expect(paused).toBe('true');
    await until(async () => (await out(['get', 'deployment', 'web', '-o', 'jsonpath={.status.conditions[?(@.type=="Progressing")].reason}'])) === 'DeploymentPaused');
    await k.kubectl(['rollout', 'resume', 'deployment/web']);
    await k.kubectl(['rollout', 'restart', 'deployment/web']);
    await k.kubectl(['rollout', 'status', 'deployment/web', '--timeout=60s']);
    const history = await out(['rollout', 'history', 'deployment/web']);
    expect(history.split('\n').filter((l) => /^\d+\s/.test(l)).map((l) => l.split(/\s+/)[0])).toEqual(['2', '3', '4']);
  }, 120_000);

  it('expose then get endpointslices lists the ready pod IPs (and Endpoints the same)', async () => {
    await k.kubectl(['expose', 'deployment', 'web', '--port=80']);
    const podIPs = async () => (await out(['get', 'pods', '-l', 'app=web', '--field-selector=status.phase=Running', '-o', 'jsonpath={.items[*].status.podIP}'])).split(' ').filter(Boolean).sort();
    await until(async () => {
      const ips = (await out(['get', 'endpointslices', '-l', 'kubernetes.io/service-name=web', '-o', 'jsonpath={.items[*].endpoints[*].addresses[0]}'])).split(' ').filter(Boolean).sort();
      return ips.length === 3 && JSON.stringify(ips) === JSON.stringify(await podIPs());
    });
    const table = await out(['get', 'endpointslices', '-l', 'kubernetes.io/service-name=web']);
    for (const ip of await podIPs()) expect(table).toContain(ip);
    const eps = (await out(['get', 'endpoints', 'web', '-o', 'jsonpath={.subsets[0].addresses[*].ip}'])).split(' ').sort();
    expect(eps).toEqual(await podIPs());
  }, 90_000);

  it('scale down removes pods', async () => {
    await k.kubectl(['scale', 'deployment/web', '--replicas=1']);
    await until(async () => (await out(['get', 'pods', '-l', 'app=web', '-o', 'name'])).trim().split('\n').length === 1);
    expect(await out(['get', 'deployment', 'web', '-o', 'jsonpath={.status.replicas}'])).toBe('1');
  }, 60_000);

  it('delete deployment removes its replica sets and pods', async () => {
    await k.kubectl(['delete', 'deployment', 'web']);
    await until(async () => (await out(['get', 'rs,pods', '-l', 'app=web', '-o', 'name'])).trim() === '');
  }, 60_000);

  it('a pod with an impossible node selector stays Pending with a FailedScheduling event', async () => {
    await k.kubectl(['run', 'lost', '--image=nginx', '--overrides={"apiVersion":"v1","spec":{"nodeSelector":{"disk":"none"}}}']);
    await until(async () => (await out(['get', 'events', '--field-selector', 'reason=FailedScheduling,involvedObject.name=lost', '-o', 'name'])).trim() !== '');
    const msg = await out(['get', 'events', '--field-selector', 'reason=FailedScheduling,involvedObject.name=lost', '-o', 'jsonpath={.items[0].message}']);
    expect(msg).toBe("0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.");
    expect(await out(['get', 'pod', 'lost', '-o', 'jsonpath={.status.phase}'])).toBe('Pending');
    const described = await out(['describe', 'pod', 'lost']);
    expect(described).toMatch(/Warning\s+FailedScheduling\s+.*default-scheduler\s+0\/3 nodes are available/);
  }, 60_000);

  it('a Job completes (its pod runs to completion on a simulated node)', async () => {
    await k.kubectl(['create', 'job', 'hello', '--image=busybox', '--', 'echo', 'hi']);
    const waited = await k.kubectl(['wait', '--for=condition=complete', 'job/hello', '--timeout=60s']);
    expect(waited.stdout.trim()).toBe('job.batch/hello condition met');
    expect(await out(['get', 'job', 'hello', '-o', 'jsonpath={.status.succeeded}'])).toBe('1');
    expect(await out(['get', 'pods', '-l', 'job-name=hello', '-o', 'jsonpath={.items[*].status.phase}'])).toBe('Succeeded');
  }, 90_000);
});
