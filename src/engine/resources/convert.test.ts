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
    // v2 -> v1 keeps the round-trip annotations away from the v2 object
    const back = hpaToV1(v2);
    expect(back.spec).toEqual(v1.spec);
    expect(back.status).toMatchObject({ currentReplicas: 2, desiredReplicas: 2, currentCPUUtilizationPercentage: 40 });
  });
  it('v2 metrics v1 cannot express travel in annotations', () => {
    const v2 = { apiVersion: 'autoscaling/v2', metadata: { name: 'w' }, spec: { maxReplicas: 3, metrics: [{ type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } }] } };
    const v1b = hpaToV1(v2);
    expect(v1b.spec).toEqual({ maxReplicas: 3 });
    // the annotation holds the metrics in autoscaling/v1's own metric format
    expect(JSON.parse(v1b.metadata!.annotations!['autoscaling.alpha.kubernetes.io/metrics'])).toEqual([{ type: 'Pods', pods: { metricName: 'qps', targetAverageValue: '10' } }]);
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

describe('HPA metric formats in the round-trip annotations', () => {
  const metrics = [
    { type: 'Object', object: { describedObject: { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', name: 'main' }, metric: { name: 'rps' }, target: { type: 'Value', value: '2k' } } },
    { type: 'External', external: { metric: { name: 'queue', selector: { matchLabels: { q: 'a' } } }, target: { type: 'AverageValue', averageValue: '30' } } },
    { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '500Mi' } } },
    { type: 'ContainerResource', containerResource: { name: 'cpu', container: 'app', target: { type: 'Utilization', averageUtilization: 60 } } },
  ];
  it('Object, External, Resource and ContainerResource metrics survive v2 -> v1 -> v2', () => {
    const v2 = { apiVersion: 'autoscaling/v2', metadata: { name: 'w' }, spec: { maxReplicas: 3, metrics } };
    const v1 = hpaToV1(v2);
    expect(JSON.parse(v1.metadata!.annotations!['autoscaling.alpha.kubernetes.io/metrics'])).toEqual([
      { type: 'Object', object: { target: { kind: 'Ingress', name: 'main', apiVersion: 'networking.k8s.io/v1' }, metricName: 'rps', targetValue: '2k' } },
      { type: 'External', external: { metricName: 'queue', metricSelector: { matchLabels: { q: 'a' } }, targetAverageValue: '30' } },
      { type: 'Resource', resource: { name: 'memory', targetAverageValue: '500Mi' } },
      { type: 'ContainerResource', containerResource: { name: 'cpu', container: 'app', targetAverageUtilization: 60 } },
    ]);
    const back = hpaToV2(v1);
    expect(back.spec).toEqual(v2.spec);
    expect(back.metadata!.annotations).toBeUndefined();
  });
});
