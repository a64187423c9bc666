import { describe, expect, it } from 'vitest';
import { goQuote } from '../../codec/go-format.js';
import * as cidr from './cidr.js';
import { goParseAddr, parseIP } from './ip.js';
import * as S from './strings.js';

// What Go's strconv.Quote writes (Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the
// ASCII space are kept): the CEL libraries quote strings in values and error messages with the engine's one
// goQuote, so the ip, cidr, url and strings libraries cannot differ (ip's own copy kept U+00AD and U+2028).
describe("goQuote: Go's strconv.Quote", () => {
  const cases: [string, string][] = [
    ['plain', '"plain"'],
    ['say "hi" \\ ok', '"say \\"hi\\" \\\\ ok"'],
    ['\x07\b\f\n\r\t\v', '"\\a\\b\\f\\n\\r\\t\\v"'],
    ['\x00\x1f\x7f', '"\\x00\\x1f\\x7f"'],
    ['\u0085', '"\\u0085"'], // C1 control (Cc)
    ['soft\u00adhyphen', '"soft\\u00adhyphen"'], // Cf
    ['\u200b', '"\\u200b"'], // zero width space, Cf
    ['a\u2028b\u2029c', '"a\\u2028b\\u2029c"'], // Zl, Zp
    ['\u00a0\u3000 ', '"\\u00a0\\u3000 "'], // Zs other than the ASCII space
    ['\ue000', '"\\ue000"'], // private use
    ['\u{f0000}', '"\\U000f0000"'],
    ['\u{e0001}', '"\\U000e0001"'], // Cf above the BMP
    ['é✓😀\ufffd', '"é✓😀\ufffd"'], // printable, U+FFFD included
  ];
  it.each(cases)('goQuote(%j)', (input, want) => {
    expect(goQuote(input)).toBe(want);
  });

  it('the ip and cidr libraries and string.format quote alike', () => {
    const odd = '1.2.3.4\u00ad\u2028';
    const q = '"1.2.3.4\\u00ad\\u2028"';
    expect(() => goParseAddr(odd)).toThrow(`ParseAddr(${q}): unexpected character (at "\\u00ad\\u2028")`);
    expect(() => parseIP(odd)).toThrow(`IP Address ${q} parse error during conversion from string: ParseAddr(${q})`);
    expect(() => cidr.goParsePrefix(`${odd}/8`)).toThrow(`netip.ParsePrefix("1.2.3.4\\u00ad\\u2028/8")`);
    expect(S.formatString('%s', [[odd]])).toBe(`[${q}]`);
  });
});
