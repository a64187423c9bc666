import { describe, expect, it } from 'vitest';
import { eventToCore, eventToEventsV1 } from './events-k8s-io/convert.js';
import { hpaToV1, hpaToV2 } from './horizontalpodautoscalers/convert.js';

describe('HPA v1 <-> v2', () => {
  const v1 = {
    apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web' },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 5, targetCPUUtilizationPercentage: 50 },
    status: { currentReplicas: 2, desiredReplicas: 2, currentCPUUtilizationPercentage: 40 },
  };
  it('v1 -> v2 -> v1 round-trips', () => {
    const v2 = hpaToV2(v1);
    expect(v2.spec).toEqual({
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 5,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }],
    });
    expect(v2.status).toEqual({ currentReplicas: 2, desiredReplicas: 2, currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 40 } } }] });
    const back = hpaToV1(v2);
    expect(back.spec).toEqual(v1.spec);
    expect(back.status).toMatchObject({ currentReplicas: 2, desiredReplicas: 2, currentCPUUtilizationPercentage: 40 });
  });
  it('v2 metrics v1 cannot express travel in annotations', () => {
    const v2 = { apiVersion: 'autoscaling/v2', metadata: { name: 'w' }, spec: { maxReplicas: 3, metrics: [{ type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } }] } };
    const v1b = hpaToV1(v2);
    expect(v1b.spec).toEqual({ maxReplicas: 3 });
    expect(JSON.parse(v1b.metadata!.annotations!['autoscaling.alpha.kubernetes.io/metrics'])).toEqual(v2.spec.metrics);
    expect(hpaToV2(v1b).spec).toEqual(v2.spec);
  });
});

describe('Event core <-> events.k8s.io', () => {
  it('renames the fields both ways', () => {
    const core = { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e' }, involvedObject: { kind: 'Pod', name: 'p' }, message: 'hi', count: 2, reason: 'Started' };
    const v1 = eventToEventsV1(core);
    expect(v1).toEqual({ apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'e' }, regarding: { kind: 'Pod', name: 'p' }, note: 'hi', deprecatedCount: 2, reason: 'Started' });
    expect(eventToCore(v1)).toEqual(core);
  });
});
