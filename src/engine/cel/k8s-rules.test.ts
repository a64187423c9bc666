// Validation rules over schema-typed data, restating cases of Kubernetes' CRD validation tests
// (apiextensions-apiserver schema/cel validation_test.go, TestValidationExpressions): each `valid` rule must
// evaluate to true; each `errors` rule must fail (compile or runtime) with a message containing the text.

import { describe, expect, it } from 'vitest';
import type { Schema } from '../schema/types.js';
import { createCelEnv, isCompileError, isRuntimeError } from './env.js';
import { schemaToCelType } from './schema-types.js';

const integerType: Schema = { type: 'integer' };
const int32Type: Schema = { type: 'integer', format: 'int32' };
const int64Type: Schema = { type: 'integer', format: 'int64' };
const numberType: Schema = { type: 'number' };
const floatType: Schema = { type: 'number', format: 'float' };
const doubleType: Schema = { type: 'number', format: 'double' };
const stringType: Schema = { type: 'string' };
const byteType: Schema = { type: 'string', format: 'byte' };
const booleanType: Schema = { type: 'boolean' };
const durationFormat: Schema = { type: 'string', format: 'duration' };
const dateFormat: Schema = { type: 'string', format: 'date' };
const dateTimeFormat: Schema = { type: 'string', format: 'date-time' };
const intOrString: Schema = { 'x-kubernetes-int-or-string': true };
const listType = (items: Schema): Schema => ({ type: 'array', items });
const listSetType = (items: Schema): Schema => ({ type: 'array', items, 'x-kubernetes-list-type': 'set' });
const listMapType = (keys: string[], items: Schema): Schema => ({ type: 'array', items, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': keys });
const mapType = (v: Schema): Schema => ({ type: 'object', additionalProperties: v });
const objectType = (props: Record<string, Schema>): Schema => ({ type: 'object', properties: props });
const nullable = (s: Schema): Schema => ({ ...s, nullable: true });

const objs = (...vals: unknown[]) => Object.fromEntries(vals.map((v, i) => [`val${i + 1}`, v]));
const schemas = (...ss: Schema[]) => objectType(Object.fromEntries(ss.map((s, i) => [`val${i + 1}`, s])));

interface Case {
  name: string;
  schema: Schema;
  obj: unknown;
  valid?: string[];
  errors?: Record<string, string>;
  isRoot?: boolean;
}

const MAX_INT64 = 9223372036854775807n;

const cases: Case[] = [
  {
    name: 'integers',
    obj: objs(MAX_INT64, MAX_INT64, 2147483647, 2147483647, MAX_INT64, MAX_INT64),
    schema: schemas(integerType, integerType, int32Type, int32Type, int64Type, int64Type),
    valid: [
      'self.val1 == self.val2 && self.val1 == 9223372036854775807 && self.val2 == 9223372036854775807',
      'self.val3 == self.val4 && self.val3 == 2147483647',
      'self.val1 == self.val6',
      'type(self.val1) == int',
      'self.val3 + 1 == 2147483647 + 1',
      'type(self.val3) == int',
      'type(self.val5) == int',
    ],
    errors: { 'self.val1 + 1 == 0': 'integer overflow', 'self.val5 + 1 == 0': 'integer overflow', '1 / 0 == 1 / 0': 'division by zero' },
  },
  {
    name: 'numbers',
    obj: objs(Number.MAX_VALUE, Number.MAX_VALUE, 3.4028234663852886e38, 3.4028234663852886e38, Number.MAX_VALUE, Number.MAX_VALUE, 1),
    schema: schemas(numberType, numberType, floatType, floatType, doubleType, doubleType, doubleType),
    valid: ['self.val1 == self.val2', 'self.val1 == self.val6', 'type(self.val1) == double', 'type(self.val3) == double', 'type(self.val7) == double', 'self.val7 == 1.0'],
  },
  {
    name: 'numeric comparisons',
    obj: objs(5, 10, 15, 10.0, 10.0, 10.0, 10, 10, 10),
    schema: schemas(integerType, integerType, integerType, numberType, floatType, doubleType, numberType, floatType, doubleType),
    valid: [
      'double(self.val1) < self.val4', 'double(self.val2) == self.val4', 'double(self.val3) > self.val4',
      'self.val1 < int(self.val4)', 'self.val2 == int(self.val4)', 'self.val3 > int(self.val4)',
      'double(self.val2) == self.val7', 'self.val2 == int(self.val9)', 'double(5) < 10.0', '10 == int(10.0)',
      'self.val1 < self.val4', 'self.val2 <= self.val4', 'self.val2 >= self.val4', 'self.val3 > self.val4',
      'self.val1 < self.val7', 'self.val3 > self.val9', '5 < 10.0', '15 > 10.0', 'self.val1 < 10.0', 'self.val3 > 10.0',
    ],
  },
  {
    name: 'unicode strings',
    obj: objs('Rook takes 👑', 'Rook takes 👑'),
    schema: schemas(stringType, stringType),
    valid: [
      "self.val1 == self.val2 && self.val1 == 'Rook takes 👑'",
      "self.val1.startsWith('Rook')", "!self.val1.startsWith('knight')", "self.val1.contains('takes')",
      "self.val1.endsWith('👑')", "self.val1.matches('^[^0-9]*$')", "!self.val1.matches('^[0-9]*$')",
      'type(self.val1) == string', 'size(self.val1) == 12',
    ],
    errors: { "self.val1.matches(')')": 'compile error: ERROR: <input>:1:19: invalid matches argument' },
  },
  { name: 'escaped strings', obj: objs('l1\nl2', 'l1\nl2'), schema: schemas(stringType, stringType), valid: ["self.val1 == 'l1\\nl2'", "self.val1 == '''l1\nl2'''"] },
  {
    name: 'bytes',
    obj: objs('QUI=', 'QUI='),
    schema: schemas(byteType, byteType),
    valid: ['self.val1 == self.val2', "self.val1 == b'AB'", "self.val1 == bytes('AB')", "self.val1 == b'\\x41\\x42'", 'type(self.val1) == bytes', 'size(self.val1) == 2'],
  },
  { name: 'booleans', obj: objs(true, true, false, false), schema: schemas(booleanType, booleanType, booleanType, booleanType), valid: ['self.val1 == self.val2 && self.val1 == true', 'self.val1 != self.val4', 'type(self.val1) == bool'] },
  {
    name: 'duration format',
    obj: objs('1h2m3s4ms', '1h2m3s4ms'),
    schema: schemas(durationFormat, durationFormat),
    valid: [
      "self.val1 == self.val2 && self.val1 == duration('1h2m3s4ms')", "self.val1 == duration('1h2m') + duration('3s4ms')",
      'self.val1.getHours() == 1', 'self.val1.getMinutes() == 62', 'self.val1.getSeconds() == 3723', 'self.val1.getMilliseconds() == 3723004',
      'type(self.val1) == google.protobuf.Duration',
    ],
    errors: {
      "duration('1')": 'compile error: ERROR: <input>:1:10: invalid duration argument',
      "duration('1d')": 'compile error: ERROR: <input>:1:10: invalid duration argument',
      "duration('1us') < duration('1nns')": 'compile error: ERROR: <input>:1:28: invalid duration argument',
    },
  },
  {
    name: 'date format',
    obj: objs('1997-07-16', '1997-07-16'),
    schema: schemas(dateFormat, dateFormat),
    valid: ["self.val1 == timestamp('1997-07-16T00:00:00.000Z')", 'self.val1.getDate() == 16', 'self.val1.getMonth() == 06', 'self.val1.getFullYear() == 1997', 'type(self.val1) == google.protobuf.Timestamp'],
  },
  {
    name: 'date-time format',
    obj: objs('2011-08-18T19:03:37.010000000+01:00', '2011-08-18T19:03:37.010000000+01:00'),
    schema: schemas(dateTimeFormat, dateTimeFormat),
    valid: [
      "self.val1 == self.val2 && self.val1 == timestamp('2011-08-18T19:03:37.010+01:00')",
      "self.val1 == timestamp('2011-08-18T00:00:00.000+01:00') + duration('19h3m37s10ms')",
      "self.val1.getDate('01:00') == 18", "self.val1.getMonth('01:00') == 7", "self.val1.getFullYear('01:00') == 2011",
      "self.val1.getHours('01:00') == 19", "self.val1.getMinutes('01:00') == 03", "self.val1.getSeconds('01:00') == 37",
      "self.val1.getMilliseconds('01:00') == 10", "self.val1.getHours('UTC') == 18", 'type(self.val1) == google.protobuf.Timestamp',
    ],
    errors: {
      "timestamp('1000-00-00T00:00:00Z')": 'compile error: ERROR: <input>:1:11: invalid timestamp',
      "timestamp('1000-01-01T00:00:00ZZ')": 'compile error: ERROR: <input>:1:11: invalid timestamp',
      'timestamp(-62135596801)': 'compile error: ERROR: <input>:1:11: invalid timestamp',
    },
  },
  {
    name: 'enums',
    obj: { enumStr: 'Pending' },
    schema: objectType({ enumStr: { type: 'string', enum: ['Pending', 'Available', 'Bound', 'Released', 'Failed'] } }),
    valid: ["self.enumStr == 'Pending'", "self.enumStr in ['Pending', 'Available']"],
  },
  {
    name: 'conversions',
    obj: objs(10, 10.0, 10.49, 10.5, true, '10', 'MTA=', '3723.004s', '1h2m3s4ms', '2011-08-18T19:03:37.01+01:00', '2011-08-18T19:03:37.01+01:00', '2011-08-18T00:00:00Z', '2011-08-18'),
    schema: schemas(integerType, numberType, numberType, numberType, booleanType, stringType, byteType, stringType, durationFormat, stringType, dateTimeFormat, stringType, dateFormat),
    valid: [
      'int(self.val2) == self.val1', 'int(self.val3) == self.val1', 'int(self.val4) == self.val1', 'int(self.val6) == self.val1',
      'double(self.val1) == self.val2', 'double(self.val6) == self.val2', 'bytes(self.val6) == self.val7', 'string(self.val1) == self.val6',
      "string(self.val2) == '10'", "string(self.val3) == '10.49'", "string(self.val4) == '10.5'", "string(self.val5) == 'true'",
      'string(self.val7) == self.val6', 'duration(self.val8) == self.val9', 'string(self.val9) == self.val8',
      'timestamp(self.val10) == self.val11', 'string(self.val11) == self.val10', 'timestamp(self.val12) == self.val13', 'string(self.val13) == self.val12',
    ],
  },
  {
    name: 'lists',
    obj: objs([1, 2, 3], [1, 2, 3]),
    schema: schemas(listType(integerType), listType(integerType)),
    valid: ['self.val1 == self.val2 && self.val1 == [1, 2, 3]', '1 in self.val1', 'self.val2[0] in self.val1', '!(0 in self.val1)', 'self.val1 + self.val2 == [1, 2, 3, 1, 2, 3]', 'self.val1 + [4, 5] == [1, 2, 3, 4, 5]'],
    errors: { "[1, 'a', false].filter(x, string(x) == 'a')": "compile error: ERROR: <input>:1:5: expected type 'int' but found 'string'" },
  },
  {
    name: 'listSets',
    obj: objs(['a', 'b', 'c'], ['a', 'c', 'b']),
    schema: schemas(listSetType(stringType), listSetType(stringType)),
    valid: ["self.val1 == ['c', 'b', 'a']", 'self.val1 == self.val2', "'a' in self.val1", 'self.val2[0] in self.val1', "!('x' in self.val1)", "self.val1 + self.val2 == ['a', 'b', 'c']", "self.val1 + ['c', 'd'] == ['a', 'b', 'c', 'd']"],
  },
  {
    name: 'listMaps',
    obj: {
      objs: [
        [{ k: 'a', v: '1' }, { k: 'b', v: '2' }],
        [{ k: 'b', v: '2' }, { k: 'a', v: '1' }],
        [{ k: 'b', v: '3' }, { k: 'a', v: '1' }],
        [{ k: 'c', v: '4' }],
      ],
    },
    schema: objectType({ objs: listType(listMapType(['k'], objectType({ k: stringType, v: stringType }))) }),
    valid: [
      'self.objs[0] == self.objs[1]', 'self.objs[0] + self.objs[2] == self.objs[2]', 'self.objs[2] + self.objs[0] == self.objs[0]',
      'self.objs[0] == [self.objs[0][0], self.objs[0][1]]', 'self.objs[0] == [self.objs[0][1], self.objs[0][0]]',
      'self.objs[2] + [self.objs[0][0], self.objs[0][1]] == self.objs[0]', 'size(self.objs[0] + [self.objs[3][0]]) == 3',
    ],
    errors: { "self.objs[0] == {'k': 'a', 'v': '1'}": "no matching overload for '_==_'" },
  },
  {
    name: 'maps',
    obj: objs({ k1: 'a', k2: 'b' }, { k2: 'b', k1: 'a' }),
    schema: schemas(mapType(stringType), mapType(stringType)),
    valid: ['self.val1 == self.val2', "'k1' in self.val1", "!('k3' in self.val1)", "self.val1 == {'k1': 'a', 'k2': 'b'}"],
    errors: { "{'k1': 'a', 'k2': 1, 'k2': false}": "expected type 'string' but found 'int'" },
  },
  {
    name: 'objects',
    obj: { objs: [{ f1: 'a', f2: 'b' }, { f1: 'a', f2: 'b' }] },
    schema: objectType({ objs: listType(objectType({ f1: stringType, f2: stringType })) }),
    valid: ['self.objs[0] == self.objs[1]'],
    errors: { "self.objs[0] == {'f1': 'a', 'f2': 'b'}": "found no matching overload for '_==_'" },
  },
  {
    name: 'object access',
    obj: { a: { b: 1, d: null }, a1: { b1: { c1: 4 } }, a3: {} },
    schema: objectType({
      a: objectType({ b: integerType, c: integerType, d: nullable(integerType) }),
      a1: objectType({ b1: objectType({ c1: integerType }), d2: objectType({ e2: integerType }) }),
    }),
    valid: ['has(self.a.b)', '!has(self.a.c)', '!has(self.a.d)', 'has(self.a1.b1.c1)', '!(has(self.a1.d2) && has(self.a1.d2.e2))', '!has(self.a1.d2)'],
    errors: { 'has(self.a.z)': "undefined field 'z'", "self.a['b'] == 1": "no matching overload for '_[_]'", 'has(self.a1.d2.e2)': 'no such key: d2' },
  },
  {
    name: 'map access',
    obj: { val: { b: 1, d: 2 } },
    schema: objectType({ val: mapType(integerType) }),
    valid: [
      "!('a' in self.val)", "'b' in self.val", '!has(self.val.a)', 'has(self.val.b)', 'self.val.all(k, self.val[k] > 0)',
      'self.val.exists(k, self.val[k] > 1)', 'self.val.exists_one(k, self.val[k] == 2)', '!self.val.exists(k, self.val[k] > 2)',
      '!self.val.exists_one(k, self.val[k] > 0)', 'size(self.val) == 2', 'self.val.map(k, self.val[k]).exists(v, v == 1)',
      'size(self.val.filter(k, self.val[k] > 1)) == 1',
    ],
    errors: { "self.val['c'] == 1": 'no such key: c' },
  },
  {
    name: 'listMap access',
    obj: { listMap: [{ k: 'a1', v: 'b1' }, { k: 'a2', v: 'b2' }, { k: 'a3', v: 'b3', v2: 'z' }] },
    schema: objectType({ listMap: listMapType(['k'], objectType({ k: stringType, v: stringType, v2: stringType })) }),
    valid: [
      'has(self.listMap[0].v)', "self.listMap.all(m, m.k.startsWith('a'))", "self.listMap.all(m, !has(m.v2) || m.v2 == 'z')",
      "self.listMap.exists(m, m.k.endsWith('1'))", "self.listMap.exists_one(m, m.k == 'a3')", "!self.listMap.all(m, m.k.endsWith('1'))",
      "!self.listMap.exists(m, m.v == 'x')", "!self.listMap.exists_one(m, m.k.startsWith('a'))", "size(self.listMap.filter(m, m.k == 'a1')) == 1",
      "self.listMap.exists(m, m.k == 'a1' && m.v == 'b1')", "self.listMap.map(m, m.v).exists(v, v == 'b1')",
      "self.listMap.exists(m, has(m.v2) && m.v2 == 'z')", "!self.listMap.all(m, has(m.v2) && m.v2 != 'z')",
      "self.listMap.exists_one(m, has(m.v2) && m.v2 == 'z')", "self.listMap.filter(m, has(m.v2) && m.v2 == 'z').size() == 1",
      "self.listMap.map(m, has(m.v2) && m.v2 == 'z', m.v2).size() == 1", "self.listMap.filter(m, has(m.v2) && m.v2 == 'z').map(m, m.v2).size() == 1",
      "self.listMap.exists(m, m.v2 == 'z')", "!self.listMap.all(m, m.v2 != 'z')",
    ],
    errors: {
      "self.listMap.all(m, m.v2 == 'z')": 'no such key: v2',
      "self.listMap.exists_one(m, m.v2 == 'z')": 'no such key: v2',
      "self.listMap.filter(m, m.v2 == 'z').size() == 1": 'no such key: v2',
      'self.listMap.map(m, m.v2).size() == 1': 'no such key: v2',
      "self.listMap.map(m, m.v2 == 'z', m.v2).size() == 1": 'no such key: v2',
    },
  },
  {
    name: 'list access',
    obj: { array: [1, 1, 2, 2, 3, 3, 4, 5] },
    schema: objectType({ array: listType(integerType) }),
    valid: [
      '2 in self.array', 'self.array.all(e, e > 0)', 'self.array.exists(e, e > 2)', 'self.array.exists_one(e, e > 4)', '!self.array.all(e, e < 2)',
      '!self.array.exists(e, e < 0)', '!self.array.exists_one(e, e == 2)', 'size(self.array.filter(e, e%2 == 0)) == 3',
      'self.array.map(e, e * 20).filter(e, e > 50).exists(e, e == 60)', 'size(self.array) == 8',
    ],
    errors: { 'self.array[100] == 0': 'index out of bounds: 100' },
  },
  {
    name: 'typemeta and objectmeta access not specified',
    isRoot: true,
    obj: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'foo', generateName: 'pickItForMe', namespace: 'xyz' }, spec: { field1: 'a' } },
    schema: objectType({ spec: objectType({ field1: stringType }) }),
    valid: ["self.kind == 'Pod'", "self.apiVersion == 'v1'", "self.metadata.name == 'foo'", "self.metadata.generateName == 'pickItForMe'", "self.spec.field1 == 'a'"],
    errors: { 'has(self.metadata.namespace)': "undefined field 'namespace'" },
  },
  {
    name: 'embedded object',
    obj: { embedded: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'foo', generateName: 'pickItForMe', namespace: 'xyz' }, spec: { field1: 'a' } } },
    schema: objectType({ embedded: { type: 'object', 'x-kubernetes-embedded-resource': true } }),
    valid: ["self.embedded.kind == 'Pod'", "self.embedded.apiVersion == 'v1'", "self.embedded.metadata.name == 'foo'", "self.embedded.metadata.generateName == 'pickItForMe'"],
    errors: { 'has(self.embedded.metadata.namespace)': "undefined field 'namespace'", 'has(self.embedded.spec)': "undefined field 'spec'" },
  },
  {
    name: 'embedded object with usage of reserved keywords',
    obj: { embedded: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'foo', generateName: 'pickItForMe', namespace: 'reserved_keyword_namespace' }, spec: { if: 'reserved_keyword_if' } } },
    schema: objectType({
      embedded: {
        type: 'object', 'x-kubernetes-embedded-resource': true,
        properties: {
          kind: stringType, apiVersion: stringType,
          metadata: objectType({ name: stringType, generateName: stringType, namespace: stringType }),
          spec: objectType({ if: stringType }),
        },
      },
    }),
    valid: ['has(self.embedded.metadata.namespace)', "self.embedded.metadata.namespace == 'reserved_keyword_namespace'", 'has(self.embedded.spec.if)', "self.embedded.spec.if == 'reserved_keyword_if'"],
  },
  {
    name: 'string in intOrString',
    obj: { something: '25%' },
    schema: objectType({ something: intOrString }),
    valid: [
      "self.something == '25%'", 'self.something != 1', "self.something == 1 || self.something == '25%'", "self.something == '25%' || self.something == 1",
      "type(self.something) == string && self.something == '25%'", "type(self.something) == int ? self.something == 1 : self.something == '25%'",
      "self.something != ['anything']",
    ],
  },
  {
    name: 'int in intOrString',
    obj: { something: 1 },
    schema: objectType({ something: intOrString }),
    valid: ['self.something == 1', "self.something != 'some string'", "type(self.something) == int && self.something == 1", "self.something != ['anything']"],
  },
  {
    name: 'null in intOrString',
    obj: { something: null },
    schema: objectType({ something: nullable(intOrString) }),
    valid: ['!has(self.something)'],
    errors: { 'type(self.something) == int': 'no such key' },
  },
  {
    name: 'percent comparison using intOrString',
    obj: { min: '50%', current: 5, available: 10 },
    schema: objectType({ min: intOrString, current: integerType, available: integerType }),
    valid: ["type(self.min) == string && self.min.matches(r'(\\d+(\\.\\d+)?%)')"],
  },
  {
    name: 'preserve unknown fields',
    obj: {
      withUnknown: { field1: 'a', field2: 'b' },
      withUnknownList: [{ field1: 'a', field2: 'b' }, { field1: 'x', field2: 'y' }, { field1: 'x', field2: 'y' }, {}, {}],
      anyvalList: ['a', 2], anyvalMap: { k: '1' }, anyvalField1: 1,
    },
    schema: objectType({
      withUnknown: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      withUnknownList: listType({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }),
      anyvalList: listType({ 'x-kubernetes-preserve-unknown-fields': true }),
      anyvalMap: mapType({ 'x-kubernetes-preserve-unknown-fields': true }),
      anyvalField1: { 'x-kubernetes-preserve-unknown-fields': true },
    }),
    valid: [
      'has(self.withUnknown)', 'self.withUnknownList.size() == 5', 'self.withUnknownList[0] != self.withUnknownList[1]',
      'self.withUnknownList[1] == self.withUnknownList[2]', 'self.withUnknownList[3] == self.withUnknownList[4]',
    ],
    errors: {
      'has(self.withUnknown.field1)': "undefined field 'field1'",
      'has(self.anyvalList)': "undefined field 'anyvalList'",
      'has(self.anyvalMap)': "undefined field 'anyvalMap'",
      'has(self.anyvalField1)': "undefined field 'anyvalField1'",
    },
  },
  {
    name: 'field nullability',
    obj: { setPlainStr: 'v1', setNullableStr: 'v3', setToNullNullableStr: null },
    schema: objectType({ unsetPlainStr: stringType, unsetNullableStr: nullable(stringType), setPlainStr: stringType, setNullableStr: nullable(stringType), setToNullNullableStr: nullable(stringType) }),
    valid: ['!has(self.unsetPlainStr)', '!has(self.unsetNullableStr)', "has(self.setPlainStr) && self.setPlainStr == 'v1'", 'type(self.setNullableStr) != null_type', '!has(self.setToNullNullableStr)'],
    errors: {
      'self.unsetPlainStr == null': "no matching overload for '_==_' applied to '(string, null)",
      'self.setNullableStr != null': "no matching overload for '_!=_' applied to '(string, null)",
    },
  },
  {
    name: 'null values in container types',
    obj: { m: { a: null, b: 'not-nil' }, l: [null, 'not-nil'], s: [null, 'not-nil'] },
    schema: objectType({ m: mapType(nullable(stringType)), l: listType(nullable(stringType)), s: listSetType(nullable(stringType)) }),
    valid: ['self.m.size() == 2', "'a' in self.m", "type(self.m['a']) == null_type", 'self.l.size() == 2', 'type(self.l[0]) == null_type', 'type(self.s[0]) == null_type'],
  },
];

function run(c: Case, rule: string): { value?: unknown; error?: string } {
  const self = schemaToCelType(c.schema, {}, { resourceRoot: !!c.isRoot })!;
  const env = createCelEnv({ variables: { self } });
  const p = env.compile(rule);
  if (isCompileError(p)) return { error: `compile error: ${p.formatted}` };
  const r = p.evaluateJson({ self: c.obj });
  if (isRuntimeError(r)) return { error: r.message };
  return { value: r.value };
}

describe('Kubernetes validation rules over schema-typed data', () => {
  for (const c of cases) {
    describe(c.name, () => {
      for (const rule of c.valid ?? []) {
        it(`valid: ${rule}`, () => {
          expect(run(c, rule)).toEqual({ value: true });
        });
      }
      for (const [rule, msg] of Object.entries(c.errors ?? {})) {
        it(`error: ${rule}`, () => {
          const r = run(c, rule);
          expect(r.error).toBeDefined();
          expect(r.error).toContain(msg);
        });
      }
    });
  }
});
