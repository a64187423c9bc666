// Static cost estimation as cel-go's checker estimator computes it, with the size bounds Kubernetes takes
// from schemas (maxLength, maxItems, maxProperties; otherwise what fits in a request). Presence tests
// (has) cost 0, as Kubernetes configures it.

import type { CallExpr, ComprehensionExpr, Expr } from './ast.js';
import type { CheckResult } from './checker.js';
import type { FunctionTable } from './interpreter.js';
import type { CelOverload, SizeEstimate } from './library.js';
import type { CelType } from './types.js';
import { CelMap } from './values.js';

export interface CostEstimate {
  min: number;
  max: number;
}

/** cel-go's "unbounded" (math.MaxUint64), as a JS number. */
export const MAX_COST = 18446744073709551615;

const UNKNOWN_SIZE: SizeEstimate = { min: 0, max: MAX_COST };

function add(a: CostEstimate, b: CostEstimate): CostEstimate {
  return { min: sat(a.min + b.min), max: sat(a.max + b.max) };
}
function sat(n: number): number {
  return n > MAX_COST ? MAX_COST : n;
}
function mul(size: SizeEstimate, c: CostEstimate): CostEstimate {
  return { min: sat(size.min * c.min), max: sat(size.max * c.max) };
}

class Estimator {
  #sizes = new Map<number, SizeEstimate>();
  #iterSizes = new Map<string, SizeEstimate[]>();
  readonly #check: CheckResult | undefined;
  readonly #fns: FunctionTable;
  constructor(check: CheckResult | undefined, fns: FunctionTable) {
    this.#check = check;
    this.#fns = fns;
  }

  #typeOf(e: Expr): CelType | undefined {
    return this.#check?.types[e.id];
  }

  size(e: Expr): SizeEstimate {
    const s = this.#sizes.get(e.id);
    if (s) return s;
    if (e.kind === 'literal') {
      const v = e.value;
      if (typeof v === 'string') {
        const n = [...v].length;
        return { min: n, max: n };
      }
      if (v instanceof Uint8Array) return { min: v.length, max: v.length };
      return { min: 1, max: 1 };
    }
    if (e.kind === 'list') return { min: e.elems.length, max: e.elems.length };
    if (e.kind === 'map') return { min: e.entries.length, max: e.entries.length };
    if (e.kind === 'ident') {
      const st = this.#iterSizes.get(e.name);
      if (st && st.length) return st[st.length - 1];
    }
    if (e.kind === 'select') {
      // Kubernetes resolves sizes by field path; a field-style selection on a map has no declared path
      const ot = this.#typeOf(e.operand);
      if (ot && ot.kind === 'map') return UNKNOWN_SIZE;
    }
    const t = this.#typeOf(e);
    if (t && 'maxSize' in t && t.maxSize !== undefined) return { min: 0, max: t.maxSize };
    if (t && (t.kind === 'int' || t.kind === 'uint' || t.kind === 'double' || t.kind === 'bool' || t.kind === 'null_type' || t.kind === 'timestamp' || t.kind === 'duration')) {
      return { min: 1, max: 1 };
    }
    return UNKNOWN_SIZE;
  }

  cost(e: Expr): CostEstimate {
    switch (e.kind) {
      case 'literal':
        return { min: 0, max: 0 };
      case 'ident':
        return { min: 1, max: 1 };
      case 'select': {
        const op = this.cost(e.operand);
        if (e.testOnly) return op;
        // cel-go charges a select only on map, object and type-parameter operands (not on dyn)
        const ot = this.#typeOf(e.operand);
        if (!this.#check || (ot && (ot.kind === 'map' || ot.kind === 'object' || ot.kind === 'param'))) return add(op, { min: 1, max: 1 });
        return op;
      }
      case 'list':
        return e.elems.reduce((acc, x) => add(acc, this.cost(x)), { min: 10, max: 10 });
      case 'map':
        return e.entries.reduce((acc, en) => add(add(acc, this.cost(en.key)), this.cost(en.value)), { min: 30, max: 30 });
      case 'struct':
        return e.fields.reduce((acc, f) => add(acc, this.cost(f.value)), { min: 40, max: 40 });
      case 'comprehension':
        return this.#comprehension(e);
      case 'call':
        return this.#call(e);
    }
  }

  #comprehension(e: ComprehensionExpr): CostEstimate {
    let sum = add(this.cost(e.iterRange), this.cost(e.accuInit));
    const range = this.size(e.iterRange);
    // iteration variables take the element size of the range's type
    const rt = this.#typeOf(e.iterRange);
    let elemSize: SizeEstimate = UNKNOWN_SIZE;
    if (rt && rt.kind === 'list') elemSize = sizeOfType(rt.elem);
    else if (rt && rt.kind === 'map') elemSize = sizeOfType(rt.key);
    const push = (n: string, s: SizeEstimate) => {
      if (!this.#iterSizes.has(n)) this.#iterSizes.set(n, []);
      this.#iterSizes.get(n)!.push(s);
    };
    push(e.iterVar, e.iterVar2 && rt?.kind === 'list' ? { min: 1, max: 1 } : elemSize);
    if (e.iterVar2) push(e.iterVar2, rt && rt.kind === 'list' ? sizeOfType(rt.elem) : rt && rt.kind === 'map' ? sizeOfType(rt.value) : UNKNOWN_SIZE);
    const loop = this.cost(e.loopCond);
    const step = this.cost(e.loopStep);
    this.#iterSizes.get(e.iterVar)!.pop();
    if (e.iterVar2) this.#iterSizes.get(e.iterVar2)!.pop();
    sum = add(sum, this.cost(e.result));
    this.#sizes.set(e.id, range);
    return add(sum, mul(range, add(step, loop)));
  }

  #call(e: CallExpr): CostEstimate {
    const args = e.target ? [e.target, ...e.args] : e.args;
    switch (e.fn) {
      case '_&&_':
      case '_||_': {
        const l = this.cost(e.args[0]);
        const r = this.cost(e.args[1]);
        return { min: l.min, max: sat(l.max + r.max) };
      }
      case '_?_:_': {
        const c = this.cost(e.args[0]);
        const a = this.cost(e.args[1]);
        const b = this.cost(e.args[2]);
        return { min: sat(c.min + Math.min(a.min, b.min)), max: sat(c.max + Math.max(a.max, b.max)) };
      }
    }
    let sum: CostEstimate = { min: 0, max: 0 };
    for (const a of args) sum = add(sum, this.cost(a));
    const sizes = args.map((a) => this.size(a));
    const ovs = this.#overloadsOf(e);
    let call: CostEstimate | undefined;
    let resultSize: SizeEstimate | undefined;
    for (const o of ovs) {
      const c = o.estimate ? o.estimate(sizes) : { min: 1, max: 1 };
      call = call ? { min: Math.min(call.min, c.min), max: Math.max(call.max, c.max) } : c;
      if (o.resultSize) {
        const rs = o.resultSize(sizes);
        resultSize = resultSize ? { min: Math.min(resultSize.min, rs.min), max: Math.max(resultSize.max, rs.max) } : rs;
      }
    }
    if (resultSize) this.#sizes.set(e.id, { min: sat(resultSize.min), max: sat(resultSize.max) });
    if (e.fn === '@in' && ovs.length === 0) call = { min: sizes[1].min, max: sizes[1].max };
    return add(sum, call ?? { min: 1, max: 1 });
  }

  #overloadsOf(e: CallExpr): CelOverload[] {
    const ids = this.#check?.overloads[e.id];
    const all = [...(this.#fns.global.get(e.fn) ?? []), ...(this.#fns.member.get(e.fn) ?? [])];
    if (e.target) {
      // qualified global names (optional.of)
      const q = qualified(e.target);
      if (q) all.push(...(this.#fns.global.get(`${q}.${e.fn}`) ?? []));
    }
    return ids ? all.filter((o) => ids.includes(o.id)) : [];
  }
}

function qualified(e: Expr): string | undefined {
  if (e.kind === 'ident') return e.name;
  if (e.kind === 'select' && !e.testOnly) {
    const p = qualified(e.operand);
    return p === undefined ? undefined : `${p}.${e.field}`;
  }
  return undefined;
}

function sizeOfType(t: CelType): SizeEstimate {
  if ('maxSize' in t && t.maxSize !== undefined) return { min: 0, max: t.maxSize };
  if (['int', 'uint', 'double', 'bool', 'null_type', 'timestamp', 'duration'].includes(t.kind)) return { min: 1, max: 1 };
  return UNKNOWN_SIZE;
}

/** Static cost range of a checked expression. */
export function estimateCost(e: Expr, check: CheckResult | undefined, fns: FunctionTable): CostEstimate {
  return new Estimator(check, fns).cost(e);
}

export { CelMap };
