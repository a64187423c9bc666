// Semantic versions as the Kubernetes CEL semver library handles them (k8s.io/apiserver/pkg/cel/library/
// semverlib.go over github.com/blang/semver/v4): strict SemVer 2.0 parsing with blang's error texts, the
// library's optional normalisation ("v" prefix, missing minor/patch, leading zeros), and precedence.

export interface PRVersion {
  readonly str?: string;
  readonly num?: bigint;
}

export interface Semver {
  readonly kind: 'semver';
  readonly major: bigint;
  readonly minor: bigint;
  readonly patch: bigint;
  readonly pre: readonly PRVersion[];
  readonly build: readonly string[];
}

export class SemverError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SemverError';
  }
}

const NUMBERS = '0123456789';
const ALPHANUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-0123456789';
const UINT64_MAX = 2n ** 64n - 1n;

const containsOnly = (s: string, set: string) => [...s].every((c) => set.includes(c));
const hasLeadingZeroes = (s: string) => s.length > 1 && s[0] === '0';

/** Go %q of the ASCII-ish strings seen here. */
function q(s: string): string {
  return JSON.stringify(s);
}

function parseUint(s: string): bigint {
  if (s === '') throw new SemverError(`strconv.ParseUint: parsing ${q(s)}: invalid syntax`);
  const v = BigInt(s);
  if (v > UINT64_MAX) throw new SemverError(`strconv.ParseUint: parsing ${q(s)}: value out of range`);
  return v;
}

function parsePR(s: string): PRVersion {
  if (s.length === 0) throw new SemverError('Prerelease is empty');
  if (containsOnly(s, NUMBERS)) {
    if (hasLeadingZeroes(s)) throw new SemverError(`Numeric PreRelease version must not contain leading zeroes ${q(s)}`);
    return { num: parseUint(s) };
  }
  if (containsOnly(s, ALPHANUM)) return { str: s };
  throw new SemverError(`Invalid character(s) found in prerelease ${q(s)}`);
}

/** blang/semver Parse. */
export function parseSemverStrict(s: string): Semver {
  if (s.length === 0) throw new SemverError('Version string empty');
  const parts = splitN(s, '.', 3);
  if (parts.length !== 3) throw new SemverError('No Major.Minor.Patch elements found');
  const [maj, min] = parts as [string, string, string];
  if (!containsOnly(maj, NUMBERS)) throw new SemverError(`Invalid character(s) found in major number ${q(maj)}`);
  if (hasLeadingZeroes(maj)) throw new SemverError(`Major number must not contain leading zeroes ${q(maj)}`);
  const major = parseUint(maj);
  if (!containsOnly(min, NUMBERS)) throw new SemverError(`Invalid character(s) found in minor number ${q(min)}`);
  if (hasLeadingZeroes(min)) throw new SemverError(`Minor number must not contain leading zeroes ${q(min)}`);
  const minor = parseUint(min);
  let patchStr = parts[2]!;
  let build: string[] = [];
  let prerelease: string[] = [];
  const b = patchStr.indexOf('+');
  if (b !== -1) {
    build = patchStr.slice(b + 1).split('.');
    patchStr = patchStr.slice(0, b);
  }
  const p = patchStr.indexOf('-');
  if (p !== -1) {
    prerelease = patchStr.slice(p + 1).split('.');
    patchStr = patchStr.slice(0, p);
  }
  if (!containsOnly(patchStr, NUMBERS)) throw new SemverError(`Invalid character(s) found in patch number ${q(patchStr)}`);
  if (hasLeadingZeroes(patchStr)) throw new SemverError(`Patch number must not contain leading zeroes ${q(patchStr)}`);
  const patch = parseUint(patchStr);
  const pre = prerelease.map(parsePR);
  for (const str of build) {
    if (str.length === 0) throw new SemverError('Build meta data is empty');
    if (!containsOnly(str, ALPHANUM)) throw new SemverError(`Invalid character(s) found in build meta data ${q(str)}`);
  }
  return { kind: 'semver', major, minor, patch, pre, build };
}

/** Go strings.SplitN. */
function splitN(s: string, sep: string, n: number): string[] {
  const out: string[] = [];
  let rest = s;
  while (out.length < n - 1) {
    const i = rest.indexOf(sep);
    if (i < 0) break;
    out.push(rest.slice(0, i));
    rest = rest.slice(i + sep.length);
  }
  out.push(rest);
  return out;
}

/** The library's normalizeAndParse: strip "v", strip leading zeros, fill missing minor/patch with 0. */
export function normalizeAndParse(input: string): Semver {
  let s = input.startsWith('v') ? input.slice(1) : input;
  const parts = splitN(s, '.', 3);
  for (let i = 0; i < parts.length; i++) {
    let p = parts[i]!;
    if (p.length > 1) {
      p = p.replace(/^0+/, '');
      if (p.length === 0 || !NUMBERS.includes(p[0]!)) p = '0' + p;
      parts[i] = p;
    }
  }
  if (parts.length < 3) {
    if (/[+-]/.test(parts[parts.length - 1]!)) throw new SemverError('short version cannot contain PreRelease/Build meta data');
    while (parts.length < 3) parts.push('0');
  }
  s = parts.join('.');
  return parseSemverStrict(s);
}

/** `semver(s[, normalize])`. */
export function parseSemver(s: string, normalize = false): Semver {
  return normalize ? normalizeAndParse(s) : parseSemverStrict(s);
}

/** `isSemver(s[, normalize])`. */
export function isSemver(s: string, normalize = false): boolean {
  try {
    parseSemver(s, normalize);
    return true;
  } catch {
    return false;
  }
}

function cmp(a: bigint, b: bigint): number {
  return a === b ? 0 : a > b ? 1 : -1;
}

function comparePR(a: PRVersion, b: PRVersion): number {
  const an = a.num !== undefined;
  const bn = b.num !== undefined;
  if (an && !bn) return -1;
  if (!an && bn) return 1;
  if (an && bn) return cmp(a.num!, b.num!);
  return a.str === b.str ? 0 : a.str! > b.str! ? 1 : -1;
}

/** SemVer precedence (build metadata ignored): -1, 0, 1. */
export function compareSemver(v: Semver, o: Semver): number {
  const c = cmp(v.major, o.major) || cmp(v.minor, o.minor) || cmp(v.patch, o.patch);
  if (c) return c;
  if (v.pre.length === 0 && o.pre.length === 0) return 0;
  if (v.pre.length === 0) return 1;
  if (o.pre.length === 0) return -1;
  let i = 0;
  for (; i < v.pre.length && i < o.pre.length; i++) {
    const r = comparePR(v.pre[i]!, o.pre[i]!);
    if (r) return r;
  }
  if (i === v.pre.length && i === o.pre.length) return 0;
  return i === v.pre.length ? -1 : 1;
}

export function semverEquals(a: Semver, b: Semver): boolean {
  return compareSemver(a, b) === 0;
}

/** major()/minor()/patch() return int64 (the uint64 component converted as Go does). */
export function major(v: Semver): bigint {
  return BigInt.asIntN(64, v.major);
}
export function minor(v: Semver): bigint {
  return BigInt.asIntN(64, v.minor);
}
export function patch(v: Semver): bigint {
  return BigInt.asIntN(64, v.patch);
}

export function semverToString(v: Semver): string {
  let s = `${v.major}.${v.minor}.${v.patch}`;
  if (v.pre.length) s += '-' + v.pre.map((p) => (p.num !== undefined ? p.num.toString() : p.str)).join('.');
  if (v.build.length) s += '+' + v.build.join('.');
  return s;
}
