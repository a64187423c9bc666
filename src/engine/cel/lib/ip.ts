// IP addresses with Go net/netip rules, as the Kubernetes CEL IP library uses them
// (k8s.io/apiserver/pkg/cel/library/ip.go): ParseAddr syntax and error texts, RFC 5952 canonical form,
// and the Kubernetes restrictions (no zones, no IPv4-mapped IPv6).

import { goQuote } from '../../codec/go-format.js';

export type IPFamily = 4 | 6;

/** An IP address value: family and the address as an unsigned integer (32 or 128 bits). */
export interface IPAddr {
  readonly kind: 'ip';
  readonly family: IPFamily;
  readonly value: bigint;
}

export class IPParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IPParseError';
  }
}

function addrError(input: string, msg: string, at?: string): IPParseError {
  const tail = at ? ` (at ${goQuote(at)})` : '';
  return new IPParseError(`ParseAddr(${goQuote(input)}): ${msg}${tail}`);
}

/** Go parseIPv4Fields: errors name the whole input `errIn` (the full IPv6 text for an embedded IPv4). */
function parseIPv4(s: string, errIn: string = s): bigint {
  const fields = [0, 0, 0, 0];
  let val = 0;
  let pos = 0;
  let digLen = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c >= '0' && c <= '9') {
      if (digLen === 1 && val === 0) throw addrError(errIn, 'IPv4 field has octet with leading zero');
      val = val * 10 + (c.charCodeAt(0) - 48);
      digLen++;
      if (val > 255) throw addrError(errIn, 'IPv4 field has value >255');
    } else if (c === '.') {
      if (i === 0 || i === s.length - 1 || s[i - 1] === '.') {
        throw addrError(errIn, 'IPv4 field must have at least one digit', s.slice(i));
      }
      if (pos === 3) throw addrError(errIn, 'IPv4 address too long');
      fields[pos++] = val;
      val = 0;
      digLen = 0;
    } else {
      throw addrError(errIn, 'unexpected character', s.slice(i));
    }
  }
  if (pos < 3) throw addrError(errIn, 'IPv4 address too short');
  fields[3] = val;
  return BigInt(((fields[0]! << 24) >>> 0) + (fields[1]! << 16) + (fields[2]! << 8) + fields[3]!);
}

interface Parsed6 {
  value: bigint;
  zone: string;
}

function parseIPv6(input: string): Parsed6 {
  let s = input;
  let zone = '';
  const pct = s.indexOf('%');
  if (pct >= 0) {
    zone = s.slice(pct + 1);
    s = s.slice(0, pct);
    if (zone === '') throw addrError(input, 'zone must be a non-empty string');
  }
  const ip = new Array<number>(16).fill(0);
  let ellipsis = -1;
  if (s.length >= 2 && s[0] === ':' && s[1] === ':') {
    ellipsis = 0;
    s = s.slice(2);
    if (s.length === 0) return { value: 0n, zone };
  }
  let i = 0;
  while (i < 16) {
    let off = 0;
    let acc = 0;
    for (; off < s.length; off++) {
      const c = s.charCodeAt(off);
      let d: number;
      if (c >= 48 && c <= 57) d = c - 48;
      else if (c >= 97 && c <= 102) d = c - 97 + 10;
      else if (c >= 65 && c <= 70) d = c - 65 + 10;
      else break;
      acc = acc * 16 + d;
      // Go 1.23+: at most four hex digits per group (leading zeros included)
      if (off > 3) throw addrError(input, 'each group must have 4 or less digits', s);
      if (acc > 0xffff) throw addrError(input, 'IPv6 field has value >=2^16', s);
    }
    if (off === 0) throw addrError(input, 'each colon-separated field must have at least one digit', s);
    if (off < s.length && s[off] === '.') {
      if (ellipsis < 0 && i !== 12) {
        throw addrError(input, 'embedded IPv4 address must replace the final 2 fields of the address', s);
      }
      if (i + 4 > 16) {
        throw addrError(input, 'too many hex fields to fit an embedded IPv4 at the end of the address', s);
      }
      // Go 1.22+: the embedded IPv4 is parsed in place and its errors name the whole input.
      const v4 = parseIPv4(s, input);
      ip[i] = Number((v4 >> 24n) & 0xffn);
      ip[i + 1] = Number((v4 >> 16n) & 0xffn);
      ip[i + 2] = Number((v4 >> 8n) & 0xffn);
      ip[i + 3] = Number(v4 & 0xffn);
      s = '';
      i += 4;
      break;
    }
    ip[i] = acc >> 8;
    ip[i + 1] = acc & 0xff;
    i += 2;
    s = s.slice(off);
    if (s.length === 0) break;
    if (s[0] !== ':') throw addrError(input, 'unexpected character, want colon', s);
    if (s.length === 1) throw addrError(input, 'colon must be followed by more characters', s);
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) throw addrError(input, 'multiple :: in address', s);
      ellipsis = i;
      s = s.slice(1);
      if (s.length === 0) break;
    }
  }
  if (s.length !== 0) throw addrError(input, 'trailing garbage after address', s);
  if (i < 16) {
    if (ellipsis < 0) throw addrError(input, 'address string too short');
    const n = 16 - i;
    for (let j = i - 1; j >= ellipsis; j--) ip[j + n] = ip[j]!;
    for (let j = ellipsis + n - 1; j >= ellipsis; j--) ip[j] = 0;
  } else if (ellipsis >= 0) {
    throw addrError(input, 'the :: must expand to at least one field of zeros');
  }
  let value = 0n;
  for (const b of ip) value = (value << 8n) | BigInt(b);
  return { value, zone };
}

/** Go netip.ParseAddr: returns the address and its zone (zones only for IPv6). */
export function goParseAddr(s: string): { addr: IPAddr; zone: string } {
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '.') return { addr: { kind: 'ip', family: 4, value: parseIPv4(s) }, zone: '' };
    if (c === ':') {
      const p = parseIPv6(s);
      return { addr: { kind: 'ip', family: 6, value: p.value }, zone: p.zone };
    }
    if (c === '%') throw addrError(s, 'missing IPv6 address');
  }
  throw addrError(s, 'unable to parse IP');
}

const V4_MAPPED_PREFIX = 0xffffn << 32n;

/** True for ::ffff:a.b.c.d. */
export function is4In6(a: IPAddr): boolean {
  return a.family === 6 && a.value >> 32n === 0xffffn;
}

/**
 * The Kubernetes parseIPAddr: netip rules, then zones and IPv4-mapped IPv6 addresses are rejected.
 * Errors carry the library's messages.
 */
export function parseIP(raw: string): IPAddr {
  let parsed: { addr: IPAddr; zone: string };
  try {
    parsed = goParseAddr(raw);
  } catch (e) {
    throw new IPParseError(`IP Address ${goQuote(raw)} parse error during conversion from string: ${(e as Error).message}`);
  }
  if (parsed.zone !== '') throw new IPParseError(`IP address ${goQuote(raw)} with zone value is not allowed`);
  if (is4In6(parsed.addr)) throw new IPParseError(`IPv4-mapped IPv6 address ${goQuote(raw)} is not allowed`);
  return parsed.addr;
}

export function isIP(raw: string): boolean {
  try {
    parseIP(raw);
    return true;
  } catch {
    return false;
  }
}

/** Go Addr.String(): dotted quad, or RFC 5952 IPv6 (lowercase, longest zero run of 2+ fields as ::). */
export function ipToString(a: IPAddr): string {
  if (a.family === 4) {
    const v = Number(a.value);
    return [(v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff].join('.');
  }
  if (is4In6(a)) return '::ffff:' + ipToString({ kind: 'ip', family: 4, value: a.value & 0xffffffffn });
  const groups: number[] = [];
  for (let i = 7; i >= 0; i--) groups.push(Number((a.value >> BigInt(i * 16)) & 0xffffn));
  let zeroStart = -1;
  let zeroLen = 0;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > zeroLen && j - i >= 2) {
      zeroStart = i;
      zeroLen = j - i;
    }
    i = j;
  }
  let out = '';
  for (let i = 0; i < 8; i++) {
    if (i === zeroStart) {
      out += '::';
      i += zeroLen - 1;
      continue;
    }
    if (i > 0 && i !== zeroStart + zeroLen) out += ':';
    out += groups[i]!.toString(16);
  }
  return out;
}

/** `ip.isCanonical(string)`: the string equals the address's canonical form. */
export function ipIsCanonical(raw: string): boolean {
  return ipToString(parseIP(raw)) === raw;
}

export function ipFamily(a: IPAddr): IPFamily {
  return a.family;
}

function v4Octet(a: IPAddr, i: number): number {
  return Number((a.value >> BigInt(24 - 8 * i)) & 0xffn);
}

function v6Group0(a: IPAddr): number {
  return Number(a.value >> 112n);
}

export function isUnspecified(a: IPAddr): boolean {
  return a.value === 0n;
}

export function isLoopback(a: IPAddr): boolean {
  return a.family === 4 ? v4Octet(a, 0) === 127 : a.value === 1n;
}

export function isMulticast(a: IPAddr): boolean {
  return a.family === 4 ? (v4Octet(a, 0) & 0xf0) === 0xe0 : a.value >> 120n === 0xffn;
}

/** 224.0.0.0/24, or IPv6 ff02::/16 with any flags nibble (ffX2::). */
export function isLinkLocalMulticast(a: IPAddr): boolean {
  if (a.family === 4) return v4Octet(a, 0) === 224 && v4Octet(a, 1) === 0 && v4Octet(a, 2) === 0;
  return (v6Group0(a) & 0xff0f) === 0xff02;
}

/** 169.254.0.0/16 or fe80::/10. */
export function isLinkLocalUnicast(a: IPAddr): boolean {
  if (a.family === 4) return v4Octet(a, 0) === 169 && v4Octet(a, 1) === 254;
  return (v6Group0(a) & 0xffc0) === 0xfe80;
}

/** Go's definition: not unspecified, not 255.255.255.255, not loopback, multicast or link-local unicast. */
export function isGlobalUnicast(a: IPAddr): boolean {
  if (a.family === 4 && (a.value === 0n || a.value === 0xffffffffn)) return false;
  return !(a.family === 6 && a.value === 0n) && !isLoopback(a) && !isMulticast(a) && !isLinkLocalUnicast(a);
}

export function ipEquals(a: IPAddr, b: IPAddr): boolean {
  return a.family === b.family && a.value === b.value;
}

export function bitLen(f: IPFamily): number {
  return f === 4 ? 32 : 128;
}

/** Size in bytes (the library's Size(): ceil(bitLen / 8)). */
export function ipSize(a: IPAddr): number {
  return bitLen(a.family) / 8;
}

export { V4_MAPPED_PREFIX };
