import { describe, expect, it } from 'vitest';
import { builtins } from '../resources/generated/builtins.js';
import { applyStrategicMergePatch, decodeStrategicPatchBody } from './strategic.js';
import { StatusError } from '../errors.js';
import type { Schema, SchemaRegistry } from '../schema/types.js';

const defs = builtins.definitions;
const pod = defs['io.k8s.api.core.v1.Pod'];
const deployment = defs['io.k8s.api.apps.v1.Deployment'];

function fail(f: () => unknown): StatusError {
  try {
    f();
  } catch (e) {
    if (e instanceof StatusError) return e;
    throw e;
  }
  throw new Error('expected an error');
}

const basePod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', labels: { app: 'a', tier: 'web' }, finalizers: ['a', 'b'] },
  spec: {
    containers: [
      { name: 'app', image: 'nginx:1', ports: [{ containerPort: 80, protocol: 'TCP' }], env: [{ name: 'A', value: '1' }] },
      { name: 'side', image: 'busybox', args: ['sleep', '1'] },
    ],
    volumes: [{ name: 'v1', emptyDir: {} }],
    tolerations: [{ key: 'k', operator: 'Exists' }],
  },
};

describe('strategic merge patch on built-in kinds', () => {
  const cases: { name: string; patch: unknown; check: (r: any) => void }[] = [
    {
      name: 'merge list item by merge key, other items kept',
      patch: { spec: { containers: [{ name: 'app', image: 'nginx:2' }] } },
      check: (r) => {
        expect(r.spec.containers).toEqual([
          { name: 'app', image: 'nginx:2', ports: [{ containerPort: 80, protocol: 'TCP' }], env: [{ name: 'A', value: '1' }] },
          { name: 'side', image: 'busybox', args: ['sleep', '1'] },
        ]);
      },
    },
    {
      name: 'new list item goes first (patch order before server-only items)',
      patch: { spec: { containers: [{ name: 'new', image: 'x' }] } },
      check: (r) => expect(r.spec.containers.map((c: any) => c.name)).toEqual(['new', 'app', 'side']),
    },
    {
      name: 'patch order among existing items follows the live list',
      patch: { spec: { containers: [{ name: 'side', image: 's2' }, { name: 'app', image: 'a2' }] } },
      check: (r) => expect(r.spec.containers.map((c: any) => [c.name, c.image])).toEqual([['side', 's2'], ['app', 'a2']]),
    },
    {
      name: '$patch: delete in a list item',
      patch: { spec: { containers: [{ name: 'side', $patch: 'delete' }] } },
      check: (r) => expect(r.spec.containers.map((c: any) => c.name)).toEqual(['app']),
    },
    {
      name: '$patch: replace in a list',
      patch: { spec: { containers: [{ name: 'only', image: 'o' }, { $patch: 'replace' }] } },
      check: (r) => expect(r.spec.containers).toEqual([{ name: 'only', image: 'o' }]),
    },
    {
      name: '$patch: replace in a map',
      patch: { metadata: { labels: { x: 'y', $patch: 'replace' } } },
      check: (r) => expect(r.metadata.labels).toEqual({ x: 'y' }),
    },
    {
      name: '$patch: delete in a map',
      patch: { spec: { containers: [{ name: 'app', env: null }] }, metadata: { labels: { $patch: 'delete' } } },
      check: (r) => {
        expect(r.metadata.labels).toEqual({});
        expect(r.spec.containers[0].env).toBeUndefined();
      },
    },
    {
      name: 'null deletes a map member; unmatched nulls are ignored',
      patch: { metadata: { labels: { tier: null, nope: null, added: 'z' } } },
      check: (r) => expect(r.metadata.labels).toEqual({ app: 'a', added: 'z' }),
    },
    {
      name: 'list without merge strategy is replaced (container args)',
      patch: { spec: { containers: [{ name: 'side', args: ['x'] }] } },
      check: (r) => expect(r.spec.containers[1].args).toEqual(['x']),
    },
    {
      name: 'tolerations (atomic, no patch strategy) are replaced',
      patch: { spec: { tolerations: [{ key: 'z', operator: 'Exists' }] } },
      check: (r) => expect(r.spec.tolerations).toEqual([{ key: 'z', operator: 'Exists' }]),
    },
    {
      name: 'primitive list with merge strategy: union (finalizers)',
      patch: { metadata: { finalizers: ['c', 'a'] } },
      check: (r) => expect(r.metadata.finalizers).toEqual(['c', 'a', 'b']),
    },
    {
      name: '$deleteFromPrimitiveList',
      patch: { metadata: { $deleteFromPrimitiveList_placeholder: true } },
      check: () => undefined,
    },
    {
      name: '$setElementOrder reorders a merge list',
      patch: { spec: { $setElementOrder_containers: [{ name: 'side' }, { name: 'app' }] } },
      check: (r) => expect(r.spec.containers.map((c: any) => c.name)).toEqual(['side', 'app']),
    },
    {
      name: 'nested merge lists (ports by containerPort)',
      patch: { spec: { containers: [{ name: 'app', ports: [{ containerPort: 443, protocol: 'TCP' }] }] } },
      check: (r) => expect(r.spec.containers[0].ports).toEqual([{ containerPort: 443, protocol: 'TCP' }, { containerPort: 80, protocol: 'TCP' }]),
    },
    {
      name: 'new members keep their nulls dropped and directives removed',
      patch: { spec: { nodeSelector: { a: 'b', c: null }, securityContext: { runAsUser: 1, seLinuxOptions: { $patch: 'delete' } } } },
      check: (r) => {
        expect(r.spec.nodeSelector).toEqual({ a: 'b' });
        expect(r.spec.securityContext).toEqual({ runAsUser: 1 });
      },
    },
    {
      name: 'unknown fields are carried to the result (field validation reports them later)',
      patch: { spec: { foo: { bar: 1 } } },
      check: (r) => expect(r.spec.foo).toEqual({ bar: 1 }),
    },
  ];
  cases[11].patch = { metadata: { ['$deleteFromPrimitiveList/finalizers']: ['a'] } };
  cases[11].check = (r) => expect(r.metadata.finalizers).toEqual(['b']);
  cases[12].patch = { spec: { ['$setElementOrder/containers']: [{ name: 'side' }, { name: 'app' }] } };
  for (const c of cases) {
    it(c.name, () => {
      const input = JSON.parse(JSON.stringify(basePod));
      const r = applyStrategicMergePatch(input, c.patch, pod, defs);
      c.check(r);
      expect(input).toEqual(basePod); // never mutates
    });
  }

  it('retainKeys strategy (deployment strategy): keys not listed are cleared', () => {
    const d = { spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } } };
    const r = applyStrategicMergePatch(d, { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } }, deployment, defs) as any;
    expect(r.spec.strategy).toEqual({ type: 'Recreate' });
  });
  it('$retainKeys must list every key of the patch: 400', () => {
    const e = fail(() => applyStrategicMergePatch({ spec: { strategy: {} } }, { spec: { strategy: { $retainKeys: ['type'], rollingUpdate: {} } } }, deployment, defs));
    expect(e.status).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'invalid patch format of retainKeys', reason: 'BadRequest', code: 400 });
  });
  it('$deleteFromPrimitiveList with a bad directive name: 400', () => {
    const e = fail(() => applyStrategicMergePatch(basePod, { metadata: { $deleteFromPrimitiveListfinalizers: ['a'] } }, pod, defs));
    expect(e.status.code).toBe(400);
    expect(e.message).toBe('invalid patch format of primitive list');
  });
  it('$setElementOrder not a list: 500 with the library text', () => {
    const e = fail(() => applyStrategicMergePatch(basePod, { spec: { '$setElementOrder/containers': 'x' } }, pod, defs));
    expect(e.status).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'expected a []interface {}, but received a string', code: 500 });
  });
  it('$setElementOrder for a field that does not exist', () => {
    const e = fail(() => applyStrategicMergePatch(basePod, { spec: { '$setElementOrder/nope': [] } }, pod, defs));
    expect(e.message).toBe('unable to find api field in struct PodSpec for the json field "nope"');
    expect(e.code).toBe(500);
  });
  it('$patch: merge in a list item is refused', () => {
    const e = fail(() => applyStrategicMergePatch(basePod, { spec: { containers: [{ name: 'app', $patch: 'merge' }] } }, pod, defs));
    expect(e.message).toBe('merging lists cannot yet be specified in the patch');
  });
  it('an unknown $patch in a map', () => {
    const e = fail(() => applyStrategicMergePatch(basePod, { metadata: { labels: { $patch: 'merge' } } }, pod, defs));
    expect(e.message).toBe('unknown patch type: merge in map: map[$patch:merge]');
  });
  it('a list item without the merge key', () => {
    const e = fail(() => applyStrategicMergePatch(basePod, { spec: { containers: [{ image: 'x' }] } }, pod, defs));
    expect(e.message).toBe('map: map[image:x] does not contain declared merge key: name');
    expect(e.code).toBe(500);
  });
  it('a patch that is not an object', () => {
    expect(fail(() => applyStrategicMergePatch(basePod, [1], pod, defs)).message).toBe('json: cannot unmarshal array into Go value of type map[string]interface {}');
  });
  it('a null patch changes nothing', () => {
    expect(applyStrategicMergePatch(basePod, null, pod, defs)).toEqual(basePod);
  });
  it('type change replaces the value', () => {
    const r = applyStrategicMergePatch({ spec: { x: [1] } }, { spec: { x: { a: 1 } } }, pod, defs) as any;
    expect(r.spec.x).toEqual({ a: 1 });
  });
});

describe('patches kubectl apply sends (three-way merge patches)', () => {
  const dep = {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', annotations: { a: '1' } },
    spec: {
      replicas: 1,
      template: {
        spec: {
          containers: [
            { name: 'nginx', image: 'nginx:1.25', env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }], ports: [{ containerPort: 80, protocol: 'TCP' }] },
            { name: 'log', image: 'busybox' },
          ],
        },
      },
    },
  };
  it('image change with $setElementOrder', () => {
    const patch = { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'nginx' }, { name: 'log' }], containers: [{ image: 'nginx:1.26', name: 'nginx' }] } } } };
    const r = applyStrategicMergePatch(dep, patch, deployment, defs) as any;
    expect(r.spec.template.spec.containers.map((c: any) => `${c.name}=${c.image}`)).toEqual(['nginx=nginx:1.26', 'log=busybox']);
    expect(r.spec.template.spec.containers[0].env).toEqual(dep.spec.template.spec.containers[0].env);
  });
  it('removing an env var and a container', () => {
    const patch = {
      spec: {
        template: {
          spec: {
            '$setElementOrder/containers': [{ name: 'nginx' }],
            containers: [{ '$setElementOrder/env': [{ name: 'A' }], env: [{ $patch: 'delete', name: 'B' }], name: 'nginx' }, { $patch: 'delete', name: 'log' }],
          },
        },
      },
    };
    const r = applyStrategicMergePatch(dep, patch, deployment, defs) as any;
    expect(r.spec.template.spec.containers).toEqual([
      { name: 'nginx', image: 'nginx:1.25', env: [{ name: 'A', value: '1' }], ports: [{ containerPort: 80, protocol: 'TCP' }] },
    ]);
  });
  it('adding a port keeps the order of $setElementOrder (merge key containerPort)', () => {
    const patch = { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'nginx' }, { name: 'log' }], containers: [{ '$setElementOrder/ports': [{ containerPort: 443 }, { containerPort: 80 }], name: 'nginx', ports: [{ containerPort: 443 }] }] } } } };
    const r = applyStrategicMergePatch(dep, patch, deployment, defs) as any;
    expect(r.spec.template.spec.containers[0].ports).toEqual([{ containerPort: 443 }, { containerPort: 80, protocol: 'TCP' }]);
  });
  it('annotation removal and replicas change', () => {
    const r = applyStrategicMergePatch(dep, { metadata: { annotations: { a: null, b: '2' } }, spec: { replicas: 3 } }, deployment, defs) as any;
    expect(r.metadata.annotations).toEqual({ b: '2' });
    expect(r.spec.replicas).toBe(3);
  });
});

describe('strategic merge patch: list semantics (inline schema)', () => {
  const item: Schema = {
    type: 'object',
    properties: {
      name: { type: 'string' }, value: { type: 'string' },
      mergingList: { type: 'array', items: { $ref: 'Item' }, 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'name' },
      mergingIntList: { type: 'array', items: { type: 'integer' }, 'x-kubernetes-patch-strategy': 'merge' },
      nonMergingIntList: { type: 'array', items: { type: 'integer' } },
      listOfLists: { type: 'array', items: {}, 'x-kubernetes-patch-strategy': 'merge' },
      typedListOfLists: { type: 'array', items: { type: 'array', items: { type: 'integer' } }, 'x-kubernetes-patch-strategy': 'merge' },
      replacing: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, 'x-kubernetes-patch-strategy': 'replace' },
    },
  };
  const reg: SchemaRegistry = { Item: item };
  const apply = (o: unknown, p: unknown) => applyStrategicMergePatch(o, p, { $ref: 'Item' }, reg);
  const table: [string, unknown, unknown, unknown][] = [
    ['int union keeps patch order then server-only', { mergingIntList: [1, 2, 3] }, { mergingIntList: [4, 2] }, { mergingIntList: [4, 1, 2, 3] }],
    ['duplicates removed', { mergingIntList: [1, 2] }, { mergingIntList: [2, 2, 5] }, { mergingIntList: [1, 2, 5] }],
    ['non-merging list replaced', { nonMergingIntList: [1, 2] }, { nonMergingIntList: [3] }, { nonMergingIntList: [3] }],
    ['delete from primitive list', { mergingIntList: [1, 2, 3] }, { '$deleteFromPrimitiveList/mergingIntList': [2, 9] }, { mergingIntList: [1, 3] }],
    ['delete from a non-merge primitive list too', { nonMergingIntList: [1, 2] }, { '$deleteFromPrimitiveList/nonMergingIntList': [1] }, { nonMergingIntList: [2] }],
    ['setElementOrder on primitives', { mergingIntList: [1, 2, 3] }, { '$setElementOrder/mergingIntList': [3, 1, 2] }, { mergingIntList: [3, 1, 2] }],
    ['setElementOrder with additions', { mergingIntList: [1, 2] }, { '$setElementOrder/mergingIntList': [2, 9, 1], mergingIntList: [9] }, { mergingIntList: [2, 9, 1] }],
    ['replace strategy on a map', { replacing: { a: 'x', b: 'y' } }, { replacing: { a: 'z' } }, { replacing: { a: 'z' } }],
    ['nested merge list', { mergingList: [{ name: 'a', value: '1', mergingIntList: [1] }] }, { mergingList: [{ name: 'a', mergingIntList: [2] }] }, { mergingList: [{ name: 'a', value: '1', mergingIntList: [2, 1] }] }],
    ['delete by merge key removes every match', { mergingList: [{ name: 'a' }, { name: 'b' }, { name: 'a', value: '2' }] }, { mergingList: [{ name: 'a', $patch: 'delete' }] }, { mergingList: [{ name: 'b' }] }],
    ['empty patch list keeps the original', { mergingList: [{ name: 'a' }] }, { mergingList: [] }, { mergingList: [{ name: 'a' }] }],
    ['setElementOrder with deletion', { mergingList: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] }, { '$setElementOrder/mergingList': [{ name: 'c' }, { name: 'a' }], mergingList: [{ name: 'b', $patch: 'delete' }] }, { mergingList: [{ name: 'c' }, { name: 'a' }] }],
  ];
  for (const [name, orig, patch, want] of table) {
    it(name, () => expect(apply(orig, patch)).toEqual(want));
  }
  it('lists of lists: 422', () => {
    const e = fail(() => apply({ listOfLists: [[1]] }, { listOfLists: [[2]] }));
    expect(e.status).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server rejected our request due to an error in our request', reason: 'Invalid', details: {}, code: 422 });
  });
  it('a schema list of lists fails the lookup', () => {
    expect(fail(() => apply({ typedListOfLists: [[1]] }, { typedListOfLists: [[2]] })).message).toBe('unexpected slice of slice');
  });
  it('mixed element types', () => {
    expect(fail(() => apply({ mergingIntList: [1] }, { mergingIntList: ['a'] })).message).toBe('list element types are not identical: [[1] [a]]');
  });
  it('setElementOrder that contradicts the patch list', () => {
    const e = fail(() => apply({ mergingIntList: [1, 2] }, { '$setElementOrder/mergingIntList': [1], mergingIntList: [3] }));
    expect(e.message).toBe('The order in patch list:\n[3]\n doesn\'t match $setElementOrder list:\n[1]\n');
  });
});

describe('decodeStrategicPatchBody', () => {
  it('Go JSON errors without a prefix', () => {
    expect(fail(() => decodeStrategicPatchBody('{"a":', 'Strict')).message).toBe('unexpected end of JSON input');
    expect(fail(() => decodeStrategicPatchBody('[]', 'Ignore')).message).toBe('json: cannot unmarshal array into Go value of type map[string]interface {}');
  });
  it('duplicates only when validating', () => {
    expect(decodeStrategicPatchBody('{"spec":{"a":1,"a":2}}', 'Warn').duplicates).toEqual(['spec.a']);
    expect(decodeStrategicPatchBody('{"spec":{"a":1,"a":2}}', 'Ignore').duplicates).toEqual([]);
  });
});
