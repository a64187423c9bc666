// Static cost estimates checked against the numbers Kubernetes' own CRD validation tests expect
// (apiextensions-apiserver schema/cel compilation tests, TestCostEstimation): each schema is estimated once
// without bounds (sizes derived from the 3 MiB request limit) and once with maxItems/maxProperties/maxLength set.

import { describe, expect, it } from 'vitest';
import type { Schema } from '../schema/types.js';
import { createCelEnv, isCompileError } from './env.js';
import { schemaToCelType } from './schema-types.js';
import type { CelType } from './types.js';
import { T } from './types.js';

type Gen = (max?: number) => Schema;

function prim(t: string): Schema {
  if (t === 'duration' || t === 'date' || t === 'date-time') return { type: 'string', format: t };
  if (t === 'int-or-string') return { 'x-kubernetes-int-or-string': true };
  return { type: t as Schema['type'] };
}
const arrayOf = (t: string): Gen => (max) => ({ type: 'array', items: prim(t), ...(max !== undefined ? { maxItems: max } : {}) });
const arrayOfArrays = (t: string): Gen => (max) => ({ type: 'array', items: { type: 'array', items: prim(t) }, ...(max !== undefined ? { maxItems: max } : {}) });
const objectItem: Schema = { type: 'object', required: ['required'], properties: { required: { type: 'string' }, optional: { type: 'string' } } };
const arrayOfObjects: Gen = (max) => ({ type: 'array', items: objectItem, ...(max !== undefined ? { maxItems: max } : {}) });
const arrayOfMaps = (t: string): Gen => (max) => ({ type: 'array', items: { type: 'object', additionalProperties: prim(t) }, ...(max !== undefined ? { maxItems: max } : {}) });
const mapOf = (t: string): Gen => (max) => ({ type: 'object', additionalProperties: prim(t), ...(max !== undefined ? { maxProperties: max } : {}) });
const mapOfSchema = (item: Schema): Gen => (max) => ({ type: 'object', additionalProperties: item, ...(max !== undefined ? { maxProperties: max } : {}) });
const str: Gen = (max) => ({ type: 'string', ...(max !== undefined ? { maxLength: max } : {}) });
const bytes: Gen = (max) => ({ type: 'string', format: 'byte', ...(max !== undefined ? { maxLength: max } : {}) });
const nestedSpec: Gen = (max) => ({ type: 'object', additionalProperties: str(max), ...(max !== undefined ? { maxProperties: max } : {}) });
const allMaxNested: Gen = (max) => ({
  type: 'array',
  items: {
    type: 'object',
    additionalProperties: { ...objectItem, ...(max !== undefined ? { maxProperties: max } : {}) },
    ...(max !== undefined ? { maxProperties: max } : {}),
  },
  ...(max !== undefined ? { maxItems: max } : {}),
});
const oneMaxNested: Gen = (max) => ({
  type: 'array',
  items: { type: 'object', additionalProperties: objectItem, ...(max !== undefined ? { maxProperties: max } : {}) },
});
const enumStr: Gen = (max) => ({ type: 'string', enum: ['A', 'B', 'C', 'LongValue'], ...(max !== undefined ? { maxLength: max } : {}) });

const LIMIT = 1_000_000;

// [name, schema, rule, cost without bounds (or 'exceeds'), bound, cost with bound]
const cases: [string, Gen, string, number | 'exceeds', number, number][] = [
  ['number array with all', arrayOf('number'), 'self.all(x, true)', 4718591, 10, 32],
  ['string array with all', arrayOf('string'), 'self.all(x, true)', 3145727, 20, 62],
  ['boolean array with all', arrayOf('boolean'), 'self.all(x, true)', 1887437, 5, 17],
  ['array of number arrays with all', arrayOfArrays('number'), 'self.all(x, true)', 3145727, 100, 302],
  ['array of objects with all', arrayOfObjects, 'self.all(x, true)', 555128, 50, 152],
  ['map of numbers with all', mapOf('number'), 'self.all(x, true)', 1348169, 10, 32],
  ['map of strings with all', mapOf('string'), 'self.all(x, true)', 1179647, 3, 11],
  ['map of booleans with all', mapOf('boolean'), 'self.all(x, true)', 943718, 100, 302],
  ['string with contains', str, "self.contains('test')", 314574, 10, 5],
  ['string with startsWith', str, "self.startsWith('test')", 2, 15, 2],
  ['string with endsWith', str, "self.endsWith('test')", 2, 30, 2],
  ['concat string', str, 'size(self + "hello") > size("hello")', 314578, 4, 7],
  ['index of array with numbers', arrayOf('number'), 'self[1] == 0.0', 2, 5000, 2],
  ['index of array with strings', arrayOf('string'), 'self[1] == self[1]', 314577, 8, 314577],
  ['O(n^2) loop with numbers', arrayOf('number'), 'self.all(x, self.all(y, true))', 'exceeds', 10, 352],
  ['O(n^3) loop with numbers', arrayOf('number'), 'self.all(x, self.all(y, self.all(z, true)))', 'exceeds', 10, 3552],
  ['regex matches simple', str, 'self.matches("x")', 314574, 50, 22],
  ['regex matches empty string', str, '"".matches("(((((((((())))))))))[0-9]")', 7, 10, 7],
  ['regex matches empty regex', str, 'self.matches("")', 1, 100, 1],
  ['map of strings with value length', nestedSpec, 'self.all(x, x.contains(self[x]))', 2752507, 10, 72],
  ['set array maxLength to zero', arrayOf('number'), 'self[3] == 0.0', 2, 0, 2],
  ['set map maxLength to zero', mapOf('number'), 'self["x"] == 0.0', 2, 0, 2],
  ['set string maxLength to zero', str, 'self == "x"', 2, 0, 1],
  ['set bytes maxLength to zero', bytes, 'self == b"x"', 2, 0, 1],
  ['set maxLength greater than estimated maxLength', arrayOf('number'), 'self.all(x, x == 0.0)', 6291454, 3 * 1024 * 2048, 25165826],
  ['nested types with root rule with all supporting maxLength', allMaxNested, 'self.all(x, x["y"].required == "z")', 7340027, 10, 72],
  ['nested types with root rule with one supporting maxLength', oneMaxNested, 'self.all(x, x["y"].required == "z")', 7340027, 10, 7340027],
  ['int-or-string array with all', arrayOf('int-or-string'), 'self.all(x, true)', 4718591, 10, 32],
  ['index of array with int-or-strings', arrayOf('int-or-string'), 'self[0] == 5', 3, 10, 3],
  ['index of array with booleans', arrayOf('boolean'), 'self[0] == false', 2, 25, 2],
  ['index of array of objects', arrayOfObjects, 'self[0] == null', 2, 422, 2],
  ['index of array of array of numbers', arrayOfArrays('number'), 'self[0][0] == -1.0', 3, 51, 3],
  ['array of number maps with all', arrayOfMaps('number'), 'self.all(x, x.y == 25.2)', 6291452, 12, 74],
  ['index of array of number maps', arrayOfMaps('number'), 'self[0].x > 2.0', 4, 3000, 4],
  ['duration array with all', arrayOf('duration'), 'self.all(x, true)', 2359295, 5, 17],
  ['index of duration array', arrayOf('duration'), 'self[0].getHours() == 2', 4, 525, 4],
  ['date array with all', arrayOf('date'), 'self.all(x, true)', 725936, 15, 47],
  ['index of date array', arrayOf('date'), 'self[2].getDayOfMonth() == 13', 4, 42, 4],
  ['date-time array with all', arrayOf('date-time'), 'self.all(x, true)', 428963, 25, 77],
  ['index of date-time array', arrayOf('date-time'), 'self[2].getMinutes() == 45', 4, 99, 4],
  ['map of int-or-strings with all', mapOf('int-or-string'), 'self.all(x, true)', 1348169, 15, 47],
  ['map of objects with all', mapOfSchema(objectItem), 'self.all(x, true)', 428963, 20, 62],
  ['map of number maps with all', mapOfSchema({ type: 'object', additionalProperties: { type: 'number' } }), 'self.all(x, true)', 1179647, 10, 32],
  ['map of number arrays with all', mapOfSchema({ type: 'array', items: { type: 'number' } }), 'self.all(x, true)', 1179647, 25, 77],
  ['map of durations with all', mapOf('duration'), 'self.all(x, true)', 1048577, 5, 17],
  ['map of dates with all', mapOf('date'), 'self.all(x, true)', 524288, 10, 32],
  ['map of date-times with all', mapOf('date-time'), 'self.all(x, true)', 349526, 25, 77],
  ['check cost of timestamp comparison', mapOf('date-time'), 'self["a"] == self["b"]', 8, 7, 8],
  ['check cost of duration comparison', mapOf('duration'), 'self["c"] == self["d"]', 8, 42, 8],
  ['enums with maxLength equals to the longest possible value', enumStr, "self.contains('A')", 2, 1000, 401],
];

function estimate(schema: Schema, rule: string, withOld = false): number {
  const self = schemaToCelType(schema, {})!;
  const env = createCelEnv({ variables: withOld ? { self, oldSelf: self } : { self } });
  const p = env.compile(rule);
  if (isCompileError(p)) throw new Error(p.formatted);
  return p.estimateCost().max;
}

describe('static cost estimates match Kubernetes', () => {
  it.each(cases)('%s', (_name, gen, rule, calc, bound, set) => {
    const unbounded = estimate(gen(), rule);
    if (calc === 'exceeds') expect(unbounded).toBeGreaterThan(LIMIT);
    else expect(unbounded).toBe(calc);
    expect(estimate(gen(bound), rule)).toBe(set);
  });

  it('check cost of size call', () => {
    expect(estimate(mapOf('integer')(), 'oldSelf.size() == self.size()', true)).toBe(5);
  });
});

// cel-go's own estimator cases (checker/cost_test.go, TestCost), with its size hints expressed as the
// declared types' size bounds.
describe('static cost estimates match cel-go', () => {
  const str = (max?: number): CelType => (max === undefined ? T.string : { kind: 'string', maxSize: max });
  const list = (elem: CelType, max?: number): CelType => ({ kind: 'list', elem, ...(max !== undefined ? { maxSize: max } : {}) });
  const bytesT = (max: number): CelType => ({ kind: 'bytes', maxSize: max });
  const gocases: [string, Record<string, CelType>, number, number][] = [
    ['"Hello World!"', {}, 0, 0],
    ['input', { input: list(T.int) }, 1, 1],
    ["input['key']", { input: T.map(T.string, T.string) }, 2, 2],
    ['has(input.testAttr.nestedAttr)', { input: T.map(T.string, T.map(T.string, T.string)) }, 2, 2],
    ['[1, 2, 3]', {}, 10, 10],
    ['{"a": 1, "b": 2, "c": 3}', {}, 30, 30],
    ['input.all(x, true)', { input: list(T.int, 100) }, 2, 302],
    ['input.all(x, x.all(y, true))', { input: list(list(T.int, 10), 50) }, 2, 1752],
    ['[1, 2, 3].all(x, true)', {}, 20, 20],
    ["input.matches('[0-9]')", { input: str(500) }, 3, 103],
    ["'123'.matches('[0-9]')", {}, 2, 2],
    ['true || false', {}, 0, 0],
    ['a || b || c || d', { a: T.bool, b: T.bool, c: T.bool, d: T.bool }, 1, 4],
    ['a && b && c && d', { a: T.bool, b: T.bool, c: T.bool, d: T.bool }, 1, 4],
    ['1 < 2', {}, 1, 1],
    ['2 in [1, 2, 3]', {}, 13, 13],
    ['true ? 1 : 2', {}, 0, 0],
    ['size("123")', {}, 1, 1],
    ['size(b"123")', {}, 1, 1],
    ['string(input)', { input: bytesT(500) }, 1, 51],
    ['string(input) == string(input)', { input: bytesT(500) }, 3, 152],
    ['bytes(input)', { input: str(500) }, 1, 51],
    ['bytes(input) == bytes(input)', { input: str(500) }, 3, 302],
    ['string(1)', {}, 1, 1],
    ['input.contains(arg1)', { input: str(500), arg1: str(500) }, 2, 2502],
    ["input.matches('\\\\d+a\\\\d+b')", { input: str(500) }, 3, 103],
    ['input.startsWith(arg1)', { input: T.string, arg1: str(500) }, 2, 52],
    ['input.endsWith(arg1)', { input: T.string, arg1: str(500) }, 2, 52],
    ['input.size()', { input: T.string }, 2, 2],
    ['(x > 2 ? input1 : input2).all(y, true)', { x: T.int, input1: list(T.int, 1), input2: list(T.int, 1) }, 4, 7],
    ['(list1 + list2).all(x, true)', { list1: list(T.int, 10), list2: list(T.int, 10) }, 4, 64],
    ['"abcdefg".contains(str1 + str2)', { str1: str(10), str2: str(10) }, 2, 6],
    ['list1.size() == list2.size()', { list1: list(T.int), list2: list(T.int) }, 5, 5],
    ['x > y ? list1.size() : list2.size()', { x: T.int, y: T.int, list1: list(T.int), list2: list(T.int) }, 5, 5],
    ['str1.endsWith("abcdefghijklmnopqrstuvwxyz") == str2.endsWith("abcdefghijklmnopqrstuvwxyz")', { str1: T.string, str2: T.string }, 9, 9],
    ['((5 != 6) == (1 == 2)) == ((3 <= 4) == (9 != 9))', {}, 7, 7],
  ];
  it.each(gocases)('%s', (expr, vars, min, max) => {
    const p = createCelEnv({ variables: vars }).compile(expr);
    if (isCompileError(p)) throw new Error(p.formatted);
    expect(p.estimateCost()).toEqual({ min, max });
  });
});
