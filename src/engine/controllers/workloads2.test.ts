// StatefulSets, DaemonSets and CronJobs on the injected clock, in a simulated cluster (three nodes, the
// scheduler, the kubelets): stable names and ordered rollouts, one pod per eligible node, jobs on a cron
// schedule; each controller writing as its own service account.
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { fakeEnv, testClient, type TestClient } from '../testing/harness.js';
import { CronParseError, parseSchedule, rfc3339In } from './cron-schedule.js';
import type { WorkloadOptions } from './index.js';

let c: TestClient;
async function start(workloads: WorkloadOptions = {}): Promise<void> {
  c = await testClient(createMemoryStorage(), { workloads });
  await c.settle();
  await run(500);
}

async function run(ms: number, step = 100): Promise<void> {
  for (let t = 0; t < ms; t += step) {
    await c.env.advance(step);
    await c.settle();
  }
}

const list = async (path: string) => (await c.req('GET', path)).body.items as any[];
const podNames = async (selector: string) =>
  (await list(`/api/v1/namespaces/default/pods?labelSelector=${encodeURIComponent(selector)}`)).filter((p) => !p.metadata.deletionTimestamp).map((p) => p.metadata.name).sort();
const ready = (p: any) => (p.status?.conditions ?? []).some((x: any) => x.type === 'Ready' && x.status === 'True');
const eventsOf = async (name: string) => (await list('/api/v1/namespaces/default/events')).filter((e) => e.involvedObject.name === name).map((e) => [e.reason, e.message]);

const STS = '/apis/apps/v1/namespaces/default/statefulsets';
const statefulSet = (name: string, replicas: number, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name },
  spec: {
    replicas,
    serviceName: name,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    ...extra,
  },
});

describe('StatefulSet', () => {
  beforeEach(() => start());

  it('OrderedReady: <name>-<ordinal> one at a time, each after the one before is Running and Ready; identity, claims, revision', async () => {
    await c.req('POST', STS, statefulSet('web', 3, {
      volumeClaimTemplates: [{ metadata: { name: 'www' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
    }));
    const firstSeen = new Map<string, number>();
    const firstReady = new Map<string, number>();
    for (let t = 0; t < 8000; t += 100) {
      await run(100);
      for (const p of await list('/api/v1/namespaces/default/pods')) {
        if (!firstSeen.has(p.metadata.name)) firstSeen.set(p.metadata.name, t);
        if (ready(p) && !firstReady.has(p.metadata.name)) firstReady.set(p.metadata.name, t);
      }
    }
    expect([...firstSeen.keys()]).toEqual(['web-0', 'web-1', 'web-2']);
    expect(firstSeen.get('web-1')!).toBeGreaterThanOrEqual(firstReady.get('web-0')!);
    expect(firstSeen.get('web-2')!).toBeGreaterThanOrEqual(firstReady.get('web-1')!);
    const sts = (await c.req('GET', `${STS}/web`)).body;
    const rev = sts.status.updateRevision;
    expect(rev).toMatch(/^web-[a-z0-9]+$/);
    expect(sts.status).toEqual({
      observedGeneration: 1, replicas: 3, readyReplicas: 3, currentReplicas: 3, updatedReplicas: 3, availableReplicas: 3,
      currentRevision: rev, updateRevision: rev, collisionCount: 0,
    });
    const p1 = (await c.req('GET', '/api/v1/namespaces/default/pods/web-1')).body;
    expect(p1.metadata.labels).toEqual({ app: 'web', 'statefulset.kubernetes.io/pod-name': 'web-1', 'apps.kubernetes.io/pod-index': '1', 'controller-revision-hash': rev });
    expect(p1.spec.hostname).toBe('web-1');
    expect(p1.spec.subdomain).toBe('web');
    expect(p1.spec.volumes.find((v: any) => v.name === 'www')).toEqual({ name: 'www', persistentVolumeClaim: { claimName: 'www-web-1' } });
    expect(p1.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: sts.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    expect((await list('/api/v1/namespaces/default/persistentvolumeclaims')).map((x) => x.metadata.name)).toEqual(['www-web-0', 'www-web-1', 'www-web-2']);
    const crs = await list('/apis/apps/v1/namespaces/default/controllerrevisions');
    expect(crs.map((r) => [r.metadata.name, r.revision])).toEqual([[rev, 1]]);
    expect(crs[0].data.spec.template.$patch).toBe('replace');
    expect(crs[0].metadata.labels.app).toBe('web');
    expect(p1.metadata.managedFields[0].manager).toBe('kube-controller-manager');
    const evs = await eventsOf('web');
    expect(evs).toContainEqual(['SuccessfulCreate', 'create Pod web-0 in StatefulSet web successful']);
    expect(evs).toContainEqual(['SuccessfulCreate', 'create Claim www-web-0 Pod web-0 in StatefulSet web success']);
  });

  it('scale down removes the highest ordinal first, one at a time', async () => {
    await c.req('POST', STS, statefulSet('web', 3));
    await run(8000);
    await c.req('PATCH', `${STS}/web/scale`, { spec: { replicas: 1 } }, { 'Content-Type': 'application/merge-patch+json' });
    const gone: string[] = [];
    for (let t = 0; t < 8000; t += 100) {
      await run(100);
      const names = await podNames('app=web');
      for (const n of ['web-2', 'web-1']) if (!names.includes(n) && !gone.includes(n)) gone.push(n);
    }
    expect(gone).toEqual(['web-2', 'web-1']);
    expect(await podNames('app=web')).toEqual(['web-0']);
    expect((await c.req('GET', `${STS}/web`)).body.status.replicas).toBe(1);
  });

  it('Parallel: all pods at once', async () => {
    await c.req('POST', STS, statefulSet('db', 3, { podManagementPolicy: 'Parallel' }));
    await run(200);
    expect(await podNames('app=db')).toEqual(['db-0', 'db-1', 'db-2']);
  });

  it('RollingUpdate from the highest ordinal down to the partition; then the revisions; undo by the revision patch', async () => {
    await c.req('POST', STS, statefulSet('web', 3));
    await run(8000);
    const before = (await c.req('GET', `${STS}/web`)).body.status.updateRevision;
    await c.req('PATCH', `${STS}/web`, { spec: { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } }, template: { spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } } } }, { 'Content-Type': 'application/strategic-merge-patch+json' });
    const order: string[] = [];
    for (let t = 0; t < 15_000; t += 100) {
      await run(100);
      for (const p of await list('/api/v1/namespaces/default/pods')) if (p.spec.containers[0].image === 'nginx:1.27' && !order.includes(p.metadata.name)) order.push(p.metadata.name);
    }
    expect(order).toEqual(['web-2', 'web-1']);
    const sts = (await c.req('GET', `${STS}/web`)).body;
    expect(sts.status.currentRevision).toBe(before);
    expect(sts.status.updateRevision).not.toBe(before);
    expect(sts.status).toMatchObject({ replicas: 3, readyReplicas: 3, currentReplicas: 1, updatedReplicas: 2 });
    expect((await c.req('GET', '/api/v1/namespaces/default/pods/web-0')).body.spec.containers[0].image).toBe('nginx');
    // partition 0: the rest follows, and the update revision becomes the current one
    await c.req('PATCH', `${STS}/web`, { spec: { updateStrategy: { rollingUpdate: { partition: 0 } } } }, { 'Content-Type': 'application/merge-patch+json' });
    await run(8000);
    const done = (await c.req('GET', `${STS}/web`)).body;
    expect(done.status.currentRevision).toBe(done.status.updateRevision);
    expect(done.status).toMatchObject({ currentReplicas: 3, updatedReplicas: 3 });
    const crs = await list('/apis/apps/v1/namespaces/default/controllerrevisions');
    expect(crs.map((r) => r.revision).sort()).toEqual([1, 2]);
    // kubectl rollout undo applies the older revision's data as a strategic merge patch
    const old = crs.find((r) => r.revision === 1);
    const undo = await c.req('PATCH', `${STS}/web`, old.data, { 'Content-Type': 'application/strategic-merge-patch+json' });
    expect(undo.status).toBe(200);
    await run(15_000);
    const images = (await list('/api/v1/namespaces/default/pods')).map((p) => p.spec.containers[0].image);
    expect(images).toEqual(['nginx', 'nginx', 'nginx']);
    const after = await list('/apis/apps/v1/namespaces/default/controllerrevisions');
    expect(after.map((r) => [r.metadata.name, r.revision]).sort()).toEqual([[old.metadata.name, 3], [crs.find((r) => r.revision === 2).metadata.name, 2]].sort());
  });

  it('maxUnavailable takes effect only with the MaxUnavailableStatefulSet gate on', async () => {
    const minReadyDuringUpdate = async () => {
      await c.req('POST', STS, statefulSet('web', 4, { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2 } } }));
      await run(10_000);
      await c.req('PATCH', `${STS}/web`, { spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } } } }, { 'Content-Type': 'application/strategic-merge-patch+json' });
      let min = 4;
      for (let t = 0; t < 15_000; t += 100) {
        await run(100);
        min = Math.min(min, (await list('/api/v1/namespaces/default/pods')).filter((p) => ready(p) && !p.metadata.deletionTimestamp).length);
      }
      expect((await list('/api/v1/namespaces/default/pods')).map((p) => p.spec.containers[0].image)).toEqual(Array(4).fill('nginx:1.27'));
      return min;
    };
    expect(await minReadyDuringUpdate()).toBe(3);
    c = await testClient(createMemoryStorage(), { workloads: {}, featureGates: { MaxUnavailableStatefulSet: true } });
    await c.settle();
    await run(500);
    expect(await minReadyDuringUpdate()).toBe(2);
  });

  it('OnDelete: a new template waits until a pod is deleted; the replacement has the new revision', async () => {
    await c.req('POST', STS, statefulSet('web', 2, { updateStrategy: { type: 'OnDelete' } }));
    await run(6000);
    await c.req('PATCH', `${STS}/web`, { spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } } } }, { 'Content-Type': 'application/strategic-merge-patch+json' });
    await run(5000);
    expect((await list('/api/v1/namespaces/default/pods')).map((p) => p.spec.containers[0].image)).toEqual(['nginx', 'nginx']);
    await c.req('DELETE', '/api/v1/namespaces/default/pods/web-1');
    await run(8000);
    expect((await list('/api/v1/namespaces/default/pods')).map((p) => [p.metadata.name, p.spec.containers[0].image])).toEqual([['web-0', 'nginx'], ['web-1', 'nginx:1.27']]);
    const sts = (await c.req('GET', `${STS}/web`)).body;
    expect(sts.status).toMatchObject({ updatedReplicas: 1, currentReplicas: 1 });
  });

  it('persistentVolumeClaimRetentionPolicy whenDeleted: Delete makes the set an owner of its claims', async () => {
    await c.req('POST', STS, statefulSet('web', 1, {
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Retain' },
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
    }));
    await run(3000);
    const sts = (await c.req('GET', `${STS}/web`)).body;
    const pvc = (await c.req('GET', '/api/v1/namespaces/default/persistentvolumeclaims/data-web-0')).body;
    expect(pvc.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: sts.metadata.uid }]);
  });

  it('whenScaled: Delete hands a condemned pod its claims, so they go with it; Retain keeps them', async () => {
    const claims = [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }];
    await c.req('POST', STS, statefulSet('gone', 2, { persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Delete' }, volumeClaimTemplates: claims }));
    await c.req('POST', STS, statefulSet('kept', 2, { volumeClaimTemplates: claims }));
    await run(6000);
    for (const n of ['gone', 'kept']) await c.req('PATCH', `${STS}/${n}/scale`, { spec: { replicas: 1 } }, { 'Content-Type': 'application/merge-patch+json' });
    await run(6000);
    expect((await list('/api/v1/namespaces/default/persistentvolumeclaims')).map((x) => x.metadata.name)).toEqual(['data-gone-0', 'data-kept-0', 'data-kept-1']);
  });
});

const DS = '/apis/apps/v1/namespaces/default/daemonsets';
const daemonSet = (name: string, extra: Record<string, unknown> = {}, podSpec: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name },
  spec: {
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'fluentd' }], ...podSpec } },
    ...extra,
  },
});

describe('DaemonSet', () => {
  beforeEach(() => start());

  it('one pod per node, pinned by node affinity and bound by the scheduler; the daemon tolerations; status', async () => {
    await c.req('POST', DS, daemonSet('agent'));
    await run(3000);
    const pods = await list('/api/v1/namespaces/default/pods');
    expect(pods.map((p) => p.spec.nodeName).sort()).toEqual(['node-1', 'node-2', 'node-3']);
    for (const p of pods) {
      expect(p.metadata.name).toMatch(/^agent-[a-z0-9]{5}$/);
      expect(p.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms).toEqual([{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [p.spec.nodeName] }] }]);
      expect(p.status.phase).toBe('Running');
    }
    expect(pods[0].spec.tolerations.map((t: any) => `${t.key}:${t.operator}:${t.effect}`)).toEqual([
      'node.kubernetes.io/not-ready:Exists:NoExecute',
      'node.kubernetes.io/unreachable:Exists:NoExecute',
      'node.kubernetes.io/disk-pressure:Exists:NoSchedule',
      'node.kubernetes.io/memory-pressure:Exists:NoSchedule',
      'node.kubernetes.io/pid-pressure:Exists:NoSchedule',
      'node.kubernetes.io/unschedulable:Exists:NoSchedule',
    ]);
    const ds = (await c.req('GET', `${DS}/agent`)).body;
    expect(ds.status).toEqual({ currentNumberScheduled: 3, numberMisscheduled: 0, desiredNumberScheduled: 3, numberReady: 3, observedGeneration: 1, updatedNumberScheduled: 3, numberAvailable: 3 });
    const hash = pods[0].metadata.labels['controller-revision-hash'];
    expect(pods[0].metadata.labels['pod-template-generation']).toBe('1');
    const crs = await list('/apis/apps/v1/namespaces/default/controllerrevisions');
    expect(crs.map((r) => [r.metadata.name, r.revision])).toEqual([[`agent-${hash}`, 1]]);
    // the binding is the scheduler's
    expect((await eventsOf(pods[0].metadata.name)).map((e) => e[0])).toContain('Scheduled');
  });

  it('nodeSelector and taints choose the nodes; a node added or removed is followed', async () => {
    await c.req('PATCH', '/api/v1/nodes/node-2', { metadata: { labels: { disk: 'ssd' } } }, { 'Content-Type': 'application/merge-patch+json' });
    await c.req('PATCH', '/api/v1/nodes/node-3', { metadata: { labels: { disk: 'ssd' } }, spec: { taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] } }, { 'Content-Type': 'application/merge-patch+json' });
    await c.req('POST', DS, daemonSet('agent', {}, { nodeSelector: { disk: 'ssd' } }));
    await run(3000);
    expect((await list('/api/v1/namespaces/default/pods')).map((p) => p.spec.nodeName)).toEqual(['node-2']);
    // a new node comes with the not-ready NoSchedule taint, which daemon pods do not tolerate (only NoExecute)
    await c.req('POST', '/api/v1/nodes', { metadata: { name: 'node-4', labels: { disk: 'ssd' } } });
    await run(1000);
    expect((await list('/api/v1/namespaces/default/pods')).length).toBe(1);
    await c.req('PATCH', '/api/v1/nodes/node-4', { spec: { taints: null } }, { 'Content-Type': 'application/merge-patch+json' });
    await run(1000);
    const pinned = (await list('/api/v1/namespaces/default/pods')).map((p) => p.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].values[0]).sort();
    expect(pinned).toEqual(['node-2', 'node-4']);
    expect((await c.req('GET', `${DS}/agent`)).body.status.desiredNumberScheduled).toBe(2);
    await c.req('DELETE', '/api/v1/nodes/node-4');
    await run(1000);
    expect((await c.req('GET', `${DS}/agent`)).body.status.desiredNumberScheduled).toBe(1);
    // the bound pod of the vanished node is not the daemon set controller's to delete: the pod garbage
    // collector removes it after its quarantine
    expect((await list('/api/v1/namespaces/default/pods')).filter((p) => !p.metadata.deletionTimestamp).length).toBe(2);
    await run(70_000, 1000);
    expect((await list('/api/v1/namespaces/default/pods')).filter((p) => !p.metadata.deletionTimestamp).map((p) => p.spec.nodeName)).toEqual(['node-2']);
  });

  it('a NoSchedule taint added later leaves the pod (misscheduled); NoExecute evicts it', async () => {
    await c.req('POST', DS, daemonSet('agent'));
    await run(3000);
    await c.req('PATCH', '/api/v1/nodes/node-1', { spec: { taints: [{ key: 'maintenance', effect: 'NoSchedule' }] } }, { 'Content-Type': 'application/merge-patch+json' });
    await run(1000);
    expect((await list('/api/v1/namespaces/default/pods')).filter((p) => !p.metadata.deletionTimestamp).length).toBe(3);
    expect((await c.req('GET', `${DS}/agent`)).body.status).toMatchObject({ desiredNumberScheduled: 2, currentNumberScheduled: 2, numberMisscheduled: 1 });
    await c.req('PATCH', '/api/v1/nodes/node-1', { spec: { taints: [{ key: 'maintenance', effect: 'NoExecute' }] } }, { 'Content-Type': 'application/merge-patch+json' });
    await run(1000);
    expect((await list('/api/v1/namespaces/default/pods')).filter((p) => !p.metadata.deletionTimestamp).map((p) => p.spec.nodeName).sort()).toEqual(['node-2', 'node-3']);
    expect((await eventsOf('agent')).filter((e) => e[0] === 'SuccessfulDelete').length).toBe(1);
  });

  it('RollingUpdate replaces one node at a time (maxUnavailable 1); OnDelete waits', async () => {
    await c.req('POST', DS, daemonSet('agent'));
    await run(3000);
    await c.req('PATCH', `${DS}/agent`, { spec: { template: { spec: { containers: [{ name: 'c', image: 'fluentd:2' }] } } } }, { 'Content-Type': 'application/strategic-merge-patch+json' });
    let minAvailable = 3;
    for (let t = 0; t < 12_000; t += 100) {
      await run(100);
      const pods = (await list('/api/v1/namespaces/default/pods')).filter((p) => !p.metadata.deletionTimestamp);
      minAvailable = Math.min(minAvailable, pods.filter(ready).length);
    }
    expect(minAvailable).toBe(2);
    const pods = await list('/api/v1/namespaces/default/pods');
    expect(pods.map((p) => p.spec.containers[0].image)).toEqual(['fluentd:2', 'fluentd:2', 'fluentd:2']);
    const ds = (await c.req('GET', `${DS}/agent`)).body;
    expect(ds.status).toMatchObject({ desiredNumberScheduled: 3, updatedNumberScheduled: 3, numberAvailable: 3, observedGeneration: 2 });
    expect((await list('/apis/apps/v1/namespaces/default/controllerrevisions')).map((r) => r.revision).sort()).toEqual([1, 2]);
    await c.req('PATCH', `${DS}/agent`, { spec: { updateStrategy: { type: 'OnDelete', rollingUpdate: null }, template: { spec: { containers: [{ name: 'c', image: 'fluentd:3' }] } } } }, { 'Content-Type': 'application/strategic-merge-patch+json' });
    await run(5000);
    expect((await list('/api/v1/namespaces/default/pods')).map((p) => p.spec.containers[0].image)).toEqual(['fluentd:2', 'fluentd:2', 'fluentd:2']);
  });

  it('RollingUpdate with maxSurge 1: the new pod starts beside the old one on its node, the old goes once the new is ready', async () => {
    await c.req('POST', DS, daemonSet('agent', { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } }));
    await run(3000);
    const first = await list('/api/v1/namespaces/default/pods');
    expect(first.filter(ready).map((p) => p.spec.nodeName).sort()).toEqual(['node-1', 'node-2', 'node-3']);
    const oldHash = first[0].metadata.labels['controller-revision-hash'];
    await c.req('PATCH', `${DS}/agent`, { spec: { template: { spec: { containers: [{ name: 'c', image: 'fluentd:2' }] } } } }, { 'Content-Type': 'application/strategic-merge-patch+json' });
    const surged = new Set<string>();
    let maxAlive = 0;
    let minReadyNodes = 3;
    for (let t = 0; t < 15_000; t += 100) {
      await run(100);
      const pods = (await list('/api/v1/namespaces/default/pods')).filter((p) => !p.metadata.deletionTimestamp);
      maxAlive = Math.max(maxAlive, pods.length);
      minReadyNodes = Math.min(minReadyNodes, new Set(pods.filter(ready).map((p) => p.spec.nodeName)).size);
      for (const node of ['node-1', 'node-2', 'node-3']) {
        const here = pods.filter((p) => p.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].values[0] === node);
        const old = here.filter((p) => p.metadata.labels['controller-revision-hash'] === oldHash);
        const neu = here.filter((p) => p.metadata.labels['controller-revision-hash'] !== oldHash);
        if (old.length && neu.length) surged.add(node);
        // the old pod is deleted only after the new one on its node is ready
        if (neu.length && !old.length) expect(neu.every(ready), `${node}: old pod gone before the new one was ready`).toBe(true);
      }
    }
    // every node was updated by surging (old and new side by side), one node at a time (maxSurge 1)
    expect([...surged].sort()).toEqual(['node-1', 'node-2', 'node-3']);
    expect(maxAlive).toBe(4);
    // maxUnavailable 0: every node kept a ready pod throughout
    expect(minReadyNodes).toBe(3);
    const pods = await list('/api/v1/namespaces/default/pods');
    expect(pods.map((p) => p.spec.containers[0].image)).toEqual(['fluentd:2', 'fluentd:2', 'fluentd:2']);
    expect((await c.req('GET', `${DS}/agent`)).body.status).toMatchObject({ desiredNumberScheduled: 3, currentNumberScheduled: 3, updatedNumberScheduled: 3, numberAvailable: 3, observedGeneration: 2 });
  });
});

describe('cron schedules', () => {
  const at = (iso: string) => Date.parse(iso);
  const next = (spec: string, from: string, zone?: string) => new Date(parseSchedule(spec, zone).next(at(from))!).toISOString();
  it('fields: ranges, steps, lists, names; day of month OR day of week when both are restricted', () => {
    expect(next('*/15 * * * *', '2025-01-01T00:07:00Z')).toBe('2025-01-01T00:15:00.000Z');
    expect(next('5,35 9-17 * * MON-FRI', '2025-01-03T17:40:00Z')).toBe('2025-01-06T09:05:00.000Z'); // Friday evening to Monday
    expect(next('0 0 1 jan,jul *', '2025-01-01T00:00:00Z')).toBe('2025-07-01T00:00:00.000Z');
    expect(next('0 12 13 * 5', '2025-01-01T00:00:00Z')).toBe('2025-01-03T12:00:00.000Z'); // a Friday, or the 13th
    expect(next('0 12 13 * ?', '2025-01-01T00:00:00Z')).toBe('2025-01-13T12:00:00.000Z');
    expect(next('10/20 * * * *', '2025-01-01T00:31:00Z')).toBe('2025-01-01T00:50:00.000Z');
  });
  it('descriptors and @every', () => {
    expect(next('@hourly', '2025-01-01T00:00:00Z')).toBe('2025-01-01T01:00:00.000Z');
    expect(next('@daily', '2025-01-01T00:00:00Z')).toBe('2025-01-02T00:00:00.000Z');
    expect(next('@weekly', '2025-01-01T00:00:00Z')).toBe('2025-01-05T00:00:00.000Z');
    expect(next('@monthly', '2025-01-01T00:00:00Z')).toBe('2025-02-01T00:00:00.000Z');
    expect(next('@yearly', '2025-01-01T00:00:00Z')).toBe('2026-01-01T00:00:00.000Z');
    expect(next('@every 90m', '2025-01-01T00:00:00Z')).toBe('2025-01-01T01:30:00.000Z');
  });
  it('a time zone through Intl, with its offset in RFC 3339', () => {
    expect(next('0 9 * * *', '2025-01-01T00:00:00Z', 'Asia/Tokyo')).toBe('2025-01-02T00:00:00.000Z');
    expect(next('30 2 * * *', '2025-07-01T00:00:00Z', 'Europe/Paris')).toBe('2025-07-01T00:30:00.000Z');
    expect(rfc3339In(at('2025-01-02T00:00:00Z'), 'Asia/Tokyo')).toBe('2025-01-02T09:00:00+09:00');
    expect(rfc3339In(at('2025-01-02T00:00:00Z'), 'America/New_York')).toBe('2025-01-01T19:00:00-05:00');
    expect(rfc3339In(at('2025-01-02T00:00:00Z'), undefined)).toBe('2025-01-02T00:00:00Z');
  });
  it('errors as robfig/cron words them', () => {
    expect(() => parseSchedule('61 * * * *')).toThrow(new CronParseError('end of range (61) above maximum (59): 61'));
    expect(() => parseSchedule('* * * *')).toThrow(new CronParseError('expected exactly 5 fields, found 4: [* * * *]'));
    expect(() => parseSchedule('@fortnightly')).toThrow(new CronParseError('unrecognized descriptor: @fortnightly'));
  });
});

const CJ = '/apis/batch/v1/namespaces/default/cronjobs';
const cronJob = (name: string, schedule: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'batch/v1',
  kind: 'CronJob',
  metadata: { name },
  spec: {
    schedule,
    jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } },
    ...extra,
  },
});

describe('CronJob', () => {
  it('a job per scheduled minute, named by the minute and annotated; completions seen; history limited', async () => {
    await start();
    // created at 00:00:00.5 (the nodes took half a second): the first run is at 00:01
    await c.req('POST', CJ, cronJob('hello', '* * * * *'));
    await run(59_000, 1000);
    expect(await list('/apis/batch/v1/namespaces/default/jobs')).toEqual([]);
    await run(2000, 500);
    const jobs = await list('/apis/batch/v1/namespaces/default/jobs');
    const minute = Date.parse('2025-01-01T00:01:00Z') / 60_000;
    expect(jobs.map((j) => j.metadata.name)).toEqual([`hello-${minute}`]);
    expect(jobs[0].metadata.annotations).toEqual({ 'batch.kubernetes.io/cronjob-scheduled-timestamp': '2025-01-01T00:01:00Z' });
    let cj = (await c.req('GET', `${CJ}/hello`)).body;
    expect(cj.status.lastScheduleTime).toBe('2025-01-01T00:01:00Z');
    expect(cj.status.active).toEqual([{ kind: 'Job', namespace: 'default', name: `hello-${minute}`, uid: jobs[0].metadata.uid, apiVersion: 'batch/v1', resourceVersion: expect.any(String) }]);
    await run(10_000, 500);
    cj = (await c.req('GET', `${CJ}/hello`)).body;
    expect(cj.status.active).toBeUndefined();
    expect(cj.status.lastSuccessfulTime).toBe(jobs[0].status?.completionTime ?? (await c.req('GET', `/apis/batch/v1/namespaces/default/jobs/hello-${minute}`)).body.status.completionTime);
    await run(5 * 60_000, 1000);
    // successfulJobsHistoryLimit defaults to 3
    const names = (await list('/apis/batch/v1/namespaces/default/jobs')).map((j) => j.metadata.name);
    expect(names).toEqual([`hello-${minute + 3}`, `hello-${minute + 4}`, `hello-${minute + 5}`]);
    const evs = await eventsOf('hello');
    expect(evs).toContainEqual(['SuccessfulCreate', `Created job hello-${minute}`]);
    expect(evs).toContainEqual(['SawCompletedJob', `Saw completed job: hello-${minute}, condition: Complete`]);
    expect(evs).toContainEqual(['SuccessfulDelete', `Deleted job hello-${minute}`]);
  });

  it('Forbid skips a run while one is active; Replace deletes it; suspend stops', async () => {
    await start({ completionMs: 600_000 });
    await c.req('POST', CJ, cronJob('forbid', '* * * * *', { concurrencyPolicy: 'Forbid' }));
    await c.req('POST', CJ, cronJob('replace', '* * * * *', { concurrencyPolicy: 'Replace' }));
    await c.req('POST', CJ, cronJob('off', '* * * * *', { suspend: true }));
    await run(150_000, 1000);
    const jobs = (await list('/apis/batch/v1/namespaces/default/jobs')).filter((j) => !j.metadata.deletionTimestamp).map((j) => j.metadata.name);
    const minute = Date.parse('2025-01-01T00:01:00Z') / 60_000;
    expect(jobs).toEqual([`forbid-${minute}`, `replace-${minute + 1}`]);
    expect(await eventsOf('forbid')).toContainEqual(['JobAlreadyActive', 'Not starting job because prior execution is running and concurrency policy is Forbid']);
    expect(await eventsOf('replace')).toContainEqual(['SuccessfulDelete', `Deleted job replace-${minute}`]);
    expect(await eventsOf('off')).toEqual([]);
  });

  it('timeZone: the schedule read in the zone, the annotation with its offset', async () => {
    await start();
    await c.req('POST', CJ, cronJob('tokyo', '1 9 * * *', { timeZone: 'Asia/Tokyo' }));
    await run(61_000, 1000);
    const jobs = await list('/apis/batch/v1/namespaces/default/jobs');
    expect(jobs.map((j) => j.metadata.annotations['batch.kubernetes.io/cronjob-scheduled-timestamp'])).toEqual(['2025-01-01T09:01:00+09:00']);
  });

  it('a job already created for the scheduled time (a restart) is adopted, not created twice', async () => {
    await start();
    const cj = (await c.req('POST', CJ, cronJob('hello', '* * * * *'))).body;
    const minute = Date.parse('2025-01-01T00:01:00Z') / 60_000;
    const pre = await c.req('POST', '/apis/batch/v1/namespaces/default/jobs', {
      metadata: { name: `hello-${minute}`, ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'hello', uid: cj.metadata.uid, controller: true }] },
      spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
    });
    expect(pre.status).toBe(201);
    await run(60_000, 1000);
    const status = (await c.req('GET', `${CJ}/hello`)).body.status;
    expect(status.lastScheduleTime).toBe('2025-01-01T00:01:00Z');
    expect((await list('/apis/batch/v1/namespaces/default/jobs')).length).toBe(1);
    expect((await eventsOf('hello')).filter((e) => e[0] === 'SuccessfulCreate')).toEqual([]);
  });
});

describe('a restarted engine resumes without duplicating work', () => {
  it('StatefulSet, DaemonSet and CronJob pick up from stored state', async () => {
    const storage = createMemoryStorage();
    c = await testClient(storage, { workloads: {} });
    await c.settle();
    await run(500);
    await c.req('POST', CJ, cronJob('hello', '* * * * *'));
    await run(59_700, 100); // 00:01:00.2: the cron job's first run is done
    await c.req('POST', STS, statefulSet('web', 3));
    await c.req('POST', DS, daemonSet('agent'));
    await run(300, 100); // the set part way
    expect((await list('/apis/batch/v1/namespaces/default/jobs')).length).toBe(1);
    expect((await podNames('app=web')).length).toBeLessThan(3);
    c.server.engine.controllers?.stop();
    const env = fakeEnv(c.env.clock.now());
    c = await testClient(storage, { env, workloads: {} });
    await c.settle();
    await run(20_000, 500);
    expect(await podNames('app=web')).toEqual(['web-0', 'web-1', 'web-2']);
    const agents = (await list('/api/v1/namespaces/default/pods?labelSelector=app%3Dagent')).filter((p) => !p.metadata.deletionTimestamp);
    expect(agents.map((p) => p.spec.nodeName).sort()).toEqual(['node-1', 'node-2', 'node-3']);
    const minute = Date.parse('2025-01-01T00:01:00Z') / 60_000;
    expect((await list('/apis/batch/v1/namespaces/default/jobs')).map((j) => j.metadata.name)).toEqual([`hello-${minute}`]);
    expect((await c.req('GET', `${STS}/web`)).body.status).toMatchObject({ replicas: 3, readyReplicas: 3 });
  });
});
