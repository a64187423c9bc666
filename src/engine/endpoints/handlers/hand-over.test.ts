// A write answer's serialization is handed over to the next read of the same stored object (list.ts,
// handOver): the read must answer exactly what it would have serialized itself, and never another object's
// text or the text of another version of the same object.
import { describe, expect, it } from 'vitest';
import { builtinResources } from '../../resources/index.js';
import { deepFreeze, type KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { objectJsonBody, objectJsonText } from './list.js';

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
