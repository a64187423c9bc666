// JSON Patch (RFC 6902, application/json-patch+json) with the semantics of the library the real server
// uses, gopkg.in/evanphx/json-patch.v4 (v4.12.0), and the answers of apiserver handlers/patch.go:
// - a body that is not a list of operation objects: 400 with Go's decoding error;
// - more than 10000 operations: 413;
// - any operation that does not apply (missing path, bad index, failed `test`, unknown `op`): 422
//   "the server rejected our request due to an error in our request" (the library text is not shown).
// Library behaviours kept on purpose: negative array indexes count from the end; `replace` of a missing
// object member adds it; `copy`/`move` from a missing object member copies null; a path without a leading
// `/` addresses the root's members by its last segment; `replace` of the whole document with a scalar is a
// no-op. Scalars in `test` compare by value (Go compares the JSON text, so `1.0` vs `1` differ there).
// fast-json-patch is not used: its RFC-strict behaviour differs from the real server on these points.

import { badRequest, requestEntityTooLarge } from '../errors.js';
import { clone } from '../object.js';
import { parseJson, JsonSyntaxError, JsonRangeError, jsonFieldOffsets } from '../codec/json.js';
import { goQuote, goJsonMarshal } from '../codec/go-format.js';
import { interpretKindError } from '../codec/decode.js';
import { patchInvalid } from '../schema/prune.js';
import { unprocessablePatch } from './errors.js';
import { MAX_NESTING_DEPTH, nestingDepth } from '../codec/budgets.js';

export const MAX_JSON_PATCH_OPERATIONS = 10000;
/** --max-... default of JSONPatchMaxCopyBytes (3 MiB): total size copied by `copy` operations. */
export const JSON_PATCH_MAX_COPY_BYTES = 3 * 1024 * 1024;

type Container = Record<string, unknown> | unknown[];

class PatchOpError extends Error {}

function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function goKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  return 'string';
}

/** strconv.Atoi */
function atoi(s: string): number {
  if (!/^[+-]?\d+$/.test(s)) throw new PatchOpError(`strconv.Atoi: parsing ${goQuote(s)}: invalid syntax`);
  const n = Number(s);
  if (!Number.isSafeInteger(n)) throw new PatchOpError(`strconv.Atoi: parsing ${goQuote(s)}: value out of range`);
  return n;
}

function decodeKey(k: string): string {
  return k.replace(/~1/g, '/').replace(/~0/g, '~');
}

function invalidIndex(idx: number): PatchOpError {
  return new PatchOpError(`Unable to access invalid index: ${idx}: invalid index referenced`);
}

function get(c: Container, key: string): unknown {
  if (!Array.isArray(c)) return Object.prototype.hasOwnProperty.call(c, key) ? c[key] : undefined;
  let idx = atoi(key);
  if (idx < 0) {
    if (idx < -c.length) throw invalidIndex(idx);
    idx += c.length;
  }
  if (idx >= c.length) throw invalidIndex(idx);
  return c[idx];
}

function setIn(c: Container, key: string, val: unknown): void {
  if (!Array.isArray(c)) {
    if (key === '__proto__') Object.defineProperty(c, key, { value: val, enumerable: true, writable: true, configurable: true });
    else c[key] = val;
    return;
  }
  let idx = atoi(key);
  if (idx < 0) {
    if (idx < -c.length) throw invalidIndex(idx);
    idx += c.length;
  }
  c[idx] = val;
}

function addIn(c: Container, key: string, val: unknown): void {
  if (!Array.isArray(c)) return setIn(c, key, val);
  if (key === '-') {
    c.push(val);
    return;
  }
  let idx: number;
  try {
    idx = atoi(key);
  } catch (e) {
    throw new PatchOpError(`value was not a proper array index: '${key}': ${(e as Error).message}`);
  }
  const size = c.length + 1;
  if (idx >= size) throw invalidIndex(idx);
  if (idx < 0) {
    if (idx < -size) throw invalidIndex(idx);
    idx += size;
  }
  c.splice(idx, 0, val);
}

function removeIn(c: Container, key: string): void {
  if (!Array.isArray(c)) {
    if (!Object.prototype.hasOwnProperty.call(c, key)) throw new PatchOpError(`Unable to remove nonexistent key: ${key}: missing value`);
    delete c[key];
    return;
  }
  let idx = atoi(key);
  if (idx >= c.length) throw invalidIndex(idx);
  if (idx < 0) {
    if (idx < -c.length) throw invalidIndex(idx);
    idx += c.length;
  }
  c.splice(idx, 1);
}

/** evanphx findObject: the container of the last segment, or null. */
function findObject(doc: Container, path: string): [Container, string] | null {
  const split = path.split('/');
  if (split.length < 2) return null;
  const parts = split.slice(1, -1);
  const key = split[split.length - 1];
  let cur: Container = doc;
  for (const part of parts) {
    let next: unknown;
    try {
      next = get(cur, decodeKey(part));
    } catch {
      return null;
    }
    if (next === null || next === undefined || typeof next !== 'object') return null;
    cur = next as Container;
  }
  return [cur, decodeKey(key)];
}

/** lazyNode.equal: objects by members (null == missing only against null), arrays by items, scalars by JSON text. */
function jsonEqual(a: unknown, b: unknown): boolean {
  const an = a === undefined ? null : a;
  const bn = b === undefined ? null : b;
  if (Array.isArray(an)) return Array.isArray(bn) && an.length === bn.length && an.every((x, i) => jsonEqual(x, bn[i]));
  if (isObj(an)) {
    if (!isObj(bn)) return false;
    const ka = Object.keys(an);
    if (ka.length !== Object.keys(bn).length) return false;
    return ka.every((k) => Object.prototype.hasOwnProperty.call(bn, k) && jsonEqual(an[k], bn[k]));
  }
  if (Array.isArray(bn) || isObj(bn)) return false;
  return JSON.stringify(an) === JSON.stringify(bn);
}

function opString(op: Record<string, unknown>, field: string): string | undefined {
  const v = op[field];
  return typeof v === 'string' ? v : undefined;
}

function pathOf(op: Record<string, unknown>, field: 'path' | 'from', what: string): string {
  const v = op[field];
  if (v === undefined || v === null) {
    throw new PatchOpError(field === 'path' ? `${what}: operation missing path field: missing value` : `${what}: operation, missing from field: missing value`);
  }
  if (typeof v !== 'string') throw new PatchOpError(`${what}: json: cannot unmarshal ${goKind(v)} into Go value of type string`);
  return v;
}

function valueOf(op: Record<string, unknown>): unknown {
  return Object.prototype.hasOwnProperty.call(op, 'value') ? clone(op.value ?? null) : null;
}

/** The 400s of jsonpatch.DecodePatch for a body that is not a list of objects. */
function checkPatchShape(patch: unknown): unknown[] {
  if (patch === null) return [];
  if (!Array.isArray(patch)) throw badRequest(`json: cannot unmarshal ${goKind(patch)} into Go value of type jsonpatch.Patch`);
  for (const op of patch) {
    if (op !== null && !isObj(op)) throw badRequest(`json: cannot unmarshal ${goKind(op)} into Go value of type jsonpatch.Operation`);
  }
  if (patch.length > MAX_JSON_PATCH_OPERATIONS) {
    throw requestEntityTooLarge(`The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${patch.length}`);
  }
  return patch;
}

/**
 * Applies a JSON patch to a document and returns the new document; the inputs are not modified.
 * Throws the real server's StatusErrors (see the file comment).
 */
export function applyJsonPatch(doc: unknown, patch: unknown): unknown {
  const ops = checkPatchShape(patch);
  let root = clone(doc) as Container;
  if (root === null || typeof root !== 'object') root = {};
  let copied = 0;
  for (const raw of ops) {
    const op = (raw ?? {}) as Record<string, unknown>;
    const kind = opString(op, 'op') ?? 'unknown';
    try {
      switch (kind) {
        case 'add': {
          const path = pathOf(op, 'path', 'add operation failed to decode path');
          const found = findObject(root, path);
          if (!found) throw new PatchOpError(`add operation does not apply: doc is missing path: "${path}": missing value`);
          const value = valueOf(op);
          checkNesting(path, value);
          wrap(() => addIn(found[0], found[1], value), `error in add for path: '${path}'`);
          break;
        }
        case 'remove': {
          const path = pathOf(op, 'path', 'remove operation failed to decode path');
          const found = findObject(root, path);
          if (!found) throw new PatchOpError(`remove operation does not apply: doc is missing path: "${path}": missing value`);
          wrap(() => removeIn(found[0], found[1]), `error in remove for path: '${path}'`);
          break;
        }
        case 'replace': {
          const path = pathOf(op, 'path', 'replace operation failed to decode path');
          if (path === '') {
            const v = valueOf(op);
            if (v !== null && typeof v === 'object') root = v as Container;
            // a scalar: the library wraps a nil error, so nothing happens
            break;
          }
          const found = findObject(root, path);
          if (!found) throw new PatchOpError(`replace operation does not apply: doc is missing path: ${path}: missing value`);
          try {
            get(found[0], found[1]);
          } catch {
            throw new PatchOpError(`replace operation does not apply: doc is missing key: ${path}: missing value`);
          }
          const value = valueOf(op);
          checkNesting(path, value);
          wrap(() => setIn(found[0], found[1], value), `error in remove for path: '${path}'`);
          break;
        }
        case 'move': {
          const from = pathOf(op, 'from', 'move operation failed to decode from');
          const src = findObject(root, from);
          if (!src) throw new PatchOpError(`move operation does not apply: doc is missing from path: ${from}: missing value`);
          const val = wrap(() => get(src[0], src[1]), `error in move for path: '${src[1]}'`);
          wrap(() => removeIn(src[0], src[1]), `error in move for path: '${src[1]}'`);
          const path = pathOf(op, 'path', 'move operation failed to decode path');
          const dst = findObject(root, path);
          if (!dst) throw new PatchOpError(`move operation does not apply: doc is missing destination path: ${path}: missing value`);
          checkNesting(path, val);
          wrap(() => addIn(dst[0], dst[1], val === undefined ? null : val), `error in move for path: '${path}'`);
          break;
        }
        case 'test': {
          const path = pathOf(op, 'path', 'test operation failed to decode path');
          const hasValue = Object.prototype.hasOwnProperty.call(op, 'value');
          const failed = () => new PatchOpError(`testing value ${path} failed: test failed`);
          if (path === '') {
            if (!jsonEqual(root, op.value)) throw failed();
            break;
          }
          const found = findObject(root, path);
          if (!found) throw new PatchOpError(`test operation does not apply: is missing path: ${path}: missing value`);
          const val = wrap(() => get(found[0], found[1]), `error in test for path: '${path}'`);
          if (val === null || val === undefined) {
            if (hasValue && op.value === null) break;
            throw failed();
          }
          if (!hasValue || !jsonEqual(val, op.value)) throw failed();
          break;
        }
        case 'copy': {
          const from = pathOf(op, 'from', 'copy operation failed to decode from');
          const src = findObject(root, from);
          if (!src) throw new PatchOpError(`copy operation does not apply: doc is missing from path: ${from}: missing value`);
          const val = wrap(() => get(src[0], src[1]), `error in copy for from: '${from}'`);
          const path = pathOf(op, 'path', 'copy operation failed to decode path');
          const dst = findObject(root, path);
          if (!dst) throw new PatchOpError(`copy operation does not apply: doc is missing destination path: ${path}: missing value`);
          checkNesting(path, val);
          const copy = val === undefined ? null : clone(val);
          copied += JSON.stringify(copy).length;
          if (copied > JSON_PATCH_MAX_COPY_BYTES) {
            throw new PatchOpError(`Unable to complete the copy, the accumulated size increase of copy is ${copied}, exceeding the limit ${JSON_PATCH_MAX_COPY_BYTES}`);
          }
          wrap(() => addIn(dst[0], dst[1], copy), 'error while adding value during copy');
          break;
        }
        default:
          throw new PatchOpError(`Unexpected kind: ${kind}`);
      }
    } catch (e) {
      if (e instanceof PatchOpError) throw unprocessablePatch(e.message);
      throw e;
    }
  }
  if (Array.isArray(root)) {
    // the patched document is decoded into the resource next, which fails for a list (handlers/patch.go)
    throw patchInvalid(goJsonMarshal(root), interpretKindError(root)!);
  }
  return root;
}

/**
 * The nesting budget (codec/budgets.ts) for a value placed at a path: an `add`, `copy` or `move` could
 * otherwise nest the document ever deeper (a deep value at a deep path, a subtree copied into itself).
 */
function checkNesting(path: string, value: unknown): void {
  const segments = path.split('/').length - 1;
  if (segments + nestingDepth(value, MAX_NESTING_DEPTH) > MAX_NESTING_DEPTH) {
    throw new PatchOpError(`the patched document would nest more than ${MAX_NESTING_DEPTH} levels deep at path: '${path}'`);
  }
}

function wrap<T>(f: () => T, context: string): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof PatchOpError) throw new PatchOpError(`${context}: ${e.message}`);
    throw e;
  }
}

// ------------------------------------------------------------------------------------------------
// Request body

export interface DecodedJsonPatch {
  patch: unknown[];
  /**
   * Strict-decoding errors of the patch document itself (fieldValidation Warn/Strict), as the real server
   * words them: `json patch unknown field "[0].foo"`, `json patch duplicate field "[1].path"`.
   */
  patchErrors: string[];
}

const OP_FIELDS = new Set(['op', 'path', 'from', 'value']);

/** One decoder for every body (decode without `stream` keeps no state); default options, as before. */
const PATCH_DECODER = new TextDecoder();

/**
 * Decodes an application/json-patch+json body like handlers/patch.go: with fieldValidation Warn or Strict
 * the body is first strictly decoded (`error decoding patch: ...` on failure), then jsonpatch.DecodePatch.
 */
export function decodeJsonPatchBody(bytes: Uint8Array | string, level: 'Ignore' | 'Warn' | 'Strict'): DecodedJsonPatch {
  const text = typeof bytes === 'string' ? bytes : PATCH_DECODER.decode(bytes);
  const strict = level !== 'Ignore';
  let parsed;
  try {
    parsed = parseJson(text);
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw badRequest(strict ? `error decoding patch: ${e.message}` : e.message);
    if (e instanceof JsonRangeError) throw badRequest(e.message);
    throw e;
  }
  const value = parsed.value;
  const patchErrors: string[] = [];
  if (strict) {
    if (value !== null && !Array.isArray(value)) {
      throw badRequest(`error decoding patch: json: cannot unmarshal ${goKind(value)} into Go value of type []handlers.jsonPatchOp`);
    }
    const ops = (value ?? []) as unknown[];
    for (const op of ops) {
      if (op !== null && !isObj(op)) throw badRequest(`error decoding patch: json: cannot unmarshal ${goKind(op)} into Go value of type handlers.jsonPatchOp`);
      if (!op) continue;
      for (const f of ['op', 'path', 'from']) {
        const v = op[f];
        if (v !== undefined && v !== null && typeof v !== 'string') {
          throw badRequest(`error decoding patch: json: cannot unmarshal ${goKind(v)} into Go struct field jsonPatchOp.${f} of type string`);
        }
      }
    }
    // unknown members of an operation and duplicated keys, in document order; a duplicated unknown
    // member is reported once, as unknown
    const events: { off: number; text: string }[] = [];
    const unknown: string[] = [];
    ops.forEach((op, i) => {
      if (isObj(op)) for (const k of Object.keys(op)) if (!OP_FIELDS.has(k)) unknown.push(`[${i}].${k}`);
    });
    let offsets: Map<string, number> | undefined;
    for (const u of unknown) {
      offsets ??= jsonFieldOffsets(text);
      events.push({ off: offsets.get(u) ?? Infinity, text: `json patch unknown field ${goQuote(u)}` });
    }
    parsed.duplicates.forEach((p, i) => {
      if (unknown.some((u) => p === u || p.startsWith(`${u}.`) || p.startsWith(`${u}[`))) return;
      events.push({ off: parsed.duplicateOffsets[i], text: `json patch duplicate field ${goQuote(p)}` });
    });
    events.sort((a, b) => a.off - b.off);
    patchErrors.push(...events.slice(0, 100).map((e) => e.text));
  }
  return { patch: checkPatchShape(value), patchErrors };
}

