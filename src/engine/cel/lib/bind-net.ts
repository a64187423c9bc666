// Binds the IP and CIDR libraries (kubernetes.net.ip, kubernetes.net.cidr; spec: 1.31 and later).

import type { CelLibrary, CelValue } from '../library.js';
import { CelOpaque, T } from '../library.js';
import * as cidr from './cidr.js';
import * as ip from './ip.js';
import { ONE, STRING_TRAVERSAL, costAdd, mem, nominal, ov, sizeTimes, traversal } from './bind-util.js';

export const IP_TYPE = T.opaque('net.IP');
export const CIDR_TYPE = T.opaque('net.CIDR');

export class IPValue extends CelOpaque {
  override readonly celType = IP_TYPE;
  constructor(readonly addr: ip.IPAddr) {
    super();
  }
  override equals(other: CelValue): boolean {
    return other instanceof IPValue && ip.ipEquals(this.addr, other.addr);
  }
  override toString(): string {
    return ip.ipToString(this.addr);
  }
}

export class CIDRValue extends CelOpaque {
  override readonly celType = CIDR_TYPE;
  constructor(readonly prefix: cidr.CIDR) {
    super();
  }
  override equals(other: CelValue): boolean {
    return other instanceof CIDRValue && cidr.cidrEquals(this.prefix, other.prefix);
  }
  override toString(): string {
    return cidr.cidrToString(this.prefix);
  }
}

const asIP = (v: CelValue) => (v as IPValue).addr;
const asCIDR = (v: CelValue) => (v as CIDRValue).prefix;
const str = (v: CelValue) => v as string;

// Runtime costs (cost.go CallCost): parsing is a string traversal; accessors are nominal.
const parseCost = { cost: (a: CelValue[]) => traversal(a[0]!) };

/** Size of an IP/CIDR in bytes as the library's Size() reports it (used by containsIP/containsCIDR costs). */
function opaqueSize(v: CelValue): number {
  if (v instanceof IPValue) return ip.ipSize(v.addr);
  if (v instanceof CIDRValue) return cidr.cidrSize(v.prefix);
  if (typeof v === 'string') return [...v].length;
  return 1;
}

function containsIPCost(stringArg: boolean) {
  return {
    cost: (a: CelValue[]) => {
      const cs = opaqueSize(a[0]!);
      let c = Math.ceil((cs + cs) * STRING_TRAVERSAL);
      if (stringArg) c += Math.ceil(opaqueSize(a[1]!) * STRING_TRAVERSAL);
      return c;
    },
    estimate: (s: { min: number; max: number }[]) => {
      let c = sizeTimes({ min: 8, max: 32 }, STRING_TRAVERSAL);
      if (stringArg) c = costAdd(c, sizeTimes(s[1]!, STRING_TRAVERSAL));
      return c;
    },
  };
}

function containsCIDRCost(stringArg: boolean) {
  return {
    cost: (a: CelValue[]) => {
      const cs = opaqueSize(a[0]!);
      let c = Math.ceil((cs + cs) * STRING_TRAVERSAL);
      c += Math.ceil(cs * STRING_TRAVERSAL) + 1;
      if (stringArg) c += Math.ceil(opaqueSize(a[1]!) * STRING_TRAVERSAL);
      return c;
    },
    estimate: (s: { min: number; max: number }[]) => {
      let c = sizeTimes({ min: 8, max: 32 }, STRING_TRAVERSAL);
      c = costAdd(c, sizeTimes({ min: 4, max: 16 }, STRING_TRAVERSAL));
      c = costAdd(c, ONE);
      if (stringArg) c = costAdd(c, sizeTimes(s[1]!, STRING_TRAVERSAL));
      return c;
    },
  };
}

function toIP(s: string): IPValue {
  return new IPValue(ip.parseIP(s));
}

function toCIDR(s: string): CIDRValue {
  return new CIDRValue(cidr.parseCIDR(s));
}

export const ipLibrary: CelLibrary = {
  name: 'kubernetes.net.ip',
  minVersion: '1.31',
  types: [IP_TYPE],
  functions: [
    { name: 'ip', overloads: [ov('string_to_ip', [T.string], IP_TYPE, (s) => toIP(str(s)), parseCost)] },
    { name: 'family', overloads: [mem('ip_family', [IP_TYPE], T.int, (v) => BigInt(ip.ipFamily(asIP(v))), nominal)] },
    {
      name: 'ip.isCanonical',
      overloads: [
        ov('ip_is_canonical', [T.string], T.bool, (s) => ip.ipIsCanonical(str(s)), {
          cost: (a) => traversal(a[0]!, 2 * STRING_TRAVERSAL),
        }),
      ],
    },
    { name: 'isUnspecified', overloads: [mem('ip_is_unspecified', [IP_TYPE], T.bool, (v) => ip.isUnspecified(asIP(v)), nominal)] },
    { name: 'isLoopback', overloads: [mem('ip_is_loopback', [IP_TYPE], T.bool, (v) => ip.isLoopback(asIP(v)), nominal)] },
    {
      name: 'isLinkLocalMulticast',
      overloads: [mem('ip_is_link_local_multicast', [IP_TYPE], T.bool, (v) => ip.isLinkLocalMulticast(asIP(v)), nominal)],
    },
    {
      name: 'isLinkLocalUnicast',
      overloads: [mem('ip_is_link_local_unicast', [IP_TYPE], T.bool, (v) => ip.isLinkLocalUnicast(asIP(v)), nominal)],
    },
    { name: 'isGlobalUnicast', overloads: [mem('ip_is_global_unicast', [IP_TYPE], T.bool, (v) => ip.isGlobalUnicast(asIP(v)), nominal)] },
    { name: 'isIP', overloads: [ov('is_ip', [T.string], T.bool, (s) => ip.isIP(str(s)), parseCost)] },
    { name: 'string', overloads: [ov('ip_to_string', [IP_TYPE], T.string, (v) => ip.ipToString(asIP(v)))] },
  ],
};

export const cidrLibrary: CelLibrary = {
  name: 'kubernetes.net.cidr',
  minVersion: '1.31',
  types: [CIDR_TYPE, IP_TYPE],
  functions: [
    { name: 'cidr', overloads: [ov('string_to_cidr', [T.string], CIDR_TYPE, (s) => toCIDR(str(s)), parseCost)] },
    {
      name: 'containsIP',
      overloads: [
        mem('cidr_contains_ip_string', [CIDR_TYPE, T.string], T.bool, (c, s) => cidr.containsIPString(asCIDR(c), str(s)), containsIPCost(true)),
        mem('cidr_contains_ip_ip', [CIDR_TYPE, IP_TYPE], T.bool, (c, i) => cidr.containsIP(asCIDR(c), asIP(i)), containsIPCost(false)),
      ],
    },
    {
      name: 'containsCIDR',
      overloads: [
        mem('cidr_contains_cidr_string', [CIDR_TYPE, T.string], T.bool, (c, s) => cidr.containsCIDRString(asCIDR(c), str(s)), containsCIDRCost(true)),
        mem('cidr_contains_cidr', [CIDR_TYPE, CIDR_TYPE], T.bool, (c, o) => cidr.containsCIDR(asCIDR(c), asCIDR(o)), containsCIDRCost(false)),
      ],
    },
    { name: 'ip', overloads: [mem('cidr_ip', [CIDR_TYPE], IP_TYPE, (c) => new IPValue(cidr.cidrIP(asCIDR(c))), nominal)] },
    { name: 'prefixLength', overloads: [mem('cidr_prefix_length', [CIDR_TYPE], T.int, (c) => BigInt(cidr.prefixLength(asCIDR(c))), nominal)] },
    { name: 'masked', overloads: [mem('cidr_masked', [CIDR_TYPE], CIDR_TYPE, (c) => new CIDRValue(cidr.masked(asCIDR(c))), nominal)] },
    { name: 'isCIDR', overloads: [ov('is_cidr', [T.string], T.bool, (s) => cidr.isCIDR(str(s)), parseCost)] },
    { name: 'string', overloads: [ov('cidr_to_string', [CIDR_TYPE], T.string, (c) => cidr.cidrToString(asCIDR(c)))] },
  ],
};

