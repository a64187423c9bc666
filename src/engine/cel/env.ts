// The CEL environment of the API server: createCelEnv({ version, variables }) -> compile -> evaluate.

import type { CelIssue, Expr } from './ast.js';
import { Source, makeIssue } from './ast.js';
import { Checker, dottedRoots, type CheckResult } from './checker.js';
import { estimateCost, type CostEstimate } from './cost.js';
import { fromJson } from './convert.js';
import type { FunctionTable } from './interpreter.js';
import { BUILTIN_TYPE_VALUES, Compiler, type Ctx } from './interpreter.js';
import type { CelFunctionDecl, CelLibrary, CelOverload } from './library.js';
import { parse } from './parser.js';
import { validateAst } from './validators.js';
import { stdlib } from './stdlib.js';
import type { CelType, CelVersion } from './types.js';
import { T, typeName, versionAtLeast } from './types.js';
import type { CelValue } from './values.js';
import { CelCostLimitError, CelError, CelTypeValue } from './values.js';
import { kubernetesLibraries } from './lib/index.js';

/** Kubernetes' per-expression runtime cost limit. */
export const PER_CALL_LIMIT = 1_000_000;
/** Kubernetes' per-expression static cost estimate limit (CRD validation rules). */
export const PER_EXPRESSION_ESTIMATE_LIMIT = 10_000_000;

export interface CelEnvOptions {
  /** Compatibility version (default '1.33'). */
  version?: CelVersion;
  /** Declared variables with their types. */
  variables?: Record<string, CelType>;
  /** Extra libraries (in addition to the standard and the Kubernetes libraries). */
  libraries?: CelLibrary[];
  /** Runtime cost limit (default 1,000,000). */
  costLimit?: number;
  /** Mixed-type list/map literals are compile errors (default true, as in Kubernetes). */
  homogeneousAggregateLiterals?: boolean;
  /** Reject invalid literal arguments of duration(), timestamp() and matches() at compile time (default true, as Kubernetes). */
  validateLiterals?: boolean;
  /** Accept backtick-quoted field names (off in Kubernetes 1.33; the conformance suite uses them). */
  identEscapeSyntax?: boolean;
  /** Skip type checking (expressions are evaluated dynamically; only parse errors are reported). */
  disableCheck?: boolean;
}

export interface CelCompileError {
  kind: 'compile';
  issues: CelIssue[];
  /** First issue's bare message. */
  message: string;
  /** All issues in cel-go's formatted form, joined by newlines. */
  formatted: string;
  position: CelIssue['position'];
}

export interface CelRuntimeError {
  kind: 'runtime';
  message: string;
  formatted: string;
  position: CelIssue['position'];
  /** True when evaluation stopped on the runtime cost limit. */
  costLimitExceeded?: boolean;
  cost: number;
}

export interface CelResult {
  value: CelValue;
  /** Runtime type name of the value (`int`, `list`, `google.protobuf.Timestamp`...). */
  type: string;
  cost: number;
}

export interface CelProgram {
  readonly expression: string;
  readonly ast: Expr;
  /** Checked result type (dyn when unchecked). */
  readonly resultType: CelType;
  /** Evaluates with an activation of CEL values (see library.ts for the representation). */
  evaluate(activation?: Record<string, CelValue>, opts?: { costLimit?: number }): CelResult | CelRuntimeError;
  /** Same with plain JSON data converted by the declared variable types. */
  evaluateJson(activation?: Record<string, unknown>, opts?: { costLimit?: number }): CelResult | CelRuntimeError;
  /** Static cost estimate (cel-go checker estimator with schema size bounds). */
  estimateCost(): CostEstimate;
}

export interface CelEnv {
  readonly version: CelVersion;
  compile(expr: string): CelProgram | CelCompileError;
  /** Parses and checks only. */
  check(expr: string): CheckResult | CelCompileError;
  estimateCost(expr: string): CostEstimate | CelCompileError;
  extend(opts: Omit<CelEnvOptions, 'version'>): CelEnv;
  readonly variables: Record<string, CelType>;
  readonly functions: FunctionTable;
}

export function isCompileError(x: unknown): x is CelCompileError {
  return !!x && typeof x === 'object' && (x as CelCompileError).kind === 'compile';
}
export function isRuntimeError(x: unknown): x is CelRuntimeError {
  return !!x && typeof x === 'object' && (x as CelRuntimeError).kind === 'runtime';
}

function buildFunctionTable(libs: CelLibrary[], version: CelVersion): FunctionTable {
  const global = new Map<string, CelOverload[]>();
  const member = new Map<string, CelOverload[]>();
  for (const lib of libs) {
    if (!versionAtLeast(version, lib.minVersion)) continue;
    if (lib.maxVersion && !versionAtLeast(lib.maxVersion, version)) continue;
    for (const fn of lib.functions as CelFunctionDecl[]) {
      if (!versionAtLeast(version, fn.minVersion)) continue;
      for (const o of fn.overloads) {
        if (!versionAtLeast(version, o.minVersion)) continue;
        if (o.maxVersion && !versionAtLeast(o.maxVersion, version)) continue;
        const table = o.member ? member : global;
        let list = table.get(fn.name);
        if (!list) table.set(fn.name, (list = []));
        // a later library overrides an overload with the same id
        const i = list.findIndex((x) => x.id === o.id);
        if (i >= 0) list[i] = o;
        else list.push(o);
      }
    }
  }
  return { global, member };
}

function compileError(issues: CelIssue[]): CelCompileError {
  return {
    kind: 'compile',
    issues,
    message: issues[0].message,
    formatted: issues.map((i) => i.formatted).join('\n'),
    position: issues[0].position,
  };
}

// Function tables of the standard environment per version (environments are created often, e.g. one per
// schema node with validation rules).
const baseLibraries: CelLibrary[] = [stdlib(), ...(kubernetesLibraries as CelLibrary[])];
const baseTables = new Map<CelVersion, FunctionTable>();

export function createCelEnv(opts: CelEnvOptions = {}): CelEnv {
  const version = opts.version ?? '1.33';
  const libs: CelLibrary[] = [...baseLibraries, ...(opts.libraries ?? [])];
  let functions: FunctionTable;
  if (opts.libraries?.length) functions = buildFunctionTable(libs, version);
  else {
    let t = baseTables.get(version);
    if (!t) baseTables.set(version, (t = buildFunctionTable(libs, version)));
    functions = t;
  }
  const variables = { ...(opts.variables ?? {}) };
  const typeValues = new Map<string, CelTypeValue>();
  for (const [n, t] of BUILTIN_TYPE_VALUES) typeValues.set(n, new CelTypeValue(n, t));
  const constants = new Map<string, CelValue>();
  for (const lib of libs) {
    if (!versionAtLeast(version, lib.minVersion)) continue;
    for (const t of lib.types ?? []) typeValues.set(typeName(t), new CelTypeValue(typeName(t), t));
    for (const c of lib.constants ?? []) constants.set(c.name, c.value);
  }
  // the declared names and the first segments of the dotted ones, once per environment (not per compile)
  const varNames = new Set(Object.keys(variables));
  const roots = dottedRoots(variables, typeValues);
  const limit = opts.costLimit ?? PER_CALL_LIMIT;
  const optionalSyntax = versionAtLeast(version, '1.29');
  const parseOpts = { optionalSyntax, twoVarComprehensions: versionAtLeast(version, '1.33'), identEscapeSyntax: !!opts.identEscapeSyntax };

  const checkExpr = (expr: string): { ast: Expr; check?: CheckResult; source: Source } | CelCompileError => {
    const pr = parse(expr, parseOpts);
    if (!pr.expr) return compileError(pr.errors);
    if (opts.disableCheck) return { ast: pr.expr, source: pr.source };
    // mixed literal element types join to dyn in the checker; the validators reject them afterwards
    const checker = new Checker({ variables, functions, typeValues, version, source: pr.source, homogeneousAggregateLiterals: false, roots, nodes: pr.nextId });
    try {
      const res = checker.check(pr.expr);
      if (res.issues.length) return compileError(res.issues);
      // the validators look at literals and a few calls: a tree without any has nothing to report
      const invalid = !pr.validate ? [] : validateAst(pr.expr, res, pr.source, {
        homogeneous: opts.homogeneousAggregateLiterals ?? true,
        literals: opts.validateLiterals ?? true,
        format: functions.member.has('format'),
      }, pr.marks);
      if (invalid.length) return compileError(invalid);
      return { ast: pr.expr, check: res, source: pr.source };
    } catch (e) {
      // the parser bounds the tree's depth (parser.ts MAX_AST_DEPTH); should a host's stack still be too
      // small, the expression is refused as too deep, never thrown to the caller
      if (e instanceof RangeError) return compileError([makeIssue(pr.source, 0, 0, `expression nesting limit exceeded: ${e.message}`)]);
      throw e;
    }
  };

  const env: CelEnv = {
    version,
    variables,
    functions,
    check(expr) {
      const r = checkExpr(expr);
      if (isCompileError(r)) return r;
      return r.check ?? { type: T.dyn, issues: [], types: [], overloads: [] };
    },
    estimateCost(expr) {
      const p = env.compile(expr);
      if (isCompileError(p)) return p;
      return p.estimateCost();
    },
    extend(more) {
      return createCelEnv({
        ...opts,
        ...more,
        version,
        variables: { ...variables, ...(more.variables ?? {}) },
        libraries: [...(opts.libraries ?? []), ...(more.libraries ?? [])],
      });
    },
    compile(expr) {
      const r = checkExpr(expr);
      if (isCompileError(r)) return r;
      // the parse's source (its line index is made on first use, by an error's position)
      const { ast, check, source } = r;
      const compiled = new Compiler({ variables: varNames, typeValues, functions, overloadsByNode: check?.overloads, chosen: check?.chosen, chosenFrom: check?.chosenFrom, types: check?.types, constants, variableTypes: check ? variables : undefined, roots }).compile(ast);
      const slotTypes = new Array<CelType | undefined>(compiled.slotCount);
      const slotVars = new Array<string>(compiled.slotOf.size);
      const slotIdx = new Array<number>(compiled.slotOf.size);
      let v = 0;
      for (const [name, slot] of compiled.slotOf) {
        slotTypes[slot] = variables[name];
        slotVars[v] = name;
        slotIdx[v++] = slot;
      }
      if (compiled.localTypes) for (const [slot, t] of compiled.localTypes) slotTypes[slot] = t;
      return new Program(expr, ast, check?.type ?? T.dyn, check, functions, compiled.ev, compiled.slotCount, slotTypes, slotVars, slotIdx, source, variables, limit);
    },
  };
  return env;
}

/**
 * A compiled expression. One object per compile with its methods on the prototype (no closures made per
 * compile); evaluation reads its fields.
 */
class Program implements CelProgram {
  #estimate: CostEstimate | undefined;
  constructor(
    readonly expression: string,
    readonly ast: Expr,
    readonly resultType: CelType,
    private readonly check: CheckResult | undefined,
    private readonly functions: FunctionTable,
    private readonly ev: (ctx: Ctx) => CelValue,
    private readonly slotCount: number,
    private readonly slotTypes: (CelType | undefined)[],
    private readonly slotVars: string[],
    private readonly slotIdx: number[],
    private readonly source: Source,
    private readonly variables: Record<string, CelType>,
    private readonly limit: number,
  ) {}

  evaluate(activation: Record<string, CelValue> = {}, o?: { costLimit?: number }): CelResult | CelRuntimeError {
    return this.#run(activation, o?.costLimit ?? this.limit, false);
  }
  evaluateJson(activation: Record<string, unknown> = {}, o?: { costLimit?: number }): CelResult | CelRuntimeError {
    return this.#run(activation, o?.costLimit ?? this.limit, true);
  }
  estimateCost(): CostEstimate {
    this.#estimate ??= estimateCost(this.ast, this.check, this.functions);
    return this.#estimate;
  }

  #run(activation: Record<string, unknown>, costLimit: number, json: boolean): CelResult | CelRuntimeError {
    const slotCount = this.slotCount, slotVars = this.slotVars, slotIdx = this.slotIdx;
    const ctx: Ctx = { slots: new Array(slotCount), raw: undefined, rawTypes: this.slotTypes, cost: 0, limit: costLimit };
    for (let i = 0; i < slotVars.length; i++) {
      const name = slotVars[i];
      const slot = slotIdx[i];
      const v = activation[name];
      if (v === undefined) continue;
      if (json) {
        // plain JSON objects go to the direct field chains (interpreter.ts jsonChain) and are converted
        // when first loaded whole; other values now
        if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
          const p = Object.getPrototypeOf(v);
          if (p === Object.prototype || p === null) {
            (ctx.raw ??= new Array(slotCount))[slot] = v;
            continue;
          }
        }
        ctx.slots[slot] = fromJson(v, this.variables[name]);
      } else ctx.slots[slot] = v as CelValue;
    }
    try {
      const value = this.ev(ctx);
      return { value, type: runtimeTypeNameOf(value), cost: ctx.cost };
    } catch (e) {
      const source = this.source;
      if (e instanceof CelCostLimitError) {
        const issue = makeIssue(source, 0, 0, e.message);
        return { kind: 'runtime', message: e.message, formatted: issue.formatted, position: issue.position, costLimitExceeded: true, cost: ctx.cost };
      }
      if (e instanceof CelError) {
        const issue = makeIssue(source, e.offset ?? 0, e.length ?? 0, e.message);
        return { kind: 'runtime', message: e.message, formatted: issue.formatted, position: issue.position, cost: ctx.cost };
      }
      // deep recursion in the host or a failing library function: reported, never thrown to the caller
      const message = e instanceof RangeError ? e.message : `internal error: ${e instanceof Error ? e.message : String(e)}`;
      const issue = makeIssue(source, 0, 0, message);
      return { kind: 'runtime', message, formatted: issue.formatted, position: issue.position, cost: ctx.cost };
    }
  }
}

import { valueTypeName } from './values.js';
function runtimeTypeNameOf(v: CelValue): string {
  return valueTypeName(v);
}
