// The CEL CLI under deep input: an error line and an exit code, never a stack overflow.
import { describe, expect, it } from 'vitest';
import { runCli } from './cel.js';

const deepList = (d: number) => '['.repeat(d) + ']'.repeat(d);

describe('npm run cel: nesting budget', () => {
  it('a deeply nested expression is a compile error (exit 1)', () => {
    for (const expr of [deepList(10_000), Array(10_000).fill('1').join('+'), '!'.repeat(9_999) + 'true']) {
      const { lines, code } = runCli(['--expr', expr], () => '');
      const out = JSON.parse(lines[0]);
      if (expr.startsWith('!')) {
        expect(out).toMatchObject({ value: false, type: 'bool' });
        expect(code).toBe(0);
        continue;
      }
      expect(code).toBe(1);
      expect(out.error.kind).toBe('compile');
      expect(out.error.message).toMatch(/^expression (recursion|nesting) limit exceeded: \d+$/);
    }
  });

  it('deeply nested variables in a batch are an error line each, and the batch goes on', () => {
    const stdin = [100, 100_000].map((d) => `{"expr": "size(x) >= 0", "vars": {"x": ${deepList(d)}}}`).join('\n');
    const { lines, code } = runCli(['--batch'], () => stdin);
    expect(code).toBe(0);
    expect(JSON.parse(lines[0])).toMatchObject({ value: true, type: 'bool' });
    expect(JSON.parse(lines[1])).toEqual({ error: { kind: 'usage', message: 'variable x nests deeper than 1000 levels' } });
  });
});
