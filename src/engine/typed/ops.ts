// Operations on typed values (structured-merge-diff typed package), over plain JSON values:
//   toFieldSet  - the paths a value sets (leaves, list/set items, atomic lists/maps, empty maps, nulls)
//   compare     - added / modified / removed paths between two values
//   merge       - apply merge: right-hand side wins on leaves, maps and associative lists merge by key
//   removeItems - drop the given paths
//   ensureNamedFieldsAreMembers / reconcileFieldSetWithSchema - set helpers that need the schema.
// `undefined` means "absent"; `null` is an explicit null value. Values are treated as immutable.

import type { JsonValue } from '../object.js';
import { equalsPE, keyPE, pathToString, serializePE, valuePE, type KeyField, type Path, type PathElement } from '../fieldpath/element.js';
import { FieldSet } from '../fieldpath/set.js';
import { goSharpV, goTypeName, goV, isMap, valuesEqual } from '../fieldpath/value.js';
import { deduce, dispatch, UNTYPED_ATOMIC, type Atom, type ListType, type MapType, type TypeRef } from './schema.js';

type V = JsonValue | undefined;
type Obj = { [k: string]: JsonValue };

export class TypedError extends Error {}

function keyDefault(list: ListType, field: string): JsonValue | undefined {
  return list.elem.atom.map?.fields.get(field)?.default;
}

/** The path element of an associative-list item (its key fields, defaults filled in) or of a set item. */
export function listItemPE(list: ListType, item: JsonValue): PathElement {
  if (list.keys.length > 0) {
    if (item === null) throw new TypedError('associative list with keys may not have a null element');
    if (!isMap(item)) throw new TypedError('associative list with keys may not have non-map elements');
    const fields: KeyField[] = [];
    for (const k of list.keys) {
      if (k in item) fields.push([k, item[k]]);
      else {
        const d = keyDefault(list, k);
        if (d !== undefined && d !== null) fields.push([k, d]);
      }
    }
    if (fields.length === 0) {
      throw new TypedError(
        `associative list with keys has an element that omits all key fields [${list.keys.map((k) => JSON.stringify(k)).join(' ')}] (and doesn't have default values for any key fields)`,
      );
    }
    return keyPE(fields);
  }
  if (isMap(item)) throw new TypedError("associative list without keys has an element that's a map type");
  if (Array.isArray(item)) throw new TypedError('not supported: associative list with lists as elements');
  if (item === null) throw new TypedError("associative list without keys has an element that's an explicit null");
  return valuePE(item);
}

function tryPE(list: ListType, item: JsonValue): PathElement | undefined {
  try {
    return listItemPE(list, item);
  } catch {
    return undefined;
  }
}

function childType(m: MapType, key: string): TypeRef {
  return m.fields.get(key)?.type ?? m.elem ?? UNTYPED_ATOMIC;
}

// ---------------------------------------------------------------------------------------------------
// Validation of an applied configuration (typed.AsTyped without AllowDuplicates): undeclared fields,
// duplicate list keys, wrong shapes. Returns messages like `.spec.foo: field not declared in schema`.

export function validate(ref: TypeRef, v: JsonValue, allowDuplicates: boolean): string[] {
  const errs: string[] = [];
  walkValidate(ref, v, [], errs, allowDuplicates);
  return errs;
}

// The messages print values as the Go code does: the walker holds each value as a
// *value.valueUnstructured, so `%v` shows `&{...}` and `%#v` shows `&value.valueUnstructured{Value:...}`.
const vV = (v: JsonValue) => `&{${goV(v)}}`;
const vSharp = (v: JsonValue) => `&value.valueUnstructured{Value:${goSharpV(v)}}`;

/** The walk's position: field names and list elements from the root, printed only for a message. */
type Segments = (string | PathElement)[];

function printSegments(segs: Segments): string {
  let out = '';
  for (const s of segs) out += typeof s === 'string' ? '.' + s : pathToString([s]);
  return out;
}

function report(segs: Segments, errs: string[], msg: string): void {
  const path = printSegments(segs);
  errs.push(path ? `${path}: ${msg}` : msg);
}

function walkValidate(ref: TypeRef, v: JsonValue, segs: Segments, errs: string[], allowDup: boolean): void {
  const a = ref.atom;
  const h = dispatch(a, deduce(a, v));
  if (h === 'scalar') {
    if (v === null) return;
    const s = a.scalar!;
    if (s === 'numeric' && typeof v !== 'number') report(segs, errs, `expected numeric (int or float), got ${goTypeName(v)}`);
    else if (s === 'string' && typeof v !== 'string') report(segs, errs, `expected string, got ${vSharp(v)}`);
    else if (s === 'boolean' && typeof v !== 'boolean') report(segs, errs, `expected boolean, got ${vV(v)}`);
    else if (s === 'untyped' && typeof v === 'object') report(segs, errs, `expected any scalar, got ${vV(v)}`);
    return;
  }
  if (h === 'list') {
    if (v === null) return;
    if (!Array.isArray(v)) {
      report(segs, errs, `expected list, got ${vV(v)}`);
      return;
    }
    const list = a.list!;
    const seen = list.atomic ? undefined : new Set<string>();
    for (let i = 0; i < v.length; i++) {
      let pe: PathElement = { index: i };
      if (seen) {
        try {
          pe = listItemPE(list, v[i]);
        } catch (e) {
          report(segs, errs, `element ${i}: ${(e as Error).message}`);
          return;
        }
        const k = serializePE(pe);
        if (seen.has(k) && !allowDup) report(segs, errs, `duplicate entries for key ${pathToString([pe])}`);
        seen.add(k);
      }
      segs.push(pe);
      walkValidate(list.elem, v[i], segs, errs, allowDup);
      segs.pop();
    }
    return;
  }
  if (h === 'map') {
    if (v === null) return;
    if (!isMap(v)) {
      report(segs, errs, `expected map, got ${vV(v)}`);
      return;
    }
    const m = a.map!;
    for (const k in v) {
      if (!Object.hasOwn(v, k)) continue;
      const f = m.fields.get(k);
      if (!f && !m.elem) {
        errs.push(`${printSegments(segs)}.${k}: field not declared in schema`);
        return;
      }
      segs.push(k);
      walkValidate(f ? f.type : m.elem!, v[k], segs, errs, allowDup);
      segs.pop();
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// toFieldSet

export function toFieldSet(ref: TypeRef, v: JsonValue): FieldSet {
  const set = new FieldSet();
  tfs(ref, v, set);
  return set;
}

// `node` is the set below the path of `v` (its members and children are v's paths, relative); a child's
// node is built on its own and attached when it holds anything, so no path array is made per value and
// nothing is inserted from the root down. `leaf` (returned true): `v` itself is a member of its parent
// (a scalar, an atomic list or map).
function tfs(ref: TypeRef, v: JsonValue, node: FieldSet): boolean {
  const a = ref.atom;
  switch (dispatch(a, deduce(a, v))) {
    case 'scalar':
      return true;
    case 'list': {
      const list = a.list!;
      if (list.atomic) return true;
      if (!Array.isArray(v)) return false;
      const pes = v.map((item) => tryPE(list, item));
      const seen = new Set<string>();
      const dups = new Set<string>();
      pes.forEach((pe) => {
        if (!pe) return;
        const k = serializePE(pe);
        if (seen.has(k)) {
          if (!dups.has(k)) {
            node.insertMember(pe);
            dups.add(k);
          }
        } else seen.add(k);
      });
      v.forEach((item, i) => {
        const pe = pes[i];
        if (!pe || (dups.size > 0 && dups.has(serializePE(pe)))) return;
        below(list.elem, item, node, pe);
        node.insertMember(pe);
      });
      return false;
    }
    case 'map': {
      const m = a.map!;
      if (m.atomic) return true;
      if (!isMap(v)) return false;
      for (const k in v) {
        if (!Object.hasOwn(v, k)) continue;
        const val = v[k];
        const pe = { field: k };
        if (below(childType(m, k), val, node, pe) || val === null || (isMap(val) && isEmptyMap(val)) || !m.fields.has(k)) node.insertMember(pe);
      }
      return false;
    }
  }
  return false;
}

/** tfs of a child value under `node` at `pe`; true when the child is a leaf (a member of `node`). */
function below(ref: TypeRef, v: JsonValue, node: FieldSet, pe: PathElement): boolean {
  const sub = new FieldSet();
  const leaf = tfs(ref, v, sub);
  if (sub.members.length > 0 || sub.children.length > 0) node.attach(pe, sub);
  return leaf;
}

function isEmptyMap(v: Record<string, unknown>): boolean {
  for (const k in v) if (Object.hasOwn(v, k)) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------------
// compare

export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

export function compare(ref: TypeRef, lhs: JsonValue, rhs: JsonValue): Comparison {
  const c: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  cmpWalk(ref, lhs, rhs, null, c);
  return c;
}

/**
 * The path of a node of the walk, kept as a link to its parent's: an array is made only for a path that
 * is recorded (most nodes of two similar objects record none), not for every node walked.
 */
type PathNode = { up: PathNode; pe: PathElement } | null;

function pathOf(n: PathNode): Path {
  const out: PathElement[] = [];
  for (let x = n; x; x = x.up) out.push(x.pe);
  return out.reverse();
}

interface Leaf {
  inLeaf: boolean;
}

function cmpWalk(ref: TypeRef, lhs: V, rhs: V, path: PathNode, c: Comparison): void {
  // one value on both sides (a part the new object shares with the old): nothing to record below it
  if (lhs === rhs && lhs !== undefined) return;
  const a = ref.atom;
  const kl = deduce(a, lhs);
  const kr = deduce(a, rhs);
  const st: Leaf = { inLeaf: false };
  if (rhs === undefined) cmpHandle(a, kl, lhs, rhs, path, c, st);
  else if (lhs === undefined || kl === kr) cmpHandle(a, kr, lhs, rhs, path, c, st);
  else {
    cmpHandle(a, kl, lhs, rhs, path, c, { inLeaf: false });
    cmpHandle(a, kr, lhs, rhs, path, c, st);
  }
  if (!st.inLeaf) {
    if (lhs === undefined) c.added.insert(pathOf(path));
    else if (rhs === undefined) c.removed.insert(pathOf(path));
  }
}

function cmpLeaf(lhs: V, rhs: V, path: PathNode, c: Comparison, st: Leaf): void {
  if (st.inLeaf) return;
  st.inLeaf = true;
  if (lhs === undefined) c.added.insert(pathOf(path));
  else if (rhs === undefined) c.removed.insert(pathOf(path));
  else if (!valuesEqual(rhs, lhs)) c.modified.insert(pathOf(path));
}

function asList(v: V): JsonValue[] | undefined {
  return Array.isArray(v) ? v : undefined;
}
function asMap(v: V): Obj | undefined {
  return isMap(v) ? v : undefined;
}

function cmpHandle(a: Atom, k: ReturnType<typeof deduce>, lhs: V, rhs: V, path: PathNode, c: Comparison, st: Leaf): void {
  switch (dispatch(a, k)) {
    case 'scalar':
      cmpLeaf(lhs, rhs, path, c, st);
      return;
    case 'list': {
      const list = a.list!;
      const l = asList(lhs);
      const r = asList(rhs);
      const emptyPromote = (!l || l.length === 0) && (!r || r.length === 0);
      if (list.atomic || emptyPromote) {
        cmpLeaf(lhs, rhs, path, c, st);
        return;
      }
      cmpListItems(list, l ?? [], r ?? [], path, c);
      return;
    }
    case 'map': {
      const m = a.map!;
      const l = asMap(lhs);
      const r = asMap(rhs);
      const emptyPromote = (!l || isEmptyMap(l)) && (!r || isEmptyMap(r));
      if (m.atomic || emptyPromote) {
        cmpLeaf(lhs, rhs, path, c, st);
        return;
      }
      // the keys of the left side, then those only on the right (no key arrays or set made: this runs
      // for every map of both objects)
      if (l) for (const key in l) if (Object.hasOwn(l, key)) cmpWalk(childType(m, key), l[key], r?.[key], { up: path, pe: { field: key } }, c);
      if (r) for (const key in r) if (Object.hasOwn(r, key) && !(l && Object.hasOwn(l, key))) cmpWalk(childType(m, key), undefined, r[key], { up: path, pe: { field: key } }, c);
      return;
    }
  }
}

/**
 * The items of both sides of a list by their path element (a key's text), the duplicates of one key together,
 * and the elements in compare's order: the left side's first, then those only on the right.
 */
function groupListItems(list: ListType, lhs: JsonValue[], rhs: JsonValue[]): { order: PathElement[]; lValues: Map<string, JsonValue[]>; rValues: Map<string, JsonValue[]> } {
  const order: PathElement[] = [];
  const lValues = new Map<string, JsonValue[]>();
  const rValues = new Map<string, JsonValue[]>();
  for (const child of lhs) {
    const pe = tryPE(list, child);
    if (!pe) continue;
    const k = serializePE(pe);
    const got = lValues.get(k);
    if (got) got.push(child);
    else {
      lValues.set(k, [child]);
      order.push(pe);
    }
  }
  for (const child of rhs) {
    const pe = tryPE(list, child);
    if (!pe) continue;
    const k = serializePE(pe);
    const got = rValues.get(k);
    if (got) got.push(child);
    else {
      rValues.set(k, [child]);
      if (!lValues.has(k)) order.push(pe);
    }
  }
  return { order, lValues, rValues };
}

function cmpListItems(list: ListType, lhs: JsonValue[], rhs: JsonValue[], path: PathNode, c: Comparison): void {
  const { order, lValues, rValues } = groupListItems(list, lhs, rhs);
  for (const pe of order) {
    const k = serializePE(pe);
    const l = lValues.get(k) ?? [];
    const r = rValues.get(k) ?? [];
    const p: PathNode = { up: path, pe };
    if (l.length === 0 && r.length === 0) return;
    if (l.length <= 1 && r.length <= 1) cmpWalk(list.elem, l[0], r[0], p, c);
    else if (l.length >= 2 && r.length >= 2) {
      if (l.length !== r.length || l.some((x, i) => !valuesEqual(x, r[i]))) c.modified.insert(pathOf(p));
    } else if (l.length >= 2) {
      if (r.length !== 0) cmpWalk(list.elem, undefined, r[0], p, c);
      c.removed.insert(pathOf(p));
    } else {
      if (l.length !== 0) cmpWalk(list.elem, l[0], undefined, p, c);
      c.added.insert(pathOf(p));
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// addedOrModified: compare()'s added ∪ modified in one walk

/**
 * `compare(ref, lhs, rhs)`'s added paths united with its modified ones, built in one walk: what a write
 * with no manager before it records (a create is compared with the kind's empty object). The walk is
 * compare's, rule for rule (a map or list empty or absent on both sides is one leaf, atomic ones are
 * leaves, a node absent on the left is added even when its children are too, duplicate list items are
 * one path), but a part absent on the right is not walked (it only holds removals) and the set is built
 * from the leaves up: a child node is attached when it holds anything, so no path array is made per
 * recorded path and nothing is inserted from the root down. merge/first-update.test.ts holds it equal to
 * compare's result over objects of every built-in kind.
 */
export function addedOrModified(ref: TypeRef, lhs: JsonValue, rhs: JsonValue): FieldSet {
  const set = new FieldSet();
  amWalk(ref, lhs, rhs, set, null);
  return set;
}

/** A child's recordings under `parent` at `pe` (null: the root, whose own path is never recorded). */
function amWalk(ref: TypeRef, lhs: V, rhs: V, parent: FieldSet, pe: PathElement | null): void {
  if (lhs === rhs && lhs !== undefined) return;
  // absent on the right: compare records removals only, unless both sides are absent (an addition)
  if (rhs === undefined) {
    if (lhs === undefined && pe !== null) parent.insertMember(pe);
    return;
  }
  const a = ref.atom;
  const kl = deduce(a, lhs);
  const kr = deduce(a, rhs);
  let st: number;
  if (lhs === undefined || kl === kr) st = amHandle(a, kr, lhs, rhs, parent, pe);
  else {
    amHandle(a, kl, lhs, rhs, parent, pe);
    st = amHandle(a, kr, lhs, rhs, parent, pe);
  }
  // a node that is not a leaf is recorded as added when absent on the left (its children are, too)
  if (st === NOT_LEAF && lhs === undefined && pe !== null) parent.insertMember(pe);
}

const NOT_LEAF = 0;
const LEAF = 1;

/** compare's leaf rule for added and modified (rhs is present here). */
function amLeaf(lhs: V, rhs: JsonValue, parent: FieldSet, pe: PathElement | null): number {
  if (pe !== null && (lhs === undefined || !valuesEqual(rhs, lhs))) parent.insertMember(pe);
  return LEAF;
}

function amHandle(a: Atom, k: ReturnType<typeof deduce>, lhs: V, rhs: JsonValue, parent: FieldSet, pe: PathElement | null): number {
  switch (dispatch(a, k)) {
    case 'scalar':
      return amLeaf(lhs, rhs, parent, pe);
    case 'list': {
      const list = a.list!;
      const l = asList(lhs);
      const r = asList(rhs);
      if (list.atomic || ((!l || l.length === 0) && (!r || r.length === 0))) return amLeaf(lhs, rhs, parent, pe);
      const sub = pe === null ? parent : new FieldSet();
      amListItems(list, l ?? [], r ?? [], sub);
      if (pe !== null && (sub.members.length > 0 || sub.children.length > 0)) parent.attach(pe, sub);
      return NOT_LEAF;
    }
    case 'map': {
      const m = a.map!;
      const l = asMap(lhs);
      const r = asMap(rhs);
      if (m.atomic || ((!l || isEmptyMap(l)) && (!r || isEmptyMap(r)))) return amLeaf(lhs, rhs, parent, pe);
      const sub = pe === null ? parent : new FieldSet();
      if (l) for (const key in l) if (Object.hasOwn(l, key)) amWalk(childType(m, key), l[key], r?.[key], sub, { field: key });
      if (r) for (const key in r) if (Object.hasOwn(r, key) && !(l && Object.hasOwn(l, key))) amWalk(childType(m, key), undefined, r[key], sub, { field: key });
      if (pe !== null && (sub.members.length > 0 || sub.children.length > 0)) parent.attach(pe, sub);
      return NOT_LEAF;
    }
  }
  return NOT_LEAF;
}

/** compare's list items (cmpListItems), recording added and modified items under `node`. */
function amListItems(list: ListType, lhs: JsonValue[], rhs: JsonValue[], node: FieldSet): void {
  const { order, lValues, rValues } = groupListItems(list, lhs, rhs);
  for (const pe of order) {
    const k = serializePE(pe);
    const l = lValues.get(k) ?? [];
    const r = rValues.get(k) ?? [];
    if (l.length === 0 && r.length === 0) return;
    if (l.length <= 1 && r.length <= 1) amWalk(list.elem, l[0], r[0], node, pe);
    else if (l.length >= 2 && r.length >= 2) {
      if (l.length !== r.length || l.some((x, i) => !valuesEqual(x, r[i]))) node.insertMember(pe);
    } else if (l.length >= 2) {
      // only removals (the single right-hand item is walked against nothing: added)
      if (r.length !== 0) amWalk(list.elem, undefined, r[0], node, pe);
    } else {
      if (l.length !== 0) amWalk(list.elem, l[0], undefined, node, pe);
      node.insertMember(pe);
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// merge (apply: the right-hand side wins on leaves)

export function merge(ref: TypeRef, lhs: JsonValue, rhs: JsonValue): JsonValue {
  const out = mergeWalk(ref, lhs, rhs);
  return out === undefined ? null : out;
}

function mergeWalk(ref: TypeRef, lhs: V, rhs: V): V {
  const a = ref.atom;
  const kl = deduce(a, lhs);
  const kr = deduce(a, rhs);
  if (rhs === undefined) return mergeHandle(a, kl, lhs, rhs);
  if (lhs === undefined || kl === kr) return mergeHandle(a, kr, lhs, rhs);
  mergeHandle(a, kl, lhs, rhs); // validates the left side only; its output is discarded
  return mergeHandle(a, kr, lhs, rhs);
}

function keepRHS(lhs: V, rhs: V): V {
  return rhs !== undefined ? rhs : lhs;
}

/**
 * keepRHS for a whole (atomic) map or list: live's value when the configuration's is the same JSON, keys in
 * the same order (then live's stays, shared, instead of being replaced by an equal copy).
 */
function keepRHSWhole(lhs: V, rhs: V): V {
  if (rhs === undefined) return lhs;
  return lhs !== undefined && lhs !== null && typeof lhs === 'object' && sameJson(lhs, rhs) ? lhs : rhs;
}

/** The same JSON text: equal values, map keys in the same order. */
function sameJson(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i] || !sameJson(a[ka[i]], b[kb[i]])) return false;
  return true;
}

function mergeHandle(a: Atom, k: ReturnType<typeof deduce>, lhs: V, rhs: V): V {
  switch (dispatch(a, k)) {
    case 'scalar':
      return keepRHS(lhs, rhs);
    case 'list': {
      const list = a.list!;
      const l = asList(lhs);
      const r = asList(rhs);
      const emptyPromote = (!l || l.length === 0) && (!r || r.length === 0);
      if (list.atomic || emptyPromote) return keepRHSWhole(lhs, rhs);
      const out = mergeListItems(list, l ?? [], r ?? []);
      // live's list again when every item merged to the very same value, in the same places
      if (l && l.length > 0 && sameItems(out, l)) return l;
      return out.length > 0 ? out : undefined;
    }
    case 'map': {
      const m = a.map!;
      const l = asMap(lhs);
      const r = asMap(rhs);
      const emptyPromote = (!l || isEmptyMap(l)) && (!r || isEmptyMap(r));
      if (m.atomic || emptyPromote) return keepRHSWhole(lhs, rhs);
      const out: Obj = {};
      // whether `out` is `l` again: every member of live merged to the very same value, none added or
      // dropped (then live's map is the result, so an unchanged part stays the stored state's, shared)
      let same = l !== undefined;
      // live key order first, then keys new in the configuration (no key arrays made)
      if (l) {
        for (const key in l) {
          if (!Object.hasOwn(l, key)) continue;
          const lv = l[key];
          const v = mergeWalk(childType(m, key), lv, r?.[key]);
          if (v !== undefined) out[key] = v;
          if (v !== lv || v === undefined) same = false;
        }
      }
      if (r) {
        for (const key in r) {
          if (!Object.hasOwn(r, key) || (l && key in l)) continue;
          const v = mergeWalk(childType(m, key), undefined, r[key]);
          if (v !== undefined) {
            out[key] = v;
            same = false;
          }
        }
      }
      if (same && !isEmptyMap(out)) return l;
      return isEmptyMap(out) ? undefined : out;
    }
  }
  return undefined;
}

function sameItems(a: JsonValue[], b: JsonValue[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function indexList(list: ListType, items: JsonValue[], allowDuplicates: boolean): { pes: PathElement[]; observed: Map<string, JsonValue> } {
  const pes: PathElement[] = [];
  const observed = new Map<string, JsonValue>();
  items.forEach((child, i) => {
    let pe: PathElement;
    try {
      pe = listItemPE(list, child);
    } catch (e) {
      throw new TypedError(`element ${i}: ${(e as Error).message}`);
    }
    const k = serializePE(pe);
    if (observed.has(k)) {
      if (!allowDuplicates) throw new TypedError(`duplicate entries for key ${pathToString([pe])}`);
      observed.set(k, null); // duplicated items are not merged with the new value
    } else observed.set(k, child);
    pes.push(pe);
  });
  return { pes, observed };
}

/** Associative-list merge, keeping the live order and placing new items as the configuration orders them. */
function mergeListItems(list: ListType, lhs: JsonValue[], rhs: JsonValue[]): JsonValue[] {
  const out: JsonValue[] = [];
  const R = indexList(list, rhs, false);
  const L = indexList(list, lhs, true);
  const sharedOrder = R.pes.filter((pe) => L.observed.has(serializePE(pe)));
  let nextShared: PathElement | undefined = sharedOrder.shift();
  const mergedRHS = new Set<string>();
  const item = (pe: PathElement, l: V, r: V) => {
    const v = mergeWalk(list.elem, l, r);
    if (v !== undefined) out.push(v);
    void pe;
  };
  const lLen = L.pes.length;
  const rLen = R.pes.length;
  for (let lI = 0, rI = 0; lI < lLen || rI < rLen; ) {
    if (lI < lLen && rI < rLen) {
      const pe = L.pes[lI];
      if (equalsPE(pe, R.pes[rI])) {
        const k = serializePE(pe);
        mergedRHS.add(k);
        item(pe, L.observed.get(k), R.observed.get(k));
        lI++;
        rI++;
        nextShared = sharedOrder.shift();
        continue;
      }
      if (R.observed.has(serializePE(pe)) && nextShared && !equalsPE(nextShared, pe)) {
        lI++; // shared item, but not the one wanted in this round
        continue;
      }
    }
    if (lI < lLen) {
      const pe = L.pes[lI];
      const k = serializePE(pe);
      if (!R.observed.has(k)) {
        item(pe, lhs[lI], undefined);
        lI++;
        continue;
      } else if (mergedRHS.has(k)) {
        lI++;
      }
    }
    if (rI < rLen) {
      const pe = R.pes[rI];
      const k = serializePE(pe);
      mergedRHS.add(k);
      item(pe, L.observed.has(k) ? L.observed.get(k) : undefined, R.observed.get(k));
      rI++;
      if (nextShared && equalsPE(nextShared, pe)) nextShared = sharedOrder.shift();
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// removeItems

/** Drops the paths of `toRemove` from `v`. Like the real walker, a map or list left empty becomes null. */
export function removeItems(ref: TypeRef, v: JsonValue, toRemove: FieldSet): JsonValue {
  const a = ref.atom;
  switch (dispatch(a, deduce(a, v))) {
    case 'scalar':
      return v;
    case 'list': {
      const list = a.list!;
      if (!Array.isArray(v) || v.length === 0 || list.atomic) return null;
      const items: JsonValue[] = [];
      for (let item of v) {
        const pe = tryPE(list, item);
        if (pe) {
          if (toRemove.hasMember(pe)) continue;
          const sub = toRemove.child(pe);
          if (sub && !sub.empty()) item = removeItems(list.elem, item, sub);
        }
        items.push(item);
      }
      return items.length > 0 ? items : null;
    }
    case 'map': {
      const m = a.map!;
      if (!isMap(v) || Object.keys(v).length === 0 || m.atomic) return null;
      const out: Obj = {};
      for (const [k, val] of Object.entries(v)) {
        const pe = { field: k };
        if (toRemove.hasMember(pe)) continue;
        const sub = toRemove.child(pe);
        out[k] = sub && !sub.empty() ? removeItems(childType(m, k), val, sub) : val;
      }
      return Object.keys(out).length > 0 ? out : null;
    }
  }
  return v;
}

// ---------------------------------------------------------------------------------------------------
// set helpers that need the schema

/** Adds, as members, the struct fields that only appear as parents in `s` ("a.b.c" also owns "a" when "a" is a field). */
export function ensureNamedFieldsAreMembers(s: FieldSet, ref: TypeRef | undefined): FieldSet {
  const atom = ref?.atom;
  const out = new FieldSet();
  out.members = [...s.members];
  for (const n of s.children) {
    if ('field' in n.pe && atom?.map && atom.map.fields.has(n.pe.field)) out.insertMember(n.pe);
  }
  for (const n of s.children) {
    let tr: TypeRef | undefined;
    if ('field' in n.pe && atom?.map) tr = atom.map.fields.get(n.pe.field)?.type ?? atom.map.elem;
    else if ('key' in n.pe && atom?.list) tr = atom.list.elem;
    out.children.push({ pe: n.pe, set: ensureNamedFieldsAreMembers(n.set, tr) });
  }
  return out;
}

/**
 * Adjusts a manager's set to the current schema (typed.ReconcileFieldSetWithSchema): where a list or map
 * is now atomic, ownership of any of its parts becomes ownership of the whole ("Merge strategy markers"
 * rule 4). Where something became granular, the owner keeps the parent only (rule 5: nothing to do).
 * Returns undefined when nothing changes.
 */
export function reconcileFieldSetWithSchema(set: FieldSet, ref: TypeRef): FieldSet | undefined {
  const toRemove = new FieldSet();
  const toAdd = new FieldSet();
  let changed = false;
  const walk = (tr: TypeRef, fs: FieldSet | undefined, path: Path, isAtomic: boolean): void => {
    const a = tr.atom;
    if (a.map) {
      const m = a.map;
      if (m.deduced) return;
      if (!isAtomic && m.atomic) {
        if (fs && fs.size() > 0) {
          toRemove.insert(path);
          toAdd.insert(path);
          changed = true;
        }
        return;
      }
      if (fs) {
        visit(fs, path, (pe) => ('field' in pe ? (m.fields.get(pe.field)?.type ?? m.elem) : m.elem));
      }
      return;
    }
    if (a.scalar) return;
    if (a.list) {
      const l = a.list;
      if (!isAtomic && l.atomic) {
        toRemove.insert(path);
        toAdd.insert(path);
        changed = true;
        return;
      }
      if (fs) visit(fs, path, () => l.elem);
    }
  };
  const visit = (fs: FieldSet, path: Path, typeOf: (pe: PathElement) => TypeRef | undefined): void => {
    const handle = (pe: PathElement, isMember: boolean) => {
      const tr = typeOf(pe);
      if (!tr) return; // ignore fields not in the schema
      const child = fs.child(pe);
      walk(tr, child, [...path, pe], isMember && !child);
    };
    for (const n of fs.children) if (!fs.hasMember(n.pe)) handle(n.pe, false);
    for (const m of fs.members) handle(m, true);
  };
  walk(ref, set, [], false);
  if (!changed) return undefined;
  return set.recursiveDifference(toRemove).union(toAdd);
}
