// Real kubectl 1.33 against the Node host with the simulated cluster on (--controllers): a container told to
// fail through the playground's endpoint (`kubectl create --raw /x-playground/fail?pod=...`) shows
// CrashLoopBackOff in `kubectl get pods`, and `kubectl describe pod` lists the kubelet's BackOff event and the
// scheduler's Scheduled event (written through events.k8s.io/v1); `kubectl events` shows both too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKubectlEnv, type KubectlEnv } from './kubectl.js';
import { kubectlSuite, until as untilHolds } from './kubectl-suite.js';

const { found, suite } = kubectlSuite();

suite('kubectl (a simulated cluster: failures)', () => {
  let k: KubectlEnv;
  beforeAll(async () => {
    k = await startKubectlEnv(found.path!, { workloads: {}, auth: { bootstrapPolicy: true }, controllerStartDelayMs: 0 });
  });
  afterAll(async () => {
    await k?.close();
  });

  const out = async (args: string[]) => (await k.kubectl(args)).stdout;
  const until = (what: () => Promise<boolean>, ms = 40_000) => untilHolds(what, ms, 250);

  it('a failed container: CrashLoopBackOff in get pods, the BackOff event in describe pod, recovery', async () => {
    await k.kubectl(['run', 'crash', '--image=nginx']);
    await until(async () => (await out(['get', 'pod', 'crash', '-o', 'jsonpath={.status.phase}'])) === 'Running');
    const uid = await out(['get', 'pod', 'crash', '-o', 'jsonpath={.metadata.uid}']);
    const failed = await out(['create', '--raw', '/x-playground/fail?pod=default/crash', '-f', '/dev/null']);
    expect(JSON.parse(failed)).toMatchObject({ kind: 'Status', status: 'Success', code: 200 });
    await until(async () => (await out(['get', 'pods', 'crash'])).includes('CrashLoopBackOff'));
    const table = (await out(['get', 'pods', 'crash'])).trim().split('\n');
    expect(table[0].split(/\s+/)).toEqual(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
    const row = table[1].split(/\s+/);
    expect(row.slice(0, 4)).toEqual(['crash', '0/1', 'CrashLoopBackOff', '1']);
    expect(await out(['get', 'pod', 'crash', '-o', 'jsonpath={.status.containerStatuses[0].state.waiting.message}'])).toBe(`back-off 10s restarting failed container=crash pod=crash_default(${uid})`);
    expect(await out(['get', 'pod', 'crash', '-o', 'jsonpath={.status.containerStatuses[0].lastState.terminated.reason} {.status.containerStatuses[0].lastState.terminated.exitCode}'])).toBe('Error 1');

    const describe = await out(['describe', 'pod', 'crash']);
    expect(describe).toMatch(/State:\s+Waiting\n\s+Reason:\s+CrashLoopBackOff/);
    expect(describe).toMatch(/Last State:\s+Terminated\n\s+Reason:\s+Error\n\s+Exit Code:\s+1/);
    expect(describe).toMatch(/Restart Count:\s+1/);
    expect(describe).toMatch(new RegExp(`Warning\\s+BackOff\\s+\\S+\\s+kubelet\\s+Back-off restarting failed container crash in pod crash_default\\(${uid}\\)`));
    expect(describe).toMatch(/Normal\s+Scheduled\s+\S+\s+default-scheduler\s+Successfully assigned default\/crash to node-\d/);

    const events = await out(['events', '--for', 'pod/crash']);
    expect(events).toMatch(/Normal\s+Scheduled\s+Pod\/crash\s+Successfully assigned default\/crash to node-\d/);
    expect(events).toMatch(/Warning\s+BackOff\s+Pod\/crash\s+Back-off restarting failed container crash in pod crash_default/);
    const v1 = JSON.parse(await out(['get', 'events.v1.events.k8s.io', '--field-selector', 'reason=Scheduled,regarding.name=crash', '-o', 'json'])).items;
    expect(v1).toHaveLength(1);
    expect(v1[0]).toMatchObject({ reportingController: 'default-scheduler', action: 'Binding' });

    await out(['create', '--raw', '/x-playground/recover?pod=default/crash', '-f', '/dev/null']);
    await until(async () => (await out(['get', 'pod', 'crash', '-o', 'jsonpath={.status.containerStatuses[0].ready}'])) === 'true', 30_000);
    await new Promise((r) => setTimeout(r, 2500));
    expect((await out(['get', 'pods', 'crash'])).trim().split('\n')[1].split(/\s+/).slice(0, 4)).toEqual(['crash', '1/1', 'Running', '2']);
  }, 90_000);

  it('failing as a user who may not update pods/status is forbidden', async () => {
    const r = await k.kubectl(['create', '--raw', '/x-playground/fail?pod=default/crash', '-f', '/dev/null', '--as=jane'], { allowFail: true });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('pods "crash" is forbidden: User "jane" cannot update resource "pods/status" in API group "" in the namespace "default"');
  });
});
