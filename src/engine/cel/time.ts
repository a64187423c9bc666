// Timestamps and durations: parsing, formatting and calendar accessors (UTC by default, IANA zones via Intl).

import { CelDuration, CelError, CelTimestamp } from './values.js';

const NS = 1_000_000_000n;
// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999999999Z in seconds since the epoch
const MIN_TS_SEC = -62135596800n;
const MAX_TS_SEC = 253402300799n;
const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

export function checkTimestamp(ns: bigint, offsetSec = 0): CelTimestamp {
  const s = floorDiv(ns, NS);
  if (s < MIN_TS_SEC || s > MAX_TS_SEC) throw new CelError('timestamp overflow');
  return new CelTimestamp(ns, offsetSec);
}

export function checkDuration(ns: bigint): CelDuration {
  if (ns < INT64_MIN || ns > INT64_MAX) throw new CelError('duration overflow');
  return new CelDuration(ns);
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && (a < 0n) !== (b < 0n) ? q - 1n : q;
}

/** Parses RFC 3339 (`2023-01-02T03:04:05.123Z`, offsets allowed). */
export function parseTimestamp(s: string): CelTimestamp {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$/.exec(s);
  if (!m) throw new CelError(`timestamp("${s}") error: cannot parse "${s}" as RFC 3339`);
  const [, y, mo, d, h, mi, se, frac, zone] = m;
  const month = Number(mo), day = Number(d), hour = Number(h), min = Number(mi), sec = Number(se);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(Number(y), month) || hour > 23 || min > 59 || sec > 59) {
    throw new CelError(`timestamp("${s}") error: parsing time "${s}": field out of range`);
  }
  let secs = BigInt(daysFromCivil(Number(y), month, day)) * 86400n + BigInt(hour * 3600 + min * 60 + sec);
  let offset = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone[0] === '-' ? -1 : 1;
    offset = sign * (Number(zone.slice(1, 3)) * 3600 + Number(zone.slice(4, 6)) * 60);
    secs -= BigInt(offset);
  }
  const nanos = frac ? BigInt(frac.padEnd(9, '0')) : 0n;
  return checkTimestamp(secs * NS + nanos, offset);
}

/** A `date` formatted value (`2011-08-18`) as a timestamp at midnight UTC. */
export function parseDate(s: string): CelTimestamp {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) throw new CelError(`cannot parse "${s}" as a date`);
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo)) throw new CelError(`cannot parse "${s}" as a date`);
  return checkTimestamp(BigInt(daysFromCivil(y, mo, d)) * 86400n * NS);
}

function daysIn(y: number, m: number): number {
  return [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
}
function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm). */
export function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export function civilFromDays(z: number): { y: number; m: number; d: number } {
  z += 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const y = yoe + era * 400;
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp + (mp < 10 ? 3 : -9);
  return { y: m <= 2 ? y + 1 : y, m, d };
}

/** RFC 3339 as Go formats time.RFC3339Nano (fraction trimmed of trailing zeros; Z or the kept offset). */
export function formatTimestamp(t: CelTimestamp): string {
  const secs = floorDiv(t.ns + BigInt(t.offsetSec) * NS, NS);
  const nanos = Number(t.ns + BigInt(t.offsetSec) * NS - secs * NS);
  const days = Number(floorDiv(secs, 86400n));
  const sod = Number(secs - BigInt(days) * 86400n);
  const { y, m, d } = civilFromDays(days);
  const p2 = (n: number) => String(n).padStart(2, '0');
  let s = `${String(y).padStart(4, '0')}-${p2(m)}-${p2(d)}T${p2(Math.floor(sod / 3600))}:${p2(Math.floor(sod / 60) % 60)}:${p2(sod % 60)}`;
  if (nanos) s += '.' + String(nanos).padStart(9, '0').replace(/0+$/, '');
  if (!t.offsetSec) return s + 'Z';
  const a = Math.abs(t.offsetSec);
  return `${s}${t.offsetSec < 0 ? '-' : '+'}${p2(Math.floor(a / 3600))}:${p2(Math.floor(a / 60) % 60)}`;
}

const UNIT_NS: Record<string, bigint> = { ns: 1n, us: 1000n, 'µs': 1000n, 'μs': 1000n, ms: 1_000_000n, s: NS, m: 60n * NS, h: 3600n * NS };

/** Parses a Go duration string: `1h30m`, `1.5s`, `-300ms`, `0`. */
export function parseDuration(s: string): CelDuration {
  const bad = () => new CelError(`duration("${s}") error: time: invalid duration "${s}"`);
  let i = 0;
  let neg = false;
  if (s[0] === '-' || s[0] === '+') {
    neg = s[0] === '-';
    i = 1;
  }
  if (s.slice(i) === '0') return new CelDuration(0n);
  if (i >= s.length) throw bad();
  let total = 0n;
  const re = /(\d*)(?:\.(\d*))?(ns|us|µs|μs|ms|s|m|h)/y;
  re.lastIndex = i;
  while (re.lastIndex < s.length) {
    const m = re.exec(s);
    if (!m || (m[1] === '' && (m[2] === undefined || m[2] === ''))) throw bad();
    const unit = UNIT_NS[m[3]];
    let v = BigInt(m[1] || '0') * unit;
    if (m[2]) {
      const frac = m[2];
      v += (BigInt(frac) * unit) / 10n ** BigInt(frac.length);
    }
    total += v;
    if (total > INT64_MAX + (neg ? 1n : 0n)) throw new CelError(`duration("${s}") error: time: invalid duration "${s}"`);
  }
  return checkDuration(neg ? -total : total);
}

/** Duration as cel-go prints it: seconds with the fraction trimmed and an `s` suffix (`1.5s`, `-3600s`). */
export function formatDuration(d: CelDuration): string {
  const neg = d.ns < 0n;
  const a = neg ? -d.ns : d.ns;
  const secs = a / NS;
  const nanos = a % NS;
  let s = String(secs);
  if (nanos) s += '.' + String(nanos).padStart(9, '0').replace(/0+$/, '');
  return (neg ? '-' : '') + s + 's';
}

interface Civil {
  y: number;
  m: number; // 1-12
  d: number;
  hour: number;
  min: number;
  sec: number;
  ns: number;
  dow: number; // 0 = Sunday
  doy: number; // 0-based
}

const dtfCache = new Map<string, Intl.DateTimeFormat>();

function zoneOffsetSeconds(tz: string, secs: bigint): number {
  if (tz === 'UTC' || tz === 'utc' || tz === 'Z') return 0;
  const fixed = /^([+-]?)(\d{2}):(\d{2})$/.exec(tz);
  if (fixed) return (fixed[1] === '-' ? -1 : 1) * (Number(fixed[2]) * 3600 + Number(fixed[3]) * 60);
  let f = dtfCache.get(tz);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', era: 'short',
      });
    } catch {
      throw new CelError(`unknown time zone ${tz}`);
    }
    dtfCache.set(tz, f);
  }
  const ms = Number(secs) * 1000;
  const parts: Record<string, string> = {};
  for (const p of f.formatToParts(new Date(ms))) parts[p.type] = p.value;
  let y = Number(parts.year);
  if (parts.era === 'BC' || parts.era === 'B') y = 1 - y;
  const local = daysFromCivil(y, Number(parts.month), Number(parts.day)) * 86400 + Number(parts.hour) * 3600 + Number(parts.minute) * 60 + Number(parts.second);
  return local - Number(secs);
}

function civil(t: CelTimestamp, tz?: string): Civil {
  let secs = floorDiv(t.ns, NS);
  const ns = Number(t.ns - secs * NS);
  if (tz !== undefined) secs += BigInt(zoneOffsetSeconds(tz, secs));
  const days = Number(floorDiv(secs, 86400n));
  const sod = Number(secs - BigInt(days) * 86400n);
  const { y, m, d } = civilFromDays(days);
  const dow = (((days % 7) + 7 + 4) % 7); // 1970-01-01 was a Thursday
  const doy = days - daysFromCivil(y, 1, 1);
  return { y, m, d, hour: Math.floor(sod / 3600), min: Math.floor(sod / 60) % 60, sec: sod % 60, ns, dow, doy };
}

export type TimestampPart = 'getFullYear' | 'getMonth' | 'getDate' | 'getDayOfMonth' | 'getDayOfWeek' | 'getDayOfYear' | 'getHours' | 'getMinutes' | 'getSeconds' | 'getMilliseconds';

export function timestampPart(t: CelTimestamp, part: TimestampPart, tz?: string): bigint {
  const c = civil(t, tz);
  switch (part) {
    case 'getFullYear': return BigInt(c.y);
    case 'getMonth': return BigInt(c.m - 1);
    case 'getDate': return BigInt(c.d);
    case 'getDayOfMonth': return BigInt(c.d - 1);
    case 'getDayOfWeek': return BigInt(c.dow);
    case 'getDayOfYear': return BigInt(c.doy);
    case 'getHours': return BigInt(c.hour);
    case 'getMinutes': return BigInt(c.min);
    case 'getSeconds': return BigInt(c.sec);
    case 'getMilliseconds': return BigInt(Math.floor(c.ns / 1e6));
  }
}

export function durationPart(d: CelDuration, part: 'getHours' | 'getMinutes' | 'getSeconds' | 'getMilliseconds'): bigint {
  switch (part) {
    case 'getHours': return d.ns / (3600n * NS);
    case 'getMinutes': return d.ns / (60n * NS);
    case 'getSeconds': return d.ns / NS;
    case 'getMilliseconds': return d.ns / 1_000_000n;
  }
}

export const NANOS_PER_SECOND = NS;
