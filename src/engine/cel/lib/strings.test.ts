import { describe, expect, it } from 'vitest';
import { CelDuration, CelMap, CelTimestamp, CelTypeValue, CelUint } from '../values.js';
import type { CelValue } from '../values.js';
import { T } from '../types.js';
import * as S from './strings.js';

// Expectations from cel-go ext/strings_test.go (v0.23.2), the version Kubernetes 1.33 vendors.
describe('ext strings functions', () => {
  const cases: [string, () => unknown, unknown][] = [
    ["'tacocat'.charAt(3)", () => S.charAt('tacocat', 3n), 'o'],
    ["'tacocat'.charAt(7)", () => S.charAt('tacocat', 7n), ''],
    ["'©αT'.charAt(1)", () => S.charAt('©αT', 1n), 'α'],
    ["'tacocat'.indexOf('')", () => S.indexOf('tacocat', ''), 0n],
    ["'tacocat'.indexOf('ac')", () => S.indexOf('tacocat', 'ac'), 1n],
    ["'tacocat'.indexOf('none')", () => S.indexOf('tacocat', 'none'), -1n],
    ["'tacocat'.indexOf('', 3)", () => S.indexOf('tacocat', '', 3n), 3n],
    ["'tacocat'.indexOf('a', 3)", () => S.indexOf('tacocat', 'a', 3n), 5n],
    ["'ta©o©αT'.indexOf('©', 3)", () => S.indexOf('ta©o©αT', '©', 3n), 4n],
    ["'ta©o©αT'.indexOf('©α', 5)", () => S.indexOf('ta©o©αT', '©α', 5n), -1n],
    ["'hello wello'.indexOf('elbo room!!!')", () => S.indexOf('hello wello', 'elbo room!!!'), -1n],
    ["'tacocat'.indexOf('a', 30)", () => S.indexOf('tacocat', 'a', 30n), -1n],
    ["'tacocat'.lastIndexOf('')", () => S.lastIndexOf('tacocat', ''), 7n],
    ["'tacocat'.lastIndexOf('at')", () => S.lastIndexOf('tacocat', 'at'), 5n],
    ["'tacocat'.lastIndexOf('', 3)", () => S.lastIndexOf('tacocat', '', 3n), 3n],
    ["'tacocat'.lastIndexOf('a', 3)", () => S.lastIndexOf('tacocat', 'a', 3n), 1n],
    ["'ta©o©αT'.lastIndexOf('©')", () => S.lastIndexOf('ta©o©αT', '©'), 4n],
    ["'ta©o©αT'.lastIndexOf('©α', 4)", () => S.lastIndexOf('ta©o©αT', '©α', 4n), 4n],
    ["'bananananana'.lastIndexOf('nana', 7)", () => S.lastIndexOf('bananananana', 'nana', 7n), 6n],
    ["'hello wello'.lastIndexOf('hello wello')", () => S.lastIndexOf('hello wello', 'hello wello'), 0n],
    ["'tacocat'.lastIndexOf('a', 30)", () => S.lastIndexOf('tacocat', 'a', 30n), -1n],
    ["'TacoCat'.lowerAscii()", () => S.lowerAscii('TacoCÆt Xii'), 'tacocÆt xii'],
    ["'tacoCat'.upperAscii()", () => S.upperAscii('tacoCªt'), 'TACOCªT'],
    ['replace all', () => S.replace('{0} days {0} hours', '{0}', '2'), '2 days 2 hours'],
    ['replace n', () => S.replace(S.replace('{0} days {0} hours', '{0}', '2', 1n), '{0}', '23'), '2 days 23 hours'],
    ['replace unicode', () => S.replace('1 ©αT taco', 'αT', 'o©α'), '1 ©o©α taco'],
    ['replace empty old', () => S.replace('hello hello', '', '_'), '_h_e_l_l_o_ _h_e_l_l_o_'],
    ['replace with empty', () => S.replace('hello hello', 'h', ''), 'ello ello'],
    ['replace n=0', () => S.replace('aaa', 'a', 'b', 0n), 'aaa'],
    ['split', () => S.split('hello world', ' '), ['hello', 'world']],
    ['split n=0', () => S.split('hello world events!', ' ', 0n), []],
    ['split n=1', () => S.split('hello world events!', ' ', 1n), ['hello world events!']],
    ['split n=-1', () => S.split('o©o©o©o', '©', -1n), ['o', 'o', 'o', 'o']],
    ['split n=2', () => S.split('a,b,c', ',', 2n), ['a', 'b,c']],
    ['split empty sep', () => S.split('42', ''), ['4', '2']],
    ['split empty sep n=2', () => S.split('abc', '', 2n), ['a', 'bc']],
    ['split empty string', () => S.split('', ','), ['']],
    ['substring(4)', () => S.substring('tacocat', 4n), 'cat'],
    ['substring(7)', () => S.substring('tacocat', 7n), ''],
    ['substring(0, 4)', () => S.substring('tacocat', 0n, 4n), 'taco'],
    ['substring(4, 4)', () => S.substring('tacocat', 4n, 4n), ''],
    ['substring unicode', () => S.substring('ta©o©αT', 2n, 6n), '©o©α'],
    ['trim', () => S.trim(' \f\n\r\t\vtext  '), 'text'],
    ['trim unicode', () => S.trim('\u0085\u00a0\u1680text\u2000\u2001\u200a\u2028\u2029\u202F\u205F\u3000'), 'text'],
    ['trim keeps zero-width', () => S.trim('\u180etext\u200b\u200c\u200d\u2060\ufeff'), '\u180etext\u200b\u200c\u200d\u2060\ufeff'],
    ['quote', () => S.quote('first\nsecond'), '"first\\nsecond"'],
    ['quote escapes', () => S.quote('bell\u0007 "q" \\'), '"bell\\a \\"q\\" \\\\"'],
    ['quote unicode', () => S.quote('ta©o©αT'), '"ta©o©αT"'],
    ['join', () => S.join(['x', 'y']), 'xy'],
    ['join sep', () => S.join(['x', 'y'], '-'), 'x-y'],
    ['join empty', () => S.join([], '-'), ''],
    ['reverse', () => S.reverse('☺☹'), '☹☺'],
  ];
  it.each(cases)('%s', (_name, f, want) => {
    expect(f()).toEqual(want);
  });
  it('errors', () => {
    expect(() => S.charAt('tacocat', 30n)).toThrow('index out of range: 30');
    expect(() => S.charAt('tacocat', -1n)).toThrow('index out of range: -1');
    expect(() => S.indexOf('tacocat', 'a', -1n)).toThrow('index out of range: -1');
    expect(() => S.lastIndexOf('tacocat', 'a', -1n)).toThrow('index out of range: -1');
    expect(() => S.substring('tacocat', 40n)).toThrow('index out of range: 40');
    expect(() => S.substring('tacocat', -1n)).toThrow('index out of range: -1');
    expect(() => S.substring('tacocat', 1n, 50n)).toThrow('index out of range: 50');
    expect(() => S.substring('tacocat', 49n, 50n)).toThrow('index out of range: 49');
    expect(() => S.substring('tacocat', 4n, 3n)).toThrow('invalid substring range. start: 4, end: 3');
    expect(() => S.join(['a', 1n as unknown as string])).toThrow('join: invalid input: 1');
  });
});

const ts = (s: string) => new CelTimestamp(BigInt(Date.parse(s)) * 1000000n);
const sec = (n: bigint) => new CelDuration(n * 1000000000n);

describe('string.format', () => {
  const cases: [string, CelValue[], string][] = [
    ['%o', [11n], '13'],
    ['%o', [-11n], '-13'],
    ['this is an unsigned octal: %o', [new CelUint(65535n)], 'this is an unsigned octal: 177777'],
    ['%x is 30 in hexadecimal', [30n], '1e is 30 in hexadecimal'],
    ['%X is 20 in hexadecimal', [30n], '1E is 20 in hexadecimal'],
    ['%x is -30 in hexadecimal', [-30n], '-1e is -30 in hexadecimal'],
    ['%X is 6000 in hexadecimal', [new CelUint(6000n)], '1770 is 6000 in hexadecimal'],
    ['%x', ['Hello world!'], '48656c6c6f20776f726c6421'],
    ['%X', ['Hello world!'], '48656C6C6F20776F726C6421'],
    ['%x', [new Uint8Array([0, 0, ...Array.from('byte string', (c) => c.charCodeAt(0)), 0])], '00006279746520737472696e6700'],
    ['%.6e', [1052.032911275], '1.052033\u202f\u00d7\u202f10\u2070\u00b3'],
    ['%f', [2.71828], '2.718280'],
    ['%e', [2.71828], '2.718280\u202f\u00d7\u202f10\u2070\u2070'],
    ['%.3f', [3.14], '3.140'],
    ['%s', [2.71], '2.71'],
    ['%s', [[2.71]], '[2.710000]'],
    ['%s', [0.000000002], '2e-09'],
    ['%s', [[0.000000002]], '[0.000000]'],
    ['%f', ['NaN'], 'NaN'],
    ['%f', ['Infinity'], '∞'],
    ['%f', ['-Infinity'], '-∞'],
    ['%s', [NaN], 'NaN'],
    ['%s', [Infinity], '+Inf'],
    ['%s', [-Infinity], '-Inf'],
    ['%s', [[NaN, Infinity, -Infinity]], '["NaN", "+Inf", "-Inf"]'],
    ['%d', [new CelUint(64n)], '64'],
    ['null: %s', [null], 'null: null'],
    ['%s', [999999999999n], '999999999999'],
    ['some bytes: %s', [new Uint8Array([120, 121, 122])], 'some bytes: xyz'],
    ['type is %s', [new CelTypeValue('string', T.string)], 'type is string'],
    ['%s', [ts('2023-02-03T23:31:20Z')], '2023-02-03T23:31:20Z'],
    ['%s', [sec(6347n)], '6347s'],
    ['%s', [new CelDuration(2n)], '0.000000002s'],
    ['%s', [['abc', 3.14, null, [9n, 8n, 7n, 6n], ts('2023-02-03T23:31:20Z')]], '["abc", 3.140000, null, [9, 8, 7, 6], timestamp("2023-02-03T23:31:20Z")]'],
    [
      '%s',
      [new CelMap([['key1', new Uint8Array([120, 121, 122])], ['key5', null], ['key2', sec(7200n)], ['key4', true], ['key3', 2.71828]])],
      '{"key1":b"xyz", "key2":duration("7200s"), "key3":2.718280, "key4":true, "key5":null}',
    ],
    ['map with multiple key types: %s', [new CelMap([[1n, 'value1'], [new CelUint(2n), 'value2'], [true, NaN]])], 'map with multiple key types: {1:"value1", 2:"value2", true:"NaN"}'],
    ['true bool: %s, false bool: %s', [true, false], 'true bool: true, false bool: false'],
    ['bit set from bool: %b', [true], 'bit set from bool: 1'],
    ['%b', [-5n], '-101'],
    ['100%% sure: %d', [1n], '100% sure: 1'],
    ['%f', [1234567.891], '1,234,567.891000'],
    ['%.2f', [-0.125], '-0.12'],
    ['%.0f', [2.5], '2'],
    ['%.2e', [0.000123456], '1.23\u202f×\u202f10⁻⁰⁴'],
    ['%s', [1234567.0], '1.234567e+06'],
    ['%s', [100000.0], '100000'],
    ['%.3d', [5n], '5'],
  ];
  it.each(cases)('%s.format (case %#)', (fmt, args, want) => {
    expect(S.formatString(fmt, args)).toBe(want);
  });
  it('errors', () => {
    expect(() => S.formatString('%a', [1n])).toThrow('could not parse formatting clause: unrecognized formatting clause "a"');
    expect(() => S.formatString('%d %d %d', [0n, 1n])).toThrow('index 2 out of range');
    expect(() => S.formatString('string is %b', ['abc'])).toThrow(
      'error during formatting: only integers and bools can be formatted as binary, was given string',
    );
    expect(() => S.formatString('%d', [sec(1802n)])).toThrow(
      'error during formatting: decimal clause can only be used on integers, was given google.protobuf.Duration',
    );
    expect(() => S.formatString('octal: %o', ['a string'])).toThrow('error during formatting: octal clause can only be used on integers, was given string');
    expect(() => S.formatString('double is %x', [0.5])).toThrow(
      'error during formatting: only integers, byte buffers, and strings can be formatted as hex, was given double',
    );
    expect(() => S.formatString('double is %E', [0.5])).toThrow('could not parse formatting clause: unrecognized formatting clause "E"');
    expect(() => S.formatString('null: %e', [null])).toThrow('error during formatting: scientific clause can only be used on doubles, was given null_type');
    expect(() => S.formatString('null: %f', [null])).toThrow('error during formatting: fixed-point clause can only be used on doubles, was given null_type');
    expect(() => S.formatString('%s %s', ['abc'])).toThrow('index 1 out of range');
    expect(() => S.formatString('filler %', [1n])).toThrow('unexpected end of string');
    expect(() => S.formatString('double is %.34', [5.0])).toThrow(
      'could not parse formatting clause: error while parsing precision: could not find end of precision specifier',
    );
    const obj = CelMap.fromRecord({ a: 1n }, 'ext.TestAllTypes');
    expect(() => S.formatString('%s', [[1n, 2n, obj]])).toThrow(
      'error during formatting: string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given ext.TestAllTypes',
    );
  });
  it('goFormatFloatG matches strconv', () => {
    expect([1234567, 1e6, 999999, 123456.7, 1e21, 1e20, 0.0001, 0.00001, 2.71].map(S.goFormatFloatG)).toEqual([
      '1.234567e+06', '1e+06', '999999', '123456.7', '1e+21', '1e+20', '0.0001', '1e-05', '2.71',
    ]);
  });
});

describe('compile-time format validation (stringFormatValidator)', () => {
  const int = { kind: 'int' } as const;
  const dbl = { kind: 'double' } as const;
  const str = { kind: 'string' } as const;
  const cases: [string, S.FormatArgType[], string | undefined][] = [
    ['%s %d %f', [str, int, dbl], undefined],
    ['%d', [{ kind: 'dyn' }], undefined],
    ['%s %s', [str, str, str], 'too many arguments supplied to string.format (expected 2, got 3)'],
    ['%s %s', [str], 'index 1 out of range'],
    ['filler %', [], 'unexpected end of string'],
    ['%j', [int], 'could not parse formatting clause: unrecognized formatting clause "j"'],
    ['int is %d', [dbl], 'error during formatting: decimal clause can only be used on integers, was given double'],
    ['double is %f', [{ kind: 'bool' }], 'error during formatting: fixed-point clause can only be used on doubles, was given bool'],
    ['double is %.34', [dbl], 'could not parse formatting clause: error while parsing precision: could not find end of precision specifier'],
    ['%e', [{ kind: 'bool' }], 'error during formatting: scientific clause can only be used on doubles, was given bool'],
    ['string is %b', [str], 'error during formatting: only integers and bools can be formatted as binary, was given string'],
    ['%x is a double', [dbl], 'error during formatting: only integers, byte buffers, and strings can be formatted as hex, was given double'],
    ['an octal: %o', [dbl], 'error during formatting: octal clause can only be used on integers, was given double'],
    [
      'object is %s',
      [{ kind: 'object', name: 'ext.TestAllTypes' }],
      'error during formatting: string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given ext.TestAllTypes',
    ],
    ['%s', [{ kind: 'list', elem: { kind: 'opaque', name: 'net.IP' } }], 'error during formatting: string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given net.IP'],
    ['%d', [{ kind: 'duration' }], 'error during formatting: decimal clause can only be used on integers, was given google.protobuf.Duration'],
    ['100%% %s', [{ kind: 'map', key: str, value: { kind: 'list', elem: int } }], undefined],
  ];
  it.each(cases)('%j', (fmt, types, want) => {
    expect(S.checkFormatCall(fmt, types)).toBe(want);
  });
});
