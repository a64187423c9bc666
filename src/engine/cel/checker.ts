import type { CelIssue, Expr, Source } from './ast.js';
import type { FunctionTable } from './interpreter.js';
import type { CelType, CelVersion } from './types.js';
import { T } from './types.js';
import type { CelTypeValue } from './values.js';

export interface CheckResult {
  type: CelType;
  issues: CelIssue[];
  types: Map<number, CelType>;
  overloads: Map<number, string[]>;
}
export interface CheckerOptions {
  variables: Record<string, CelType>;
  functions: FunctionTable;
  typeValues: Map<string, CelTypeValue>;
  version: CelVersion;
  source: Source;
}
export class Checker {
  constructor(private readonly opts: CheckerOptions) {}
  check(_e: Expr): CheckResult {
    void this.opts;
    return { type: T.dyn, issues: [], types: new Map(), overloads: new Map() };
  }
}
