// The gated-field table, proven row by row on the wire: with the gate off a create drops the field, an update
// keeps it when the stored object used it and drops it otherwise; with the gate on it is kept.

import { describe, expect, it } from 'vitest';
import { memoryStorageFromState } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../testing/harness.js';
import { GATED_FIELDS, POD_SPEC_AT, type GatedField } from './gated-fields.js';
import { FEATURE_GATES } from '../features/gates.js';

type Obj = Record<string, any>;
const NS = 'default';
const CONTAINER = () => ({ name: 'c', image: 'nginx' });
const TEMPLATE = (restartPolicy?: string) => ({ metadata: { labels: { app: 'x' } }, spec: { containers: [CONTAINER()], ...(restartPolicy ? { restartPolicy } : {}) } });

/** A valid object of each kind the table reaches, and where it is served. */
const BASE: Record<string, { path: string; kind: string; apiVersion: string; body: () => Obj }> = {
  '/pods': { path: `/api/v1/namespaces/${NS}/pods`, kind: 'Pod', apiVersion: 'v1', body: () => ({ spec: { containers: [CONTAINER()] } }) },
  '/podtemplates': { path: `/api/v1/namespaces/${NS}/podtemplates`, kind: 'PodTemplate', apiVersion: 'v1', body: () => ({ template: TEMPLATE() }) },
  '/replicationcontrollers': { path: `/api/v1/namespaces/${NS}/replicationcontrollers`, kind: 'ReplicationController', apiVersion: 'v1', body: () => ({ spec: { replicas: 0, selector: { app: 'x' }, template: TEMPLATE() } }) },
  'apps/deployments': { path: `/apis/apps/v1/namespaces/${NS}/deployments`, kind: 'Deployment', apiVersion: 'apps/v1', body: () => ({ spec: { replicas: 0, selector: { matchLabels: { app: 'x' } }, template: TEMPLATE() } }) },
  'apps/replicasets': { path: `/apis/apps/v1/namespaces/${NS}/replicasets`, kind: 'ReplicaSet', apiVersion: 'apps/v1', body: () => ({ spec: { replicas: 0, selector: { matchLabels: { app: 'x' } }, template: TEMPLATE() } }) },
  'apps/statefulsets': { path: `/apis/apps/v1/namespaces/${NS}/statefulsets`, kind: 'StatefulSet', apiVersion: 'apps/v1', body: () => ({ spec: { replicas: 0, serviceName: 's', selector: { matchLabels: { app: 'x' } }, template: TEMPLATE() } }) },
  'apps/daemonsets': { path: `/apis/apps/v1/namespaces/${NS}/daemonsets`, kind: 'DaemonSet', apiVersion: 'apps/v1', body: () => ({ spec: { selector: { matchLabels: { app: 'x' } }, template: TEMPLATE() } }) },
  'batch/jobs': { path: `/apis/batch/v1/namespaces/${NS}/jobs`, kind: 'Job', apiVersion: 'batch/v1', body: () => ({ spec: { suspend: true, template: { spec: { containers: [CONTAINER()], restartPolicy: 'Never' } } } }) },
  'batch/cronjobs': { path: `/apis/batch/v1/namespaces/${NS}/cronjobs`, kind: 'CronJob', apiVersion: 'batch/v1', body: () => ({ spec: { schedule: '* * * * *', jobTemplate: { spec: { template: { spec: { containers: [CONTAINER()], restartPolicy: 'Never' } } } } } }) },
  '/persistentvolumeclaims': { path: `/api/v1/namespaces/${NS}/persistentvolumeclaims`, kind: 'PersistentVolumeClaim', apiVersion: 'v1', body: () => ({ spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }) },
  '/persistentvolumes': { path: '/api/v1/persistentvolumes', kind: 'PersistentVolume', apiVersion: 'v1', body: () => ({ spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' } } }) },
  'autoscaling/horizontalpodautoscalers': {
    path: `/apis/autoscaling/v2/namespaces/${NS}/horizontalpodautoscalers`, kind: 'HorizontalPodAutoscaler', apiVersion: 'autoscaling/v2',
    body: () => ({ spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 3, behavior: { scaleUp: { stabilizationWindowSeconds: 0 } } } }),
  },
};

function get(o: unknown, path: string): unknown {
  let cur: any = o;
  for (const seg of path.split('.')) cur = cur == null ? undefined : cur[seg];
  return cur;
}
function set(o: Obj, path: string, value: unknown): void {
  const segs = path.split('.');
  let cur: any = o;
  segs.slice(0, -1).forEach((seg, i) => {
    if (cur[seg] == null) cur[seg] = /^\d+$/.test(segs[i + 1]) ? [] : {};
    cur = cur[seg];
  });
  cur[segs[segs.length - 1]] = structuredClone(value);
}

interface Case { id: string; row: GatedField; key: string; at: string }
const cases: Case[] = GATED_FIELDS.flatMap((row, i) => {
  const places = row.scope === 'podSpec' ? Object.entries(POD_SPEC_AT) : [[`${row.scope.group}/${row.scope.resource}`, '']];
  return places.map(([key, at]) => ({ id: `g${i}-${key.replace(/\W/g, '')}`, row, key, at }));
});
const full = (c: Case, p: string) => (c.at ? `${c.at}.${p}` : p);

/** The kind's base object with the row's sample (and what it needs) set, or without the sample. */
function body(c: Case, name: string, withField: boolean): Obj {
  const b = BASE[c.key];
  const o: Obj = { apiVersion: b.apiVersion, kind: b.kind, metadata: { name }, ...b.body() };
  for (const [p, v] of Object.entries(c.row.sample.with ?? {})) set(o, full(c, p), v);
  if (withField) set(o, full(c, c.row.sample.path), c.row.sample.value);
  return o;
}
const url = (c: Case, name?: string) => (name ? `${BASE[c.key].path}/${name}` : BASE[c.key].path);
const gatesOf = (on: boolean) => Object.fromEntries([...new Set(GATED_FIELDS.map((r) => r.gate))].map((g) => [g, on]));

async function put(c: TestClient, k: Case, name: string): Promise<Obj> {
  const cur = await c.req('GET', url(k, name));
  expect(cur.status, JSON.stringify(cur.body)).toBe(200);
  // the stored object as read, with the field (and what it needs) set again
  const next: Obj = cur.body;
  for (const [p, v] of Object.entries(k.row.sample.with ?? {})) set(next, full(k, p), v);
  set(next, full(k, k.row.sample.path), k.row.sample.value);
  const r = await c.req('PUT', url(k, name), next);
  expect(r.status, `${k.id}: ${JSON.stringify(r.body)}`).toBe(200);
  return r.body;
}

describe('fields behind feature gates (dropDisabledFields), every row of the table on every kind it reaches', () => {
  it('covers only gates the registry knows and that can be off in v1.33, and every kind has a base object', () => {
    for (const row of GATED_FIELDS) {
      expect(FEATURE_GATES[row.gate], row.gate).toBeDefined();
      expect(FEATURE_GATES[row.gate].locked && FEATURE_GATES[row.gate].default, row.gate).toBeFalsy();
    }
    for (const c of cases) expect(BASE[c.key], c.key).toBeDefined();
    expect(cases.length).toBeGreaterThan(GATED_FIELDS.length);
  });

  it('gate on: kept on create; gate off: create drops it, update keeps it only when the stored object used it', async () => {
    const storage = memoryStorageFromState();
    const on = await testClient(storage, { controllers: [], defaultObjects: false, featureGates: gatesOf(true) });
    for (const c of cases) {
      const r = await on.req('POST', url(c), body(c, `${c.id}-used`, true));
      expect(r.status, `${c.id}: ${JSON.stringify(r.body)}`).toBe(201);
      expect(get(r.body, full(c, c.row.sample.path)), `${c.id} kept with the gate on`).toEqual(c.row.sample.value);
    }
    const state = storage.exportState();
    await on.server.close();

    const off = await testClient(memoryStorageFromState(state), { controllers: [], defaultObjects: false, featureGates: gatesOf(false) });
    for (const c of cases) {
      const dropped = c.row.sample.dropped;
      const created = await off.req('POST', url(c), body(c, `${c.id}-new`, true));
      expect(created.status, `${c.id}: ${JSON.stringify(created.body)}`).toBe(201);
      expect(get(created.body, full(c, c.row.sample.path)), `${c.id} dropped on create with the gate off`).toEqual(dropped);
      // the stored object does not use it: an update that adds it loses it
      expect(get(await put(off, c, `${c.id}-new`), full(c, c.row.sample.path)), `${c.id} dropped on update`).toEqual(dropped);
      // the stored object uses it (written while the gate was on): kept
      expect(get(await put(off, c, `${c.id}-used`), full(c, c.row.sample.path)), `${c.id} kept on update when in use`).toEqual(c.row.sample.value);
      const read = await off.req('GET', url(c, `${c.id}-used`));
      expect(get(read.body, full(c, c.row.sample.path))).toEqual(c.row.sample.value);
    }
    await off.server.close();
  }, 60_000);

  it('StatefulSet maxUnavailable with MaxUnavailableStatefulSet at its v1.33 default (off) is dropped, as a real server does', async () => {
    const c = await testClient(memoryStorageFromState(), { controllers: [], defaultObjects: false });
    const sts = {
      apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'web' },
      spec: { serviceName: 'web', selector: { matchLabels: { app: 'x' } }, template: TEMPLATE(), updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 2 } } },
    };
    const r = await c.req('POST', `/apis/apps/v1/namespaces/${NS}/statefulsets`, sts);
    expect(r.status).toBe(201);
    expect(r.body.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
  });
});
