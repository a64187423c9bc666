import { describe, expect, it } from 'vitest';
import { diffLines, diffStats, splitLines } from './diff.js';

const ops = (a: string, b: string) =>
  diffLines(splitLines(a), splitLines(b)).map((l) => `${l.op === 'same' ? ' ' : l.op === 'add' ? '+' : '-'}${l.text}`);

describe('diffLines', () => {
  it('shows a changed line as a deletion then an insertion', () => {
    expect(ops('a\nb\nc\n', 'a\nB\nc\n')).toEqual([' a', '-b', '+B', ' c']);
  });
  it('handles pure insertions and deletions at the ends', () => {
    expect(ops('', 'x\ny\n')).toEqual(['+x', '+y']);
    expect(ops('x\ny\n', '')).toEqual(['-x', '-y']);
    expect(ops('a\nb\n', 'a\nb\nc\n')).toEqual([' a', ' b', '+c']);
    expect(ops('z\na\nb\n', 'a\nb\n')).toEqual(['-z', ' a', ' b']);
  });
  it('finds a minimal script and numbers the lines', () => {
    const d = diffLines(['a', 'b', 'c', 'a', 'b', 'b', 'a'], ['c', 'b', 'a', 'b', 'a', 'c']);
    expect(diffStats(d)).toEqual({ added: 2, removed: 3 });
    // Applying the script gives the new text back.
    expect(d.filter((l) => l.op !== 'del').map((l) => l.text)).toEqual(['c', 'b', 'a', 'b', 'a', 'c']);
    expect(d.filter((l) => l.op !== 'add').map((l) => l.text)).toEqual(['a', 'b', 'c', 'a', 'b', 'b', 'a']);
    const same = d.filter((l) => l.op === 'same');
    for (const l of same) expect(l.oldLine! > 0 && l.newLine! > 0).toBe(true);
  });
  it('identical texts are all context', () => {
    expect(ops('a\nb\n', 'a\nb\n')).toEqual([' a', ' b']);
  });
});

describe('diffLines fallback', () => {
  it('gives up on a minimal script past maxEdits', () => {
    expect(diffLines(['a', 'b'], ['c', 'd'], 1).map((l) => l.op + l.text)).toEqual(['dela', 'delb', 'addc', 'addd']);
  });
});
