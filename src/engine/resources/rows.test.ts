// Smaller rows of the real-world inputs issue: the CronJob SUSPEND cell, EndpointSlice v1 dropping
// deprecatedTopology on write (and its generation).
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../testing/harness.js';

let c: TestClient;
beforeEach(async () => {
  c = await testClient(createMemoryStorage());
});

const TABLE = { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' };

describe('CronJob table', () => {
  it('SUSPEND prints False/True as the real printer (a boolean column with string cells)', async () => {
    const cj = (name: string, suspend: boolean) => ({
      apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name },
      spec: { schedule: '*/5 * * * *', suspend, jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'a', image: 'busybox:1' }] } } } } },
    });
    await c.req('POST', '/apis/batch/v1/namespaces/default/cronjobs', cj('a', false));
    await c.req('POST', '/apis/batch/v1/namespaces/default/cronjobs', cj('b', true));
    const r = await c.req('GET', '/apis/batch/v1/namespaces/default/cronjobs', undefined, TABLE);
    const col = r.body.columnDefinitions.findIndex((d: { name: string }) => d.name === 'Suspend');
    expect(r.body.columnDefinitions[col].type).toBe('boolean');
    expect(r.body.rows.map((row: { cells: unknown[] }) => row.cells[col])).toEqual(['False', 'True']);
  });
});

describe('EndpointSlice v1 writes drop deprecatedTopology', () => {
  const ES = '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices';
  const slice = (endpoints: unknown[], rv?: string) => ({
    apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 's', ...(rv ? { resourceVersion: rv } : {}) },
    addressType: 'IPv4', endpoints, ports: [{ port: 80 }],
  });

  it('on create, and generation starts at 1', async () => {
    const r = await c.req('POST', ES, slice([{ addresses: ['10.0.0.1'], deprecatedTopology: { 'kubernetes.io/hostname': 'n1', zone: 'a' } }]));
    expect(r.status, r.text).toBe(201);
    expect(r.body.endpoints).toEqual([{ addresses: ['10.0.0.1'] }]);
    expect(r.body.metadata.generation).toBe(1);
  });

  it('on update of the endpoints; an unchanged update keeps the generation', async () => {
    const created = await c.req('POST', ES, slice([{ addresses: ['10.0.0.1'] }]));
    const same = await c.req('PUT', `${ES}/s`, slice([{ addresses: ['10.0.0.1'] }], created.body.metadata.resourceVersion));
    expect(same.status).toBe(200);
    expect(same.body.metadata.generation).toBe(1);
    const r = await c.req('PUT', `${ES}/s`, slice([{ addresses: ['10.0.0.2'], deprecatedTopology: { 'kubernetes.io/hostname': 'n2' } }]));
    expect(r.status, r.text).toBe(200);
    expect(r.body.endpoints).toEqual([{ addresses: ['10.0.0.2'] }]);
    expect(r.body.metadata.generation).toBe(2);
  });
});
