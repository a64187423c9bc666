// One object, every version: kinds served in several versions (or groups) share one store and convert both
// ways on the wire. HorizontalPodAutoscaler autoscaling/v1 <-> autoscaling/v2, Event core v1 <->
// events.k8s.io/v1, custom resources of multi-version CRDs (strategy None; Webhook refused with the real
// converter's error); events.k8s.io/v1 validation; CRD schema defaults applied on read.
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../testing/harness.js';
import { collectEvents } from '../testing/events.js';
import { builtinResources } from './index.js';
import { storageLocation } from '../registry/conversion.js';

let c: TestClient;
beforeEach(async () => {
  c = await testClient(createMemoryStorage());
});

const CORE_EVENTS = '/api/v1/namespaces/default/events';
const V1_EVENTS = '/apis/events.k8s.io/v1/namespaces/default/events';
const HPA_V1 = '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers';
const HPA_V2 = '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers';

const coreEvent = {
  apiVersion: 'v1', kind: 'Event', metadata: { name: 'web.1' },
  involvedObject: { kind: 'Pod', name: 'web', namespace: 'default' },
  reason: 'Started', message: 'Started container app', type: 'Normal', count: 3,
  source: { component: 'kubelet', host: 'node-1' },
  firstTimestamp: '2025-01-01T00:00:00Z', lastTimestamp: '2025-01-01T00:05:00Z',
};

const v1Event = {
  apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'sched.1' },
  eventTime: '2025-01-01T00:00:00.000000Z', reportingController: 'example.com/scheduler', reportingInstance: 'sched-1',
  action: 'Binding', reason: 'Scheduled', type: 'Normal', note: 'Assigned default/web to node-1',
  regarding: { kind: 'Pod', name: 'web', namespace: 'default' },
};

describe('core v1 Event <-> events.k8s.io/v1 Event', () => {
  it('a core event reads back through events.k8s.io/v1 with the renamed fields, and the other way round', async () => {
    expect((await c.req('POST', CORE_EVENTS, coreEvent)).status).toBe(201);
    const r = await c.req('GET', `${V1_EVENTS}/web.1`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      apiVersion: 'events.k8s.io/v1', kind: 'Event',
      regarding: { kind: 'Pod', name: 'web', namespace: 'default' }, note: 'Started container app',
      deprecatedCount: 3, deprecatedSource: { component: 'kubelet', host: 'node-1' },
      deprecatedFirstTimestamp: '2025-01-01T00:00:00Z', deprecatedLastTimestamp: '2025-01-01T00:05:00Z',
    });
    for (const k of ['involvedObject', 'message', 'count', 'source', 'firstTimestamp', 'lastTimestamp']) expect(r.body).not.toHaveProperty(k);

    expect((await c.req('POST', V1_EVENTS, v1Event)).status).toBe(201);
    const back = await c.req('GET', `${CORE_EVENTS}/sched.1`);
    expect(back.body).toMatchObject({
      apiVersion: 'v1', kind: 'Event', involvedObject: { kind: 'Pod', name: 'web', namespace: 'default' },
      message: 'Assigned default/web to node-1', reportingComponent: 'example.com/scheduler', reportingInstance: 'sched-1', action: 'Binding',
    });
    expect(back.body).not.toHaveProperty('regarding');
    expect(back.body).not.toHaveProperty('reportingController');
  });

  it('a list in one version holds the writes of the other, field selectors use the names of the version listed', async () => {
    await c.req('POST', CORE_EVENTS, coreEvent);
    await c.req('POST', V1_EVENTS, v1Event);
    const v1 = await c.req('GET', V1_EVENTS);
    expect(v1.body.apiVersion).toBe('events.k8s.io/v1');
    expect(v1.body.items.map((e: any) => e.metadata.name)).toEqual(['sched.1', 'web.1']);
    expect(v1.body.items.every((e: any) => e.regarding && !e.involvedObject)).toBe(true);
    const core = await c.req('GET', CORE_EVENTS);
    expect(core.body.items.map((e: any) => e.metadata.name)).toEqual(['sched.1', 'web.1']);
    const sel = await c.req('GET', `${V1_EVENTS}?fieldSelector=${encodeURIComponent('reportingController=example.com/scheduler')}`);
    expect(sel.body.items.map((e: any) => e.metadata.name)).toEqual(['sched.1']);
    const sel2 = await c.req('GET', `${CORE_EVENTS}?fieldSelector=${encodeURIComponent('involvedObject.name=web,reason=Started')}`);
    expect(sel2.body.items.map((e: any) => e.metadata.name)).toEqual(['web.1']);
  });

  it('a watch in events.k8s.io/v1 sees a core v1 write with the right apiVersion and fields', async () => {
    const log = await collectEvents(c, V1_EVENTS);
    await c.req('POST', CORE_EVENTS, coreEvent);
    await c.req('DELETE', `${CORE_EVENTS}/web.1`);
    await c.settle();
    log.close();
    expect(log.types()).toEqual(['ADDED web.1', 'DELETED web.1']);
    const added = log.all()[0].object;
    expect(added.apiVersion).toBe('events.k8s.io/v1');
    expect(added.note).toBe('Started container app');
    expect(added.involvedObject).toBeUndefined();
  });

  it('discovery gives both forms the storageVersionHash of their one store', async () => {
    const core = (await c.req('GET', '/api/v1')).body.resources.find((r: any) => r.name === 'events');
    const v1 = (await c.req('GET', '/apis/events.k8s.io/v1')).body.resources.find((r: any) => r.name === 'events');
    expect(v1.storageVersionHash).toBe(core.storageVersionHash);
  });

  it('managedFields record the version each write used', async () => {
    await c.req('POST', `${V1_EVENTS}?fieldManager=v1-writer`, v1Event);
    const r = await c.req('GET', `${CORE_EVENTS}/sched.1`);
    r.body.message = 'changed';
    expect((await c.req('PUT', `${CORE_EVENTS}/sched.1?fieldManager=core-writer`, r.body)).status).toBe(200);
    const got = await c.req('GET', `${V1_EVENTS}/sched.1`);
    expect(got.body.note).toBe('changed');
    expect(got.body.metadata.managedFields.map((m: any) => [m.manager, m.apiVersion]).sort()).toEqual([
      ['core-writer', 'v1'],
      ['v1-writer', 'events.k8s.io/v1'],
    ]);
  });
});

describe('events.k8s.io/v1 validation (ValidateEventCreate / ValidateEventUpdate)', () => {
  it('a new v1 event needs eventTime, a known type, and the reporting fields, with the real messages', async () => {
    const r = await c.req('POST', V1_EVENTS, { metadata: { name: 'e1' }, regarding: { kind: 'Pod', name: 'p', namespace: 'default' }, type: 'Bad' });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe('Event.events.k8s.io "e1" is invalid: [eventTime: Required value, type: Invalid value: "": has invalid value: Bad]');
    const r2 = await c.req('POST', V1_EVENTS, { metadata: { name: 'e2' }, eventTime: '2025-01-01T00:00:00.000000Z', type: 'Normal', regarding: { kind: 'Pod', name: 'p', namespace: 'default' } });
    expect(r2.status).toBe(422);
    expect(r2.body.message).toBe(
      'Event.events.k8s.io "e2" is invalid: [reportingController: Required value, reportingController: Invalid value: "": name part must be non-empty, ' +
      'reportingController: Invalid value: "": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\'), ' +
      'reportingInstance: Required value, action: Required value, reason: Required value]',
    );
  });

  it('deprecated fields are refused in new v1 events, named as the internal fields', async () => {
    const r = await c.req('POST', V1_EVENTS, {
      ...v1Event, metadata: { name: 'e3' }, deprecatedCount: 2, deprecatedSource: { component: 'kubelet' },
      deprecatedFirstTimestamp: '2025-01-01T00:00:00Z', deprecatedLastTimestamp: '2025-01-01T00:00:00Z',
    });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe('Event.events.k8s.io "e3" is invalid: [firstTimestamp: Invalid value: "": needs to be unset, lastTimestamp: Invalid value: "": needs to be unset, count: Invalid value: "": needs to be unset, source: Invalid value: "": needs to be unset]');
    expect((await c.req('GET', `${V1_EVENTS}/e3`)).status).toBe(404);
  });

  it('the series, the note length and the legacy namespace rule', async () => {
    const r = await c.req('POST', V1_EVENTS, { ...v1Event, metadata: { name: 'e4' }, series: { count: 1 }, note: 'x'.repeat(1025) });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe('Event.events.k8s.io "e4" is invalid: [message: Invalid value: "": can have at most 1024 characters, series.count: Invalid value: "": should be at least 2, series.lastObservedTime: Required value]');
    const r2 = await c.req('POST', V1_EVENTS, { ...v1Event, metadata: { name: 'e5' }, regarding: { kind: 'Pod', name: 'p', namespace: 'other' } });
    expect(r2.status).toBe(201);
    const r3 = await c.req('POST', '/apis/events.k8s.io/v1/namespaces/kube-public/events', { ...v1Event, metadata: { name: 'e6' }, regarding: { kind: 'Node', name: 'n' } });
    expect(r3.status).toBe(422);
    expect(r3.body.message).toBe('Event.events.k8s.io "e6" is invalid: involvedObject.namespace: Invalid value: "": does not match event.namespace');
  });

  it('core v1 keeps the legacy rules only: deprecated fields and no eventTime are fine there', async () => {
    expect((await c.req('POST', CORE_EVENTS, coreEvent)).status).toBe(201);
    const r = await c.req('POST', CORE_EVENTS, { ...coreEvent, metadata: { name: 'new.1' }, eventTime: '2025-01-01T00:00:00.000000Z' });
    expect(r.status).toBe(422);
    expect(r.body.message).toContain('Event "new.1" is invalid: [reportingController: Required value');
  });

  it('an update through events.k8s.io/v1 may change the series; a changed series is checked again', async () => {
    const created = await c.req('POST', V1_EVENTS, v1Event);
    const ok = await c.req('PUT', `${V1_EVENTS}/sched.1`, { ...created.body, series: { count: 2, lastObservedTime: '2025-01-01T00:01:00.000000Z' } });
    expect(ok.status).toBe(200);
    const bad = await c.req('PUT', `${V1_EVENTS}/sched.1`, { ...ok.body, series: { count: 1, lastObservedTime: '2025-01-01T00:01:00.000000Z' } });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe('Event.events.k8s.io "sched.1" is invalid: series.count: Invalid value: "": should be at least 2');
  });
});

describe('HorizontalPodAutoscaler autoscaling/v1 <-> autoscaling/v2', () => {
  const v1 = {
    apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web' },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 5, targetCPUUtilizationPercentage: 50 },
  };

  it('a v1 object reads in v2 with its CPU target as a metric, and back in v1 unchanged', async () => {
    const created = await c.req('POST', HPA_V1, v1);
    expect(created.status).toBe(201);
    expect(created.body.apiVersion).toBe('autoscaling/v1');
    expect(created.body.spec).toEqual(v1.spec);
    const v2 = await c.req('GET', `${HPA_V2}/web`);
    expect(v2.body.apiVersion).toBe('autoscaling/v2');
    expect(v2.body.spec).toEqual({
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 5,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }],
    });
    expect(v2.body.metadata.annotations).toBeUndefined();
    const back = await c.req('GET', `${HPA_V1}/web`);
    expect(back.body.spec).toEqual(v1.spec);
    expect(back.body.status).toEqual({ currentReplicas: 0, desiredReplicas: 0 });
    expect(back.body.metadata.resourceVersion).toBe(v2.body.metadata.resourceVersion);
  });

  it('v2 fields v1 cannot express travel in the autoscaling.alpha.kubernetes.io annotations and survive a v1 update', async () => {
    const v2 = {
      apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'api', annotations: { team: 'a' } },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'api' }, minReplicas: 2, maxReplicas: 10,
        metrics: [
          { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } },
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } },
        ],
        behavior: { scaleDown: { stabilizationWindowSeconds: 60, selectPolicy: 'Min', policies: [{ type: 'Pods', value: 1, periodSeconds: 30 }] } },
      },
    };
    const created = await c.req('POST', HPA_V2, v2);
    expect(created.status).toBe(201);
    const asV1 = await c.req('GET', `${HPA_V1}/api`);
    expect(asV1.body.spec).toEqual({ scaleTargetRef: v2.spec.scaleTargetRef, minReplicas: 2, maxReplicas: 10, targetCPUUtilizationPercentage: 70 });
    const ann = asV1.body.metadata.annotations;
    expect(ann.team).toBe('a');
    expect(JSON.parse(ann['autoscaling.alpha.kubernetes.io/metrics'])).toEqual([{ type: 'Pods', pods: { metricName: 'qps', targetAverageValue: '10' } }]);
    expect(JSON.parse(ann['autoscaling.alpha.kubernetes.io/behavior']).ScaleDown).toEqual({ StabilizationWindowSeconds: 60, SelectPolicy: 'Min', Policies: [{ Type: 'Pods', Value: 1, PeriodSeconds: 30 }], Tolerance: null });
    // a v1 client writes back what it read (a label added): nothing of v2 is lost
    asV1.body.metadata.labels = { tier: 'api' };
    const put = await c.req('PUT', `${HPA_V1}/api`, asV1.body);
    expect(put.status).toBe(200);
    const after = await c.req('GET', `${HPA_V2}/api`);
    expect(after.body.metadata.labels).toEqual({ tier: 'api' });
    expect(after.body.metadata.annotations).toEqual({ team: 'a' });
    expect(after.body.spec.metrics).toEqual(created.body.spec.metrics);
    expect(after.body.spec.behavior).toEqual(created.body.spec.behavior);
  });

  it('a v2 watch sees v1 writes as v2 objects; status written in v2 reads as v1 currentCPUUtilizationPercentage', async () => {
    const log = await collectEvents(c, HPA_V2);
    await c.req('POST', HPA_V1, v1);
    await c.settle();
    log.close();
    expect(log.types()).toEqual(['ADDED web']);
    expect(log.all()[0].object.apiVersion).toBe('autoscaling/v2');
    expect(log.all()[0].object.spec.metrics[0].resource.target.averageUtilization).toBe(50);
    const cur = (await c.req('GET', `${HPA_V2}/web`)).body;
    cur.status = { currentReplicas: 2, desiredReplicas: 3, currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 42, averageValue: '120m' } } }] };
    expect((await c.req('PUT', `${HPA_V2}/web/status`, cur)).status).toBe(200);
    const asV1 = await c.req('GET', `${HPA_V1}/web`);
    expect(asV1.body.status).toEqual({ currentReplicas: 2, desiredReplicas: 3, currentCPUUtilizationPercentage: 42 });
    expect(JSON.parse(asV1.body.metadata.annotations['autoscaling.alpha.kubernetes.io/current-metrics'])).toEqual([
      { type: 'Resource', resource: { name: 'cpu', currentAverageUtilization: 42, currentAverageValue: '120m' } },
    ]);
  });
});

describe('every multi-version built-in shares one store', () => {
  it('served forms of one kind (same kind and resource name) all convert into one storage location', () => {
    const byKind = new Map<string, Set<string>>();
    for (const d of builtinResources) {
      const at = storageLocation(d);
      const k = `${d.kind}/${d.plural}`;
      if (!byKind.has(k)) byKind.set(k, new Set());
      byKind.get(k)!.add(`${at.group}/${at.resource}`);
    }
    for (const [k, locations] of byKind) expect([k, locations.size]).toEqual([k, 1]);
    const multi = builtinResources.filter((d) => builtinResources.some((o) => o !== d && o.kind === d.kind && o.plural === d.plural));
    expect(multi.map((d) => `${d.plural}.${d.group || 'core'}/${d.version}`).sort()).toEqual([
      'events.core/v1', 'events.events.k8s.io/v1', 'horizontalpodautoscalers.autoscaling/v1', 'horizontalpodautoscalers.autoscaling/v2',
    ]);
    for (const d of multi) expect(d.conversion, d.plural).toBeDefined();
  });
});

describe('custom resources of a CRD with several versions', () => {
  const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
  const schema = (extra: Record<string, unknown> = {}) => ({
    openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' }, mode: { type: 'string', ...extra } } } } },
  });
  const crd = (conversion?: Record<string, unknown>) => ({
    metadata: { name: 'gadgets.example.com' },
    spec: {
      group: 'example.com', scope: 'Namespaced', names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
      versions: [
        { name: 'v1', served: true, storage: true, schema: schema() },
        { name: 'v1beta1', served: true, storage: false, schema: schema() },
      ],
      ...(conversion ? { conversion } : {}),
    },
  });
  const V1 = '/apis/example.com/v1/namespaces/default/gadgets';
  const BETA = '/apis/example.com/v1beta1/namespaces/default/gadgets';

  it('strategy None: every version reads and writes the same objects, only apiVersion differs', async () => {
    expect((await c.req('POST', CRDS, crd())).status).toBe(201);
    await c.env.advance(1000);
    const log = await collectEvents(c, V1);
    const created = await c.req('POST', BETA, { apiVersion: 'example.com/v1beta1', kind: 'Gadget', metadata: { name: 'g' }, spec: { size: 1 } });
    expect(created.status).toBe(201);
    expect(created.body.apiVersion).toBe('example.com/v1beta1');
    const v1 = await c.req('GET', `${V1}/g`);
    expect(v1.body).toMatchObject({ apiVersion: 'example.com/v1', spec: { size: 1 } });
    const list = await c.req('GET', V1);
    expect(list.body.items.map((i: any) => i.apiVersion)).toEqual(['example.com/v1']);
    await c.settle();
    log.close();
    expect(log.all().map((e) => [e.type, e.object.apiVersion])).toEqual([['ADDED', 'example.com/v1']]);
    expect(v1.body.metadata.managedFields[0].apiVersion).toBe('example.com/v1beta1');
  });

  it('strategy Webhook: a conversion no webhook can answer is refused with the real converter error, not ignored', async () => {
    const conv = { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { service: { namespace: 'default', name: 'gadget-conv', path: '/convert' } } } };
    expect((await c.req('POST', CRDS, crd(conv))).status).toBe(201);
    await c.env.advance(1000);
    // the storage version needs no conversion
    expect((await c.req('POST', V1, { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g' }, spec: { size: 1 } })).status).toBe(201);
    const get = await c.req('GET', `${BETA}/g`);
    expect(get.status).toBe(500);
    expect(get.body).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'InternalError', code: 500,
      message: 'Internal error occurred: conversion webhook for example.com/v1, Kind=Gadget failed: Post "https://gadget-conv.default.svc:443/convert?timeout=30s": service "gadget-conv" not found',
      details: { causes: [{ message: 'conversion webhook for example.com/v1, Kind=Gadget failed: Post "https://gadget-conv.default.svc:443/convert?timeout=30s": service "gadget-conv" not found' }] },
    });
    const create = await c.req('POST', BETA, { apiVersion: 'example.com/v1beta1', kind: 'Gadget', metadata: { name: 'h' }, spec: { size: 1 } });
    expect(create.status).toBe(500);
    expect(create.body.message).toBe('Internal error occurred: conversion webhook for example.com/v1beta1, Kind=Gadget failed: Post "https://gadget-conv.default.svc:443/convert?timeout=30s": service "gadget-conv" not found');
    expect((await c.req('GET', `${V1}/h`)).status).toBe(404);
    // with the Service there, nothing answers on its cluster IP
    const svc = await c.req('POST', '/api/v1/namespaces/default/services', { metadata: { name: 'gadget-conv' }, spec: { ports: [{ port: 443 }] } });
    expect(svc.status).toBe(201);
    const again = await c.req('GET', `${BETA}/g`);
    expect(again.body.message).toBe(`Internal error occurred: conversion webhook for example.com/v1, Kind=Gadget failed: Post "https://gadget-conv.default.svc:443/convert?timeout=30s": dial tcp ${svc.body.spec.clusterIP}:443: connect: connection refused`);
    // a watch in the other version gets the failure as an ERROR event
    const ac = new AbortController();
    const w = await c.server.handle(new Request(`http://127.0.0.1${BETA}?watch=1`, { signal: ac.signal }));
    const chunk = await w.body!.getReader().read();
    ac.abort();
    const ev = JSON.parse(new TextDecoder().decode(chunk.value).split('\n')[0]);
    expect([ev.type, ev.object.reason, ev.object.code]).toEqual(['ERROR', 'InternalError', 500]);
    // reads in the storage version still work
    expect((await c.req('GET', `${V1}/g`)).status).toBe(200);
  });

  it('a default added to the schema later shows on get, list and watch of objects stored before it', async () => {
    expect((await c.req('POST', CRDS, crd())).status).toBe(201);
    await c.env.advance(1000);
    const created = await c.req('POST', V1, { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g' }, spec: { size: 1 } });
    expect(created.body.spec).toEqual({ size: 1 });
    const cur = (await c.req('GET', `${CRDS}/gadgets.example.com`)).body;
    cur.spec.versions[0].schema = schema({ default: 'fast' });
    expect((await c.req('PUT', `${CRDS}/gadgets.example.com`, cur)).status).toBe(200);
    await c.settle();
    const got = await c.req('GET', `${V1}/g`);
    expect(got.body.spec).toEqual({ size: 1, mode: 'fast' });
    // nothing was written: the default comes from the read
    expect(got.body.metadata.resourceVersion).toBe(created.body.metadata.resourceVersion);
    expect((await c.req('GET', V1)).body.items[0].spec).toEqual({ size: 1, mode: 'fast' });
    const ac = new AbortController();
    const w = await c.server.handle(new Request(`http://127.0.0.1${V1}?watch=1`, { signal: ac.signal }));
    const chunk = await w.body!.getReader().read();
    ac.abort();
    const first = JSON.parse(new TextDecoder().decode(chunk.value).split('\n')[0]);
    expect([first.type, first.object.spec]).toEqual(['ADDED', { size: 1, mode: 'fast' }]);
    // the storage decoder defaults with the schema of the version stored (v1): v1beta1 has no default, yet shows it
    expect((await c.req('GET', `${BETA}/g`)).body.spec).toEqual({ size: 1, mode: 'fast' });
  });
});

describe('CRD schemas in the spec spelling', () => {
  it('x-svc-* schema extensions are the x-kubernetes-* ones: stored under the real names and enforced', async () => {
    const r = await c.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions?fieldValidation=Strict', {
      metadata: { name: 'gadgets.example.com' },
      spec: {
        group: 'example.com', scope: 'Namespaced', names: { plural: 'gadgets', kind: 'Gadget' },
        versions: [{
          name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: {
            type: 'object', 'x-svc-preserve-unknown-fields': true,
            properties: { ports: { type: 'array', 'x-svc-list-type': 'map', 'x-svc-list-map-keys': ['name'], items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } },
          } } } },
        }],
      },
    });
    expect(r.status).toBe(201);
    const spec = r.body.spec.versions[0].schema.openAPIV3Schema.properties.spec;
    expect(spec['x-kubernetes-preserve-unknown-fields']).toBe(true);
    expect(spec.properties.ports['x-kubernetes-list-type']).toBe('map');
    expect(spec.properties.ports['x-kubernetes-list-map-keys']).toEqual(['name']);
    expect(JSON.stringify(r.body)).not.toContain('x-svc-');
    await c.env.advance(1000);
    const g = await c.req('POST', '/apis/example.com/v1/namespaces/default/gadgets', { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g' }, spec: { extra: 1, ports: [{ name: 'a' }, { name: 'a' }] } });
    expect(g.status).toBe(422);
    expect(g.body.message).toBe('Gadget.example.com "g" is invalid: spec.ports[1]: Duplicate value: map[string]interface {}{"name":"a"}');
  });
});
