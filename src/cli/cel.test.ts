import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateExpression, runCli } from './cel.js';

describe('cel CLI', () => {
  it('prints value, type and cost', () => {
    const { lines, code } = runCli(['--expr', '[1, 2, 3].map(x, x * 2)'], () => '');
    expect(code).toBe(0);
    expect(JSON.parse(lines[0])).toEqual({ value: [2, 4, 6], type: 'list', cost: 63 });
  });

  it('prints compile errors with position', () => {
    const { lines, code } = runCli(['--expr', "'a' + 1"], () => '');
    expect(code).toBe(1);
    expect(JSON.parse(lines[0])).toEqual({
      error: {
        kind: 'compile',
        message: "found no matching overload for '_+_' applied to '(string, int)'",
        position: { line: 1, column: 5, offset: 4, length: 1 },
        formatted: "ERROR: <input>:1:5: found no matching overload for '_+_' applied to '(string, int)'\n | 'a' + 1\n | ....^",
      },
    });
  });

  it('prints runtime errors', () => {
    expect(evaluateExpression('1 / 0')).toEqual({
      error: { kind: 'runtime', message: 'division by zero', position: { line: 1, column: 3, offset: 2, length: 1 }, formatted: 'ERROR: <input>:1:3: division by zero\n | 1 / 0\n | ..^' },
    });
  });

  it('reads YAML variables as dyn (ints stay int, floats double)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'celcli-'));
    const file = join(dir, 'vars.yaml');
    writeFileSync(file, 'x: 5\ny: 2.5\nobj:\n  name: foo\n');
    const { lines } = runCli(['--expr', '[type(x) == int, type(y) == double, obj.name == "foo"]', '--vars', file], () => '');
    expect(JSON.parse(lines[0])).toMatchObject({ value: [true, true, true], type: 'list' });
    // mixed literal element types are compile errors in the Kubernetes environment
    const mixed = runCli(['--expr', '[1, x]', '--vars', file], () => '');
    expect(JSON.parse(mixed.lines[0]).error.message).toBe("expected type 'int' but found 'dyn'");
  });

  it('prints values JSON cannot hold in the documented forms', () => {
    expect(evaluateExpression('b"abc"')).toMatchObject({ value: 'YWJj', type: 'bytes' });
    expect(evaluateExpression('9223372036854775807')).toMatchObject({ value: '9223372036854775807', type: 'int' });
    expect(evaluateExpression('18446744073709551615u')).toMatchObject({ value: '18446744073709551615', type: 'uint' });
    expect(evaluateExpression('timestamp("2024-01-02T03:04:05.5Z")')).toMatchObject({ value: '2024-01-02T03:04:05.5Z', type: 'google.protobuf.Timestamp' });
    expect(evaluateExpression('duration("1500ms")')).toMatchObject({ value: '1.5s', type: 'google.protobuf.Duration' });
    expect(evaluateExpression('double("NaN")')).toMatchObject({ value: 'NaN', type: 'double' });
    expect(evaluateExpression('-1.0 / 0.0')).toMatchObject({ value: '-Inf', type: 'double' });
    expect(evaluateExpression('optional.of(1)')).toMatchObject({ value: { optional: 1 }, type: 'optional_type' });
  });

  it('honours --version', () => {
    const { lines } = runCli(['--expr', '[1].all(i, v, v > 0)', '--version', '1.32'], () => '');
    expect(JSON.parse(lines[0]).error.kind).toBe('compile');
    expect(JSON.parse(runCli(['--expr', '[1].all(i, v, v > 0)', '--version', '1.33'], () => '').lines[0])).toMatchObject({ value: true });
  });

  it('evaluates JSON lines in --batch mode', () => {
    const input = ['{"expr": "x + 1", "vars": {"x": 1}}', '', '{"expr": "nope"}', 'not json', '{"expr": "s.size()", "vars": {"s": "héllo"}}'].join('\n');
    const { lines } = runCli(['--batch'], () => input);
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      { value: 2, type: 'int', cost: 2 },
      { error: expect.objectContaining({ kind: 'compile', message: "undeclared reference to 'nope' (in container '')" }) },
      { error: expect.objectContaining({ kind: 'usage' }) },
      { value: 5, type: 'int', cost: 2 },
    ]);
  });
});
