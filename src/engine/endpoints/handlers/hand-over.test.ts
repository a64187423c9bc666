// A write answer's serialization is handed over to the next read of the same stored object (list.ts,
// handOver): the read must answer exactly what it would have serialized itself, and never another object's
// text or the text of another version of the same object.
import { describe, expect, it } from 'vitest';
import { builtinResources } from '../../resources/index.js';
import { deepFreeze, type KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { objectJsonBody, objectJsonText, orderedMeta } from './list.js';
import { createMemoryStorage } from '../../../adapters/memory/memory-storage.js';
import { testClient } from '../../testing/harness.js';

const text = (v: string | Uint8Array) => (typeof v === 'string' ? v : new TextDecoder().decode(v));
const cmDef = builtinResources.find((d) => d.kind === 'ConfigMap' && !d.group)!;
const widget = { group: 'x.example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true, custom: true } as unknown as ResourceDefinition;
const cm = (name: string, v: string): KubeObject =>
  deepFreeze({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name, namespace: 'd', uid: name, resourceVersion: '5' }, data: { k: v } }) as KubeObject;

describe('the hand-over of a write answer to the next read', () => {
  it('a get of the written object answers the write answer; a get of another object its own bytes', () => {
    const a = cm('a', '1');
    const b = cm('b', '2');
    const answer = text(objectJsonText(cmDef, a));
    expect(text(objectJsonBody(cmDef, b))).toBe(JSON.stringify(b) + '\n');
    expect(text(objectJsonBody(cmDef, a))).toBe(answer);
    expect(answer).toBe(JSON.stringify(a) + '\n');
    // the next write's answer replaces it: an object written before is serialized anew, the same bytes
    const c = cm('c', '3');
    const d = cm('d', '4');
    objectJsonText(cmDef, c);
    objectJsonText(cmDef, d);
    expect(text(objectJsonBody(cmDef, c))).toBe(JSON.stringify(c) + '\n');
    expect(text(objectJsonBody(cmDef, d))).toBe(JSON.stringify(d) + '\n');
  });

  it('a read of the same object in another version does not take the written version text', () => {
    const w = deepFreeze({ kind: 'Widget', apiVersion: 'x.example.com/v1', metadata: { name: 'w', namespace: 'd' }, spec: { n: 1 } }) as KubeObject;
    expect(text(objectJsonText(widget, w, 'x.example.com/v1'))).toContain('"apiVersion":"x.example.com/v1"');
    expect(text(objectJsonBody(widget, w, 'x.example.com/v2'))).toContain('"apiVersion":"x.example.com/v2"');
    expect(text(objectJsonBody(widget, w, 'x.example.com/v1'))).toContain('"apiVersion":"x.example.com/v1"');
  });
});

describe('objects as writes store them', () => {
  // the storage puts a new resourceVersion where ObjectMeta's order has it (write-plan.ts): an object a
  // create stores is already in the order it is served in, so its first serialization copies no metadata
  it('have their metadata in serialization order: created, generated, updated, patched and applied', async () => {
    const c = await testClient(createMemoryStorage());
    const CM = '/api/v1/namespaces/default/configmaps';
    expect((await c.req('POST', CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', labels: { x: 'y' }, annotations: { n: 'o' } }, data: { k: 'v' } })).status).toBe(201);
    expect((await c.req('POST', CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'g-', finalizers: ['example.com/f'] } })).status).toBe(201);
    expect((await c.req('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n1' } })).status).toBe(201);
    const a = (await c.req('GET', `${CM}/a`)).body;
    expect((await c.req('PUT', `${CM}/a`, { ...a, data: { k: 'w' } })).status).toBe(200);
    expect((await c.req('PATCH', `${CM}/a`, { metadata: { labels: { p: 'q' } } }, { 'Content-Type': 'application/merge-patch+json' })).status).toBe(200);
    expect((await c.req('PATCH', `${CM}/b?fieldManager=m`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b' }, data: { k: 'v' } }, { 'Content-Type': 'application/apply-patch+yaml' })).status).toBe(201);
    const state = c.server.engine.store.state;
    const stored = [...state.list('/core/configmaps/'), ...state.list('/core/namespaces/')];
    expect(stored.length).toBeGreaterThanOrEqual(5);
    for (const item of stored) {
      const meta = item.object.metadata!;
      expect(Object.keys(meta)).toContain('resourceVersion');
      expect(orderedMeta(meta), item.key).toBe(meta);
    }
  });
});
