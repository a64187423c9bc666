import type { Expr } from './ast.js';
import type { CheckResult } from './checker.js';
import type { FunctionTable } from './interpreter.js';
export interface CostEstimate { min: number; max: number }
export function estimateCost(_e: Expr, _c: CheckResult | undefined, _f: FunctionTable): CostEstimate {
  return { min: 0, max: 0 };
}
