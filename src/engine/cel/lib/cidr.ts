// CIDR prefixes with Go net/netip ParsePrefix rules, as the Kubernetes CEL CIDR library uses them
// (k8s.io/apiserver/pkg/cel/library/cidr.go).
//
// Deviation switch: the v1.33 code accepts host bits after the prefix (`cidr('192.168.0.1/24')` is valid
// and `.masked()` clears them), while the product spec (and the library's own doc comment) says such a
// CIDR is an error in `cidr()`. The spec wins by default; `setStrictHostBits(false)` restores the code's
// behaviour.

import { type IPAddr, type IPFamily, IPParseError, bitLen, goParseAddr, ipToString, is4In6, parseIP } from './ip.js';
import { goQuote } from '../../codec/go-format.js';

export interface CIDR {
  readonly kind: 'cidr';
  readonly addr: IPAddr;
  readonly bits: number;
}

export class CIDRParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CIDRParseError';
  }
}

let strictHostBits = true;

/** Whether `cidr()`/`isCIDR()` reject addresses with bits set after the prefix (spec: true). */
export function setStrictHostBits(strict: boolean): void {
  strictHostBits = strict;
}

export function getStrictHostBits(): boolean {
  return strictHostBits;
}

/** Go netip.ParsePrefix (Go 1.22+: the bit count must be plain decimal without sign or leading zeros). */
export function goParsePrefix(s: string): CIDR {
  const i = s.lastIndexOf('/');
  const q = goQuote(s);
  if (i < 0) throw new CIDRParseError(`netip.ParsePrefix(${q}): no '/'`);
  let parsed: { addr: IPAddr; zone: string };
  try {
    parsed = goParseAddr(s.slice(0, i));
  } catch (e) {
    throw new CIDRParseError(`netip.ParsePrefix(${q}): ${(e as Error).message}`);
  }
  if (parsed.addr.family === 6 && parsed.zone !== '') {
    throw new CIDRParseError(`netip.ParsePrefix(${q}): IPv6 zones cannot be present in a prefix`);
  }
  const bitsStr = s.slice(i + 1);
  if (!/^(0|[1-9][0-9]*)$/.test(bitsStr) || bitsStr.length > 18) {
    throw new CIDRParseError(`netip.ParsePrefix(${q}): bad bits after slash: ${goQuote(bitsStr)}`);
  }
  const bits = Number(bitsStr);
  if (bits > bitLen(parsed.addr.family)) throw new CIDRParseError(`netip.ParsePrefix(${q}): prefix length out of range`);
  return { kind: 'cidr', addr: parsed.addr, bits };
}

function hostMask(family: IPFamily, bits: number): bigint {
  const total = BigInt(bitLen(family));
  return (1n << (total - BigInt(bits))) - 1n;
}

/** The Kubernetes parseCIDR with its error texts (the conversion prefix appears twice, as in the real library). */
export function parseCIDR(raw: string): CIDR {
  const prefix = 'network address parse error during conversion from string: ';
  let c: CIDR;
  try {
    c = goParsePrefix(raw);
  } catch (e) {
    throw new CIDRParseError(prefix + prefix + (e as Error).message);
  }
  if (is4In6(c.addr)) throw new CIDRParseError(prefix + `IPv4-mapped IPv6 address ${goQuote(raw)} is not allowed`);
  if (strictHostBits && (c.addr.value & hostMask(c.addr.family, c.bits)) !== 0n) {
    throw new CIDRParseError(prefix + `CIDR ${goQuote(raw)} has non-zero bits after the prefix length`);
  }
  return c;
}

export function isCIDR(raw: string): boolean {
  try {
    parseCIDR(raw);
    return true;
  } catch {
    return false;
  }
}

/** Go Prefix.String(): address (not masked) / bits. */
export function cidrToString(c: CIDR): string {
  return `${ipToString(c.addr)}/${c.bits}`;
}

export function cidrIP(c: CIDR): IPAddr {
  return c.addr;
}

export function prefixLength(c: CIDR): number {
  return c.bits;
}

export function masked(c: CIDR): CIDR {
  const value = c.addr.value & ~hostMask(c.addr.family, c.bits);
  return { kind: 'cidr', addr: { kind: 'ip', family: c.addr.family, value }, bits: c.bits };
}

/** Go Prefix.Contains: same family and equal in the first `bits` bits. */
export function containsIP(c: CIDR, ip: IPAddr): boolean {
  if (c.addr.family !== ip.family) return false;
  const mask = ~hostMask(ip.family, c.bits);
  return (c.addr.value & mask) === (ip.value & mask);
}

/** Go Prefix.Overlaps. */
function overlaps(p: CIDR, o: CIDR): boolean {
  if (p.addr.family !== o.addr.family) return false;
  const minBits = Math.min(p.bits, o.bits);
  if (minBits === 0) return true;
  const mask = ~hostMask(p.addr.family, minBits);
  return (p.addr.value & mask) === (o.addr.value & mask);
}

/** The library's containsCIDR: overlaps and the other prefix is at least as long. */
export function containsCIDR(c: CIDR, other: CIDR): boolean {
  return overlaps(c, other) && c.bits <= other.bits;
}

/** cel-go's "no such overload" error, which the real containsIP(string) gives for an unparsable IP. */
export class NoSuchOverloadError extends Error {
  constructor() {
    super('no such overload');
    this.name = 'NoSuchOverloadError';
  }
}

/**
 * containsIP with a string argument. The real library converts the string with ip() and, when that
 * fails, reports "no such overload" (it passes the CIDR, not the error, to MaybeNoSuchOverloadErr).
 */
export function containsIPString(c: CIDR, raw: string): boolean {
  let ip: IPAddr;
  try {
    ip = parseIP(raw);
  } catch {
    throw new NoSuchOverloadError();
  }
  return containsIP(c, ip);
}

/** containsCIDR with a string argument: the string is parsed with cidr()'s rules (errors propagate). */
export function containsCIDRString(c: CIDR, raw: string): boolean {
  return containsCIDR(c, parseCIDR(raw));
}

export function cidrEquals(a: CIDR, b: CIDR): boolean {
  return a.bits === b.bits && a.addr.family === b.addr.family && a.addr.value === b.addr.value;
}

/** Size in bytes (the library's Size(): ceil(bits / 8)). */
export function cidrSize(c: CIDR): number {
  return Math.ceil(c.bits / 8);
}

export { IPParseError };
