// Shared helpers for binding the pure library modules to the CEL core (library.ts): error wrapping,
// Kubernetes' cost arithmetic (k8s.io/apiserver/pkg/cel/library/cost.go) and overload builders.

import type { CelOverload, CelType, CostEstimate, SizeEstimate } from '../library.js';
import { CelError, CelMap, actualSize } from '../library.js';
import type { CelValue } from '../library.js';

/** cel-go common.StringTraversalCostFactor and RegexStringLengthCostFactor. */
export const STRING_TRAVERSAL = 0.1;
export const REGEX_LENGTH = 0.25;
/** cel-go's unbounded size/cost (math.MaxUint64) as a JS number. */
export const MAX_U64 = 18446744073709551615;

type Impl = (...args: CelValue[]) => CelValue;

/** Turns any library error (parse errors, range errors) into a CEL runtime error with the same message. */
export function guard(impl: Impl): Impl {
  return (...args) => {
    try {
      return impl(...args);
    } catch (e) {
      if (e instanceof CelError) throw e;
      if (e instanceof Error && !(e instanceof RangeError && /call stack/i.test(e.message))) throw new CelError(e.message);
      throw e;
    }
  };
}

export function ov(id: string, args: CelType[], result: CelType, impl: Impl, extra: Partial<CelOverload> = {}): CelOverload {
  return { id, args, result, impl: guard(impl), ...extra };
}

export function mem(id: string, args: CelType[], result: CelType, impl: Impl, extra: Partial<CelOverload> = {}): CelOverload {
  return { id, args, result, impl: guard(impl), member: true, ...extra };
}

const sat = (n: number) => (n > MAX_U64 ? MAX_U64 : n);

/** SizeEstimate.MultiplyByCostFactor: ceil(size * factor), unbounded stays unbounded. */
export function sizeTimes(s: SizeEstimate, factor: number): CostEstimate {
  return {
    min: s.min >= MAX_U64 ? MAX_U64 : Math.ceil(s.min * factor),
    max: s.max >= MAX_U64 ? MAX_U64 : Math.ceil(s.max * factor),
  };
}

export function costAdd(a: CostEstimate, b: CostEstimate): CostEstimate {
  return { min: sat(a.min + b.min), max: sat(a.max + b.max) };
}

export function costMul(a: CostEstimate, b: CostEstimate): CostEstimate {
  return { min: sat(a.min * b.min), max: sat(a.max * b.max) };
}

export const ONE: CostEstimate = { min: 1, max: 1 };
export const nominal = { cost: () => 1, estimate: () => ONE };

/** ceil(actualSize(v) * factor): the runtime cost of a string traversal. */
export function traversal(v: CelValue, factor = STRING_TRAVERSAL): number {
  return Math.ceil(actualSize(v) * factor);
}

function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** Kubernetes traversalCost: strings/bytes by byte length * 0.1 (truncated), containers recursively, 1 otherwise. */
export function traversalCost(v: CelValue): number {
  if (typeof v === 'string') return Math.floor(utf8Length(v) * STRING_TRAVERSAL);
  if (v instanceof Uint8Array) return Math.floor(v.length * STRING_TRAVERSAL);
  if (Array.isArray(v)) return v.reduce<number>((acc, x) => acc + traversalCost(x), 0);
  if (v instanceof CelMap) {
    let c = 0;
    for (const [k, x] of v.entries()) c += traversalCost(k) + traversalCost(x);
    return c;
  }
  return 1;
}
