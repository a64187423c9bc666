// The simulated kubelet's container events on the fake clock, with the texts of a v1.33 kubelet: Pulling and
// Pulled (or "already present on machine"), Created, Started per container, Killing on delete, the repeats of
// a restarting container aggregated into one event's count.
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../testing/harness.js';
import { goDurationMs, imageSizeBytes } from './nodes.js';

let c: TestClient;
beforeEach(async () => {
  // one node, so that pods share its images
  c = await testClient(createMemoryStorage(), { workloads: { nodes: [{ name: 'node-1' }] } });
  await c.settle();
});

async function run(ms: number, step = 100): Promise<void> {
  for (let t = 0; t < ms; t += step) {
    await c.env.advance(step);
    await c.settle();
  }
}

const PODS = '/api/v1/namespaces/default/pods';
const createPod = (name: string, spec: Record<string, unknown>) => c.req('POST', PODS, { metadata: { name }, spec });

/** The kubelet's events about a pod, oldest first: [reason, fieldPath, message, count]. */
async function kubeletEvents(pod: string): Promise<any[]> {
  const items = (await c.req('GET', '/api/v1/namespaces/default/events')).body.items as any[];
  return items
    .filter((e) => e.source?.component === 'kubelet' && e.involvedObject.name === pod)
    .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
}
const brief = (evs: any[]) => evs.map((e) => [e.reason, e.involvedObject.fieldPath, e.message, e.count]);

describe('the kubelet records container events', () => {
  it('a new pod: Pulling when admitted; Pulled with duration and size, Created, Started when the containers run', async () => {
    await run(500);
    const r = await createPod('p', { initContainers: [{ name: 'init', image: 'busybox:1.36' }], containers: [{ name: 'web', image: 'nginx' }] });
    expect(r.status).toBe(201);
    await run(300);
    const admitted = await kubeletEvents('p');
    expect(brief(admitted)).toEqual([
      ['Pulling', 'spec.initContainers{init}', 'Pulling image "busybox:1.36"', 1],
      ['Pulling', 'spec.containers{web}', 'Pulling image "nginx"', 1],
    ]);
    const t0 = admitted[0].firstTimestamp;
    await run(1000);
    const p = (await c.req('GET', `${PODS}/p`)).body;
    expect(p.status.phase).toBe('Running');
    const evs = await kubeletEvents('p');
    expect(brief(evs)).toEqual([
      ['Pulling', 'spec.initContainers{init}', 'Pulling image "busybox:1.36"', 1],
      ['Pulling', 'spec.containers{web}', 'Pulling image "nginx"', 1],
      ['Pulled', 'spec.initContainers{init}', 'Successfully pulled image "busybox:1.36" in 1s (1s including waiting). Image size: 2155861 bytes.', 1],
      ['Created', 'spec.initContainers{init}', 'Created container: init', 1],
      ['Started', 'spec.initContainers{init}', 'Started container init', 1],
      ['Pulled', 'spec.containers{web}', 'Successfully pulled image "nginx" in 1s (1s including waiting). Image size: 72223946 bytes.', 1],
      ['Created', 'spec.containers{web}', 'Created container: web', 1],
      ['Started', 'spec.containers{web}', 'Started container web', 1],
    ]);
    // every one as the kubelet of node-1 writes it: a core v1 Event about the pod's container
    for (const e of evs) {
      expect(e).toMatchObject({
        type: 'Normal',
        source: { component: 'kubelet', host: 'node-1' },
        reportingComponent: 'kubelet',
        reportingInstance: 'node-1',
        involvedObject: { apiVersion: 'v1', kind: 'Pod', name: 'p', namespace: 'default', uid: p.metadata.uid },
      });
      expect(e.metadata.name).toMatch(/^p\.[0-9a-f]+$/);
      expect(e.metadata.managedFields[0].manager).toBe('kubelet');
      expect(e.lastTimestamp).toBe(e.firstTimestamp);
    }
    // times from the injected clock: Pulling at admission, the rest when the containers started
    expect(t0).toBe(p.status.startTime);
    expect(evs.slice(2).every((e) => e.firstTimestamp === p.status.containerStatuses[0].state.running.startedAt)).toBe(true);
    expect(Date.parse(evs[2].firstTimestamp) - Date.parse(t0)).toBe(1000);
  });

  it('IfNotPresent: a second pod of the image on the node finds it "already present on machine"; Always pulls again', async () => {
    await run(500);
    await createPod('a', { containers: [{ name: 'web', image: 'nginx:1.27' }] });
    await run(1500);
    expect(brief(await kubeletEvents('a')).map((e) => e[0])).toEqual(['Pulling', 'Pulled', 'Created', 'Started']);
    await createPod('b', { containers: [{ name: 'web', image: 'nginx:1.27' }] });
    await run(1500);
    expect(brief(await kubeletEvents('b'))).toEqual([
      ['Pulled', 'spec.containers{web}', 'Container image "nginx:1.27" already present on machine', 1],
      ['Created', 'spec.containers{web}', 'Created container: web', 1],
      ['Started', 'spec.containers{web}', 'Started container web', 1],
    ]);
    // the pull policy the API server defaulted: IfNotPresent for a tagged image, Always for :latest
    expect((await c.req('GET', `${PODS}/b`)).body.spec.containers[0].imagePullPolicy).toBe('IfNotPresent');
    await createPod('c', { containers: [{ name: 'web', image: 'nginx:1.27', imagePullPolicy: 'Always' }] });
    await run(1500);
    expect(brief(await kubeletEvents('c')).map((e) => [e[0], e[2]])).toEqual([
      ['Pulling', 'Pulling image "nginx:1.27"'],
      ['Pulled', `Successfully pulled image "nginx:1.27" in 1s (1s including waiting). Image size: ${imageSizeBytes('nginx:1.27')} bytes.`],
      ['Created', 'Created container: web'],
      ['Started', 'Started container web'],
    ]);
  });

  it('delete: one Killing event per running container ("Stopping container <name>"), then the pod is gone', async () => {
    await run(500);
    await createPod('p', { containers: [{ name: 'web', image: 'nginx:1.27' }, { name: 'side', image: 'busybox:1.36' }] });
    await run(1500);
    const before = (await kubeletEvents('p')).length;
    expect(before).toBe(8);
    const r = await c.req('DELETE', `${PODS}/p`);
    expect(r.status).toBe(200);
    await run(200);
    const evs = await kubeletEvents('p');
    expect(brief(evs.slice(before))).toEqual([
      ['Killing', 'spec.containers{web}', 'Stopping container web', 1],
      ['Killing', 'spec.containers{side}', 'Stopping container side', 1],
    ]);
    await run(2000);
    expect((await c.req('GET', `${PODS}/p`)).status).toBe(404);
    // recorded once, not again while the containers stopped
    expect((await kubeletEvents('p')).filter((e) => e.reason === 'Killing')).toHaveLength(2);
  });

  it('a container restarting after a crash: Pulled (already present), Created, Started again, aggregated into counts', async () => {
    await run(500);
    await createPod('p', { containers: [{ name: 'web', image: 'nginx:1.27' }] });
    await run(1500);
    expect((await c.req('POST', '/x-playground/fail?pod=default/p')).status).toBe(200);
    await c.settle();
    expect((await c.req('GET', `${PODS}/p`)).body.status.containerStatuses[0].restartCount).toBe(1);
    // the second exit waits out the 10 s back-off, then the container starts a third time
    await run(15_000, 500);
    expect((await c.req('GET', `${PODS}/p`)).body.status.containerStatuses[0].restartCount).toBe(2);
    const evs = brief(await kubeletEvents('p'));
    expect(evs.filter((e) => e[0] !== 'BackOff')).toEqual([
      ['Pulling', 'spec.containers{web}', 'Pulling image "nginx:1.27"', 1],
      ['Pulled', 'spec.containers{web}', `Successfully pulled image "nginx:1.27" in 1s (1s including waiting). Image size: ${imageSizeBytes('nginx:1.27')} bytes.`, 1],
      ['Created', 'spec.containers{web}', 'Created container: web', 3],
      ['Started', 'spec.containers{web}', 'Started container web', 3],
      ['Pulled', 'spec.containers{web}', 'Container image "nginx:1.27" already present on machine', 2],
    ]);
  });
});

describe('goDurationMs: time.Duration.String for whole milliseconds', () => {
  it.each([
    [0, '0s'],
    [1, '1ms'],
    [500, '500ms'],
    [1000, '1s'],
    [1200, '1.2s'],
    [1234, '1.234s'],
    [60_000, '1m0s'],
    [61_500, '1m1.5s'],
    [3_600_000, '1h0m0s'],
    [3_723_040, '1h2m3.04s'],
  ])('%i ms -> %s', (ms, text) => {
    expect(goDurationMs(ms)).toBe(text);
  });
});
