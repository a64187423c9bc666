// DELETE of one object, and deletecollection [K8S handlers/delete.go].

import { GoRepr, StatusError, badRequest, fieldErr, invalid, type FieldError } from '../../errors.js';
import { isPlainObject } from '../../object.js';
import { decodeBody } from '../../codec/decode.js';
import { admissionRequest, queryBool, validateDryRun } from '../pipeline.js';
import { bodyMediaType, PROTOBUF, PROTOBUF_SVC } from '../negotiation/media.js';
import { decodeProtobufObject } from '../../codec/protobuf/decode.js';
import { respond } from '../responders.js';
import { readBody, type Scope } from '../scope.js';
import { plain } from './create.js';
import { parseListQuery, readList, readListAsync } from './list.js';
import type { Preconditions } from '../../registry/store.js';
import type { EngineResponse } from '../wire.js';

export interface DeleteOptionsParsed {
  dryRun: boolean;
  gracePeriodSeconds?: number;
  propagationPolicy?: string;
  orphanDependents?: boolean;
  preconditions?: Preconditions;
  /** ignoreStoreReadErrorWithClusterBreakingPotential (honoured only with AllowUnsafeMalformedObjectDeletion). */
  ignoreStoreReadError?: boolean;
}

const POLICIES = ['Foreground', 'Background', 'Orphan', 'nil'];

/**
 * DeleteOptions from the body (JSON/YAML, any group version) or, when there is no body, from the query
 * (never both), validated as ValidateDeleteOptions does: one 422 with every error.
 */
export async function parseDeleteOptions(scope: Scope): Promise<DeleteOptionsParsed> {
  const q = scope.query;
  const bytes = await readBody(scope);
  let src: Record<string, unknown>;
  if (bytes.byteLength > 0) {
    const ct = bodyMediaType(scope.request.headers.get('Content-Type'));
    // typed clients (kubectl drain) send DeleteOptions in protobuf
    const value = isProtobufType(ct.full) ? protobufDeleteOptions(bytes) : decodeBody(bytes, ct.format === 'yaml' ? 'yaml' : 'json').value;
    if (value !== null && !isPlainObject(value)) throw badRequest('DeleteOptions in version "v1" cannot be handled as a DeleteOptions: body must be an object');
    src = (value as Record<string, unknown>) ?? {};
    if (src.kind !== undefined && src.kind !== 'DeleteOptions') {
      throw badRequest(`${String(src.kind)} in version "v1" cannot be handled as a DeleteOptions: no kind "${String(src.kind)}" is registered for version "v1"`);
    }
    if (src.gracePeriodSeconds !== undefined && src.gracePeriodSeconds !== null && !Number.isInteger(src.gracePeriodSeconds)) {
      throw badRequest(`DeleteOptions in version "v1" cannot be handled as a DeleteOptions: json: cannot unmarshal ${typeof src.gracePeriodSeconds === 'number' ? 'number' : goKind(src.gracePeriodSeconds)} into Go struct field DeleteOptions.gracePeriodSeconds of type int64`);
    }
    for (const f of ['orphanDependents', 'ignoreStoreReadErrorWithClusterBreakingPotential']) {
      const v = src[f];
      if (v !== undefined && v !== null && typeof v !== 'boolean') {
        throw badRequest(`DeleteOptions in version "v1" cannot be handled as a DeleteOptions: json: cannot unmarshal ${goKind(v)} into Go struct field DeleteOptions.${f} of type bool`);
      }
    }
    if (src.propagationPolicy !== undefined && src.propagationPolicy !== null && typeof src.propagationPolicy !== 'string') {
      throw badRequest(`DeleteOptions in version "v1" cannot be handled as a DeleteOptions: json: cannot unmarshal ${goKind(src.propagationPolicy)} into Go struct field DeleteOptions.propagationPolicy of type v1.DeletionPropagation`);
    }
  } else {
    // ParameterCodec: only these query parameters exist
    src = {};
    const dr = q.getAll('dryRun');
    if (dr.length) src.dryRun = dr;
    const g = q.get('gracePeriodSeconds');
    if (g !== null) {
      if (!/^[+-]?\d+$/.test(g)) throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(g)}: invalid syntax`);
      src.gracePeriodSeconds = Number(g);
    }
    const p = q.get('propagationPolicy');
    if (p !== null) src.propagationPolicy = p;
    const o = q.get('orphanDependents');
    if (o !== null) src.orphanDependents = queryBool(o);
    const ig = q.get('ignoreStoreReadErrorWithClusterBreakingPotential');
    if (ig !== null) src.ignoreStoreReadErrorWithClusterBreakingPotential = queryBool(ig);
  }
  const errs: FieldError[] = [];
  const p = typeof src.propagationPolicy === 'string' ? src.propagationPolicy : undefined;
  const orphanDependents = typeof src.orphanDependents === 'boolean' ? src.orphanDependents : undefined;
  if (orphanDependents !== undefined && p !== undefined) {
    errs.push(fieldErr.invalid('propagationPolicy', p, 'orphanDependents and deletionPropagation cannot be both set'));
  }
  if (p !== undefined && p !== 'Foreground' && p !== 'Background' && p !== 'Orphan') {
    errs.push(fieldErr.notSupported('propagationPolicy', p, POLICIES));
  }
  const dry = validateDryRun(Array.isArray(src.dryRun) ? src.dryRun.map(String) : []);
  errs.push(...dry.errs);
  // handlers/delete.go: with AllowUnsafeMalformedObjectDeletion off the option is dropped (ignored)
  const ignoreStoreReadError = src.ignoreStoreReadErrorWithClusterBreakingPotential === true && scopeGate(scope);
  if (ignoreStoreReadError) {
    // ValidateIgnoreStoreReadError: the forced delete takes no other option
    const f = 'ignoreStoreReadErrorWithClusterBreakingPotential';
    if (Array.isArray(src.dryRun) && src.dryRun.length > 0) errs.push(fieldErr.invalid(f, true, 'cannot be set together with .dryRun'));
    if (p !== undefined) errs.push(fieldErr.invalid(f, true, 'cannot be set together with .propagationPolicy'));
    if (orphanDependents !== undefined) errs.push(fieldErr.invalid(f, true, 'cannot be set together with .orphanDependents'));
    if (typeof src.gracePeriodSeconds === 'number') errs.push(fieldErr.invalid(f, true, 'cannot be set together with .gracePeriodSeconds'));
    if (isPlainObject(src.preconditions)) errs.push(fieldErr.invalid(f, true, 'cannot be set together with .preconditions'));
  }
  if (errs.length) throw invalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', errs);
  const pre = src.preconditions;
  let preconditions: Preconditions | undefined;
  if (isPlainObject(pre)) {
    preconditions = {};
    if (typeof pre.uid === 'string') preconditions.uid = pre.uid;
    if (typeof pre.resourceVersion === 'string') preconditions.resourceVersion = pre.resourceVersion;
  }
  let gracePeriodSeconds = typeof src.gracePeriodSeconds === 'number' ? src.gracePeriodSeconds : undefined;
  // rest.BeforeDelete: negative values are treated as 1s
  if (gracePeriodSeconds !== undefined && gracePeriodSeconds < 0) gracePeriodSeconds = 1;
  return { dryRun: dry.dryRun, gracePeriodSeconds, propagationPolicy: p, orphanDependents, preconditions, ...(ignoreStoreReadError ? { ignoreStoreReadError } : {}) };
}

function isProtobufType(full: string): boolean {
  return full === PROTOBUF || full === PROTOBUF_SVC;
}

/**
 * A protobuf DeleteOptions body (any group version's, or meta.k8s.io/v1's). The delete handler passes a
 * decoding error on as it is: a 500 with the decoder's text and no reason (ErrorToAPIStatus of a plain error).
 */
function protobufDeleteOptions(bytes: Uint8Array): Record<string, unknown> {
  let decoded;
  try {
    decoded = decodeProtobufObject(bytes, { expectApiVersion: 'meta.k8s.io/v1', defaultKind: 'DeleteOptions' });
  } catch (e) {
    if (e instanceof StatusError) {
      throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: e.status.message, code: 500 });
    }
    throw e;
  }
  if (decoded.kind !== 'DeleteOptions') {
    throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'decoded object cannot be converted to DeleteOptions', code: 500 });
  }
  return decoded.object;
}

function goKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  if (typeof v === 'boolean') return 'bool';
  return typeof v;
}

function scopeGate(scope: Scope): boolean {
  return !!scope.core.featureGates['AllowUnsafeMalformedObjectDeletion'];
}

export async function handleDelete(scope: Scope): Promise<EngineResponse> {
  const { def, core, info } = scope;
  const opts = await parseDeleteOptions(scope);
  // an unsafe delete also needs the `unsafe-delete-ignore-read-errors` verb (authorization comes first)
  if (opts.ignoreStoreReadError) {
    scope.auth?.unsafeDelete();
    // the corrupt-object deleter (registry/store.ts unsafeDelete) returns no object: the handler answers a
    // Success Status naming the kind
    await core.store.unsafeDelete(def, info.namespace, info.name);
    return respond(200, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: info.name, kind: def.kind }, code: 200 }, {
      negotiated: plain(scope),
      pretty: scope.pretty,
    });
  }
  const out = await core.store.delete(def, info.namespace, info.name, { ...opts, admission: admissionRequest(scope) });
  const warnings = [...(def.strategy.warningsOnDelete?.(opts) ?? []), ...(out.warnings ?? [])];
  // handlers/delete.go: 200, or 202 when the object is not gone yet and orphanDependents=false was asked
  const code = !out.deleted && opts.orphanDependents === false ? 202 : 200;
  // marked (finalizers, grace period, namespaces): the object as marked; removed (or a graceful deletion
  // already pending): the object for stores that return it, else finalizeDelete's Status (no code in it;
  // kind is the resource)
  if (!out.finalized || RETURNS_OBJECT.has(`${def.group}/${def.plural}`)) {
    return respond(code, out.object, { negotiated: plain(scope), pretty: scope.pretty, warnings });
  }
  const details: Record<string, unknown> = { name: out.object.metadata?.name ?? info.name };
  if (def.group) details.group = def.group;
  details.kind = def.plural;
  if (out.object.metadata?.uid) details.uid = out.object.metadata.uid;
  return respond(code, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details }, {
    negotiated: plain(scope),
    pretty: scope.pretty,
    warnings,
  });
}

/** Stores whose delete returns the deleted object (ReturnDeletedObject in the real registries). */
const RETURNS_OBJECT = new Set(['/pods', '/namespaces', '/services', 'apiextensions.k8s.io/customresourcedefinitions']);

export async function handleDeleteCollection(scope: Scope): Promise<EngineResponse> {
  const { def, core, info } = scope;
  // Every option is checked and the whole selection read before the first delete. Like the real store
  // (DeleteCollection lists with the caller's options, then follows `continue` page by page), a malformed
  // or expired continue token or resourceVersion fails that first list, so nothing is deleted.
  const opts = await parseDeleteOptions(scope);
  if (opts.ignoreStoreReadError) {
    throw invalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', [
      fieldErr.invalid('ignoreStoreReadErrorWithClusterBreakingPotential', true, 'is not allowed with DELETECOLLECTION, try again after removing the option'),
    ]);
  }
  const lq = parseListQuery(scope);
  let page = await readListAsync(scope, lq);
  const items = [...page.items];
  while (page.meta.continue) {
    page = readList(scope, { ...lq, continueToken: page.meta.continue, resourceVersion: '', resourceVersionMatch: '' });
    items.push(...page.items);
  }
  const deleted = [];
  for (const o of items) {
    try {
      const out = await core.store.delete(def, info.namespace || o.metadata?.namespace || '', o.metadata!.name!, { ...opts, admission: admissionRequest(scope) });
      deleted.push(out.object);
    } catch (e) {
      // an object already gone is skipped; any other error (e.g. refused by admission) fails the request, as
      // the real store's DeleteCollection answers its first error
      if (e instanceof StatusError && e.code === 404) continue;
      throw e;
    }
  }
  const custom = (def as { custom?: boolean }).custom === true;
  return respond(200, {
    kind: def.listKind,
    apiVersion: def.group ? `${def.group}/${def.version}` : def.version,
    metadata: { resourceVersion: String(core.store.state.revision) },
    items: deleted.map((o) => {
      if (!custom) {
        delete o.apiVersion;
        delete o.kind;
      }
      return o;
    }),
  }, { negotiated: plain(scope), pretty: scope.pretty });
}

export { GoRepr };
