import { describe, expect, it } from 'vitest';
import * as Q from './quantity.js';

// Expected values were produced by k8s.io/apimachinery/pkg/api/resource (v0.33.0) itself:
// "<quantity>" or "<quantity>|add|<y>", "|sub|", "|cmp|" (an integer y is NewQuantity(y, DecimalExponent)).
type Desc = { str: string; isInt: boolean; int?: string; float: number | string; sign: number };
const goRows: [string, { err?: string; q?: Desc; r?: Desc; cmp?: number }][] = [
  ["0", {"q":{"float":0,"int":"0","isInt":true,"sign":0,"str":"0"}}],
  ["12Mi", {"q":{"float":12582912,"int":"12582912","isInt":true,"sign":1,"str":"12Mi"}}],
  ["10Mo", {"err":"quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"}],
  ["10Mm", {"err":"unable to parse quantity's suffix"}],
  ["", {"err":"quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"}],
  ["-", {"q":{"float":0,"int":"0","isInt":true,"sign":0,"str":"0"}}],
  ["+", {"q":{"float":0,"int":"0","isInt":true,"sign":0,"str":"0"}}],
  [".", {"q":{"float":0,"int":"0","isInt":true,"sign":0,"str":"0"}}],
  ["1.", {"q":{"float":1,"int":"1","isInt":true,"sign":1,"str":"1."}}],
  [".5", {"q":{"float":0.5,"isInt":false,"sign":1,"str":"500m"}}],
  ["1.5Gi", {"q":{"float":1610612736,"isInt":false,"sign":1,"str":"1536Mi"}}],
  ["1Gi", {"q":{"float":1073741824,"int":"1073741824","isInt":true,"sign":1,"str":"1Gi"}}],
  ["100Mi", {"q":{"float":104857600,"int":"104857600","isInt":true,"sign":1,"str":"100Mi"}}],
  ["1000m", {"q":{"float":1,"isInt":false,"sign":1,"str":"1"}}],
  ["1.0", {"q":{"float":1,"isInt":false,"sign":1,"str":"1"}}],
  ["1", {"q":{"float":1,"int":"1","isInt":true,"sign":1,"str":"1"}}],
  ["-1", {"q":{"float":-1,"int":"-1","isInt":true,"sign":-1,"str":"-1"}}],
  ["+1", {"q":{"float":1,"int":"1","isInt":true,"sign":1,"str":"+1"}}],
  ["50k", {"q":{"float":50000,"int":"50000","isInt":true,"sign":1,"str":"50k"}}],
  ["50.703k", {"q":{"float":50703,"int":"50703","isInt":true,"sign":1,"str":"50.703k"}}],
  ["200M", {"q":{"float":200000000,"int":"200000000","isInt":true,"sign":1,"str":"200M"}}],
  ["0.2G", {"q":{"float":200000000,"int":"200000000","isInt":true,"sign":1,"str":"200M"}}],
  ["2000k", {"q":{"float":2000000,"int":"2000000","isInt":true,"sign":1,"str":"2M"}}],
  ["0.002G", {"q":{"float":2000000,"int":"2000000","isInt":true,"sign":1,"str":"2M"}}],
  ["9999999999999999999999999999999999999G", {"q":{"float":1.0000000000000001e+46,"isInt":false,"sign":1,"str":"9999999999999999999999999999999999999G"}}],
  ["1000E", {"q":{"float":1e+21,"isInt":false,"sign":1,"str":"1"}}],
  ["1e3", {"q":{"float":1000,"int":"1000","isInt":true,"sign":1,"str":"1e3"}}],
  ["1E3", {"q":{"float":1000,"int":"1000","isInt":true,"sign":1,"str":"1E3"}}],
  ["1e-3", {"q":{"float":0.001,"isInt":false,"sign":1,"str":"1e-3"}}],
  ["1e", {"err":"unable to parse quantity's suffix"}],
  ["1e1000", {"q":{"float":"+Inf","isInt":false,"sign":1,"str":"10e999"}}],
  ["1e-1000", {"q":{"float":1e-9,"isInt":false,"sign":1,"str":"1e-9"}}],
  ["0.1n", {"q":{"float":1e-9,"isInt":false,"sign":1,"str":"1n"}}],
  ["1n", {"q":{"float":1e-9,"isInt":false,"sign":1,"str":"1n"}}],
  ["1u", {"q":{"float":0.000001,"isInt":false,"sign":1,"str":"1u"}}],
  ["1m", {"q":{"float":0.001,"isInt":false,"sign":1,"str":"1m"}}],
  ["100m", {"q":{"float":0.1,"isInt":false,"sign":1,"str":"100m"}}],
  ["1.5", {"q":{"float":1.5,"isInt":false,"sign":1,"str":"1500m"}}],
  ["0.5Gi", {"q":{"float":536870912,"isInt":false,"sign":1,"str":"512Mi"}}],
  ["0.5Ki", {"q":{"float":512,"isInt":false,"sign":1,"str":"512"}}],
  ["1023Ki", {"q":{"float":1047552,"int":"1047552","isInt":true,"sign":1,"str":"1023Ki"}}],
  ["1024Ki", {"q":{"float":1048576,"int":"1048576","isInt":true,"sign":1,"str":"1Mi"}}],
  ["1025Ki", {"q":{"float":1049600,"int":"1049600","isInt":true,"sign":1,"str":"1025Ki"}}],
  ["8Ei", {"q":{"float":9223372036854776000,"isInt":false,"sign":1,"str":"9223372036854775807"}}],
  ["16Ei", {"q":{"float":9223372036854776000,"isInt":false,"sign":1,"str":"9223372036854775807"}}],
  ["9223372036854775807", {"q":{"float":9223372036854776000,"isInt":false,"sign":1,"str":"9223372036854775807"}}],
  ["9223372036854775808", {"q":{"float":9223372036854776000,"isInt":false,"sign":1,"str":"9223372036854775808"}}],
  ["-9223372036854775807", {"q":{"float":-9223372036854776000,"isInt":false,"sign":-1,"str":"-9223372036854775807"}}],
  ["123456789012345678901", {"q":{"float":123456789012345680000,"isInt":false,"sign":1,"str":"123456789012345678901"}}],
  ["1.123456789", {"q":{"float":1.123456789,"isInt":false,"sign":1,"str":"1.123456789"}}],
  ["12.34e2", {"q":{"float":1234,"int":"1234","isInt":true,"sign":1,"str":"12.34e2"}}],
  ["5e-3k", {"err":"quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"}],
  ["abc", {"err":"quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"}],
  ["1Kii", {"err":"unable to parse quantity's suffix"}],
  ["1ki", {"err":"unable to parse quantity's suffix"}],
  ["1K", {"err":"unable to parse quantity's suffix"}],
  ["1k", {"q":{"float":1000,"int":"1000","isInt":true,"sign":1,"str":"1k"}}],
  ["1.5k", {"q":{"float":1500,"int":"1500","isInt":true,"sign":1,"str":"1500"}}],
  ["0.0001", {"q":{"float":0.0001,"isInt":false,"sign":1,"str":"100u"}}],
  ["-0.0001", {"q":{"float":-0.0001,"isInt":false,"sign":-1,"str":"-100u"}}],
  ["1.1i", {"err":"unable to parse quantity's suffix"}],
  ["00001", {"q":{"float":1,"int":"1","isInt":true,"sign":1,"str":"00001"}}],
  ["0001.500", {"q":{"float":1.5,"isInt":false,"sign":1,"str":"0001.500"}}],
  ["1e+3", {"q":{"float":1000,"int":"1000","isInt":true,"sign":1,"str":"1e+3"}}],
  ["1e4294967296", {"q":{"float":1,"int":"1","isInt":true,"sign":1,"str":"1e4294967296"}}],
  ["50k|add|20", {"q":{"float":50000,"int":"50000","isInt":true,"sign":1,"str":"50k"},"r":{"float":50020,"int":"50020","isInt":true,"sign":1,"str":"50020"}}],
  ["50k|add|50.02k", {"q":{"float":50000,"int":"50000","isInt":true,"sign":1,"str":"50k"},"r":{"float":100020,"int":"100020","isInt":true,"sign":1,"str":"100020"}}],
  ["50k|sub|20", {"q":{"float":50000,"int":"50000","isInt":true,"sign":1,"str":"50k"},"r":{"float":49980,"int":"49980","isInt":true,"sign":1,"str":"49980"}}],
  ["50k|sub|100k", {"q":{"float":50000,"int":"50000","isInt":true,"sign":1,"str":"50k"},"r":{"float":-50000,"int":"-50000","isInt":true,"sign":-1,"str":"-50k"}}],
  ["0|add|5", {"q":{"float":0,"int":"0","isInt":true,"sign":0,"str":"0"},"r":{"float":5,"int":"5","isInt":true,"sign":1,"str":"5"}}],
  ["0|sub|1Gi", {"q":{"float":0,"int":"0","isInt":true,"sign":0,"str":"0"},"r":{"float":-1073741824,"int":"-1073741824","isInt":true,"sign":-1,"str":"-1Gi"}}],
  ["1Gi|add|1Gi", {"q":{"float":1073741824,"int":"1073741824","isInt":true,"sign":1,"str":"1Gi"},"r":{"float":2147483648,"int":"2147483648","isInt":true,"sign":1,"str":"2Gi"}}],
  ["8Ei|add|8Ei", {"q":{"float":9223372036854776000,"isInt":false,"sign":1,"str":"9223372036854775807"},"r":{"float":18446744073709552000,"isInt":false,"sign":1,"str":"18446744073709551614"}}],
  ["9223372036854775807|add|1", {"q":{"float":9223372036854776000,"isInt":false,"sign":1,"str":"9223372036854775807"},"r":{"float":9223372036854776000,"isInt":false,"sign":1,"str":"9223372036854775808"}}],
  ["1.5Gi|add|1", {"q":{"float":1610612736,"isInt":false,"sign":1,"str":"1536Mi"},"r":{"float":1610612737,"isInt":false,"sign":1,"str":"1610612737"}}],
  ["100m|add|900m", {"q":{"float":0.1,"isInt":false,"sign":1,"str":"100m"},"r":{"float":1,"isInt":false,"sign":1,"str":"1"}}],
  ["1m|sub|1m", {"q":{"float":0.001,"isInt":false,"sign":1,"str":"1m"},"r":{"float":0,"isInt":false,"sign":0,"str":"0"}}],
  ["1|add|1m", {"q":{"float":1,"int":"1","isInt":true,"sign":1,"str":"1"},"r":{"float":1.0010000000000001,"isInt":false,"sign":1,"str":"1001m"}}],
  ["50M|cmp|50Mi", {"cmp":-1,"q":{"float":50000000,"int":"50000000","isInt":true,"sign":1,"str":"50M"}}],
  ["50Mi|cmp|50M", {"cmp":1,"q":{"float":52428800,"int":"52428800","isInt":true,"sign":1,"str":"50Mi"}}],
  ["200M|cmp|0.2G", {"cmp":0,"q":{"float":200000000,"int":"200000000","isInt":true,"sign":1,"str":"200M"}}],
  ["1.5Gi|cmp|1536Mi", {"cmp":0,"q":{"float":1610612736,"isInt":false,"sign":1,"str":"1536Mi"}}],
  ["-1|cmp|1n", {"cmp":-1,"q":{"float":-1,"int":"-1","isInt":true,"sign":-1,"str":"-1"}}],
  ["1e1000|cmp|1e999", {"cmp":1,"q":{"float":"+Inf","isInt":false,"sign":1,"str":"10e999"}}],
  ["1Ei|add|-1Ei", {"q":{"float":1152921504606847000,"isInt":false,"sign":1,"str":"1Ei"},"r":{"float":0,"isInt":false,"sign":0,"str":"0"}}],
  ["50k|add|-30000", {"q":{"float":50000,"int":"50000","isInt":true,"sign":1,"str":"50k"},"r":{"float":20000,"int":"20000","isInt":true,"sign":1,"str":"20k"}}],
];

function describeQ(q: Q.Quantity): Desc {
  const f = Q.asApproximateFloat(q);
  const d: Desc = { str: Q.quantityToString(q), isInt: Q.isInteger(q), float: Number.isFinite(f) ? f : f > 0 ? '+Inf' : '-Inf', sign: Q.sign(q) };
  if (d.isInt) d.int = Q.asInteger(q).toString();
  return d;
}

describe('resource.Quantity against apimachinery', () => {
  it.each(goRows)('%j', (line, want) => {
    const [s, op, ys] = line.split('|') as [string, string?, string?];
    if (want.err !== undefined) {
      expect(() => Q.parseQuantity(s)).toThrow(want.err);
      expect(Q.isQuantity(s)).toBe(false);
      return;
    }
    const q = Q.parseQuantity(s);
    expect(describeQ(q)).toEqual(want.q);
    if (op && ys !== undefined) {
      const y = /^-?[0-9]+$/.test(ys) ? Q.fromInt(BigInt(ys)) : Q.parseQuantity(ys);
      if (op === 'add') expect(describeQ(Q.add(q, y))).toEqual(want.r);
      if (op === 'sub') expect(describeQ(Q.sub(q, y))).toEqual(want.r);
      if (op === 'cmp') expect(Q.compare(q, y)).toBe(want.cmp);
    }
  });
});

describe('Kubernetes quantity library behaviour', () => {
  const q = Q.parseQuantity;
  it('error texts', () => {
    expect(() => q('10Mo')).toThrow(/^quantities must match the regular expression/);
    expect(() => q('10Mm')).toThrow("unable to parse quantity's suffix");
    expect(() => Q.asInteger(q('9999999999999999999999999999999999999G'))).toThrow('cannot convert value to integer');
  });
  it('equality and ordering', () => {
    expect(Q.quantityEquals(q('200M'), q('0.2G'))).toBe(true);
    expect(Q.quantityEquals(q('2M'), q('0.002G'))).toBe(true);
    expect(Q.quantityEquals(q('200M'), q('0.3G'))).toBe(false);
    expect(Q.compare(q('50M'), q('50Mi'))).toBe(-1);
    expect(Q.compare(q('150Mi'), q('100Mi'))).toBe(1);
  });
  it('arithmetic with ints', () => {
    expect(Q.quantityEquals(Q.addInt(q('50k'), 20n), q('50020'))).toBe(true);
    expect(Q.quantityEquals(Q.subInt(q('50k'), 20n), q('49980'))).toBe(true);
    expect(Q.asInteger(Q.sub(Q.addInt(q('50k'), 20n), q('100k')))).toBe(-49980n);
    expect(Q.asInteger(Q.subInt(Q.sub(Q.addInt(q('50k'), 20n), q('100k')), -50000n))).toBe(20n);
    expect(Q.asApproximateFloat(q('50.703k'))).toBe(50703);
    expect(Q.isInteger(q('50'))).toBe(true);
  });
});
