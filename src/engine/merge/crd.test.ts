// Server-side apply on custom resources ("Merge strategy markers" rule 3): without markers every list is
// atomic and every object is struct-like (granular); markers, when present, are used; metadata is
// ObjectMeta; preserve-unknown-fields holds deduced values.

import { describe, test } from 'vitest';
import type { KubeObject } from '../object.js';
import type { Schema } from '../schema/types.js';
import { apply, mf, runCase, update, type Case, type SchemaSet } from './testing/fixture.js';

const AV = 'stable.example.com/v1';
const str: Schema = { type: 'string' };
const item: Schema = { type: 'object', properties: { name: str, v: str } };

const gadgetSchema: Schema = {
  type: 'object',
  properties: {
    apiVersion: str,
    kind: str,
    metadata: { type: 'object' },
    spec: {
      type: 'object',
      properties: {
        items: { type: 'array', items: item },
        config: { type: 'object', properties: { a: str, b: str } },
        keyed: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: item },
        svcKeyed: { type: 'array', 'x-svc-list-type': 'map', 'x-svc-list-map-keys': ['name'], items: item },
        tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: str },
        patchy: { type: 'array', 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'name', items: item },
        free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        dict: { type: 'object', additionalProperties: str },
        frozen: { type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { a: str, b: str } },
        size: { 'x-kubernetes-int-or-string': true },
      },
    },
  },
};

const gadgets: SchemaSet = {
  defs: {}, // a CRD brings no definitions: metadata falls back to the engine's ObjectMeta
  roots: { default: gadgetSchema, open: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
  customResource: true,
  apiVersion: AV,
  kind: 'Gadget',
};

const base = { apiVersion: AV, kind: 'Gadget', metadata: { name: 'g', namespace: 'default' } };
const G = (spec: Record<string, unknown> | undefined, meta: Record<string, unknown> = {}): KubeObject => ({
  ...base,
  metadata: { ...base.metadata, ...meta },
  ...(spec ? { spec } : {}),
});
const A = (m: string, at: number | undefined, f: Record<string, unknown>) => mf(m, 'Apply', at, f as never, AV);
const U = (m: string, at: number | undefined, f: Record<string, unknown>) => mf(m, 'Update', at, f as never, AV);
const spec = (f: Record<string, unknown>) => ({ 'f:spec': f });

const cases: Case[] = [
  {
    name: 'custom resource: a list without markers is atomic',
    ops: [
      apply('m1', G({ items: [{ name: 'a', v: '1' }] })),
      apply('m2', G({ items: [{ name: 'b' }] }), { error: { code: 409, message: 'Apply failed with 1 conflict: conflict with "m1": .spec.items' } }),
    ],
    managed: [A('m1', 1, spec({ 'f:items': {} }))],
  },
  {
    name: 'custom resource: an object without markers is granular',
    ops: [apply('m1', G({ config: { a: 'x' } })), apply('m2', G({ config: { b: 'y' } }))],
    object: G({ config: { a: 'x', b: 'y' } }),
    managed: [A('m1', 1, spec({ 'f:config': { 'f:a': {} } })), A('m2', 2, spec({ 'f:config': { 'f:b': {} } }))],
  },
  {
    name: 'custom resource: list-type map markers are used (both spellings)',
    ops: [
      apply('m1', G({ keyed: [{ name: 'a', v: '1' }], svcKeyed: [{ name: 'x' }] })),
      apply('m2', G({ keyed: [{ name: 'b', v: '2' }], svcKeyed: [{ name: 'y' }] })),
    ],
    object: G({ keyed: [{ name: 'a', v: '1' }, { name: 'b', v: '2' }], svcKeyed: [{ name: 'x' }, { name: 'y' }] }),
    managed: [
      A('m1', 1, spec({ 'f:keyed': { 'k:{"name":"a"}': { '.': {}, 'f:name': {}, 'f:v': {} } }, 'f:svcKeyed': { 'k:{"name":"x"}': { '.': {}, 'f:name': {} } } })),
      A('m2', 2, spec({ 'f:keyed': { 'k:{"name":"b"}': { '.': {}, 'f:name': {}, 'f:v': {} } }, 'f:svcKeyed': { 'k:{"name":"y"}': { '.': {}, 'f:name': {} } } })),
    ],
  },
  {
    name: 'custom resource: list-type set markers are used',
    ops: [apply('m1', G({ tags: ['a'] })), apply('m2', G({ tags: ['b'] }))],
    object: G({ tags: ['a', 'b'] }),
    managed: [A('m1', 1, spec({ 'f:tags': { 'v:"a"': {} } })), A('m2', 2, spec({ 'f:tags': { 'v:"b"': {} } }))],
  },
  {
    name: 'custom resource: patchStrategy is not a marker there (the list stays atomic)',
    ops: [apply('m1', G({ patchy: [{ name: 'a' }] })), apply('m2', G({ patchy: [{ name: 'b' }] }), { force: true })],
    object: G({ patchy: [{ name: 'b' }] }),
    managed: [A('m2', 2, spec({ 'f:patchy': {} }))],
  },
  {
    name: 'custom resource: metadata is ObjectMeta (labels granular, finalizers a set)',
    ops: [
      apply('m1', G(undefined, { labels: { a: '1' }, finalizers: ['x/y'] })),
      apply('m2', G(undefined, { labels: { b: '2' }, finalizers: ['x/z'] })),
    ],
    object: G(undefined, { labels: { a: '1', b: '2' }, finalizers: ['x/y', 'x/z'] }),
    managed: [
      A('m1', 1, { 'f:metadata': { 'f:finalizers': { 'v:"x/y"': {} }, 'f:labels': { 'f:a': {} } } }),
      A('m2', 2, { 'f:metadata': { 'f:finalizers': { 'v:"x/z"': {} }, 'f:labels': { 'f:b': {} } } }),
    ],
  },
  {
    name: 'custom resource: preserve-unknown-fields values are granular maps with atomic lists',
    ops: [apply('m1', G({ free: { x: { y: 1 }, l: [1, 2] } })), apply('m2', G({ free: { x: { z: 2 } } }))],
    object: G({ free: { x: { y: 1, z: 2 }, l: [1, 2] } }),
    managed: [
      // keys that are not declared fields are members themselves, with "." when they have children
      A('m1', 1, spec({ 'f:free': { 'f:l': {}, 'f:x': { '.': {}, 'f:y': {} } } })),
      A('m2', 2, spec({ 'f:free': { 'f:x': { '.': {}, 'f:z': {} } } })),
    ],
  },
  {
    name: 'custom resource: additionalProperties map is granular, atomic map-type is one leaf',
    ops: [
      apply('m1', G({ dict: { a: '1' }, frozen: { a: '1' } })),
      apply('m2', G({ dict: { b: '2' }, frozen: { b: '2' } }), { error: { code: 409, message: 'Apply failed with 1 conflict: conflict with "m1": .spec.frozen' } }),
      apply('m2', G({ dict: { b: '2' } })),
    ],
    object: G({ dict: { a: '1', b: '2' }, frozen: { a: '1' } }),
    managed: [A('m1', 1, spec({ 'f:dict': { 'f:a': {} }, 'f:frozen': {} })), A('m2', 3, spec({ 'f:dict': { 'f:b': {} } }))],
  },
  {
    name: 'custom resource: int-or-string holds numbers or strings',
    ops: [apply('m1', G({ size: 3 })), update('m2', G({ size: '50%' }))],
    object: G({ size: '50%' }),
    managed: [U('m2', 2, spec({ 'f:size': {} }))],
  },
  {
    name: 'custom resource with an open schema: everything deduced, metadata still ObjectMeta',
    ops: [
      apply('m1', { ...base, metadata: { ...base.metadata, labels: { a: '1' } }, spec: { x: { y: 1 }, l: ['a'] } }, { schema: 'open' }),
      apply('m2', { ...base, metadata: { ...base.metadata, labels: { b: '2' } }, spec: { x: { z: 2 } } }, { schema: 'open' }),
    ],
    object: { ...base, metadata: { ...base.metadata, labels: { a: '1', b: '2' } }, spec: { x: { y: 1, z: 2 }, l: ['a'] } },
    managed: [
      A('m1', 1, { 'f:metadata': { 'f:labels': { 'f:a': {} } }, 'f:spec': { '.': {}, 'f:l': {}, 'f:x': { '.': {}, 'f:y': {} } } }),
      A('m2', 2, { 'f:metadata': { 'f:labels': { 'f:b': {} } }, 'f:spec': { '.': {}, 'f:x': { '.': {}, 'f:z': {} } } }),
    ],
  },
  {
    name: 'custom resource: a configuration of another kind is refused',
    ops: [apply('m1', { ...base, kind: 'Other' }, { error: { code: 400, message: 'invalid object type: stable.example.com/v1, Kind=Other' } })],
  },
  {
    name: 'custom resource: an undeclared field is refused',
    ops: [
      apply('m1', G({ nope: true }), {
        error: { code: 500, message: 'failed to create typed patch object (default/g; stable.example.com/v1, Kind=Gadget): .spec.nope: field not declared in schema' },
      }),
    ],
  },
];

describe('server-side apply (custom resources)', () => {
  for (const c of cases) test(c.name, () => runCase(c, gadgets));
});
