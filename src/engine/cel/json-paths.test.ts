// The direct paths over JSON data (field chains, has(), int comparisons, comprehensions over JSON lists,
// size() of a JSON list) must answer exactly what the general path answers: the same value or error message
// and the same runtime cost. evaluateJson takes the direct paths; evaluate() over the same data converted
// first (fromJson) takes the general one.

import { describe, expect, it } from 'vitest';
import type { Schema } from '../schema/types.js';
import { fromJson } from './convert.js';
import { createCelEnv, isCompileError, isRuntimeError } from './env.js';
import { schemaToCelType } from './schema-types.js';
import { T } from './types.js';

const CONTAINER: Schema = {
  type: 'object',
  properties: {
    name: { type: 'string', maxLength: 63 },
    image: { type: 'string', maxLength: 256 },
    ports: { type: 'array', maxItems: 16, items: { type: 'object', properties: { containerPort: { type: 'integer' }, name: { type: 'string' } } } },
    args: { type: 'array', maxItems: 16, items: { type: 'string', maxLength: 64 } },
  },
};
const SCHEMA: Schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer' },
        maxReplicas: { type: 'integer' },
        paused: { type: 'boolean' },
        ratio: { type: 'number' },
        containers: { type: 'array', maxItems: 20, items: CONTAINER },
        matrix: { type: 'array', maxItems: 4, items: { type: 'array', maxItems: 4, items: { type: 'integer' } } },
        labels: { type: 'object', additionalProperties: { type: 'string', maxLength: 63 }, maxProperties: 64 },
        counts: { type: 'object', additionalProperties: { type: 'integer' }, maxProperties: 64 },
        flags: { type: 'object', additionalProperties: { type: 'boolean' }, maxProperties: 64 },
      },
    },
  },
};

const RULES = [
  'self.spec.replicas <= self.spec.maxReplicas',
  'self.spec.replicas == 3',
  '3 != self.spec.replicas',
  'self.spec.replicas > 0 && self.spec.replicas < 9007199254740993',
  '!has(self.spec.paused) || self.spec.paused == false',
  'has(self.spec.ratio)',
  "self.spec.containers.all(c, c.image.startsWith('registry.example/'))",
  'self.spec.containers.all(c, self.spec.containers.exists_one(d, d.name == c.name))',
  'self.spec.containers.all(c, !has(c.ports) || c.ports.all(p, p.containerPort > 0 && p.containerPort < 65536))',
  "self.spec.containers.filter(c, c.name.startsWith('s')).size() <= 2",
  'self.spec.containers.map(c, c.name).size() == size(self.spec.containers)',
  'self.spec.containers.size()',
  'self.spec.containers.map(c, c).size() == self.spec.containers.size()',
  'self.spec.containers.exists(c, has(c.args) && c.args.exists(a, a == "-v"))',
  'self.spec.containers.map(c, has(c.ports) ? c.ports.size() : 0)',
  'self.spec.containers.all(c, c.ports.all(p, p.containerPort >= 0))',
  'self.spec.matrix.all(r, r.all(x, x >= 0))',
  'self.spec.matrix.map(r, size(r))',
  'self.spec.containers[0].name == "a"',
  "has(self.spec.labels) && 'app' in self.spec.labels && self.spec.labels['app'].matches('^[a-z][a-z0-9-]*$')",
  "self.spec.labels['app']",
  "'__proto__' in self.spec.labels || 'toString' in self.spec.labels",
  "self.spec.labels['toString']",
  "self.spec.counts['a'] + 1",
  "self.spec.flags['on'] == true",
  "'a__b' in self.spec.labels ? self.spec.labels['a__b'] : 'none'",
  "self.spec.containers.all(c, c.name in ['a', 'b', 'sidecar'])",
  // a list or map chain read directly where the builder analysed it once (chain() for rawAt)
  'size(self.spec.containers) + size(self.spec.matrix) + self.spec.matrix.size()',
  'self.spec.containers.exists(c, size(self.spec.matrix) > 1 && c.ports.exists(p, size(c.ports) > 1))',
  "true ? self.spec.labels['app'] : 'none'",
  "false ? 'none' : self.spec.labels['app'] + self.spec.labels['app']",
  'true ? self.spec.containers.map(c, c.name) : []',
  "self.spec.containers.all(c, 'app' in self.spec.labels)",
];

const DATA: Record<string, unknown>[] = [
  {
    spec: {
      replicas: 3, maxReplicas: 5, paused: false, ratio: 0.5,
      containers: [
        { name: 'a', image: 'registry.example/a:1', ports: [{ containerPort: 80 }], args: ['-v'] },
        { name: 'sidecar', image: 'registry.example/s:1', ports: [{ containerPort: 8080 }, { containerPort: 9090 }] },
        { name: 'b', image: 'other/b:1' },
      ],
      matrix: [[1, 2], [3]],
      labels: { app: 'web', a__b: 'x' }, counts: { a: 2 }, flags: { on: true },
    },
  },
  { spec: { labels: { app: null, toString: 'x' }, counts: { a: 'two' }, flags: { on: null } } },
  { spec: { labels: { app: 'Web!' }, counts: { a: 9007199254740993 }, flags: { on: 'yes' } } },
  { spec: { labels: ['app'], counts: null, flags: {} } },
  { spec: { labels: { app: 5 } } },
  // nulls, absent fields and data not of the declared shape
  { spec: { replicas: null, maxReplicas: 5, paused: null, containers: [null, { name: 'a', image: 'registry.example/a' }] } },
  { spec: { replicas: 2.5, maxReplicas: 1, containers: { name: 'not-a-list' }, matrix: [[-1], null] } },
  { spec: { replicas: '3', maxReplicas: 5, containers: [{ name: 'a', image: 7, ports: [{ containerPort: 'x' }] }, 'text', 5] } },
  { spec: { replicas: 9007199254740993, maxReplicas: 9007199254740993, containers: [], matrix: [] } },
  { spec: { containers: [{ name: 'a', ports: null }, { name: 'a', ports: [{}] }] } },
  {},
];

describe('direct paths over JSON answer as the general path does', () => {
  const env = createCelEnv({ variables: { self: schemaToCelType(SCHEMA, {}, { resourceRoot: true })! } });
  const selfType = env.variables.self;
  for (const rule of RULES) {
    it(rule, () => {
      const p = env.compile(rule);
      if (isCompileError(p)) throw new Error(p.formatted);
      for (const data of DATA) {
        const direct = p.evaluateJson({ self: data });
        const general = p.evaluate({ self: fromJson(data, selfType) });
        const shape = (r: typeof direct) => (isRuntimeError(r) ? { error: r.message, cost: r.cost } : { value: r.value, cost: r.cost });
        expect(shape(direct), JSON.stringify(data)).toEqual(shape(general));
        // and with a cost limit that stops the evaluation part way
        for (const limit of [1, 2, 3, 5, 8, 13]) {
          const d = p.evaluateJson({ self: data }, { costLimit: limit });
          const g = p.evaluate({ self: fromJson(data, selfType) }, { costLimit: limit });
          expect(shape(d), `${JSON.stringify(data)} limit ${limit}`).toEqual(shape(g));
        }
      }
    });
  }
});

describe('field chains from a variable and from a comprehension variable of the same name', () => {
  it('the comprehension variable shadows the variable inside its loop, before and after it as well', () => {
    const env = createCelEnv({ variables: { self: schemaToCelType(SCHEMA, {}, { resourceRoot: true })! } });
    const p = env.compile("self.spec.replicas == 3 && [{'spec': {'replicas': 4}}].all(self, self.spec.replicas == 4) && self.spec.replicas == 3");
    if (isCompileError(p)) throw new Error(p.formatted);
    const data = { spec: { replicas: 3 } };
    for (const r of [p.evaluateJson({ self: data }), p.evaluate({ self: fromJson(data, env.variables.self) })]) {
      if (isRuntimeError(r)) throw new Error(r.message);
      expect(r.value).toBe(true);
    }
  });
});

describe('the general path of a field chain reports as the step-by-step selections do', () => {
  // a chain from a variable reports its errors at the whole chain (as the qualified-name resolution did),
  // a chain from a comprehension variable at the selection that failed; one charge per step
  const cases: [string, Record<string, unknown>, (string | number)[]][] = [
    ['x.a.b.c', { x: {} }, ['no such key: a', 5, 2]],
    ['x.a.b.c', { x: { a: {} } }, ['no such key: b', 5, 3]],
    ['x.a.b.c', { x: { a: { b: 1 } } }, ["type 'int' does not support field selection", 5, 4]],
    ['x.a.b.c', { x: { a: { b: {} } } }, ['no such key: c', 5, 4]],
    ['[{}].all(y, y.a.b == 1)', {}, ['no such key: a', 13, 46]],
    ['[{"a": {}}].all(y, y.a.b == 1)', {}, ['no such key: b', 22, 77]],
    ['true ? x.a.b : 1', { x: {} }, ['no such key: a', 10, 1]],
    ['x.a.b', {}, ['no such attribute(s): x', 0, 1]],
  ];
  for (const disableCheck of [false, true]) {
    const env = createCelEnv({ variables: { x: T.dyn }, disableCheck });
    for (const [expr, vars, want] of cases) {
      it(`${expr} ${JSON.stringify(vars)}${disableCheck ? ' (unchecked)' : ''}`, () => {
        const p = env.compile(expr);
        if (isCompileError(p)) throw new Error(p.formatted);
        const r = p.evaluate(Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, fromJson(v, T.dyn)])));
        if (!isRuntimeError(r)) throw new Error(`${expr}: no error`);
        expect([r.message, r.position.offset, r.cost]).toEqual(want);
      });
    }
  }
});
