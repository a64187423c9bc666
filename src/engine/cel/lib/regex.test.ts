import { describe, expect, it } from 'vitest';
import { compileRE2, find, findAll, matches, validateRE2 } from './regex.js';

// Expected values were produced by Go's regexp package (FindAllString(s, -1), FindString, Compile errors).
const goCases: [string, string, { err: string } | { all: string[]; find: string }][] = [
  ["a(b", "x", {"err":"error parsing regexp: missing closing ): `a(b`"}],
  ["a)b", "x", {"err":"error parsing regexp: unexpected ): `a)b`"}],
  ["(?i)hello", "HeLLo world hello", {"all":["HeLLo","hello"],"find":"HeLLo"}],
  ["(?i:ab)c", "ABc ABC abc", {"all":["ABc","abc"],"find":"ABc"}],
  ["a(?i)b", "aB AB ab", {"all":["aB","ab"],"find":"aB"}],
  ["(?s)a.b", "a\nb", {"all":["a\nb"],"find":"a\nb"}],
  ["a.b", "a\nb a\rb", {"all":["a\rb"],"find":"a\rb"}],
  ["(?m)^x$", "x\nx\ny", {"all":["x","x"],"find":"x"}],
  ["^x$", "x\nx", {"all":[],"find":""}],
  ["x$", "x\n", {"all":[],"find":""}],
  ["\\Ax", "xx", {"all":["x"],"find":"x"}],
  ["x\\z", "xx", {"all":["x"],"find":"x"}],
  ["(?U)a+", "aaa", {"all":["a","a","a"],"find":"a"}],
  ["(?U)a+?", "aaa", {"all":["aaa"],"find":"aaa"}],
  ["a+?", "aaa", {"all":["a","a","a"],"find":"a"}],
  ["(?P<name>a)b", "ab", {"all":["ab"],"find":"ab"}],
  ["(?P<n!>a)", "a", {"err":"error parsing regexp: invalid named capture: `(?P<n!>`"}],
  ["(?P<n>a)(?P<n>b)", "ab", {"all":["ab"],"find":"ab"}],
  ["(a)\\1", "aa", {"err":"error parsing regexp: invalid escape sequence: `\\1`"}],
  ["(?=a)", "a", {"err":"error parsing regexp: invalid or unsupported Perl syntax: `(?=`"}],
  ["(?!a)", "a", {"err":"error parsing regexp: invalid or unsupported Perl syntax: `(?!`"}],
  ["a**", "a", {"err":"error parsing regexp: invalid nested repetition operator: `**`"}],
  ["a*?+", "a", {"err":"error parsing regexp: invalid nested repetition operator: `*?+`"}],
  ["*a", "a", {"err":"error parsing regexp: missing argument to repetition operator: `*`"}],
  ["(*)", "a", {"err":"error parsing regexp: missing argument to repetition operator: `*`"}],
  ["a|*", "a", {"err":"error parsing regexp: missing argument to repetition operator: `*`"}],
  ["a{2}{3}", "a", {"err":"error parsing regexp: invalid nested repetition operator: `{2}{3}`"}],
  ["a{1001}", "a", {"err":"error parsing regexp: invalid repeat count: `{1001}`"}],
  ["a{2,1}", "a", {"err":"error parsing regexp: invalid repeat count: `{2,1}`"}],
  ["(a{100}){100}", "a", {"err":"error parsing regexp: invalid repeat count: `{100}`"}],
  ["a{,2}", "a{,2}", {"all":["a{,2}"],"find":"a{,2}"}],
  ["a{2", "a{2", {"all":["a{2"],"find":"a{2"}],
  ["x{0}y", "xy", {"all":["y"],"find":"y"}],
  ["^*", "a", {"all":["",""],"find":""}],
  ["[[:alpha:]]+", "ab12cd", {"all":["ab","cd"],"find":"ab"}],
  ["[[:^alpha:]]+", "ab12cd", {"all":["12"],"find":"12"}],
  ["[[:foo:]]", "a", {"err":"error parsing regexp: invalid character class range: `[:foo:]`"}],
  ["\\pL+", "héllo1", {"all":["héllo"],"find":"héllo"}],
  ["\\p{Greek}+", "abc αβγ", {"all":["αβγ"],"find":"αβγ"}],
  ["\\PL+", "héllo1", {"all":["1"],"find":"1"}],
  ["\\p{^Greek}+", "αβab", {"all":["ab"],"find":"ab"}],
  ["\\p{Foo}", "a", {"err":"error parsing regexp: invalid character class range: `\\p{Foo}`"}],
  ["\\pZ", "a b", {"all":[" "],"find":" "}],
  ["[a-", "x", {"err":"error parsing regexp: missing closing ]: `[a-`"}],
  ["[z-a]", "x", {"err":"error parsing regexp: invalid character class range: `z-a`"}],
  ["\\", "x", {"err":"error parsing regexp: trailing backslash at end of expression: ``"}],
  ["a\\", "x", {"err":"error parsing regexp: trailing backslash at end of expression: ``"}],
  ["\\C", "x", {"err":"error parsing regexp: invalid escape sequence: `\\C`"}],
  ["\\Qa.b\\E+", "a.bb", {"all":["a.bb"],"find":"a.bb"}],
  ["\\x41\\x{42}", "AB", {"all":["AB"],"find":"AB"}],
  ["\\x{110000}", "A", {"err":"error parsing regexp: invalid escape sequence: `\\x{110000`"}],
  ["\\0", "\u0000", {"all":["\u0000"],"find":"\u0000"}],
  ["\\012", "\n", {"all":["\n"],"find":"\n"}],
  ["\\8", "8", {"err":"error parsing regexp: invalid escape sequence: `\\8`"}],
  ["\\q", "q", {"err":"error parsing regexp: invalid escape sequence: `\\q`"}],
  ["\\d+\\s\\w+", "12 ab_c", {"all":["12 ab_c"],"find":"12 ab_c"}],
  ["\\S+", "a\u000bb c", {"all":["a\u000bb","c"],"find":"a\u000bb"}],
  ["\\s", "\u000b", {"all":[],"find":""}],
  ["[^a]", "\n", {"all":["\n"],"find":"\n"}],
  ["a*", "baaac", {"all":["","aaa",""],"find":""}],
  ["", "abc", {"all":["","","",""],"find":""}],
  ["x*", "xaxx", {"all":["x","xx"],"find":"x"}],
  ["\\b\\w+\\b", "hi there, you", {"all":["hi","there","you"],"find":"hi"}],
  ["(?i)straße", "STRASSE strasse STRAßE", {"all":["STRAßE"],"find":"STRAßE"}],
  ["(?i)k", "KK", {"all":["K","K"],"find":"K"}],
  ["[\\d-z]+", "1-z", {"all":["1-z"],"find":"1-z"}],
  ["[a-\\d]", "a", {"err":"error parsing regexp: invalid escape sequence: `\\d`"}],
  ["(?i)[a-c]+", "ABCabc", {"all":["ABCabc"],"find":"ABCabc"}],
  ["(?-i)a", "A", {"all":[],"find":""}],
  ["(?i-i)a", "A", {"all":[],"find":""}],
  ["(?)", "a", {"all":["",""],"find":""}],
  ["(?i", "a", {"err":"error parsing regexp: invalid or unsupported Perl syntax: `(?i`"}],
  ["(?x)a", "a", {"err":"error parsing regexp: invalid or unsupported Perl syntax: `(?x`"}],
  ["a|b|c", "cab", {"all":["c","a","b"],"find":"c"}],
  ["(a|ab)(c|bcd)(d*)", "abcd", {"all":["abcd"],"find":"abcd"}],
  ["[[:word:]]+", "a_b-c", {"all":["a_b","c"],"find":"a_b"}],
  ["[]a]", "]a", {"all":["]","a"],"find":"]"}],
  ["[^]a]", "]ab", {"all":["b"],"find":"b"}],
  ["[a-]+", "a-a", {"all":["a-a"],"find":"a-a"}],
  ["\\.\\*", "a.*", {"all":[".*"],"find":".*"}],
  ["é+", "éé", {"all":["éé"],"find":"éé"}],
  ["[😀-😂]", "x😁y", {"all":["😁"],"find":"😁"}],
  ["😀*", "😀😀", {"all":["😀😀"],"find":"😀😀"}],
  [".", "😀", {"all":["😀"],"find":"😀"}],
  ["(?i)Σ", "σς", {"all":["σ","ς"],"find":"σ"}],
  ["a{2,}", "aaaaa", {"all":["aaaaa"],"find":"aaaaa"}],
  ["a{2,3}?", "aaaa", {"all":["aa","aa"],"find":"aa"}],
  ["(a+)(b+)?", "aab", {"all":["aab"],"find":"aab"}],
  ["\\$", "$", {"all":["$"],"find":"$"}],
  ["[\\]]", "]", {"all":["]"],"find":"]"}],
  ["\\pN", "5", {"all":["5"],"find":"5"}],
  ["\\p", "x", {"err":"error parsing regexp: invalid character class range: `\\p`"}],
  ["\\p{", "x", {"err":"error parsing regexp: invalid character class range: `\\p{`"}],
  ["\\pX", "x", {"err":"error parsing regexp: invalid character class range: `\\pX`"}],
  ["(?i)\\p{Lu}", "a", {"all":["a"],"find":"a"}],
  ["[\\p{Lu}\\d]+", "Ab1C", {"all":["A","1C"],"find":"A"}],
  ["[^\\p{Lu}]+", "Ab1C", {"all":["b1"],"find":"b1"}],
  // matching semantics (priorities, empty iterations, anchors, folding, Unicode)
  ["(a+)+$", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!", {"all":[],"find":""}],
  ["(a|aa)*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", {"all":[],"find":""}],
  ["(x+x+)+y", "xxxxxxxxxxxxxxxxxxxxxxxxxx", {"all":[],"find":""}],
  ["a*?b", "aaab", {"all":["aaab"],"find":"aaab"}],
  ["(a|ab)(c|bcd)(d*)", "abcd", {"all":["abcd"],"find":"abcd"}],
  ["(a*)*", "b", {"all":["",""],"find":""}],
  ["(a*)+", "aab", {"all":["aa",""],"find":"aa"}],
  ["(a|b)*?c", "ababc", {"all":["ababc"],"find":"ababc"}],
  ["x*", "axxb", {"all":["","xx",""],"find":""}],
  ["(?U)x*", "xx", {"all":["","",""],"find":""}],
  ["a{2,3}", "aaaaaaa", {"all":["aaa","aaa"],"find":"aaa"}],
  ["a{2,3}?", "aaaaaaa", {"all":["aa","aa","aa"],"find":"aa"}],
  ["(?m)^", "a\nb\n", {"all":["","",""],"find":""}],
  ["(?m)$", "a\nb\n", {"all":["","",""],"find":""}],
  ["^", "abc", {"all":[""],"find":""}],
  ["$", "abc", {"all":[""],"find":""}],
  ["\\b", "ab cd", {"all":["","","",""],"find":""}],
  ["\\B", "ab cd", {"all":["",""],"find":""}],
  ["(?i)ǅ", "ǄǆǅDž", {"all":["Ǆ","ǆ","ǅ"],"find":"Ǆ"}],
  ["(?i)[k-m]+", "KLMKlm", {"all":["KLMKlm"],"find":"KLMKlm"}],
  ["(?i)\\pL+", "aBc1", {"all":["aBc"],"find":"aBc"}],
  ["[^\\n]+", "ab\ncd", {"all":["ab","cd"],"find":"ab"}],
  ["(?s).+", "ab\ncd", {"all":["ab\ncd"],"find":"ab\ncd"}],
  [".+", "ab\r\ncd", {"all":["ab\r","cd"],"find":"ab\r"}],
  ["(foo|foobar)", "foobar", {"all":["foo"],"find":"foo"}],
  ["(foobar|foo)", "foobar", {"all":["foobar"],"find":"foobar"}],
  ["a|b|", "xab", {"all":["","a","b"],"find":""}],
  ["(|a)+", "aa", {"all":["","",""],"find":""}],
  ["(a?)*?b", "aab", {"all":["aab"],"find":"aab"}],
  ["[a-c]{0,2}d", "abcd", {"all":["bcd"],"find":"bcd"}],
  ["\\d{3}-\\d{4}", "call 555-1234 now", {"all":["555-1234"],"find":"555-1234"}],
  ["[[:upper:]][[:lower:]]+", "Hello World", {"all":["Hello","World"],"find":"Hello"}],
  ["\\p{Han}+", "中文abc漢字", {"all":["中文","漢字"],"find":"中文"}],
  ["\\PN+", "ab12cd", {"all":["ab","cd"],"find":"ab"}],
  ["[\\p{Lu}0-9]+", "aB9Cd", {"all":["B9C"],"find":"B9C"}],
  ["(?i)σ", "ΣσςS", {"all":["Σ","σ","ς"],"find":"Σ"}],
  ["😀|a", "b😀a", {"all":["😀","a"],"find":"😀"}],
  ["(?:)", "abc", {"all":["","","",""],"find":""}],
  ["a(?:b|c)d", "acd abd", {"all":["acd","abd"],"find":"acd"}],
  ["^$", "", {"all":[""],"find":""}],
  ["^a*$", "", {"all":[""],"find":""}],
  ["(?i)straße", "STRASSE", {"all":[],"find":""}],
  ["(?i)ß", "ẞß", {"all":["ẞ","ß"],"find":"ẞ"}],
  ["x{0,0}", "x", {"all":["",""],"find":""}],
  ["(a)(b)?", "ab a", {"all":["ab","a"],"find":"ab"}],
  ["[^a-z]", "ABC", {"all":["A","B","C"],"find":"A"}],
  ["(?i)[^a-z]", "ABC1", {"all":["1"],"find":"1"}],
  ["\\x{1F600}", "😀", {"all":["😀"],"find":"😀"}],
  ["[\\x{1F600}-\\x{1F64F}]+", "hi😀😃!", {"all":["😀😃"],"find":"😀😃"}],
  ["\\Qa+b\\E", "a+b", {"all":["a+b"],"find":"a+b"}],
  ["(?-s:.)", "\n", {"all":[],"find":""}],
  ["(?m:^b)", "a\nb", {"all":["b"],"find":"b"}],
  ["a(?i:b)c", "aBc aBC", {"all":["aBc"],"find":"aBc"}],
  ["((a)|b)+", "ab", {"all":["ab"],"find":"ab"}],
  ["\\Aa", "aa", {"all":["a"],"find":"a"}],
  ["a\\z", "aa", {"all":["a"],"find":"a"}],
  ["(?:a{2}){2}", "aaaaa", {"all":["aaaa"],"find":"aaaa"}],
  ["z*?", "zz", {"all":["","",""],"find":""}],

];

describe('RE2 matching against Go regexp', () => {
  it.each(goCases)('%j on %j', (pattern, input, want) => {
    if ('err' in want) {
      expect(() => compileRE2(pattern)).toThrow(want.err);
      expect(validateRE2(pattern)).toBe(want.err);
    } else {
      expect(findAll(input, pattern)).toEqual(want.all);
      expect(find(input, pattern)).toBe(want.find);
      expect(validateRE2(pattern)).toBeUndefined();
    }
  });
});

describe('Go 1.22+ named capture syntax (Kubernetes 1.33 is built with Go 1.24)', () => {
  it('accepts (?<name>re)', () => {
    expect(find('ab', '(?<name>a)b')).toBe('ab');
  });
  it('rejects lookbehind as an invalid named capture', () => {
    expect(validateRE2('(?<=a)b')).toBe('error parsing regexp: invalid named capture: `(?<=a)b`');
    expect(validateRE2('x(?<!a)')).toBe('error parsing regexp: invalid named capture: `(?<!a)`');
  });
});

describe('findAll limits and matches', () => {
  it('limits the number of matches', () => {
    expect(findAll('123 abc 456 def 789', '[0-9]+', 2)).toEqual(['123', '456']);
    expect(findAll('123 abc 456', '[0-9]+', 0)).toEqual([]);
    expect(findAll('123 abc 456', '[0-9]+', -1)).toEqual(['123', '456']);
    expect(findAll('abc', 'x')).toEqual([]);
  });
  it('matches is unanchored', () => {
    expect(matches('foobar', 'o+b')).toBe(true);
    expect(matches('foobar', '^o+b')).toBe(false);
    expect(matches('HELLO', '(?i)^hello$')).toBe(true);
  });
  it('kubernetes docs examples', () => {
    expect(find('abc 123', '[0-9]+')).toBe('123');
    expect(find('123 abc 456', '[0-9]*')).toBe('123');
    expect(findAll('123 abc 456', '[0-9]+')).toEqual(['123', '456']);
    expect(findAll('123 abc 456', '[0-9]+', 1)).toEqual(['123']);
    expect(findAll('123 abc 456', 'xyz')).toEqual([]);
  });
  it('uses code points, not UTF-16 units', () => {
    expect(findAll('😀😀', '')).toEqual(['', '', '']);
    expect(compileRE2('(?i)a').flags).toBe('iu');
    expect(compileRE2('a(?i)b').flags).toBe('u');
  });
  it('caches compiled patterns', () => {
    expect(compileRE2('a+b')).toBe(compileRE2('a+b'));
  });
});

describe('compileRE2 hands out a non-global RegExp', () => {
  it('test() gives the same answer on repeated calls', () => {
    const re = compileRE2('^[a-z]+$');
    expect(re.flags.includes('g')).toBe(false);
    // its source is the RE2 pattern as written (no JavaScript translation is made)
    expect(re.source).toBe('^[a-z]+$');
    expect(compileRE2('(?i)\\pL+').source).toBe('(?i)\\pL+');
    expect(String(compileRE2('a(?i)b'))).toBe('/a(?i)b/u');
    expect([re.test('abc'), re.test('abc'), re.test('abc')]).toEqual([true, true, true]);
    expect(findAll('ab ab', 'ab')).toEqual(['ab', 'ab']);
    expect(matches('xab', 'ab')).toBe(true);
    expect(matches('xab', 'ab')).toBe(true);
  });
});

describe('linear-time matching (no catastrophic backtracking)', () => {
  it('handles patterns that make backtracking engines explode', () => {
    const t0 = performance.now();
    expect(matches('a'.repeat(5000) + '!', '(a+)+$')).toBe(false);
    expect(matches('x'.repeat(3000), '(x+x+)+y')).toBe(false);
    expect(find('a'.repeat(2000), '(a|aa)*b')).toBe('');
    expect(compileRE2('^(a|a)*$').test('a'.repeat(3000) + 'b')).toBe(false);
    expect(performance.now() - t0).toBeLessThan(5000);
  });
  it('the returned RegExp works with String methods through exec', () => {
    const re = compileRE2('(?i)k');
    expect('xKy'.search(re)).toBe(1);
    expect(re.exec('a\u212a')?.index).toBe(1);
  });
});

describe('matches (lazy DFA) agrees with the thread-list search', () => {
  const inputs = ['', 'a', 'ab', 'x\nx\ny', 'foo bar_baz', 'aaa', 'HeLLo world', '😀a😀', 'a\u212a', '12-ab', 'ab\n', '\nab'];
  const patterns = goCases.filter(([, , want]) => !('err' in want)).map(([p]) => p);
  patterns.push('\\bab\\b', '\\Bb', '(?m)^ab$', '(?m)b$', '^$', '$', '^', '[^a]', '(?i)K', '\\pL+', '^[a-z][a-z0-9-]*$');
  it.each(patterns)('%j', (pattern) => {
    for (const s of [...inputs, ...goCases.map(([, input]) => input)]) {
      // find() runs the thread list; a match (even an empty one) exists exactly when findAll finds one
      const want = findAll(s, pattern, 1).length > 0;
      expect([s, matches(s, pattern)]).toEqual([s, want]);
      expect([s, compileRE2(pattern).test(s)]).toEqual([s, want]);
    }
  });
});

describe('a pattern whose DFA would be exponential', () => {
  it('falls back to the thread list past the state bound and answers the same', () => {
    const pattern = '(a|b)*a(a|b){13}c';
    let s = '';
    for (let i = 0; i < 6000; i++) s += (i * 7919) % 13 < 6 ? 'a' : 'b';
    expect(matches(s, pattern)).toBe(false);
    expect(matches(s + 'c', pattern)).toBe(findAll(s + 'c', pattern, 1).length > 0);
    expect(matches(s.slice(0, 14) + 'c', '(a|b)*a(a|b){13}c')).toBe(findAll(s.slice(0, 14) + 'c', pattern, 1).length > 0);
  });
});
