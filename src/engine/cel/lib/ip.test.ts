import { describe, expect, it } from 'vitest';
import * as cidr from './cidr.js';
import {
  goParseAddr,
  ipIsCanonical,
  ipToString,
  is4In6,
  isGlobalUnicast,
  isIP,
  isLinkLocalMulticast,
  isLinkLocalUnicast,
  isLoopback,
  isUnspecified,
  parseIP,
} from './ip.js';

// Expected values come from Go's net/netip (ParseAddr / String / predicates, ParsePrefix / Masked), with the
// error forms of newer Go (1.22+: embedded IPv4 errors name the whole input; Go 1.24 builds Kubernetes 1.33).
type GoRow = {
  err?: string;
  str?: string;
  zone?: string;
  '4in6'?: boolean;
  preds?: boolean[];
  perr?: string;
  pstr?: string;
  masked?: string;
};
const goRows: [string, GoRow][] = [
  ["127.0.0.1", {"4in6":false,"perr":"netip.ParsePrefix(\"127.0.0.1\"): no '/'","preds":[false,true,false,false,false],"str":"127.0.0.1","zone":""}],
  ["0.0.0.0", {"4in6":false,"perr":"netip.ParsePrefix(\"0.0.0.0\"): no '/'","preds":[true,false,false,false,false],"str":"0.0.0.0","zone":""}],
  ["255.255.255.255", {"4in6":false,"perr":"netip.ParsePrefix(\"255.255.255.255\"): no '/'","preds":[false,false,false,false,false],"str":"255.255.255.255","zone":""}],
  ["192.168.0.1", {"4in6":false,"perr":"netip.ParsePrefix(\"192.168.0.1\"): no '/'","preds":[false,false,false,false,true],"str":"192.168.0.1","zone":""}],
  ["169.254.169.254", {"4in6":false,"perr":"netip.ParsePrefix(\"169.254.169.254\"): no '/'","preds":[false,false,false,true,false],"str":"169.254.169.254","zone":""}],
  ["224.0.0.1", {"4in6":false,"perr":"netip.ParsePrefix(\"224.0.0.1\"): no '/'","preds":[false,false,true,false,false],"str":"224.0.0.1","zone":""}],
  ["224.0.1.1", {"4in6":false,"perr":"netip.ParsePrefix(\"224.0.1.1\"): no '/'","preds":[false,false,false,false,false],"str":"224.0.1.1","zone":""}],
  ["10.0.0.256", {"err":"ParseAddr(\"10.0.0.256\"): IPv4 field has value >255","perr":"netip.ParsePrefix(\"10.0.0.256\"): no '/'"}],
  ["1.2.3", {"err":"ParseAddr(\"1.2.3\"): IPv4 address too short","perr":"netip.ParsePrefix(\"1.2.3\"): no '/'"}],
  ["1.2.3.4.5", {"err":"ParseAddr(\"1.2.3.4.5\"): IPv4 address too long","perr":"netip.ParsePrefix(\"1.2.3.4.5\"): no '/'"}],
  ["01.2.3.4", {"err":"ParseAddr(\"01.2.3.4\"): IPv4 field has octet with leading zero","perr":"netip.ParsePrefix(\"01.2.3.4\"): no '/'"}],
  ["1..2.3", {"err":"ParseAddr(\"1..2.3\"): IPv4 field must have at least one digit (at \".2.3\")","perr":"netip.ParsePrefix(\"1..2.3\"): no '/'"}],
  [".1.2.3", {"err":"ParseAddr(\".1.2.3\"): IPv4 field must have at least one digit (at \".1.2.3\")","perr":"netip.ParsePrefix(\".1.2.3\"): no '/'"}],
  ["1.2.3.", {"err":"ParseAddr(\"1.2.3.\"): IPv4 field must have at least one digit (at \".\")","perr":"netip.ParsePrefix(\"1.2.3.\"): no '/'"}],
  ["1.2.3.a", {"err":"ParseAddr(\"1.2.3.a\"): unexpected character (at \"a\")","perr":"netip.ParsePrefix(\"1.2.3.a\"): no '/'"}],
  ["::", {"4in6":false,"perr":"netip.ParsePrefix(\"::\"): no '/'","preds":[true,false,false,false,false],"str":"::","zone":""}],
  ["::1", {"4in6":false,"perr":"netip.ParsePrefix(\"::1\"): no '/'","preds":[false,true,false,false,false],"str":"::1","zone":""}],
  ["2001:db8::abcd", {"4in6":false,"perr":"netip.ParsePrefix(\"2001:db8::abcd\"): no '/'","preds":[false,false,false,false,true],"str":"2001:db8::abcd","zone":""}],
  ["2001:DB8::ABCD", {"4in6":false,"perr":"netip.ParsePrefix(\"2001:DB8::ABCD\"): no '/'","preds":[false,false,false,false,true],"str":"2001:db8::abcd","zone":""}],
  ["2001:db8::0:0:0:abcd", {"4in6":false,"perr":"netip.ParsePrefix(\"2001:db8::0:0:0:abcd\"): no '/'","preds":[false,false,false,false,true],"str":"2001:db8::abcd","zone":""}],
  ["2001:db8:0:0:1:0:0:1", {"4in6":false,"perr":"netip.ParsePrefix(\"2001:db8:0:0:1:0:0:1\"): no '/'","preds":[false,false,false,false,true],"str":"2001:db8::1:0:0:1","zone":""}],
  ["fe80::1", {"4in6":false,"perr":"netip.ParsePrefix(\"fe80::1\"): no '/'","preds":[false,false,false,true,false],"str":"fe80::1","zone":""}],
  ["fe80::1%", {"err":"ParseAddr(\"fe80::1%\"): zone must be a non-empty string","perr":"netip.ParsePrefix(\"fe80::1%\"): no '/'"}],
  ["%eth0", {"err":"ParseAddr(\"%eth0\"): missing IPv6 address","perr":"netip.ParsePrefix(\"%eth0\"): no '/'"}],
  ["ff02::1", {"4in6":false,"perr":"netip.ParsePrefix(\"ff02::1\"): no '/'","preds":[false,false,true,false,false],"str":"ff02::1","zone":""}],
  ["ff12::1", {"4in6":false,"perr":"netip.ParsePrefix(\"ff12::1\"): no '/'","preds":[false,false,true,false,false],"str":"ff12::1","zone":""}],
  ["ff00::1", {"4in6":false,"perr":"netip.ParsePrefix(\"ff00::1\"): no '/'","preds":[false,false,false,false,false],"str":"ff00::1","zone":""}],
  ["fd00::1", {"4in6":false,"perr":"netip.ParsePrefix(\"fd00::1\"): no '/'","preds":[false,false,false,false,true],"str":"fd00::1","zone":""}],
  ["fd80::1", {"4in6":false,"perr":"netip.ParsePrefix(\"fd80::1\"): no '/'","preds":[false,false,false,false,true],"str":"fd80::1","zone":""}],
  ["::ffff:1.2.3.4", {"4in6":true,"perr":"netip.ParsePrefix(\"::ffff:1.2.3.4\"): no '/'","preds":[false,false,false,false,true],"str":"::ffff:1.2.3.4","zone":""}],
  ["::1.2.3.4", {"4in6":false,"perr":"netip.ParsePrefix(\"::1.2.3.4\"): no '/'","preds":[false,false,false,false,true],"str":"::102:304","zone":""}],
  ["1:2:3:4:5:6:1.2.3.4", {"4in6":false,"perr":"netip.ParsePrefix(\"1:2:3:4:5:6:1.2.3.4\"): no '/'","preds":[false,false,false,false,true],"str":"1:2:3:4:5:6:102:304","zone":""}],
  ["1:2:3:4:5:6:7:1.2.3.4", {"err":"ParseAddr(\"1:2:3:4:5:6:7:1.2.3.4\"): embedded IPv4 address must replace the final 2 fields of the address (at \"1.2.3.4\")","perr":"netip.ParsePrefix(\"1:2:3:4:5:6:7:1.2.3.4\"): no '/'"}],
  ["1::2::3", {"err":"ParseAddr(\"1::2::3\"): multiple :: in address (at \":3\")","perr":"netip.ParsePrefix(\"1::2::3\"): no '/'"}],
  [":::1", {"err":"ParseAddr(\":::1\"): each colon-separated field must have at least one digit (at \":1\")","perr":"netip.ParsePrefix(\":::1\"): no '/'"}],
  ["1:2:3:4:5:6:7:8:9", {"err":"ParseAddr(\"1:2:3:4:5:6:7:8:9\"): trailing garbage after address (at \"9\")","perr":"netip.ParsePrefix(\"1:2:3:4:5:6:7:8:9\"): no '/'"}],
  ["1:2:3:4:5:6:7", {"err":"ParseAddr(\"1:2:3:4:5:6:7\"): address string too short","perr":"netip.ParsePrefix(\"1:2:3:4:5:6:7\"): no '/'"}],
  ["1:2:3:4:5:6:7::", {"4in6":false,"perr":"netip.ParsePrefix(\"1:2:3:4:5:6:7::\"): no '/'","preds":[false,false,false,false,true],"str":"1:2:3:4:5:6:7:0","zone":""}],
  ["::1:2:3:4:5:6:7:8", {"err":"ParseAddr(\"::1:2:3:4:5:6:7:8\"): the :: must expand to at least one field of zeros","perr":"netip.ParsePrefix(\"::1:2:3:4:5:6:7:8\"): no '/'"}],
  ["1:", {"err":"ParseAddr(\"1:\"): colon must be followed by more characters (at \":\")","perr":"netip.ParsePrefix(\"1:\"): no '/'"}],
  ["1:2:3:4:5:6:7:8::", {"err":"ParseAddr(\"1:2:3:4:5:6:7:8::\"): the :: must expand to at least one field of zeros","perr":"netip.ParsePrefix(\"1:2:3:4:5:6:7:8::\"): no '/'"}],
  ["abc", {"err":"ParseAddr(\"abc\"): unable to parse IP","perr":"netip.ParsePrefix(\"abc\"): no '/'"}],
  [" 1.2.3.4", {"err":"ParseAddr(\" 1.2.3.4\"): unexpected character (at \" 1.2.3.4\")","perr":"netip.ParsePrefix(\" 1.2.3.4\"): no '/'"}],
  ["1.2.3.4 ", {"err":"ParseAddr(\"1.2.3.4 \"): unexpected character (at \" \")","perr":"netip.ParsePrefix(\"1.2.3.4 \"): no '/'"}],
  ["0:0:0:0:0:0:0:1", {"4in6":false,"perr":"netip.ParsePrefix(\"0:0:0:0:0:0:0:1\"): no '/'","preds":[false,true,false,false,false],"str":"::1","zone":""}],
  ["1:0:0:2:0:0:0:3", {"4in6":false,"perr":"netip.ParsePrefix(\"1:0:0:2:0:0:0:3\"): no '/'","preds":[false,false,false,false,true],"str":"1:0:0:2::3","zone":""}],
  ["192.168.0.0/24", {"err":"ParseAddr(\"192.168.0.0/24\"): unexpected character (at \"/24\")","masked":"192.168.0.0/24","pstr":"192.168.0.0/24"}],
  ["192.168.0.1/24", {"err":"ParseAddr(\"192.168.0.1/24\"): unexpected character (at \"/24\")","masked":"192.168.0.0/24","pstr":"192.168.0.1/24"}],
  ["192.168.0.0/", {"err":"ParseAddr(\"192.168.0.0/\"): unexpected character (at \"/\")","perr":"netip.ParsePrefix(\"192.168.0.0/\"): bad bits after slash: \"\""}],
  ["192.168.0.0/33", {"err":"ParseAddr(\"192.168.0.0/33\"): unexpected character (at \"/33\")","perr":"netip.ParsePrefix(\"192.168.0.0/33\"): prefix length out of range"}],
  ["192.168.0.0", {"4in6":false,"perr":"netip.ParsePrefix(\"192.168.0.0\"): no '/'","preds":[false,false,false,false,true],"str":"192.168.0.0","zone":""}],
  ["::1/128", {"err":"ParseAddr(\"::1/128\"): unexpected character, want colon (at \"/128\")","masked":"::1/128","pstr":"::1/128"}],
  ["::1/129", {"err":"ParseAddr(\"::1/129\"): unexpected character, want colon (at \"/129\")","perr":"netip.ParsePrefix(\"::1/129\"): prefix length out of range"}],
  ["2001:db8::/32", {"err":"ParseAddr(\"2001:db8::/32\"): each colon-separated field must have at least one digit (at \"/32\")","masked":"2001:db8::/32","pstr":"2001:db8::/32"}],
  ["2001:db8:1::/32", {"err":"ParseAddr(\"2001:db8:1::/32\"): each colon-separated field must have at least one digit (at \"/32\")","masked":"2001:db8::/32","pstr":"2001:db8:1::/32"}],
  ["::ffff:1.2.3.4/120", {"err":"ParseAddr(\"::ffff:1.2.3.4/120\"): unexpected character (at \"/120\")","masked":"::ffff:1.2.3.0/120","pstr":"::ffff:1.2.3.4/120"}],
  ["0.0.0.0/0", {"err":"ParseAddr(\"0.0.0.0/0\"): unexpected character (at \"/0\")","masked":"0.0.0.0/0","pstr":"0.0.0.0/0"}],

];

describe('netip.ParseAddr and ParsePrefix against Go', () => {
  it.each(goRows)('%j', (s, want) => {
    if (want.err !== undefined) expect(() => goParseAddr(s)).toThrow(want.err);
    else {
      const { addr, zone } = goParseAddr(s);
      expect(ipToString(addr)).toBe(want.str);
      expect(zone).toBe(want.zone);
      expect(is4In6(addr)).toBe(want['4in6']);
      expect([isUnspecified(addr), isLoopback(addr), isLinkLocalMulticast(addr), isLinkLocalUnicast(addr), isGlobalUnicast(addr)]).toEqual(
        want.preds,
      );
    }
    if (want.perr !== undefined) expect(() => cidr.goParsePrefix(s)).toThrow(want.perr);
    else {
      const p = cidr.goParsePrefix(s);
      expect(cidr.cidrToString(p)).toBe(want.pstr);
      expect(cidr.cidrToString(cidr.masked(p))).toBe(want.masked);
    }
  });

  it('newer Go (1.22+/1.23+) error forms: flat embedded-IPv4 errors, four hex digits per group', () => {
    expect(() => goParseAddr('12345::1')).toThrow('ParseAddr("12345::1"): each group must have 4 or less digits (at "12345::1")');
    expect(() => goParseAddr('00001::1')).toThrow('ParseAddr("00001::1"): each group must have 4 or less digits (at "00001::1")');
    expect(() => goParseAddr('::1.2.3.256')).toThrow(/^ParseAddr\("::1\.2\.3\.256"\): IPv4 field has value >255$/);
    expect(() => goParseAddr('::1.2..3')).toThrow('ParseAddr("::1.2..3"): IPv4 field must have at least one digit (at ".3")');
    expect(() => goParseAddr('::1.2.3.x%eth0')).toThrow('ParseAddr("::1.2.3.x%eth0"): unexpected character (at "x")');
  });

  it('rejects sign and leading zeros in the prefix length (Go 1.22+)', () => {
    expect(() => cidr.goParsePrefix('10.0.0.0/08')).toThrow('netip.ParsePrefix("10.0.0.0/08"): bad bits after slash: "08"');
    expect(() => cidr.goParsePrefix('10.0.0.0/+8')).toThrow('bad bits after slash: "+8"');
    expect(() => cidr.goParsePrefix('10.0.0.0/-1')).toThrow('bad bits after slash: "-1"');
  });
});

describe('Kubernetes ip library rules', () => {
  it('reports the library errors', () => {
    expect(() => parseIP('192.168.0.1.0')).toThrow(
      'IP Address "192.168.0.1.0" parse error during conversion from string: ParseAddr("192.168.0.1.0"): IPv4 address too long',
    );
    expect(() => parseIP('2001:db8:::68')).toThrow(
      'IP Address "2001:db8:::68" parse error during conversion from string: ParseAddr("2001:db8:::68"): each colon-separated field must have at least one digit (at ":68")',
    );
    expect(() => parseIP('fe80::1%eth0')).toThrow('IP address "fe80::1%eth0" with zone value is not allowed');
    expect(() => parseIP('::ffff:1.2.3.4')).toThrow('IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed');
    expect(() => parseIP('010.0.0.1')).toThrow('IPv4 field has octet with leading zero');
  });
  it('isIP and isCanonical', () => {
    expect(isIP('127.0.0.1')).toBe(true);
    expect(isIP('::1')).toBe(true);
    expect(isIP('127.0.0.256')).toBe(false);
    expect(isIP(':::1')).toBe(false);
    expect(isIP('::ffff:1.2.3.4')).toBe(false);
    expect(isIP('fe80::1%eth0')).toBe(false);
    expect(ipIsCanonical('127.0.0.1')).toBe(true);
    expect(ipIsCanonical('2001:db8::abcd')).toBe(true);
    expect(ipIsCanonical('2001:DB8::ABCD')).toBe(false);
    expect(ipIsCanonical('2001:db8::0:0:0:abcd')).toBe(false);
    expect(() => ipIsCanonical('127.0.0.1.0')).toThrow('IPv4 address too long');
  });
  it('family and predicates', () => {
    expect(parseIP('192.168.0.1').family).toBe(4);
    expect(parseIP('2001:db8::68').family).toBe(6);
    expect(isLinkLocalMulticast(parseIP('ff02::1'))).toBe(true);
    expect(isLinkLocalMulticast(parseIP('fd00::1'))).toBe(false);
    expect(isGlobalUnicast(parseIP('10.0.0.1'))).toBe(true);
    expect(isGlobalUnicast(parseIP('ff00::1'))).toBe(false);
  });
});

describe('Kubernetes cidr library rules', () => {
  it('parses and reports errors as the library', () => {
    expect(cidr.cidrToString(cidr.parseCIDR('192.168.0.0/24'))).toBe('192.168.0.0/24');
    expect(() => cidr.parseCIDR('192.168.0.0/')).toThrow(
      'network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("192.168.0.0/"): bad bits after slash: ""',
    );
    expect(() => cidr.parseCIDR('2001:db8::/')).toThrow('netip.ParsePrefix("2001:db8::/"): bad bits after slash: ""');
    expect(() => cidr.parseCIDR('::ffff:1.2.3.4/120')).toThrow(
      'network address parse error during conversion from string: IPv4-mapped IPv6 address "::ffff:1.2.3.4/120" is not allowed',
    );
    expect(cidr.isCIDR('192.168.0.0/33')).toBe(false);
    expect(cidr.isCIDR('::1/129')).toBe(false);
    expect(cidr.isCIDR('::1/128')).toBe(true);
  });
  it('rejects host bits by default (spec) and accepts them when strictness is off (v1.33 code)', () => {
    expect(cidr.isCIDR('192.168.0.1/16')).toBe(false);
    expect(() => cidr.parseCIDR('192.168.0.1/16')).toThrow('has non-zero bits after the prefix length');
    cidr.setStrictHostBits(false);
    try {
      const c = cidr.parseCIDR('192.168.0.1/24');
      expect(ipToString(cidr.cidrIP(c))).toBe('192.168.0.1');
      expect(cidr.cidrToString(cidr.masked(c))).toBe('192.168.0.0/24');
      expect(cidr.cidrEquals(c, cidr.masked(c))).toBe(false);
      expect(cidr.containsCIDR(cidr.parseCIDR('2001:db8::/32'), cidr.masked(cidr.parseCIDR('2001:db8:1::/32')))).toBe(true);
    } finally {
      cidr.setStrictHostBits(true);
    }
  });
  it('containsIP and containsCIDR', () => {
    const v4 = cidr.parseCIDR('192.168.0.0/24');
    expect(cidr.containsIP(v4, parseIP('192.168.0.1'))).toBe(true);
    expect(cidr.containsIP(v4, parseIP('192.168.1.1'))).toBe(false);
    expect(cidr.containsIPString(v4, '192.168.0.1')).toBe(true);
    expect(cidr.containsIP(v4, parseIP('::1'))).toBe(false);
    expect(() => cidr.containsIPString(v4, 'nope')).toThrow('no such overload');
    expect(cidr.containsCIDR(v4, cidr.parseCIDR('192.168.0.0/25'))).toBe(true);
    expect(cidr.containsCIDR(v4, cidr.parseCIDR('192.168.0.1/32'))).toBe(true);
    expect(cidr.containsCIDR(v4, cidr.parseCIDR('192.168.0.0/23'))).toBe(false);
    expect(cidr.containsCIDR(v4, cidr.parseCIDR('192.169.0.1/32'))).toBe(false);
    expect(cidr.containsCIDRString(v4, '192.168.0.0/25')).toBe(true);
    expect(() => cidr.containsCIDRString(v4, '192.168.0.0/')).toThrow('bad bits after slash');
    const v6 = cidr.parseCIDR('2001:db8::/32');
    expect(cidr.containsIPString(v6, '2001:db8::1')).toBe(true);
    expect(cidr.containsIPString(v6, '2001:dc8::1')).toBe(false);
    expect(cidr.containsCIDRString(v6, '2001:db8::/33')).toBe(true);
    expect(cidr.containsCIDRString(v6, '2001:db8::/31')).toBe(false);
    expect(cidr.containsCIDR(cidr.parseCIDR('0.0.0.0/0'), cidr.parseCIDR('10.0.0.0/8'))).toBe(true);
    expect(cidr.prefixLength(v6)).toBe(32);
    expect(ipToString(cidr.cidrIP(v6))).toBe('2001:db8::');
  });
});
