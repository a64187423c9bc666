// Unknown fields (fields a schema does not declare) and field validation (fieldValidation=Ignore|Warn|Strict)
// as the real v1.33 server reports them.
//
// Built-in kinds are decoded into Go structs (sigs.k8s.io/json strict mode): an undeclared key is an
// `unknown field "spec.foo"` and its contents are not looked at; opaque members (RawExtension, FieldsV1:
// `type: object` with neither properties nor additionalProperties) accept anything.
// Custom resources follow apiextensions' structural pruning: everything a structural schema does not
// declare is unknown, unless under x-kubernetes-preserve-unknown-fields; apiVersion, kind and metadata
// of the root and of x-kubernetes-embedded-resource objects are implied, and their metadata is checked
// against ObjectMeta. The order is the real one: root metadata first, then the pruned paths sorted,
// then embedded metadata.
//
// Paths: keys joined with `.`, list items as `[i]`: `spec.template.spec.containers[0].unknownNested`.

import { badRequest, StatusError, type Status } from '../errors.js';
import { clone } from '../object.js';
import { ext, resolve, type Schema, type SchemaRegistry } from './types.js';
import { duplicateInfo, type DecodeResult } from '../codec/decode.js';
import { goQuote, goJsonMarshal, goPrintV, compareGoStrings } from '../codec/go-format.js';

export interface UnknownFieldOptions {
  /** Custom resource semantics (structural pruning) instead of built-in (typed decoding) semantics. */
  customResource?: boolean;
  /**
   * Visit keys in sorted order instead of object order. The real server meets unknown fields of a
   * built-in kind in sorted order when the body was YAML or a patch (both reach the typed decoder as
   * JSON marshalled from a Go map); in document order for a JSON create/update.
   */
  sortKeys?: boolean;
  /**
   * Built-in kinds: the stored state an update starts from. It has no undeclared fields (every write path
   * prunes them before storing; frozen-writes.test.ts checks it over the catalog), so the parts of the
   * object that are its very values (a copy-on-write update shares them) are not walked again.
   */
  old?: unknown;
}

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

// Used when the registry lacks ObjectMeta (e.g. tests with inline schemas): ObjectMeta's fields.
const FALLBACK_OBJECT_META: Schema = {
  type: 'object',
  properties: Object.fromEntries(
    [
      'annotations', 'creationTimestamp', 'deletionGracePeriodSeconds', 'deletionTimestamp', 'finalizers',
      'generateName', 'generation', 'labels', 'managedFields', 'name', 'namespace', 'ownerReferences',
      'resourceVersion', 'selfLink', 'uid',
    ].map((k) => [k, {}]),
  ),
};
(FALLBACK_OBJECT_META.properties!.labels as Schema) = { type: 'object', additionalProperties: { type: 'string' } };
(FALLBACK_OBJECT_META.properties!.annotations as Schema) = { type: 'object', additionalProperties: { type: 'string' } };
(FALLBACK_OBJECT_META.properties!.finalizers as Schema) = { type: 'array', items: { type: 'string' } };
(FALLBACK_OBJECT_META.properties!.ownerReferences as Schema) = {
  type: 'array',
  items: { type: 'object', properties: Object.fromEntries(['apiVersion', 'blockOwnerDeletion', 'controller', 'kind', 'name', 'uid'].map((k) => [k, { type: 'string' }])) },
};
(FALLBACK_OBJECT_META.properties!.managedFields as Schema) = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      apiVersion: { type: 'string' }, fieldsType: { type: 'string' }, fieldsV1: {}, manager: { type: 'string' },
      operation: { type: 'string' }, subresource: { type: 'string' }, time: { type: 'string' },
    },
  },
};

const META_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function keysOf(o: Record<string, unknown>, sorted: boolean): string[] {
  const ks = Object.keys(o);
  return sorted ? ks.sort(compareGoStrings) : ks;
}

// Types whose Go decoding takes any JSON (a custom UnmarshalJSON keeping the raw bytes). Other
// `type: object` definitions without properties are empty structs: every key in them is unknown.
const OPAQUE_DEFINITIONS = new Set([
  'io.k8s.apimachinery.pkg.runtime.RawExtension',
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1',
]);

/** resolve() that also tells whether an opaque definition was crossed. */
function resolveTyped(s: Schema | undefined, defs: SchemaRegistry): { sch: Schema | undefined; opaque: boolean } {
  let cur = s;
  let opaque = false;
  for (let i = 0; cur && i < 32; i++) {
    if (cur.$ref) {
      if (OPAQUE_DEFINITIONS.has(cur.$ref)) opaque = true;
      cur = defs[cur.$ref];
    } else if (cur.allOf && cur.allOf.length === 1 && !cur.type && !cur.properties) cur = cur.allOf[0];
    else break;
  }
  return { sch: cur, opaque };
}

/**
 * Typed (built-in) walk: records undeclared keys; with `drop`, deletes them. `old`: the value at the same
 * place in the stored state (UnknownFieldOptions.old); a declared member or item that is that very value
 * is skipped.
 */
function walkTyped(v: unknown, s: Schema | undefined, defs: SchemaRegistry, path: string, out: string[], sorted: boolean, drop: boolean, old?: unknown): void {
  const { sch, opaque } = resolveTyped(s, defs);
  if (!sch || opaque || v === null || typeof v !== 'object') return;
  if (ext(sch, 'preserve-unknown-fields')) return;
  // a value of the wrong JSON type is a decoding (type) error elsewhere, not unknown fields
  if (Array.isArray(v) ? sch.type !== 'array' : sch.type !== undefined && sch.type !== 'object') return;
  if (Array.isArray(v)) {
    if (!sch.items) return;
    const was = Array.isArray(old) ? old : undefined;
    for (let i = 0; i < v.length; i++) {
      const o = was?.[i];
      if (o !== undefined && o === v[i]) continue;
      walkTyped(v[i], sch.items, defs, `${path}[${i}]`, out, sorted, drop, o);
    }
    return;
  }
  const props = sch.properties;
  const ap = sch.additionalProperties;
  // no type at all (JSON, JSONSchemaPropsOrBool...): custom decoding, anything goes
  if (!props && ap === undefined && sch.type === undefined) return;
  if (ap === true) return;
  const o = v as Record<string, unknown>;
  const was = isObj(old) ? old : undefined;
  for (const k of keysOf(o, sorted)) {
    const declared = props && Object.prototype.hasOwnProperty.call(props, k) ? props[k] : ap && typeof ap === 'object' ? ap : undefined;
    if (declared) {
      const x = o[k];
      const ox = was?.[k];
      if (ox !== undefined && ox === x) continue;
      walkTyped(x, declared, defs, join(path, k), out, sorted, drop, ox);
    } else {
      out.push(join(path, k));
      if (drop) delete o[k];
    }
  }
}

/** apiextensions pruning/algorithm.go prune(). */
function prune(x: unknown, s: Schema | undefined, defs: SchemaRegistry, path: string, out: string[], drop: boolean, root: boolean): void {
  const sch = s === undefined ? undefined : resolve(s, defs);
  if (sch && ext(sch, 'preserve-unknown-fields')) {
    skipPrune(x, sch, defs, path, out, drop, root);
    return;
  }
  if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) prune(x[i], sch ? (sch.items ?? undefined) : undefined, defs, `${path}[${i}]`, out, drop, false);
    return;
  }
  if (!isObj(x)) return;
  const embedded = root || (sch ? !!ext(sch, 'embedded-resource') : false);
  for (const k of Object.keys(x)) {
    if (sch && embedded && META_FIELDS.has(k)) continue;
    if (sch?.properties && Object.prototype.hasOwnProperty.call(sch.properties, k)) {
      prune(x[k], sch.properties[k], defs, join(path, k), out, drop, false);
    } else if (sch && sch.additionalProperties !== undefined && sch.additionalProperties !== false) {
      const ap = sch.additionalProperties;
      prune(x[k], typeof ap === 'object' ? ap : undefined, defs, join(path, k), out, drop, false);
    } else {
      if (!META_FIELDS.has(k) || path !== '') out.push(join(path, k));
      if (drop) delete x[k];
    }
  }
}

// The root of a resource counts as an embedded resource (pruning PruneWithOptions with isResourceRoot):
// its apiVersion, kind and metadata are never pruned here (metadata is ObjectMeta's business, and
// metadata.managedFields[].fieldsV1 is opaque), with or without x-kubernetes-preserve-unknown-fields.
function skipPrune(x: unknown, sch: Schema, defs: SchemaRegistry, path: string, out: string[], drop: boolean, root = false): void {
  if (Array.isArray(x)) {
    const items = resolve(sch.items, defs);
    if (!items) return;
    for (let i = 0; i < x.length; i++) skipPrune(x[i], items, defs, `${path}[${i}]`, out, drop);
    return;
  }
  if (!isObj(x)) return;
  const embedded = root || !!ext(sch, 'embedded-resource');
  for (const k of Object.keys(x)) {
    if (embedded && META_FIELDS.has(k)) continue;
    if (sch.properties && Object.prototype.hasOwnProperty.call(sch.properties, k)) {
      prune(x[k], sch.properties[k], defs, join(path, k), out, drop, false);
    } else if (sch.additionalProperties !== undefined && sch.additionalProperties !== false) {
      const ap = sch.additionalProperties;
      prune(x[k], typeof ap === 'object' ? ap : undefined, defs, join(path, k), out, drop, false);
    }
  }
}

/** ObjectMeta strict decoding of a `metadata` member (sorted, as it is re-marshalled first). */
function checkMeta(meta: unknown, defs: SchemaRegistry, prefix: string, out: string[], drop: boolean): void {
  if (!isObj(meta)) return;
  const om = defs[OBJECT_META] ?? FALLBACK_OBJECT_META;
  walkTyped(meta, om, defs, join(prefix, 'metadata'), out, true, drop);
}

/** objectmeta.Coerce: metadata of x-kubernetes-embedded-resource objects below the root. */
function coerceEmbedded(x: unknown, s: Schema | undefined, defs: SchemaRegistry, path: string, out: string[], drop: boolean, root: boolean): void {
  const sch = resolve(s, defs);
  if (!sch) return;
  if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) coerceEmbedded(x[i], sch.items, defs, `${path}[${i}]`, out, drop, false);
    return;
  }
  if (!isObj(x)) return;
  if (!root && ext(sch, 'embedded-resource')) checkMeta(x.metadata, defs, path, out, drop);
  for (const k of Object.keys(x).sort(compareGoStrings)) {
    if (sch.properties && Object.prototype.hasOwnProperty.call(sch.properties, k)) {
      coerceEmbedded(x[k], sch.properties[k], defs, join(path, k), out, drop, false);
    } else if (isObj(sch.additionalProperties)) {
      coerceEmbedded(x[k], sch.additionalProperties as Schema, defs, join(path, k), out, drop, false);
    }
  }
}

function collect(obj: unknown, schema: Schema, defs: SchemaRegistry, opts: UnknownFieldOptions, drop: boolean): string[] {
  if (!opts.customResource) {
    const out: string[] = [];
    walkTyped(obj, schema, defs, '', out, !!opts.sortKeys, drop, drop ? undefined : opts.old);
    return out;
  }
  const meta: string[] = [];
  if (isObj(obj)) checkMeta(obj.metadata, defs, '', meta, drop);
  const pruned: string[] = [];
  prune(obj, schema, defs, '', pruned, drop, true);
  pruned.sort(compareGoStrings);
  const embedded: string[] = [];
  coerceEmbedded(obj, schema, defs, '', embedded, drop, true);
  return [...meta, ...pruned, ...embedded];
}

/** Paths of the fields of `obj` its schema does not declare, in the order the real server reports them. */
export function findUnknownFields(obj: unknown, schema: Schema, defs: SchemaRegistry, opts: UnknownFieldOptions = {}): string[] {
  return collect(obj, schema, defs, opts, false);
}

/** A copy of `obj` without the fields its schema does not declare (what the real server stores). */
export function pruneUnknownFields(obj: unknown, schema: Schema, defs: SchemaRegistry, opts: UnknownFieldOptions = {}): unknown {
  const copy = clone(obj);
  collect(copy, schema, defs, opts, true);
  return copy;
}

// ------------------------------------------------------------------------------------------------
// Field validation

export type FieldValidationLevel = 'Ignore' | 'Warn' | 'Strict';

export interface FieldValidationContext {
  /** Kind the endpoint serves (e.g. `Deployment`). */
  kind: string;
  /** Version of the request object (`v1` for apps/v1). */
  version: string;
  /** Kind as written in the body when it differs (the message starts with it); defaults to `kind`. */
  bodyKind?: string;
  operation: 'create' | 'update' | 'patch';
  customResource?: boolean;
  /** Media type of a create/update body; taken from a DecodeResult when one is given. */
  mediaType?: 'json' | 'yaml';
  /**
   * For patch: which patch type. `apply` (server-side apply) reports only the duplicates of the YAML/JSON
   * body, in go-yaml's words (the real apply handler strictly decodes the body into a map).
   */
  patchType?: 'json' | 'merge' | 'strategic' | 'apply';
  /**
   * For a json or merge patch: the patched object, printed (as Go marshals it) in the Strict 422.
   * For a strategic merge patch: the patch document, printed as Go's %+v of a map.
   */
  patchedObject?: unknown;
  patchDocument?: unknown;
  /** For a json patch: the strict errors of the patch document itself (see patch/json-patch.ts). */
  patchErrors?: string[];
}

export interface FieldValidationOutcome {
  /** Warning header texts, one per field (level Warn); empty for Ignore. */
  warnings: string[];
}

/** How many strict errors one decoder pass keeps (sigs.k8s.io/json). */
const MAX_STRICT_ERRORS = 100;

function under(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}.`) || path.startsWith(`${prefix}[`);
}

/**
 * The strict-decoding errors for a request, in the real order (see the file comment and the
 * test/integration/apiserver/field_validation_test.go expectations of v1.33).
 */
export function strictDecodingErrors(unknown: string[], duplicates: string[] | DecodeResult, ctx: FieldValidationContext): string[] {
  const info = duplicateInfo(duplicates);
  const dupPaths = Array.isArray(duplicates) ? duplicates : duplicates.duplicates;
  const media = info?.mediaType ?? ctx.mediaType ?? 'json';
  const yamlDups = (msgs: string[]) => (msgs.length ? [`yaml: unmarshal errors:\n  ${msgs.join('\n  ')}`] : []);
  const unknownErrs = unknown.map((p) => `unknown field ${goQuote(p)}`);
  const jsonDupErrs = (paths: string[]) => paths.map((p) => `duplicate field ${goQuote(p)}`);

  if (ctx.operation === 'patch') {
    if (ctx.patchType === 'apply' || (ctx.patchType === undefined && media === 'yaml')) {
      return yamlDups(info?.messages ?? []).map((e) => `error converting YAML to JSON: ${e}`);
    }
    if (ctx.patchType === 'json') return [...(ctx.patchErrors ?? []), ...unknownErrs];
    return [...jsonDupErrs(dupPaths), ...unknownErrs];
  }
  if (media === 'yaml') return [...yamlDups(info?.messages ?? []), ...unknownErrs];
  if (ctx.customResource) return [...jsonDupErrs(dupPaths), ...unknownErrs];

  // built-in kind, JSON body: one typed decoding pass meets both kinds in document order; a duplicated
  // unknown key, or anything inside an unknown field, is reported only as the unknown field
  const dups = dupPaths
    .map((p, i) => ({ p, off: info?.offsets?.[i] }))
    .filter((d) => !unknown.some((u) => under(d.p, u)));
  const events: { text: string; off: number; seq: number }[] = [];
  unknown.forEach((p, i) => events.push({ text: `unknown field ${goQuote(p)}`, off: info?.fieldOffset?.(p) ?? Infinity, seq: i }));
  dups.forEach((d, i) => events.push({ text: `duplicate field ${goQuote(d.p)}`, off: d.off ?? -1, seq: unknown.length + i }));
  if (!info?.offsets || !info.fieldOffset) {
    // without offsets: duplicates first, then unknown fields
    return [...dups.map((d) => `duplicate field ${goQuote(d.p)}`), ...unknownErrs].slice(0, MAX_STRICT_ERRORS);
  }
  events.sort((a, b) => a.off - b.off || a.seq - b.seq);
  return events.slice(0, MAX_STRICT_ERRORS).map((e) => e.text);
}

/** handlers/rest.go parseYAMLWarnings: one warning per line of a YAML strict error. */
function warningTexts(errs: string[]): string[] {
  const out: string[] = [];
  for (const e of errs) {
    const prefixes = ['yaml: unmarshal errors:\n', 'error converting YAML to JSON: yaml: unmarshal errors:\n'];
    const pre = prefixes.find((p) => e.startsWith(p));
    if (!pre) out.push(e);
    else out.push(...e.slice(pre.length).split('\n').map((s) => s.trim()));
  }
  return out;
}

/**
 * Applies a fieldValidation level to the unknown and duplicate fields of a request: returns the Warning
 * texts (Warn), nothing (Ignore), or throws the real Strict error:
 *  - create/update: 400 `Deployment in version "v1" cannot be handled as a Deployment: strict decoding
 *    error: unknown field "spec.foo", duplicate field "spec.paused"`
 *  - json/merge/strategic patch: 422 ` "" is invalid: patch: Invalid value: "<object>": strict decoding
 *    error: ...` (handlers/patch.go), with one FieldValueInvalid cause on `patch`.
 */
export function fieldValidationResult(
  unknown: string[],
  duplicates: string[] | DecodeResult,
  level: FieldValidationLevel,
  kindInfo: FieldValidationContext,
): FieldValidationOutcome {
  if (level === 'Ignore') return { warnings: [] };
  const errs = strictDecodingErrors(unknown, duplicates, kindInfo);
  if (errs.length === 0) return { warnings: [] };
  if (level === 'Warn') return { warnings: warningTexts(errs) };
  if (kindInfo.operation === 'patch' && (kindInfo.patchType === 'apply' || (kindInfo.patchType === undefined && (duplicateInfo(duplicates)?.mediaType ?? kindInfo.mediaType) === 'yaml'))) {
    // handlers/patch.go applyPatcher: errors.NewBadRequest("error strict decoding YAML: " + err)
    throw badRequest(`error strict decoding YAML: ${errs.join(', ')}`);
  }
  const detail = `strict decoding error: ${errs.join(', ')}`;
  if (kindInfo.operation !== 'patch') {
    throw badRequest(`${kindInfo.bodyKind ?? kindInfo.kind} in version ${goQuote(kindInfo.version)} cannot be handled as a ${kindInfo.kind}: ${detail}`);
  }
  const shown = kindInfo.patchType === 'strategic'
    ? goPrintV(kindInfo.patchDocument ?? {})
    : goJsonMarshal(kindInfo.patchedObject ?? {});
  throw patchInvalid(shown, detail);
}

/** errors.NewInvalid(schema.GroupKind{}, "", field.Invalid(field.NewPath("patch"), value, detail)). */
export function patchInvalid(value: string, detail: string): StatusError {
  const body = `Invalid value: ${goQuote(value)}: ${detail}`;
  const status: Status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: ` "" is invalid: patch: ${body}`,
    reason: 'Invalid',
    details: { causes: [{ reason: 'FieldValueInvalid', message: body, field: 'patch' }] },
    code: 422,
  };
  return new StatusError(status);
}
