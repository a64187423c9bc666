// The stages every write shares, in the real server's order: decode (duplicate fields), field validation
// against the schema (unknown fields: Ignore/Warn/Strict), type checks (400), then the store runs
// defaulting, preparation and validation (422), and managedFields are recorded just before storage.

import { rfc3339 } from '../env.js';
import { GoRepr, badRequest, fieldErr, invalid, type FieldError } from '../errors.js';
import type { KubeObject } from '../object.js';
import type { DecodeResult } from '../codec/decode.js';
import { findUnknownFields, pruneUnknownFields, fieldValidationResult } from '../schema/prune.js';
import { checkTypes, objectMetaTypeError } from '../schema/validate.js';
import { goSharpV } from '../codec/go-format.js';
import { objectTypeFor, updateManagedFields } from '../merge/index.js';
import { groupVersion, type ResourceDefinition } from '../registry/types.js';
import type { FieldValidation, Scope } from './scope.js';
import type { AdmissionRequest } from '../admission/types.js';
import { auditContextOf } from '../audit/log.js';

export interface Admitted {
  object: KubeObject;
  warnings: string[];
}

function isCustom(def: ResourceDefinition): boolean {
  return (def as { custom?: boolean }).custom === true;
}

/**
 * Field validation of a decoded body: unknown fields (against the schema) and duplicates. Strict fails with
 * the real 400; Warn returns warnings; unknown fields are dropped before storage at every level.
 */
export function fieldValidate(
  def: ResourceDefinition,
  body: KubeObject,
  duplicates: string[] | DecodeResult,
  level: FieldValidation,
  ctx: { operation: 'create' | 'update' | 'patch'; mediaType?: 'json' | 'yaml'; patchType?: 'json' | 'merge' | 'strategic'; patchDocument?: unknown; patchErrors?: string[]; old?: KubeObject } = { operation: 'create' },
): Admitted {
  const custom = isCustom(def);
  def.canonicalizeBody?.(body);
  const sortKeys = !custom && (ctx.mediaType === 'yaml' || ctx.operation === 'patch');
  // ctx.old: the stored state a copy-on-write patch shares parts of (those are not walked again)
  const unknown = findUnknownFields(body, def.schema, def.definitions, { customResource: custom, sortKeys, old: ctx.old });
  const bodyKind = typeof body.kind === 'string' && body.kind !== def.kind ? body.kind : undefined;
  const result = fieldValidationResult(unknown, level === 'Ignore' ? [] : duplicates, level, {
    kind: def.kind,
    version: def.version,
    bodyKind,
    operation: ctx.operation,
    customResource: custom,
    mediaType: ctx.mediaType,
    patchType: ctx.patchType,
    patchedObject: body,
    patchDocument: ctx.patchDocument,
    patchErrors: ctx.patchErrors,
  });
  const object = unknown.length ? (pruneUnknownFields(body, def.schema, def.definitions, { customResource: custom }) as KubeObject) : body;
  return { object, warnings: level === 'Warn' ? result.warnings : [] };
}

/**
 * Wrong JSON types give the decoder's 400, as the real server does for built-in kinds. `old`: the stored
 * state a copy-on-write patch shares parts of (those are not walked again, see checkTypes).
 */
export function typeCheck(def: ResourceDefinition, obj: KubeObject, old?: KubeObject): void {
  if (isCustom(def)) {
    // the apiextensions decoder coerces metadata into metav1.ObjectMeta (objectmeta.Coerce) and refuses
    // the body with field.Invalid("metadata", <metadata>, <json error>) when it does not fit
    const detail = objectMetaTypeError(obj.metadata, def.definitions);
    if (detail) {
      throw badRequest(`${def.kind} in version "${def.version}" cannot be handled as a ${def.kind}: metadata: Invalid value: ${goSharpV(obj.metadata)}: ${detail}`);
    }
    return;
  }
  const err = checkTypes(obj, def.schema, def.definitions, { group: def.group, version: def.version, kind: def.kind }, old);
  if (err) throw err;
}

/** Who asked, for admission: the acting user and the authorizer (undefined when the request was not authorized here). */
export function admissionRequest(scope: Scope): AdmissionRequest | undefined {
  if (!scope.auth) return undefined;
  const audit = auditContextOf(scope.request);
  return { user: scope.auth.user, authorizer: scope.auth.authorizer, ...(audit ? { audit } : {}) };
}

/**
 * LogRequestObject of the create and update handlers: once the body is decoded (its kind, types and fields
 * checked), the audit event records the object as the server decoded it (defaulted) rather than as sent.
 * Nothing is computed unless the policy records request objects for this request.
 */
export function logRequestObject(scope: Scope, obj: KubeObject): void {
  auditContextOf(scope.request)?.requestObject(() => scope.core.store.decoded(scope.def, obj, scope.info.subresource));
}

/** Said by the create and update handlers before they decode: until logRequestObject, no requestObject. */
export function expectRequestObject(scope: Scope): void {
  auditContextOf(scope.request)?.decodesRequestObject();
}

/** managedFields for a create/update/non-apply patch, as the finalize hook of the store. */
export function recordUpdate(scope: Scope, manager: string, subresource: string) {
  const def = scope.def;
  const type = objectTypeFor(def.schema, def.definitions, { customResource: isCustom(def) });
  return (obj: KubeObject, old: KubeObject | null): KubeObject =>
    updateManagedFields(type, old, obj, {
      manager,
      apiVersion: groupVersion(def),
      subresource: subresource || undefined,
      time: rfc3339(scope.core.env.clock.now()),
      resetFields: resetFieldsFor(def, subresource),
      share: def.copyOnWrite,
    });
}

/** What an endpoint never tracks (ResetFieldsStrategy): status on the main resource, spec on /status. */
export function resetFieldsFor(def: ResourceDefinition, subresource: string): string[][] | undefined {
  if (subresource === 'status' || subresource === 'approval') return [['spec']];
  // namespaces/finalize: the finalize strategy never tracks status
  if (subresource === 'finalize') return [['status']];
  if (subresource === '' && def.subresources.status) return [['status']];
  return undefined;
}

// ---------------------------------------------------------------------------------------------------
// Write options, validated as ValidateCreateOptions / ValidateUpdateOptions / ValidatePatchOptions do:
// every error of the request in one 422, in the real order (force or fieldManager for apply, fieldManager,
// dryRun, fieldValidation).

export interface WriteOptions {
  dryRun: boolean;
  /** The manager recorded in managedFields: fieldManager, else the User-Agent up to its first "/". */
  fieldManager: string;
  fieldManagerGiven: boolean;
  fieldValidation: FieldValidation;
  /** PatchOptions.force (apply only). */
  force: boolean;
}

/** The real limit on fieldManager (bytes). */
export const FIELD_MANAGER_MAX_LENGTH = 128;

/** unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** A string of printable ASCII characters only (each one byte, each passing PRINTABLE). */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Go's %#U of a rune: U+0007, or U+0041 'A' for a printable one. */
function goRuneU(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** ValidateFieldManager: at most 128 bytes, printable characters only (positions are byte offsets). */
export function validateFieldManager(fm: string): FieldError[] {
  // printable ASCII (nearly every manager name): one byte per character, nothing to report
  if (fm.length <= FIELD_MANAGER_MAX_LENGTH && PRINTABLE_ASCII.test(fm)) return [];
  const errs: FieldError[] = [];
  const enc = new TextEncoder();
  if (enc.encode(fm).length > FIELD_MANAGER_MAX_LENGTH) errs.push(fieldErr.tooLong('fieldManager', fm, FIELD_MANAGER_MAX_LENGTH));
  let pos = 0;
  for (const ch of fm) {
    if (!PRINTABLE.test(ch)) errs.push(fieldErr.invalid('fieldManager', fm, `invalid character ${goRuneU(ch.codePointAt(0)!)} (at position ${pos})`));
    pos += enc.encode(ch).length;
  }
  return errs;
}

/**
 * handlers prefixFromUserAgent: the User-Agent up to its first "/", without unprintable characters, cut
 * (at a character boundary) to at most 128 bytes.
 */
export function prefixFromUserAgent(ua: string): string {
  const head = ua.split('/')[0];
  if (head.length <= FIELD_MANAGER_MAX_LENGTH && PRINTABLE_ASCII.test(head)) return head;
  const enc = new TextEncoder();
  let out = '';
  let bytes = 0;
  for (const ch of head) {
    if (!PRINTABLE.test(ch)) continue;
    const n = enc.encode(ch).length;
    if (bytes + n > FIELD_MANAGER_MAX_LENGTH) break;
    out += ch;
    bytes += n;
  }
  return out;
}

/** ValidateDryRun: every value must be `All`; `?dryRun` with no value is not a dry run (spec, dry run rule 2). */
export function validateDryRun(values: string[]): { dryRun: boolean; errs: FieldError[] } {
  const vals = values.filter((v) => v !== '');
  if (vals.length === 0) return { dryRun: false, errs: [] };
  if (vals.some((v) => v !== 'All')) {
    return { dryRun: false, errs: [fieldErr.notSupported('dryRun', new GoRepr(`[]string{${vals.map((v) => JSON.stringify(v)).join(', ')}}`), ['All'])] };
  }
  return { dryRun: true, errs: [] };
}

/** Go's query decoding of a *bool: "0" and "false" (any case) are false, anything else true. */
export function queryBool(v: string): boolean {
  return !(v === '0' || v.toLowerCase() === 'false');
}

export function writeOptions(
  scope: Scope,
  optionsKind: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions',
  patchType?: string,
): WriteOptions {
  const q = scope.query;
  const errs: FieldError[] = [];
  const fm = q.get('fieldManager') ?? '';
  const forceRaw = q.get('force');
  if (optionsKind === 'PatchOptions') {
    if (patchType !== 'apply-patch') {
      if (forceRaw !== null) errs.push(fieldErr.forbidden('force', 'may not be specified for non-apply patch'));
    } else if (fm === '') {
      errs.push(fieldErr.required('fieldManager', 'is required for apply patch'));
    }
  }
  errs.push(...validateFieldManager(fm));
  const dry = validateDryRun(q.getAll('dryRun'));
  errs.push(...dry.errs);
  const fvRaw = q.get('fieldValidation') ?? '';
  let fieldValidation: FieldValidation = 'Warn';
  if (fvRaw === 'Ignore' || fvRaw === 'Warn' || fvRaw === 'Strict') fieldValidation = fvRaw;
  else if (fvRaw !== '') errs.push(fieldErr.notSupported('fieldValidation', fvRaw, ['', 'Ignore', 'Strict', 'Warn']));
  if (errs.length) throw invalid({ group: 'meta.k8s.io', kind: optionsKind }, '', errs);
  return {
    dryRun: dry.dryRun,
    fieldManager: fm !== '' ? fm : prefixFromUserAgent(scope.userAgent),
    fieldManagerGiven: fm !== '',
    fieldValidation,
    force: forceRaw !== null && queryBool(forceRaw),
  };
}
