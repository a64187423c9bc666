// Compile error texts compared with cel-go's, as recorded in @bufbuild/cel-spec's parsing suite (errors of
// a default cel-go environment). Only the first error is compared: cel-go's ANTLR parser recovers and
// reports further errors; this parser stops at the first syntax error.
import { describe, expect, it } from 'vitest';
import { tests } from '@bufbuild/cel-spec/testdata/parsing.js';
import { createCelEnv, isCompileError } from './env.js';

interface T { original: { expr: string }; error?: string }
interface S { tests?: T[]; suites?: S[] }

describe('compile errors as cel-go words them', () => {
  it('matches the first error of the parsing suite for most cases', () => {
    const env = createCelEnv({ version: '1.34', homogeneousAggregateLiterals: false });
    let total = 0;
    let same = 0;
    const misses: string[] = [];
    const walk = (s: S) => {
      for (const t of s.tests ?? []) {
        if (!t.error) continue;
        total++;
        const p = env.compile(t.original.expr);
        const got = isCompileError(p) ? p.formatted.split('\n').slice(0, 3).join('\n') : '(no error)';
        // the parser-only cases carry an empty source description
        const want = t.error.replace(/^ERROR: :/gm, 'ERROR: <input>:').split('\n').slice(0, 3).join('\n');
        if (got === want) same++;
        else misses.push(`${JSON.stringify(t.original.expr).slice(0, 80)}\n  want ${want.split('\n')[0]}\n  got  ${got.split('\n')[0]}`);
      }
      for (const ss of s.suites ?? []) walk(ss);
    };
    walk(tests as S);
    // the differing texts are listed on request only: a passing run prints no failure-like lines
    const listed = process.env.CEL_ERRORS_VERBOSE ? `\n${misses.join('\n')}` : ' (CEL_ERRORS_VERBOSE=1 lists the texts that differ)';
    console.log(`first compile error identical to cel-go: ${same}/${total}${listed}`);
    // the rest: ANTLR recovery wording (extraneous input...), recursion limits of test-only options,
    // optional syntax switched off, full-width carets
    expect(same).toBeGreaterThanOrEqual(130);
  });
});
