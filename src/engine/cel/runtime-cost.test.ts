// Runtime costs checked against cel-go's own runtime cost tests (interpreter/runtimecost_test.go, the cases
// that use no protobuf messages and the default presence-test cost of Kubernetes: has() is free).

import { describe, expect, it } from 'vitest';
import { createCelEnv, isCompileError, isRuntimeError } from './env.js';
import type { CelType } from './types.js';
import { T } from './types.js';

const s500 = 'x'.repeat(500);

// [expression, variables (type, JSON value), expected cost]
const cases: [string, Record<string, [CelType, unknown]>, number][] = [
  ['"Hello World!"', {}, 0],
  ['input', { input: [T.list(T.int), [1, 2]] }, 1],
  ["input['key']", { input: [T.map(T.string, T.string), { key: 'v' }] }, 2],
  ['input[0]', { input: [T.list(T.string), ['v']] }, 2],
  ["input['ke' + 'y']", { input: [T.map(T.string, T.string), { key: 'v' }] }, 3],
  ['input[3-3]', { input: [T.list(T.string), ['v']] }, 3],
  ['has(input.testAttr.nestedAttr)', { input: [T.map(T.string, T.map(T.string, T.string)), { testAttr: { nestedAttr: '0' } }] }, 2],
  ['[1, 2, 3]', {}, 10],
  ['{"a": 1, "b": 2, "c": 3}', {}, 30],
  ['input.all(x, true)', { input: [T.list(T.int), []] }, 2],
  ['[1, 2, 3].all(x, true)', {}, 20],
  ["input.matches('[0-9]')", { input: [T.string, s500] }, 103],
  ["'123'.matches('[0-9]')", {}, 2],
  ['false || false', {}, 0],
  ['true || false', {}, 0],
  ['a || b || c || d', { a: [T.bool, false], b: [T.bool, false], c: [T.bool, false], d: [T.bool, false] }, 4],
  ['true && false', {}, 0],
  ['false && true', {}, 0],
  ['a && b && c && d', { a: [T.bool, true], b: [T.bool, true], c: [T.bool, true], d: [T.bool, true] }, 4],
  ['1 < 2', {}, 1],
  ['1 <= 2', {}, 1],
  ['1 == 2', {}, 1],
  ['2 > 1', {}, 1],
  ['2 >= 1', {}, 1],
  ['2 in [1, 2, 3]', {}, 13],
  ['1 + 1', {}, 1],
  ['1 - 1', {}, 1],
  ['1 / 1', {}, 1],
  ['1 * 1', {}, 1],
  ['1 % 1', {}, 1],
  ['true ? 1 : 2', {}, 0],
  ['size("123")', {}, 1],
  ["'12345678901234567890' == '123456789012345678901234567890'", {}, 2],
  ['string(input)', { input: [T.bytes, Buffer.from(s500).toString('base64')] }, 51],
  ['bytes(input)', { input: [T.string, s500] }, 51],
  ['string(1)', {}, 1],
  ['input.contains(arg1)', { input: [T.string, s500], arg1: [T.string, s500] }, 2502],
  ["input.matches('\\\\d+a\\\\d+b')", { input: [T.string, s500] }, 103],
  ['input.startsWith(arg1)', { input: [T.string, 'idc'], arg1: [T.string, s500] }, 3],
  ['input.endsWith(arg1)', { input: [T.string, 'idc'], arg1: [T.string, s500] }, 3],
  // string sizes count code points (a surrogate pair is one), by the loop up to 12 UTF-16 units and by the
  // native scan above: 6, 11, 17 and 40 code points in 12, 22, 32 and 80 units
  ['input.startsWith(arg1)', { input: [T.string, '\u{1F600}'.repeat(6)], arg1: [T.string, 'x'] }, 3],
  ['input.startsWith(arg1)', { input: [T.string, '\u{1F600}'.repeat(11)], arg1: [T.string, 'x'] }, 4],
  ['input.startsWith(arg1)', { input: [T.string, 'ab' + '\u{1F600}'.repeat(15)], arg1: [T.string, 'x'] }, 4],
  ['input.startsWith(arg1)', { input: [T.string, '\u{1F600}'.repeat(40)], arg1: [T.string, 'x'] }, 6],
  ['input.size()', { input: [T.string, '500'] }, 2],
  ['size(input)', { input: [T.string, '500'] }, 2],
  ['(x > 2 ? input1 : input2).all(y, true)', { x: [T.int, 1], input1: [T.list(T.int), [1]], input2: [T.list(T.int), [1]] }, 6],
  ['true ? false : 1 > 3', {}, 0],
  ['false ? false : 1 > 3', {}, 1],
  ['input.all(k, input[k].all(x, true))', { input: [T.map(T.string, T.list(T.int)), {}] }, 2],
  ['(list1 + list2).all(x, true)', { list1: [T.list(T.int), []], list2: [T.list(T.int), []] }, 4],
  ['"abcdefg".contains(str1 + str2)', { str1: [T.string, 'val1'], str2: [T.string, 'val2222222'] }, 6],
  ['(1 > 2 ? 5 : 3) > 1', {}, 2],
  ['(1 > 2 || 2 > 1) == true', {}, 3],
  ["[{'k1': 1}, {'k2': 2}].all(x, true)", {}, 77],
  ['[1,2,3,4,5].filter(x, x % 2 == 0)', {}, 62],
  ['[1,2,3,4,5].map(x, x)', {}, 86],
  ['[1,2,3,4,5].map(x, x).filter(x, x % 2 == 0)', {}, 138],
  ['[1,2,3,4,5].map(x, x).exists(x, x == 5) == true', {}, 118],
  ['[1,2,3,4,5].map(x, x).map(x, x)', {}, 162],
  ['[1,2,3,4,5].map(x, [x, x]).filter(z, z.size() == 2)', {}, 232],
  ['[1,2,3,4,5].map(x, [x, x]).all(y, y.all(y, y == 1))', {}, 171],
  ['[1,2,3,4,5].map(x, x).map(x, x) + [1]', {}, 173],
  ['[1,2,3].all(i, i in [1,2,3].map(j, j + j))', {}, 86],
];

describe('runtime cost matches cel-go', () => {
  it.each(cases)('%s', (expr, vars, want) => {
    const env = createCelEnv({ variables: Object.fromEntries(Object.entries(vars).map(([k, [t]]) => [k, t])) });
    const p = env.compile(expr);
    if (isCompileError(p)) throw new Error(p.formatted);
    const r = p.evaluateJson(Object.fromEntries(Object.entries(vars).map(([k, [, v]]) => [k, v])));
    if (isRuntimeError(r)) throw new Error(r.message);
    expect(r.cost).toBe(want);
  });
});

describe('regex calls', () => {
  it('charge for the pattern of each call when patterns alternate (51 x 1 or 51 x 5 each, plus the loop)', () => {
    const env = createCelEnv({ variables: { s: T.string, ps: T.list(T.string) } });
    const ps = ['y', 'z'.repeat(20), 'y', 'z'.repeat(20)];
    for (const [expr, want] of [['ps.all(p, !s.matches(p))', 638], ['ps.all(p, s.find(p) == "")', 634]] as const) {
      const p = env.compile(expr);
      if (isCompileError(p)) throw new Error(p.formatted);
      const r = p.evaluateJson({ s: s500, ps });
      if (isRuntimeError(r)) throw new Error(r.message);
      expect(r).toMatchObject({ value: true, cost: want });
    }
  });
});
