// pods/binding and bindings on the wire, as the pod registry's BindingREST answers.
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../../testing/harness.js';

let c: TestClient;
beforeEach(async () => {
  c = await testClient(createMemoryStorage(), { defaultObjects: false, controllers: [] });
});

const PODS = '/api/v1/namespaces/default/pods';
const pod = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
const binding = (name: string, node: string, extra: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'Binding', metadata: { name, ...extra }, target: { apiVersion: 'v1', kind: 'Node', name: node } });

describe('pods/binding', () => {
  it('binds: 201 Success Status; nodeName, annotations, PodScheduled=True; no managedFields entry', async () => {
    await c.req('POST', PODS, pod('p'));
    const r = await c.req('POST', `${PODS}/p/binding`, binding('p', 'node-1', { annotations: { a: 'b' } }));
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    const p = (await c.req('GET', `${PODS}/p`)).body;
    expect(p.spec.nodeName).toBe('node-1');
    expect(p.metadata.annotations).toEqual({ a: 'b' });
    expect(p.status.conditions).toEqual([{ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: '2025-01-01T00:00:00Z' }]);
    expect(p.metadata.managedFields.map((m: any) => m.manager)).toEqual(['unknown']);
  });

  it('an already bound pod: 409 on pods/binding', async () => {
    await c.req('POST', PODS, pod('p'));
    await c.req('POST', `${PODS}/p/binding`, binding('p', 'node-1'));
    const r = await c.req('POST', `${PODS}/p/binding`, binding('p', 'node-2'));
    expect(r.status).toBe(409);
    expect(r.body).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'Operation cannot be fulfilled on pods/binding "p": pod p is already assigned to node "node-1"',
      reason: 'Conflict', details: { name: 'p', kind: 'pods/binding' }, code: 409,
    });
  });

  it('a pod being deleted (held by a finalizer): 409', async () => {
    await c.req('POST', PODS, { ...pod('p'), metadata: { name: 'p', finalizers: ['example.com/hold'] } });
    await c.req('DELETE', `${PODS}/p`);
    const r = await c.req('POST', `${PODS}/p/binding`, binding('p', 'node-1'));
    expect(r.status).toBe(409);
    expect(r.body.message).toBe('Operation cannot be fulfilled on pods/binding "p": pod p is being deleted, cannot be assigned to a host');
  });

  it('name mismatch 400, missing target name 500 (an aggregate, not a Status), missing pod 404', async () => {
    await c.req('POST', PODS, pod('p'));
    const m = await c.req('POST', `${PODS}/p/binding`, binding('q', 'n'));
    expect([m.status, m.body.message, m.body.reason]).toEqual([400, 'name in URL does not match name in Binding object', 'BadRequest']);
    const t = await c.req('POST', `${PODS}/p/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p' }, target: { kind: 'Pod' } });
    expect(t.status).toBe(500);
    expect(t.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: '[target.kind: Unsupported value: "Pod": supported values: "Node", "<empty>", target.name: Required value]', code: 500 });
    const n = await c.req('POST', `${PODS}/x/binding`, binding('x', 'n'));
    expect([n.status, n.body.message]).toEqual([404, 'pods "x" not found']);
    expect((await c.req('GET', `${PODS}/p/binding`)).status).toBe(405);
  });

  it('bindings (the collection) binds the pod the Binding names; discovery lists both', async () => {
    await c.req('POST', PODS, pod('p'));
    const r = await c.req('POST', '/api/v1/namespaces/default/bindings', binding('p', 'node-3'));
    expect(r.status).toBe(201);
    expect((await c.req('GET', `${PODS}/p`)).body.spec.nodeName).toBe('node-3');
    const d = (await c.req('GET', '/api/v1')).body.resources;
    expect(d.find((x: any) => x.name === 'bindings')).toEqual({ name: 'bindings', singularName: 'binding', namespaced: true, kind: 'Binding', verbs: ['create'] });
    expect(d.find((x: any) => x.name === 'pods/binding')).toEqual({ name: 'pods/binding', singularName: '', namespaced: true, kind: 'Binding', verbs: ['create'] });
  });
});
