// Strategic merge patch (application/strategic-merge-patch+json) following the behaviour of
// k8s.io/apimachinery/pkg/util/strategicpatch (v0.33, server side: MergeParallelList and
// IgnoreUnmatchedNulls), driven by the schema markers instead of Go struct tags:
//   x-kubernetes-patch-strategy: merge | replace | retainKeys | "merge,retainKeys"
//   x-kubernetes-patch-merge-key: the key identifying list items
// Directives: `$patch: replace|delete` in maps, `$patch: replace|delete` in list items (`merge` there is an
// error, as in the real code), `$retainKeys`, `$setElementOrder/<list>`, `$deleteFromPrimitiveList/<list>`.
// Lists of primitives with strategy merge are unions keeping order; lists without a merge strategy are
// replaced; maps merge; null deletes.
//
// Errors are the real ones (apiserver handlers/patch.go interpretStrategicMergePatchError): the "invalid
// patch format" family is 400, "lists of lists are not supported" 422, anything else reaches the
// client as a 500 with the library's text and no reason. Struct names in messages are the definition
// names' last segment (Go type names: `PodSpec`), kinds are Go reflect kinds (`struct`, `map`, `slice`).

import { badRequest } from '../errors.js';
import { clone } from '../object.js';
import { copySharingManagedFields, patchSparesManagedFields } from './share.js';
import { ext, type Schema, type SchemaRegistry } from '../schema/types.js';
import { goPrintV, goQuote } from '../codec/go-format.js';
import { parseJson, JsonSyntaxError, JsonRangeError } from '../codec/json.js';
import type { DecodeResult } from '../codec/decode.js';
import { unknownServerError, unprocessablePatch } from './errors.js';

const DIRECTIVE = '$patch';
const DELETE = 'delete';
const REPLACE = 'replace';
const MERGE = 'merge';
const RETAIN_KEYS_STRATEGY = 'retainKeys';
const RETAIN_KEYS = '$retainKeys';
const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList';
const SET_ELEMENT_ORDER = '$setElementOrder';

const BAD_PRIMITIVE_LIST = 'invalid patch format of primitive list';
const BAD_RETAIN_KEYS = 'invalid patch format of retainKeys';
const BAD_SET_ELEMENT_ORDER = 'invalid patch format of setElementOrder list';
const NO_LIST_OF_LISTS = 'lists of lists are not supported';

/** An error of the strategicpatch package; mapped to a StatusError at the top. */
class SmpError extends Error {}

type JMap = Record<string, unknown>;

function isMap(v: unknown): v is JMap {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function setMember(o: JMap, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

function has(o: JMap, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, k);
}

// Go's dynamic types of values decoded into interface{} (numbers: int64 unless written as floats)
function goType(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return '[]interface {}';
  if (typeof v === 'object') return 'map[string]interface {}';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (typeof v === 'boolean') return 'bool';
  return 'string';
}

/** The JSON kind word of Go's UnmarshalTypeError. */
function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v !== null && typeof v === 'object') return 'object';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  return 'string';
}

/** Go `==` on interface{} values holding scalars (uncomparable values compare unequal here). */
function goEq(a: unknown, b: unknown): boolean {
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  if (a === null || b === null) return a === b;
  if (typeof a === 'object' || typeof b === 'object') return false;
  return goType(a) === goType(b) && a === b;
}

function scalarKey(v: unknown): string {
  return `${goType(v)}:${JSON.stringify(v ?? null)}`;
}

function errBadArgType(expected: string, actual: unknown): SmpError {
  const t = actual === null || actual === undefined ? '%!s(<nil>)' : goType(actual);
  return new SmpError(`expected a ${expected}, but received a ${t}`);
}

function errNoMergeKey(m: JMap, k: string): SmpError {
  return new SmpError(`map: ${goPrintV(m)} does not contain declared merge key: ${k}`);
}

function errBadPatchType(t: unknown, m: JMap): SmpError {
  const ts = typeof t === 'string' ? t : `%!s(${goType(t)}=${goPrintV(t)})`;
  return new SmpError(`unknown patch type: ${ts} in map: ${goPrintV(m)}`);
}

// ------------------------------------------------------------------------------------------------
// Patch metadata from the schema (LookupPatchMeta)

interface PatchMeta {
  strategies: string[];
  mergeKey: string;
}

class Lookup {
  constructor(readonly schema: Schema | undefined, readonly name: string, readonly defs: SchemaRegistry) {}

  static of(s: Schema | undefined, defs: SchemaRegistry, name = ''): Lookup {
    let cur = s;
    let n = name;
    for (let i = 0; cur && i < 32; i++) {
      if (cur.$ref) {
        n = cur.$ref.split('.').pop() ?? cur.$ref;
        cur = defs[cur.$ref];
      } else if (cur.allOf && cur.allOf.length === 1 && !cur.type && !cur.properties) cur = cur.allOf[0];
      else break;
    }
    return new Lookup(cur, n, defs);
  }

  /** reflect Kind name of the Go type this schema stands for. */
  kind(): string {
    const s = this.schema;
    if (!s) return 'interface';
    if (s.properties) return 'struct';
    if (s.type === 'array') return 'slice';
    if (s.type === 'object' && s.additionalProperties && typeof s.additionalProperties === 'object') return 'map';
    if (s.type === 'object') return 'struct';
    if (s.format === 'int-or-string' || ext(s, 'int-or-string')) return 'struct';
    if (s.type === 'integer') return s.format === 'int32' ? 'int32' : 'int64';
    if (s.type === 'number') return 'float64';
    if (s.type === 'boolean') return 'bool';
    if (s.type === 'string') return 'string';
    // a named definition without a type (JSON, JSONSchemaPropsOrBool) is a Go struct with custom decoding
    return this.name ? 'struct' : 'interface';
  }

  forStruct(key: string): [Lookup, PatchMeta] {
    const s = this.schema;
    const k = this.kind();
    if (k === 'map' && s && typeof s.additionalProperties === 'object') {
      // a map's values: Go would fail (not a struct); values that are maps or lists are rare
      throw new SmpError(`merging an object in json but data type is not struct, instead is: map`);
    }
    if (k !== 'struct') throw new SmpError(`merging an object in json but data type is not struct, instead is: ${k}`);
    const props = s?.properties ?? {};
    let prop: Schema | undefined = has(props as JMap, key) ? props[key] : undefined;
    if (!prop) {
      const lower = key.toLowerCase();
      const found = Object.keys(props).find((p) => p.toLowerCase() === lower);
      if (found) prop = props[found];
    }
    if (!prop) throw new SmpError(`unable to find api field in struct ${this.name} for the json field ${goQuote(key)}`);
    const sub = Lookup.of(prop, this.defs);
    const strategy = ext<string>(prop, 'patch-strategy') ?? (sub.schema ? ext<string>(sub.schema, 'patch-strategy') : undefined) ?? '';
    const mergeKey = ext<string>(prop, 'patch-merge-key') ?? (sub.schema ? ext<string>(sub.schema, 'patch-merge-key') : undefined) ?? '';
    return [sub, { strategies: strategy.split(','), mergeKey }];
  }

  forSlice(key: string): [Lookup, PatchMeta] {
    const [sub, meta] = this.forStruct(key);
    if (sub.kind() !== 'slice') throw new SmpError(`expected slice or array type, but got: ${this.kind()}`);
    const elem = Lookup.of(sub.schema?.items, this.defs);
    if (elem.kind() === 'slice') throw new SmpError('unexpected slice of slice');
    return [elem, meta];
  }
}

function extractRetainKeysPatchStrategy(strategies: string[]): [boolean, string] {
  switch (strategies.length) {
    case 0:
      return [false, ''];
    case 1:
      return strategies[0] === RETAIN_KEYS_STRATEGY ? [true, ''] : [false, strategies[0]];
    case 2:
      if (strategies[0] === RETAIN_KEYS_STRATEGY) return [true, strategies[1]];
      if (strategies[1] === RETAIN_KEYS_STRATEGY) return [true, strategies[0]];
      throw new SmpError(`unexpected patch strategy: [${strategies.join(' ')}]`);
    default:
      throw new SmpError(`unexpected patch strategy: [${strategies.join(' ')}]`);
  }
}

// ------------------------------------------------------------------------------------------------
// Ordering helpers

function indexOf(l: unknown[], val: unknown, mergeKey: string, isMapKind: boolean): number {
  const get = (item: unknown) => (isMapKind ? (isMap(item) ? item[mergeKey] : null) : item);
  const want = get(val);
  for (let i = 0; i < l.length; i++) if (goEq(want, get(l[i]))) return i;
  return -1;
}

function validateMergeKeyInLists(mergeKey: string, ...lists: unknown[][]): void {
  for (const list of lists) {
    for (const item of list) {
      if (!isMap(item)) throw errBadArgType('map[string]interface {}', item);
      if (!has(item, mergeKey)) throw errNoMergeKey(item, mergeKey);
    }
  }
}

function extractToDeleteItems(l: unknown[]): [unknown[], unknown[]] {
  const keep: unknown[] = [];
  const del: unknown[] = [];
  for (const v of l) {
    if (!isMap(v)) throw errBadArgType('map[string]interface {}', v);
    if (has(v, DIRECTIVE) && v[DIRECTIVE] === DELETE) del.push(v);
    else keep.push(v);
  }
  return [keep, del];
}

/** sort.SliceStable with the library's comparator (insertion sort; items not found compare as less). */
function normalizeSliceOrder(toSort: unknown[], order: unknown[], mergeKey: string, isMapKind: boolean): unknown[] {
  let items = toSort.slice();
  let toDelete: unknown[] = [];
  if (isMapKind) {
    validateMergeKeyInLists(mergeKey, items, order);
    [items, toDelete] = extractToDeleteItems(items);
  }
  const less = (a: unknown, b: unknown) => {
    const ia = indexOf(order, a, mergeKey, isMapKind);
    if (ia >= 0) {
      const ib = indexOf(order, b, mergeKey, isMapKind);
      if (ib >= 0) return ia < ib;
    }
    return true;
  };
  for (let i = 1; i < items.length; i++) {
    for (let j = i; j > 0 && less(items[j], items[j - 1]); j--) {
      const t = items[j];
      items[j] = items[j - 1];
      items[j - 1] = t;
    }
  }
  return [...items, ...toDelete];
}

function mergeSortedSlice(left: unknown[], right: unknown[], serverOrder: unknown[], mergeKey: string, isMapKind: boolean): unknown[] {
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  const size = left.length + right.length;
  for (let k = 0; k < size; k++) {
    if (i >= left.length && j < right.length) out.push(right[j++]);
    else if (j >= right.length && i < left.length) out.push(left[i++]);
    else {
      const li = indexOf(serverOrder, left[i], mergeKey, isMapKind);
      const ri = indexOf(serverOrder, right[j], mergeKey, isMapKind);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

function normalizeElementOrder(patch: unknown[], serverOnly: unknown[], patchOrder: unknown[], serverOrder: unknown[], mergeKey: string, isMapKind: boolean): unknown[] {
  const p = normalizeSliceOrder(patch, patchOrder, mergeKey, isMapKind);
  const s = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, isMapKind);
  return mergeSortedSlice(s, p, serverOrder, mergeKey, isMapKind);
}

function partitionPrimitives(original: unknown[], by: unknown[]): [unknown[], unknown[]] {
  const inPatch = new Set(by.filter((v) => v === null || typeof v !== 'object').map(scalarKey));
  const patch: unknown[] = [];
  const serverOnly: unknown[] = [];
  for (const v of original) {
    if (v !== null && typeof v === 'object') serverOnly.push(v);
    else if (inPatch.has(scalarKey(v))) patch.push(v);
    else serverOnly.push(v);
  }
  return [patch, serverOnly];
}

function findMapInSlice(m: unknown[], key: string, value: unknown): [JMap | null, number] {
  for (let k = 0; k < m.length; k++) {
    const v = m[k];
    if (!isMap(v)) throw new SmpError(`value for key ${k} is not a map`);
    if (has(v, key) && goEq(v[key], value)) return [v, k];
  }
  return [null, -1];
}

function partitionMaps(original: unknown[], by: unknown[], mergeKey: string): [unknown[], unknown[]] {
  const patch: unknown[] = [];
  const serverOnly: unknown[] = [];
  for (const v of original) {
    if (!isMap(v)) throw errBadArgType('map[string]interface {}', v);
    if (!has(v, mergeKey)) throw errNoMergeKey(v, mergeKey);
    const [found] = findMapInSlice(by, mergeKey, v[mergeKey]);
    if (found) patch.push(v);
    else serverOnly.push(v);
  }
  return [patch, serverOnly];
}

/** The element type of the lists; errors for lists of lists and mixed types. */
function sliceElementType(...slices: unknown[][]): string {
  let prev: string | undefined;
  for (const s of slices) {
    for (const v of s) {
      const t = goType(v);
      if (prev === undefined) {
        prev = t;
        if (Array.isArray(v)) throw new SmpError(NO_LIST_OF_LISTS);
      } else if (prev !== t) {
        throw new SmpError(`list element types are not identical: [${slices.map((x) => goPrintV(x)).join(' ')}]`);
      }
    }
  }
  if (prev === undefined) throw new SmpError('no elements in any of the given slices');
  return prev;
}

// ------------------------------------------------------------------------------------------------
// Merging

function removeDirectives(obj: unknown): [unknown, boolean] {
  if (obj === null || obj === undefined) return [obj, true];
  if (isMap(obj)) {
    if (has(obj, DIRECTIVE)) return [null, false];
    for (const k of Object.keys(obj)) {
      const [v, keep] = removeDirectives(obj[k]);
      if (!keep) delete obj[k];
      else obj[k] = v;
    }
    return [obj, true];
  }
  if (Array.isArray(obj)) {
    const res: unknown[] = [];
    for (const v of obj) {
      const [nv, keep] = removeDirectives(v);
      if (keep) res.push(nv);
    }
    return [res, true];
  }
  return [obj, true];
}

function discardNullValuesFromPatch(v: unknown): void {
  if (isMap(v)) {
    for (const k of Object.keys(v)) {
      if (v[k] === null) delete v[k];
      else discardNullValuesFromPatch(v[k]);
    }
  } else if (Array.isArray(v)) for (const x of v) discardNullValuesFromPatch(x);
}

function handleDirectiveInMergeMap(directive: unknown, patch: JMap): JMap {
  if (directive === REPLACE) {
    delete patch[DIRECTIVE];
    return patch;
  }
  if (directive === DELETE) return {};
  throw errBadPatchType(directive, patch);
}

function extractKey(s: string, prefix: string): string {
  const i = s.indexOf('/');
  if (i < 0 || s.slice(0, i) !== prefix) {
    if (prefix === DELETE_FROM_PRIMITIVE_LIST) throw new SmpError(BAD_PRIMITIVE_LIST);
    if (prefix === SET_ELEMENT_ORDER) throw new SmpError(BAD_SET_ELEMENT_ORDER);
    throw new SmpError(`fail to find unknown prefix ${goQuote(prefix)} in ${s}\n`);
  }
  return s.slice(i + 1);
}

function mergeKeyValueEqual(left: unknown, right: unknown, mergeKey: string): boolean {
  if (!mergeKey) return goEq(left, right);
  if (!isMap(left)) throw errBadArgType('map[string]interface {}', left);
  if (!isMap(right)) throw errBadArgType('map[string]interface {}', right);
  if (!has(left, mergeKey)) throw errNoMergeKey(left, mergeKey);
  if (!has(right, mergeKey)) throw errNoMergeKey(right, mergeKey);
  return goEq(left[mergeKey], right[mergeKey]);
}

function validatePatchWithSetOrderList(patchList: unknown, setOrderList: unknown, mergeKey: string): void {
  if (!Array.isArray(setOrderList)) throw new SmpError(BAD_SET_ELEMENT_ORDER);
  if (patchList !== undefined && !Array.isArray(patchList)) throw new SmpError(BAD_SET_ELEMENT_ORDER);
  const typedPatch = (patchList ?? []) as unknown[];
  if (setOrderList.length === 0 || typedPatch.length === 0) return;
  const nonDelete = mergeKey ? extractToDeleteItems(typedPatch)[0] : typedPatch;
  let pi = 0;
  let si = 0;
  while (pi < nonDelete.length && si < setOrderList.length) {
    if (isMap(nonDelete[pi]) && has(nonDelete[pi] as JMap, DIRECTIVE)) {
      pi++;
      continue;
    }
    if (mergeKeyValueEqual(nonDelete[pi], setOrderList[si], mergeKey)) pi++;
    si++;
  }
  if (pi < nonDelete.length && si >= setOrderList.length) {
    throw new SmpError(`The order in patch list:\n${goPrintV(typedPatch)}\n doesn't match ${SET_ELEMENT_ORDER} list:\n${goPrintV(setOrderList)}\n`);
  }
}

function applyRetainKeysDirective(original: JMap, patch: JMap): void {
  if (!has(patch, RETAIN_KEYS)) return;
  const list = patch[RETAIN_KEYS];
  delete patch[RETAIN_KEYS];
  if (!Array.isArray(list)) throw new SmpError(BAD_RETAIN_KEYS);
  const keep = new Set(list.filter((v): v is string => typeof v === 'string'));
  for (const k of Object.keys(patch)) {
    if (patch[k] === null || k.startsWith(DELETE_FROM_PRIMITIVE_LIST) || k.startsWith(SET_ELEMENT_ORDER)) continue;
    if (!keep.has(k)) throw new SmpError(BAD_RETAIN_KEYS);
  }
  for (const k of Object.keys(original)) if (!keep.has(k)) delete original[k];
}

function mergePatchIntoOriginal(original: JMap, patch: JMap, schema: Lookup): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ELEMENT_ORDER)) continue;
    if (!has(patch, key)) continue;
    const setOrder = patch[key];
    delete patch[key];
    if (!Array.isArray(setOrder)) throw errBadArgType('[]interface {}', setOrder);
    const originalKey = extractKey(key, SET_ELEMENT_ORDER);
    const foundOriginal = has(original, originalKey);
    const foundPatch = has(patch, originalKey);
    const originalList = original[originalKey];
    const patchList = patch[originalKey];
    if (foundOriginal && !Array.isArray(originalList)) throw errBadArgType('[]interface {}', originalList);
    if (foundPatch && !Array.isArray(patchList)) throw errBadArgType('[]interface {}', patchList);
    const [subschema, meta] = schema.forSlice(originalKey);
    const [, strategy] = extractRetainKeysPatchStrategy(meta.strategies);
    validatePatchWithSetOrderList(foundPatch ? patchList : undefined, setOrder, meta.mergeKey);

    let merged: unknown[];
    if (foundOriginal && !foundPatch) merged = originalList as unknown[];
    else if (!foundOriginal && foundPatch) merged = removeDirectives(patchList)[0] as unknown[];
    else if (foundOriginal && foundPatch) merged = mergeSliceHandler(originalList, patchList, subschema, strategy, meta.mergeKey, false);
    else continue;

    const [patchItems, serverOnly] = meta.mergeKey
      ? partitionMaps(merged, setOrder, meta.mergeKey)
      : partitionPrimitives(merged, setOrder);
    const elemType = sliceElementType((originalList ?? []) as unknown[], (patchList ?? []) as unknown[]);
    const isMapKind = elemType === 'map[string]interface {}';
    setMember(original, originalKey, normalizeElementOrder(patchItems, serverOnly, setOrder, (originalList ?? []) as unknown[], meta.mergeKey, isMapKind));
    delete patch[originalKey];
  }
}

/** A shallow copy of a map, in its order (undefined members left out, as a deep copy leaves them out). */
function copyMap(m: JMap): JMap {
  const out: JMap = {};
  for (const k in m) {
    if (!has(m, k)) continue;
    const v = m[k];
    if (v !== undefined) setMember(out, k, v);
  }
  return out;
}

function mergeMap(originalIn: JMap | null, patch: JMap, schema: Lookup): JMap {
  if (has(patch, DIRECTIVE)) return handleDirectiveInMergeMap(patch[DIRECTIVE], patch);
  // copy-on-write: a frozen map is a stored state's (shared into the patched object) and is copied before
  // it is written; the merge writes only the maps the patch reaches, so the rest stays shared
  const original = originalIn === null ? {} : Object.isFrozen(originalIn) ? copyMap(originalIn) : originalIn;
  applyRetainKeysDirective(original, patch);
  mergePatchIntoOriginal(original, patch, schema);

  for (const key of Object.keys(patch)) {
    if (!has(patch, key)) continue;
    const patchV = patch[key];
    let k = key;
    let isDeleteList = false;
    if (key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
      k = extractKey(key, DELETE_FROM_PRIMITIVE_LIST);
      isDeleteList = true;
    }
    if (patchV === null) {
      delete original[k];
      continue; // IgnoreUnmatchedNulls
    }
    if (!has(original, k)) {
      if (!isDeleteList) {
        discardNullValuesFromPatch(patchV);
        const [v, keep] = removeDirectives(patchV);
        if (keep) setMember(original, k, v);
      }
      continue;
    }
    const origV = original[k];
    if (goType(origV) !== goType(patchV)) {
      if (!isDeleteList) {
        discardNullValuesFromPatch(patchV);
        const [v, keep] = removeDirectives(patchV);
        if (keep) setMember(original, k, v);
        else delete original[k];
      }
      continue;
    }
    if (isMap(origV)) {
      const [sub, meta] = schema.forStruct(k);
      const [, strategy] = extractRetainKeysPatchStrategy(meta.strategies);
      setMember(original, k, strategy !== REPLACE ? mergeMap(origV, patchV as JMap, sub) : patchV);
    } else if (Array.isArray(origV)) {
      const [sub, meta] = schema.forSlice(k);
      const [, strategy] = extractRetainKeysPatchStrategy(meta.strategies);
      setMember(original, k, mergeSliceHandler(origV, patchV, sub, strategy, meta.mergeKey, isDeleteList));
    } else {
      const [v, keep] = removeDirectives(patchV);
      if (keep) setMember(original, k, v);
      else delete original[k];
    }
  }
  return original;
}

function mergeSliceHandler(original: unknown, patch: unknown, schema: Lookup, strategy: string, mergeKey: string, isDeleteList: boolean): unknown[] {
  if (!Array.isArray(original)) throw errBadArgType('[]interface {}', original);
  if (!Array.isArray(patch)) throw errBadArgType('[]interface {}', patch);
  if (strategy === MERGE || isDeleteList) return mergeSlice(original, patch, schema, mergeKey, isDeleteList);
  return patch;
}

function deduplicateScalars(s: unknown[]): unknown[] {
  let length = s.length - 1;
  for (let i = 0; i < length; i++) {
    for (let j = i + 1; j <= length; j++) {
      if (goEq(s[i], s[j])) {
        s[j] = s[length];
        s.length = length;
        length--;
        j--;
      }
    }
  }
  return s;
}

function mergeSlice(original: unknown[], patch: unknown[], schema: Lookup, mergeKey: string, isDeleteList: boolean): unknown[] {
  if (original.length === 0 && patch.length === 0) return original;
  const elemType = sliceElementType(original, patch);
  const isMapKind = elemType === 'map[string]interface {}';
  let merged: unknown[];
  let orig = original;
  let pat = patch;
  if (!isMapKind) {
    if (isDeleteList) {
      const del = new Set(patch.map(scalarKey));
      return original.filter((v) => !del.has(scalarKey(v)));
    }
    merged = deduplicateScalars([...original, ...patch]);
  } else {
    if (!mergeKey) throw new SmpError(`cannot merge lists without merge key for ${schema.kind()}`);
    [orig, pat] = mergeSliceWithSpecialElements(original, patch, mergeKey);
    merged = mergeSliceWithoutSpecialElements(orig, pat, mergeKey, schema);
  }
  const [patchItems, serverOnly] = mergeKey ? partitionMaps(merged, pat, mergeKey) : partitionPrimitives(merged, pat);
  return normalizeElementOrder(patchItems, serverOnly, pat, orig, mergeKey, isMapKind);
}

function mergeSliceWithSpecialElements(original: unknown[], patch: unknown[], mergeKey: string): [unknown[], unknown[]] {
  const without: unknown[] = [];
  let replace = false;
  let orig = original;
  for (const v of patch) {
    const m = v as JMap;
    if (!has(m, DIRECTIVE)) {
      without.push(v);
      continue;
    }
    const t = m[DIRECTIVE];
    if (t === DELETE) {
      if (!has(m, mergeKey)) throw errNoMergeKey(m, mergeKey);
      const mv = m[mergeKey];
      for (;;) {
        const [found, idx] = findMapInSlice(orig, mergeKey, mv);
        if (!found) break;
        orig = [...orig.slice(0, idx), ...orig.slice(idx + 1)];
      }
    } else if (t === REPLACE) replace = true;
    else if (t === MERGE) throw new SmpError('merging lists cannot yet be specified in the patch');
    else throw errBadPatchType(t, m);
  }
  if (replace) return [without, []];
  return [orig, without];
}

function mergeSliceWithoutSpecialElements(original: unknown[], patch: unknown[], mergeKey: string, schema: Lookup): unknown[] {
  const out = original.slice();
  for (const v of patch) {
    const m = v as JMap;
    if (!has(m, mergeKey)) throw errNoMergeKey(m, mergeKey);
    const [found, idx] = findMapInSlice(out, mergeKey, m[mergeKey]);
    if (found) out[idx] = mergeMap(found, m, schema);
    else out.push(v);
  }
  return out;
}

/** interpretStrategicMergePatchError: the status the real server answers for a library error. */
function toStatus(e: SmpError) {
  switch (e.message) {
    case 'invalid JSON document':
    case BAD_PRIMITIVE_LIST:
    case BAD_RETAIN_KEYS:
    case BAD_SET_ELEMENT_ORDER:
    case 'strategic merge patch format is not supported':
      return badRequest(e.message);
    case NO_LIST_OF_LISTS:
    case "patch content doesn't match retainKeys list":
      return unprocessablePatch(e.message);
    default:
      return unknownServerError(e.message);
  }
}

/**
 * Applies a strategic merge patch to a document (an object of a built-in kind) with `schema` the schema of
 * its kind. Returns a new document; the inputs are not modified. Throws the real server's StatusErrors.
 * `share` (a copy-on-write kind, whose `doc` is a view of a stored state: its top level and metadata the
 * view's own, everything below deeply frozen): the result is a new top level and metadata, the maps and
 * lists the patch reaches are new, and every other part is the stored state's, shared; otherwise the
 * result is a deep copy (but metadata.managedFields, see share.ts).
 */
export function applyStrategicMergePatch(doc: unknown, patch: unknown, schema: Schema, defs: SchemaRegistry, share = false): unknown {
  if (patch === null || patch === undefined) return clone(doc);
  if (!isMap(patch)) throw badRequest(`json: cannot unmarshal ${jsonKind(patch)} into Go value of type map[string]interface {}`);
  let original: JMap;
  if (!isMap(doc)) original = {};
  else if (share && patchSparesManagedFields(patch)) {
    original = copyMap(doc);
    if (isMap(original.metadata)) original.metadata = copyMap(original.metadata);
  } else original = copySharingManagedFields(doc, patchSparesManagedFields(patch)) as JMap;
  try {
    return mergeMap(original, clone(patch) as JMap, Lookup.of(schema, defs));
  } catch (e) {
    if (e instanceof SmpError) throw toStatus(e);
    throw e;
  }
}

/** One decoder for every body (decode without `stream` keeps no state); default options, as before. */
const PATCH_DECODER = new TextDecoder();

/**
 * Decodes an application/strategic-merge-patch+json body like handlers/patch.go strategicPatchObject: any
 * decoding failure is a 400 with Go's JSON error text, the body must be an object (or null). Duplicated
 * keys (reported with fieldValidation Warn/Strict) are returned for fieldValidationResult.
 */
export function decodeStrategicPatchBody(bytes: Uint8Array | string, level: 'Ignore' | 'Warn' | 'Strict'): DecodeResult {
  const text = typeof bytes === 'string' ? bytes : PATCH_DECODER.decode(bytes);
  let parsed;
  try {
    parsed = parseJson(text, { maxDuplicates: 100 });
  } catch (e) {
    if (e instanceof JsonSyntaxError || e instanceof JsonRangeError) throw badRequest(e.message);
    throw e;
  }
  const v = parsed.value;
  if (v !== null && !isMap(v)) throw badRequest(`json: cannot unmarshal ${jsonKind(v)} into Go value of type map[string]interface {}`);
  const strict = level !== 'Ignore';
  return {
    value: v,
    duplicates: strict ? parsed.duplicates : [],
    duplicateMessages: strict ? parsed.duplicates.map((p) => `duplicate field ${goQuote(p)}`) : [],
    mediaType: 'json',
    nonIntegerNumbers: parsed.nonIntegerNumbers,
    duplicateOffsets: strict ? parsed.duplicateOffsets : [],
  };
}
