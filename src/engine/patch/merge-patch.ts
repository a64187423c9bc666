// JSON Merge Patch (RFC 7386, application/merge-patch+json) as the real server applies it
// (gopkg.in/evanphx/json-patch.v4 MergePatch, apiserver handlers/patch.go):
// - members of the patch replace those of the document, objects merge recursively, null deletes;
// - nulls inside a value that is added where the document had no object are dropped, except inside a
//   non-object value replacing an object member (the library keeps those);
// - a patch that is not an object: null or a scalar is 400 "Invalid JSON Patch"; a list replaces the
//   document, which then cannot be decoded into a resource (422, as the real server answers).

import { badRequest } from '../errors.js';
import { clone } from '../object.js';
import { copySharingManagedFields } from './share.js';
import { parseJson, JsonSyntaxError, JsonRangeError } from '../codec/json.js';
import { goJsonMarshal, goQuote } from '../codec/go-format.js';
import { patchInvalid } from '../schema/prune.js';
import { interpretKindError, type DecodeResult } from '../codec/decode.js';

function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function setMember(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

function pruneNulls(v: unknown): void {
  if (isObj(v)) pruneDocNulls(v);
  else if (Array.isArray(v)) for (const x of v) if (x !== null) pruneNulls(x);
}

function pruneDocNulls(doc: Record<string, unknown>): Record<string, unknown> {
  for (const k of Object.keys(doc)) {
    if (doc[k] === null) delete doc[k];
    else pruneNulls(doc[k]);
  }
  return doc;
}

/** A shallow copy of an object, in its order (undefined members left out, as a deep copy leaves them out). */
function copyObj(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k in o) {
    if (!Object.hasOwn(o, k)) continue;
    const v = o[k];
    if (v !== undefined) setMember(out, k, v);
  }
  return out;
}

function merge(cur: unknown, patch: unknown): unknown {
  if (!isObj(cur)) {
    pruneNulls(patch);
    return patch;
  }
  if (!isObj(patch)) return patch;
  // copy-on-write: a frozen object is a stored state's (shared into the patched document), copied before
  // it is written; what the patch does not reach stays shared
  const own = Object.isFrozen(cur) ? copyObj(cur) : cur;
  mergeDocs(own, patch);
  return own;
}

function mergeDocs(doc: Record<string, unknown>, patch: Record<string, unknown>): void {
  for (const k of Object.keys(patch)) {
    const v = patch[k];
    if (v === null) {
      delete doc[k];
      continue;
    }
    const has = Object.prototype.hasOwnProperty.call(doc, k);
    if (!has || doc[k] === null) {
      pruneNulls(v);
      setMember(doc, k, v);
    } else setMember(doc, k, merge(doc[k], v));
  }
}

/**
 * Applies a merge patch to a resource document; returns a new document, the inputs are not modified.
 * `share` (a copy-on-write kind, whose `doc` is a view of a stored state: its top level and metadata the
 * view's own, everything below deeply frozen): a new top level and metadata, new objects where the patch
 * writes, every other part the stored state's; otherwise a deep copy (but metadata.managedFields).
 */
export function applyMergePatch(doc: unknown, patch: unknown, share = false): unknown {
  const p = clone(patch);
  if (isObj(p)) {
    // metadata.managedFields stays shared: a merge patch replaces a list whole, never writes inside one
    let d: unknown;
    if (share && isObj(doc)) {
      d = copyObj(doc);
      const m = (d as Record<string, unknown>).metadata;
      if (isObj(m)) (d as Record<string, unknown>).metadata = copyObj(m);
    } else d = copySharingManagedFields(doc);
    if (!isObj(d)) return pruneDocNulls(p);
    mergeDocs(d, p);
    return d;
  }
  if (Array.isArray(p)) {
    // the library returns the list itself; decoding it into the resource then fails
    for (const x of p) if (x !== null) pruneNulls(x);
    throw patchInvalid(goJsonMarshal(p), interpretKindError(p)!);
  }
  throw badRequest('Invalid JSON Patch');
}

/** One decoder for every body (decode without `stream` keeps no state); default options, as before. */
const PATCH_DECODER = new TextDecoder();

/**
 * Decodes an application/merge-patch+json body like handlers/patch.go. With fieldValidation Warn or Strict
 * the body is strictly decoded into a map first (`error decoding patch: ...`); duplicated keys are returned
 * for fieldValidationResult. Otherwise a malformed body is "Invalid JSON Patch".
 */
export function decodeMergePatchBody(bytes: Uint8Array | string, level: 'Ignore' | 'Warn' | 'Strict'): DecodeResult {
  const text = typeof bytes === 'string' ? bytes : PATCH_DECODER.decode(bytes);
  const strict = level !== 'Ignore';
  let parsed;
  try {
    parsed = parseJson(text, { maxDuplicates: 100 });
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw badRequest(strict ? `error decoding patch: ${e.message}` : 'Invalid JSON Patch');
    if (e instanceof JsonRangeError) throw badRequest(e.message);
    throw e;
  }
  const v = parsed.value;
  if (strict && v !== null && !isObj(v)) {
    const kind = Array.isArray(v) ? 'array' : typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'bool' : 'string';
    throw badRequest(`error decoding patch: json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`);
  }
  return {
    value: v,
    duplicates: strict ? parsed.duplicates : [],
    duplicateMessages: strict ? parsed.duplicates.map((p) => `duplicate field ${goQuote(p)}`) : [],
    mediaType: 'json',
    nonIntegerNumbers: parsed.nonIntegerNumbers,
    duplicateOffsets: strict ? parsed.duplicateOffsets : [],
  };
}
