// The owner tree's pure parts: nesting by ownerReferences (the controller reference first, any chain of the
// shown kinds, orphans as roots) and what a row says.
import { describe, expect, it } from 'vitest';
import { ownerForest, podSummary, summary } from './owner-tree.js';

const o = (kind: string, name: string, uid: string, owner?: string, extra: Record<string, unknown> = {}) => ({
  kind,
  metadata: { name, namespace: 'default', uid, ...(owner ? { ownerReferences: [{ uid: 'other' }, { uid: owner, controller: true }] } : {}) },
  ...extra,
});

describe('ownerForest', () => {
  it('nests CronJob -> Job -> Pod and Deployment -> ReplicaSet -> Pods; owners first, then names', () => {
    const forest = ownerForest([
      o('Pod', 'web-b', 'p2', 'rs'),
      o('Pod', 'web-a', 'p1', 'rs'),
      o('ReplicaSet', 'web-1', 'rs', 'd'),
      o('Deployment', 'web', 'd'),
      o('Pod', 'tick-1-x', 'p3', 'j'),
      o('Job', 'tick-1', 'j', 'cj'),
      o('CronJob', 'tick', 'cj'),
      o('Pod', 'lonely', 'p4', 'gone'),
    ]);
    const show = (n: any, depth = 0): string[] => [`${'  '.repeat(depth)}${n.kind} ${n.obj.metadata.name}`, ...n.children.flatMap((c: any) => show(c, depth + 1))];
    expect(forest.flatMap((n) => show(n))).toEqual([
      'CronJob tick',
      '  Job tick-1',
      '    Pod tick-1-x',
      'Deployment web',
      '  ReplicaSet web-1',
      '    Pod web-a',
      '    Pod web-b',
      'Pod lonely',
    ]);
  });
});

describe('summaries', () => {
  it('a crash-looping pod reads as kubectl STATUS does, with ready containers, restarts and node', () => {
    const pod = {
      kind: 'Pod',
      metadata: {},
      spec: { nodeName: 'node-2', containers: [{ name: 'c' }] },
      status: { phase: 'Running', containerStatuses: [{ ready: false, restartCount: 3, state: { waiting: { reason: 'CrashLoopBackOff' } } }] },
    };
    expect(podSummary(pod)).toBe('CrashLoopBackOff, ready 0/1, restarts 3, on node-2');
    expect(podSummary({ ...pod, metadata: { deletionTimestamp: 'x' } })).toBe('Terminating, ready 0/1, restarts 3, on node-2');
    expect(podSummary({ kind: 'Pod', metadata: {}, spec: { containers: [{}] } })).toBe('Pending, ready 0/1, restarts 0');
  });

  it('controllers: replica counts', () => {
    expect(summary({ kind: 'Deployment', spec: { replicas: 3 }, status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 } })).toBe('ready 2/3, up-to-date 3, available 2');
    expect(summary({ kind: 'ReplicaSet', spec: { replicas: 3 }, status: { replicas: 3, readyReplicas: 1 } })).toBe('replicas 3/3, ready 1');
    expect(summary({ kind: 'Job', spec: { completions: 2 }, status: { succeeded: 1, active: 1 } })).toBe('succeeded 1/2, active 1');
  });
});
