import { describe, expect, it } from 'vitest';
import { computeWindow, isAtBottom, scrollToReveal } from './virtual.js';

describe('computeWindow', () => {
  it('draws the rows in view plus overscan', () => {
    // 24px rows, 240px viewport scrolled to row 100.
    expect(computeWindow(2400, 240, 24, 10_000, 4)).toEqual({ start: 96, end: 114, offsetTop: 96 * 24, totalHeight: 240_000 });
  });
  it('clamps at the top and bottom', () => {
    expect(computeWindow(-50, 240, 24, 10_000, 4)).toEqual({ start: 0, end: 14, offsetTop: 0, totalHeight: 240_000 });
    expect(computeWindow(1e9, 240, 24, 10_000, 4)).toEqual({ start: 9986, end: 10_000, offsetTop: 9986 * 24, totalHeight: 240_000 });
  });
  it('handles a partial row and an empty list', () => {
    expect(computeWindow(10, 50, 24, 100, 0)).toEqual({ start: 0, end: 3, offsetTop: 0, totalHeight: 2400 });
    expect(computeWindow(0, 300, 24, 0)).toEqual({ start: 0, end: 0, offsetTop: 0, totalHeight: 0 });
  });
  it('a list shorter than the viewport draws every row', () => {
    expect(computeWindow(0, 1000, 20, 7, 2)).toEqual({ start: 0, end: 7, offsetTop: 0, totalHeight: 140 });
  });
  it('draws a bounded number of rows whatever the length', () => {
    const w = computeWindow(123_456, 600, 22, 1_000_000, 5);
    expect(w.end - w.start).toBeLessThanOrEqual(Math.ceil(600 / 22) + 1 + 10);
  });
});

describe('scrollToReveal / isAtBottom', () => {
  it('scrolls only as far as needed', () => {
    expect(scrollToReveal(5, 0, 100, 20)).toBe(20);
    expect(scrollToReveal(2, 100, 100, 20)).toBe(40);
    expect(scrollToReveal(6, 100, 100, 20)).toBe(100);
  });
  it('detects the bottom with slack', () => {
    expect(isAtBottom(900, 100, 1000)).toBe(true);
    expect(isAtBottom(897, 100, 1000)).toBe(true);
    expect(isAtBottom(880, 100, 1000)).toBe(false);
  });
});
