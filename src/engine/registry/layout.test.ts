import { describe, expect, test } from 'vitest';
import type { KubeObject } from '../object.js';
import { builtinKinds, objects, rng } from '../merge/testing/generated.js';
import { normalizeLayout } from './store.js';

// normalizeLayout writes an object in the real server's JSON layout: kind, apiVersion, metadata first, status
// last, the metadata's fields in ObjectMeta's order with empty omitempty maps and lists and undefined members
// left out. Every write goes through it. Here it is held to that rule, written out as plain steps, over
// generated objects of every built-in kind: in the layout already, with their members and the metadata's
// fields shuffled, and with members undefined or empty.

const META_ORDER = [
  'name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp',
  'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers',
  'managedFields',
];
const OMIT_EMPTY = ['labels', 'annotations', 'finalizers', 'ownerReferences', 'managedFields'];

/** The layout rule, as a list of [member, value] pairs in order. */
function layout(obj: Record<string, unknown>): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const k of ['kind', 'apiVersion']) if (obj[k] !== undefined) out.push([k, obj[k]]);
  if (obj.metadata !== undefined) {
    const m = obj.metadata as Record<string, unknown>;
    const empty = (k: string, v: unknown) => OMIT_EMPTY.includes(k) && (Array.isArray(v) ? v.length === 0 : typeof v === 'object' && v !== null && Object.keys(v).length === 0);
    const fields: [string, unknown][] = [];
    for (const k of META_ORDER) if (Object.hasOwn(m, k) && m[k] !== undefined && !empty(k, m[k])) fields.push([k, m[k]]);
    for (const k of Object.keys(m)) if (!META_ORDER.includes(k) && m[k] !== undefined) fields.push([k, m[k]]);
    out.push(['metadata', fields]);
  }
  for (const k of Object.keys(obj)) if (!['kind', 'apiVersion', 'metadata', 'status'].includes(k)) out.push([k, obj[k]]);
  if (obj.status !== undefined) out.push(['status', obj.status]);
  return out;
}

function pairs(obj: KubeObject): [string, unknown][] {
  return Object.keys(obj).map((k) => [k, k === 'metadata' ? Object.keys(obj.metadata!).map((f) => [f, (obj.metadata as Record<string, unknown>)[f]]) : obj[k]]);
}

function shuffled<T>(xs: T[], r: () => number): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

function reordered(o: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = o[k];
  return out;
}

/** Variants of `obj`: in layout already, members shuffled, metadata fields shuffled, members undefined or empty. */
function variants(obj: KubeObject, seed: number): KubeObject[] {
  const r = rng(seed);
  const meta: Record<string, unknown> = {
    name: 'n',
    namespace: 'ns',
    uid: 'u',
    resourceVersion: '7',
    creationTimestamp: '2025-01-01T00:00:00Z',
    labels: { a: 'b' },
    annotations: {},
    finalizers: ['f'],
    managedFields: [],
    extra: 'x',
  };
  const full: KubeObject = { kind: 'K', apiVersion: 'v1', ...obj, metadata: meta as KubeObject['metadata'], status: { s: 1 } };
  const inLayout = Object.fromEntries(layout(full).map(([k, v]) => [k, k === 'metadata' ? Object.fromEntries(v as [string, unknown][]) : v])) as KubeObject;
  const out: KubeObject[] = [inLayout, { ...inLayout }];
  for (let i = 0; i < 6; i++) {
    const o = reordered(full, shuffled(Object.keys(full), r));
    o.metadata = reordered(meta, shuffled(Object.keys(meta), r));
    out.push(o as KubeObject);
  }
  // in layout but for one thing each
  const without = (k: string) => Object.fromEntries(Object.entries(inLayout).filter(([key]) => key !== k)) as KubeObject;
  out.push({ ...inLayout, kind: undefined });
  out.push({ ...inLayout, status: undefined });
  out.push({ ...without('status'), status: { s: 2 }, extraTop: 1 } as KubeObject);
  out.push({ ...inLayout, metadata: { ...(inLayout.metadata as object), labels: {} } });
  out.push({ ...inLayout, metadata: { ...(inLayout.metadata as object), uid: undefined } });
  out.push({ ...inLayout, metadata: { extra: 'x', ...(inLayout.metadata as object) } });
  out.push({ apiVersion: 'v1', kind: 'K', ...without('kind') } as KubeObject);
  out.push(without('metadata'));
  out.push({ ...without('metadata'), metadata: { name: 'm' } } as KubeObject);
  return out;
}

const kinds = builtinKinds();

describe('normalizeLayout gives the real JSON layout', () => {
  test('the catalog has its kinds', () => expect(kinds.size).toBeGreaterThan(50));
  for (const [definition, kind] of kinds) {
    test(`${kind} (${definition})`, () => {
      let seed = 1;
      for (const obj of objects(definition, 4)) {
        for (const v of variants(obj as KubeObject, seed++)) {
          const before = JSON.stringify(pairs(v));
          const got = normalizeLayout(v);
          expect(pairs(got)).toEqual(layout(v as Record<string, unknown>));
          // a new object and a new metadata: the input is not touched, and writing the result does not write it
          expect(got).not.toBe(v);
          if (v.metadata) expect(got.metadata).not.toBe(v.metadata);
          expect(JSON.stringify(pairs(v))).toBe(before);
        }
      }
    });
  }
});
