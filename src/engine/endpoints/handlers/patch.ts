// PATCH: JSON Patch, JSON merge patch, strategic merge patch and server-side apply [K8S handlers/patch.go].
//
// The real order: Content-Type (415) -> PatchOptions (one 422 with every error) -> body -> the store's
// read-modify-write: NotFound unless apply -> the patch mechanism on the current object -> decoding of the
// result into the kind (type errors as a 422 on `patch`, strict-decoding errors per fieldValidation) ->
// namespace and name checks -> managedFields -> defaulting, validation, storage.

import { rfc3339 } from '../../env.js';
import { StatusError, badRequest, conflict } from '../../errors.js';
import { decodeCbor, CborDecodeError } from '../../codec/cbor.js';
import { isPlainObject, type KubeObject } from '../../object.js';
import { decodeBody, type DecodeResult } from '../../codec/decode.js';
import { goJsonMarshal, goPrintV } from '../../codec/go-format.js';
import { applyJsonPatch, decodeJsonPatchBody } from '../../patch/json-patch.js';
import { applyMergePatch, decodeMergePatchBody } from '../../patch/merge-patch.js';
import { applyStrategicMergePatch, decodeStrategicPatchBody } from '../../patch/strategic.js';
import { applyPatch as serverSideApply, objectTypeFor } from '../../merge/index.js';
import { fieldValidationResult, patchInvalid } from '../../schema/prune.js';
import { groupVersion, type ResourceDefinition } from '../../registry/types.js';
import { bodyMediaType } from '../negotiation/media.js';
import { readBody, type FieldValidation, type Scope } from '../scope.js';
import { admissionRequest, fieldValidate, recordUpdate, resetFieldsFor, typeCheck, writeOptions } from '../pipeline.js';
import { respondWritten } from './create.js';
import type { EngineResponse } from '../wire.js';

export const PATCH_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
];

function isCustom(def: ResourceDefinition): boolean {
  return (def as { custom?: boolean }).custom === true;
}

/** The media types a PATCH of this resource accepts (custom resources: no strategic merge patch). */
export function patchTypesFor(def: ResourceDefinition, cbor: boolean): string[] {
  const types = isCustom(def) ? PATCH_TYPES.filter((t) => !t.startsWith('application/strategic')) : [...PATCH_TYPES];
  if (cbor) types.push('application/apply-patch+cbor');
  return types;
}

type Decoded =
  | { kind: 'json-patch'; patch: unknown[]; patchErrors: string[] }
  | { kind: 'merge-patch' | 'strategic-merge-patch' | 'apply-patch'; result: DecodeResult };

/** An apply configuration in CBOR (applyPatcher's CBOR path: one data item into a map). */
function decodeCborApply(bytes: Uint8Array): Decoded {
  let value: unknown;
  try {
    value = decodeCbor(bytes);
  } catch (e) {
    if (e instanceof CborDecodeError) throw badRequest(`error decoding CBOR: ${e.message}`);
    throw e;
  }
  if (value !== null && !isPlainObject(value)) {
    throw badRequest(`error decoding CBOR: cbor: cannot unmarshal ${Array.isArray(value) ? 'array' : typeof value === 'string' ? 'UTF-8 text string' : typeof value === 'number' ? 'positive integer' : 'primitives'} into Go value of type map[string]interface {}`);
  }
  return { kind: 'apply-patch', result: { value, duplicates: [], duplicateMessages: [], mediaType: 'json', nonIntegerNumbers: [] } };
}

function decodePatch(kind: string, bytes: Uint8Array, level: FieldValidation): Decoded {
  switch (kind) {
    case 'json-patch': {
      const d = decodeJsonPatchBody(bytes, level);
      return { kind, patch: d.patch, patchErrors: d.patchErrors };
    }
    case 'merge-patch':
      return { kind, result: decodeMergePatchBody(bytes, level) };
    case 'strategic-merge-patch':
      return { kind, result: decodeStrategicPatchBody(bytes, level) };
    default: {
      // applyPatcher: yaml.Unmarshal into a map (JSON is YAML). A JSON object without duplicated keys reads
      // the same through the (much faster) JSON decoder; anything else takes the YAML path and its messages.
      let result: DecodeResult | undefined;
      if (firstByte(bytes) === 0x7b) {
        try {
          const j = decodeBody(bytes, 'json');
          if (j.duplicates.length === 0 && j.nonIntegerNumbers.length === 0) result = j;
        } catch {
          result = undefined;
        }
      }
      try {
        result ??= decodeBody(bytes, 'yaml');
      } catch (e) {
        if (e instanceof StatusError) throw badRequest(`error decoding YAML: ${e.status.message}`);
        throw e;
      }
      if (result.value !== null && result.value !== undefined && !isPlainObject(result.value)) {
        throw badRequest(`error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${Array.isArray(result.value) ? 'array' : typeof result.value === 'number' ? 'number' : typeof result.value === 'boolean' ? 'bool' : 'string'} into Go value of type map[string]interface {}`);
      }
      return { kind: 'apply-patch', result };
    }
  }
}

function firstByte(bytes: Uint8Array): number | undefined {
  for (const b of bytes) if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) return b;
  return undefined;
}

export async function handlePatch(scope: Scope): Promise<EngineResponse> {
  const { def, core, info } = scope;
  const ct = bodyMediaType(scope.request.headers.get('Content-Type'));
  const cbor = !!core.featureGates['CBORServingAndStorage'];
  const allowed = patchTypesFor(def, cbor);
  if (!ct.patch || !allowed.includes(ct.full)) {
    throw new StatusError({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: `the body of the request was in an unknown format - accepted media types include: ${allowed.join(', ')}`,
      reason: 'UnsupportedMediaType', code: 415,
    });
  }
  const opts = writeOptions(scope, 'PatchOptions', ct.patch);
  const bytes = await readBody(scope);
  const decoded = ct.apply === 'cbor' ? decodeCborApply(bytes) : decodePatch(ct.patch, bytes, opts.fieldValidation);
  const isApply = decoded.kind === 'apply-patch';
  const subresource = info.subresource;
  const warnings: string[] = [];

  const out = await core.store.update(
    def,
    info.namespace,
    info.name,
    subresource,
    (current) => {
      let obj: KubeObject;
      if (decoded.kind === 'apply-patch') {
        obj = apply(scope, current, decoded.result, opts.fieldManager, opts.force, opts.fieldValidation, warnings);
      } else {
        obj = patchCurrent(scope, current!, decoded, opts.fieldValidation, warnings);
      }
      checkNamespaceAndName(scope, obj);
      // an apply that creates also needs the `create` verb
      if (!current) scope.auth?.createOnUpdate();
      return obj;
    },
    {
      dryRun: opts.dryRun,
      admission: admissionRequest(scope),
      createOnMissing: isApply,
      finalize: isApply ? undefined : recordUpdate(scope, opts.fieldManager, subresource),
    },
  );
  return respondWritten(scope, out.created ? 201 : 200, out, warnings);
}

/** jsonPatcher / smpPatcher: the patch on the current object, then its decoding into the kind. */
function patchCurrent(scope: Scope, current: KubeObject, decoded: Exclude<Decoded, { kind: 'apply-patch' }>, level: FieldValidation, warnings: string[]): KubeObject {
  const { def } = scope;
  let next: unknown;
  if (decoded.kind === 'json-patch') next = applyJsonPatch(current, decoded.patch);
  else if (decoded.kind === 'merge-patch') next = applyMergePatch(current, decoded.result.value, def.copyOnWrite);
  else next = applyStrategicMergePatch(current, decoded.result.value, def.schema, def.definitions, def.copyOnWrite);
  const smp = decoded.kind === 'strategic-merge-patch';
  const shown = () => (smp ? goPrintV(decoded.kind === 'strategic-merge-patch' ? decoded.result.value ?? {} : {}) : goJsonMarshal(next));
  if (!isPlainObject(next)) {
    throw patchInvalid(shown(), `couldn't get version/kind; json parse error: json: cannot unmarshal ${Array.isArray(next) ? 'array' : typeof next} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`);
  }
  const obj = next as KubeObject;
  obj.apiVersion = groupVersion(def);
  obj.kind = def.kind;
  // a copy-on-write patch shares the parts it did not reach with the stored state, which passed these
  // checks when it was stored: they are not walked again
  const shared = decoded.kind !== 'json-patch' && def.copyOnWrite ? current : undefined;
  try {
    typeCheck(def, obj, shared);
  } catch (e) {
    // a decoding error of the patched object trumps strict-decoding errors: 422 on `patch`
    if (e instanceof StatusError && e.status.code === 400) {
      const prefix = `${def.kind} in version "${def.version}" cannot be handled as a ${def.kind}: `;
      const msg = e.status.message ?? '';
      const inner = msg.startsWith(prefix) ? msg.slice(prefix.length) : msg;
      throw patchInvalid(shown(), smp ? unstructuredConverterError(inner) : inner);
    }
    throw e;
  }
  const admitted = fieldValidate(def, obj, decoded.kind === 'json-patch' ? [] : decoded.result, level, {
    operation: 'patch',
    patchType: decoded.kind === 'json-patch' ? 'json' : decoded.kind === 'merge-patch' ? 'merge' : 'strategic',
    patchDocument: decoded.kind === 'strategic-merge-patch' ? decoded.result.value ?? {} : undefined,
    patchErrors: decoded.kind === 'json-patch' ? decoded.patchErrors : undefined,
    old: shared,
  });
  warnings.push(...admitted.warnings);
  return admitted.object;
}

const GO_SIMPLE = new Set(['string', 'bool', 'int', 'int32', 'int64', 'float32', 'float64', 'uint8', 'uint16', 'uint32', 'uint64']);

/**
 * A strategic merge patch result is converted from a map (DefaultUnstructuredConverter), not decoded from
 * JSON: its type errors read `cannot convert int64 to string`, `cannot restore slice from map`. Translates
 * the JSON decoder's message where the shapes are known; other messages are kept.
 */
export function unstructuredConverterError(decoderMessage: string): string {
  const m = /^json: cannot unmarshal (number|string|bool|array|object)( (\S+))? into Go (?:struct field \S+|value) of type (.+)$/.exec(decoderMessage);
  if (!m) return decoderMessage;
  const [, kind, , value, dest] = m;
  const goValue: Record<string, string> = {
    number: value !== undefined && !/^-?\d+$/.test(value) ? 'float64' : 'int64',
    string: 'string', bool: 'bool', array: '[]interface {}', object: 'map[string]interface {}',
  };
  const goKind: Record<string, string> = { ...goValue, array: 'slice', object: 'map' };
  if (GO_SIMPLE.has(dest)) return `cannot convert ${goValue[kind]} to ${dest}`;
  if (dest.startsWith('[]') && dest !== '[]byte') return `cannot restore slice from ${goKind[kind]}`;
  if (dest.startsWith('map[')) return `cannot restore map from ${goKind[kind]}`;
  return decoderMessage;
}

/** applyPatcher: server-side apply of the configuration (creates when the object is missing). */
function apply(
  scope: Scope, current: KubeObject | null, decoded: DecodeResult, manager: string, force: boolean, level: FieldValidation, warnings: string[],
): KubeObject {
  const { def, info } = scope;
  const cfg: KubeObject = isPlainObject(decoded.value) ? (decoded.value as KubeObject) : {};
  const type = objectTypeFor(def.schema, def.definitions, { customResource: isCustom(def) });
  const merged = serverSideApply(type, current, cfg, {
    manager,
    apiVersion: groupVersion(def),
    time: rfc3339(scope.core.env.clock.now()),
    force,
    subresource: info.subresource || undefined,
    resetFields: resetFieldsFor(def, info.subresource),
    share: def.copyOnWrite,
  });
  // strict decoding of the body happens after a successful apply: duplicates only (unknown fields fail
  // the apply itself), in go-yaml's words
  const result = fieldValidationResult([], decoded, level, {
    kind: def.kind, version: def.version, operation: 'patch', patchType: 'apply', customResource: isCustom(def), mediaType: 'yaml',
  });
  warnings.push(...result.warnings);
  if (!current) {
    const uid = merged.metadata?.uid;
    if (uid) {
      throw conflict({ group: def.group, resource: def.plural }, info.name, `uid mismatch: the provided object specified uid ${uid}, and no existing object was found`);
    }
  }
  return merged;
}

/** patcher.applyPatch: EnsureObjectNamespaceMatchesRequestNamespace, then checkName. */
function checkNamespaceAndName(scope: Scope, obj: KubeObject): void {
  const { def, info } = scope;
  const meta = (obj.metadata ??= {});
  if (def.namespaced) {
    if (meta.namespace && meta.namespace !== info.namespace) {
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    meta.namespace = info.namespace;
  } else {
    delete meta.namespace;
  }
  const name = meta.name ?? '';
  if (name === '') throw badRequest(`the name of the object (${info.name} based on URL) was undeterminable: name must be provided`);
  if (name !== info.name) throw badRequest(`the name of the object (${name}) does not match the name on the URL (${info.name})`);
}
