// The simulated cluster on the injected clock: nodes register with leases, the scheduler binds through
// pods/binding, the kubelets run pods, ReplicaSets and Deployments roll out with the real arithmetic,
// services get EndpointSlices and Endpoints; each component writes under its own field manager.
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../testing/harness.js';
import { fenceposts, newRSNewReplicas, oldScaleDowns } from './deployment.js';
import { filterNode, fitErrorMessage, nodeAffinityMatches } from './scheduler.js';
import type { KubeObject } from '../object.js';

let c: TestClient;
beforeEach(async () => {
  c = await testClient(createMemoryStorage(), { workloads: {} });
  await c.settle();
});

async function run(ms: number, step = 100): Promise<void> {
  for (let t = 0; t < ms; t += step) {
    await c.env.advance(step);
    await c.settle();
  }
}

const DEPLOYS = '/apis/apps/v1/namespaces/default/deployments';
const deployment = (name: string, replicas: number, image = 'nginx', extra: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image }] } },
    ...extra,
  },
});
const list = async (path: string) => (await c.req('GET', path)).body.items as any[];
const cond = (o: any, type: string) => (o.status?.conditions ?? []).find((x: any) => x.type === type);

describe('nodes and the scheduler', () => {
  it('three Ready nodes with leases in kube-node-lease, written by kubelet as system:node:<name>', async () => {
    await run(500);
    const nodes = await list('/api/v1/nodes');
    expect(nodes.map((n) => n.metadata.name)).toEqual(['node-1', 'node-2', 'node-3']);
    expect(cond(nodes[0], 'Ready')).toMatchObject({ status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' });
    expect(nodes[0].metadata.managedFields.map((m: any) => [m.manager, m.subresource ?? ''])).toEqual([['kubelet', ''], ['kubelet', 'status']]);
    const leases = await list('/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases');
    expect(leases.map((l) => [l.metadata.name, l.spec.holderIdentity, l.spec.leaseDurationSeconds])).toEqual([['node-1', 'node-1', 40], ['node-2', 'node-2', 40], ['node-3', 'node-3', 40]]);
    const before = leases[0].spec.renewTime;
    await run(10_000, 1000);
    const after = (await list('/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases'))[0].spec.renewTime;
    expect(Date.parse(after) - Date.parse(before)).toBe(10_000);
  });

  it('a pod is bound and runs: conditions, container statuses, pod IP, start time; Scheduled event', async () => {
    await run(500);
    await c.req('POST', '/api/v1/namespaces/default/pods', { metadata: { name: 'p' }, spec: { containers: [{ name: 'web', image: 'nginx' }] } });
    await run(2000);
    const p = (await c.req('GET', '/api/v1/namespaces/default/pods/p')).body;
    expect(p.spec.nodeName).toMatch(/^node-\d$/);
    expect(p.status.phase).toBe('Running');
    expect(p.status.conditions.map((x: any) => [x.type, x.status])).toEqual([['PodReadyToStartContainers', 'True'], ['Initialized', 'True'], ['Ready', 'True'], ['ContainersReady', 'True'], ['PodScheduled', 'True']]);
    expect(p.status.podIP).toMatch(/^10\.244\.\d\.\d+$/);
    expect(p.status.podIPs).toEqual([{ ip: p.status.podIP }]);
    expect(p.status.hostIP).toMatch(/^172\.18\.0\.\d$/);
    expect(p.status.startTime).toBe('2025-01-01T00:00:00Z');
    expect(p.status.containerStatuses[0]).toMatchObject({ name: 'web', ready: true, started: true, restartCount: 0, image: 'docker.io/library/nginx:latest' });
    expect(p.metadata.managedFields.map((m: any) => [m.manager, m.subresource ?? ''])).toEqual([['unknown', ''], ['kubelet', 'status']]);
    const evs = await list('/api/v1/namespaces/default/events');
    const scheduled = evs.find((e) => e.reason === 'Scheduled');
    expect(scheduled.message).toBe(`Successfully assigned default/p to ${p.spec.nodeName}`);
    // written through events.k8s.io/v1 as the real scheduler's (tools/events), seen converted by core v1 clients
    expect(scheduled).toMatchObject({ reportingComponent: 'default-scheduler', reportingInstance: 'default-scheduler-control-plane', action: 'Binding', type: 'Normal' });
    const v1 = (await c.req('GET', `/apis/events.k8s.io/v1/namespaces/default/events/${scheduled.metadata.name}`)).body;
    expect(v1).toMatchObject({ reportingController: 'default-scheduler', action: 'Binding', reason: 'Scheduled', regarding: { kind: 'Pod', name: 'p', namespace: 'default' } });
    expect(v1.eventTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(v1.metadata.managedFields[0].manager).toBe('kube-scheduler');
  });

  it('an impossible node selector: Pending, PodScheduled=False/Unschedulable, the real FailedScheduling event', async () => {
    await run(500);
    await c.req('POST', '/api/v1/namespaces/default/pods', { metadata: { name: 'p' }, spec: { nodeSelector: { disk: 'ssd' }, containers: [{ name: 'c', image: 'nginx' }] } });
    await run(1000);
    const p = (await c.req('GET', '/api/v1/namespaces/default/pods/p')).body;
    const msg = "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.";
    expect(p.status.phase).toBe('Pending');
    expect(cond(p, 'PodScheduled')).toMatchObject({ status: 'False', reason: 'Unschedulable', message: msg });
    const ev = (await list('/api/v1/namespaces/default/events')).find((e) => e.reason === 'FailedScheduling');
    expect([ev.type, ev.message]).toEqual(['Warning', msg]);
  });

  it('requests beyond capacity and untolerated taints are reasons', async () => {
    await run(500);
    await c.req('POST', '/api/v1/namespaces/default/pods', { metadata: { name: 'big' }, spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '5' } } }] } });
    await run(500);
    const p = (await c.req('GET', '/api/v1/namespaces/default/pods/big')).body;
    expect(cond(p, 'PodScheduled').message).toBe('0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.');
  });

  it('graceful deletion: the kubelet removes the pod with grace 0 once its containers stopped', async () => {
    await run(500);
    await c.req('POST', '/api/v1/namespaces/default/pods', { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    await run(2000);
    const del = await c.req('DELETE', '/api/v1/namespaces/default/pods/p');
    expect([del.body.metadata.deletionTimestamp, del.body.metadata.deletionGracePeriodSeconds]).toEqual(['2025-01-01T00:00:32Z', 30]);
    await run(1000);
    expect((await c.req('GET', '/api/v1/namespaces/default/pods/p')).status).toBe(404);
  });
});

describe('deployments', () => {
  it('create -> replica set with pod-template-hash, 3 running pods, status and conditions, revision 1', async () => {
    await c.req('POST', DEPLOYS, deployment('web', 3));
    await run(3000);
    const d = (await c.req('GET', `${DEPLOYS}/web`)).body;
    expect(d.metadata.annotations['deployment.kubernetes.io/revision']).toBe('1');
    // written with the status update, as the real controller does
    const status = d.metadata.managedFields.find((m: any) => m.manager === 'kube-controller-manager');
    expect(status.subresource).toBe('status');
    expect(status.fieldsV1['f:metadata']).toEqual({ 'f:annotations': { '.': {}, 'f:deployment.kubernetes.io/revision': {} } });
    expect(d.status).toMatchObject({ observedGeneration: 1, replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3 });
    expect(cond(d, 'Available')).toMatchObject({ status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' });
    const rss = await list('/apis/apps/v1/namespaces/default/replicasets');
    expect(rss).toHaveLength(1);
    const hash = rss[0].metadata.labels['pod-template-hash'];
    expect(rss[0].metadata.name).toBe(`web-${hash}`);
    expect(cond(d, 'Progressing')).toMatchObject({ status: 'True', reason: 'NewReplicaSetAvailable', message: `ReplicaSet "web-${hash}" has successfully progressed.` });
    expect(rss[0].metadata.annotations).toMatchObject({ 'deployment.kubernetes.io/revision': '1', 'deployment.kubernetes.io/desired-replicas': '3', 'deployment.kubernetes.io/max-replicas': '4' });
    expect(rss[0].metadata.ownerReferences[0]).toMatchObject({ kind: 'Deployment', name: 'web', controller: true, blockOwnerDeletion: true });
    const pods = await list('/api/v1/namespaces/default/pods');
    expect(pods).toHaveLength(3);
    expect(pods.every((p) => p.status.phase === 'Running' && p.metadata.labels['pod-template-hash'] === hash && p.metadata.name.startsWith(`web-${hash}-`))).toBe(true);
    expect(rss[0].metadata.managedFields.map((m: any) => m.manager)).toContain('kube-controller-manager');
    const evs = (await list('/api/v1/namespaces/default/events')).filter((e) => e.involvedObject.kind === 'Deployment');
    expect(evs.map((e) => [e.reason, e.message])).toEqual([['ScalingReplicaSet', `Scaled up replica set web-${hash} from 0 to 3`]]);
  });

  it('rolling update never exceeds maxSurge nor drops below maxUnavailable; two revisions; scale down', async () => {
    await c.req('POST', DEPLOYS, deployment('web', 4, 'nginx', { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } }));
    await run(3000);
    const d = (await c.req('GET', `${DEPLOYS}/web`)).body;
    d.spec.template.spec.containers[0].image = 'nginx:1.27';
    await c.req('PUT', `${DEPLOYS}/web`, d);
    let maxPods = 0;
    let minAvailable = 99;
    for (let i = 0; i < 100; i++) {
      await run(100);
      const pods = (await list('/api/v1/namespaces/default/pods')).filter((p) => !p.metadata.deletionTimestamp);
      maxPods = Math.max(maxPods, pods.length);
      minAvailable = Math.min(minAvailable, pods.filter((p) => cond(p, 'Ready')?.status === 'True').length);
    }
    expect(maxPods).toBe(5);
    expect(minAvailable).toBe(4);
    const rss = await list('/apis/apps/v1/namespaces/default/replicasets');
    expect(rss.map((r) => [r.metadata.annotations['deployment.kubernetes.io/revision'], r.spec.replicas]).sort()).toEqual([['1', 0], ['2', 4]]);
    const after = (await c.req('GET', `${DEPLOYS}/web`)).body;
    expect(after.status).toMatchObject({ replicas: 4, updatedReplicas: 4, availableReplicas: 4 });
    expect(after.metadata.annotations['deployment.kubernetes.io/revision']).toBe('2');
    await c.req('PATCH', `${DEPLOYS}/web/scale`, { spec: { replicas: 1 } }, { 'Content-Type': 'application/merge-patch+json' });
    await run(2000);
    expect((await list('/api/v1/namespaces/default/pods')).length).toBe(1);
  });

  it('Recreate: old pods gone before new ones are created', async () => {
    await c.req('POST', DEPLOYS, deployment('web', 2, 'nginx', { strategy: { type: 'Recreate' } }));
    await run(3000);
    const d = (await c.req('GET', `${DEPLOYS}/web`)).body;
    d.spec.template.spec.containers[0].image = 'nginx:1.27';
    await c.req('PUT', `${DEPLOYS}/web`, d);
    let mixed = false;
    for (let i = 0; i < 40; i++) {
      await run(100);
      const images = new Set((await list('/api/v1/namespaces/default/pods')).map((p) => p.spec.containers[0].image));
      if (images.size > 1) mixed = true;
    }
    expect(mixed).toBe(false);
    const pods = await list('/api/v1/namespaces/default/pods');
    expect(pods.map((p) => p.spec.containers[0].image)).toEqual(['nginx:1.27', 'nginx:1.27']);
  });
});

describe('rolling-update arithmetic', () => {
  const d = (replicas: number, maxSurge: unknown, maxUnavailable: unknown) => ({ spec: { replicas, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge, maxUnavailable } } } }) as unknown as KubeObject;
  const rs = (name: string, replicas: number, available: number, t: number) => ({ metadata: { name, creationTimestamp: new Date(t * 1000).toISOString() }, spec: { replicas }, status: { replicas, availableReplicas: available } }) as unknown as KubeObject;
  it('fenceposts: surge rounds up, unavailable down, both zero means one', () => {
    expect(fenceposts(d(10, '25%', '25%'))).toEqual({ surge: 3, unavailable: 2 });
    expect(fenceposts(d(3, '25%', '25%'))).toEqual({ surge: 1, unavailable: 0 });
    expect(fenceposts(d(3, 0, 0))).toEqual({ surge: 0, unavailable: 1 });
  });
  it('the new replica set grows within maxSurge; old ones shrink to keep minAvailable', () => {
    const old = rs('old', 10, 10, 1);
    const neu = rs('new', 0, 0, 2);
    expect(newRSNewReplicas(d(10, '25%', '25%'), [old, neu], neu)).toBe(3);
    const downs = oldScaleDowns(d(10, '25%', '25%'), [old, rs('new', 3, 0, 2)], [old], rs('new', 3, 0, 2));
    expect(downs.get(old)).toBe(8);
  });
});

describe('scheduler filters', () => {
  const node = (name: string, labels: Record<string, string> = {}, taints: unknown[] = [], alloc: Record<string, string> = { cpu: '2', memory: '1Gi', pods: '2' }) =>
    ({ metadata: { name, labels }, spec: taints.length ? { taints } : {}, status: { allocatable: alloc } }) as unknown as KubeObject;
  const pod = (spec: Record<string, unknown>) => ({ metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'x' }], ...spec } }) as unknown as KubeObject;
  it('required node affinity: terms ORed, expressions ANDed (In, NotIn, Exists, Gt), matchFields on the name', () => {
    const affinity = (terms: unknown[]) => ({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } } });
    const n = node('a', { zone: 'z1', size: '8' });
    expect(nodeAffinityMatches(pod(affinity([{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['z1'] }, { key: 'size', operator: 'Gt', values: ['4'] }] }])), n)).toBe(true);
    expect(nodeAffinityMatches(pod(affinity([{ matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['z1'] }] }, { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['a'] }] }])), n)).toBe(true);
    expect(nodeAffinityMatches(pod(affinity([{ matchExpressions: [{ key: 'gpu', operator: 'Exists' }] }])), n)).toBe(false);
    expect(nodeAffinityMatches(pod({ nodeSelector: { zone: 'z2' } }), n)).toBe(false);
  });
  it('taints: NoSchedule and NoExecute need a toleration (Equal or Exists); PreferNoSchedule does not', () => {
    const tainted = node('a', {}, [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }]);
    expect(filterNode(pod({}), tainted, []).reasons).toEqual(['node(s) had untolerated taint {dedicated: db}']);
    expect(filterNode(pod({ tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'db', effect: 'NoSchedule' }] }), tainted, []).reasons).toEqual([]);
    expect(filterNode(pod({ tolerations: [{ key: 'dedicated', operator: 'Exists' }] }), tainted, []).reasons).toEqual([]);
    expect(filterNode(pod({ tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'web' }] }), tainted, []).reasons).toHaveLength(1);
    expect(filterNode(pod({}), node('b', {}, [{ key: 'x', effect: 'PreferNoSchedule' }]), []).reasons).toEqual([]);
  });
  it('resources: requests summed over the pods on the node; the pod count', () => {
    const n = node('a');
    const req = (cpu: string, memory: string) => pod({ containers: [{ name: 'c', image: 'x', resources: { requests: { cpu, memory } } }] });
    expect(filterNode(req('1500m', '512Mi'), n, [req('1', '600Mi')]).reasons).toEqual(['Insufficient cpu', 'Insufficient memory']);
    expect(filterNode(req('500m', '100Mi'), n, [req('1', '600Mi')]).reasons).toEqual([]);
    expect(filterNode(pod({}), n, [pod({}), pod({})]).reasons).toEqual(['Too many pods']);
  });
  it('the FitError message counts reasons per node, sorted, with the preemption part', () => {
    const fits = [
      { node: node('a'), reasons: ['Insufficient cpu'], unresolvable: false },
      { node: node('b'), reasons: ['node(s) had untolerated taint {k: }'], unresolvable: true },
      { node: node('c'), reasons: ['Insufficient cpu'], unresolvable: false },
    ];
    expect(fitErrorMessage(3, fits)).toBe('0/3 nodes are available: 1 node(s) had untolerated taint {k: }, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.');
  });
});
