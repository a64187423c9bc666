// Result types compared with cel-go's checker, as recorded in @bufbuild/cel-spec's checking suite (the
// expressions that need no declarations: the others reference cel-go test variables and protobuf types).
import { describe, expect, it } from 'vitest';
import { tests } from '@bufbuild/cel-spec/testdata/checking.js';
import { createCelEnv, isCompileError } from './env.js';
import { T, typeName, type CelType } from './types.js';
import { schemaToCelType } from './schema-types.js';

/** Every expression of the CEL conformance suite (loaded when a test asks: the file is large). */
async function conformanceExpressions(): Promise<string[]> {
  const conf = await import('@bufbuild/cel-spec/testdata/conformance.js');
  const out: string[] = [];
  const walk = (o: unknown): void => {
    if (!o || typeof o !== 'object') return;
    const x = o as { expr?: unknown };
    if (typeof x.expr === 'string') out.push(x.expr);
    for (const v of Object.values(o)) walk(v);
  };
  walk(conf.tests);
  return out;
}

interface C { original: { expr: string }; type?: string }
interface S { tests?: C[]; suites?: S[] }

describe('checked result types as cel-go deduces them', () => {
  const env = createCelEnv({ version: '1.34', homogeneousAggregateLiterals: false, validateLiterals: false });
  const cases: C[] = [];
  const walk = (s: S) => {
    for (const t of s.tests ?? []) {
      if (!t.type) continue;
      const p = env.compile(t.original.expr);
      // declaration-dependent cases (cel-go test variables, protobuf messages) are out of scope
      if (isCompileError(p) && /undeclared|TestAllTypes/.test(p.message)) continue;
      cases.push(t);
    }
    for (const ss of s.suites ?? []) walk(ss);
  };
  walk(tests as S);

  it('covers the declaration-free cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
  });
  it.each(cases.map((c) => [c.original.expr, c.type!] as const))('%s : %s', (expr, want) => {
    const p = env.compile(expr);
    if (isCompileError(p)) throw new Error(p.formatted);
    expect(typeName(p.resultType)).toBe(want);
  });
});

// The checker answers a call it has resolved before (same overload list, call form and argument types) from
// a table: the answer must be what the full resolution gives, messages with their `_varN` names included.
describe('overload resolution answered from the table is the full resolution', () => {
  const variables = {
    names: T.list(T.string),
    counts: T.map(T.string, T.int),
    spec: schemaToCelType({ type: 'object', properties: { replicas: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } } })!,
  };
  const exprs = [
    "1 + 2 == 3 && 'a'.startsWith('b')",
    '[1, 2].size() + size([3]) > 1',
    "'k' in {'k': 1} && counts['k'] == 1 && 'x' in counts",
    '[1, 2] + [3] == [1, 2, 3] && names + names == names',
    'dyn(1) == 1 && 1.0 < 2 && 2u > 1u',
    "spec.replicas <= 3 && spec.tags.exists(t, t == 'x') && size(spec.tags) > 0",
    'names.map(n, n + "!").size() == 1',
    // errors that print type parameters made after calls the table answers
    "1 == 1 && [] == 'a'",
    "size(names) == 2 && {} == 1 && [[]] == 'b'",
    "counts['a'] == 1 && spec.tags + 1 == []",
    // a result that is a type parameter (m[k], l[i]): a later join with dyn widens it as after the full resolution
    "counts['a'] + counts['b'] == 2 && names[0] + names[1] == 'ab'",
    "[counts['a'], dyn('x')].size() == 2 && [names[0], dyn(1)].size() == 2",
    "[counts['a'], 'x'].size() == 2",
    "counts['a'] == 1 && names[0] == 'x' && [] == 'a'",
    "{'a': {'b': 1}}['a']['b'] == 1 && [[1]][0][0] == 1",
  ];
  const shot = (env: ReturnType<typeof createCelEnv>, expr: string) => {
    const r = env.check(expr);
    if (isCompileError(r)) return { error: r.formatted };
    return { type: typeName(r.type), types: r.types.map((t) => (t ? typeName(t) : undefined)), overloads: r.overloads };
  };
  it.each(exprs)('%s', (expr) => {
    // an extra (empty) library gives the environment overload lists of its own: the first check fills their
    // table, the second answers from it
    const env = createCelEnv({ variables, libraries: [{ name: 'none', functions: [] }] });
    const first = shot(env, expr);
    expect(shot(env, expr)).toEqual(first);
    // and a fresh environment (cold table) agrees with both
    expect(shot(createCelEnv({ variables, libraries: [{ name: 'none', functions: [] }] }), expr)).toEqual(first);
  });
  // the accumulator step of map and filter (`l + [x]`, l a list of a free parameter) is resolved directly
  // when list concatenation is the only candidate of its form; a library with a second one (which never
  // matches these steps) sends it through the full resolution: both must give the same types, overloads
  // and messages, their `_varN` names included
  it('the map and filter step resolved directly is the full resolution', () => {
    const extra = {
      name: 'extra',
      functions: [{ name: '_+_', overloads: [{ id: 'add_list_int_int', args: [T.list(T.int), T.int], result: T.list(T.int), impl: () => [] }] }],
    };
    const objs = { ...variables, objs: T.list(variables.spec), dyns: T.list(T.dyn), nested: T.list(T.list(T.string)) };
    const exprs = [
      'names.map(n, n + "!").size() == 1', 'names.filter(n, n != "a").size() == 1', 'objs.map(o, o.replicas).size() == 1',
      'objs.filter(o, o.replicas > 1).map(o, o.tags).size() == 1', 'dyns.map(d, d).size() == 1', 'nested.map(l, l).size() == 1',
      'names.map(n, [n]).map(l, l.size()).size() == 1', 'names.map(n, n).size() == 1 && [] == "a"',
      "names.map(n, n) + [1] == []", 'names.map(n, n, n).size() == 1', '[1, 2].map(x, x * 2).filter(y, y > 2) == [4]',
      '[].map(x, x).size() == 0', '[[]].map(x, x).size() == 1', 'names.map(n, counts[n]).size() == 1',
    ];
    for (const expr of exprs) {
      const direct = shot(createCelEnv({ variables: objs, libraries: [{ name: 'none', functions: [] }] }), expr);
      const full = shot(createCelEnv({ variables: objs, libraries: [extra] }), expr);
      expect([expr, direct]).toEqual([expr, full]);
    }
    // a second candidate that matches the step: the full resolution, which records both
    const overlap = {
      name: 'overlap',
      functions: [{ name: '_+_', overloads: [{ id: 'add_list_dyn_string', args: [T.list(T.dyn), T.list(T.string)], result: T.list(T.string), impl: () => [] }] }],
    };
    const r = createCelEnv({ variables: objs, libraries: [overlap] }).check('names.map(n, n).size() == 1');
    if (isCompileError(r)) throw new Error(r.formatted);
    expect(r.overloads.filter((ids) => ids?.includes('add_list_dyn_string'))).toEqual([['add_list', 'add_list_dyn_string']]);
  });
  // the table's keys are token lists (a list's kind, then its element's tokens...): calls whose argument
  // shapes or counts differ must not meet, whatever was resolved before them in the same environment
  it('calls of different argument shapes and counts have entries of their own', () => {
    const exprs = [
      '1 + 2', '[1] + [2]', '[[1]] + [[2]]', "['a'] + ['b']", '[1.0] + [2.0]',
      "{'a': 1}['a']", "{'a': [1]}['a']", "{1: 'a'}[1]", "{'a': {'b': 1}}['a']", "{'a': {'b': 'c'}}['a']",
      "'abc'.indexOf('b')", "'abc'.indexOf('b', 1)", "'abc'.substring(1)", "'abc'.substring(1, 2)",
      'size([1])', "size({'a': 1})", "size('a')", "[optional.of(1)][0]", "[optional.of('a')][0]",
      // keys as one number (4 bits a token), keys too long for it (the token tree), keys of object types
      "{'a': {'b': {'c': {'d': 1}}}}['a']", "{'a': {'b': {'c': {'d': 'x'}}}}['a']", "{'a': {'b': {'c': {1: 'x'}}}}['a']",
      '[[[[[1]]]]] + [[[[[2]]]]]', "[[[[['a']]]]] + [[[[['b']]]]]", '[spec] + [spec]', '[spec][0]', '[[spec]][0]',
      "{'a': spec}['a']", "{'a': [spec]}['a']", '[spec.tags] + [spec.tags]',
    ];
    const shared = createCelEnv({ variables, libraries: [{ name: 'none', functions: [] }] });
    for (let round = 0; round < 2; round++) {
      for (const expr of exprs) {
        const got = shot(shared, expr);
        expect(got.error).toBeUndefined();
        expect(got).toEqual(shot(createCelEnv({ variables, libraries: [{ name: 'none', functions: [] }] }), expr));
      }
    }
  });
});

describe('the parser tells when the AST validators have something to look at', () => {
  // env.ts skips validateAst for a tree the parser did not mark (ParseResult.validate): every tree the
  // validators would report on must be marked
  it('marks every tree the validators report on', async () => {
    const { parse } = await import('./parser.js');
    const { Checker } = await import('./checker.js');
    const { validateAst } = await import('./validators.js');
    const exprs = [
      'duration("1d")', 'timestamp("1000-00-00T00:00:00Z")', 'timestamp(-62135596801)', '"a".matches(")")', 'matches("a", ")")',
      '"%d".format([1.5])', '"%d".format([1, 2])', '[1, "a"]', '{"a": 1, "b": "x"}', '{1: 1, "b": 1}', '[[1], ["a"]]',
      '[1].map(x, [x, "a"])', '[1].all(x, duration("x") > duration("1s"))', 'optional.of(1).optMap(x, [x, "a"])',
      '[[1, "a"]]', '{"k": [1, "a"]}', '[1].map(x, {"a": x, "b": "c"})', '{1: 2}.transformMap(k, v, [k, "a"])',
      // a valid marked node beside an invalid one of each kind (the check of the marked nodes must see it)
      '[1, 2].size() == 2 && {"a": 1, "b": "x"}.size() == 2', '[1, 2].size() == 2 && {1: 1, "b": 1}.size() == 2',
      '{"a": 1, "b": 2}.size() == 2 && [1, "a"].size() == 2', '[1, 2].size() == 2 && duration("x") == duration("1s")',
      '[1, 2].size() == 2 && timestamp("1000-00-00T00:00:00Z") == timestamp(0)', '[1, 2].size() == 2 && timestamp(-62135596801) == timestamp(0)',
      'duration("1s") == duration("2s") && "a".matches(")")', 'duration("1s") == duration("2s") && matches("a", ")")',
      'duration("1s") == duration("2s") && [[1], ["a"]].size() == 1', '"a".matches("b") && [1].map(x, [x, "a"]).size() == 1',
    ];
    exprs.push(...(await conformanceExpressions()));
    const env = createCelEnv({ version: '1.34' });
    let reported = 0, marked = 0;
    for (const expr of exprs) {
      const pr = parse(expr, { optionalSyntax: true, twoVarComprehensions: true });
      if (!pr.expr) continue;
      const res = new Checker({ variables: {}, functions: env.functions, typeValues: new Map(), version: '1.34', source: pr.source }).check(pr.expr);
      if (res.issues.length) continue;
      const issues = validateAst(pr.expr, res, pr.source, { homogeneous: true, literals: true, format: true });
      if (issues.length) {
        reported++;
        expect([expr, pr.validate]).toEqual([expr, true]);
      }
      // the check of the marked nodes alone finds what the walk finds (it falls back to the walk on any)
      if (pr.marks) {
        marked++;
        expect([expr, validateAst(pr.expr, res, pr.source, { homogeneous: true, literals: true, format: true }, pr.marks)]).toEqual([expr, issues]);
        for (const o of [{ homogeneous: false, literals: true }, { homogeneous: true, literals: false }]) {
          expect([expr, validateAst(pr.expr, res, pr.source, o, pr.marks)]).toEqual([expr, validateAst(pr.expr, res, pr.source, o)]);
        }
      }
    }
    expect(reported).toBeGreaterThanOrEqual(10);
    expect(marked).toBeGreaterThanOrEqual(100);
  });

  it('leaves unmarked the trees whose only literals have fewer than two elements', async () => {
    const { parse } = await import('./parser.js');
    const opts = { optionalSyntax: true, twoVarComprehensions: true };
    for (const expr of ['[1].map(x, x + 1)', 'x.filter(y, y > 0).size() == 0', '[].size() == 0', '{}.size() == 0', '{1: 2}.size() == 1', 'x.transformMap(k, v, v)', '[?optional.none()].size() == 0']) {
      expect([expr, parse(expr, opts).validate]).toEqual([expr, false]);
    }
    for (const expr of ['[1, 2].size() == 2', '{1: 2, 3: 4}.size() == 2', '[[1], [2]].size() == 2', 'x.map(y, [y, 1])']) {
      expect([expr, parse(expr, opts).validate]).toEqual([expr, true]);
    }
  });
});

describe('declared types with type parameters are finalized', () => {
  // the checker leaves out its finalizing walk when no type of the check can hold a type parameter: a
  // declared variable, type value or object field that holds one must still come out as dyn
  it('turns a parameter of a declared type into dyn at every node', () => {
    const obj: import('./types.js').CelType = { kind: 'object', name: 'O', field: (f) => (f === 'p' ? T.list(T.param('B')) : f === 'q' ? T.int : undefined), fieldNames: () => ['p', 'q'] };
    const env = createCelEnv({ variables: { x: T.list(T.param('A')), m: T.map(T.string, T.param('C')), o: obj } });
    const typeOf = (expr: string) => {
      const r = env.check(expr);
      if (isCompileError(r)) throw new Error(r.formatted);
      return [typeName(r.type), ...r.types.filter((t) => t !== undefined).map((t) => typeName(t!))];
    };
    for (const [expr, want] of [['x', 'list(dyn)'], ['m', 'map(string, dyn)'], ['o.p', 'list(dyn)'], ['o.q', 'int']] as const) {
      const ts = typeOf(expr);
      expect([expr, ts[0]]).toEqual([expr, want]);
      expect(ts.some((t) => /[A-C]\b|_var/.test(t))).toBe(false);
    }
  });  it('keeps the optional properties of a list type it copies', () => {
    // finalize copies a list whose element type changed: by the factory only when it has none of them
    const bounded: import('./types.js').CelType = { kind: 'list', elem: T.param('A'), maxSize: 5, listType: 'set' };
    const env = createCelEnv({ variables: { x: bounded } });
    for (const expr of ['x', 'x.map(v, v)']) {
      const r = env.check(expr);
      if (isCompileError(r)) throw new Error(r.formatted);
      const ids = [...r.types.keys()].filter((id) => r.types[id]?.kind === 'list');
      const x = r.types[ids.find((id) => (r.types[id] as { maxSize?: number }).maxSize !== undefined) ?? -1];
      expect([expr, x]).toEqual([expr, { kind: 'list', elem: T.dyn, maxSize: 5, listType: 'set' }]);
    }
  });
});

describe('a call answered from the table keeps the types of its own arguments', () => {
  // the table's key names primitive kinds only (a string of maxLength 8 and one of 1024 have the same key);
  // m[k] answers the map's own value type, whose size bounds the cost estimate reads
  it('m[k] has the value type of its own map', () => {
    const short = schemaToCelType({ type: 'object', additionalProperties: { type: 'string', maxLength: 8 } })!;
    const long = schemaToCelType({ type: 'object', additionalProperties: { type: 'string', maxLength: 1024 } })!;
    const env = createCelEnv({ variables: { a: short, b: long }, libraries: [{ name: 'none', functions: [] }] });
    for (const [expr, m] of [["a['k'] == 'x'", short], ["b['k'] == 'x'", long], ["a['k'] == 'x'", short]] as const) {
      const r = env.check(expr);
      if (isCompileError(r)) throw new Error(r.formatted);
      const value = (m as { kind: 'map'; value: unknown }).value;
      const ids = r.overloads.map((o, id) => (o?.some((x) => x.startsWith('index_map')) ? id : -1)).filter((id) => id >= 0);
      expect(ids.length).toBe(1);
      expect(r.types[ids[0]] === value).toBe(true);
    }
  });
});

describe('the finalizing walk reaches every node whose type holds a type parameter', () => {
  // check() finalizes only the nodes typed once a type parameter exists (Checker.late), and not those of a
  // type known to hold none (a direct-table hit, a declared type, a field of a schema object, a comprehension
  // variable over a range typed before any parameter) or bool: no node's type may keep a parameter
  const holdsParam = (t: CelType | undefined, depth = 0): boolean => {
    if (!t || depth > 64) return false;
    switch (t.kind) {
      case 'param': return true;
      case 'list': return holdsParam(t.elem, depth + 1);
      case 'map': return holdsParam(t.key, depth + 1) || holdsParam(t.value, depth + 1);
      case 'optional': return holdsParam(t.param, depth + 1);
      case 'type': return holdsParam(t.param, depth + 1);
      case 'opaque': return (t.params ?? []).some((p) => holdsParam(p, depth + 1));
      default: return false;
    }
  };
  it('over the conformance expressions and macros over schema types, checked twice each', async () => {
    const exprs = await conformanceExpressions();
    const schema = {
      type: 'object',
      properties: {
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, n: { type: 'integer' } } } },
      },
    };
    const schemaExprs = [
      "self.items.map(c, c.name).size() == size(self.items)", "self.items.filter(c, c.name.startsWith('a')).size() <= 2",
      "'app' in self.labels && self.labels['app'].matches('^a')", "self.items.map(c, c.n).exists(n, n > 1)",
      "[self.labels['a'], dyn(1)].size() == 2", "self.items.map(c, [c.name]).map(l, l + [self.labels['x']])[0].size() == 2",
      "self.items.all(c, self.items.exists_one(d, d.name == c.name))", "size(self.items.filter(c, true).map(c, c.n)) > 0",
    ];
    const envs = [
      [createCelEnv({ version: '1.34', homogeneousAggregateLiterals: false, validateLiterals: false }), exprs],
      [createCelEnv({ variables: { self: schemaToCelType(schema as never)! } }), schemaExprs],
      // ranges whose type holds a parameter (the comprehension variable is then not known to hold none)
      [createCelEnv({ variables: { x: T.list(T.param('A')), m: T.map(T.string, T.param('B')) } }), [
        'x.map(v, v).size() == 1', 'x.filter(v, v == 1).size() == 1', "m.all(k, m[k] == 1)", 'm.map(k, m[k])[0] == 1',
        '[[]].map(l, l).size() == 1', '[[], [1]].exists(l, l == [])', 'x.exists(v, [v, 1].size() == 2)',
      ]],
    ] as const;
    let withParams = 0;
    for (const [env, list] of envs) {
      for (let round = 0; round < 2; round++) {
        for (const expr of list) {
          const r = env.check(expr);
          if (isCompileError(r)) continue;
          if (/\.(map|filter)\(|\[\]|\{\}/.test(expr)) withParams++;
          const left = r.types.findIndex((t) => holdsParam(t));
          expect([expr, left, holdsParam(r.type)]).toEqual([expr, -1, false]);
        }
      }
    }
    expect(withParams).toBeGreaterThanOrEqual(50);
  });
});
