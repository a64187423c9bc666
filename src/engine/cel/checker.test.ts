// Result types compared with cel-go's checker, as recorded in @bufbuild/cel-spec's checking suite (the
// expressions that need no declarations: the others reference cel-go test variables and protobuf types).
import { describe, expect, it } from 'vitest';
import { tests } from '@bufbuild/cel-spec/testdata/checking.js';
import { createCelEnv, isCompileError } from './env.js';
import { typeName } from './types.js';

interface C { original: { expr: string }; type?: string }
interface S { tests?: C[]; suites?: S[] }

describe('checked result types as cel-go deduces them', () => {
  const env = createCelEnv({ version: '1.34', homogeneousAggregateLiterals: false, validateLiterals: false });
  const cases: C[] = [];
  const walk = (s: S) => {
    for (const t of s.tests ?? []) {
      if (!t.type) continue;
      const p = env.compile(t.original.expr);
      // declaration-dependent cases (cel-go test variables, protobuf messages) are out of scope
      if (isCompileError(p) && /undeclared|TestAllTypes/.test(p.message)) continue;
      cases.push(t);
    }
    for (const ss of s.suites ?? []) walk(ss);
  };
  walk(tests as S);

  it('covers the declaration-free cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
  });
  it.each(cases.map((c) => [c.original.expr, c.type!] as const))('%s : %s', (expr, want) => {
    const p = env.compile(expr);
    if (isCompileError(p)) throw new Error(p.formatted);
    expect(typeName(p.resultType)).toBe(want);
  });
});
