// The CEL abstract syntax tree. Every node carries its source span (offset, length); line and column are
// derived from the source (see Source).

import type { CelValue } from './values.js';

interface Base {
  id: number;
  /** Offset (UTF-16 index) of the node's anchor in the source: the operator for calls, the start otherwise. */
  offset: number;
  /** Length of the node's span from offset. */
  length: number;
}

export interface LiteralExpr extends Base {
  kind: 'literal';
  value: CelValue;
}
export interface IdentExpr extends Base {
  kind: 'ident';
  name: string;
}
export interface SelectExpr extends Base {
  kind: 'select';
  operand: Expr;
  field: string;
  /** `has(a.b)` presence test. */
  testOnly?: boolean;
  /** `a.?b` optional selection. */
  optional?: boolean;
}
export interface CallExpr extends Base {
  kind: 'call';
  fn: string;
  target?: Expr;
  args: Expr[];
}
export interface ListExpr extends Base {
  kind: 'list';
  elems: Expr[];
  /** Indices of `?e` optional elements. */
  optionalIndices: number[];
}
export interface MapEntry {
  key: Expr;
  value: Expr;
  optional: boolean;
  offset: number;
}
export interface MapExpr extends Base {
  kind: 'map';
  entries: MapEntry[];
}
export interface StructField {
  name: string;
  value: Expr;
  optional: boolean;
  offset: number;
}
export interface StructExpr extends Base {
  kind: 'struct';
  typeName: string;
  fields: StructField[];
}
export interface ComprehensionExpr extends Base {
  kind: 'comprehension';
  iterVar: string;
  /** Second iteration variable of two-variable comprehensions (then iterVar is the index/key). */
  iterVar2?: string;
  iterRange: Expr;
  accuVar: string;
  accuInit: Expr;
  loopCond: Expr;
  loopStep: Expr;
  result: Expr;
  /** Macro it came from, for messages and costs. */
  macro?: string;
}

export type Expr = LiteralExpr | IdentExpr | SelectExpr | CallExpr | ListExpr | MapExpr | StructExpr | ComprehensionExpr;

/** cel-go's accumulator variable name of macro comprehensions (parser.AccumulatorName). */
export const ACCU_VAR = '__result__';

/** Source text with a line index for offset -> line/column. */
export class Source {
  #starts?: number[];
  constructor(readonly text: string, readonly description = '<input>') {}
  get #lineStarts(): number[] {
    if (!this.#starts) {
      this.#starts = [0];
      for (let i = 0; i < this.text.length; i++) if (this.text[i] === '\n') this.#starts.push(i + 1);
    }
    return this.#starts;
  }
  /** 1-based line, 1-based column (in code points, as cel-go counts). */
  location(offset: number): { line: number; column: number } {
    let lo = 0, hi = this.#lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.#lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    const start = this.#lineStarts[lo];
    let col = 0;
    for (let i = start; i < offset && i < this.text.length; i++) {
      const c = this.text.charCodeAt(i);
      if (c < 0xdc00 || c > 0xdfff) col++;
    }
    return { line: lo + 1, column: col + 1 };
  }
  lineText(line: number): string {
    const s = this.#lineStarts[line - 1] ?? 0;
    const e = this.#lineStarts[line] ?? this.text.length + 1;
    return this.text.slice(s, e - 1 >= s ? e - 1 : s).replace(/\n$/, '');
  }
}

export interface CelPosition {
  line: number;
  column: number;
  offset: number;
  length: number;
}

export interface CelIssue {
  /** Bare message, e.g. `found no matching overload for '_+_' applied to '(string, int)'`. */
  message: string;
  position: CelPosition;
  /** cel-go's formatted form: `ERROR: <input>:1:6: message` followed by the source line and a caret. */
  formatted: string;
}

export function makeIssue(src: Source, offset: number, length: number, message: string): CelIssue {
  const { line, column } = src.location(offset);
  const lineText = src.lineText(line);
  const caret = ' '.repeat(Math.max(0, column - 1)).replace(/ /g, '.') + '^';
  const formatted = `ERROR: ${src.description}:${line}:${column}: ${message}\n | ${lineText}\n | ${caret}`;
  return { message, position: { line, column, offset, length }, formatted };
}
