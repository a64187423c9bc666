// Table-driven server-side apply suite (structured-merge-diff fixture style): each case runs apply /
// update operations against one object with the schema written inline, then checks the object and the
// managedFields byte for byte.

import { describe, test } from 'vitest';
import type { KubeObject } from '../object.js';
import type { Schema, SchemaRegistry } from '../schema/types.js';
import { builtins } from '../resources/generated/builtins.js';
import { apply, mf, runCase, seed, update, type Case, type SchemaSet } from './testing/fixture.js';

const AV = 'example.com/v1';
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

const str: Schema = { type: 'string' };
const int: Schema = { type: 'integer' };
const strMap: Schema = { type: 'object', additionalProperties: str };

function widgetSpec(over: Record<string, Schema> = {}): Schema {
  return {
    type: 'object',
    properties: {
      replicas: int,
      paused: { type: 'boolean' },
      image: str,
      limits: strMap,
      selector: { type: 'object', additionalProperties: str, 'x-kubernetes-map-type': 'atomic' },
      sub: { type: 'object', properties: { a: str, b: str } },
      frozen: { type: 'object', properties: { x: str, y: str }, 'x-kubernetes-map-type': 'atomic' },
      tags: { type: 'array', items: str, 'x-kubernetes-list-type': 'set' },
      nums: { type: 'array', items: int, 'x-kubernetes-list-type': 'set' },
      args: { type: 'array', items: str },
      containers: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
        items: { $ref: 'test.Container' },
      },
      ports: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
        items: { type: 'object', properties: { containerPort: int, protocol: { type: 'string', default: 'TCP' }, name: str } },
      },
      env: {
        type: 'array',
        'x-kubernetes-patch-strategy': 'merge',
        'x-kubernetes-patch-merge-key': 'name',
        items: { type: 'object', properties: { name: str, value: str } },
      },
      svcList: {
        type: 'array',
        'x-svc-list-type': 'map',
        'x-svc-list-map-keys': ['id'],
        items: { type: 'object', properties: { id: int, v: str } },
      },
      svcMap: { type: 'object', additionalProperties: str, 'x-svc-map-type': 'atomic' },
      port: { type: 'string', format: 'int-or-string' },
      ...over,
    },
  };
}

function widgetDefs(spec: Schema): SchemaRegistry {
  return {
    [META]: builtins.definitions[META],
    'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference': builtins.definitions['io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference'],
    'io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry': builtins.definitions['io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry'],
    'io.k8s.apimachinery.pkg.apis.meta.v1.Time': builtins.definitions['io.k8s.apimachinery.pkg.apis.meta.v1.Time'],
    'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1': builtins.definitions['io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1'],
    'test.Widget': {
      type: 'object',
      'x-kubernetes-group-version-kind': [{ group: 'example.com', version: 'v1', kind: 'Widget' }],
      properties: {
        apiVersion: str,
        kind: str,
        metadata: { $ref: META },
        spec: { $ref: 'test.WidgetSpec' },
        status: { type: 'object', properties: { phase: str, ready: int } },
      },
    },
    'test.WidgetSpec': spec,
    'test.Container': {
      type: 'object',
      properties: {
        name: str,
        image: str,
        args: { type: 'array', items: str },
        env: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', properties: { name: str, value: str } },
        },
      },
    },
  };
}

const granularFrozen = widgetSpec({ frozen: { type: 'object', properties: { x: str, y: str } } });
const atomicSub = widgetSpec({ sub: { type: 'object', properties: { a: str, b: str }, 'x-kubernetes-map-type': 'atomic' } });
const atomicTags = widgetSpec({ tags: { type: 'array', items: str, 'x-kubernetes-list-type': 'atomic' } });

const widgets: SchemaSet = {
  defs: {
    ...widgetDefs(widgetSpec()),
    'test.WidgetSpecGranularFrozen': granularFrozen,
    'test.WidgetSpecAtomicSub': atomicSub,
    'test.WidgetSpecAtomicTags': atomicTags,
    'test.WidgetGranularFrozen': { ...widgetDefs(widgetSpec())['test.Widget'], properties: { ...widgetDefs(widgetSpec())['test.Widget'].properties, spec: { $ref: 'test.WidgetSpecGranularFrozen' } } },
    'test.WidgetAtomicSub': { ...widgetDefs(widgetSpec())['test.Widget'], properties: { ...widgetDefs(widgetSpec())['test.Widget'].properties, spec: { $ref: 'test.WidgetSpecAtomicSub' } } },
    'test.WidgetAtomicTags': { ...widgetDefs(widgetSpec())['test.Widget'], properties: { ...widgetDefs(widgetSpec())['test.Widget'].properties, spec: { $ref: 'test.WidgetSpecAtomicTags' } } },
  },
  roots: {
    default: { $ref: 'test.Widget' },
    granularFrozen: { $ref: 'test.WidgetGranularFrozen' },
    atomicSub: { $ref: 'test.WidgetAtomicSub' },
    atomicTags: { $ref: 'test.WidgetAtomicTags' },
  },
  apiVersion: AV,
};

const base = { apiVersion: AV, kind: 'Widget', metadata: { name: 'w', namespace: 'default' } };
/** A Widget with the given spec (and extra top-level members). */
const W = (spec?: Record<string, unknown>, more: Record<string, unknown> = {}): KubeObject =>
  spec === undefined ? { ...base, ...more } : { ...base, spec, ...more };
const A = (m: string, at: number | undefined, f: Record<string, unknown>) => mf(m, 'Apply', at, f as never, AV);
const U = (m: string, at: number | undefined, f: Record<string, unknown>, sub?: string) => mf(m, 'Update', at, f as never, AV, sub);
const spec = (f: Record<string, unknown>) => ({ 'f:spec': f });
const LAST = 'kubectl.kubernetes.io/last-applied-configuration';
const LAST_VALUE = '{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"annotations":{},"name":"w","namespace":"default"},"spec":{"image":"a","replicas":1}}\n';

const cases: Case[] = [
  // ---- scalars and structs ------------------------------------------------------------------------
  {
    name: 'apply creates the object and owns the leaves it sets',
    ops: [apply('m1', W({ replicas: 1, image: 'a' }))],
    object: W({ replicas: 1, image: 'a' }),
    managed: [A('m1', 1, spec({ 'f:image': {}, 'f:replicas': {} }))],
  },
  {
    name: 'an applier changes its own value without conflict',
    ops: [apply('m1', W({ replicas: 1 })), apply('m1', W({ replicas: 2 }))],
    object: W({ replicas: 2 }),
    managed: [A('m1', 2, spec({ 'f:replicas': {} }))],
  },
  {
    name: 'a field dropped from the applied config and owned by nobody else is removed',
    ops: [apply('m1', W({ replicas: 1, image: 'a' })), apply('m1', W({ replicas: 1 }))],
    object: W({ replicas: 1 }),
    managed: [A('m1', 2, spec({ 'f:replicas': {} }))],
  },
  {
    name: 'a no-op apply keeps the time of the entry',
    ops: [apply('m1', W({ replicas: 1 })), apply('m1', W({ replicas: 1 }))],
    object: W({ replicas: 1 }),
    managed: [A('m1', 1, spec({ 'f:replicas': {} }))],
  },
  {
    name: 'two appliers of the same value share it; the second (a no-op) gets no time',
    ops: [apply('m1', W({ replicas: 1 })), apply('m2', W({ replicas: 1 }))],
    object: W({ replicas: 1 }),
    managed: [A('m2', undefined, spec({ 'f:replicas': {} })), A('m1', 1, spec({ 'f:replicas': {} }))],
  },
  {
    name: 'a shared value changed by one of its appliers conflicts',
    ops: [
      apply('m1', W({ replicas: 1 })),
      apply('m2', W({ replicas: 1, image: 'x' })),
      apply('m1', W({ replicas: 2 }), {
        error: {
          code: 409,
          reason: 'Conflict',
          message: 'Apply failed with 1 conflict: conflict with "m2": .spec.replicas',
          causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "m2"', field: '.spec.replicas' }],
        },
      }),
    ],
    object: W({ replicas: 1, image: 'x' }),
    managed: [A('m1', 1, spec({ 'f:replicas': {} })), A('m2', 2, spec({ 'f:image': {}, 'f:replicas': {} }))],
  },
  {
    name: 'conflict between two appliers on a scalar',
    ops: [
      apply('m1', W({ replicas: 1 })),
      apply('m2', W({ replicas: 2 }), {
        error: { code: 409, message: 'Apply failed with 1 conflict: conflict with "m1": .spec.replicas' },
      }),
    ],
    object: W({ replicas: 1 }),
    managed: [A('m1', 1, spec({ 'f:replicas': {} }))],
  },
  {
    name: 'force takes the field; a manager left with nothing is removed',
    ops: [apply('m1', W({ replicas: 1 })), apply('m2', W({ replicas: 2 }), { force: true })],
    object: W({ replicas: 2 }),
    managed: [A('m2', 2, spec({ 'f:replicas': {} }))],
  },
  {
    name: 'force takes only the conflicting fields',
    ops: [apply('m1', W({ replicas: 1, image: 'a' })), apply('m2', W({ replicas: 2 }), { force: true })],
    object: W({ replicas: 2, image: 'a' }),
    managed: [A('m1', 1, spec({ 'f:image': {} })), A('m2', 2, spec({ 'f:replicas': {} }))],
  },
  {
    name: 'several conflicts with one applier, listed in path order',
    ops: [
      apply('m1', W({ replicas: 1, image: 'a' })),
      apply('m2', W({ replicas: 2, image: 'b' }), {
        error: {
          code: 409,
          message: 'Apply failed with 2 conflicts: conflicts with "m1":\n- .spec.image\n- .spec.replicas',
          causes: [
            { reason: 'FieldManagerConflict', message: 'conflict with "m1"', field: '.spec.image' },
            { reason: 'FieldManagerConflict', message: 'conflict with "m1"', field: '.spec.replicas' },
          ],
        },
      }),
    ],
    object: W({ replicas: 1, image: 'a' }),
  },
  {
    name: 'conflicts with several Update managers name their apiVersion',
    ops: [
      apply('m1', W({ replicas: 1, image: 'a' })),
      update('m2', W({ replicas: 2, image: 'a' })),
      update('m3', W({ replicas: 2, image: 'b' })),
      apply('m4', W({ replicas: 5, image: 'c' }), {
        error: {
          code: 409,
          message:
            'Apply failed with 2 conflicts: conflicts with "m2" using example.com/v1:\n- .spec.replicas\nconflicts with "m3" using example.com/v1:\n- .spec.image',
          causes: [
            { reason: 'FieldManagerConflict', message: 'conflict with "m2" using example.com/v1', field: '.spec.replicas' },
            { reason: 'FieldManagerConflict', message: 'conflict with "m3" using example.com/v1', field: '.spec.image' },
          ],
        },
      }),
    ],
    object: W({ replicas: 2, image: 'b' }),
    managed: [U('m2', 2, spec({ 'f:replicas': {} })), U('m3', 3, spec({ 'f:image': {} }))],
  },
  {
    name: 'force against several managers moves every field',
    ops: [
      apply('m1', W({ replicas: 1, image: 'a' })),
      update('m2', W({ replicas: 2, image: 'a', paused: true })),
      apply('m3', W({ replicas: 3, image: 'c' }), { force: true }),
    ],
    object: W({ replicas: 3, image: 'c', paused: true }),
    managed: [A('m3', 3, spec({ 'f:image': {}, 'f:replicas': {} })), U('m2', 2, spec({ 'f:paused': {} }))],
  },
  {
    name: 'a shared owner gives up a field by leaving it out; the value stays',
    ops: [apply('m1', W({ replicas: 1 })), apply('m2', W({ replicas: 1, image: 'a' })), apply('m2', W({ image: 'a' }))],
    object: W({ replicas: 1, image: 'a' }),
    managed: [A('m1', 1, spec({ 'f:replicas': {} })), A('m2', 2, spec({ 'f:image': {} }))],
  },
  {
    name: 'a field dropped by an applier stays when an updater also owns it',
    ops: [
      apply('m1', W({ replicas: 1 })),
      update('m2', W({ replicas: 1, image: 'b' })),
      apply('m1', W({ replicas: 1, image: 'b' })),
      apply('m1', W({ replicas: 1 })),
    ],
    object: W({ replicas: 1, image: 'b' }),
    managed: [A('m1', 1, spec({ 'f:replicas': {} })), U('m2', 2, spec({ 'f:image': {} }))],
  },
  {
    name: 'a field the applier never owned is not removed when it is absent from the config',
    ops: [update('m0', W({ paused: true })), apply('m1', W({ replicas: 1 })), apply('m1', W({ image: 'x' }))],
    object: W({ paused: true, image: 'x' }),
    managed: [A('m1', 3, spec({ 'f:image': {} })), U('m0', 1, spec({ 'f:paused': {} }))],
  },
  {
    name: 'an update that changes a field owned by an applier takes it (no conflict for updates)',
    ops: [apply('m1', W({ replicas: 1, image: 'a' })), update('m2', W({ replicas: 7, image: 'a' }))],
    object: W({ replicas: 7, image: 'a' }),
    managed: [A('m1', 1, spec({ 'f:image': {} })), U('m2', 2, spec({ 'f:replicas': {} }))],
  },
  {
    name: 'an update removing a field takes it from its owner without owning it',
    ops: [apply('m1', W({ replicas: 1, image: 'a' })), update('m2', W({ replicas: 1 }))],
    object: W({ replicas: 1 }),
    managed: [A('m1', 1, spec({ 'f:replicas': {} }))],
  },
  {
    name: 'managers left with an empty set are removed',
    ops: [update('m1', W({ image: 'a' })), update('m2', W({ image: 'b' }))],
    object: W({ image: 'b' }),
    managed: [U('m2', 2, spec({ 'f:image': {} }))],
  },
  {
    name: 'successive updates by one manager accumulate and refresh its time',
    ops: [update('m1', W({ image: 'a' })), update('m1', W({ image: 'a', replicas: 2 }))],
    managed: [U('m1', 2, spec({ 'f:image': {}, 'f:replicas': {} }))],
  },
  {
    name: 'an update that changes nothing keeps the time',
    ops: [update('m1', W({ image: 'a' })), update('m1', W({ image: 'a' }))],
    managed: [U('m1', 1, spec({ 'f:image': {} }))],
  },
  {
    name: 'an update to a subresource is a separate entry',
    ops: [
      update('ctl', W({ image: 'a' })),
      update('ctl', W({ image: 'a' }, { status: { phase: 'Running' } }), { subresource: 'status' }),
    ],
    managed: [U('ctl', 1, spec({ 'f:image': {} })), U('ctl', 2, { 'f:status': { '.': {}, 'f:phase': {} } }, 'status')],
  },
  {
    name: 'reset fields are never tracked (status on the main resource)',
    ops: [apply('m1', W({ image: 'a' }, { status: { phase: 'x' } }), { resetFields: [['status']] })],
    managed: [A('m1', 1, spec({ 'f:image': {} }))],
  },
  {
    name: 'entries are ordered Apply first, then by time, then by manager name',
    ops: [
      update('zeta', W({ image: 'a' }), { at: 5 }),
      update('alpha', W({ image: 'a', paused: true }), { at: 5 }),
      apply('late', W({ replicas: 3 }), { at: 9 }),
      update('early', W({ image: 'a', paused: true, replicas: 3, limits: { cpu: '1' } }), { at: 2 }),
    ],
    managed: [
      A('late', 9, spec({ 'f:replicas': {} })),
      U('early', 2, spec({ 'f:limits': { '.': {}, 'f:cpu': {} } })),
      U('alpha', 5, spec({ 'f:paused': {} })),
      U('zeta', 5, spec({ 'f:image': {} })),
    ],
  },
  {
    name: 'an Update and an Apply entry of the same manager are different entries',
    ops: [update('m', W({ image: 'a' })), apply('m', W({ replicas: 1 }))],
    managed: [A('m', 2, spec({ 'f:replicas': {} })), U('m', 1, spec({ 'f:image': {} }))],
  },
  {
    name: 'a created struct or map appears with "." in the creating update',
    ops: [update('m1', W({ sub: { a: 'x' }, limits: { cpu: '1' } }))],
    managed: [U('m1', 1, spec({ 'f:limits': { '.': {}, 'f:cpu': {} }, 'f:sub': { '.': {}, 'f:a': {} } }))],
  },
  {
    name: 'an empty object is owned as a leaf',
    ops: [apply('m1', W({ sub: {}, limits: {} }))],
    object: W({ sub: {}, limits: {} }),
    managed: [A('m1', 1, spec({ 'f:limits': {}, 'f:sub': {} }))],
  },
  // ---- granular and atomic maps / structs --------------------------------------------------------
  {
    name: 'granular map: appliers own keys separately; a dropped key is removed',
    ops: [
      apply('m1', W({ limits: { cpu: '1', gpu: '2' } })),
      apply('m2', W({ limits: { mem: '3' } })),
      apply('m1', W({ limits: { cpu: '1' } })),
    ],
    object: W({ limits: { cpu: '1', mem: '3' } }),
    managed: [A('m2', 2, spec({ 'f:limits': { 'f:mem': {} } })), A('m1', 3, spec({ 'f:limits': { 'f:cpu': {} } }))],
  },
  {
    name: 'granular struct: appliers own members separately',
    ops: [apply('m1', W({ sub: { a: 'x' } })), apply('m2', W({ sub: { b: 'y' } }))],
    object: W({ sub: { a: 'x', b: 'y' } }),
    managed: [A('m1', 1, spec({ 'f:sub': { 'f:a': {} } })), A('m2', 2, spec({ 'f:sub': { 'f:b': {} } }))],
  },
  {
    name: 'atomic map: owned whole and replaced whole; another applier conflicts',
    ops: [
      apply('m1', W({ selector: { a: '1' } })),
      apply('m2', W({ selector: { b: '2' } }), { error: { code: 409, message: 'Apply failed with 1 conflict: conflict with "m1": .spec.selector' } }),
      apply('m1', W({ selector: { b: '2' } })),
    ],
    object: W({ selector: { b: '2' } }),
    managed: [A('m1', 3, spec({ 'f:selector': {} }))],
  },
  {
    name: 'atomic struct: owned as one leaf',
    ops: [
      apply('m1', W({ frozen: { x: '1' } })),
      apply('m2', W({ frozen: { x: '1', y: '2' } }), { error: { code: 409, message: 'Apply failed with 1 conflict: conflict with "m1": .spec.frozen' } }),
    ],
    object: W({ frozen: { x: '1' } }),
    managed: [A('m1', 1, spec({ 'f:frozen': {} }))],
  },
  {
    name: 'x-svc-map-type atomic is honoured',
    ops: [apply('m1', W({ svcMap: { a: '1' } })), apply('m2', W({ svcMap: { a: '1', b: '2' } }), { force: true })],
    object: W({ svcMap: { a: '1', b: '2' } }),
    managed: [A('m2', 2, spec({ 'f:svcMap': {} }))],
  },
  // ---- lists --------------------------------------------------------------------------------------
  {
    name: 'atomic list: shared when equal, conflicts when changed',
    ops: [
      apply('m1', W({ args: ['a', 'b'] })),
      apply('m2', W({ args: ['a', 'b'] })),
      apply('m2', W({ args: ['c'] }), { error: { code: 409, message: 'Apply failed with 1 conflict: conflict with "m1": .spec.args' } }),
    ],
    object: W({ args: ['a', 'b'] }),
    managed: [A('m2', undefined, spec({ 'f:args': {} })), A('m1', 1, spec({ 'f:args': {} }))],
  },
  {
    name: 'atomic list replaced whole by its only applier',
    ops: [apply('m1', W({ args: ['a', 'b'] })), apply('m1', W({ args: ['c'] }))],
    object: W({ args: ['c'] }),
    managed: [A('m1', 2, spec({ 'f:args': {} }))],
  },
  {
    name: 'set: items owned separately, merged in order, a dropped item removed',
    ops: [apply('m1', W({ tags: ['a', 'b'] })), apply('m2', W({ tags: ['c', 'a'] })), apply('m1', W({ tags: ['a'] }))],
    object: W({ tags: ['c', 'a'] }),
    managed: [
      A('m2', 2, spec({ 'f:tags': { 'v:"a"': {}, 'v:"c"': {} } })),
      A('m1', 3, spec({ 'f:tags': { 'v:"a"': {} } })),
    ],
  },
  {
    name: 'set of numbers: an item removed by an update leaves its owner',
    ops: [apply('m1', W({ nums: [3, 1] })), update('m2', W({ nums: [3] }))],
    object: W({ nums: [3] }),
    managed: [A('m1', 1, spec({ 'f:nums': { 'v:3': {} } }))],
  },
  {
    name: 'list-map: items owned by key, "." on each item',
    ops: [apply('m1', W({ containers: [{ name: 'a', image: 'x' }] })), apply('m2', W({ containers: [{ name: 'b', image: 'y' }] }))],
    object: W({ containers: [{ name: 'a', image: 'x' }, { name: 'b', image: 'y' }] }),
    managed: [
      A('m1', 1, spec({ 'f:containers': { 'k:{"name":"a"}': { '.': {}, 'f:image': {}, 'f:name': {} } } })),
      A('m2', 2, spec({ 'f:containers': { 'k:{"name":"b"}': { '.': {}, 'f:image': {}, 'f:name': {} } } })),
    ],
  },
  {
    name: 'list-map: a conflict inside an item prints the key',
    ops: [
      apply('m1', W({ containers: [{ name: 'app', image: 'x' }] })),
      apply('m2', W({ containers: [{ name: 'app', image: 'z' }] }), {
        error: {
          code: 409,
          message: 'Apply failed with 1 conflict: conflict with "m1": .spec.containers[name="app"].image',
          causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "m1"', field: '.spec.containers[name="app"].image' }],
        },
      }),
    ],
  },
  {
    name: 'list-map: an item dropped by its only applier is removed, the other applier keeps its own',
    ops: [
      apply('m1', W({ containers: [{ name: 'a', image: 'x' }] })),
      apply('m2', W({ containers: [{ name: 'b', image: 'y' }] })),
      apply('m1', W({ replicas: 1 })),
    ],
    object: W({ replicas: 1, containers: [{ name: 'b', image: 'y' }] }),
    managed: [
      A('m2', 2, spec({ 'f:containers': { 'k:{"name":"b"}': { '.': {}, 'f:image': {}, 'f:name': {} } } })),
      A('m1', 3, spec({ 'f:replicas': {} })),
    ],
  },
  {
    name: 'list-map: an item is removed even when an updater owns one of its sub-fields',
    ops: [
      apply('m1', W({ containers: [{ name: 'a', image: 'x' }] })),
      update('m2', W({ containers: [{ name: 'a', image: 'x', args: ['--v'] }] })),
      apply('m1', W({ replicas: 1 })),
    ],
    object: W({ replicas: 1 }),
    // the removal also takes the removed paths from every other manager: m2 is left empty and dropped
    managed: [A('m1', 3, spec({ 'f:replicas': {} }))],
  },
  {
    name: 'list-map: an item shared by two appliers survives when one drops it',
    ops: [
      apply('m1', W({ containers: [{ name: 'a', image: 'x' }] })),
      apply('m2', W({ containers: [{ name: 'a' }] })),
      apply('m1', W({ replicas: 1 })),
    ],
    object: W({ replicas: 1, containers: [{ name: 'a' }] }),
    managed: [
      A('m2', undefined, spec({ 'f:containers': { 'k:{"name":"a"}': { '.': {}, 'f:name': {} } } })),
      A('m1', 3, spec({ 'f:replicas': {} })),
    ],
  },
  {
    name: 'list-map: new items are placed where the config puts them relative to shared ones',
    ops: [
      apply('m1', W({ containers: [{ name: 'a' }, { name: 'b' }] })),
      apply('m2', W({ containers: [{ name: 'c' }, { name: 'a' }] })),
    ],
    object: W({ containers: [{ name: 'c' }, { name: 'a' }, { name: 'b' }] }),
  },
  {
    name: 'nested list-maps: ownership of an entry inside an item',
    ops: [
      apply('m1', W({ containers: [{ name: 'a', env: [{ name: 'X', value: '1' }] }] })),
      apply('m2', W({ containers: [{ name: 'a', env: [{ name: 'Y', value: '2' }] }] })),
      apply('m2', W({ containers: [{ name: 'a', env: [{ name: 'X', value: '9' }] }] }), {
        error: { code: 409, message: 'Apply failed with 1 conflict: conflict with "m1": .spec.containers[name="a"].env[name="X"].value' },
      }),
    ],
    object: W({ containers: [{ name: 'a', env: [{ name: 'X', value: '1' }, { name: 'Y', value: '2' }] }] }),
    managed: [
      A('m1', 1, spec({ 'f:containers': { 'k:{"name":"a"}': { '.': {}, 'f:env': { 'k:{"name":"X"}': { '.': {}, 'f:name': {}, 'f:value': {} } }, 'f:name': {} } } })),
      A('m2', 2, spec({ 'f:containers': { 'k:{"name":"a"}': { '.': {}, 'f:env': { 'k:{"name":"Y"}': { '.': {}, 'f:name': {}, 'f:value': {} } }, 'f:name': {} } } })),
    ],
  },
  {
    name: 'composite keys: an omitted key field takes its default (protocol TCP)',
    ops: [apply('m1', W({ ports: [{ containerPort: 80, name: 'http' }] }))],
    object: W({ ports: [{ containerPort: 80, name: 'http' }] }),
    managed: [A('m1', 1, spec({ 'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:name': {} } } }))],
  },
  {
    name: 'composite keys: an explicit default key matches the defaulted item and shares it',
    ops: [
      apply('m1', W({ ports: [{ containerPort: 80, name: 'http' }] })),
      apply('m2', W({ ports: [{ containerPort: 80, protocol: 'TCP', name: 'http' }] })),
    ],
    object: W({ ports: [{ containerPort: 80, name: 'http', protocol: 'TCP' }] }),
    managed: [
      A('m1', 1, spec({ 'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:name': {} } } })),
      A('m2', 2, spec({ 'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:name': {}, 'f:protocol': {} } } })),
    ],
  },
  {
    name: 'composite keys: another protocol is another item; conflict paths list every key',
    ops: [
      apply('m1', W({ ports: [{ containerPort: 80, name: 'http' }] })),
      apply('m2', W({ ports: [{ containerPort: 80, protocol: 'UDP', name: 'dns' }] })),
      apply('m2', W({ ports: [{ containerPort: 80, name: 'web' }] }), {
        error: { code: 409, message: 'Apply failed with 1 conflict: conflict with "m1": .spec.ports[containerPort=80,protocol="TCP"].name' },
      }),
    ],
    object: W({ ports: [{ containerPort: 80, name: 'http' }, { containerPort: 80, protocol: 'UDP', name: 'dns' }] }),
  },
  {
    name: 'patchStrategy=merge with patchMergeKey is a list-map keyed by it',
    ops: [apply('m1', W({ env: [{ name: 'A', value: '1' }] })), apply('m2', W({ env: [{ name: 'B', value: '2' }] }))],
    object: W({ env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] }),
    managed: [
      A('m1', 1, spec({ 'f:env': { 'k:{"name":"A"}': { '.': {}, 'f:name': {}, 'f:value': {} } } })),
      A('m2', 2, spec({ 'f:env': { 'k:{"name":"B"}': { '.': {}, 'f:name': {}, 'f:value': {} } } })),
    ],
  },
  {
    name: 'x-svc-list-type map with x-svc-list-map-keys is honoured',
    ops: [apply('m1', W({ svcList: [{ id: 1, v: 'a' }] })), apply('m2', W({ svcList: [{ id: 2, v: 'b' }] }))],
    object: W({ svcList: [{ id: 1, v: 'a' }, { id: 2, v: 'b' }] }),
    managed: [
      A('m1', 1, spec({ 'f:svcList': { 'k:{"id":1}': { '.': {}, 'f:id': {}, 'f:v': {} } } })),
      A('m2', 2, spec({ 'f:svcList': { 'k:{"id":2}': { '.': {}, 'f:id': {}, 'f:v': {} } } })),
    ],
  },
  {
    name: 'list-map items created by an update carry "." and their key fields',
    ops: [update('m1', W({ containers: [{ name: 'a', image: 'x' }] }))],
    managed: [U('m1', 1, spec({ 'f:containers': { '.': {}, 'k:{"name":"a"}': { '.': {}, 'f:image': {}, 'f:name': {} } } }))],
  },
  {
    name: 'int-or-string: a number and a string are different values',
    ops: [
      apply('m1', W({ port: 80 })),
      apply('m2', W({ port: 'http' }), { error: { code: 409, message: 'Apply failed with 1 conflict: conflict with "m1": .spec.port' } }),
      apply('m2', W({ port: 80 })),
    ],
    object: W({ port: 80 }),
    managed: [A('m2', undefined, spec({ 'f:port': {} })), A('m1', 1, spec({ 'f:port': {} }))],
  },
  // ---- duplicates in live objects (allowed for updates, refused in applied configs) ----------------
  {
    name: 'duplicates: a duplicated set value is owned once',
    ops: [update('u1', W({ nums: [1, 1, 3, 4] }))],
    managed: [U('u1', 1, spec({ 'f:nums': { '.': {}, 'v:1': {}, 'v:3': {}, 'v:4': {} } }))],
  },
  {
    name: 'duplicates: adding a duplicate gives the value to the writer',
    ops: [update('u1', W({ nums: [1, 3, 4] })), update('u2', W({ nums: [1, 1, 3, 4] }))],
    managed: [U('u1', 1, spec({ 'f:nums': { '.': {}, 'v:3': {}, 'v:4': {} } })), U('u2', 2, spec({ 'f:nums': { 'v:1': {} } }))],
  },
  {
    name: 'duplicates: applying one of a duplicated value conflicts, forcing collapses the duplicates',
    ops: [
      update('updater', W({ nums: [1, 1, 3, 4] })),
      apply('applier', W({ nums: [1] }), { error: { code: 409, message: 'Apply failed with 1 conflict: conflict with "updater" using example.com/v1: .spec.nums[=1]' } }),
      apply('applier', W({ nums: [1] }), { force: true }),
    ],
    object: W({ nums: [1, 3, 4] }),
    managed: [A('applier', 3, spec({ 'f:nums': { 'v:1': {} } })), U('updater', 1, spec({ 'f:nums': { '.': {}, 'v:3': {}, 'v:4': {} } }))],
  },
  {
    name: 'duplicates: other values merge around untouched duplicates',
    ops: [update('updater', W({ nums: [1, 1, 3, 4] })), apply('applier', W({ nums: [5] }))],
    object: W({ nums: [1, 1, 3, 4, 5] }),
    managed: [A('applier', 2, spec({ 'f:nums': { 'v:5': {} } })), U('updater', 1, spec({ 'f:nums': { '.': {}, 'v:1': {}, 'v:3': {}, 'v:4': {} } }))],
  },
  {
    name: 'duplicates: a duplicated list-map item is owned whole, not field by field',
    ops: [update('updater', W({ containers: [{ name: 'a', image: '1' }, { name: 'a', image: '2' }, { name: 'b', image: '3' }] }))],
    managed: [U('updater', 1, spec({ 'f:containers': { '.': {}, 'k:{"name":"a"}': {}, 'k:{"name":"b"}': { '.': {}, 'f:image': {}, 'f:name': {} } } }))],
  },
  // ---- metadata -----------------------------------------------------------------------------------
  {
    name: 'labels, annotations and finalizers are tracked; name/namespace never',
    ops: [
      apply('m1', { ...base, metadata: { ...base.metadata, labels: { app: 'x' }, annotations: { note: 'y' }, finalizers: ['example.com/f'] } }),
    ],
    managed: [
      A('m1', 1, {
        'f:metadata': { 'f:annotations': { 'f:note': {} }, 'f:finalizers': { 'v:"example.com/f"': {} }, 'f:labels': { 'f:app': {} } },
      }),
    ],
  },
  {
    name: 'an apply that only sets never-tracked fields leaves no entry',
    ops: [apply('m1', W())],
    object: W(),
    managed: null,
  },
  {
    name: 'ownerReferences are a list-map keyed by uid of atomic items',
    ops: [
      apply('m1', {
        ...base,
        metadata: { ...base.metadata, ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: 'u-1' }] },
      }),
    ],
    managed: [
      A('m1', 1, {
        'f:metadata': {
          // OwnerReference is an atomic struct: the item is owned as a whole
          'f:ownerReferences': { 'k:{"uid":"u-1"}': {} },
        },
      }),
    ],
  },
  {
    name: 'HTML characters in key values are escaped as encoding/json does',
    ops: [apply('m1', W({ containers: [{ name: 'a<b>&' }] }))],
    managed: [A('m1', 1, spec({ 'f:containers': { 'k:{"name":"a\\u003cb\\u003e\\u0026"}': { '.': {}, 'f:name': {} } } }))],
  },
  // ---- before-first-apply, resets, invalid managedFields -----------------------------------------
  {
    name: 'applying to an object without managedFields records its fields under before-first-apply',
    ops: [seed(W({ replicas: 1, image: 'a' })), apply('m1', W({ image: 'a', paused: true }))],
    object: W({ replicas: 1, image: 'a', paused: true }),
    managed: [
      A('m1', 2, spec({ 'f:image': {}, 'f:paused': {} })),
      U('before-first-apply', 2, spec({ 'f:image': {}, 'f:replicas': {} })),
    ],
  },
  {
    name: 'before-first-apply conflicts like any Update manager',
    ops: [
      seed(W({ replicas: 1 })),
      apply('m1', W({ replicas: 2 }), {
        error: { code: 409, message: 'Apply failed with 1 conflict: conflict with "before-first-apply" using example.com/v1: .spec.replicas' },
      }),
    ],
    object: W({ replicas: 1 }),
  },
  {
    name: 'updates of an existing object that has no managedFields are not tracked',
    ops: [seed(W({ replicas: 1 })), update('m1', W({ replicas: 2 }))],
    object: W({ replicas: 2 }),
    managed: null,
  },
  {
    name: 'managedFields [{}] resets tracking',
    ops: [apply('m1', W({ replicas: 1 })), update('m2', W({ replicas: 1 }, { metadata: { ...base.metadata, managedFields: [{}] } }))],
    object: W({ replicas: 1 }),
    managed: null,
  },
  {
    name: 'managedFields [{}] with other changes: reset first, the writer owns what it changed (spec rule 8)',
    ops: [
      apply('m1', W({ replicas: 1, image: 'a' })),
      update('m2', W({ replicas: 4, image: 'a' }, { metadata: { ...base.metadata, managedFields: [{}] } })),
    ],
    object: W({ replicas: 4, image: 'a' }),
    managed: [U('m2', 2, spec({ 'f:replicas': {} }))],
  },
  {
    name: 'managedFields [] does not reset (spec; v1.33 code would)',
    ops: [apply('m1', W({ replicas: 1 })), update('m2', W({ replicas: 1, image: 'b' }, { metadata: { ...base.metadata, managedFields: [] } }))],
    managed: [A('m1', 1, spec({ 'f:replicas': {} })), U('m2', 2, spec({ 'f:image': {} }))],
  },
  {
    name: 'invalid managedFields in an update are ignored and the live entries kept',
    ops: [
      apply('m1', W({ replicas: 1 })),
      update('m2', W({ replicas: 1, image: 'b' }, {
        metadata: { ...base.metadata, managedFields: [{ manager: 'x', operation: 'Bogus', apiVersion: AV, fieldsType: 'FieldsV1', fieldsV1: {} }] },
      })),
    ],
    managed: [A('m1', 1, spec({ 'f:replicas': {} })), U('m2', 2, spec({ 'f:image': {} }))],
  },
  {
    name: 'valid managedFields written by an update replace the live ones',
    ops: [
      apply('m1', W({ replicas: 1 })),
      update('m2', W({ replicas: 1, image: 'b' }, {
        metadata: {
          ...base.metadata,
          managedFields: [{ manager: 'hand', operation: 'Update', apiVersion: AV, time: '2025-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } }],
        },
      })),
    ],
    managed: [
      { manager: 'hand', operation: 'Update', apiVersion: AV, time: '2025-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } },
      U('m2', 2, spec({ 'f:image': {} })),
    ],
  },
  {
    name: 'managedFields sent to a subresource are ignored',
    ops: [
      apply('m1', W({ replicas: 1 })),
      update('ctl', W({ replicas: 1 }, { status: { ready: 1 }, metadata: { ...base.metadata, managedFields: [{}] } }), { subresource: 'status' }),
    ],
    managed: [A('m1', 1, spec({ 'f:replicas': {} })), U('ctl', 2, { 'f:status': { '.': {}, 'f:ready': {} } }, 'status')],
  },
  {
    name: 'more than 10 Update managers: the oldest merge into ancient-changes',
    ops: Array.from({ length: 11 }, (_, i) =>
      update(`u${i + 1}`, W(undefined, { metadata: { ...base.metadata, labels: Object.fromEntries(Array.from({ length: i + 1 }, (_, j) => [`l${j + 1}`, 'v'])) } })),
    ),
    managed: [
      U('ancient-changes', 2, { 'f:metadata': { 'f:labels': { '.': {}, 'f:l1': {}, 'f:l2': {} } } }),
      ...Array.from({ length: 9 }, (_, k) => U(`u${k + 3}`, k + 3, { 'f:metadata': { 'f:labels': { [`f:l${k + 3}`]: {} } } })),
    ],
  },
  {
    name: 'Apply entries do not count towards the cap of 10',
    ops: [
      apply('a1', W({ replicas: 1 })),
      apply('a2', W({ image: 'x' })),
      ...Array.from({ length: 10 }, (_, i) =>
        update(`u${i + 1}`, W({ replicas: 1, image: 'x' }, { metadata: { ...base.metadata, labels: Object.fromEntries(Array.from({ length: i + 1 }, (_, j) => [`l${j + 1}`, 'v'])) } })),
      ),
    ],
    managed: [
      A('a1', 1, spec({ 'f:replicas': {} })),
      A('a2', 2, spec({ 'f:image': {} })),
      U('u1', 3, { 'f:metadata': { 'f:labels': { '.': {}, 'f:l1': {} } } }),
      ...Array.from({ length: 9 }, (_, k) => U(`u${k + 2}`, k + 4, { 'f:metadata': { 'f:labels': { [`f:l${k + 2}`]: {} } } })),
    ],
  },
  {
    name: 'dropping the last label removes the map but keeps the server-set metadata',
    ops: [
      update('creator', { ...base, metadata: { ...base.metadata, resourceVersion: '7', creationTimestamp: '2026-01-01T00:00:00Z' } }),
      apply('m1', { ...base, metadata: { ...base.metadata, labels: { a: '1' } } }),
      apply('m1', W({ image: 'x' })),
    ],
    object: { ...base, metadata: { ...base.metadata, resourceVersion: '7', creationTimestamp: '2026-01-01T00:00:00Z' }, spec: { image: 'x' } },
    managed: [A('m1', 3, spec({ 'f:image': {} }))],
  },
  {
    name: 'a label shared with an updater survives its applier dropping it',
    ops: [
      apply('m1', { ...base, metadata: { ...base.metadata, labels: { a: '1', b: '2' } } }),
      update('m2', (live) => ({ ...live, metadata: { ...live.metadata, labels: { a: '1', b: '3' } } })),
      apply('m1', W({ image: 'x' })),
    ],
    object: { ...base, metadata: { ...base.metadata, labels: { b: '3' } }, spec: { image: 'x' } },
    managed: [A('m1', 3, spec({ 'f:image': {} })), U('m2', 2, { 'f:metadata': { 'f:labels': { 'f:b': {} } } })],
  },
  // ---- kubectl: client-side apply -> server-side apply ---------------------------------------------
  {
    name: 'kubectl may take over fields of its last-applied annotation that still match the live object',
    ops: [
      update('kubectl-client-side-apply', W({ replicas: 1, image: 'a' }, { metadata: { ...base.metadata, annotations: { [LAST]: LAST_VALUE } } })),
      apply('kubectl', W({ replicas: 2, image: 'a' })),
    ],
    object: W({ replicas: 2, image: 'a' }, {
      metadata: {
        ...base.metadata,
        annotations: { [LAST]: '{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"default"},"spec":{"image":"a","replicas":2}}\n' },
      },
    }),
    managed: [
      A('kubectl', 2, spec({ 'f:image': {}, 'f:replicas': {} })),
      U('kubectl-client-side-apply', 1, { 'f:metadata': { 'f:annotations': { '.': {}, [`f:${LAST}`]: {} } }, 'f:spec': { 'f:image': {} } }),
    ],
  },
  {
    name: 'kubectl still conflicts on fields that changed since its last client-side apply',
    ops: [
      update('kubectl-client-side-apply', W({ replicas: 1, image: 'a' }, { metadata: { ...base.metadata, annotations: { [LAST]: LAST_VALUE } } })),
      update('other', (live) => ({ ...live, spec: { ...(live.spec as object), image: 'b' } })),
      apply('kubectl', W({ replicas: 2, image: 'c' }), {
        error: { code: 409, message: 'Apply failed with 1 conflict: conflict with "other" using example.com/v1: .spec.image' },
      }),
    ],
  },
  {
    name: 'other managers get no last-applied allowance',
    ops: [
      update('kubectl-client-side-apply', W({ replicas: 1, image: 'a' }, { metadata: { ...base.metadata, annotations: { [LAST]: LAST_VALUE } } })),
      apply('helm', W({ replicas: 2 }), {
        error: { code: 409, message: 'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using example.com/v1: .spec.replicas' },
      }),
    ],
  },
  // ---- bad input ----------------------------------------------------------------------------------
  {
    name: 'managedFields in an applied config: 400',
    ops: [apply('m1', W({ replicas: 1 }, { metadata: { ...base.metadata, managedFields: [] } }), { error: { code: 400, reason: 'BadRequest', message: 'metadata.managedFields must be nil' } })],
  },
  {
    name: 'apply without kind: 400 invalid object type',
    ops: [apply('m1', { apiVersion: AV, metadata: { name: 'w' } }, { error: { code: 400, reason: 'BadRequest', message: 'invalid object type: example.com/v1, Kind=' } })],
  },
  {
    name: 'apply without apiVersion and kind: 400',
    ops: [apply('m1', { metadata: { name: 'w' } }, { error: { code: 400, message: 'invalid object type: /, Kind=' } })],
  },
  {
    name: 'apply of another kind: 400',
    ops: [apply('m1', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'w' } }, { error: { code: 400, message: 'invalid object type: /v1, Kind=ConfigMap' } })],
  },
  {
    name: 'apply with a field the schema does not declare: 500 from the typed conversion',
    ops: [
      apply('m1', W({ bogus: 1 }), {
        error: { code: 500, reason: undefined, message: 'failed to create typed patch object (default/w; example.com/v1, Kind=Widget): .spec.bogus: field not declared in schema' },
      }),
    ],
  },
  {
    name: 'apply with duplicate list-map keys: 500',
    ops: [
      apply('m1', W({ containers: [{ name: 'a' }, { name: 'a' }] }), {
        error: {
          code: 500,
          message: 'failed to create typed patch object (default/w; example.com/v1, Kind=Widget): .spec.containers: duplicate entries for key [name="a"]',
        },
      }),
    ],
  },
  // ---- schema changes between operations (markers rules 4 and 5) ----------------------------------
  {
    name: 'granular -> atomic struct: every owner of a member owns the whole (rule 4)',
    ops: [
      apply('m1', W({ sub: { a: 'x' } })),
      apply('m2', W({ sub: { b: 'y' } })),
      apply('m3', W({ sub: { a: 'z' } }), {
        schema: 'atomicSub',
        error: {
          code: 409,
          message: 'Apply failed with 2 conflicts: conflicts with "m1":\n- .spec.sub\nconflicts with "m2":\n- .spec.sub',
        },
      }),
      apply('m3', W({ image: 'i' }), { schema: 'atomicSub' }),
    ],
    object: W({ sub: { a: 'x', b: 'y' }, image: 'i' }),
    managed: [A('m1', 1, spec({ 'f:sub': {} })), A('m2', 2, spec({ 'f:sub': {} })), A('m3', 4, spec({ 'f:image': {} }))],
  },
  {
    name: 'set -> atomic list: the item owners own the list (rule 4)',
    ops: [apply('m1', W({ tags: ['a'] })), apply('m2', W({ tags: ['b'] })), update('m3', W({ tags: ['a', 'b'], image: 'x' }), { schema: 'atomicTags' })],
    managed: [A('m1', 1, spec({ 'f:tags': {} })), A('m2', 2, spec({ 'f:tags': {} })), U('m3', 3, spec({ 'f:image': {} }))],
  },
  {
    name: 'atomic -> granular struct: the owner keeps the parent, members are unowned, no conflict (rule 5)',
    ops: [apply('m1', W({ frozen: { x: '1' } })), apply('m2', W({ frozen: { y: '2' } }), { schema: 'granularFrozen' })],
    object: W({ frozen: { x: '1', y: '2' } }),
    managed: [A('m1', 1, spec({ 'f:frozen': {} })), A('m2', 2, spec({ 'f:frozen': { 'f:y': {} } }))],
  },
];

describe('server-side apply (widget schema)', () => {
  for (const c of cases) test(c.name, () => runCase(c, widgets));
});

export const widgetCases = cases.length;
