// Per-request state shared by the handlers, and parsing of the options every verb shares.

import type { Env } from '../env.js';
import { badRequest, unsupportedMediaType } from '../errors.js';
import { isPlainObject, type KubeObject } from '../object.js';
import type { ResourceRegistry } from '../registry/resources.js';
import type { Store } from '../registry/store.js';
import type { ResourceDefinition } from '../registry/types.js';
import { decodeBody } from '../codec/decode.js';
import { MAX_REQUEST_BODY_BYTES, heldBodyText, readLimitedBody } from '../codec/read-body.js';
import { decodeProtobufObject } from '../codec/protobuf/decode.js';
import { hasProtobufForm } from '../codec/protobuf/encode.js';
import { groupVersion } from '../registry/types.js';
import { goQuote } from '../codec/go-format.js';
import type { ResourceRequestInfo } from './request-info.js';
import { bodyMediaType, supportedTypes, PROTOBUF, PROTOBUF_SVC, type BodyFormat, type Negotiated } from './negotiation/media.js';
import { decodeCbor, CborDecodeError } from '../codec/cbor.js';
import { summarizeData } from '../codec/decode.js';
import type { WatchHub } from '../watch/hub.js';
import type { RequestAuthorization } from '../auth/request-checks.js';
import type { EngineRequest } from './wire.js';

export interface EngineCore {
  env: Env;
  store: Store;
  registry: ResourceRegistry;
  watch: WatchHub;
  featureGates: Record<string, boolean>;
  host: 'node' | 'service-worker' | 'page' | 'test';
  historyWindowMs: number;
  /** True for a request built in-process by the engine's controller manager (a trusted identity). */
  isInternal?(request: EngineRequest): boolean;
  /** Called after writes to customresourcedefinitions so serving can follow. */
  onCustomResourceDefinitionChange?(): void;
}

export interface Scope {
  core: EngineCore;
  request: EngineRequest;
  query: URLSearchParams;
  info: ResourceRequestInfo;
  /** The definition of the requested group/version/resource. */
  def: ResourceDefinition;
  pretty: boolean;
  negotiated: Negotiated;
  userAgent: string;
  /** Who is acting, and the handlers' extra authorization checks (create-on-update, unsafe delete). */
  auth?: RequestAuthorization;
}

const PROTOBUF_SERVED = new WeakMap<ResourceDefinition, boolean>();

/** Whether the endpoint's objects have a protobuf form: built-in kinds do, custom resources do not (once per definition). */
export function servesProtobuf(def: ResourceDefinition): boolean {
  let v = PROTOBUF_SERVED.get(def);
  if (v === undefined) PROTOBUF_SERVED.set(def, (v = !(def as { custom?: boolean }).custom && hasProtobufForm(groupVersion(def), def.kind)));
  return v;
}

/** The real server's limit on request bodies (3 MiB). */
export const MAX_BODY_BYTES = MAX_REQUEST_BODY_BYTES;

/** The request body, read as a stream within the body budget (413 past it). */
export function readBody(scope: Scope): Promise<Uint8Array> {
  return readLimitedBody(scope.request);
}

export interface DecodedBody {
  value: unknown;
  duplicates: string[];
  format: BodyFormat;
  /**
   * The body decoded again into a fresh value, from what was read: for an update that runs again after a
   * conflict (the store writes into the first value).
   */
  again(): unknown;
}

/**
 * Decodes a create/update body per Content-Type (NegotiateInputSerializer): JSON, YAML, protobuf (built-in
 * kinds; kubectl's typed clients send it) and CBOR when CBORServingAndStorage is on; any other type is a
 * 415 listing the codec's serializers. `target` is the kind the endpoint decodes into (the scale
 * subresource's is autoscaling/v1 Scale).
 */
export async function decodeObjectBody(scope: Scope, target?: { kind: string; apiVersion: string }, preread?: Uint8Array): Promise<DecodedBody> {
  const body = (): Promise<Uint8Array> => (preread ? Promise.resolve(preread) : readBody(scope));
  const ct = bodyMediaType(scope.request.headers.get('Content-Type'));
  const cbor = !!scope.core.featureGates['CBORServingAndStorage'];
  const kind = target?.kind ?? scope.def.kind;
  const apiVersion = target?.apiVersion ?? groupVersion(scope.def);
  if ((ct.full === PROTOBUF || ct.full === PROTOBUF_SVC) && !(scope.def as { custom?: boolean }).custom) {
    const bytes = await body();
    const decode = () => decodeProtobufObject(bytes, { expectKind: kind, expectApiVersion: apiVersion }).object;
    return { value: decode(), duplicates: [], format: 'json', again: decode };
  }
  if (!ct.format || (ct.format === 'cbor' && !cbor)) throw unsupportedMediaType(supportedTypes({ cbor }).join(', '));
  if (ct.format === 'cbor') {
    const bytes = await body();
    const decode = () => decodeCborBody(bytes, kind);
    return { value: decode(), duplicates: [], format: 'json', again: decode };
  }
  // a body the host holds as text is decoded from it (the same text its bytes would decode to)
  const held = preread ? undefined : heldBodyText(scope.request);
  // a body that cannot be decoded is a 400 naming the type the endpoint expects (transformDecodeError)
  const source = held ?? (await body());
  const format = ct.format;
  const { value, duplicates } = decodeBody(source, format, { expectKind: kind });
  return { value, duplicates, format, again: () => decodeBody(source, format, { expectKind: kind }).value };
}

/** A CBOR body: one data item, worded as transformDecodeError words decoding errors. */
export function decodeCborBody(bytes: Uint8Array, kind: string): unknown {
  try {
    return decodeCbor(bytes);
  } catch (e) {
    if (e instanceof CborDecodeError) {
      throw badRequest(`the object provided is unrecognized (must be of type ${kind}): couldn't get version/kind; cbor: ${e.message.replace(/^cbor: /, '')} (${summarizeData(bytes)})`);
    }
    throw e;
  }
}

/**
 * Checks the decoded body is an object of the endpoint's kind: apiVersion/kind default from the endpoint
 * when absent; a different group/version or kind is a 400 as the real decoder reports it.
 */
export function expectKind(scope: Scope, body: unknown, kind = scope.def.kind, gv?: string): KubeObject {
  const def = scope.def;
  const groupVersion = gv ?? (def.group ? `${def.group}/${def.version}` : def.version);
  // a `null` body (or an empty YAML one) decodes into an empty object of the expected kind, as Go's
  // json.Unmarshal of null leaves its target untouched
  if (body === null) body = {};
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

const INT64_MAX = 2n ** 63n - 1n;

/** An *int64 query option as the real query decoder reads it (strconv.ParseInt(s, 10, 64); 400 on failure). */
export function parseInt64Param(raw: string): bigint {
  if (!/^[+-]?\d+$/.test(raw)) throw badRequest(`strconv.ParseInt: parsing ${goQuote(raw)}: invalid syntax`);
  const v = BigInt(raw);
  if (v > INT64_MAX || v < -INT64_MAX - 1n) throw badRequest(`strconv.ParseInt: parsing ${goQuote(raw)}: value out of range`);
  return v;
}

/** The longest delay a JS timer holds (2^31 - 1 ms, about 24.8 days); longer ones would fire at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A watch's `timeoutSeconds` in milliseconds, as handlers/get.go uses it: `time.Duration(s) * time.Second`
 * (int64 nanoseconds, wrapping on overflow like Go); zero or absent is `defaultMs` (the real server's
 * minRequestTimeout with jitter); negative is -1 (Go's timer fires at once, the watch ends). Delays
 * beyond MAX_TIMER_MS are held at it. Checked on every list-like request (`?timeoutSeconds=x` is a 400).
 */
export function watchTimeoutMs(query: URLSearchParams, defaultMs: number): number {
  const raw = query.get('timeoutSeconds');
  if (raw === null) return defaultMs;
  const ns = BigInt.asIntN(64, parseInt64Param(raw) * 1_000_000_000n);
  if (ns === 0n) return defaultMs;
  if (ns < 0n) return -1;
  return Math.max(1, Math.min(MAX_TIMER_MS, Number(ns / 1_000_000n)));
}
