// Reads on the wire (issue 3): resourceVersion semantics, chunked lists, selectors, watch streams and
// representations, asserted as the real v1.33 server answers.
import { beforeEach, describe, expect, it } from 'vitest';
import { decode as cborDecode } from 'cbor-x';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../testing/harness.js';

let c: TestClient;
beforeEach(async () => {
  c = await testClient(createMemoryStorage());
});

const CM = '/api/v1/namespaces/default/configmaps';
const cm = (name: string, labels: Record<string, string> = {}, data: Record<string, string> = { a: '1' }) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: Object.keys(labels).length ? { name, labels } : { name },
  data,
});

async function create(name: string, labels: Record<string, string> = {}): Promise<any> {
  const r = await c.req('POST', CM, cm(name, labels));
  expect(r.status).toBe(201);
  return r.body;
}

describe('list basics', () => {
  it('answers ConfigMapList with items in key order and the collection resourceVersion', async () => {
    await create('b');
    await create('a');
    const r = await c.req('GET', CM);
    expect(r.status).toBe(200);
    expect(r.text.startsWith('{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"6"},"items":[{"metadata":{"name":"a"')).toBe(true);
    expect(r.body.items.map((i: any) => i.metadata.name)).toEqual(['a', 'b']);
    expect(Object.keys(r.body.items[0].metadata)).toEqual(['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp', 'managedFields']);
    expect(r.text.endsWith(']}\n')).toBe(true);
  });
});
