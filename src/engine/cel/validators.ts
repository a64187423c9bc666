// Checks run on the type-checked AST, as the Kubernetes environment configures cel-go's extended
// validations: literal arguments of duration(), timestamp() and matches() must be valid, and list/map
// literals must be homogeneous (element types equivalent, dyn included), except inside string format calls.

import type { CelIssue, Expr, Source } from './ast.js';
import { makeIssue } from './ast.js';
import type { CheckResult } from './checker.js';
import { compileRe2 } from './regex.js';
import { checkTimestamp, parseDuration, parseTimestamp } from './time.js';
import type { CelType } from './types.js';
import { typeEquals, typeName } from './types.js';
import { checkFormatCall, type FormatArgType } from './lib/index.js';

/** Functions whose (nested) literal arguments may mix element types: the strings library's format. */
const HOMOGENEOUS_EXEMPT = new Set(['format']);

type ValidateOptions = { homogeneous: boolean; literals: boolean; format?: boolean };

/**
 * The validators' issues for the tree `e`. With `marks` (the parse's ParseResult.marks: every literal and
 * call the walk below reports on, in a tree without a call of format) those nodes are looked at first, and
 * the tree is walked only when one of them has something to report (the walk then gives the issues, in its
 * order); a tree whose marked nodes are valid has no issue.
 */
export function validateAst(e: Expr, check: CheckResult, src: Source, opts: ValidateOptions, marks?: Expr[]): CelIssue[] {
  const issues: CelIssue[] = [];
  const report = (node: Expr, msg: string) => issues.push(makeIssue(src, node.offset, node.length, msg));
  const typeOf = (n: Expr): CelType | undefined => check.types[n.id];

  const literalArg = (fn: string, arg: Expr) => {
    if (arg.kind !== 'literal' || !opts.literals) return;
    const v = arg.value;
    try {
      if (fn === 'duration' && typeof v === 'string') parseDuration(v);
      else if (fn === 'timestamp' && typeof v === 'string') parseTimestamp(v);
      else if (fn === 'timestamp' && typeof v === 'bigint') checkTimestamp(v * 1_000_000_000n);
      else if (fn === 'matches' && typeof v === 'string') compileRe2(v);
      else return;
    } catch {
      report(arg, `invalid ${fn} argument`);
    }
  };

  const homogeneous = (elems: Expr[], optional: (i: number) => boolean) => {
    let first: CelType | undefined;
    for (let i = 0; i < elems.length; i++) {
      let t = typeOf(elems[i]);
      if (!t) continue;
      if (optional(i) && t.kind === 'optional') t = t.param;
      if (!first) {
        first = t;
        continue;
      }
      if (!equivalent(first, t)) {
        report(elems[i], `expected type '${typeName(first)}' but found '${typeName(t)}'`);
        return;
      }
    }
  };

  /** What a node itself has to report (its children aside). */
  const visit = (n: Expr, exempt: boolean) => {
    if (n.kind === 'call') {
      if ((n.fn === 'duration' || n.fn === 'timestamp') && !n.target && n.args.length === 1) literalArg(n.fn, n.args[0]);
      if (n.fn === 'matches' && n.args.length >= 1) literalArg('matches', n.target ? n.args[0] : n.args[1] ?? n.args[0]);
      // cel-go's string format validator: a literal format string with a list literal of arguments
      if (opts.format && n.fn === 'format' && n.target?.kind === 'literal' && typeof n.target.value === 'string' && n.args.length === 1 && n.args[0].kind === 'list') {
        const argTypes = n.args[0].elems.map((x) => (typeOf(x) ?? { kind: 'dyn' }) as FormatArgType);
        const msg = checkFormatCall(n.target.value, argTypes);
        if (msg) report(n, msg);
      }
    } else if (n.kind === 'list') {
      if (opts.homogeneous && !exempt) {
        const opt = n.optionalIndices.length ? new Set(n.optionalIndices) : undefined;
        homogeneous(n.elems, (i) => opt !== undefined && opt.has(i));
      }
    } else if (n.kind === 'map' && opts.homogeneous && !exempt) {
      homogeneous(n.entries.map((en) => en.key), () => false);
      homogeneous(n.entries.map((en) => en.value), (i) => n.entries[i].optional);
    }
  };

  // the marked nodes first (see the doc comment): the walk only when one of them reports
  if (marks !== undefined) {
    for (const n of marks) visit(n, false);
    if (!issues.length) return issues;
    issues.length = 0;
  }

  const walk = (n: Expr, exempt: boolean) => {
    visit(n, exempt);
    switch (n.kind) {
      case 'literal':
      case 'ident':
        return;
      case 'select':
        walk(n.operand, exempt);
        return;
      case 'call': {
        const inFormat = exempt || HOMOGENEOUS_EXEMPT.has(n.fn);
        if (n.target) walk(n.target, inFormat);
        for (const a of n.args) walk(a, inFormat);
        return;
      }
      case 'list': {
        for (const x of n.elems) walk(x, exempt);
        return;
      }
      case 'map': {
        for (const en of n.entries) {
          walk(en.key, exempt);
          walk(en.value, exempt);
        }
        return;
      }
      case 'struct':
        for (const f of n.fields) walk(f.value, exempt);
        return;
      case 'comprehension':
        walk(n.iterRange, exempt);
        walk(n.accuInit, exempt);
        walk(n.loopCond, exempt);
        walk(n.loopStep, exempt);
        walk(n.result, exempt);
        return;
    }
  };
  walk(e, false);
  return issues.sort((a, b) => a.position.offset - b.position.offset);
}

// cel-go's Type.IsEquivalentType: same kind and equivalent parameters (dyn only equals dyn).
function equivalent(a: CelType, b: CelType): boolean {
  return typeEquals(a, b);
}

