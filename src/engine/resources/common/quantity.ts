// resource.Quantity: parsing (for comparisons and QoS), the format check, and the canonical string form the
// real server writes back (Quantity.MarshalJSON -> String()): "0.5" -> "500m", "2000" -> "2k",
// "1.5Gi" -> "1536Mi", "1e3" stays "1e3". Values finer than the nano scale round up, as Quantity does;
// ResourceLists in core objects also round up to milli units (SetDefaults_ResourceList).

import { BoundedMemo } from '../../util/bounded-memo.js';

const SUFFIX: Record<string, number> = {
  '': 1, n: 1e-9, u: 1e-6, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
};

const QUANTITY_RE = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(([KMGTPE]i)|[numkMGTPE]|[eE][+-]?[0-9]+)?$/;

/** The value of a quantity (string or number), or null when it does not parse. */
export function parseQuantity(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'string') return null;
  const m = QUANTITY_RE.exec(v);
  if (!m || (m[2] === '' && (m[3] === undefined || m[3] === ''))) return null;
  const num = Number(`${m[1]}${m[2] || '0'}.${m[3] ?? ''}`.replace(/\.$/, ''));
  const suffix = m[4] ?? '';
  if (/^[eE]/.test(suffix)) return num * 10 ** Number(suffix.slice(1));
  return num * SUFFIX[suffix];
}

export function isQuantity(v: unknown): boolean {
  return parseQuantity(v) !== null;
}

export type Format = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

const DECIMAL_SUFFIXES: [number, string][] = [[18, 'E'], [15, 'P'], [12, 'T'], [9, 'G'], [6, 'M'], [3, 'k'], [0, ''], [-3, 'm'], [-6, 'u'], [-9, 'n']];
const BINARY_SUFFIXES = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
const NANO = 10n ** 9n;

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

/**
 * The canonical string of a quantity (a string or a JSON number), or null when it does not parse.
 * `roundToMilli` applies the ResourceList rounding of core objects.
 */
export function canonicalQuantity(v: unknown, roundToMilli = false): string | null {
  const text = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : typeof v === 'string' ? v : '';
  // a cluster writes the same few quantities over and over ("100m", "64Mi"), each walked by defaulting
  // and validation on every write of its object: the (pure) result is kept per text, bounded
  const memo = roundToMilli ? canonicalMilli : canonical;
  const known = memo.get(text);
  if (known !== undefined) return known;
  const c = canonicalOf(text, roundToMilli);
  return memo.set(text, c);
}

const canonical = new BoundedMemo<string, string | null>(512);
const canonicalMilli = new BoundedMemo<string, string | null>(512);

function canonicalOf(text: string, roundToMilli: boolean): string | null {
  const m = QUANTITY_RE.exec(text);
  if (!m || (m[2] === '' && (m[3] === undefined || m[3] === ''))) return null;
  const negative = m[1] === '-';
  const intPart = m[2] || '0';
  const frac = m[3] ?? '';
  const suffix = m[4] ?? '';
  let format: Format = 'DecimalSI';
  let num = BigInt(intPart + frac);
  let den = 10n ** BigInt(frac.length);
  if (/^[eE]/.test(suffix)) {
    format = 'DecimalExponent';
    const e = Number(suffix.slice(1));
    if (Math.abs(e) > 1000) return null;
    if (e >= 0) num *= 10n ** BigInt(e);
    else den *= 10n ** BigInt(-e);
  } else if (suffix.endsWith('i')) {
    format = 'BinarySI';
    num *= 1n << BigInt(10 * BINARY_SUFFIXES.indexOf(suffix));
  } else {
    const e = DECIMAL_SUFFIXES.find(([, s]) => s === suffix)![0];
    if (e >= 0) num *= 10n ** BigInt(e);
    else den *= 10n ** BigInt(-e);
  }
  // value in nano units, rounded up (away from zero) as Quantity keeps at most nano precision
  let nano = ceilDiv(num * NANO, den);
  if (roundToMilli) nano = ceilDiv(nano, 1_000_000n) * 1_000_000n;
  return formatNano(negative ? -nano : nano, format);
}

/** A quantity's value in nano units (rounded up), or null when it does not parse. */
export function quantityNano(v: unknown): bigint | null {
  const c = canonicalQuantity(v);
  if (c === null) return null;
  const m = QUANTITY_RE.exec(c)!;
  const digits = BigInt(`${m[2] || '0'}`);
  const suffix = m[4] ?? '';
  let nano: bigint;
  if (/^[eE]/.test(suffix)) {
    const e = Number(suffix.slice(1));
    nano = e + 9 >= 0 ? digits * 10n ** BigInt(e + 9) : digits / 10n ** BigInt(-(e + 9));
  } else if (suffix.endsWith('i')) nano = digits * (1n << BigInt(10 * BINARY_SUFFIXES.indexOf(suffix))) * NANO;
  else nano = digits * 10n ** BigInt(DECIMAL_SUFFIXES.find(([, x]) => x === suffix)![0] + 9);
  return m[1] === '-' ? -nano : nano;
}

/** The format a quantity string was written in. */
export function quantityFormat(v: unknown): Format {
  if (typeof v !== 'string') return 'DecimalSI';
  if (/i$/.test(v)) return 'BinarySI';
  if (/[eE][+-]?[0-9]+$/.test(v)) return 'DecimalExponent';
  return 'DecimalSI';
}

/** The canonical string of a value given in nano units, in the given format. */
export function formatNano(value: bigint, formatIn: Format): string {
  let format = formatIn;
  if (value === 0n) return '0';
  const negative = value < 0n;
  const nano = negative ? -value : value;
  const sign = negative ? '-' : '';
  if (format === 'BinarySI') {
    const within1024 = nano < 1024n * NANO;
    if (within1024 || nano % NANO !== 0n) format = 'DecimalSI';
    else {
      let bytes = nano / NANO;
      let k = 0;
      while (k < 6 && bytes % 1024n === 0n) {
        bytes /= 1024n;
        k++;
      }
      return `${sign}${bytes}${BINARY_SUFFIXES[k]}`;
    }
  }
  for (const [e, s] of DECIMAL_SUFFIXES) {
    const unit = 10n ** BigInt(e + 9);
    if (nano % unit === 0n) {
      const mantissa = nano / unit;
      if (format === 'DecimalExponent') return `${sign}${mantissa}${e === 0 ? '' : `e${e}`}`;
      return `${sign}${mantissa}${s}`;
    }
  }
  return `${sign}${nano}n`;
}
