// The CEL type checker: infers a type for every node, resolves overloads (with type parameters),
// enforces homogeneous aggregate literals, and reports errors with positions in cel-go's wording.

import type { CallExpr, CelIssue, ComprehensionExpr, Expr, Source } from './ast.js';
import { makeIssue } from './ast.js';
import type { FunctionTable } from './interpreter.js';
import type { CelOverload } from './library.js';
import type { CelType, CelVersion, ListType, TypeParam } from './types.js';
import { T, typeName } from './types.js';
import type { CelTypeValue } from './values.js';
import { CelUint } from './values.js';

export interface CheckResult {
  /** Type of the whole expression (type parameters left free become dyn). */
  type: CelType;
  issues: CelIssue[];
  /** Type per node id (indexed by id: an array is cheaper to fill per compile than a Map). */
  types: (CelType | undefined)[];
  /** Matching overload ids per call node id (indexed by id). */
  overloads: (string[] | undefined)[];
  /** The matching overloads themselves per call node id, and the overload list they were chosen from. */
  chosen?: (CelOverload[] | undefined)[];
  chosenFrom?: (CelOverload[] | undefined)[];
}

export interface CheckerOptions {
  variables: Record<string, CelType>;
  functions: FunctionTable;
  typeValues: Map<string, CelTypeValue>;
  version: CelVersion;
  source: Source;
  /** Mixed element types in list/map literals are errors (Kubernetes enables this; cel-go's default does not). */
  homogeneousAggregateLiterals?: boolean;
  /** dottedRoots(variables, typeValues), when the environment made it once (else looked up per use). */
  roots?: Set<string>;
  /** The parse's next free node id: the per-node tables are made that long at once (not grown node by node). */
  nodes?: number;
}

type Subst = Map<string, CelType>;

class CheckError extends Error {}

/**
 * First segments of the dotted variable and type names of an environment (`net` of `net.IP`), cached per
 * declared-variables object (an environment's objects are reused per compile). The checker passes the
 * declarations, the closure builder the set of their names.
 */
const dottedRootCache = new WeakMap<object, { tv: Map<string, CelTypeValue>; roots: Set<string> }>();
export function dottedRoots(variables: Record<string, unknown> | Set<string>, typeValues: Map<string, CelTypeValue>): Set<string> {
  const c = dottedRootCache.get(variables);
  if (c && c.tv === typeValues) return c.roots;
  const roots = new Set<string>();
  for (const n of [...(variables instanceof Set ? variables : Object.keys(variables)), ...typeValues.keys()]) {
    const i = n.indexOf('.');
    if (i > 0) roots.add(n.slice(0, i));
  }
  dottedRootCache.set(variables, { tv: typeValues, roots });
  return roots;
}

/**
 * The last segments of an environment's dotted global function names (`of` of `optional.of`), per function
 * table (built once per environment and not changed after): a member call `x.y.f()` can name a qualified
 * global function only when `f` is one of them, so the checker and the builder build the target's
 * qualified name only then (a string per select level and call before).
 */
const qualifiedFnCache = new WeakMap<Map<string, CelOverload[]>, Set<string>>();
export function qualifiedFnSuffixes(global: Map<string, CelOverload[]>): Set<string> {
  let s = qualifiedFnCache.get(global);
  if (!s) {
    s = new Set();
    for (const n of global.keys()) {
      const i = n.lastIndexOf('.');
      if (i >= 0) s.add(n.slice(i + 1));
    }
    qualifiedFnCache.set(global, s);
  }
  return s;
}

export class Checker {
  /** Bindings of type parameters (made with the first one). */
  #subst: Subst | undefined;
  /** Names bound in subst, in order, so that failed unifications can be undone cheaply. */
  #trail: [string, CelType | undefined][] = [];
  #fresh = 0;
  /**
   * Whether a type of this check may hold a type parameter: one was made (newParam), or a declared type
   * (variable, type value, object field) has one. Without any, every type is its own final type and
   * check() leaves the finalizing walk out.
   */
  #params = false;
  /**
   * The ids of the nodes typed once `params` was set, but for those of a type known to hold no parameter
   * (`known`) or bool: the finalizing walk visits these only. A type set before `params` holds no parameter (every
   * type that holds one comes from newParam, a declaration that holds one, or a hit answering a parameter,
   * and each sets `params` first), so it is its own final type.
   */
  #late: number[] = [];
  /**
   * The last type found to hold no type parameter, as it was found (a direct-table hit without a parameter,
   * see SimpleCall; a declared type without one; a field of an object of plainFields; a comprehension
   * variable of a plain range): a node typed with it is left out of `late`.
   */
  #known: CelType | undefined;
  #issues: CelIssue[] = [];
  #types: (CelType | undefined)[];
  #overloads: (string[] | undefined)[];
  /** The matched overloads per call node id, and the overload list they were chosen from. */
  #chosen: (CelOverload[] | undefined)[];
  #chosenFrom: (CelOverload[] | undefined)[];
  /**
   * The comprehension variables in scope, innermost last: names and types side by side (a comprehension
   * pushes its accumulator, then its one or two iteration variables, and pops them as it leaves them).
   */
  #localNames: string[] = [];
  #localTypes: CelType[] = [];
  /** Whether each local's type holds no type parameter (an iteration variable over a range typed before any). */
  #localPlain: boolean[] = [];

  constructor(private readonly opts: CheckerOptions) {
    const n = opts.nodes ?? 0;
    this.#types = new Array(n);
    this.#overloads = new Array(n);
    this.#chosen = new Array(n);
    this.#chosenFrom = new Array(n);
  }

  check(e: Expr): CheckResult {
    let t: CelType = T.error;
    try {
      t = this.#expr(e);
    } catch (err) {
      if (!(err instanceof CheckError)) throw err;
    }
    // final types in place (a type without parameters stays as it is)
    const types = this.#types;
    if (this.#params) {
      // (nodes often share one type object, a macro's accumulator type: finalized once for a run of them)
      const late = this.#late;
      // (the last two types finalized kept: a macro's accumulator type comes back after its step's)
      let a: CelType | undefined, aFinal: CelType | undefined, b: CelType | undefined, bFinal: CelType | undefined;
      for (let i = 0; i < late.length; i++) {
        const id = late[i];
        const ty = types[id]!;
        let f: CelType;
        if (ty === a) f = aFinal!;
        else if (ty === b) f = bFinal!;
        else {
          f = this.#finalize(ty);
          b = a;
          bFinal = aFinal;
          a = ty;
          aFinal = f;
        }
        if (f !== ty) types[id] = f;
      }
    }
    // cel-go reports issues ordered by source location
    this.#issues.sort((a, b) => a.position.offset - b.position.offset);
    return { type: this.#finalize(t), issues: this.#issues, types, overloads: this.#overloads, chosen: this.#chosen, chosenFrom: this.#chosenFrom };
  }

  #error(node: { offset: number; length: number }, message: string): CelType {
    this.#issues.push(makeIssue(this.opts.source, node.offset, node.length, message));
    return T.error;
  }

  // ---- substitution ------------------------------------------------------------------------------

  #newParam(): TypeParam {
    this.#params = true;
    return freshParam(this.#fresh++);
  }

  /** Whether `argTypes`, resolved, are the very type objects `args` (see SimpleCall.args). */
  #sameArgs(args: CelType[], argTypes: CelType[]): boolean {
    for (let i = 0; i < args.length; i++) if (this.#resolve(argTypes[i]) !== args[i]) return false;
    return true;
  }

  #resolve(t: CelType): CelType {
    // before the first binding every type is its own resolution: no read of `t.kind` (a read that meets
    // every shape of type object, megamorphic in a process that checks many expressions)
    if (this.#subst === undefined) return t;
    while (t.kind === 'param') {
      const b = this.#subst?.get(t.name);
      if (!b) return t;
      t = b;
    }
    return t;
  }

  /** Type name for messages: substituted, free type variables printed as `_varN` (cel-go). */
  #show(t: CelType): string {
    return typeName(this.#substituteFree(t, 0));
  }

  #substituteFree(t: CelType, depth: number): CelType {
    const r = this.#resolve(t);
    if (depth > 64) return r;
    switch (r.kind) {
      case 'list':
        return { ...r, elem: this.#substituteFree(r.elem, depth + 1) };
      case 'map':
        return { ...r, key: this.#substituteFree(r.key, depth + 1), value: this.#substituteFree(r.value, depth + 1) };
      case 'optional':
        return T.optional(this.#substituteFree(r.param, depth + 1));
      case 'type':
        return r.param ? T.typeOf(this.#substituteFree(r.param, depth + 1)) : r;
      case 'opaque':
        return r.params && r.params.length ? { ...r, params: r.params.map((p) => this.#substituteFree(p, depth + 1)) } : r;
      default:
        return r;
    }
  }

  /** Fully substituted type; free parameters become dyn. */
  #finalize(t: CelType, depth = 0): CelType {
    if (depth > 64) return T.dyn;
    const r = this.#resolve(t);
    switch (r.kind) {
      case 'param':
        return T.dyn;
      // a type without parameters is its own final type (no copy)
      case 'list': {
        const elem = this.#finalize(r.elem, depth + 1);
        return elem === r.elem ? r : withElem(r, elem);
      }
      case 'map': {
        const key = this.#finalize(r.key, depth + 1);
        const value = this.#finalize(r.value, depth + 1);
        return key === r.key && value === r.value ? r : { ...r, key, value };
      }
      case 'optional': {
        const p = this.#finalize(r.param, depth + 1);
        return p === r.param ? r : T.optional(p);
      }
      case 'type': {
        if (!r.param) return r;
        const p = this.#finalize(r.param, depth + 1);
        return p === r.param ? r : T.typeOf(p);
      }
      case 'opaque': {
        if (!r.params || !r.params.length) return r;
        const ps = r.params.map((p) => this.#finalize(p, depth + 1));
        return ps.every((p, i) => p === r.params![i]) ? r : { ...r, params: ps };
      }
      default:
        return r;
    }
  }

  #substituteParams(t: CelType, m: Map<string, CelType>): CelType {
    switch (t.kind) {
      case 'param':
        return m.get(t.name) ?? t;
      case 'list':
        return { ...t, elem: this.#substituteParams(t.elem, m) };
      case 'map':
        return { ...t, key: this.#substituteParams(t.key, m), value: this.#substituteParams(t.value, m) };
      case 'optional':
        return T.optional(this.#substituteParams(t.param, m));
      case 'type':
        return t.param ? T.typeOf(this.#substituteParams(t.param, m)) : t;
      case 'opaque':
        return t.params ? { ...t, params: t.params.map((p) => this.#substituteParams(p, m)) } : t;
      default:
        return t;
    }
  }

  #occurs(name: string, t: CelType): boolean {
    const r = this.#resolve(t);
    switch (r.kind) {
      case 'param': return r.name === name;
      case 'list': return this.#occurs(name, r.elem);
      case 'map': return this.#occurs(name, r.key) || this.#occurs(name, r.value);
      case 'optional': return this.#occurs(name, r.param);
      case 'type': return !!r.param && this.#occurs(name, r.param);
      case 'opaque': return (r.params ?? []).some((p) => this.#occurs(name, p));
      default: return false;
    }
  }

  /** Whether a value of type `s` may be used where `t` is expected, binding type parameters. */
  #assignable(t0: CelType, s0: CelType): boolean {
    const mark = this.#trail.length;
    const ok = this.#assign(t0, s0);
    if (!ok) this.#undo(mark);
    return ok;
  }

  #bind(name: string, t: CelType): void {
    const subst = (this.#subst ??= new Map());
    this.#trail.push([name, subst.get(name)]);
    subst.set(name, t);
  }

  #undo(mark: number): void {
    while (this.#trail.length > mark) {
      const [name, prev] = this.#trail.pop()!;
      if (prev) this.#subst!.set(name, prev);
      else this.#subst!.delete(name);
    }
  }

  #assign(t0: CelType, s0: CelType): boolean {
    // a bound type parameter widens to the more general type (cel-go: list(int) + list(dyn) is list(dyn))
    if (t0.kind === 'param' && this.#subst?.has(t0.name)) {
      const b = this.#subst.get(t0.name)!;
      if (!this.#assign(b, s0)) return false;
      const rs = this.#resolve(s0);
      if (rs.kind !== 'param' && this.#containsDyn(rs) && !this.#containsDyn(b) && !this.#occurs(t0.name, rs)) this.#bind(t0.name, rs);
      return true;
    }
    const t = this.#resolve(t0);
    const s = this.#resolve(s0);
    if (t === s) return true;
    if (t.kind === 'param') {
      if (s.kind === 'param' && s.name === t.name) return true;
      if (this.#occurs(t.name, s)) return false;
      this.#bind(t.name, s);
      return true;
    }
    if (s.kind === 'param') {
      if (this.#occurs(s.name, t)) return false;
      this.#bind(s.name, t);
      return true;
    }
    if (t.kind === 'dyn' || s.kind === 'dyn' || t.kind === 'error' || s.kind === 'error') return true;
    if (s.kind === 'null_type' && (t.kind === 'object' || t.kind === 'opaque' || t.kind === 'optional' || t.kind === 'null_type')) return true;
    if (t.kind !== s.kind) return false;
    switch (t.kind) {
      case 'list':
        return this.#assign(t.elem, (s as typeof t).elem);
      case 'map':
        return this.#assign(t.key, (s as typeof t).key) && this.#assign(t.value, (s as typeof t).value);
      case 'optional':
        return this.#assign(t.param, (s as typeof t).param);
      case 'type':
        // type values of different types are comparable (type(1) == type(1u) is false, not an error)
        return true;
      case 'opaque': {
        const so = s as typeof t;
        if (t.name !== so.name) return false;
        const tp = t.params ?? [], sp = so.params ?? [];
        return tp.length === sp.length && tp.every((p, i) => this.#assign(p, sp[i]));
      }
      case 'object':
        return t.name === (s as typeof t).name;
      default:
        return true;
    }
  }

  #containsDyn(t: CelType): boolean {
    const r = this.#resolve(t);
    switch (r.kind) {
      case 'dyn': return true;
      case 'list': return this.#containsDyn(r.elem);
      case 'map': return this.#containsDyn(r.key) || this.#containsDyn(r.value);
      case 'optional': return this.#containsDyn(r.param);
      default: return false;
    }
  }

  /** Joins element types of an aggregate literal; mixed types are an error (homogeneous aggregate literals). */
  #join(cur: CelType | undefined, next: CelType, node: Expr): CelType {
    if (!cur) return next;
    if (this.#assignable(cur, next)) {
      return this.#containsDyn(next) && !this.#containsDyn(cur) ? next : cur;
    }
    if (this.#assignable(next, cur)) return next;
    if (!this.opts.homogeneousAggregateLiterals) return T.dyn;
    this.#error(node, `expected type '${this.#show(cur)}' but found '${this.#show(next)}'`);
    return cur;
  }

  // ---- expressions -------------------------------------------------------------------------------

  /** A type from the declarations (see params). */
  #declared(t: CelType): CelType {
    if (hasParam(t, 0)) this.#params = true;
    else this.#known = t;
    return t;
  }

  #set(e: Expr, t: CelType): CelType {
    this.#types[e.id] = t;
    if (this.#params && t !== this.#known && t !== T.bool) this.#late.push(e.id);
    return t;
  }

  #local(name: string): CelType | undefined {
    const names = this.#localNames;
    for (let i = names.length - 1; i >= 0; i--) {
      if (names[i] === name) {
        const t = this.#localTypes[i];
        if (this.#localPlain[i]) this.#known = t;
        return t;
      }
    }
    return undefined;
  }

  #expr(e: Expr): CelType {
    switch (e.kind) {
      case 'literal':
        // (a literal's type holds no parameter: never finalized)
        return (this.#types[e.id] = literalType(e.value));
      case 'ident':
        return this.#set(e, this.#ident(e.name, e));
      case 'select':
        return this.#set(e, this.#select(e));
      case 'call':
        return this.#set(e, this.#call(e));
      case 'list': {
        let elem: CelType | undefined;
        // the optional elements' indices as a set, made only when there are any
        const opt = e.optionalIndices.length ? new Set(e.optionalIndices) : undefined;
        for (let i = 0; i < e.elems.length; i++) {
          const x = e.elems[i];
          let t = this.#expr(x);
          if (opt?.has(i)) {
            const r = this.#resolve(t);
            if (r.kind === 'optional') t = r.param;
            else if (r.kind !== 'dyn' && r.kind !== 'error') this.#error(x, `expected type 'optional_type' but found '${this.#show(t)}'`);
          }
          elem = this.#join(elem, t, x);
        }
        return this.#set(e, T.list(elem ?? this.#newParam()));
      }
      case 'map': {
        let kt: CelType | undefined, vt: CelType | undefined;
        for (const en of e.entries) {
          const k = this.#expr(en.key);
          const kr = this.#resolve(k);
          if (!['string', 'int', 'uint', 'bool', 'dyn', 'param', 'error'].includes(kr.kind)) {
            this.#error(en.key, `unsupported map key type: ${this.#show(k)}`);
          }
          kt = this.#join(kt, k, en.key);
          let v = this.#expr(en.value);
          if (en.optional) {
            const r = this.#resolve(v);
            if (r.kind === 'optional') v = r.param;
            else if (r.kind !== 'dyn' && r.kind !== 'error') this.#error(en.value, `expected type 'optional_type' but found '${this.#show(v)}'`);
          }
          vt = this.#join(vt, v, en.value);
        }
        return this.#set(e, T.map(kt ?? this.#newParam(), vt ?? this.#newParam()));
      }
      case 'struct':
        return this.#set(e, this.#error(e, `undeclared reference to '${e.typeName}' (in container '')`));
      case 'comprehension':
        return this.#set(e, this.#comprehension(e));
    }
  }

  #ident(raw: string, node: Expr): CelType {
    const name = raw.startsWith('.') ? raw.slice(1) : raw;
    if (!raw.startsWith('.')) {
      const l = this.#local(name);
      if (l) return l;
    }
    const v = this.opts.variables[name];
    if (v) return this.#declared(v);
    const tv = this.opts.typeValues.get(name);
    if (tv) return this.#declared(T.typeOf(tv.type));
    return this.#error(node, `undeclared reference to '${name}' (in container '')`);
  }

  /**
   * Whether a select chain can name a declared dotted variable or type (`net.IP`): only when its root
   * identifier is the first segment of such a name. Saves building the qualified name at every level.
   */
  #mayBeQualified(e: Extract<Expr, { kind: 'select' }>): boolean {
    let r: Expr = e.operand;
    while (r.kind === 'select' && !r.testOnly) r = r.operand;
    if (r.kind !== 'ident') return false;
    const name = r.name.startsWith('.') ? r.name.slice(1) : r.name;
    return (this.opts.roots ?? dottedRoots(this.opts.variables, this.opts.typeValues)).has(name);
  }

  #qualified(e: Expr): string | undefined {
    if (e.kind === 'ident') return this.#local(e.name) ? undefined : e.name;
    if (e.kind === 'select' && !e.testOnly) {
      const p = this.#qualified(e.operand);
      return p === undefined ? undefined : `${p}.${e.field}`;
    }
    return undefined;
  }

  #select(e: Extract<Expr, { kind: 'select' }>): CelType {
    const q = e.testOnly || !this.#mayBeQualified(e) ? undefined : this.#qualified(e);
    if (q !== undefined) {
      const name = q.replace(/^\./, '');
      // a declared variable or type with a qualified name
      if (this.opts.variables[name]) return this.#declared(this.opts.variables[name]);
      const tv = this.opts.typeValues.get(name);
      if (tv) return this.#declared(T.typeOf(tv.type));
    }
    const ot = this.#expr(e.operand);
    const ft = this.#fieldType(ot, e.field, e);
    if (e.testOnly) {
      return T.bool;
    }
    return ft;
  }

  #fieldType(ot: CelType, field: string, node: Expr): CelType {
    const r = this.#resolve(ot);
    switch (r.kind) {
      case 'dyn':
      case 'error':
        return T.dyn;
      case 'param':
        return T.dyn;
      case 'map':
        if (!this.#assignable(r.key, T.string)) return this.#error(node, `type '${this.#show(r)}' does not support field selection`);
        return r.value;
      case 'object': {
        const f = r.field(field);
        if (!f) return this.#error(node, `undefined field '${field}'`);
        if (r.plainFields === true) return (this.#known = f);
        return this.#declared(f);
      }
      case 'optional':
        return T.optional(this.#fieldType(r.param, field, node));
      default:
        return this.#error(node, `type '${this.#show(r)}' does not support field selection`);
    }
  }

  #comprehension(e: ComprehensionExpr): CelType {
    const rt = this.#resolve(this.#expr(e.iterRange));
    let it1: CelType = T.dyn, it2: CelType = T.dyn;
    switch (rt.kind) {
      case 'list':
        if (e.iterVar2) {
          it1 = T.int;
          it2 = rt.elem;
        } else it1 = rt.elem;
        break;
      case 'map':
        it1 = rt.key;
        it2 = rt.value;
        break;
      case 'dyn':
      case 'error':
      case 'param':
        break;
      default:
        this.#error(e.iterRange, `expression of type '${this.#show(rt)}' cannot be range of a comprehension (must be list, map, or dynamic)`);
    }
    // without any type parameter yet, the range's type and its parts hold none (see late)
    const iterPlain = !this.#params;
    const accuType = this.#expr(e.accuInit);
    const names = this.#localNames, types = this.#localTypes, plain = this.#localPlain;
    names.push(e.accuVar);
    types.push(accuType);
    plain.push(!this.#params);
    names.push(e.iterVar);
    types.push(it1);
    plain.push(iterPlain);
    if (e.iterVar2) {
      names.push(e.iterVar2);
      types.push(it2);
      plain.push(iterPlain);
    }
    const cond = this.#expr(e.loopCond);
    if (!this.#assignable(T.bool, cond)) this.#error(e.loopCond, `expected type 'bool' but found '${this.#show(cond)}'`);
    const step = this.#expr(e.loopStep);
    if (!this.#assignable(accuType, step)) this.#error(e.loopStep, `expected type '${this.#show(accuType)}' but found '${this.#show(step)}'`);
    // the iteration variables leave scope for the result, then the accumulator
    if (e.iterVar2) {
      names.pop();
      types.pop();
      plain.pop();
    }
    names.pop();
    types.pop();
    plain.pop();
    const res = this.#expr(e.result);
    names.pop();
    types.pop();
    plain.pop();
    return res;
  }

  #call(e: CallExpr): CelType {
    switch (e.fn) {
      case '_&&_':
      case '_||_': {
        // cel-go: each operand must be assignable to bool, reported at the operand
        let ok = true;
        for (const a of e.args) {
          const t = this.#expr(a);
          if (!this.#assignable(T.bool, t)) {
            this.#error(a, `expected type 'bool' but found '${this.#show(t)}'`);
            ok = false;
          }
        }
        return ok ? T.bool : T.error;
      }
      case '_?_:_': {
        const c = this.#expr(e.args[0]);
        const a = this.#expr(e.args[1]);
        const b = this.#expr(e.args[2]);
        if (!this.#assignable(T.bool, c)) {
          return this.#error(e, `found no matching overload for '_?_:_' applied to '(${[c, a, b].map((x) => this.#show(x)).join(', ')})'`);
        }
        if (this.#assignable(a, b)) return this.#containsDyn(b) && !this.#containsDyn(a) ? b : a;
        if (this.#assignable(b, a)) return b;
        return this.#error(e, `found no matching overload for '_?_:_' applied to '(${[c, a, b].map((x) => this.#show(x)).join(', ')})'`);
      }
      case '@not_strictly_false':
        this.#expr(e.args[0]);
        return T.bool;
      case '_?._': {
        const ot = this.#expr(e.args[0]);
        const field = (e.args[1] as Extract<Expr, { kind: 'literal' }>).value as string;
        const r = this.#resolve(ot);
        const inner = r.kind === 'optional' ? r.param : ot;
        const ft = this.#fieldType(inner, field, e);
        const fr = this.#resolve(ft);
        return fr.kind === 'optional' ? ft : T.optional(ft);
      }
      case '_[_]':
      case '_[?_]': {
        const ot = this.#expr(e.args[0]);
        if (e.fn === '_[_]' && this.#resolve(ot).kind !== 'optional') {
          // ordinary index: resolved below as a function; the operand type is already recorded
          return this.#resolveCall(e, '_[_]', this.opts.functions.global.get('_[_]') ?? [], e.args, false, ot);
        }
        const kt = this.#expr(e.args[1]);
        const r = this.#resolve(ot);
        const inner = this.#resolve(r.kind === 'optional' ? r.param : ot);
        if (inner.kind === 'list') {
          if (!this.#assignable(T.int, kt)) return this.#error(e, `found no matching overload for '_[?_]' applied to '(${this.#show(ot)}, ${this.#show(kt)})'`);
          return T.optional(inner.elem);
        }
        if (inner.kind === 'map') return T.optional(inner.value);
        if (inner.kind === 'dyn' || inner.kind === 'param' || inner.kind === 'error') return T.optional(T.dyn);
        return this.#error(e, `found no matching overload for '_[?_]' applied to '(${this.#show(ot)}, ${this.#show(kt)})'`);
      }
      case 'cel.@mapInsert': {
        // accumulator step of transformMap / transformMapEntry
        const ts = e.args.map((a) => this.#expr(a));
        const m = this.#resolve(ts[0]);
        let ok = m.kind === 'map' || m.kind === 'dyn' || m.kind === 'error';
        if (ok && m.kind === 'map') {
          ok = ts.length === 3 ? this.#assignable(m.key, ts[1]) && this.#assignable(m.value, ts[2]) : this.#assignable(m, ts[1]);
        }
        if (!ok) return this.#error(e, `found no matching overload for 'cel.@mapInsert' applied to '(${ts.map((t) => this.#show(t)).join(', ')})'`);
        return ts[0];
      }
    }
    if (e.target && (e.fn === 'or' || e.fn === 'orValue') && e.args.length === 1) {
      const tt = this.#resolve(this.#expr(e.target));
      const at = this.#expr(e.args[0]);
      if (tt.kind === 'optional') {
        if (e.fn === 'or') {
          if (this.#assignable(tt, at)) return tt;
        } else if (this.#assignable(tt.param, at)) return tt.param;
        return this.#error(e, `found no matching overload for '${e.fn}' applied to '${this.#show(tt)}.(${this.#show(at)})'`);
      }
      if (tt.kind === 'dyn') return T.dyn;
    }
    // qualified global function names (optional.of, format.named...)
    if (e.target) {
      const q = qualifiedFnSuffixes(this.opts.functions.global).has(e.fn) ? this.#qualified(e.target) : undefined;
      if (q !== undefined) {
        const root = q.replace(/^\./, '').split('.')[0];
        const name = `${q.replace(/^\./, '')}.${e.fn}`;
        if (!this.opts.variables[root] && !this.#local(root) && this.opts.functions.global.has(name)) {
          return this.#resolveCall(e, name, this.opts.functions.global.get(name)!, e.args, false);
        }
      }
      const ovs = this.opts.functions.member.get(e.fn);
      if (!ovs) {
        this.#expr(e.target);
        e.args.forEach((a) => this.#expr(a));
        return this.#error(e, `undeclared reference to '${e.fn}' (in container '')`);
      }
      return this.#resolveCall(e, e.fn, ovs, [e.target, ...e.args], true);
    }
    const name = e.fn.startsWith('.') ? e.fn.slice(1) : e.fn;
    const ovs = this.opts.functions.global.get(name);
    if (!ovs) {
      e.args.forEach((a) => this.#expr(a));
      return this.#error(e, `undeclared reference to '${name}' (in container '')`);
    }
    return this.#resolveCall(e, name, ovs, e.args, false);
  }

  /**
   * The key of a (resolved) argument type for the direct table of resolveCall, pushed onto `out` as tokens:
   * what assign() looks at when it matches the argument against an overload's parameter (kinds, element
   * types; object and opaque types by identity, which is stricter than assign's name comparison). A list,
   * optional or map pushes its kind and then its parts' tokens, a primitive kind or dyn its kind, an object
   * or opaque type its identity key: each type's tokens parse in one way only, so the tokens of a call's
   * arguments one after the other name one list of types. False for a type that holds a free type
   * parameter, an error, a type value or a nesting deeper than 5: such calls take the full resolution.
   * (Tokens are constant strings, whose hashes the engine keeps: no key string is made and hashed per call.)
   */
  /**
   * typeKey's tokens appended to the number `acc` (see KIND_NUM): NUM_NONE when typeKey answers false,
   * NUM_TOO_LONG when they do not fit in a number exactly (the tokens then key the tree, as before).
   */
  #numKey(t0: CelType, depth: number, acc: number): number {
    if (acc < 0) return acc;
    // (below 2^32 here: with the 20 bits added at most, every key stays an exact integer below 2^53)
    if (acc >= 4294967296) return NUM_TOO_LONG;
    const t = this.#resolve(t0);
    if (depth > 4) return NUM_NONE;
    switch (t.kind) {
      case 'list':
        return this.#numKey(t.elem, depth + 1, acc * 16 + 11);
      case 'optional':
        return this.#numKey(t.param, depth + 1, acc * 16 + 13);
      case 'map':
        return this.#numKey(t.value, depth + 1, this.#numKey(t.key, depth + 1, acc * 16 + 12));
      case 'object':
      case 'opaque': {
        const id = typeId(t);
        return id < 65536 ? (acc * 16 + NUM_OBJECT) * 65536 + id : NUM_TOO_LONG;
      }
      case 'param':
      case 'error':
      case 'type':
        return NUM_NONE;
      default: {
        const c = KIND_NUM[t.kind];
        return c === undefined ? NUM_TOO_LONG : acc * 16 + c;
      }
    }
  }

  #typeKey(t0: CelType, depth: number, out: string[]): boolean {
    const t = this.#resolve(t0);
    if (depth > 4) return false;
    switch (t.kind) {
      case 'list':
        out.push('list');
        return this.#typeKey(t.elem, depth + 1, out);
      case 'optional':
        out.push('optional');
        return this.#typeKey(t.param, depth + 1, out);
      case 'map':
        out.push('map');
        return this.#typeKey(t.key, depth + 1, out) && this.#typeKey(t.value, depth + 1, out);
      case 'object':
      case 'opaque': {
        out.push(`#${typeId(t)}`);
        return true;
      }
      case 'param':
      case 'error':
      case 'type':
        return false;
      default:
        // the primitive kinds and dyn
        out.push(t.kind);
        return true;
    }
  }

  /**
   * The accumulator step of the map and filter macros, `l + [x]` with `l` a list of a free type parameter
   * (the macro's `[]`) and `x` of a type without parameters, when the only candidate of the call's form is
   * the generic list concatenation (list(A), list(A)) -> list(A): the bindings, the fresh parameter, the
   * recorded overload and the result of the full resolution below, made directly (its steps for these
   * types: A a fresh Q, Q bound to l's parameter P, P bound to x's type, the result list(Q)). Undefined
   * when the case does not apply. Without it the step was resolved in full at every compile: its argument
   * holds a free parameter, so the direct table cannot key it.
   */
  #appendStep(e: CallExpr, all: CelOverload[], argTypes: CelType[]): CelType | undefined {
    const l = this.#resolve(argTypes[0]);
    if (l.kind !== 'list') return undefined;
    const p = this.#resolve(l.elem);
    if (p.kind !== 'param') return undefined;
    const x = this.#resolve(argTypes[1]);
    if (x.kind !== 'list') return undefined;
    const t = this.#resolve(x.elem);
    if (t.kind === 'param' || hasParam(t, 0)) return undefined;
    const cs = candidates(all, false, 2, 'list');
    if (cs.length !== 1 || !isListConcat(cs[0])) return undefined;
    const o = cs[0].o;
    const q = this.#newParam();
    this.#bind(q.name, p);
    this.#bind(p.name, t);
    this.#overloads[e.id] = [o.id];
    this.#chosen[e.id] = [o];
    this.#chosenFrom[e.id] = all;
    return withElem(o.result as ListType, q);
  }

  #resolveCall(e: CallExpr, name: string, all: CelOverload[], args: Expr[], member: boolean, firstType?: CelType): CelType {
    const n = args.length;
    const argTypes = new Array<CelType>(n);
    // the direct table's key: the call form and the arguments' type keys (see typeKey and simpleCalls), as
    // one number when it fits (numKey), else as tokens
    let num = member ? 2 : 1;
    for (let i = 0; i < n; i++) {
      const t = i === 0 && firstType ? firstType : this.#expr(args[i]);
      argTypes[i] = t;
      if (num >= 0) num = this.#numKey(t, 0, num);
    }
    let key: string[] | undefined;
    if (num === NUM_TOO_LONG) {
      key = [member ? 'm' : 'g'];
      for (let i = 0; i < n; i++) {
        if (!this.#typeKey(argTypes[i], 0, key)) {
          key = undefined;
          break;
        }
      }
    }
    let table: CallTable | undefined;
    if (num >= 0 || key !== undefined) {
      table = simpleCalls.get(all);
      if (!table) simpleCalls.set(all, (table = { root: {}, byNum: new Map(), size: 0 }));
      let hit: SimpleCall | undefined;
      if (key === undefined) hit = table.byNum.get(num);
      else {
        let node: CallNode | undefined = table.root;
        for (let i = 0; i < key.length && node !== undefined; i++) node = node.next?.get(key[i]);
        hit = node?.hit;
      }
      if (hit !== undefined && (hit.args === undefined || this.#sameArgs(hit.args, argTypes))) {
        this.#overloads[e.id] = hit.ids;
        this.#chosen[e.id] = hit.chosen;
        this.#chosenFrom[e.id] = all;
        if (hit.param !== undefined) {
          // the result is the overload's type parameter, bound as the full resolution binds it
          const p = freshParam(this.#fresh + hit.param);
          this.#fresh += hit.fresh;
          this.#params = true;
          this.#bind(p.name, hit.result);
          return p;
        }
        this.#fresh += hit.fresh;
        return (this.#known = hit.result);
      }
    }
    if (table === undefined && !member && n === 2) {
      const r = this.#appendStep(e, all, argTypes);
      if (r !== undefined) return r;
    }
    const fresh0 = this.#fresh;
    const matched: string[] = [];
    const chosen: CelOverload[] = [];
    let cacheable = table !== undefined;
    /** Whether the one matched overload's result is a bare type parameter (see SimpleCall.param). */
    let paramResult = false;
    let result: CelType | undefined;
    // the first argument's type, when it is not a parameter: bindings made below cannot change it
    const first = argTypes.length ? this.#resolve(argTypes[0]) : undefined;
    const quick = first !== undefined && first.kind !== 'param' && first.kind !== 'dyn' && first.kind !== 'error' && first.kind !== 'null_type';
    for (const { o, generic, argNames, resultNames, resultParams } of candidates(all, member, argTypes.length, quick ? first.kind : undefined)) {
      // instantiate type parameters freshly per overload (an overload without any is used as declared):
      // the arguments' parameters in order of first appearance, the result's own ones only on a match
      let m: Map<string, CelType> | undefined;
      let params = o.args;
      if (generic) {
        m = new Map<string, CelType>();
        for (let i = 0; i < argNames.length; i++) m.set(argNames[i], this.#newParam());
        params = new Array<CelType>(o.args.length);
        for (let i = 0; i < o.args.length; i++) params[i] = this.#substituteParams(o.args[i], m);
      }
      const mark = this.#trail.length;
      let ok = true;
      for (let i = 0; i < params.length && ok; i++) ok = this.#assign(params[i], argTypes[i]);
      if (!ok) {
        this.#undo(mark);
        continue;
      }
      matched.push(o.id);
      chosen.push(o);
      if (resultParams) {
        if (o.result.kind === 'param' && matched.length === 1) paramResult = true;
        else cacheable = false;
      }
      let rt = o.result;
      if (m) {
        for (let i = 0; i < resultNames.length; i++) m.set(resultNames[i], this.#newParam());
        rt = this.#substituteParams(rt, m);
      }
      if (!result) result = rt;
      else if (result !== rt && this.#show(result) !== this.#show(rt)) result = T.dyn;
      if (matched.length > 1) {
        // keep bindings of the first match only when several match with dyn arguments
        this.#undo(mark);
      }
    }
    if (!result) {
      const ts = argTypes.map((t) => this.#show(t));
      const shown = member ? `${ts[0]}.(${ts.slice(1).join(', ')})` : `(${ts.join(', ')})`;
      return this.#error(e, `found no matching overload for '${name}' applied to '${shown}'`);
    }
    this.#overloads[e.id] = matched;
    this.#chosen[e.id] = chosen;
    this.#chosenFrom[e.id] = all;
    if (cacheable && !paramResult) {
      keepCall(table!, num, key, { ids: Object.freeze(matched) as string[], chosen, result, fresh: this.#fresh - fresh0 });
    } else if (cacheable && matched.length === 1 && result.kind === 'param') {
      // a result that is a type parameter bound to a type without parameters (m[k] of a map(string, string))
      const bound = this.#resolve(result);
      const n0 = argTypes.length;
      const n = Number(result.name.slice(4));
      if (!hasParam(bound, 0) && result.name === `_var${n}` && n >= fresh0 && n < this.#fresh) {
        const args = new Array<CelType>(n0);
        for (let i = 0; i < n0; i++) args[i] = this.#resolve(argTypes[i]);
        keepCall(table!, num, key, { ids: Object.freeze(matched) as string[], chosen, result: bound, fresh: this.#fresh - fresh0, param: n - fresh0, args });
      }
    }
    return result;
  }
}

/**
 * The type parameters `_var0`, `_var1`... that checks make, shared by every check (a type is a value: no
 * check changes one; the first 256): no name string made per parameter, and the bindings' map meets the
 * same strings, whose hashes the engine keeps.
 */
const FRESH_PARAMS: TypeParam[] = [];
function freshParam(n: number): TypeParam {
  if (n >= 256) return T.param(`_var${n}`);
  return (FRESH_PARAMS[n] ??= T.param(`_var${n}`));
}

/**
 * `{ ...l, elem }`, made by the factory when `l` has none of the optional properties of a list type (the
 * lists the checker makes, the libraries' declared ones): the same object, where an object spread over the
 * many shapes of types met here takes V8's generic copy.
 */
function withElem(l: ListType, elem: CelType): ListType {
  return l.maxSize === undefined && l.listType === undefined && l.mapKeys === undefined ? T.list(elem) : { ...l, elem };
}

/** Identity keys of object and opaque types (see typeKey). */
const typeIds = new WeakMap<CelType, number>();
let nextTypeId = 0;
function typeId(t: CelType): number {
  let k = typeIds.get(t);
  if (k === undefined) typeIds.set(t, (k = nextTypeId++));
  return k;
}
/**
 * The tokens of typeKey as numbers (numKey): 4 bits a token, an object or opaque type's identity key in 16
 * more bits after its token; the call form first (1 global, 2 member), so that leading tokens are never 0.
 */
const KIND_NUM: Record<string, number> = { int: 1, uint: 2, double: 3, bool: 4, string: 5, bytes: 6, null_type: 7, timestamp: 8, duration: 9, dyn: 10, list: 11, map: 12, optional: 13 };
const NUM_OBJECT = 14;
/** numKey: the type has no key (typeKey answers false). */
const NUM_NONE = -1;
/** numKey: the key does not fit in a number (or names an unknown kind): the token tree answers. */
const NUM_TOO_LONG = -2;
/** Entries per overload list, at most (keys of types of environments no longer used are dropped with the rest). */
const MAX_SIMPLE_CALLS = 2000;

/**
 * The direct table of resolveCall: per overload list and key (form and argument type keys), the matched
 * overloads, the result type and how many fresh type parameters the full resolution makes (counted so that
 * later `_varN` names in messages stay the same). Matching depends on nothing but what the key holds. Only
 * successful resolutions whose matched overloads have a result without type parameters are kept: their
 * result is a declared type, the same for every call with that key (the parameters bound on the way are
 * fresh and referenced by nothing else); and those of one matched overload whose result is a type parameter
 * bound to a type without parameters (see SimpleCall.param).
 */
type SimpleCall = {
  ids: string[];
  chosen: CelOverload[];
  result: CelType;
  fresh: number;
  /**
   * Set when the one matched overload's result is a type parameter (`_[_]`: V of map(K, V)): the full
   * resolution answers the fresh parameter `_var<first fresh + param>` bound to `result` (a type without
   * parameters), and a hit answers the same parameter with the same binding, so that a later widening of
   * it (a list literal joining it with dyn) happens as after the full resolution.
   */
  param?: number;
  /**
   * With `param`: the arguments' types (resolved) the entry was made for. The key names primitive kinds
   * only (a string of maxLength 8 and one of 1024 have the same key) and `result` is a part of an argument's
   * type (a map's value type, whose size the cost estimate reads): a hit needs the same type objects.
   */
  args?: CelType[];
};
/** The direct table of one overload list: a tree by key token (see typeKey), `size` entries in all. */
type CallNode = { hit?: SimpleCall; next?: Map<string, CallNode> };
type CallTable = { root: CallNode; byNum: Map<number, SimpleCall>; size: number };
const simpleCalls = new WeakMap<CelOverload[], CallTable>();
/** Keeps `hit` under the tokens `key` (emptying the table first when it holds MAX_SIMPLE_CALLS entries). */
function keepCall(table: CallTable, num: number, key: string[] | undefined, hit: SimpleCall): void {
  if (table.size >= MAX_SIMPLE_CALLS) {
    table.root = {};
    table.byNum.clear();
    table.size = 0;
  }
  if (key === undefined) {
    if (!table.byNum.has(num)) table.size++;
    table.byNum.set(num, hit);
    return;
  }
  let node = table.root;
  for (const k of key) {
    const next: Map<string, CallNode> = (node.next ??= new Map());
    let child = next.get(k);
    if (!child) next.set(k, (child = {}));
    node = child;
  }
  if (node.hit === undefined) table.size++;
  node.hit = hit;
}

function literalType(v: unknown): CelType {
  switch (typeof v) {
    case 'boolean': return T.bool;
    case 'bigint': return T.int;
    case 'number': return T.double;
    case 'string': return T.string;
  }
  if (v === null) return T.null;
  if (v instanceof CelUint) return T.uint;
  if (v instanceof Uint8Array) return T.bytes;
  return T.dyn;
}

/**
 * The overloads of `all` that resolveCall tries for a call of that form (member or global, arity), in
 * declaration order, each with whether it has type parameters. With `firstKind` (the first argument's kind,
 * when concrete) a non-generic overload whose first parameter is of another concrete kind is left out: what
 * assign() answers for it without binding anything. Overload lists are immutable per function table, so
 * the selection is cached per list and form.
 */
type Candidate = {
  o: CelOverload;
  generic: boolean;
  /** The type parameters of the arguments in order of first appearance, and those only the result has. */
  argNames: string[];
  resultNames: string[];
  /** Whether the result holds a type parameter. */
  resultParams: boolean;
};
/** Per overload list: per call form (global arities at even indices, member ones at odd), by first kind. */
const candidateCache = new WeakMap<CelOverload[], Map<string, Candidate[]>[]>();
function candidates(all: CelOverload[], member: boolean, arity: number, firstKind: string | undefined): Candidate[] {
  let forms = candidateCache.get(all);
  if (!forms) candidateCache.set(all, (forms = []));
  // (the kind names are constant strings: no key string made per call)
  const byForm = (forms[arity * 2 + (member ? 1 : 0)] ??= new Map());
  const key = firstKind ?? '';
  let list = byForm.get(key);
  if (!list) {
    list = [];
    for (const o of all) {
      if (!!o.member !== member || o.args.length !== arity) continue;
      // the type parameters of the arguments in order of first appearance, then those of the result only
      const argNames: string[] = [];
      const resultNames: string[] = [];
      for (const a of o.args) for (const n of paramNames(a)) if (!argNames.includes(n)) argNames.push(n);
      for (const n of paramNames(o.result)) if (!argNames.includes(n) && !resultNames.includes(n)) resultNames.push(n);
      const generic = argNames.length + resultNames.length > 0;
      if (firstKind !== undefined && !generic) {
        const k = o.args[0].kind;
        if (k !== firstKind && k !== 'dyn' && k !== 'error') continue;
      }
      list.push({ o, generic, argNames, resultNames, resultParams: paramNames(o.result).length > 0 });
    }
    byForm.set(key, list);
  }
  return list;
}

/** Whether a candidate is (list(A), list(A)) -> list(A), A its one type parameter (see appendStep). */
function isListConcat(c: Candidate): boolean {
  if (!c.generic || c.argNames.length !== 1 || c.resultNames.length !== 0 || c.o.args.length !== 2) return false;
  const a = c.argNames[0];
  const isListOfA = (t: CelType) => t.kind === 'list' && t.elem.kind === 'param' && t.elem.name === a;
  return isListOfA(c.o.args[0]) && isListOfA(c.o.args[1]) && isListOfA(c.o.result);
}

/** Whether a declared type holds a type parameter (an object type's fields are looked at when selected). */
function hasParam(t: CelType, depth: number): boolean {
  if (depth > 64) return true;
  switch (t.kind) {
    case 'param': return true;
    case 'list': return hasParam(t.elem, depth + 1);
    case 'map': return hasParam(t.key, depth + 1) || hasParam(t.value, depth + 1);
    case 'optional': return hasParam(t.param, depth + 1);
    case 'type': return !!t.param && hasParam(t.param, depth + 1);
    case 'opaque': return !!t.params && t.params.some((p) => hasParam(p, depth + 1));
    default: return false;
  }
}

function paramNames(t: CelType, out: string[] = []): string[] {
  switch (t.kind) {
    case 'param': out.push(t.name); break;
    case 'list': paramNames(t.elem, out); break;
    case 'map': paramNames(t.key, out); paramNames(t.value, out); break;
    case 'optional': paramNames(t.param, out); break;
    case 'type': if (t.param) paramNames(t.param, out); break;
    case 'opaque': for (const p of t.params ?? []) paramNames(p, out); break;
  }
  return out;
}
