// Per-request state shared by the handlers, and parsing of the options every verb shares.

import type { Env } from '../env.js';
import { GoRepr, StatusError, badRequest, fieldErr, invalid, requestEntityTooLarge, unsupportedMediaType, type FieldError } from '../errors.js';
import { isPlainObject, type KubeObject } from '../object.js';
import type { ResourceRegistry } from '../registry/resources.js';
import type { Store } from '../registry/store.js';
import type { ResourceDefinition } from '../registry/types.js';
import { decodeBody } from '../codec/decode.js';
import { decodeProtobufObject } from '../codec/protobuf/decode.js';
import type { ResourceRequestInfo } from './request-info.js';
import { bodyMediaType, type BodyFormat, type Negotiated } from './negotiation/media.js';
import type { WatchHub } from '../watch/hub.js';

export interface EngineCore {
  env: Env;
  store: Store;
  registry: ResourceRegistry;
  watch: WatchHub;
  featureGates: Record<string, boolean>;
  host: 'node' | 'service-worker' | 'page' | 'test';
  historyWindowMs: number;
  /** Called after a namespace was marked for deletion: the namespace controller's work. */
  namespaceDeleted(name: string): void;
  /** Called after writes to customresourcedefinitions so serving can follow. */
  onCustomResourceDefinitionChange?(): void;
}

export interface Scope {
  core: EngineCore;
  request: Request;
  url: URL;
  query: URLSearchParams;
  info: ResourceRequestInfo;
  /** The definition of the requested group/version/resource. */
  def: ResourceDefinition;
  pretty: boolean;
  negotiated: Negotiated;
  userAgent: string;
}

/** The real server's limit on request bodies (3 MiB). */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;

export async function readBody(scope: Scope): Promise<Uint8Array> {
  const buf = new Uint8Array(await scope.request.arrayBuffer());
  if (buf.byteLength > MAX_BODY_BYTES) throw requestEntityTooLarge(`limit is ${MAX_BODY_BYTES}`);
  return buf;
}

export interface DecodedBody {
  value: unknown;
  duplicates: string[];
  format: BodyFormat;
}

/** Decodes a create/update body per Content-Type: JSON, YAML (and CBOR when enabled). */
export async function decodeObjectBody(scope: Scope): Promise<DecodedBody> {
  const ct = bodyMediaType(scope.request.headers.get('Content-Type'));
  const cbor = !!scope.core.featureGates['CBORServingAndStorage'];
  if (ct.full === 'application/vnd.kubernetes.protobuf' && !(scope.def as { custom?: boolean }).custom) {
    // kubectl's typed clients send protobuf; the engine works in JSON (answers stay JSON)
    const decoded = decodeProtobufObject(await readBody(scope), { expectKind: scope.def.kind, expectApiVersion: scope.def.group ? `${scope.def.group}/${scope.def.version}` : scope.def.version });
    return { value: decoded.object, duplicates: [], format: 'json' };
  }
  if (!ct.format || (ct.format === 'cbor' && !cbor)) {
    throw unsupportedMediaType(cbor ? 'application/json, application/yaml, application/cbor' : 'application/json, application/yaml, application/vnd.kubernetes.protobuf');
  }
  const bytes = await readBody(scope);
  if (ct.format === 'cbor') {
    throw unsupportedMediaType('application/json, application/yaml');
  }
  const { value, duplicates } = decodeBody(bytes, ct.format);
  return { value, duplicates, format: ct.format };
}

/**
 * Checks the decoded body is an object of the endpoint's kind: apiVersion/kind default from the endpoint
 * when absent; a different group/version or kind is a 400 as the real decoder reports it.
 */
export function expectKind(scope: Scope, body: unknown, kind = scope.def.kind, gv?: string): KubeObject {
  const def = scope.def;
  const groupVersion = gv ?? (def.group ? `${def.group}/${def.version}` : def.version);
  if (!isPlainObject(body)) {
    throw badRequest(`the object provided is unrecognized (must be of type ${kind}): couldn't get version/kind; json parse error: json: cannot unmarshal ${goType(body)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`);
  }
  const obj = body as KubeObject;
  if (obj.apiVersion !== undefined && typeof obj.apiVersion !== 'string') {
    throw badRequest(`couldn't get version/kind; json parse error: json: cannot unmarshal ${goType(obj.apiVersion)} into Go struct field .apiVersion of type string`);
  }
  if (obj.kind !== undefined && typeof obj.kind !== 'string') {
    throw badRequest(`couldn't get version/kind; json parse error: json: cannot unmarshal ${goType(obj.kind)} into Go struct field .kind of type string`);
  }
  const bodyGV = obj.apiVersion ? canonicalGV(obj.apiVersion) : '';
  if (obj.kind && obj.kind !== kind) {
    throw badRequest(`${obj.kind} in version "${versionOf(bodyGV || groupVersion)}" cannot be handled as a ${kind}: no kind "${obj.kind}" is registered for version "${bodyGV || groupVersion}" in scheme "pkg/api/legacyscheme/scheme.go:30"`);
  }
  if (bodyGV && bodyGV !== groupVersion && !sameGroupOtherVersion(bodyGV, groupVersion)) {
    throw badRequest(`the API version in the data (${obj.apiVersion}) does not match the expected API version (${groupVersion})`);
  }
  if (obj.metadata !== undefined && obj.metadata !== null && !isPlainObject(obj.metadata)) {
    throw badRequest(`${kind} in version "${def.version}" cannot be handled as a ${kind}: json: cannot unmarshal ${goType(obj.metadata)} into Go struct field ${kind}.metadata of type v1.ObjectMeta`);
  }
  if (obj.metadata === null) delete obj.metadata;
  return obj;
}

function sameGroupOtherVersion(a: string, b: string): boolean {
  // different versions of one group are converted (conversion: None for our multi-version kinds)
  const ga = a.includes('/') ? a.slice(0, a.indexOf('/')) : '';
  const gb = b.includes('/') ? b.slice(0, b.indexOf('/')) : '';
  return ga === gb && ga !== '';
}

function versionOf(gv: string): string {
  return gv.includes('/') ? gv.slice(gv.indexOf('/') + 1) : gv;
}

export function canonicalGV(gv: string): string {
  const i = gv.indexOf('/');
  if (i < 0) return gv;
  const g = gv.slice(0, i);
  return `${g.endsWith('.svc.io') ? g.slice(0, -7) + '.k8s.io' : g}${gv.slice(i)}`;
}

export function goType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return typeof v;
}

// ---------------------------------------------------------------------------------------------------
// Options shared by writes (metav1.CreateOptions / UpdateOptions / PatchOptions / DeleteOptions)

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

export interface WriteOptionsParsed {
  dryRun: boolean;
  fieldManager: string;
  fieldManagerGiven: boolean;
  fieldValidation: FieldValidation;
}

function optionsInvalid(kind: string, errs: FieldError[]): StatusError {
  return invalid({ group: 'meta.k8s.io', kind }, '', errs);
}

export function parseDryRun(values: string[], optionsKind: string): boolean {
  // `?dryRun` with no value is not a dry run (spec, dry run rule 2); `All` is; anything else is invalid.
  const vals = values.filter((v) => v !== '');
  if (vals.length === 0) return false;
  if (vals.some((v) => v !== 'All')) {
    throw optionsInvalid(optionsKind, [
      fieldErr.notSupported('dryRun', new GoRepr(`[]string{${vals.map((v) => JSON.stringify(v)).join(', ')}}`), ['All']),
    ]);
  }
  return true;
}

/** Manager name from fieldManager, else the User-Agent up to its first "/" (handlers/patch.go prefixFromUserAgent). */
export function managerFromUserAgent(ua: string): string {
  const i = ua.indexOf('/');
  return (i >= 0 ? ua.slice(0, i) : ua).slice(0, 128);
}

export function parseWriteOptions(scope: Scope, optionsKind: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions'): WriteOptionsParsed {
  const q = scope.query;
  const dryRun = parseDryRun(q.getAll('dryRun'), optionsKind);
  const errs: FieldError[] = [];
  const fm = q.get('fieldManager');
  if (fm !== null && fm.length > 128) errs.push(fieldErr.tooLong('fieldManager', fm, 128));
  else if (fm !== null && /[^\x20-\x7e]/.test(fm)) errs.push(fieldErr.invalid('fieldManager', fm, 'must only contain printable characters'));
  const fvRaw = q.get('fieldValidation');
  let fieldValidation: FieldValidation = 'Warn';
  if (fvRaw !== null && fvRaw !== '') {
    if (fvRaw === 'Ignore' || fvRaw === 'Warn' || fvRaw === 'Strict') fieldValidation = fvRaw;
    else errs.push(fieldErr.notSupported('fieldValidation', fvRaw, ['', 'Ignore', 'Strict', 'Warn']));
  }
  if (errs.length) throw optionsInvalid(optionsKind, errs);
  const fieldManagerGiven = fm !== null && fm !== '';
  return {
    dryRun,
    fieldManager: fieldManagerGiven ? fm! : managerFromUserAgent(scope.userAgent),
    fieldManagerGiven,
    fieldValidation,
  };
}
