import { describe, expect, it } from 'vitest';
import { canonicalQuantity, parseQuantity } from './quantity.js';

describe('canonical quantities', () => {
  it.each([
    ['0.5', '500m'], ['1000m', '1'], ['2000', '2k'], ['1500', '1500'], ['1536Mi', '1536Mi'], ['1.5Gi', '1536Mi'],
    ['1024', '1024'], ['1Ki', '1Ki'], ['0.5Ki', '512'], ['1e3', '1e3'], ['1e4', '10e3'], ['129e6', '129e6'],
    ['128974848', '128974848'], ['123Mi', '123Mi'], ['0.1', '100m'], ['0', '0'], ['0Mi', '0'], ['.5', '500m'],
    ['100M', '100M'], ['1000000k', '1G'], ['-1', '-1'], ['0.0005', '500u'], ['1n', '1n'], ['0.1n', '1n'],
  ])('%s -> %s', (input, out) => {
    expect(canonicalQuantity(input)).toBe(out);
  });
  it('numbers and milli rounding', () => {
    expect(canonicalQuantity(2)).toBe('2');
    expect(canonicalQuantity(0.25)).toBe('250m');
    expect(canonicalQuantity('0.0005', true)).toBe('1m');
    expect(canonicalQuantity('1.5Gi', true)).toBe('1536Mi');
    expect(canonicalQuantity('abc')).toBeNull();
    expect(canonicalQuantity('.')).toBeNull();
  });
  it('parses values', () => {
    expect(parseQuantity('128Mi')).toBe(128 * 1024 * 1024);
    expect(parseQuantity('500m')).toBe(0.5);
    expect(parseQuantity('1e3')).toBe(1000);
    expect(parseQuantity('x')).toBeNull();
  });
});
