// resource.Quantity (k8s.io/apimachinery/pkg/api/resource) with exact decimal arithmetic on bigint, as the
// Kubernetes CEL quantity library uses it (k8s.io/apiserver/pkg/cel/library/quantity.go).
//
// Like the real type, a quantity is held either as a small "int64Amount" (value * 10^scale, value in int64)
// or as an arbitrary-precision decimal (unscaled * 10^-scale, the inf.Dec form). The distinction is visible:
// `asInteger()`/`isInteger()` succeed only for the int64 form with a non-negative scale (so
// `quantity('1.5Gi')`, held as a decimal, is not an integer although its value is 1610612736, and
// `quantity('1000m')` is not one either). Parsing rules, rounding (up to 1n), the BinarySI cap at 2^63-1,
// canonical formatting and the error texts follow the Go code.

export type QuantityFormat = 'DecimalExponent' | 'BinarySI' | 'DecimalSI';

export interface Quantity {
  readonly kind: 'quantity';
  /** int64Amount form: value * 10^scale (value within int64). */
  readonly i?: { readonly value: bigint; readonly scale: number };
  /** inf.Dec form: unscaled * 10^-scale. */
  readonly d?: { readonly unscaled: bigint; readonly scale: number };
  readonly format: QuantityFormat;
  /** The original string, kept when it already was canonical (as the Go type caches it). */
  readonly s?: string;
}

const SPLIT_RE = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';
export const ERR_FORMAT_WRONG = `quantities must match the regular expression '${SPLIT_RE}'`;
export const ERR_NUMERIC = 'unable to parse numeric part of quantity';
export const ERR_SUFFIX = "unable to parse quantity's suffix";
export const ERR_NOT_INTEGER = 'cannot convert value to integer';

export class QuantityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QuantityError';
  }
}

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);
const NANO = -9;
const MAX_INT64_FACTORS = 18;

function fitsInt64(v: bigint): boolean {
  return v >= INT64_MIN && v <= INT64_MAX;
}

function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}

// ---- parsing ----

interface Scanned {
  positive: boolean;
  value: string;
  num: string;
  denom: string;
  suffix: string;
}

const SUFFIX_CHARS = 'eEinumkKMGTP';
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/** The Go fast scanner (parseQuantityString). */
function scan(str: string): Scanned {
  let positive = true;
  let pos = 0;
  const end = str.length;
  const done = (r: Partial<Scanned>): Scanned => ({ positive, value: '', num: '', denom: '', suffix: '', ...r });
  if (pos < end) {
    if (str[0] === '-') {
      positive = false;
      pos++;
    } else if (str[0] === '+') pos++;
  }
  // leading zeros
  for (let i = pos; ; i++) {
    if (i >= end) return done({ num: '0', value: '0' });
    if (str[i] === '0') pos++;
    else break;
  }
  let num = '';
  for (let i = pos; ; i++) {
    if (i >= end) return done({ num: str.slice(pos, end), value: str.slice(0, end) });
    if (!isDigit(str[i])) {
      num = str.slice(pos, i);
      pos = i;
      break;
    }
  }
  if (num.length === 0) num = '0';
  let denom = '';
  if (pos < end && str[pos] === '.') {
    pos++;
    for (let i = pos; ; i++) {
      if (i >= end) return done({ num, denom: str.slice(pos, end), value: str.slice(0, end) });
      if (!isDigit(str[i])) {
        denom = str.slice(pos, i);
        pos = i;
        break;
      }
    }
  }
  const value = str.slice(0, pos);
  const suffixStart = pos;
  for (let i = pos; ; i++) {
    if (i >= end) return done({ num, denom, value, suffix: str.slice(suffixStart, end) });
    if (!SUFFIX_CHARS.includes(str[i]!)) {
      pos = i;
      break;
    }
  }
  if (pos < end && (str[pos] === '-' || str[pos] === '+')) pos++;
  for (let i = pos; ; i++) {
    if (i >= end) return done({ num, denom, value, suffix: str.slice(suffixStart, end) });
    if (!isDigit(str[i])) break;
  }
  throw new QuantityError(ERR_FORMAT_WRONG);
}

const DEC_SUFFIXES: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BIN_SUFFIXES: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

function interpretSuffix(s: string): { base: 2 | 10; exponent: number; format: QuantityFormat } | undefined {
  if (Object.hasOwn(DEC_SUFFIXES, s)) return { base: 10, exponent: DEC_SUFFIXES[s]!, format: 'DecimalSI' };
  if (Object.hasOwn(BIN_SUFFIXES, s)) return { base: 2, exponent: BIN_SUFFIXES[s]!, format: 'BinarySI' };
  if (s.length > 1 && (s[0] === 'E' || s[0] === 'e')) {
    // strconv.ParseInt(s[1:], 10, 64), then truncated to int32
    if (!/^[+-]?[0-9]+$/.test(s.slice(1))) return undefined;
    const v = BigInt(s.slice(1));
    if (!fitsInt64(v)) return undefined;
    return { base: 10, exponent: Number(BigInt.asIntN(32, v)), format: 'DecimalExponent' };
  }
  return undefined;
}

/** Parses a decimal string "[+-]digits[.digits]" into unscaled/scale (the inf.Dec SetString). */
function parseDec(value: string): { unscaled: bigint; scale: number } {
  const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?$/.exec(value);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) throw new QuantityError(ERR_NUMERIC);
  const frac = m[3] ?? '';
  const digits = (m[2] ?? '') + frac;
  const u = BigInt(digits === '' ? '0' : digits);
  return { unscaled: m[1] === '-' ? -u : u, scale: frac.length };
}

/** Rounds |unscaled|*10^-scale up (away from zero) to the given scale, or rescales exactly. */
function roundUpToScale(d: { unscaled: bigint; scale: number }, scale: number): { unscaled: bigint; scale: number } {
  if (d.scale <= scale) return { unscaled: d.unscaled * pow10(scale - d.scale), scale };
  const div = pow10(d.scale - scale);
  const neg = d.unscaled < 0n;
  const abs = neg ? -d.unscaled : d.unscaled;
  let q = abs / div;
  if (abs % div !== 0n) q += 1n;
  return { unscaled: neg ? -q : q, scale };
}

export function parseQuantity(str: string): Quantity {
  if (str.length === 0) throw new QuantityError(ERR_FORMAT_WRONG);
  if (str === '0') return { kind: 'quantity', i: { value: 0n, scale: 0 }, format: 'DecimalSI', s: str };
  const { positive, value, num, denom, suffix } = scan(str);
  const suf = interpretSuffix(suffix);
  if (!suf) throw new QuantityError(ERR_SUFFIX);
  const { base, exponent } = suf;
  let format = suf.format;

  let precision = 0;
  let scale = 0;
  let mantissa = 1n;
  if (format === 'BinarySI') {
    if (exponent >= 0 && denom.length === 0) {
      mantissa = 1n << BigInt(exponent);
      precision = 15 - num.length - Math.trunc(Math.fround((exponent * 3) / 10)) - 1;
    } else precision = -1;
  } else {
    scale = exponent;
    precision = MAX_INT64_FACTORS - (num.length + denom.length);
  }

  if (precision >= 0) {
    scale -= denom.length;
    if (scale >= NANO) {
      const shifted = num + denom;
      const v = BigInt(shifted);
      if (!fitsInt64(v)) throw new QuantityError(ERR_NUMERIC);
      const product = v * mantissa;
      if (fitsInt64(product)) {
        const result = positive ? product : -product;
        let canonical: boolean;
        if (format === 'BinarySI') canonical = exponent % 10 === 0 && (v & 7n) !== 0n;
        else canonical = scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
        return { kind: 'quantity', i: { value: result, scale }, format, ...(canonical ? { s: str } : {}) };
      }
    }
  }

  let amount = parseDec(value);
  if (base === 10) amount = { unscaled: amount.unscaled, scale: amount.scale - exponent };
  else amount = { unscaled: amount.unscaled << BigInt(exponent), scale: amount.scale };

  const negative = amount.unscaled < 0n;
  if (negative) amount = { unscaled: -amount.unscaled, scale: amount.scale };
  // Non-zero values are rounded up to the smallest representable amount (1n).
  if (amount.unscaled !== 0n) amount = roundUpToScale(amount, -NANO);
  if (format === 'BinarySI' && compareDec(amount, { unscaled: INT64_MAX, scale: 0 }) > 0) {
    amount = { unscaled: INT64_MAX, scale: 0 };
  }
  if (format === 'BinarySI' && compareDec(amount, { unscaled: 1n, scale: 0 }) < 0 && amount.unscaled > 0n) {
    format = 'DecimalSI';
  }
  if (negative) amount = { unscaled: -amount.unscaled, scale: amount.scale };
  return { kind: 'quantity', d: amount, format };
}

export function isQuantity(str: string): boolean {
  try {
    parseQuantity(str);
    return true;
  } catch {
    return false;
  }
}

// ---- decimal helpers ----

function asDec(q: Quantity): { unscaled: bigint; scale: number } {
  if (q.d) return q.d;
  return { unscaled: q.i!.value, scale: -q.i!.scale };
}

function compareDec(a: { unscaled: bigint; scale: number }, b: { unscaled: bigint; scale: number }): number {
  const s = Math.max(a.scale, b.scale);
  const x = a.unscaled * pow10(s - a.scale);
  const y = b.unscaled * pow10(s - b.scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

// ---- accessors ----

export function sign(q: Quantity): number {
  const v = q.d ? q.d.unscaled : q.i!.value;
  return v === 0n ? 0 : v > 0n ? 1 : -1;
}

export function isZero(q: Quantity): boolean {
  return sign(q) === 0;
}

export function compare(a: Quantity, b: Quantity): number {
  return compareDec(asDec(a), asDec(b));
}

export function quantityEquals(a: Quantity, b: Quantity): boolean {
  return compare(a, b) === 0;
}

/** Go AsInt64: only the int64 form converts; negative scales never do. */
export function asInt64(q: Quantity): bigint | undefined {
  if (q.d || !q.i) return undefined;
  const { value, scale } = q.i;
  if (scale === 0) return value;
  if (scale < 0) return undefined;
  const r = value * pow10(scale);
  return fitsInt64(r) ? r : undefined;
}

export function isInteger(q: Quantity): boolean {
  return asInt64(q) !== undefined;
}

/** `asInteger()`: throws "cannot convert value to integer" when the quantity is not an int64. */
export function asInteger(q: Quantity): bigint {
  const v = asInt64(q);
  if (v === undefined) throw new QuantityError(ERR_NOT_INTEGER);
  return v;
}

// Go math.Pow10 (table based: 1e(32k) * 1e(r)), so that results match float64 bit for bit.
const POW10_TAB = Array.from({ length: 32 }, (_, i) => Number(`1e${i}`));
const POW10_POS32 = Array.from({ length: 10 }, (_, i) => Number(`1e${i * 32}`));
function goPow10(n: number): number {
  if (n >= 0 && n <= 308) return POW10_POS32[Math.trunc(n / 32)]! * POW10_TAB[n % 32]!;
  if (n < 0 && n >= -323) return 1 / (POW10_POS32[Math.trunc(-n / 32)]! * POW10_TAB[-n % 32]!);
  return n > 0 ? Infinity : 0;
}

/** Go AsApproximateFloat64: float64(mantissa) * math.Pow10(exponent). */
export function asApproximateFloat(q: Quantity): number {
  let base: number;
  let exponent: number;
  if (q.d) {
    base = Number(q.d.unscaled);
    exponent = -q.d.scale;
  } else {
    base = Number(q.i!.value);
    exponent = q.i!.scale;
  }
  if (exponent === 0) return base;
  return base * goPow10(exponent);
}

// ---- arithmetic ----

function int64Add(a: { value: bigint; scale: number }, b: { value: bigint; scale: number }) {
  if (b.value === 0n) return a;
  if (a.value === 0n) return b;
  let r: { value: bigint; scale: number };
  if (a.scale === b.scale) r = { value: a.value + b.value, scale: a.scale };
  else if (a.scale > b.scale) {
    const c = a.value * pow10(a.scale - b.scale);
    if (!fitsInt64(c)) return undefined;
    r = { value: c + b.value, scale: b.scale };
  } else {
    const c = b.value * pow10(b.scale - a.scale);
    if (!fitsInt64(c)) return undefined;
    r = { value: a.value + c, scale: a.scale };
  }
  return fitsInt64(r.value) ? r : undefined;
}

function decAdd(a: { unscaled: bigint; scale: number }, b: { unscaled: bigint; scale: number }) {
  const s = Math.max(a.scale, b.scale);
  return { unscaled: a.unscaled * pow10(s - a.scale) + b.unscaled * pow10(s - b.scale), scale: s };
}

/** q + y (Go Quantity.Add: a zero receiver takes y's format). */
export function add(q: Quantity, y: Quantity): Quantity {
  let format = q.format;
  if (q.i && y.i) {
    if (q.i.value === 0n) format = y.format;
    const r = int64Add(q.i, y.i);
    if (r) return { kind: 'quantity', i: r, format };
  } else if (isZero(q)) format = y.format;
  return { kind: 'quantity', d: decAdd(asDec(q), asDec(y)), format };
}

/** q - y (Go Quantity.Sub). */
export function sub(q: Quantity, y: Quantity): Quantity {
  let format = q.format;
  if (isZero(q)) format = y.format;
  if (q.i && y.i) {
    const r = int64Add(q.i, { value: -y.i.value, scale: y.i.scale });
    if (r) return { kind: 'quantity', i: r, format };
  }
  const yd = asDec(y);
  return { kind: 'quantity', d: decAdd(asDec(q), { unscaled: -yd.unscaled, scale: yd.scale }), format };
}

/** resource.NewQuantity(v, DecimalExponent): the form `add(int)`/`sub(int)` use. */
export function fromInt(v: bigint): Quantity {
  return { kind: 'quantity', i: { value: v, scale: 0 }, format: 'DecimalExponent' };
}

export function addInt(q: Quantity, v: bigint): Quantity {
  return add(q, fromInt(v));
}

export function subInt(q: Quantity, v: bigint): Quantity {
  return sub(q, fromInt(v));
}

// ---- canonical string ----

/** Mantissa and base-10 exponent (multiple of 3, mantissa without needless trailing zeros). */
function canonical10(q: Quantity): [bigint, number] {
  const d = asDec(q);
  let m = d.unscaled;
  let e = -d.scale;
  while (m !== 0n && m % 10n === 0n) {
    m /= 10n;
    e++;
  }
  while (((e % 3) + 3) % 3 !== 0) {
    m *= 10n;
    e--;
  }
  return [m, e];
}

const DEC_SUFFIX_BY_EXP = new Map<number, string>(Object.entries(DEC_SUFFIXES).map(([s, e]) => [e, s]));
const BIN_SUFFIX_BY_EXP = new Map<number, string>(Object.entries(BIN_SUFFIXES).map(([s, e]) => [e, s]));

/** The canonical form (Go Quantity.String). */
export function quantityToString(q: Quantity): string {
  if (q.s !== undefined) return q.s;
  if (isZero(q)) return '0';
  let format = q.format;
  let rounded: bigint | undefined;
  if (format === 'BinarySI') {
    const d = asDec(q);
    if (compareDec(d, { unscaled: -1024n, scale: 0 }) > 0 && compareDec(d, { unscaled: 1024n, scale: 0 }) < 0) {
      format = 'DecimalSI';
    } else {
      const r = roundUpToScale(d, 0);
      if (compareDec(r, d) !== 0) format = 'DecimalSI';
      else rounded = r.unscaled;
    }
  }
  if (format === 'BinarySI') {
    let m = rounded!;
    let e = 0;
    while (m !== 0n && (m < 0n ? -m : m) >= 1024n && m % 1024n === 0n) {
      m /= 1024n;
      e++;
    }
    return m.toString() + (BIN_SUFFIX_BY_EXP.get(e * 10) ?? '');
  }
  const [m, e] = canonical10(q);
  if (format === 'DecimalExponent') return m.toString() + (e === 0 ? '' : `e${e}`);
  return m.toString() + (DEC_SUFFIX_BY_EXP.get(e) ?? '');
}
