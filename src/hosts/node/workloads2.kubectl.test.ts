// Real kubectl 1.33 against the Node host with the simulated cluster on (as `npm run serve -- --controllers`,
// with the bootstrap RBAC policy, so every controller acts under its own role): StatefulSets roll out in
// order and scale down from the highest ordinal, with history and undo; a DaemonSet puts one pod on each of
// the three nodes; a CronJob runs on its schedule, and `create job --from=cronjob/…` works.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemEnv } from '../../adapters/system-env.js';
import { startKubectlEnv, type KubectlEnv } from './kubectl.js';
import { nodeOutboundHttp } from './outbound-http.js';
import { kubectlSuite, until as untilHolds } from './kubectl-suite.js';

const { found, suite } = kubectlSuite();

const until = (what: () => Promise<boolean>, ms = 30_000) => untilHolds(what, ms, 200);

const STATEFULSET = `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: web
spec:
  replicas: 3
  serviceName: web
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: nginx
        image: nginx
  volumeClaimTemplates:
  - metadata:
      name: www
    spec:
      accessModes: [ReadWriteOnce]
      resources:
        requests:
          storage: 1Gi
`;

const DAEMONSET = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
spec:
  selector:
    matchLabels: {app: agent}
  template:
    metadata:
      labels: {app: agent}
    spec:
      containers:
      - name: fluentd
        image: fluentd
`;

suite('kubectl (a simulated cluster: StatefulSets and DaemonSets)', () => {
  let k: KubectlEnv;
  beforeAll(async () => {
    k = await startKubectlEnv(found.path!, { workloads: { controllers: ['statefulset', 'daemonset', 'scheduler', 'nodes'] }, auth: { bootstrapPolicy: true }, controllerStartDelayMs: 0 });
  });
  afterAll(async () => {
    await k?.close();
  });
  const out = async (args: string[]) => (await k.kubectl(args)).stdout;

  it('statefulset: rollout status returns; pods web-0..2 created in order with their claims', async () => {
    await k.kubectl(['apply', '-f', '-'], { input: STATEFULSET });
    const status = await k.kubectl(['rollout', 'status', 'statefulset/web', '--timeout=60s']);
    // the API server defaults rollingUpdate.partition to 0, so kubectl reports a partitioned roll out
    expect(status.stdout.trim().split('\n').at(-1)).toBe('partitioned roll out complete: 3 new pods have been updated...');
    const pods = JSON.parse(await out(['get', 'pods', '-l', 'app=web', '-o', 'json'])).items as any[];
    const byStart = [...pods].sort((a, b) => Date.parse(a.metadata.creationTimestamp) - Date.parse(b.metadata.creationTimestamp) || a.metadata.name.localeCompare(b.metadata.name));
    expect(byStart.map((p) => p.metadata.name)).toEqual(['web-0', 'web-1', 'web-2']);
    expect(Date.parse(byStart[1].metadata.creationTimestamp)).toBeGreaterThan(Date.parse(byStart[0].metadata.creationTimestamp));
    expect(pods.map((p) => p.status.phase)).toEqual(['Running', 'Running', 'Running']);
    expect(await out(['get', 'pvc', '-o', 'jsonpath={.items[*].metadata.name}'])).toBe('www-web-0 www-web-1 www-web-2');
    expect(await out(['get', 'sts', 'web', '-o', 'jsonpath={.status.readyReplicas}/{.status.replicas}'])).toBe('3/3');
  }, 90_000);

  it('statefulset: set image, rollout history shows two revisions, rollout undo goes back', async () => {
    await k.kubectl(['set', 'image', 'statefulset/web', 'nginx=nginx:1.27']);
    await k.kubectl(['rollout', 'status', 'statefulset/web', '--timeout=60s']);
    expect(await out(['get', 'pods', '-l', 'app=web', '-o', 'jsonpath={.items[*].spec.containers[0].image}'])).toBe('nginx:1.27 nginx:1.27 nginx:1.27');
    const history = await out(['rollout', 'history', 'statefulset/web']);
    expect(history.split('\n').filter((l) => /^\d+\s/.test(l)).map((l) => l.split(/\s+/)[0])).toEqual(['1', '2']);
    const undo = await k.kubectl(['rollout', 'undo', 'statefulset/web']);
    expect(undo.stdout.trim()).toBe('statefulset.apps/web rolled back');
    await until(async () => (await out(['get', 'sts', 'web', '-o', 'jsonpath={.spec.template.spec.containers[0].image}'])) === 'nginx');
    await k.kubectl(['rollout', 'status', 'statefulset/web', '--timeout=60s']);
    await until(async () => (await out(['get', 'pods', '-l', 'app=web', '-o', 'jsonpath={.items[*].spec.containers[0].image}'])) === 'nginx nginx nginx', 60_000);
    const after = await out(['rollout', 'history', 'statefulset/web']);
    expect(after.split('\n').filter((l) => /^\d+\s/.test(l)).map((l) => l.split(/\s+/)[0])).toEqual(['2', '3']);
  }, 150_000);

  it('statefulset: scale down removes the highest ordinal', async () => {
    await k.kubectl(['scale', 'statefulset/web', '--replicas=1']);
    const seen: string[] = [];
    await until(async () => {
      const names = (await out(['get', 'pods', '-l', 'app=web', '-o', 'jsonpath={.items[*].metadata.name}'])).split(' ').filter(Boolean);
      if (names.length === 2 && !seen.length) seen.push(names.join(' '));
      return names.length === 1;
    });
    expect(seen.every((s) => s === 'web-0 web-1')).toBe(true);
    expect(await out(['get', 'pods', '-l', 'app=web', '-o', 'jsonpath={.items[*].metadata.name}'])).toBe('web-0');
  }, 60_000);

  it('daemonset: one pod on each of the 3 nodes; rollout status returns', async () => {
    await k.kubectl(['apply', '-f', '-'], { input: DAEMONSET });
    const status = await k.kubectl(['rollout', 'status', 'ds/agent', '--timeout=60s']);
    expect(status.stdout).toContain('daemon set "agent" successfully rolled out');
    const nodes = (await out(['get', 'pods', '-l', 'app=agent', '-o', 'jsonpath={.items[*].spec.nodeName}'])).split(' ').sort();
    expect(nodes).toEqual(['node-1', 'node-2', 'node-3']);
    expect(await out(['get', 'ds', 'agent', '-o', 'jsonpath={.status.desiredNumberScheduled} {.status.numberReady} {.status.updatedNumberScheduled}'])).toBe('3 3 3');
  }, 90_000);

  it('daemonset: set image rolls out; rollout history and undo', async () => {
    await k.kubectl(['set', 'image', 'ds/agent', 'fluentd=fluentd:2']);
    await k.kubectl(['rollout', 'status', 'ds/agent', '--timeout=60s']);
    await until(async () => (await out(['get', 'pods', '-l', 'app=agent', '-o', 'jsonpath={.items[*].spec.containers[0].image}'])) === 'fluentd:2 fluentd:2 fluentd:2', 60_000);
    const history = await out(['rollout', 'history', 'ds/agent']);
    expect(history.split('\n').filter((l) => /^\d+\s/.test(l)).map((l) => l.split(/\s+/)[0])).toEqual(['1', '2']);
    const undo = await k.kubectl(['rollout', 'undo', 'ds/agent']);
    expect(undo.stdout.trim()).toBe('daemonset.apps/agent rolled back');
    await until(async () => (await out(['get', 'pods', '-l', 'app=agent', '-o', 'jsonpath={.items[*].spec.containers[0].image}'])) === 'fluentd fluentd fluentd', 60_000);
    await k.kubectl(['rollout', 'status', 'ds/agent', '--timeout=60s']);
  }, 150_000);
});

suite('kubectl (a simulated cluster: CronJobs)', () => {
  let k: KubectlEnv;
  // the engine's clock starts 8 s before a whole minute, so a `* * * * *` schedule comes due within seconds
  beforeAll(async () => {
    const offset = Math.ceil(Date.now() / 60_000) * 60_000 + 60_000 - 8_000 - Date.now();
    const env = { ...systemEnv(), http: nodeOutboundHttp() };
    k = await startKubectlEnv(found.path!, {
      env: { ...env, clock: { now: () => Date.now() + offset } },
      workloads: { controllers: ['job', 'cronjob', 'scheduler', 'nodes'] },
      auth: { bootstrapPolicy: true },
      controllerStartDelayMs: 0,
    });
  });
  afterAll(async () => {
    await k?.close();
  });
  const out = async (args: string[]) => (await k.kubectl(args)).stdout;

  it('a cronjob creates its job at the scheduled minute; the job completes', async () => {
    await k.kubectl(['create', 'cronjob', 'tick', '--image=busybox', '--schedule=* * * * *', '--', 'date']);
    await until(async () => (await out(['get', 'jobs', '-o', 'name'])).trim() !== '', 30_000);
    const job = JSON.parse(await out(['get', 'jobs', '-o', 'json'])).items[0];
    const scheduled = Date.parse(job.metadata.annotations['batch.kubernetes.io/cronjob-scheduled-timestamp']);
    expect(scheduled % 60_000).toBe(0);
    expect(job.metadata.name).toBe(`tick-${scheduled / 60_000}`);
    expect(job.metadata.ownerReferences[0]).toMatchObject({ kind: 'CronJob', name: 'tick', controller: true });
    await k.kubectl(['wait', '--for=condition=complete', `job/${job.metadata.name}`, '--timeout=30s']);
    await until(async () => (await out(['get', 'cronjob', 'tick', '-o', 'jsonpath={.status.lastSuccessfulTime}'])) !== '');
    expect(await out(['get', 'cronjob', 'tick', '-o', 'jsonpath={.status.lastScheduleTime}'])).toBe(new Date(scheduled).toISOString().replace('.000Z', 'Z'));
  }, 60_000);

  it('create job --from=cronjob/… makes a job of its template', async () => {
    const r = await k.kubectl(['create', 'job', 'manual', '--from=cronjob/tick']);
    expect(r.stdout.trim()).toBe('job.batch/manual created');
    const job = JSON.parse(await out(['get', 'job', 'manual', '-o', 'json']));
    expect(job.metadata.annotations['cronjob.kubernetes.io/instantiate']).toBe('manual');
    expect(job.metadata.ownerReferences[0]).toMatchObject({ kind: 'CronJob', name: 'tick' });
    expect(job.spec.template.spec.containers[0]).toMatchObject({ image: 'busybox', command: ['date'] });
    const waited = await k.kubectl(['wait', '--for=condition=complete', 'job/manual', '--timeout=30s']);
    expect(waited.stdout.trim()).toBe('job.batch/manual condition met');
  }, 60_000);
});
