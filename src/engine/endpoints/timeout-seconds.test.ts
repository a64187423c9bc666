// timeoutSeconds as the real server reads it: strconv.ParseInt, then time.Duration(s) * time.Second.
import { describe, expect, it } from 'vitest';
import { MAX_TIMER_MS, parseInt64Param, watchTimeoutMs } from './scope.js';
import { StatusError } from '../errors.js';

const q = (v: string) => new URLSearchParams({ timeoutSeconds: v });

function message(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    if (e instanceof StatusError) return e.status.message;
    throw e;
  }
  return undefined;
}

describe('timeoutSeconds', () => {
  it('parses like strconv.ParseInt(s, 10, 64)', () => {
    expect(parseInt64Param('+5')).toBe(5n);
    expect(parseInt64Param('-9223372036854775808')).toBe(-(2n ** 63n));
    expect(message(() => parseInt64Param('9223372036854775808'))).toBe('strconv.ParseInt: parsing "9223372036854775808": value out of range');
    expect(message(() => parseInt64Param(''))).toBe('strconv.ParseInt: parsing "": invalid syntax');
    expect(message(() => parseInt64Param('1e3'))).toBe('strconv.ParseInt: parsing "1e3": invalid syntax');
    expect(message(() => parseInt64Param('"x"'))).toBe('strconv.ParseInt: parsing "\\"x\\"": invalid syntax');
  });

  it('becomes a watch timeout as Go computes the Duration', () => {
    expect(watchTimeoutMs(new URLSearchParams(), 1234)).toBe(1234);
    expect(watchTimeoutMs(q('0'), 1234)).toBe(1234);
    expect(watchTimeoutMs(q('30'), 1234)).toBe(30_000);
    expect(watchTimeoutMs(q('-1'), 1234)).toBe(-1);
    // beyond what a JS timer holds: held at the maximum rather than firing at once
    expect(watchTimeoutMs(q('3000000'), 1234)).toBe(MAX_TIMER_MS);
    // int64 nanoseconds wrap: (2^63-1) s is -1 s, 9223372036854775 s is -0.808 s
    expect(watchTimeoutMs(q('9223372036854775807'), 1234)).toBe(-1);
    expect(watchTimeoutMs(q('9223372036854775'), 1234)).toBe(-1);
    // 2^63 / 1e9 rounded up wraps to a negative: the smallest positive that wraps
    expect(watchTimeoutMs(q('9223372037'), 1234)).toBe(-1);
    expect(watchTimeoutMs(q('9223372036'), 1234)).toBe(MAX_TIMER_MS);
  });
});
