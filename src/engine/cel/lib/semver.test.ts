import { describe, expect, it } from 'vitest';
import * as S from './semver.js';

// Expected values were produced by github.com/blang/semver/v4 (Parse, Compare, String) and the
// Kubernetes library's normalizeAndParse: [input, compareWith?] -> v0/err0 strict, v1/err1 normalized.
type Row = { v0?: string; err0?: string; cmp0?: number; v1?: string; err1?: string; cmp1?: number };
const goRows: [string[], Row][] = [
  [["1.2.3"], {"v0":"1.2.3","v1":"1.2.3"}],
  [["v1.0"], {"err0":"No Major.Minor.Patch elements found","v1":"1.0.0"}],
  [["1.2.3-beta.1+build.1"], {"v0":"1.2.3-beta.1+build.1","v1":"1.2.3-beta.1+build.1"}],
  [[""], {"err0":"Version string empty","err1":"strconv.ParseUint: parsing \"\": invalid syntax"}],
  [["v1.0.0"], {"err0":"Invalid character(s) found in major number \"v1\"","v1":"1.0.0"}],
  [[" 1.0.0"], {"err0":"Invalid character(s) found in major number \" 1\"","err1":"Invalid character(s) found in major number \"0 1\""}],
  [["1. 0.0"], {"err0":"Invalid character(s) found in minor number \" 0\"","err1":"Invalid character(s) found in minor number \"0 0\""}],
  [["1.0.0 "], {"err0":"Invalid character(s) found in patch number \"0 \"","err1":"Invalid character(s) found in patch number \"0 \""}],
  [["01.01.01"], {"err0":"Major number must not contain leading zeroes \"01\"","v1":"1.1.1"}],
  [["1"], {"err0":"No Major.Minor.Patch elements found","v1":"1.0.0"}],
  [["1.1"], {"err0":"No Major.Minor.Patch elements found","v1":"1.1.0"}],
  [["v01.01"], {"err0":"No Major.Minor.Patch elements found","v1":"1.1.0"}],
  [["1.0.0-rc.1","1.0.0"], {"cmp0":-1,"cmp1":-1,"v0":"1.0.0-rc.1","v1":"1.0.0-rc.1"}],
  [["1.0.0","1.0.0-rc.1"], {"cmp0":1,"cmp1":1,"v0":"1.0.0","v1":"1.0.0"}],
  [["1.0.0-alpha","1.0.0-alpha.1"], {"cmp0":-1,"cmp1":-1,"v0":"1.0.0-alpha","v1":"1.0.0-alpha"}],
  [["1.0.0-alpha.1","1.0.0-alpha.beta"], {"cmp0":-1,"cmp1":-1,"v0":"1.0.0-alpha.1","v1":"1.0.0-alpha.1"}],
  [["1.0.0-beta.2","1.0.0-beta.11"], {"cmp0":-1,"cmp1":-1,"v0":"1.0.0-beta.2","v1":"1.0.0-beta.2"}],
  [["1.0.0-rc.1+build","1.0.0-rc.1"], {"cmp0":0,"cmp1":0,"v0":"1.0.0-rc.1+build","v1":"1.0.0-rc.1+build"}],
  [["1.2.3","1.10.0"], {"cmp0":-1,"cmp1":-1,"v0":"1.2.3","v1":"1.2.3"}],
  [["1.0.0-01"], {"err0":"Numeric PreRelease version must not contain leading zeroes \"01\"","err1":"Numeric PreRelease version must not contain leading zeroes \"01\""}],
  [["1.0.0-"], {"err0":"Prerelease is empty","err1":"Prerelease is empty"}],
  [["1.0.0+"], {"err0":"Build meta data is empty","err1":"Build meta data is empty"}],
  [["1.0.0+a..b"], {"err0":"Build meta data is empty","err1":"Build meta data is empty"}],
  [["1.0.0-a_b"], {"err0":"Invalid character(s) found in prerelease \"a_b\"","err1":"Invalid character(s) found in prerelease \"a_b\""}],
  [["1.0.0+a_b"], {"err0":"Invalid character(s) found in build meta data \"a_b\"","err1":"Invalid character(s) found in build meta data \"a_b\""}],
  [["1.0.0-a..b"], {"err0":"Prerelease is empty","err1":"Prerelease is empty"}],
  [["a.b.c"], {"err0":"Invalid character(s) found in major number \"a\"","err1":"Invalid character(s) found in major number \"a\""}],
  [["1.b.0"], {"err0":"Invalid character(s) found in minor number \"b\"","err1":"Invalid character(s) found in minor number \"b\""}],
  [["1.0.x"], {"err0":"Invalid character(s) found in patch number \"x\"","err1":"Invalid character(s) found in patch number \"x\""}],
  [["..0"], {"err0":"strconv.ParseUint: parsing \"\": invalid syntax","err1":"strconv.ParseUint: parsing \"\": invalid syntax"}],
  [["1.0.00"], {"err0":"Patch number must not contain leading zeroes \"00\"","v1":"1.0.0"}],
  [["18446744073709551616.0.0"], {"err0":"strconv.ParseUint: parsing \"18446744073709551616\": value out of range","err1":"strconv.ParseUint: parsing \"18446744073709551616\": value out of range"}],
  [["18446744073709551615.0.0"], {"v0":"18446744073709551615.0.0","v1":"18446744073709551615.0.0"}],
  [["1-alpha"], {"err0":"No Major.Minor.Patch elements found","err1":"short version cannot contain PreRelease/Build meta data"}],
  [["1.2-rc.1"], {"err0":"Invalid character(s) found in minor number \"2-rc\"","err1":"Invalid character(s) found in minor number \"2-rc\""}],
  [["v"], {"err0":"No Major.Minor.Patch elements found","err1":"strconv.ParseUint: parsing \"\": invalid syntax"}],
  [["vv1.0.0"], {"err0":"Invalid character(s) found in major number \"vv1\"","err1":"Invalid character(s) found in major number \"0v1\""}],
  [["0.0.0"], {"v0":"0.0.0","v1":"0.0.0"}],
  [["00"], {"err0":"No Major.Minor.Patch elements found","v1":"0.0.0"}],
  [["1.0.0.0"], {"err0":"Invalid character(s) found in patch number \"0.0\"","err1":"Invalid character(s) found in patch number \"0.0\""}],
  [["1.0.0-x.7.z.92"], {"v0":"1.0.0-x.7.z.92","v1":"1.0.0-x.7.z.92"}],
  [["1.0.0-0.3.7","1.0.0-alpha"], {"cmp0":-1,"cmp1":-1,"v0":"1.0.0-0.3.7","v1":"1.0.0-0.3.7"}],
  [["v1.2.3-0a"], {"err0":"Invalid character(s) found in major number \"v1\"","v1":"1.2.3-0a"}],
  [["1.2.3-00a"], {"v0":"1.2.3-00a","v1":"1.2.3-00a"}],
  [["1.2.3-0a"], {"v0":"1.2.3-0a","v1":"1.2.3-0a"}],
  [["1.0.0+001"], {"v0":"1.0.0+001","v1":"1.0.0+001"}],
  [["v0001.0002.0003"], {"err0":"Invalid character(s) found in major number \"v0001\"","v1":"1.2.3"}],
  [["1.02"], {"err0":"No Major.Minor.Patch elements found","v1":"1.2.0"}],
];

describe('semver against blang/semver and normalizeAndParse', () => {
  it.each(goRows)('%j', ([input, other], want) => {
    for (const [k, normalize] of [
      ['0', false],
      ['1', true],
    ] as const) {
      const err = want[`err${k}`];
      if (err !== undefined) {
        expect(() => S.parseSemver(input!, normalize)).toThrow(err);
        expect(S.isSemver(input!, normalize)).toBe(false);
        continue;
      }
      const v = S.parseSemver(input!, normalize);
      expect(S.semverToString(v)).toBe(want[`v${k}`]);
      expect(S.isSemver(input!, normalize)).toBe(true);
      const cmp = want[`cmp${k}`];
      if (other !== undefined && cmp !== undefined) expect(S.compareSemver(v, S.parseSemver(other))).toBe(cmp);
    }
  });
});

describe('Kubernetes semver library examples', () => {
  it('accessors and comparisons', () => {
    const v = S.parseSemver('1.2.3');
    expect([S.major(v), S.minor(v), S.patch(v)]).toEqual([1n, 2n, 3n]);
    expect(S.semverEquals(S.parseSemver('v01.01', true), S.parseSemver('1.1.0'))).toBe(true);
    expect(S.compareSemver(S.parseSemver('1.0.0'), S.parseSemver('1.2.3'))).toBe(-1);
    expect(S.compareSemver(S.parseSemver('1.2.3'), S.parseSemver('1.0.0'))).toBe(1);
    expect(S.semverEquals(S.parseSemver('1.2.3+a'), S.parseSemver('1.2.3+b'))).toBe(true);
    expect(S.major(S.parseSemver('18446744073709551615.0.0'))).toBe(-1n);
  });
});
