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
  if (marks !== undefined) {
    let ok = true;
    for (let i = 0; i < marks.length && ok; i++) ok = valid(marks[i], check, opts);
    if (ok) return [];
  }
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

  const walk = (n: Expr, exempt: boolean) => {
    switch (n.kind) {
      case 'literal':
      case 'ident':
        return;
      case 'select':
        walk(n.operand, exempt);
        return;
      case 'call': {
        const inFormat = exempt || HOMOGENEOUS_EXEMPT.has(n.fn);
        if ((n.fn === 'duration' || n.fn === 'timestamp') && !n.target && n.args.length === 1) literalArg(n.fn, n.args[0]);
        if (n.fn === 'matches' && n.args.length >= 1) literalArg('matches', n.target ? n.args[0] : n.args[1] ?? n.args[0]);
        // cel-go's string format validator: a literal format string with a list literal of arguments
        if (opts.format && n.fn === 'format' && n.target?.kind === 'literal' && typeof n.target.value === 'string' && n.args.length === 1 && n.args[0].kind === 'list') {
          const argTypes = n.args[0].elems.map((x) => (typeOf(x) ?? { kind: 'dyn' }) as FormatArgType);
          const msg = checkFormatCall(n.target.value, argTypes);
          if (msg) report(n, msg);
        }
        if (n.target) walk(n.target, inFormat);
        for (const a of n.args) walk(a, inFormat);
        return;
      }
      case 'list': {
        if (opts.homogeneous && !exempt) {
          const opt = n.optionalIndices.length ? new Set(n.optionalIndices) : undefined;
          homogeneous(n.elems, (i) => opt !== undefined && opt.has(i));
        }
        for (const x of n.elems) walk(x, exempt);
        return;
      }
      case 'map': {
        if (opts.homogeneous && !exempt) {
          homogeneous(n.entries.map((en) => en.key), () => false);
          homogeneous(n.entries.map((en) => en.value), (i) => n.entries[i].optional);
        }
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

/**
 * Whether the marked node `n` is valid (what the walk of validateAst reports on it outside format calls):
 * a literal argument of duration, timestamp or matches, the element types of a list or map literal.
 */
function valid(n: Expr, check: CheckResult, opts: ValidateOptions): boolean {
  switch (n.kind) {
    case 'call': {
      if (!opts.literals) return true;
      const fn = n.fn;
      const arg = (fn === 'duration' || fn === 'timestamp') && !n.target && n.args.length === 1 ? n.args[0]
        : fn === 'matches' && n.args.length >= 1 ? (n.target ? n.args[0] : n.args[1] ?? n.args[0]) : undefined;
      if (arg === undefined || arg.kind !== 'literal') return true;
      const v = arg.value;
      try {
        if (fn === 'duration' && typeof v === 'string') parseDuration(v);
        else if (fn === 'timestamp' && typeof v === 'string') parseTimestamp(v);
        else if (fn === 'timestamp' && typeof v === 'bigint') checkTimestamp(v * 1_000_000_000n);
        else if (fn === 'matches' && typeof v === 'string') compileRe2(v);
        return true;
      } catch {
        return false;
      }
    }
    case 'list':
      return !opts.homogeneous || sameTypes(n.elems, check, n.optionalIndices.length ? new Set(n.optionalIndices) : undefined);
    case 'map': {
      if (!opts.homogeneous) return true;
      const keys: Expr[] = [], values: Expr[] = [];
      const opt = new Set<number>();
      for (let i = 0; i < n.entries.length; i++) {
        keys.push(n.entries[i].key);
        values.push(n.entries[i].value);
        if (n.entries[i].optional) opt.add(i);
      }
      return sameTypes(keys, check, undefined) && sameTypes(values, check, opt);
    }
    default:
      return true;
  }
}

/** Whether the (typed) elements are all of a type equivalent to the first's, as `homogeneous` above checks. */
function sameTypes(elems: Expr[], check: CheckResult, optional: Set<number> | undefined): boolean {
  let first: CelType | undefined;
  for (let i = 0; i < elems.length; i++) {
    let t = check.types[elems[i].id];
    if (!t) continue;
    if (optional?.has(i) && t.kind === 'optional') t = t.param;
    if (!first) first = t;
    else if (!equivalent(first, t)) return false;
  }
  return true;
}
