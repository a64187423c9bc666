// Compiles a (checked or unchecked) AST into closures and evaluates them with cost tracking.
// Error absorption follows the CEL spec: && and || are commutative over errors (false/true wins),
// ?: propagates only the chosen branch's error, comprehension accumulators may hold errors.

import type { CallExpr, ComprehensionExpr, Expr, SelectExpr } from './ast.js';
import type { CelOverload } from './library.js';
import { actualSize } from './library.js';
import type { CelType } from './types.js';
import { T } from './types.js';
import type { CelValue } from './values.js';
import {
  beginAppend, endAppend, CelCostLimitError, CelDuration, CelError, CelMap, CelOpaque, CelOptional, CelTimestamp, CelTypeValue, CelUint,
  listTypeOf, valueTypeName,
} from './values.js';
import { indexValue } from './stdlib.js';
import { fromJson } from './convert.js';
import { dottedRoots, qualifiedFnSuffixes } from './checker.js';

export interface Ctx {
  slots: (CelValue | CelError)[];
  /**
   * The plain JSON objects of variables given as JSON (evaluateJson), by slot: field chains read them
   * directly, and the slot gets the converted value (with `rawTypes`) only when something loads it whole.
   */
  raw?: unknown[];
  rawTypes?: (CelType | undefined)[];
  cost: number;
  limit: number;
}
export type Ev = (c: Ctx) => CelValue;

/** Function overloads by name, already filtered by compatibility version. */
export interface FunctionTable {
  global: Map<string, CelOverload[]>;
  member: Map<string, CelOverload[]>;
}

export interface CompileInfo {
  /** Declared variable names (resolved to slots). */
  variables: Set<string>;
  /** Type identifiers usable as values (`int`, `net.IP`). */
  typeValues: Map<string, CelTypeValue>;
  functions: FunctionTable;
  /** Overload ids the checker selected per call node id (narrows runtime dispatch). */
  overloadsByNode?: (string[] | undefined)[];
  /** The overloads the checker matched per call node id, and the list it chose them from (see invoke). */
  chosen?: (CelOverload[] | undefined)[];
  chosenFrom?: (CelOverload[] | undefined)[];
  /** Field types of object types selected per select node (unused at runtime today). */
  constants?: Map<string, CelValue>;
  /** The checker's final type per node id (checked expressions): field chains decide their direct path by them. */
  types?: (CelType | undefined)[];
  /** Declared variable types: field chains over object-typed variables get a direct path over JSON data. */
  variableTypes?: Record<string, CelType>;
  /** dottedRoots(variables, typeValues), when the environment made it once (else looked up per use). */
  roots?: Set<string>;
}

export interface Compiled {
  ev: Ev;
  /** Variable name -> slot. */
  slotOf: Map<string, number>;
  slotCount: number;
  /** Element types of comprehension variables that may be bound to plain JSON (Ctx.raw), by slot. */
  localTypes: Map<number, CelType> | undefined;
}

function charge(c: Ctx, n: number): void {
  c.cost += n;
  if (c.cost > c.limit) throw new CelCostLimitError();
}

// cel-go: calls without a matching overload fail with `no such overload: <function>`; logical operators and
// the conditional with non-bool operands fail with a bare `no such overload`.
function noOverload(fn: string, _args: CelValue[]): CelError {
  if (fn === '_&&_' || fn === '_||_' || fn === '_?_:_') return new CelError('no such overload');
  return new CelError(`no such overload: ${fn}`);
}

export function matchesType(v: CelValue, t: CelType): boolean {
  switch (t.kind) {
    case 'int': return typeof v === 'bigint';
    case 'uint': return v instanceof CelUint;
    case 'double': return typeof v === 'number';
    case 'bool': return typeof v === 'boolean';
    case 'string': return typeof v === 'string';
    case 'bytes': return v instanceof Uint8Array;
    case 'null_type': return v === null;
    case 'timestamp': return v instanceof CelTimestamp;
    case 'duration': return v instanceof CelDuration;
    case 'list': return Array.isArray(v);
    case 'map': return v instanceof CelMap;
    case 'object': return v instanceof CelMap;
    case 'type': return v instanceof CelTypeValue;
    case 'optional': return v instanceof CelOptional;
    case 'opaque': return v instanceof CelOpaque && v.celType.kind === 'opaque' && v.celType.name === t.name;
    case 'dyn':
    case 'param':
      return true;
    default:
      return false;
  }
}

function setPos(e: unknown, node: Expr): void {
  if (e instanceof CelError && e.offset === undefined) {
    e.offset = node.offset;
    e.length = node.length;
  }
}

export class Compiler {
  #slotOf = new Map<string, number>();
  #slots = 0;
  #scopes: Map<string, number>[] = [];
  /** Root identifiers of attribute chains used as ternary branches (cel-go resolves them uncharged). */
  #freeRoots: Set<Expr> | undefined;
  /**
   * Int-typed operands that can answer as a plain JavaScript safe integer without making a bigint: field
   * chains over JSON ending at an int field, int literals (`intConst`, a reader made on demand) and size() of
   * a JSON list. A reader charges what its Ev charges when it answers, and nothing when it answers undefined
   * (then the Ev is evaluated instead). Each of them is registered as the last Ev built, just before it is
   * returned, and a call takes its arguments' readers as it builds each (invoke): one pair of fields instead
   * of a map keyed by closures (a closure used as a key is hashed, the largest cost of compiling `x == 1`).
   */
  #intEv: Ev | undefined;
  #intRead: ((c: Ctx) => number | undefined) | undefined;
  #intConst = 0;
  /**
   * Comprehension variables iterating a list read as plain JSON: their element type by slot. In such a loop
   * the variable's slot is empty and Ctx.raw holds the element; field chains over it read the JSON directly
   * and loading it whole converts it (fromRaw), as for variables given as JSON.
   */
  #localTypes: Map<number, CelType> | undefined;
  /**
   * The chain built last that reads a list or map over JSON (chain()): its node, slot, field names and
   * charge, so that rawAt on the same node (built just before: a comprehension's range, the argument of
   * size(), `in` or an index) takes them instead of walking the chain and its declared types again.
   */
  #rawE: Expr | undefined;
  /** The last variable (not a local) that chain() took as a root, and its slot. */
  #chainRoot: string | undefined;
  #chainSlot = 0;
  #rawSlot = 0;
  #rawFields: string[] | undefined;
  #rawCost = 0;
  readonly #info: CompileInfo;
  constructor(info: CompileInfo) {
    this.#info = info;
  }

  #setIntReader(ev: Ev, read: (c: Ctx) => number | undefined): void {
    this.#intEv = ev;
    this.#intRead = read;
  }

  /** The int reader of `ev` when it is the Ev built last (see intEv). */
  #intReader(ev: Ev): ((c: Ctx) => number | undefined) | undefined {
    if (ev !== this.#intEv) return undefined;
    if (this.#intRead !== undefined) return this.#intRead;
    const n = this.#intConst;
    return (this.#intRead = () => n);
  }

  compile(e: Expr): Compiled {
    const ev = this.#expr(e);
    return { ev, slotOf: this.#slotOf, slotCount: this.#slots, localTypes: this.#localTypes };
  }

  /** First segments of the dotted variable and type names (checker.ts dottedRoots). */
  #dotted(): Set<string> {
    return this.#info.roots ?? dottedRoots(this.#info.variables, this.#info.typeValues);
  }

  #local(name: string): number | undefined {
    for (let i = this.#scopes.length - 1; i >= 0; i--) {
      const s = this.#scopes[i].get(name);
      if (s !== undefined) return s;
    }
    return undefined;
  }

  #globalSlot(name: string): number {
    let s = this.#slotOf.get(name);
    if (s === undefined) {
      s = this.#slots++;
      this.#slotOf.set(name, s);
    }
    return s;
  }

  #loadSlot(s: number, name: string, free = false): Ev {
    if (free) {
      return (c) => {
        const v = c.slots[s];
        if (v === undefined) return fromRaw(c, s, name);
        if (v instanceof CelError) throw v;
        return v;
      };
    }
    return (c) => {
      c.cost++;
      if (c.cost > c.limit) throw new CelCostLimitError();
      const v = c.slots[s];
      if (v === undefined) return fromRaw(c, s, name);
      if (v instanceof CelError) throw v;
      return v;
    };
  }

  /** Qualified name of an ident/select chain, when no part is a local variable. */
  #qualifiedName(e: Expr): string | undefined {
    if (e.kind === 'ident') return this.#local(e.name) === undefined ? e.name : undefined;
    if (e.kind === 'select' && !e.testOnly && !e.optional) {
      const p = this.#qualifiedName(e.operand);
      return p === undefined ? undefined : `${p}.${e.field}`;
    }
    return undefined;
  }

  #expr(e: Expr): Ev {
    switch (e.kind) {
      case 'literal': {
        const v = e.value;
        const ev: Ev = () => v;
        if (typeof v === 'bigint') {
          // a safe integer (|v| <= 2^53 - 1): its reader answers the number
          const n = Number(v);
          if (Number.isSafeInteger(n)) {
            this.#intEv = ev;
            this.#intRead = undefined;
            this.#intConst = n;
          }
        }
        return ev;
      }
      case 'ident':
        return this.#ident(e.name, e);
      case 'select':
        return this.#select(e);
      case 'call':
        return this.#call(e);
      case 'list':
        return this.#list(e);
      case 'map':
        return this.#map(e);
      case 'struct':
        return () => {
          throw Object.assign(new CelError(`unknown type: ${e.typeName}`), { offset: e.offset, length: e.length });
        };
      case 'comprehension':
        return this.#comprehension(e);
    }
  }

  #ident(rawName: string, node: Expr): Ev {
    const name = rawName.startsWith('.') ? rawName.slice(1) : rawName;
    const l = rawName.startsWith('.') ? undefined : this.#local(name);
    // the root of an attribute used as a ternary branch is resolved without a charge (see conditional)
    const free = this.#freeRoots?.has(node) === true;
    if (l !== undefined) return this.#loadSlot(l, name, free);
    if (this.#info.variables.has(name)) return this.#loadSlot(this.#globalSlot(name), name, free);
    const tv = this.#info.typeValues.get(name);
    if (tv) return () => tv;
    const k = this.#info.constants?.get(name);
    if (k !== undefined) return () => k;
    // undeclared: resolved from the activation at runtime (unchecked expressions)
    return this.#loadSlot(this.#globalSlot(name), name, free);
  }

  #select(e: Extract<Expr, { kind: 'select' }>): Ev {
    if (e.testOnly && !e.optional) {
      const fast = this.#jsonHas(e) ?? this.#localJsonHas(e);
      if (fast) return fast;
    }
    if (!e.testOnly && !e.optional) {
      const chain = this.#chain(e);
      if (chain) return chain;
      const fast = this.#localJsonChain(e);
      if (fast) return fast;
    }
    const direct = this.#plainChain(e);
    if (direct) return direct;
    // qualified identifiers: the longest declared variable prefix wins (a.b.c with variable `a.b`)
    const q = this.#qualifiedName(e);
    if (q !== undefined) {
      // a leading dot names a global: a comprehension variable of the same name does not shadow it
      const absolute = q.charCodeAt(0) === 46;
      const qn = absolute ? q.slice(1) : q;
      const parts = qn.split('.');
      // the prefixes of n parts, longest first: qn up to its n-th dot; only the root itself when no dotted
      // variable or type name starts with it
      const rootOnly = !this.#dotted().has(parts[0]);
      for (let n = rootOnly ? 1 : parts.length, end = rootOnly ? parts[0].length : qn.length; n >= 1; n--, end = qn.lastIndexOf('.', end - 1)) {
        const name = n === parts.length ? qn : qn.slice(0, end);
        const isVar = this.#info.variables.has(name) || (!absolute && n === 1 && this.#local(name) !== undefined);
        const tv = n === parts.length ? this.#info.typeValues.get(name) : undefined;
        if (isVar) {
          let ev = this.#ident(absolute ? `.${name}` : name, rootIdent(e) ?? e);
          for (const f of parts.slice(n)) ev = this.#fieldSel(ev, f, e, false);
          if (n < parts.length && this.#local(name) === undefined && this.#info.variables.has(name)) {
            const direct = this.#jsonChain(name, parts.slice(n), rootIdent(e) ?? e, ev);
            if (direct) return direct;
          }
          return ev;
        }
        if (tv) return () => tv;
      }
    }
    const operand = this.#expr(e.operand);
    return this.#fieldSel(operand, e.field, e, !!e.testOnly);
  }

  /**
   * A chain of plain selects (no dot in a field name) from a root identifier that is a local, or a declared
   * variable that starts no dotted variable or type name: the common case of the paths below, decided in one
   * walk. Its general path is one closure (chainEv); when the checker's types say the root and every step
   * but the last are schema objects and the last a scalar, and the data may come as JSON (a variable, or a
   * local bound to JSON elements), the direct JSON path is taken with the general one as its fallback.
   * Undefined for any other chain (the paths below then answer as before).
   */
  #chain(e: SelectExpr): Ev | undefined {
    // a first walk to the root: the chain's length, and whether the checker typed every operand on the way
    // as a schema object (the direct path's condition) and no field name has '__' (an escaped property name)
    const types = this.#info.types;
    let n = 0;
    let objects = types !== undefined;
    let r: Expr = e;
    while (r.kind === 'select' && !r.testOnly && !r.optional) {
      const d = dotsAndUnderscores(r.field);
      if (d & 1) return undefined;
      if (d & 2) objects = false;
      r = r.operand;
      if (objects && types![r.id]?.kind !== 'object') objects = false;
      n++;
    }
    if (r.kind !== 'ident' || r.name.charCodeAt(0) === 46) return undefined;
    const name = r.name;
    const l = this.#local(name);
    let slot: number;
    let json: boolean;
    if (l !== undefined) {
      slot = l;
      json = this.#localTypes?.has(l) === true;
    } else {
      // (the root of the chain before, most often the same variable, is known to qualify)
      if (name === this.#chainRoot) slot = this.#chainSlot;
      else {
        if (dotsAndUnderscores(name) & 1 || this.#dotted().has(name) || !this.#info.variables.has(name)) return undefined;
        slot = this.#chainSlot = this.#globalSlot(name);
        this.#chainRoot = name;
      }
      json = this.#info.variableTypes !== undefined;
    }
    // the field names root first; for a local, the select of each (its errors' positions)
    const fields = new Array<string>(n);
    const nodes = l === undefined ? undefined : new Array<Expr>(n);
    let x: Expr = e;
    for (let i = n - 1; i >= 0; i--) {
      const sel = x as SelectExpr;
      fields[i] = sel.field;
      if (nodes !== undefined) nodes[i] = sel;
      x = sel.operand;
    }
    const free = this.#freeRoots?.has(r) === true;
    // positions of the general path's errors: the whole chain for a variable, each select for a local (as the
    // qualified-name path and the step-by-step path below report them)
    const t = json && objects ? types![e.id] : undefined;
    const k = t?.kind;
    if (k !== 'string' && k !== 'int' && k !== 'bool' && k !== 'double') {
      if (k === 'list' || k === 'map') {
        // what rawAt would find for this node (a range, size(), `in` or an index built next reads it)
        this.#rawE = e;
        this.#rawSlot = slot;
        this.#rawFields = fields;
        this.#rawCost = (free ? 0 : 1) + n;
      }
      return chainEv(slot, name, free, fields, nodes, e);
    }
    // the direct path, whose fallback runs the general one (runChain) without a closure of its own
    return this.#scalarChain(slot, fields, (free ? 0 : 1) + n, t!, undefined, name, free, nodes, e);
  }

  /**
   * The common case of the qualified-name resolution below, without building the name: a chain of plain
   * selects from a root identifier that is not a local and starts no dotted variable or type name, with
   * no dot in a field name. Its only candidate is the root itself; undefined when the case does not apply
   * or the root is not a variable (the general resolution then answers as before).
   */
  #plainChain(e: Extract<Expr, { kind: 'select' }>): Ev | undefined {
    const fields: string[] = [];
    let r: Expr = e;
    while (r.kind === 'select' && !r.testOnly && !r.optional) {
      if (r.field.includes('.')) return undefined;
      fields.push(r.field);
      r = r.operand;
    }
    if (r.kind !== 'ident' || fields.length === 0 || this.#local(r.name) !== undefined) return undefined;
    // a leading dot names the global, never a comprehension variable of the same name
    const absolute = r.name.charCodeAt(0) === 46;
    const name = absolute ? r.name.slice(1) : r.name;
    if (name.includes('.') || this.#dotted().has(name)) return undefined;
    if (!(this.#info.variables.has(name) || (!absolute && this.#local(name) !== undefined))) return undefined;
    fields.reverse();
    let ev = this.#ident(r.name, r);
    for (const f of fields) ev = this.#fieldSel(ev, f, e, false);
    if (this.#local(name) === undefined && this.#info.variables.has(name)) {
      const direct = this.#jsonChain(name, fields, r, ev);
      if (direct) return direct;
    }
    return ev;
  }

  /**
   * `v.f1.f2...fn` over a variable of a schema object type whose fields f1..fn-1 are objects and fn a
   * scalar: when the variable came as JSON (evaluateJson) the chain reads the plain objects directly and
   * converts only the scalar at its end, charging what the step-by-step path charges. Anything unusual
   * (a field absent or null, data not of the declared shape, the cost limit near) takes the general path,
   * which produces the same value or the same error.
   */
  /** A field chain rooted at a comprehension variable bound to JSON elements (see localTypes). */
  #localJsonChain(e: Extract<Expr, { kind: 'select' }>): Ev | undefined {
    let r: Expr = e;
    while (r.kind === 'select' && !r.testOnly && !r.optional) r = r.operand;
    if (r.kind !== 'ident' || r.name.startsWith('.')) return undefined;
    const slot = this.#local(r.name);
    if (slot === undefined || this.#localTypes?.has(slot) !== true) return undefined;
    const fields: string[] = [];
    for (let x: Expr = e; x !== r; x = (x as Extract<Expr, { kind: 'select' }>).operand) fields.unshift((x as Extract<Expr, { kind: 'select' }>).field);
    const general = this.#fieldSel(this.#expr(e.operand), e.field, e, false);
    return this.#jsonChain(r.name, fields, r, general);
  }

  /** The slot and declared type of a chain's root: a global variable, or a local bound to JSON elements. */
  #rawRoot(name: string): { slot: number; type: CelType | undefined } | undefined {
    const l = this.#local(name);
    if (l !== undefined) return this.#localTypes?.has(l) === true ? { slot: l, type: this.#localTypes.get(l) } : undefined;
    if (!this.#info.variables.has(name)) return undefined;
    return { slot: this.#globalSlot(name), type: this.#info.variableTypes?.[name] };
  }

  /**
   * A range `v.f1...fn` whose declared type is a list, over JSON: the plain array (charging what the
   * chain charges), or undefined (nothing charged) when the data is not of that shape.
   */
  #rawList(e: Expr): { read: (c: Ctx) => unknown[] | undefined; elem: CelType } | undefined {
    const r = this.#rawAt(e, 'list');
    return r && r.type.kind === 'list' ? { read: r.read as (c: Ctx) => unknown[] | undefined, elem: r.type.elem } : undefined;
  }

  /**
   * A chain `v.f1...fn` whose declared type is a list (or a map), over JSON: the plain array (or object),
   * charging what the chain charges, or undefined (nothing charged) when the data is not of that shape.
   */
  #rawAt(e: Expr, want: 'list' | 'map'): { read: (c: Ctx) => unknown | undefined; type: CelType } | undefined {
    if (e === this.#rawE) {
      // chain() built this node and found it a list or map over JSON, every step a schema object
      const t = this.#info.types![e.id]!;
      return t.kind === want ? rawRead(this.#rawSlot, this.#rawFields!, this.#rawCost, want === 'list', t) : undefined;
    }
    const fields: string[] = [];
    let r: Expr = e;
    while (r.kind === 'select' && !r.testOnly && !r.optional) {
      // (a field name with '__' is an escaped property name: no direct path)
      if (dotsAndUnderscores(r.field) & 2) return undefined;
      fields.push(r.field);
      r = r.operand;
    }
    if (r.kind !== 'ident' || r.name.charCodeAt(0) === 46 || fields.length === 0) return undefined;
    fields.reverse();
    // a dotted variable name (`a.b`) resolves differently: leave it to the general path
    if (dotsAndUnderscores(r.name) & 1 || this.#dotted().has(r.name)) {
      for (let n = 1; n <= fields.length; n++) if (this.#info.variables.has([r.name, ...fields.slice(0, n)].join('.'))) return undefined;
    }
    const root = this.#rawRoot(r.name);
    if (!root) return undefined;
    let t = root.type;
    for (const f of fields) {
      if (!t || t.kind !== 'object') return undefined;
      t = t.field(f);
    }
    if (!t || t.kind !== want) return undefined;
    return rawRead(root.slot, fields, (this.#freeRoots?.has(r) === true ? 0 : 1) + fields.length, want === 'list', t);
  }

  #jsonChain(name: string, fields: string[], root: Expr, general: Ev): Ev | undefined {
    const rr = this.#rawRoot(name);
    if (!rr) return undefined;
    let t = rr.type;
    const raws: string[] = [];
    for (let i = 0; i < fields.length; i++) {
      if (!t || t.kind !== 'object') return undefined;
      const f = fields[i];
      if (f === '__proto__' || f.includes('__')) return undefined;
      raws.push(f);
      t = t.field(f);
    }
    if (!t) return undefined;
    const k = t.kind;
    if (k !== 'string' && k !== 'int' && k !== 'bool' && k !== 'double') return undefined;
    return this.#scalarChain(rr.slot, raws, (this.#freeRoots?.has(root) === true ? 0 : 1) + fields.length, t, general);
  }

  /**
   * The direct path of a chain to a scalar over JSON (see jsonChain). Its fallback is `general`, or without
   * it the general path of chain() (runChain over the same fields from `name`'s slot, errors at `nodes` or
   * `at`), run from this closure. An int chain also registers its reader (intEv).
   */
  #scalarChain(slot: number, raws: string[], cost: number, leaf: CelType, general: Ev | undefined, name = '', free = false, nodes?: Expr[], at?: Expr): Ev {
    const k = leaf.kind;
    const n = raws.length;
    const ev: Ev = (c) => {
      const x = rawWalk(c, slot, raws, cost);
      switch (typeof x) {
        case 'string':
          if (k !== 'string') break;
          c.cost += cost;
          return x;
        case 'boolean':
          if (k !== 'bool') break;
          c.cost += cost;
          return x;
        case 'number':
          if (k !== 'int' && k !== 'double') break;
          c.cost += cost;
          return fromJson(x, leaf);
      }
      return general !== undefined ? general(c) : runChain(c, slot, name, free, raws, nodes, at!);
    };
    if (k === 'int') {
      this.#setIntReader(ev, (c) => {
        // the walk of rawWalk, inline: this reader is the hottest (int comparisons in comprehensions)
        const raw = c.raw;
        let x = raw === undefined ? undefined : raw[slot];
        if (x === undefined || c.cost + cost > c.limit) return undefined;
        for (let i = 0; i < n; i++) {
          if (!isPlainObject(x)) return undefined;
          x = (x as Record<string, unknown>)[raws[i]];
        }
        if (typeof x !== 'number' || !Number.isSafeInteger(x)) return undefined;
        c.cost += cost;
        return x;
      });
    }
    return ev;
  }

  /**
   * `has(v.f1...fn.g)` over a variable of a schema object type whose fields f1..fn are objects: with JSON
   * data the test reads the plain objects; anything unusual takes the general path (same answer, charges
   * and errors).
   */
  #jsonHas(e: Extract<Expr, { kind: 'select' }>): Ev | undefined {
    if (e.field.includes('__')) return undefined;
    // the common case without building the qualified name: a chain of plain selects (no dot in a field
    // name) from a root that is a declared variable, not a local, and starts no dotted name
    const fields: string[] = [];
    let r: Expr = e.operand;
    let plain = true;
    while (r.kind === 'select' && !r.testOnly && !r.optional) {
      if (r.field.includes('.')) plain = false;
      fields.push(r.field);
      r = r.operand;
    }
    if (r.kind !== 'ident') return undefined;
    if (plain && !r.name.startsWith('.') && !this.#dotted().has(r.name)) {
      if (!this.#info.variables.has(r.name) || this.#local(r.name) !== undefined) return undefined;
      return this.#jsonHasAt(e, r.name, fields.reverse());
    }
    const q = this.#qualifiedName(e.operand);
    if (q === undefined || q.startsWith('.') || e.field.includes('__')) return undefined;
    const parts = q.split('.');
    const name = parts[0];
    if (!this.#info.variables.has(name) || this.#local(name) !== undefined) return undefined;
    for (let n = 2; n <= parts.length; n++) if (this.#info.variables.has(parts.slice(0, n).join('.'))) return undefined;
    return this.#jsonHasAt(e, name, parts.slice(1));
  }

  /** has() over a chain rooted at a comprehension variable bound to JSON elements. */
  #localJsonHas(e: Extract<Expr, { kind: 'select' }>): Ev | undefined {
    const fields: string[] = [];
    let r: Expr = e.operand;
    while (r.kind === 'select' && !r.testOnly && !r.optional) {
      fields.unshift(r.field);
      r = r.operand;
    }
    if (r.kind !== 'ident' || r.name.startsWith('.') || e.field.includes('__')) return undefined;
    const slot = this.#local(r.name);
    if (slot === undefined || this.#localTypes?.has(slot) !== true) return undefined;
    return this.#jsonHasAt(e, r.name, fields);
  }

  #jsonHasAt(e: Extract<Expr, { kind: 'select' }>, name: string, raws: string[]): Ev | undefined {
    const rr = this.#rawRoot(name);
    if (!rr) return undefined;
    let t = rr.type;
    for (const f of raws) {
      if (!t || t.kind !== 'object' || f.includes('__')) return undefined;
      t = t.field(f);
    }
    if (!t || t.kind !== 'object') return undefined;
    const root = rootIdent(e);
    const general = this.#fieldSel(this.#expr(e.operand), e.field, e, true);
    const slot = rr.slot;
    const cost = (root && this.#freeRoots?.has(root) === true ? 0 : 1) + raws.length;
    const field = e.field;
    return (c) => {
      const x = rawWalk(c, slot, raws, cost);
      if (!isPlainObject(x)) return general(c);
      const v = (x as Record<string, unknown>)[field];
      if (v === undefined || typeof v === 'function') return general(c);
      c.cost += cost;
      // object fields set to null are absent
      return v !== null;
    };
  }

  #fieldSel(operand: Ev, field: string, node: Expr, testOnly: boolean): Ev {
    if (testOnly) {
      return (c) => {
        const v = operand(c);
        if (v instanceof CelMap) return v.getStr(field) !== undefined;
        if (v instanceof CelOptional) {
          if (!v.hasValue) return false;
          const inner = v.value;
          if (inner instanceof CelMap) return inner.getStr(field) !== undefined;
        }
        throw Object.assign(new CelError(`invalid type for field selection.`), { offset: node.offset, length: node.length });
      };
    }
    return (c) => {
      const v = operand(c);
      c.cost++;
      if (c.cost > c.limit) throw new CelCostLimitError();
      return selectField(v, field, node);
    };
  }

  #list(e: Extract<Expr, { kind: 'list' }>): Ev {
    const elems = e.elems.map((x) => this.#expr(x));
    if (e.optionalIndices.length === 0) {
      return (c) => {
        const out = new Array<CelValue>(elems.length);
        for (let i = 0; i < elems.length; i++) out[i] = elems[i](c);
        charge(c, 10);
        return out;
      };
    }
    const opt = new Set(e.optionalIndices);
    return (c) => {
      const out: CelValue[] = [];
      for (let i = 0; i < elems.length; i++) {
        const v = elems[i](c);
        if (opt.has(i)) {
          if (!(v instanceof CelOptional)) throw Object.assign(new CelError(`cannot initialize optional list element from non-optional value ${valueTypeName(v)}`), { offset: e.elems[i].offset, length: e.elems[i].length });
          if (v.hasValue) out.push(v.value!);
        } else out.push(v);
      }
      charge(c, 10);
      return out;
    };
  }

  #map(e: Extract<Expr, { kind: 'map' }>): Ev {
    const entries = e.entries.map((en) => ({ k: this.#expr(en.key), v: this.#expr(en.value), opt: en.optional, node: en }));
    return (c) => {
      const m = new CelMap();
      for (const en of entries) {
        const k = en.k(c);
        let v = en.v(c);
        if (en.opt) {
          if (!(v instanceof CelOptional)) throw Object.assign(new CelError(`cannot initialize optional entry '${String(k)}' from non-optional value ${valueTypeName(v)}`), { offset: en.node.offset, length: 1 });
          if (!v.hasValue) continue;
          v = v.value!;
        }
        if (typeof k === 'number' || !(typeof k === 'string' || typeof k === 'bigint' || typeof k === 'boolean' || k instanceof CelUint)) {
          throw Object.assign(new CelError(`unsupported key type: ${valueTypeName(k)}`), { offset: en.node.key.offset, length: en.node.key.length });
        }
        if (!m.set(k, v)) throw Object.assign(new CelError(`Failed with repeated key`), { offset: en.node.key.offset, length: en.node.key.length });
      }
      charge(c, 30);
      return m;
    };
  }

  #comprehension(e: ComprehensionExpr): Ev {
    const range = this.#expr(e.iterRange);
    const rawRange = e.iterVar2 ? undefined : this.#rawList(e.iterRange);
    const init = this.#expr(e.accuInit);
    const accuSlot = this.#slots++;
    const scope = new Map<string, number>().set(e.accuVar, accuSlot);
    this.#scopes.push(scope);
    const iterSlot = this.#slots++;
    scope.set(e.iterVar, iterSlot);
    if (rawRange) (this.#localTypes ??= new Map()).set(iterSlot, rawRange.elem);
    const readRaw = rawRange?.read;
    let iter2Slot = -1;
    if (e.iterVar2) {
      iter2Slot = this.#slots++;
      scope.set(e.iterVar2, iter2Slot);
    }
    const cond = this.#expr(e.loopCond);
    const step = this.#expr(e.loopStep);
    const result = this.#expr(e.result);
    this.#scopes.pop();
    // the accumulator is visible to the result only (and to the step/cond above)
    const two = !!e.iterVar2;
    const runStep = (c: Ctx) => {
      try {
        c.slots[accuSlot] = step(c);
      } catch (err) {
        if (err instanceof CelError) c.slots[accuSlot] = err;
        else throw err;
      }
    };
    const condOk = (c: Ctx): boolean => {
      const v = cond(c);
      if (v === true) return true;
      if (v === false) return false;
      throw new CelError('no such overload');
    };
    return (c) => {
      const rr = readRaw === undefined ? undefined : readRaw(c);
      const r: CelValue = rr === undefined ? range(c) : (rr as CelValue[]);
      let accu = init(c);
      // an empty list accumulator (map, filter) gets a private array that concatenation may append to
      const appendable = Array.isArray(accu) && accu.length === 0 && !listTypeOf(accu);
      let prevTarget: CelValue[] | undefined;
      if (appendable) prevTarget = beginAppend((accu = []));
      c.slots[accuSlot] = accu;
      try {
        if (rr !== undefined) {
          // elements stay JSON: the variable's slot is empty and Ctx.raw holds the element (see localTypes)
          const raw = c.raw!;
          for (let i = 0; i < rr.length; i++) {
            if (!condOk(c)) break;
            c.slots[iterSlot] = undefined as unknown as CelValue;
            raw[iterSlot] = rr[i];
            runStep(c);
          }
          raw[iterSlot] = undefined;
          c.slots[iterSlot] = undefined as unknown as CelValue;
        } else if (Array.isArray(r)) {
          if (c.raw !== undefined) c.raw[iterSlot] = undefined;
          for (let i = 0; i < r.length; i++) {
            if (!condOk(c)) break;
            if (two) {
              c.slots[iterSlot] = BigInt(i);
              c.slots[iter2Slot] = r[i];
            } else c.slots[iterSlot] = r[i];
            runStep(c);
          }
        } else if (r instanceof CelMap) {
          if (c.raw !== undefined) c.raw[iterSlot] = undefined;
          for (const [k, v] of r.entries()) {
            if (!condOk(c)) break;
            c.slots[iterSlot] = k;
            if (two) c.slots[iter2Slot] = v;
            runStep(c);
          }
        } else {
          throw Object.assign(new CelError(`expression of type '${valueTypeName(r)}' cannot be range of a comprehension (must be list, map, or dynamic)`), { offset: e.iterRange.offset, length: e.iterRange.length });
        }
      } finally {
        if (appendable) endAppend(prevTarget);
      }
      const out = result(c);
      c.slots[accuSlot] = undefined as unknown as CelValue;
      return out;
    };
  }

  #call(e: CallExpr): Ev {
    switch (e.fn) {
      case '_&&_':
        return this.#logical(e, false);
      case '_||_':
        return this.#logical(e, true);
      case '_?_:_':
        return this.#conditional(e);
      case '@not_strictly_false': {
        const a = this.#expr(e.args[0]);
        return (c) => {
          let v: CelValue;
          try {
            v = a(c);
          } catch (err) {
            if (err instanceof CelError) return true;
            throw err;
          }
          charge(c, 1);
          return v !== false;
        };
      }
      case '_?._': {
        const t = this.#expr(e.args[0]);
        const field = (e.args[1] as Extract<Expr, { kind: 'literal' }>).value as string;
        return (c) => {
          const v = t(c);
          charge(c, 1);
          if (v instanceof CelOptional) {
            if (!v.hasValue) return v;
            return optSelect(v.value!, field, e);
          }
          return optSelect(v, field, e);
        };
      }
      case '_[?_]': {
        const t = this.#expr(e.args[0]);
        const k = this.#expr(e.args[1]);
        return (c) => {
          const v = t(c);
          const key = k(c);
          charge(c, 1);
          if (v instanceof CelOptional) {
            if (!v.hasValue) return v;
            return optIndex(v.value!, key, e);
          }
          return optIndex(v, key, e);
        };
      }
      case '_[_]': {
        const t = this.#expr(e.args[0]);
        const k = this.#expr(e.args[1]);
        const key = e.args[1].kind === 'literal' ? e.args[1].value : undefined;
        const rm = typeof key === 'string' && key !== '__proto__' && !e.target ? this.#rawAt(e.args[0], 'map') : undefined;
        if (rm && rm.type.kind === 'map' && typeof key === 'string') {
          // m['key'] over a map read as JSON: a scalar value is read directly; anything else is converted
          // and indexed as the general path does (same charges)
          const read = rm.read, mt = rm.type, vt = rm.type.value, vk = vt.kind;
          return (c) => {
            const m = read(c) as Record<string, unknown> | undefined;
            if (m === undefined) {
              const v = t(c);
              charge(c, 1);
              if (v instanceof CelOptional) return v.hasValue ? optIndex(v.value!, key, e) : v;
              try {
                return indexValue(v, key);
              } catch (err) {
                setPos(err, e);
                throw err;
              }
            }
            charge(c, 1);
            const x = Object.prototype.hasOwnProperty.call(m, key) ? m[key] : undefined;
            if (typeof x === 'string' && (vk === 'string' || vk === 'dyn')) return x;
            if (typeof x === 'boolean' && (vk === 'bool' || vk === 'dyn')) return x;
            try {
              return indexValue(fromJson(m, mt), key);
            } catch (err) {
              setPos(err, e);
              throw err;
            }
          };
        }
        return (c) => {
          const v = t(c);
          const key = k(c);
          charge(c, 1);
          if (v instanceof CelOptional) {
            if (!v.hasValue) return v;
            return optIndex(v.value!, key, e);
          }
          try {
            return indexValue(v, key);
          } catch (err) {
            setPos(err, e);
            throw err;
          }
        };
      }
      case 'cel.@mapInsert': {
        const args = e.args.map((a) => this.#expr(a));
        return (c) => {
          const m = args[0](c) as CelMap;
          const out = new CelMap(m.entries());
          if (args.length === 3) {
            const k = args[1](c);
            if (out.has(k)) throw Object.assign(new CelError(`insert failed: key ${String(k)} already exists`), { offset: e.offset, length: 1 });
            out.set(k, args[2](c));
          } else {
            const add = args[1](c);
            if (!(add instanceof CelMap)) throw noOverload('cel.@mapInsert', [m, add]);
            for (const [k, v] of add.entries()) {
              if (out.has(k)) throw Object.assign(new CelError(`insert failed: key ${String(k)} already exists`), { offset: e.offset, length: 1 });
              out.set(k, v);
            }
          }
          charge(c, 1);
          return out;
        };
      }
    }
    if (e.target && (e.fn === 'or' || e.fn === 'orValue') && e.args.length === 1) {
      // optional.or / orValue short-circuit (cel-go plans them specially)
      const t = this.#expr(e.target);
      const a = this.#expr(e.args[0]);
      const isOr = e.fn === 'or';
      const userOverloads = this.#info.functions.member.get(e.fn) ?? [];
      return (c) => {
        const v = t(c);
        if (v instanceof CelOptional) {
          charge(c, 1);
          if (v.hasValue) return isOr ? v : v.value!;
          const alt = a(c);
          if (isOr && !(alt instanceof CelOptional)) throw Object.assign(noOverload(e.fn, [v, alt]), { offset: e.offset, length: e.length });
          return alt;
        }
        return this.#dispatch(userOverloads, e, [v, a(c)], c);
      };
    }
    // qualified global function names written as member calls (optional.of, math.greatest, base64.encode)
    if (e.target) {
      const q = qualifiedFnSuffixes(this.#info.functions.global).has(e.fn) ? this.#qualifiedName(e.target) : undefined;
      if (q !== undefined) {
        // a leading dot names the global function (`.optional.of(1)`), as the checker resolves it: unless a
        // comprehension variable has the root's name (the checker then takes the member call as well)
        const dot = q.charCodeAt(0) === 46;
        const qn = dot ? q.slice(1) : q;
        const root = qn.split('.')[0];
        const fn = `${qn}.${e.fn}`;
        if (!this.#info.variables.has(root) && (!dot || this.#local(root) === undefined) && this.#info.functions.global.has(fn)) {
          return this.#invoke(fn, this.#info.functions.global.get(fn)!, e, e.args);
        }
      }
      const ovs = this.#info.functions.member.get(e.fn);
      if (!ovs) return this.#unknownFunction(e);
      return this.#invoke(e.fn, ovs, e, [e.target, ...e.args]);
    }
    const name = e.fn.startsWith('.') ? e.fn.slice(1) : e.fn;
    // the list the checker resolved this call from is the global table's entry for `name` (checker.ts call)
    const ovs = this.#info.chosenFrom?.[e.id] ?? this.#info.functions.global.get(name);
    if (!ovs) return this.#unknownFunction(e);
    return this.#invoke(name, ovs, e, e.args);
  }

  #unknownFunction(e: CallExpr): Ev {
    return () => {
      throw Object.assign(new CelError(`no such overload: ${e.fn}`), { offset: e.offset, length: e.length });
    };
  }

  #invoke(name: string, all: CelOverload[], e: CallExpr, argExprs: Expr[]): Ev {
    const member = !!e.target && argExprs.length === e.args.length + 1;
    // the checker's choice, taken as it made it when it chose from this same list (else filtered by id)
    const chosen = this.#info.chosenFrom?.[e.id] === all ? this.#info.chosen?.[e.id] : undefined;
    let ovs: CelOverload[];
    if (chosen !== undefined && chosen.length > 0) {
      // (the checker chose among the overloads of this call's form, member or not, as below)
      ovs = chosen;
    } else {
      const ids = this.#info.overloadsByNode?.[e.id];
      ovs = ids ? all.filter((o) => ids.includes(o.id)) : all;
      if (ovs.length === 0) ovs = all;
      ovs = ovs.filter((o) => !!o.member === member);
    }
    const n = argExprs.length;
    const args = new Array<Ev>(n);
    let readers: (((c: Ctx) => number | undefined) | undefined)[] | undefined;
    for (let i = 0; i < n; i++) {
      const ev = (args[i] = this.#expr(argExprs[i]));
      const r = this.#intReader(ev);
      if (r !== undefined) (readers ??= new Array(n))[i] = r;
    }
    return this.#invokeWith(name, ovs, e, argExprs, args, false, readers);
  }

  /**
   * The call's closure over the argument closures `args` (built once: a direct path's general fallback
   * shares them); `general` leaves out the direct JSON paths.
   */
  #invokeWith(name: string, ovs: CelOverload[], e: CallExpr, argExprs: Expr[], args: Ev[], general: boolean, readers?: (((c: Ctx) => number | undefined) | undefined)[]): Ev {
    const n = args.length;
    // the one overload left (the common case of checked expressions), its id read once
    const single = ovs.length === 1 ? ovs[0] : undefined;
    const id = single?.id;
    if (!general && n === 1 && (id === 'size_list' || id === 'list_size') && !single!.cost) {
      // the size of a list read as JSON: its length, without converting its elements
      const rl = this.#rawList(argExprs[0]);
      if (rl) {
        const slow = this.#invokeWith(name, ovs, e, argExprs, args, true, readers);
        const read = rl.read;
        const ev: Ev = (c) => {
          const rr = read(c);
          if (rr === undefined) return slow(c);
          charge(c, 1);
          return BigInt(rr.length);
        };
        this.#setIntReader(ev, (c) => {
          const rr = read(c);
          if (rr === undefined) return undefined;
          charge(c, 1);
          return rr.length;
        });
        return ev;
      }
    }
    if (single !== undefined && n === 1 && single.args.length === 1) {
      const o = single;
      const a0 = args[0];
      const t0 = o.args[0];
      // the cost function's argument array, reused (cost functions read it and keep nothing)
      const one: CelValue[] = [null];
      return (c) => {
        const v = a0(c);
        if (!matchesType(v, t0)) throw Object.assign(noOverload(name, [v]), { offset: e.offset, length: e.length });
        let r: CelValue;
        try {
          r = o.impl(v);
        } catch (err) {
          setPos(err, e);
          throw err;
        }
        if (o.cost) {
          one[0] = v;
          charge(c, o.cost(one, r));
        } else charge(c, 1);
        return r;
      };
    }
    if (!general && n === 2 && id === 'in_map' && !single!.cost) {
      // 'key' in m, m a map read as JSON: an own property of the plain object
      const a = argExprs[0];
      const key = a.kind === 'literal' ? a.value : undefined;
      const rm = typeof key === 'string' && key !== '__proto__' ? this.#rawAt(argExprs[1], 'map') : undefined;
      if (rm && typeof key === 'string') {
        const slow = this.#invokeWith(name, ovs, e, argExprs, args, true, readers);
        const read = rm.read;
        return (c) => {
          const m = read(c);
          if (m === undefined) return slow(c);
          charge(c, 1);
          return Object.prototype.hasOwnProperty.call(m, key);
        };
      }
    }
    if (n === 2 && readers !== undefined && id !== undefined) {
      const rx = readers[0], ry = readers[1];
      const op = INT_COMPARE[id];
      if (rx && ry && op !== undefined) return this.#intCompare(op, rx, ry, args[0], args[1], single!, e, name);
    }
    if (n === 2 && single !== undefined && single.args.length === 2) {
      // one overload left after the checker's choice: no arrays, no spread, no search
      const o = single;
      const a0 = args[0], a1 = args[1];
      const t0 = o.args[0], t1 = o.args[1];
      const impl = o.impl, costOf = o.cost;
      const two: CelValue[] = [null, null];
      return (c) => {
        const x = a0(c);
        const y = a1(c);
        if (!matchesType(x, t0) || !matchesType(y, t1)) throw Object.assign(noOverload(name, [x, y]), { offset: e.offset, length: e.length });
        let r: CelValue;
        try {
          r = impl(x, y);
        } catch (err) {
          setPos(err, e);
          throw err;
        }
        if (costOf) {
          two[0] = x;
          two[1] = y;
          c.cost += costOf(two, r);
        } else c.cost++;
        if (c.cost > c.limit) throw new CelCostLimitError();
        return r;
      };
    }
    if (n === 2) {
      const a0 = args[0], a1 = args[1];
      return (c) => {
        const x = a0(c);
        const y = a1(c);
        return this.#dispatch2(ovs, e, x, y, c, name);
      };
    }
    return (c) => {
      const vals = new Array<CelValue>(n);
      for (let i = 0; i < n; i++) vals[i] = args[i](c);
      return this.#dispatch(ovs, e, vals, c, name);
    };
  }

  /**
   * An int comparison of two operands that can read plain safe integers (see intEv): compared as
   * JavaScript numbers, no bigint made; the same value, cost (1) and errors as the general call.
   */
  #intCompare(op: number, rx: (c: Ctx) => number | undefined, ry: (c: Ctx) => number | undefined, a0: Ev, a1: Ev, o: CelOverload, e: CallExpr, name: string): Ev {
    return (c) => {
      const x = rx(c);
      if (x === undefined) return intCompareSlow(c, a0(c), ry, a1, o, e, name);
      const y = ry(c);
      if (y === undefined) return intCompareSlow(c, BigInt(x), ry, a1, o, e, name);
      if (++c.cost > c.limit) throw new CelCostLimitError();
      switch (op) {
        case 0: return x < y;
        case 1: return x <= y;
        case 2: return x > y;
        case 3: return x >= y;
        case 4: return x === y;
        default: return x !== y;
      }
    };
  }

  #dispatch(ovs: CelOverload[], e: CallExpr, vals: CelValue[], c: Ctx, name = e.fn): CelValue {
    outer: for (let i = 0; i < ovs.length; i++) {
      const o = ovs[i];
      if (o.args.length !== vals.length) continue;
      for (let j = 0; j < vals.length; j++) if (!matchesType(vals[j], o.args[j])) continue outer;
      let r: CelValue;
      try {
        r = o.impl(...vals);
      } catch (err) {
        setPos(err, e);
        throw err;
      }
      const cost = o.cost ? o.cost(vals, r) : 1;
      c.cost += cost;
      if (c.cost > c.limit) throw new CelCostLimitError();
      return r;
    }
    throw Object.assign(noOverload(name, vals), { offset: e.offset, length: e.length });
  }

  #dispatch2(ovs: CelOverload[], e: CallExpr, x: CelValue, y: CelValue, c: Ctx, name: string): CelValue {
    for (let i = 0; i < ovs.length; i++) {
      const o = ovs[i];
      if (o.args.length !== 2 || !matchesType(x, o.args[0]) || !matchesType(y, o.args[1])) continue;
      let r: CelValue;
      try {
        r = o.impl(x, y);
      } catch (err) {
        setPos(err, e);
        throw err;
      }
      c.cost += o.cost ? o.cost([x, y], r) : 1;
      if (c.cost > c.limit) throw new CelCostLimitError();
      return r;
    }
    throw Object.assign(noOverload(name, [x, y]), { offset: e.offset, length: e.length });
  }

  #logical(e: CallExpr, isOr: boolean): Ev {
    const l = this.#expr(e.args[0]);
    const r = this.#expr(e.args[1]);
    const short = isOr; // value that decides the result
    return (c) => {
      let lerr: CelError | undefined;
      let lv: CelValue = null;
      try {
        lv = l(c);
      } catch (err) {
        if (!(err instanceof CelError)) throw err;
        lerr = err;
      }
      if (lv === short) return short;
      if (!lerr && typeof lv !== 'boolean') lerr = Object.assign(noOverload(e.fn, [lv]), { offset: e.offset, length: e.length });
      let rv: CelValue;
      try {
        rv = r(c);
      } catch (err) {
        if (!(err instanceof CelError)) throw err;
        throw lerr ?? err;
      }
      if (rv === short) return short;
      if (lerr) throw lerr;
      if (typeof rv !== 'boolean') throw Object.assign(noOverload(e.fn, [lv, rv]), { offset: e.offset, length: e.length });
      return rv;
    };
  }

  // cel-go plans c ? t : f as a conditional attribute: a branch that is itself an attribute (identifier
  // with selections/indexes) is resolved directly, so its identifier costs nothing (its qualifiers do).
  #conditional(e: CallExpr): Ev {
    const cond = this.#expr(e.args[0]);
    for (const br of [e.args[1], e.args[2]]) {
      const r = attributeRoot(br);
      if (r) (this.#freeRoots ??= new Set()).add(r);
    }
    const a = this.#expr(e.args[1]);
    const b = this.#expr(e.args[2]);
    return (c) => {
      const v = cond(c);
      if (v === true) return a(c);
      if (v === false) return b(c);
      throw Object.assign(noOverload('_?_:_', [v]), { offset: e.offset, length: e.length });
    };
  }
}

/** rawAt's answer: the plain array (or object) at the end of `fields` from a slot, charging `cost`. */
function rawRead(slot: number, fields: string[], cost: number, isList: boolean, type: CelType): { read: (c: Ctx) => unknown | undefined; type: CelType } {
  return {
    type,
    read: (c) => {
      const x = rawWalk(c, slot, fields, cost);
      if (isList ? !Array.isArray(x) : !isPlainObject(x)) return undefined;
      c.cost += cost;
      return x;
    },
  };
}

/** intCompare's general path from its first operand's value (a function, not a closure per compile). */
function intCompareSlow(c: Ctx, x: CelValue, ry: (c: Ctx) => number | undefined, a1: Ev, o: CelOverload, e: CallExpr, name: string): CelValue {
  const yn = ry(c);
  const y = yn === undefined ? a1(c) : BigInt(yn);
  if (!matchesType(x, o.args[0]) || !matchesType(y, o.args[1])) throw Object.assign(noOverload(name, [x, y]), { offset: e.offset, length: e.length });
  const r = o.impl(x, y);
  c.cost += o.cost ? o.cost([x, y], r) : 1;
  if (c.cost > c.limit) throw new CelCostLimitError();
  return r;
}

/** Overloads whose int operands intCompare may compare as numbers, by id (equality of two ints costs 1). */
const INT_COMPARE: Record<string, number> = {
  less_int64: 0, less_equals_int64: 1, greater_int64: 2, greater_equals_int64: 3, equals: 4, not_equals: 5,
};

/** The field `field` of a value, as a step of a field chain (its charge made by the caller). */
function selectField(v: CelValue, field: string, node: Expr): CelValue {
  if (v instanceof CelMap) {
    const r = v.getStr(field);
    if (r === undefined) throw Object.assign(new CelError(`no such key: ${field}`), { offset: node.offset, length: node.length });
    return r;
  }
  if (v instanceof CelOptional) {
    if (!v.hasValue) return v;
    const inner = v.value;
    if (inner instanceof CelMap) {
      const r = inner.getStr(field);
      return r === undefined ? CelOptional.none : CelOptional.of(r);
    }
  }
  throw Object.assign(new CelError(`type '${valueTypeName(v)}' does not support field selection`), { offset: node.offset, length: node.length });
}

/**
 * Bit 1: `s` holds a '.'; bit 2: it holds '__'. (A loop over the char codes: the names are short, and a
 * string search is a call into the runtime.)
 */
function dotsAndUnderscores(s: string): number {
  let d = 0;
  for (let i = 0, prev = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 46) d |= 1;
    else if (c === 95 && prev === 95) d |= 2;
    prev = c;
  }
  return d;
}

/**
 * The general path of a field chain from a slot in one closure: what the slot's load (Compiler.loadSlot)
 * and a field selection per field (Compiler.fieldSel) do, in order; the error of field i at `nodes[i]`, or
 * at `at` for every field without `nodes`.
 */
function chainEv(s: number, name: string, free: boolean, fields: string[], nodes: Expr[] | undefined, at: Expr): Ev {
  return (c) => runChain(c, s, name, free, fields, nodes, at);
}

/** The general path of a field chain (see chainEv). */
function runChain(c: Ctx, s: number, name: string, free: boolean, fields: string[], nodes: Expr[] | undefined, at: Expr): CelValue {
  if (!free) {
    c.cost++;
    if (c.cost > c.limit) throw new CelCostLimitError();
  }
  let v = c.slots[s];
  if (v === undefined) v = fromRaw(c, s, name);
  else if (v instanceof CelError) throw v;
  for (let i = 0; i < fields.length; i++) {
    c.cost++;
    if (c.cost > c.limit) throw new CelCostLimitError();
    v = selectField(v, fields[i], nodes === undefined ? at : nodes[i]);
  }
  return v;
}

/** A variable given as JSON and not converted yet (see Ctx.raw), or the error of an unbound variable. */
function fromRaw(c: Ctx, s: number, name: string): CelValue {
  const r = c.raw === undefined ? undefined : c.raw[s];
  if (r === undefined) throw new CelError(`no such attribute(s): ${name}`);
  const v = fromJson(r, c.rawTypes![s]);
  c.slots[s] = v;
  return v;
}

/**
 * The JSON value at the end of the field chain `raws` from a slot's raw (not yet converted) value, when the
 * chain's cost still fits under the limit; undefined when the slot holds no raw value, the limit is near,
 * a step is not a plain object or a field is absent (the callers then take their general path, or answer
 * undefined, before charging anything). Charges nothing.
 */
function rawWalk(c: Ctx, slot: number, raws: string[], cost: number): unknown {
  const raw = c.raw;
  let x = raw === undefined ? undefined : raw[slot];
  if (x === undefined || c.cost + cost > c.limit) return undefined;
  for (let i = 0; i < raws.length; i++) {
    if (!isPlainObject(x)) return undefined;
    x = (x as Record<string, unknown>)[raws[i]];
  }
  return x;
}

function isPlainObject(x: unknown): boolean {
  if (typeof x !== 'object' || x === null) return false;
  const p = Object.getPrototypeOf(x);
  return p === Object.prototype || p === null;
}

/** Root identifier of an attribute chain (ident, field selections, indexes), or undefined. */
function attributeRoot(e: Expr): Expr | undefined {
  if (e.kind === 'ident') return e;
  if (e.kind === 'select' && !e.testOnly) return attributeRoot(e.operand);
  if (e.kind === 'call' && e.fn === '_[_]' && !e.target) return attributeRoot(e.args[0]);
  return undefined;
}

function rootIdent(e: Expr): Expr | undefined {
  if (e.kind === 'ident') return e;
  if (e.kind === 'select') return rootIdent(e.operand);
  return undefined;
}

function optSelect(v: CelValue, field: string, node: Expr): CelValue {
  if (v instanceof CelMap) {
    const r = v.getStr(field);
    return r === undefined ? CelOptional.none : CelOptional.of(r);
  }
  throw Object.assign(new CelError(`type '${valueTypeName(v)}' does not support field selection`), { offset: node.offset, length: node.length });
}

function optIndex(v: CelValue, key: CelValue, node: Expr): CelValue {
  if (Array.isArray(v)) {
    let i: bigint | undefined;
    if (typeof key === 'bigint') i = key;
    else if (key instanceof CelUint) i = key.v;
    else if (typeof key === 'number' && Number.isInteger(key)) i = BigInt(key);
    else throw Object.assign(new CelError(`unsupported index type '${valueTypeName(key)}' in list`), { offset: node.offset, length: node.length });
    return i >= 0n && i < BigInt(v.length) ? CelOptional.of(v[Number(i)]) : CelOptional.none;
  }
  if (v instanceof CelMap) {
    const r = v.get(key);
    return r === undefined ? CelOptional.none : CelOptional.of(r);
  }
  throw Object.assign(new CelError(`no such overload: _[?_] applied to (${valueTypeName(v)}, ${valueTypeName(key)})`), { offset: node.offset, length: node.length });
}

export const BUILTIN_TYPE_VALUES: [string, CelType][] = [
  ['int', T.int], ['uint', T.uint], ['double', T.double], ['bool', T.bool], ['string', T.string], ['bytes', T.bytes],
  ['null_type', T.null], ['type', T.type], ['list', T.list(T.dyn)], ['map', T.map(T.dyn, T.dyn)],
  ['google.protobuf.Timestamp', T.timestamp], ['google.protobuf.Duration', T.duration], ['optional_type', T.optional(T.dyn)],
];

export { actualSize };
