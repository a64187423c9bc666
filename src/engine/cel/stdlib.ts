// The CEL standard library: operators, conversions, string and time functions, optionals. Overload ids
// follow cel-go's names (they select the cost rules of the runtime cost model).

import type { CelFunctionDecl, CelLibrary, CelOverload, SizeEstimate } from './library.js';
import { actualSize } from './library.js';
import type { CelType } from './types.js';
import { T, typeName } from './types.js';
import type { CelValue } from './values.js';
import {
  isAppendable, CelDuration, CelError, CelMap, CelOptional, CelTimestamp, CelTypeValue, CelUint, INT64_MAX, INT64_MIN, UINT64_MAX,
  celEquals, checkInt, checkUint, compareNumeric, isUnstructured, listTypeOf, valueType, valueTypeName, withListType,
} from './values.js';
import { compileRe2 } from './regex.js';
import {
  NANOS_PER_SECOND, checkDuration, checkTimestamp, durationPart, formatDuration, formatTimestamp, parseDuration,
  parseTimestamp, timestampPart, type TimestampPart,
} from './time.js';

const A = T.param('A');
const B = T.param('B');
const listA = T.list(A);
const mapAB = T.map(A, B);

type Impl = (...args: CelValue[]) => CelValue;
function ov(id: string, args: CelType[], result: CelType, impl: Impl, extra: Partial<CelOverload> = {}): CelOverload {
  return { id, args, result, impl, ...extra };
}
function mem(id: string, args: CelType[], result: CelType, impl: Impl, extra: Partial<CelOverload> = {}): CelOverload {
  return { id, args, result, impl, member: true, ...extra };
}

const ceilTenth = (n: number) => Math.ceil(n * 0.1);
/** ceilTenth(actualSize(v)) without counting code points when the string is too short for it to matter. */
function tenth(v: CelValue): number {
  if (typeof v === 'string' && v.length <= 10) return v.length === 0 ? 0 : 1;
  return ceilTenth(actualSize(v));
}
const trav = (a: SizeEstimate) => ({ min: ceilTenth(a.min), max: ceilTenth(a.max) });

// ---- arithmetic ------------------------------------------------------------------------------------

function addList(a: CelValue, b: CelValue): CelValue {
  const l = a as CelValue[], r = b as CelValue[];
  const lt = listTypeOf(l);
  if (!lt && isAppendable(l)) {
    for (let i = 0; i < r.length; i++) l.push(r[i]);
    return l;
  }
  if (lt && lt.listType === 'set') {
    // set union keeping the positions of the left operand (spec rule 6)
    const out = l.slice();
    for (const x of r) if (!out.some((y) => celEquals(x, y))) out.push(x);
    return withListType(out, lt);
  }
  if (lt && lt.listType === 'map' && lt.mapKeys) {
    // merge by keys: right values overwrite equal keys, new right elements are appended (spec rule 6)
    const keys = lt.mapKeys;
    const keyOf = (x: CelValue) => keys.map((k) => (x instanceof CelMap ? x.getStr(k) ?? null : null));
    const out = l.slice();
    for (const x of r) {
      const kx = keyOf(x);
      const idx = out.findIndex((y) => keyOf(y).every((v, i) => celEquals(v, kx[i])));
      if (idx >= 0) out[idx] = x;
      else out.push(x);
    }
    return withListType(out, lt);
  }
  if (r.length === 0) return l;
  if (l.length === 0) return r;
  return l.concat(r);
}

function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

function cmpBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return a.length - b.length;
}

function cmpStrings(a: string, b: string): number {
  // code point order (UTF-16 order differs for astral characters)
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!, y = b.codePointAt(i)!;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

type Cmp = (a: CelValue, b: CelValue) => number;
const numCmp: Cmp = (a, b) => compareNumeric(a as bigint, b as bigint);
const cmps: [string, CelType, CelType, Cmp][] = [
  ['bool', T.bool, T.bool, (a, b) => (a === b ? 0 : a ? 1 : -1)],
  ['int64', T.int, T.int, numCmp],
  ['uint64', T.uint, T.uint, numCmp],
  ['double', T.double, T.double, numCmp],
  ['string', T.string, T.string, (a, b) => cmpStrings(a as string, b as string)],
  ['bytes', T.bytes, T.bytes, (a, b) => cmpBytes(a as Uint8Array, b as Uint8Array)],
  ['timestamp', T.timestamp, T.timestamp, (a, b) => cmpBig((a as CelTimestamp).ns, (b as CelTimestamp).ns)],
  ['duration', T.duration, T.duration, (a, b) => cmpBig((a as CelDuration).ns, (b as CelDuration).ns)],
];
const crossCmps: [string, CelType, CelType][] = [
  ['int64_uint64', T.int, T.uint], ['int64_double', T.int, T.double], ['uint64_int64', T.uint, T.int],
  ['uint64_double', T.uint, T.double], ['double_int64', T.double, T.int], ['double_uint64', T.double, T.uint],
];
function cmpBig(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function relational(): CelFunctionDecl[] {
  const ops: [string, string, (c: number) => boolean][] = [
    ['_<_', 'less', (c) => c < 0], ['_<=_', 'less_equals', (c) => c <= 0], ['_>_', 'greater', (c) => c > 0], ['_>=_', 'greater_equals', (c) => c >= 0],
  ];
  // ints and doubles compare with the JavaScript operators directly (NaN answers false to all, as in CEL)
  const direct: Record<string, (x: CelValue, y: CelValue) => boolean> = {
    '_<_': (x, y) => (x as number) < (y as number),
    '_<=_': (x, y) => (x as number) <= (y as number),
    '_>_': (x, y) => (x as number) > (y as number),
    '_>=_': (x, y) => (x as number) >= (y as number),
  };
  return ops.map(([name, prefix, test]) => ({
    name,
    overloads: [
      ...cmps.map(([suffix, a, b, cmp]) => ov(`${prefix}_${suffix}`, [a, b], T.bool, suffix === 'int64' || suffix === 'double' ? direct[name] : (x, y) => test(cmp(x, y)),
        suffix === 'string' || suffix === 'bytes' ? { cost: traversalCost, estimate: traversalEstimate } : {})),
      ...crossCmps.map(([suffix, a, b]) => ov(`${prefix}_${suffix}`, [a, b], T.bool, (x, y) => test(numCmp(x, y)), { minVersion: '1.29' as const })),
    ],
  }));
}

// O(min(m, n)) comparisons (strings, bytes, equality) as cel-go's runtime tracker and checker estimator charge them
function traversalCost(args: CelValue[]): number {
  // ceilTenth is monotonic: the tenth of the smaller size is the smaller tenth
  return Math.min(tenth(args[0]), tenth(args[1]));
}
function traversalEstimate([a, b]: SizeEstimate[]) {
  const smallestMax = Math.min(a.max, b.max);
  return { min: smallestMax > 0 ? 1 : 0, max: ceilTenth(smallestMax) };
}

const divZero = () => new CelError('division by zero');
const modZero = () => new CelError('modulus by zero');

function arithmetic(): CelFunctionDecl[] {
  return [
    {
      name: '_+_',
      overloads: [
        ov('add_int64', [T.int, T.int], T.int, (a, b) => checkInt((a as bigint) + (b as bigint))),
        ov('add_uint64', [T.uint, T.uint], T.uint, (a, b) => checkUint((a as CelUint).v + (b as CelUint).v)),
        ov('add_double', [T.double, T.double], T.double, (a, b) => (a as number) + (b as number)),
        ov('add_string', [T.string, T.string], T.string, (a, b) => (a as string) + (b as string), {
          cost: (args) => ceilTenth(actualSize(args[0]) + actualSize(args[1])),
          estimate: ([a, b]) => ({ min: ceilTenth(a.min + b.min), max: ceilTenth(a.max + b.max) }),
          resultSize: ([a, b]) => ({ min: a.min + b.min, max: a.max + b.max }),
        }),
        ov('add_bytes', [T.bytes, T.bytes], T.bytes, (a, b) => concatBytes(a as Uint8Array, b as Uint8Array), {
          cost: (args) => ceilTenth(actualSize(args[0]) + actualSize(args[1])),
          estimate: ([a, b]) => ({ min: ceilTenth(a.min + b.min), max: ceilTenth(a.max + b.max) }),
          resultSize: ([a, b]) => ({ min: a.min + b.min, max: a.max + b.max }),
        }),
        ov('add_list', [listA, listA], listA, addList, { resultSize: ([a, b]) => ({ min: a.min + b.min, max: a.max + b.max }) }),
        ov('add_timestamp_duration', [T.timestamp, T.duration], T.timestamp, (a, b) => checkTimestamp((a as CelTimestamp).ns + (b as CelDuration).ns, (a as CelTimestamp).offsetSec)),
        ov('add_duration_timestamp', [T.duration, T.timestamp], T.timestamp, (a, b) => checkTimestamp((a as CelDuration).ns + (b as CelTimestamp).ns, (b as CelTimestamp).offsetSec)),
        ov('add_duration_duration', [T.duration, T.duration], T.duration, (a, b) => checkDuration((a as CelDuration).ns + (b as CelDuration).ns)),
      ],
    },
    {
      name: '_-_',
      overloads: [
        ov('subtract_int64', [T.int, T.int], T.int, (a, b) => checkInt((a as bigint) - (b as bigint))),
        ov('subtract_uint64', [T.uint, T.uint], T.uint, (a, b) => checkUint((a as CelUint).v - (b as CelUint).v)),
        ov('subtract_double', [T.double, T.double], T.double, (a, b) => (a as number) - (b as number)),
        ov('subtract_timestamp_timestamp', [T.timestamp, T.timestamp], T.duration, (a, b) => checkDuration((a as CelTimestamp).ns - (b as CelTimestamp).ns)),
        ov('subtract_timestamp_duration', [T.timestamp, T.duration], T.timestamp, (a, b) => checkTimestamp((a as CelTimestamp).ns - (b as CelDuration).ns, (a as CelTimestamp).offsetSec)),
        ov('subtract_duration_duration', [T.duration, T.duration], T.duration, (a, b) => checkDuration((a as CelDuration).ns - (b as CelDuration).ns)),
      ],
    },
    {
      name: '_*_',
      overloads: [
        ov('multiply_int64', [T.int, T.int], T.int, (a, b) => checkInt((a as bigint) * (b as bigint))),
        ov('multiply_uint64', [T.uint, T.uint], T.uint, (a, b) => checkUint((a as CelUint).v * (b as CelUint).v)),
        ov('multiply_double', [T.double, T.double], T.double, (a, b) => (a as number) * (b as number)),
      ],
    },
    {
      name: '_/_',
      overloads: [
        ov('divide_int64', [T.int, T.int], T.int, (a, b) => {
          if (b === 0n) throw divZero();
          return checkInt((a as bigint) / (b as bigint));
        }),
        ov('divide_uint64', [T.uint, T.uint], T.uint, (a, b) => {
          if ((b as CelUint).v === 0n) throw divZero();
          return new CelUint((a as CelUint).v / (b as CelUint).v);
        }),
        ov('divide_double', [T.double, T.double], T.double, (a, b) => (a as number) / (b as number)),
      ],
    },
    {
      name: '_%_',
      overloads: [
        ov('modulo_int64', [T.int, T.int], T.int, (a, b) => {
          if (b === 0n) throw modZero();
          if (a === INT64_MIN && b === -1n) throw new CelError('integer overflow');
          return (a as bigint) % (b as bigint);
        }),
        ov('modulo_uint64', [T.uint, T.uint], T.uint, (a, b) => {
          if ((b as CelUint).v === 0n) throw modZero();
          return new CelUint((a as CelUint).v % (b as CelUint).v);
        }),
      ],
    },
    {
      name: '-_',
      overloads: [
        ov('negate_int64', [T.int], T.int, (a) => checkInt(-(a as bigint))),
        ov('negate_double', [T.double], T.double, (a) => -(a as number)),
      ],
    },
    { name: '!_', overloads: [ov('logical_not', [T.bool], T.bool, (a) => !a)] },
    ...relational(),
    {
      name: '_==_',
      overloads: [
        ov('equals', [A, A], T.bool, (a, b) => celEquals(a, b), {
          cost: traversalCost,
          estimate: traversalEstimate,
        }),
      ],
    },
    {
      name: '_!=_',
      overloads: [
        ov('not_equals', [A, A], T.bool, (a, b) => !celEquals(a, b), {
          cost: traversalCost,
          estimate: traversalEstimate,
        }),
      ],
    },
  ];
}

// ---- collections -----------------------------------------------------------------------------------

function indexList(l: CelValue, i: CelValue): CelValue {
  const list = l as CelValue[];
  let idx: number;
  if (typeof i === 'bigint') idx = i >= 0n && i < BigInt(list.length) ? Number(i) : -1;
  else if (i instanceof CelUint) idx = i.v < BigInt(list.length) ? Number(i.v) : -1;
  else if (typeof i === 'number') {
    if (!Number.isInteger(i)) throw new CelError(`unsupported index value ${formatDouble(i)} in list`);
    idx = i >= 0 && i < list.length ? i : -1;
  } else throw new CelError(`unsupported index type '${valueTypeName(i)}' in list`);
  if (idx < 0 && isUnstructured(list)) throw new CelError(`index out of bounds: ${typeof i === 'number' ? formatDouble(i) : i instanceof CelUint ? i.v : i}`);
  if (idx < 0) throw new CelError(`index '${typeof i === 'number' ? formatDouble(i) : i instanceof CelUint ? i.v : i}' out of range in list size '${list.length}'`);
  return list[idx];
}

export function indexValue(c: CelValue, k: CelValue): CelValue {
  if (Array.isArray(c)) return indexList(c, k);
  if (c instanceof CelMap) {
    const v = c.get(k);
    if (v === undefined) {
      if (CelMap.norm(k) === undefined && typeof k !== 'number') throw new CelError(`unsupported key type: ${valueTypeName(k)}`);
      throw new CelError(`no such key: ${keyString(k)}`);
    }
    return v;
  }
  throw new CelError('no such overload');
}

function keyString(k: CelValue): string {
  if (typeof k === 'string') return k;
  if (k instanceof CelUint) return String(k.v);
  if (typeof k === 'number') return formatDouble(k);
  return String(k);
}

function collections(): CelFunctionDecl[] {
  const sizeOf = (v: CelValue) => BigInt(actualSize(v));
  return [
    {
      name: 'size',
      overloads: [
        ov('size_string', [T.string], T.int, sizeOf),
        ov('size_bytes', [T.bytes], T.int, sizeOf),
        ov('size_list', [listA], T.int, sizeOf),
        ov('size_map', [mapAB], T.int, sizeOf),
        mem('string_size', [T.string], T.int, sizeOf),
        mem('bytes_size', [T.bytes], T.int, sizeOf),
        mem('list_size', [listA], T.int, sizeOf),
        mem('map_size', [mapAB], T.int, sizeOf),
      ],
    },
    {
      name: '@in',
      overloads: [
        ov('in_list', [A, listA], T.bool, (x, l) => (l as CelValue[]).some((y) => celEquals(x, y)), {
          cost: (args) => actualSize(args[1]),
          estimate: ([, l]) => ({ min: l.min, max: l.max }),
        }),
        ov('in_map', [A, mapAB], T.bool, (x, m) => (m as CelMap).has(x)),
      ],
    },
    {
      name: '_[_]',
      overloads: [
        ov('index_list', [listA, T.int], A, indexList),
        ov('index_map', [mapAB, A], B, indexValue),
      ],
    },
  ];
}

// ---- strings ---------------------------------------------------------------------------------------

function strings(): CelFunctionDecl[] {
  return [
    {
      name: 'contains',
      overloads: [
        mem('contains_string', [T.string, T.string], T.bool, (s, t) => (s as string).includes(t as string), {
          cost: (args) => tenth(args[0]) * tenth(args[1]),
          estimate: ([s, t]) => ({ min: ceilTenth(s.min) * ceilTenth(t.min), max: ceilTenth(s.max) * ceilTenth(t.max) }),
        }),
      ],
    },
    {
      name: 'startsWith',
      overloads: [
        mem('starts_with_string', [T.string, T.string], T.bool, (s, t) => (s as string).startsWith(t as string), {
          cost: (args) => tenth(args[0]),
          estimate: ([, p]) => trav(p),
        }),
      ],
    },
    {
      name: 'endsWith',
      overloads: [
        mem('ends_with_string', [T.string, T.string], T.bool, (s, t) => (s as string).endsWith(t as string), {
          cost: (args) => tenth(args[0]),
          estimate: ([, p]) => trav(p),
        }),
      ],
    },
    {
      name: 'matches',
      overloads: [
        ov('matches', [T.string, T.string], T.bool, (s, re) => compileRe2(re as string).test(s as string), { cost: matchCost, estimate: matchEstimate }),
        mem('matches_string', [T.string, T.string], T.bool, (s, re) => compileRe2(re as string).test(s as string), { cost: matchCost, estimate: matchEstimate }),
      ],
    },
  ];
}

function matchCost(args: CelValue[]): number {
  return Math.ceil((1 + actualSize(args[0])) * 0.1) * Math.ceil(actualSize(args[1]) * 0.25);
}
function matchEstimate([s, r]: SizeEstimate[]) {
  return { min: Math.ceil((1 + s.min) * 0.1) * Math.ceil(r.min * 0.25), max: Math.ceil((1 + s.max) * 0.1) * Math.ceil(r.max * 0.25) };
}

// ---- conversions -----------------------------------------------------------------------------------

/** Go's strconv.FormatFloat(f, 'g', -1, 64) as cel-go prints doubles. */
export function formatDouble(d: number): string {
  if (Number.isNaN(d)) return 'NaN';
  if (d === Infinity) return '+Inf';
  if (d === -Infinity) return '-Inf';
  if (d === 0) return Object.is(d, -0) ? '-0' : '0';
  const e = d.toExponential(); // shortest round-trip digits: "1.2345e+5"
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(e)!;
  const digits = m[2] + (m[3] ?? '');
  const exp = Number(m[4]);
  if (exp < -4 || exp >= 21) {
    const mant = m[2] + (m[3] ? '.' + m[3] : '');
    const ae = Math.abs(exp);
    return `${m[1]}${mant}e${exp < 0 ? '-' : '+'}${ae < 10 ? '0' + ae : ae}`;
  }
  // plain notation
  if (exp >= digits.length - 1) return m[1] + digits + '0'.repeat(exp - digits.length + 1);
  if (exp >= 0) return m[1] + digits.slice(0, exp + 1) + '.' + digits.slice(exp + 1);
  return m[1] + '0.' + '0'.repeat(-exp - 1) + digits;
}

const utf8Decoder = new TextDecoder('utf-8', { fatal: true });
const utf8Encoder = new TextEncoder();

function intFromDouble(d: number): bigint {
  if (!Number.isFinite(d) || d <= -9223372036854775809 || d >= 9223372036854775808) throw new CelError('integer overflow');
  return BigInt(Math.trunc(d));
}

function conversions(): CelFunctionDecl[] {
  return [
    {
      name: 'int',
      overloads: [
        ov('int64_to_int64', [T.int], T.int, (a) => a),
        ov('uint64_to_int64', [T.uint], T.int, (a) => {
          if ((a as CelUint).v > INT64_MAX) throw new CelError('integer overflow');
          return (a as CelUint).v;
        }),
        ov('double_to_int64', [T.double], T.int, (a) => intFromDouble(a as number)),
        ov('string_to_int64', [T.string], T.int, (a) => {
          const s = a as string;
          if (!/^[+-]?\d+$/.test(s)) throw new CelError(`cannot parse '${s}' as int`);
          const v = BigInt(s);
          if (v > INT64_MAX || v < INT64_MIN) throw new CelError('integer overflow');
          return v;
        }),
        ov('timestamp_to_int64', [T.timestamp], T.int, (a) => {
          const ns = (a as CelTimestamp).ns;
          const q = ns / NANOS_PER_SECOND;
          return ns < 0n && q * NANOS_PER_SECOND !== ns ? q - 1n : q;
        }),
      ],
    },
    {
      name: 'uint',
      overloads: [
        ov('uint64_to_uint64', [T.uint], T.uint, (a) => a),
        ov('int64_to_uint64', [T.int], T.uint, (a) => {
          if ((a as bigint) < 0n) throw new CelError('unsigned integer overflow');
          return new CelUint(a as bigint);
        }),
        ov('double_to_uint64', [T.double], T.uint, (a) => {
          const d = a as number;
          if (!Number.isFinite(d) || d <= -1 || d >= 18446744073709551616) throw new CelError('unsigned integer overflow');
          return new CelUint(BigInt(Math.trunc(d)));
        }),
        ov('string_to_uint64', [T.string], T.uint, (a) => {
          const s = a as string;
          if (!/^\+?\d+$/.test(s)) throw new CelError(`cannot parse '${s}' as uint`);
          const v = BigInt(s);
          if (v > UINT64_MAX) throw new CelError('unsigned integer overflow');
          return new CelUint(v);
        }),
      ],
    },
    {
      name: 'double',
      overloads: [
        ov('double_to_double', [T.double], T.double, (a) => a),
        ov('int64_to_double', [T.int], T.double, (a) => Number(a as bigint)),
        ov('uint64_to_double', [T.uint], T.double, (a) => Number((a as CelUint).v)),
        ov('string_to_double', [T.string], T.double, (a) => {
          const s = (a as string).trim() === a ? (a as string) : '';
          if (/^[+-]?(inf|infinity)$/i.test(s)) return s.startsWith('-') ? -Infinity : Infinity;
          if (/^nan$/i.test(s)) return NaN;
          if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) throw new CelError(`cannot parse '${a as string}' as double`);
          return Number(s);
        }),
      ],
    },
    {
      name: 'string',
      overloads: [
        ov('string_to_string', [T.string], T.string, (a) => a),
        ov('int64_to_string', [T.int], T.string, (a) => String(a)),
        ov('uint64_to_string', [T.uint], T.string, (a) => String((a as CelUint).v)),
        ov('double_to_string', [T.double], T.string, (a) => formatDouble(a as number)),
        ov('bool_to_string', [T.bool], T.string, (a) => String(a)),
        ov('bytes_to_string', [T.bytes], T.string, (a) => {
          try {
            return utf8Decoder.decode(a as Uint8Array);
          } catch {
            throw new CelError('invalid UTF-8 in bytes, cannot convert to string');
          }
        }, {
          cost: (args) => tenth(args[0]), estimate: ([a]) => trav(a),
          // at least one code point per 4 bytes, at most one per byte
          resultSize: ([a]) => ({ min: Math.floor(a.min / 4), max: a.max }),
        }),
        ov('timestamp_to_string', [T.timestamp], T.string, (a) => formatTimestamp(a as CelTimestamp)),
        ov('duration_to_string', [T.duration], T.string, (a) => formatDuration(a as CelDuration)),
      ],
    },
    {
      name: 'bytes',
      overloads: [
        ov('bytes_to_bytes', [T.bytes], T.bytes, (a) => a),
        ov('string_to_bytes', [T.string], T.bytes, (a) => utf8Encoder.encode(a as string), {
          cost: (args) => tenth(args[0]), estimate: ([a]) => trav(a),
          // up to 4 bytes per code point
          resultSize: ([a]) => ({ min: a.min, max: a.max * 4 }),
        }),
      ],
    },
    {
      name: 'bool',
      overloads: [
        ov('bool_to_bool', [T.bool], T.bool, (a) => a),
        ov('string_to_bool', [T.string], T.bool, (a) => {
          const s = a as string;
          if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(s)) return true;
          if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(s)) return false;
          throw new CelError(`type conversion error from 'string' to 'bool'`);
        }),
      ],
    },
    {
      name: 'timestamp',
      overloads: [
        ov('timestamp_to_timestamp', [T.timestamp], T.timestamp, (a) => a),
        ov('string_to_timestamp', [T.string], T.timestamp, (a) => parseTimestamp(a as string)),
        ov('int64_to_timestamp', [T.int], T.timestamp, (a) => checkTimestamp((a as bigint) * NANOS_PER_SECOND)),
      ],
    },
    {
      name: 'duration',
      overloads: [
        ov('duration_to_duration', [T.duration], T.duration, (a) => a),
        ov('string_to_duration', [T.string], T.duration, (a) => parseDuration(a as string)),
        ov('int64_to_duration', [T.int], T.duration, (a) => checkDuration(a as bigint)),
      ],
    },
    { name: 'dyn', overloads: [ov('to_dyn', [A], T.dyn, (a) => a)] },
    { name: 'type', overloads: [ov('type', [A], T.typeOf(A), (a) => typeValueOf(a))] },
  ];
}

export function typeValueOf(v: CelValue): CelTypeValue {
  if (v instanceof CelTypeValue) return TYPE_TYPE;
  const name = valueTypeName(v);
  return new CelTypeValue(name, valueType(v));
}
export const TYPE_TYPE = new CelTypeValue('type', T.type);

// ---- time ------------------------------------------------------------------------------------------

function timeFns(): CelFunctionDecl[] {
  const tsParts: [TimestampPart, string][] = [
    ['getFullYear', 'timestamp_to_year'], ['getMonth', 'timestamp_to_month'], ['getDate', 'timestamp_to_day_of_month_1_based'],
    ['getDayOfMonth', 'timestamp_to_day_of_month'], ['getDayOfWeek', 'timestamp_to_day_of_week'], ['getDayOfYear', 'timestamp_to_day_of_year'],
    ['getHours', 'timestamp_to_hours'], ['getMinutes', 'timestamp_to_minutes'], ['getSeconds', 'timestamp_to_seconds'],
    ['getMilliseconds', 'timestamp_to_milliseconds'],
  ];
  const durParts: Record<string, string> = { getHours: 'duration_to_hours', getMinutes: 'duration_to_minutes', getSeconds: 'duration_to_seconds', getMilliseconds: 'duration_to_milliseconds' };
  return tsParts.map(([name, id]) => ({
    name,
    overloads: [
      mem(id, [T.timestamp], T.int, (t) => timestampPart(t as CelTimestamp, name)),
      mem(`${id}_with_tz`, [T.timestamp, T.string], T.int, (t, tz) => timestampPart(t as CelTimestamp, name, tz as string)),
      ...(durParts[name] ? [mem(durParts[name], [T.duration], T.int, (d) => durationPart(d as CelDuration, name as 'getHours'))] : []),
    ],
  }));
}

// ---- optionals -------------------------------------------------------------------------------------

function isZeroValue(v: CelValue): boolean {
  if (v === null || v === false || v === 0n || v === 0 || v === '') return true;
  if (v instanceof CelUint) return v.v === 0n;
  if (v instanceof Uint8Array || Array.isArray(v)) return v.length === 0;
  if (v instanceof CelMap) return v.size === 0;
  if (v instanceof CelTimestamp || v instanceof CelDuration) return v.ns === 0n;
  return false;
}

function optionals(): CelFunctionDecl[] {
  const optA = T.optional(A);
  return [
    { name: 'optional.of', overloads: [ov('optional_of', [A], optA, (a) => CelOptional.of(a))] },
    { name: 'optional.ofNonZeroValue', overloads: [ov('optional_ofNonZeroValue', [A], optA, (a) => (isZeroValue(a) ? CelOptional.none : CelOptional.of(a)))] },
    { name: 'optional.none', overloads: [ov('optional_none', [], optA, () => CelOptional.none)] },
    {
      name: 'value',
      overloads: [mem('optional_value', [optA], A, (o) => {
        const opt = o as CelOptional;
        if (!opt.hasValue) throw new CelError('optional.none() dereference');
        return opt.value!;
      })],
    },
    { name: 'hasValue', overloads: [mem('optional_hasValue', [optA], T.bool, (o) => (o as CelOptional).hasValue)] },
  ].map((d) => ({ ...d, minVersion: '1.29' as const }));
}

export function stdlib(): CelLibrary {
  return {
    name: 'cel.stdlib',
    functions: [...arithmetic(), ...collections(), ...strings(), ...conversions(), ...timeFns(), ...optionals()],
  };
}

export { typeName };
