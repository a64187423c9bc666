// GET on a collection: list with resourceVersion semantics, chunking and selectors [K8S handlers/get.go
// ListResource, storage/cacher delegator, storage/etcd3 GetList].

import { noteResponseObject } from '../../audit/log.js';
import { StatusError, badRequest, fieldErr, gone, invalid, notAcceptable, type FieldError, type Status } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import {
  matchesFields,
  matchesLabels,
  objectFields,
  parseFieldSelector,
  parseLabelSelector,
  type FieldRequirement,
  type LabelSelector,
} from '../../registry/selectors.js';
import type { ClusterState } from '../../registry/state.js';
import { StorageCompactedError, type StoredObject } from '../../storage/interface.js';
import { groupVersion, type ResourceDefinition } from '../../registry/types.js';
import { conversionKey, convertingMatcher, toRequestVersion } from '../../registry/conversion.js';
import { parseInt64Param, type EngineCore, type Scope } from '../scope.js';
import { parseIncludeObject, toTable } from '../table.js';
import { bodyResponse, encodeCbor } from '../negotiation/encode.js';
import { EngineResponse } from '../wire.js';
import { goJsonText } from '../../codec/go-format.js';

export interface ListQuery {
  resourceVersion: string;
  resourceVersionMatch: string;
  limit: number;
  continueToken: string;
  labelSelector: LabelSelector;
  fieldSelector: FieldRequirement[];
  hasSelectors: boolean;
}

/** How long a read for a future resourceVersion waits before 504 (watch cache blockTimeout). */
export const TOO_LARGE_RV_WAIT_MS = 3000;

/** ParseResourceVersion's error text (storage.APIObjectVersioner): a field error on resourceVersion. */
export function revisionSyntaxError(rv: string): string {
  return `resourceVersion: Invalid value: ${JSON.stringify(rv)}: strconv.ParseUint: parsing ${JSON.stringify(rv)}: ${/^\d+$/.test(rv) ? 'value out of range' : 'invalid syntax'}`;
}

/** Parses a resourceVersion for list/watch; a bad one is the storage layer's 400. */
export function parseRevision(rv: string): number {
  if (rv === '' || rv === '0') return 0;
  if (!/^\d+$/.test(rv) || rv.length > 20) throw badRequest(`invalid resource version: ${revisionSyntaxError(rv)}`);
  return Number(rv);
}

/** Core kinds that register a field-label conversion (pkg/apis/core/v1/conversion.go) and the fields they accept. */
const CONVERTED_KINDS: Record<string, (label: string) => string> = {
  '/pods': (l) => `field label not supported: ${l}`,
  '/nodes': (l) => `field label not supported: ${l}`,
  '/replicationcontrollers': (l) => `field label not supported: ${l}`,
  '/events': (l) => `field label not supported: ${l}`,
  '/namespaces': (l) => `field label not supported: ${l}`,
  '/secrets': (l) => `field label not supported: ${l}`,
  '/services': (l) => `field label not supported: ${l}`,
  'batch/jobs': (l) => `field label ${JSON.stringify(l)} not supported for batchv1.Job`,
};

/**
 * Per-kind fields the real server selects on that a definition may not declare (its strategy's
 * selectableFields wins when it does): Service spec.clusterIP and spec.type (pkg/registry/core/service).
 */
const FALLBACK_FIELDS: Record<string, (o: KubeObject) => Record<string, string>> = {
  '/services': (o) => {
    const spec = (o.spec ?? {}) as Record<string, unknown>;
    return { 'spec.clusterIP': typeof spec.clusterIP === 'string' ? spec.clusterIP : '', 'spec.type': typeof spec.type === 'string' ? spec.type : '' };
  },
};

function kindFields(def: ResourceDefinition): ((o: KubeObject) => Record<string, string>) | undefined {
  const own = def.strategy.selectableFields;
  const fallback = FALLBACK_FIELDS[`${def.group}/${def.plural}`];
  if (!fallback || (def as { custom?: boolean }).custom) return own;
  if (!own) return fallback;
  return (o) => ({ ...fallback(o), ...own(o) });
}

/** Fields a kind's field selector accepts: metadata.name (+ namespace) plus the kind's selectable fields. */
export function supportedFieldLabels(def: ResourceDefinition): Set<string> {
  const supported = new Set(['metadata.name']);
  const converted = CONVERTED_KINDS[`${def.group}/${def.plural}`];
  // the default conversion (no registered function) accepts metadata.namespace even for cluster-scoped kinds
  if (def.namespaced || (!converted && !(def as { custom?: boolean }).custom)) supported.add('metadata.namespace');
  for (const k of Object.keys(kindFields(def)?.({ metadata: {} }) ?? {})) supported.add(k);
  return supported;
}

/** Field-selector fields this kind supports; anything else is the real 400 (ConvertFieldLabel's error). */
export function checkFieldSelector(def: ResourceDefinition, fs: FieldRequirement[]): void {
  const supported = supportedFieldLabels(def);
  for (const r of fs) {
    if (supported.has(r.field)) continue;
    const converted = CONVERTED_KINDS[`${def.group}/${def.plural}`];
    if (converted) throw badRequest(converted(r.field));
    if ((def as { custom?: boolean }).custom) throw badRequest(`field label not supported: ${r.field}`);
    throw badRequest(`${JSON.stringify(r.field)} is not a known field selector: only "metadata.name", "metadata.namespace"`);
  }
}

function boolParam(v: string | null): boolean | undefined {
  if (v === null) return undefined;
  return v === 'true' || v === '1' || v === 't' || v === 'True' || v === 'TRUE';
}

/**
 * Decodes ListOptions from the query (parameter-decoding errors are 400) and validates them
 * (ValidateListOptions: 422 Invalid on ListOptions.meta.k8s.io, every error listed).
 */
export function parseListQuery(scope: Scope, watch = false): ListQuery {
  const q = scope.query;
  const limitRaw = q.get('limit');
  let limit = 0;
  if (limitRaw !== null && limitRaw !== '') {
    if (!/^-?\d+$/.test(limitRaw)) throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(limitRaw)}: invalid syntax`);
    limit = Math.max(0, Number(limitRaw));
  }
  // an *int64 option every list-like request decodes (a watch uses it, see watchTimeoutMs)
  const timeoutRaw = q.get('timeoutSeconds');
  if (timeoutRaw !== null) parseInt64Param(timeoutRaw);
  const labelSelector = parseLabelSelector(q.get('labelSelector'));
  const fieldSelector = parseFieldSelector(q.get('fieldSelector'));
  const lq: ListQuery = {
    resourceVersion: q.get('resourceVersion') ?? '',
    resourceVersionMatch: q.get('resourceVersionMatch') ?? '',
    limit,
    continueToken: q.get('continue') ?? '',
    labelSelector,
    fieldSelector,
    hasSelectors: labelSelector.length > 0 || fieldSelector.length > 0,
  };
  const sie = boolParam(q.get('sendInitialEvents'));
  const errs = watch ? validateWatchOptions(lq, sie, scope.core.featureGates.WatchList !== false) : validateListOptions(lq, sie);
  if (errs.length) throw invalid({ group: 'meta.k8s.io', kind: 'ListOptions' }, '', errs);
  checkFieldSelector(scope.def, fieldSelector);
  return lq;
}

function validateListOptions(lq: ListQuery, sendInitialEvents: boolean | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const match = lq.resourceVersionMatch;
  if (match) {
    if (!lq.resourceVersion) errs.push(fieldErr.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    if (lq.continueToken) errs.push(fieldErr.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    if (match !== 'Exact' && match !== 'NotOlderThan') errs.push(fieldErr.notSupported('resourceVersionMatch', match, ['Exact', 'NotOlderThan', '']));
    if (match === 'Exact' && lq.resourceVersion === '0') errs.push(fieldErr.forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
  }
  if (sendInitialEvents !== undefined) errs.push(fieldErr.forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  return errs;
}

function validateWatchOptions(lq: ListQuery, sendInitialEvents: boolean | undefined, watchList: boolean): FieldError[] {
  // streaming lists need the WatchList gate (on here, as the spec's table has it: features/gates.ts)
  const errs: FieldError[] = [];
  const match = lq.resourceVersionMatch;
  if (sendInitialEvents !== undefined && match !== 'NotOlderThan') {
    errs.push(fieldErr.forbidden('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
  }
  if (sendInitialEvents !== undefined && !watchList) {
    errs.push(fieldErr.forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled'));
  }
  if (match) {
    if (sendInitialEvents === undefined) errs.push(fieldErr.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
    if (match !== 'NotOlderThan') errs.push(fieldErr.notSupported('resourceVersionMatch', match, ['NotOlderThan']));
    if (lq.continueToken) errs.push(fieldErr.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
  }
  return errs;
}

export function selectorMatcher(def: ResourceDefinition, lq: ListQuery): (o: KubeObject) => boolean {
  if (!lq.hasSelectors) return () => true;
  const ls = lq.labelSelector;
  const fs = lq.fieldSelector;
  if (fs.length === 0) return (o) => matchesLabels(ls, o.metadata?.labels);
  const extra = kindFields(def);
  // field selectors name the fields of the requested version: stored objects are converted first
  return convertingMatcher(def, (o) => matchesLabels(ls, o.metadata?.labels) && matchesFields(fs, objectFields(o, def.namespaced, extra)));
}

// ---------------------------------------------------------------------------------------------------
// Continue tokens (storage/continue.go): base64url(JSON{v, rv, start}) without padding; rv -1 = latest.

export function encodeContinue(rv: number, startKey: string): string {
  const json = JSON.stringify({ v: 'meta.k8s.io/v1', rv, start: startKey });
  return base64url(new TextEncoder().encode(json));
}

function base64url(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i++) bin += String.fromCharCode(bytes[i]);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function invalidToken(detail: string): StatusError {
  return badRequest(`invalid continue token: ${detail}`);
}

/** Decodes a continue token into the start key (relative to the collection prefix) and its revision. */
export function decodeContinue(token: string): { rv: number; start: string } {
  const bad = /[^A-Za-z0-9_-]/.exec(token);
  if (bad) throw invalidToken(`continue key is not valid: illegal base64 data at input byte ${bad.index}`);
  if (token.length % 4 === 1) throw invalidToken(`continue key is not valid: illegal base64 data at input byte ${token.length - 1}`);
  let json: string;
  try {
    const bin = atob(token.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (token.length % 4)) % 4));
    json = new TextDecoder('utf-8', { fatal: false }).decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
  } catch {
    throw invalidToken('continue key is not valid: illegal base64 data at input byte 0');
  }
  let t: { v?: unknown; rv?: unknown; start?: unknown };
  try {
    t = JSON.parse(json) as typeof t;
    if (t === null || typeof t !== 'object' || Array.isArray(t)) throw new Error('not an object');
  } catch {
    throw invalidToken(`continue key is not valid: invalid character looking for beginning of value`);
  }
  if (t.v !== 'meta.k8s.io/v1') throw invalidToken(`continue key is not valid: server does not recognize this encoded version ${String(t.v ?? '')}`);
  const rv = typeof t.rv === 'number' && Number.isInteger(t.rv) ? t.rv : 0;
  if (rv === 0) throw invalidToken('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  const start = typeof t.start === 'string' ? t.start : '';
  if (!start) throw invalidToken('continue key is not valid: encoded start key empty (version meta.k8s.io/v1)');
  // path traversal guard: the cleaned key must equal the key
  const key = start.startsWith('/') ? start : '/' + start;
  if (cleanPath(key) !== key) throw invalidToken(`continue key is not valid: ${start}`);
  return { rv, start: key.slice(1) };
}

function cleanPath(p: string): string {
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  const cleaned = '/' + out.join('/');
  // Go's path.Clean keeps no trailing slash; a NUL-terminated start key has none anyway
  return cleaned;
}

const INCONSISTENT_CONTINUE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/** 410 for a continue token whose revision was compacted: carries a token that continues at the latest state. */
function continueExpired(start: string): StatusError {
  const st: Status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: { continue: encodeContinue(-1, start) } as unknown as Status['metadata'],
    status: 'Failure',
    message: INCONSISTENT_CONTINUE,
    reason: 'Expired',
    code: 410,
  };
  return new StatusError(st);
}

// ---------------------------------------------------------------------------------------------------
// Waiting for a revision the cache has not seen yet (watchCache.waitUntilFreshAndBlock)

/** A 504 exactly as storage.NewTooLargeResourceVersionError writes it (message prefixed by "Timeout: "). */
export function tooLargeRV(requested: number, current: number): StatusError {
  const st: Status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `Timeout: Too large resource version: ${requested}, current: ${current}`,
    reason: 'Timeout',
    details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
    code: 504,
  };
  return new StatusError(st, { 'Retry-After': '1' });
}

/**
 * Resolves once the cluster's revision reaches `rv`; rejects with the 504 after `waitMs` (0: wait forever,
 * resolving false when `signal` aborts).
 */
export function waitForRevision(core: EngineCore, rv: number, waitMs = TOO_LARGE_RV_WAIT_MS, signal?: AbortSignal): Promise<boolean> {
  const state = core.store.state;
  if (state.revision >= rv) return Promise.resolve(true);
  return new Promise<boolean>((resolve, reject) => {
    let timer: unknown;
    const done = (fn: () => void) => {
      unsubscribe();
      if (timer !== undefined) core.env.timers.clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      fn();
    };
    const unsubscribe = state.subscribe(() => {
      if (state.revision >= rv) done(() => resolve(true));
    });
    const onAbort = () => done(() => resolve(false));
    signal?.addEventListener('abort', onAbort, { once: true });
    if (waitMs > 0) timer = core.env.timers.setTimeout(() => done(() => reject(tooLargeRV(rv, state.revision))), waitMs);
  });
}

// ---------------------------------------------------------------------------------------------------
// Reading the collection

export interface ListResult {
  /** Stored objects (shared with the cache: never mutate). */
  items: KubeObject[];
  meta: { resourceVersion: string; continue?: string; remainingItemCount?: number };
}

function listExpired(): StatusError {
  return gone('The resourceVersion for the provided list is too old.');
}

/**
 * Snapshots by revision (the current one included), kept for the next chunks of a paginated list (the real
 * watch cache keeps snapshots too): a snapshot never changes, it only becomes unavailable once its
 * revision is compacted.
 */
const snapshots = new WeakMap<ClusterState, Map<string, StoredObject[]>>();
const MAX_SNAPSHOTS = 4;

function snapshot(state: ClusterState, prefix: string, revision: number): StoredObject[] {
  if (revision > state.revision) revision = state.revision;
  if (revision < state.revision && revision < state.oldestResumableRevision()) return state.listAt(prefix, revision); // throws the 410
  let m = snapshots.get(state);
  if (!m) snapshots.set(state, (m = new Map()));
  const key = `${revision}|${prefix}`;
  const hit = m.get(key);
  if (hit) {
    m.delete(key);
    m.set(key, hit);
    return hit;
  }
  const items = revision === state.revision ? state.list(prefix) : state.listAt(prefix, revision);
  m.set(key, items);
  while (m.size > MAX_SNAPSHOTS) m.delete(m.keys().next().value as string);
  return items;
}

/**
 * Reads the collection per the spec's list table and returns stored objects and the list metadata.
 * Synchronous: a resourceVersion newer than the cluster's fails at once (readListAsync waits first).
 */
export function readList(scope: Scope, lq: ListQuery): ListResult {
  const { def, core } = scope;
  const state = core.store.state;
  // undecodable values under the prefix: the cache cannot serve, the storage list fails
  core.store.assertListable(def, scope.info.namespace);
  const prefix = core.store.prefix(def, scope.info.namespace);
  const match = selectorMatcher(def, lq);

  let revision = state.revision;
  let startKey = '';
  if (lq.continueToken) {
    // Continuation: the token's revision (or the latest state for rv -1), from its start key
    const t = decodeContinue(lq.continueToken);
    if (lq.resourceVersion !== '' && lq.resourceVersion !== '0') throw badRequest('specifying resource version is not allowed when using continue');
    startKey = t.start;
    if (t.rv > 0) {
      if (t.rv < state.oldestResumableRevision()) throw continueExpired(t.start);
      revision = Math.min(t.rv, state.revision);
    }
  } else if (lq.resourceVersion !== '' && lq.resourceVersion !== '0') {
    const requested = parseRevision(lq.resourceVersion);
    if (requested > state.revision) throw tooLargeRV(requested, state.revision);
    // Exact for resourceVersionMatch=Exact, and (legacy) for a limit with an rv; otherwise Not older than
    const exact = lq.resourceVersionMatch === 'Exact' || (lq.resourceVersionMatch === '' && lq.limit > 0);
    if (exact) revision = requested;
  }

  // the watch cache ignores limit for resourceVersion "0" (computeListLimit): the whole list, no continue
  const limit = lq.resourceVersion === '0' && !lq.continueToken ? 0 : lq.limit;
  if (limit > 0) {
    try {
      return readPage(scope, lq, prefix, revision, startKey, limit, match);
    } catch (e) {
      if (e instanceof StorageCompactedError) throw lq.continueToken ? continueExpired(startKey) : listExpired();
      throw e;
    }
  }

  let stored: StoredObject[];
  try {
    stored = snapshot(state, prefix, revision);
  } catch (e) {
    if (e instanceof StorageCompactedError) {
      if (lq.continueToken) throw continueExpired(startKey);
      throw listExpired();
    }
    throw e;
  }
  let i = 0;
  if (startKey) {
    const from = prefix + startKey;
    let lo = 0;
    let hi = stored.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (stored[mid].key < from) lo = mid + 1;
      else hi = mid;
    }
    i = lo;
  }
  // the whole list (no limit), from the snapshot of its revision
  const items: KubeObject[] = [];
  for (; i < stored.length; i++) {
    const o = stored[i].object;
    if (!lq.hasSelectors || match(o)) items.push(o);
  }
  return { items, meta: { resourceVersion: String(revision) } };
}

/**
 * One page of a paginated list (limit > 0), read from the cache's index at `revision` without a copy of the
 * collection (ClusterState.scanAt): its cost is the page's items (and, with selectors, the ones skipped) and
 * the history since `revision`, not the collection's size. The same items and metadata as the snapshot path.
 */
function readPage(scope: Scope, lq: ListQuery, prefix: string, revision: number, startKey: string, limit: number, match: (o: KubeObject) => boolean): ListResult {
  const state = scope.core.store.state;
  const items: KubeObject[] = [];
  let lastKey = '';
  let more = false;
  state.scanAt(prefix, revision, startKey ? prefix + startKey : prefix, (item) => {
    if (items.length >= limit) {
      more = true;
      return false;
    }
    if (!lq.hasSelectors || match(item.object)) {
      items.push(item.object);
      lastKey = item.key;
    }
    return true;
  });
  const meta: ListResult['meta'] = { resourceVersion: String(revision) };
  if (more) {
    // more objects follow (they may not match the selectors: the real server does not look ahead either)
    const next = lastKey.slice(prefix.length) + '\u0000';
    meta.continue = encodeContinue(revision, next);
    if (!lq.hasSelectors) meta.remainingItemCount = state.countAt(prefix, revision, prefix + next);
  }
  return { items, meta };
}

/** readList after waiting (up to 3 s) for a resourceVersion newer than the cluster's. */
export async function readListAsync(scope: Scope, lq: ListQuery): Promise<ListResult> {
  if (!lq.continueToken && lq.resourceVersion !== '' && lq.resourceVersion !== '0') {
    const requested = parseRevision(lq.resourceVersion);
    if (requested > scope.core.store.state.revision) await waitForRevision(scope.core, requested, TOO_LARGE_RV_WAIT_MS, scope.request.signal);
  }
  return readList(scope, lq);
}

/** The Go type the real server holds for a kind (internal version), as %T prints it in NotAcceptable errors. */
export function goTypeName(def: ResourceDefinition, list: boolean): string {
  if (isCustom(def)) return list ? '*unstructured.UnstructuredList' : '*unstructured.Unstructured';
  const pkg = def.group === '' || def.group === 'events.k8s.io' ? 'core' : def.group.split('.')[0];
  return `*${pkg}.${list ? listKindOf(def) : def.kind}`;
}

export function listKindOf(def: ResourceDefinition): string {
  return def.listKind || `${def.kind}List`;
}

function isCustom(def: ResourceDefinition): boolean {
  return (def as { custom?: boolean }).custom === true;
}

/**
 * A stored object as an item of a list: typed lists carry no apiVersion/kind on their items, custom resource
 * lists carry the requested version. Shallow: shares everything below the top level with the cache.
 */
export function listItem(def: ResourceDefinition, o: KubeObject, gv = groupVersion(def)): KubeObject {
  const { kind: _k, apiVersion: _a, ...rest } = toRequestVersion(def, o);
  void _k;
  void _a;
  if (rest.metadata) rest.metadata = orderedMeta(rest.metadata);
  if (isCustom(def)) return { kind: def.kind, apiVersion: gv, ...rest };
  return rest;
}

/** ObjectMeta fields in the order the real server serializes them. */
const META_ORDER = [
  'name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp',
  'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers',
  'managedFields',
];
const META_RANK = new Map(META_ORDER.map((k, i) => [k, i]));

/** The metadata itself when its keys are in serialization order, else a reordered shallow copy. */
export function orderedMeta<T extends object>(m: T): T {
  let last = -1;
  let ordered = true;
  for (const k in m) {
    const r = META_RANK.get(k) ?? 100;
    if (r < last) {
      ordered = false;
      break;
    }
    last = r;
  }
  if (ordered) return m;
  const src = m as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of META_ORDER) if (src[k] !== undefined) out[k] = src[k];
  for (const k of Object.keys(src)) if (!(k in out) && src[k] !== undefined) out[k] = src[k];
  return out as T;
}

/** The object as get/watch return it: apiVersion/kind of the requested version first. Shallow. */
export function presentShallow(def: ResourceDefinition, o: KubeObject, gv = groupVersion(def)): KubeObject {
  const { kind: _k, apiVersion: _a, ...rest } = toRequestVersion(def, o);
  void _k;
  void _a;
  if (rest.metadata) rest.metadata = orderedMeta(rest.metadata);
  return { kind: def.kind, apiVersion: gv, ...rest };
}

/**
 * UTF-8 JSON of stored objects as list items, kept per object (stored objects are immutable; the real watch
 * cache's cachingObject keeps serializations the same way): key '' for typed items, the group/version for
 * custom ones.
 */
const itemJsonCache = new WeakMap<object, Map<string, Uint8Array>>();
const utf8 = new TextEncoder();

/**
 * The last write answer's item text, handed over to the next read of the same stored object (a get right
 * after a write, such as a client's get + put, or a controller reading what it just wrote): one slot, so at
 * most one object and its text are held past their answer; taken once (the read keeps its bytes in
 * itemJsonCache), and replaced by the next write's answer. Keyed by the stored object itself (immutable, a
 * new object per write) and the item key, as itemJsonCache is.
 */
const handOver: { object: KubeObject | undefined; key: string; item: string } = { object: undefined, key: '', item: '' };

/** The item's bytes, made once and kept with the object (a write's answer is written as text instead: objectJsonText). */
function itemBytes(def: ResourceDefinition, o: KubeObject, gv: string): Uint8Array {
  const key = itemCacheKey(def, gv);
  let m = itemJsonCache.get(o);
  const hit = m?.get(key);
  if (hit) return hit;
  let text: string;
  const read = keptGets.get(o);
  if (read !== undefined && read.key === key && read.text !== undefined) {
    // a get's kept text becomes these bytes (one copy of the item kept, not two)
    text = read.text;
    read.text = undefined;
  } else text = handedOverOrSerialized(def, o, gv, key);
  const bytes = utf8.encode(text);
  if (!m) itemJsonCache.set(o, (m = new Map()));
  m.set(key, bytes);
  return bytes;
}

/** The item's text: the last write answer's when it was this object's under this key (taken once), else serialized. */
function handedOverOrSerialized(def: ResourceDefinition, o: KubeObject, gv: string, key: string): string {
  if (handOver.object !== o || handOver.key !== key) return goJsonText(JSON.stringify(listItem(def, o, gv)));
  const text = handOver.item;
  handOver.object = undefined;
  handOver.item = '';
  return text;
}

function itemCacheKey(def: ResourceDefinition, gv: string): string {
  return isCustom(def) || def.conversion ? `${gv}${conversionKey(def)}` : '';
}

/** A line break inside a pretty list's item: the item's lines sit two levels (four spaces) in. */
const ITEM_LINE = '\n    ';

/**
 * The item as it stands in a pretty list (JSON.stringify(item, null, 2) at the items' depth), kept with the
 * object: browsers get every list pretty-printed, and the UI lists again and again, so a repeated list copies
 * bytes instead of serializing 10,000 objects again. Made from the compact bytes when those are kept
 * already, else by JSON.stringify with the indent, each line moved right to the items' depth (a JSON text
 * has no raw newline inside a string), without making compact bytes that a browser's lists do not use.
 */
function prettyItemBytes(def: ResourceDefinition, o: KubeObject, gv: string): Uint8Array {
  const compactKey = itemCacheKey(def, gv);
  const key = `${compactKey}|pretty`;
  let m = itemJsonCache.get(o);
  const hit = keptPretty(m, key);
  if (hit) return hit;
  const compact = m?.get(compactKey);
  let bytes: Uint8Array;
  if (compact) {
    const w = new PrettyWriter(compact.length + (compact.length >> 1));
    w.indented(compact, 2);
    bytes = w.take().slice();
  } else bytes = utf8.encode(goJsonText(JSON.stringify(listItem(def, o, gv), null, 2)).replaceAll('\n', ITEM_LINE));
  if (!m) itemJsonCache.set(o, (m = new Map()));
  m.set(key, bytes);
  return bytes;
}

/** The text before a batch's first item: `JSON.stringify({ items: [...] }, null, 2)` starts so. */
const BATCH_HEAD = '{\n  "items": [\n    ';
/** Where an item of a batch ends: its lines inside are indented further, and no JSON string holds a raw newline. */
const BATCH_ITEM_END = '\n    }';
/** Items serialized by one JSON.stringify call on a list's first pass: ~95 KiB of text for 2 KiB items, under V8's large-object size (128 KiB). */
const BATCH_MAX = 32;

/** The text after a batch's last item. */
const BATCH_TAIL = '\n  ]\n}';

/**
 * The pretty bytes of `count` items from `from` on, none of which has pretty or compact bytes kept, pushed to
 * `parts` and kept with their objects as prettyItemBytes keeps them. One JSON.stringify of
 * `{ items: [...] }` with the indent writes every item at the list items' depth (no per-item line shift), and
 * one goJsonText pass escapes the batch. The batch's items (with the separators between them) are encoded
 * at once into one buffer; each item's bytes are a view of it, cut at the item's closing line. One
 * buffer per batch, not one per item: in Chromium an ArrayBuffer of a few KiB costs about as much to
 * allocate as to fill. The views keep their batch's buffer alive: at most BATCH_MAX items' bytes (~95 KiB
 * for 2 KiB ConfigMaps) per stored object that still has its bytes kept, and never more than the lists that
 * made them. A batch with any non-ASCII character (its text and bytes do not line up) encodes each item on
 * its own. The bytes equal prettyItemBytes' (reads.test.ts holds it).
 *
 * With `lead` (a streamed list), the buffer starts with those bytes, the separator before the batch's first
 * item, and an ASCII batch's buffer is returned as `chunk`: it is then a piece of the body as it stands,
 * sent without a copy into a new piece, and its items are not pushed to `parts`.
 */
function prettyItemBatch(def: ResourceDefinition, items: readonly KubeObject[], from: number, count: number, gv: string, key: string, parts: Uint8Array[], lead?: Uint8Array): { size: number; chunk?: Uint8Array<ArrayBuffer> } {
  const batch = new Array<unknown>(count);
  for (let k = 0; k < count; k++) batch[k] = listItem(def, items[from + k], gv);
  const text = goJsonText(JSON.stringify({ items: batch }, null, 2));
  const start = BATCH_HEAD.length;
  const run = text.substring(start, text.length - BATCH_TAIL.length);
  // ASCII text (the usual case) is one byte per character; otherwise the buffer falls short
  const skip = lead ? lead.length : 0;
  const buffer = new Uint8Array(skip + run.length);
  if (lead) buffer.set(lead);
  const { read, written } = utf8.encodeInto(run, skip ? buffer.subarray(skip) : buffer);
  const ascii = read === run.length && written === run.length;
  const whole = ascii && lead !== undefined;
  let at = start;
  let size = 0;
  for (let k = 0; k < count; k++) {
    const end = text.charCodeAt(at + 1) === 0x7d ? at + 2 : text.indexOf(BATCH_ITEM_END, at) + BATCH_ITEM_END.length;
    const bytes = ascii ? buffer.subarray(skip + at - start, skip + end - start) : utf8.encode(text.substring(at, end));
    const o = items[from + k];
    let m = itemJsonCache.get(o);
    if (!m) itemJsonCache.set(o, (m = new Map()));
    m.set(key, bytes);
    if (!whole) parts.push(bytes);
    size += bytes.length;
    at = end + 6; // ',\n    '
  }
  return whole ? { size, chunk: buffer } : { size };
}

/**
 * The pretty bytes kept for the object, if any. A kept view whose buffer a reader of an earlier body detached
 * (a batch's buffer is sent as a piece, see prettyItemBatch) reads as empty, and no item's text is: it counts
 * as not kept, and the item is serialized again.
 */
function keptPretty(m: Map<string, Uint8Array> | undefined, prettyKey: string): Uint8Array | undefined {
  const hit = m?.get(prettyKey);
  return hit && hit.length > 0 ? hit : undefined;
}

/** Whether the object has neither pretty nor compact bytes kept under these keys: the batch path writes it. */
function prettyMiss(o: KubeObject, compactKey: string, prettyKey: string): boolean {
  const m = itemJsonCache.get(o);
  return !m || (!m.has(compactKey) && !keptPretty(m, prettyKey));
}

const OBJECT_END = utf8.encode('}\n');

/** `{"kind":...,"apiVersion":...` of a get body, encoded once per kind and group/version. */
const objectHeads = new Map<string, Uint8Array>();

function objectHead(kind: string, gv: string): Uint8Array {
  const key = `${kind} ${gv}`;
  let head = objectHeads.get(key);
  if (!head) objectHeads.set(key, (head = utf8.encode(objectHeadText(kind, gv))));
  return head;
}

/** `{"kind":...,"apiVersion":...` of a get body as text, made once per kind and group/version. */
const objectHeadTexts = new Map<string, string>();

function objectHeadText(kind: string, gv: string): string {
  const key = `${kind} ${gv}`;
  let head = objectHeadTexts.get(key);
  if (head === undefined) objectHeadTexts.set(key, (head = goJsonText(`{"kind":${JSON.stringify(kind)},"apiVersion":${JSON.stringify(gv)}`)));
  return head;
}

/**
 * What gets keep with a stored object, for one item key (which fixes the kind and version a body leads with:
 * objects served in several versions have one key per version): the item's text from the first read, the
 * body's bytes from the second. The first read of an object answers text (the hosts encode it as they send
 * it, as they do a write's answer), so the one read of an object just written (a client's get before its
 * next put, a controller's read) neither encodes bytes nor copies them beside the head. A second read makes
 * the body's bytes from that text, keeps them and answers them again and again (an ArrayBuffer of a few
 * hundred bytes costs more to allocate than everything else a get does to its body). A list that needs the
 * item's bytes takes the kept text for them (itemBytes), so the item is kept once, as text or as bytes.
 */
interface KeptGet {
  key: string;
  text: string | undefined;
  body: Uint8Array<ArrayBuffer> | undefined;
}
const keptGets = new WeakMap<object, KeptGet>();

/**
 * The JSON body of a get (compact, with its trailing newline): the serialization of `presentShallow(def, o)`,
 * from the same per-object cache as list items. A built-in kind's list item lacks kind and apiVersion, which
 * lead the object here, so they are written before the item's fields. Text on an object's first read, bytes
 * kept with it from its second (keptGets). Like every kept serialization these bytes are only read by the
 * hosts; a kept body whose buffer a reader detached (it reads as empty: no body is) is made again.
 */
export function objectJsonBody(def: ResourceDefinition, o: KubeObject, gv = groupVersion(def)): string | Uint8Array<ArrayBuffer> {
  const key = itemCacheKey(def, gv);
  const kept = keptGets.get(o);
  if (kept !== undefined) {
    if (kept.key !== key) return bodyOfItem(def, itemBytes(def, o, gv), gv);
    if (kept.body !== undefined && kept.body.byteLength > 0) return kept.body;
    return (kept.body = kept.text !== undefined ? (utf8.encode(bodyOfText(def, kept.text, gv)) as Uint8Array<ArrayBuffer>) : bodyOfItem(def, itemBytes(def, o, gv), gv));
  }
  const item = itemJsonCache.get(o)?.get(key);
  if (item !== undefined) {
    // bytes a list made: a body made from them, kept for the reads after this one
    const body = bodyOfItem(def, item, gv);
    keptGets.set(o, { key, text: undefined, body });
    return body;
  }
  const text = handedOverOrSerialized(def, o, gv, key);
  keptGets.set(o, { key, text, body: undefined });
  return bodyOfText(def, text, gv);
}

/** A get body's bytes from the item's bytes: the head, then the item's fields. */
function bodyOfItem(def: ResourceDefinition, item: Uint8Array, gv: string): Uint8Array<ArrayBuffer> {
  if (isCustom(def)) {
    const out = new Uint8Array(item.byteLength + 1);
    out.set(item);
    out[item.byteLength] = 0x0a;
    return out;
  }
  const head = objectHead(def.kind, gv);
  // the item is `{}` or `{"field":...}`: its fields follow the head after a comma
  const empty = item.byteLength <= 2;
  const out = new Uint8Array(head.byteLength + (empty ? OBJECT_END.byteLength : item.byteLength + 1));
  out.set(head);
  if (empty) out.set(OBJECT_END, head.byteLength);
  else {
    out[head.byteLength] = 0x2c;
    out.set(item.subarray(1), head.byteLength + 1);
    out[out.byteLength - 1] = 0x0a;
  }
  return out;
}

/** A get body as text from the item's text. */
function bodyOfText(def: ResourceDefinition, item: string, gv: string): string {
  if (isCustom(def)) return item + '\n';
  const head = objectHeadText(def.kind, gv);
  return item.length <= 2 ? head + '}\n' : head + ',' + item.slice(1) + '\n';
}

/**
 * The body a get would answer, for an answer that is not kept (a write's): the get's when the object's
 * serialization is kept already, else the serialization as text, which the hosts encode as they send it (no
 * encoding to bytes, no copy into a buffer beside the head), handed over to the next read of the object.
 */
export function objectJsonText(def: ResourceDefinition, o: KubeObject, gv = groupVersion(def)): string | Uint8Array<ArrayBuffer> {
  const key = itemCacheKey(def, gv);
  if (keptGets.get(o)?.key === key || itemJsonCache.get(o)?.has(key)) return objectJsonBody(def, o, gv);
  const item = goJsonText(JSON.stringify(listItem(def, o, gv)));
  handOver.object = o;
  handOver.key = key;
  handOver.item = item;
  return bodyOfText(def, item, gv);
}

/** Lists of at least this many items are streamed in pieces of about STREAM_PIECE bytes. */
const STREAM_MIN_ITEMS = 256;
const STREAM_PIECE = 256 * 1024;

/**
 * The list JSON as a stream of pieces, each written item by item from the (cached) item bytes as the
 * reader pulls: the service worker can hand the first bytes to the page while the rest is serialized (a
 * single large buffer would be built, then copied whole, before the response starts).
 */
export function listJsonStream(def: ResourceDefinition, res: ListResult): ReadableStream<Uint8Array> | Uint8Array<ArrayBuffer> {
  const items = res.items;
  if (items.length < STREAM_MIN_ITEMS) return listJson(def, res);
  const gv = groupVersion(def);
  let head: Uint8Array | undefined = utf8.encode(
    goJsonText(`{"kind":${JSON.stringify(listKindOf(def))},"apiVersion":${JSON.stringify(gv)},"metadata":${JSON.stringify(res.meta)},"items":[`),
  );
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const parts: Uint8Array[] = [];
      let n = head ? head.length : 0;
      const first = i;
      while (i < items.length && n < STREAM_PIECE) {
        const b = itemBytes(def, items[i++], gv);
        parts.push(b);
        n += b.length + 1;
      }
      const last = i >= items.length;
      const out = new Uint8Array(n + 3);
      let at = 0;
      if (head) {
        out.set(head, 0);
        at = head.length;
        head = undefined;
      }
      for (let k = 0; k < parts.length; k++) {
        if (first + k > 0) out[at++] = 0x2c; // ','
        out.set(parts[k], at);
        at += parts[k].length;
      }
      if (last) {
        out.set([0x5d, 0x7d, 0x0a], at); // ]}\n
        at += 3;
      }
      controller.enqueue(out.subarray(0, at));
      if (last) controller.close();
    },
  });
}

/**
 * Appends compact JSON (as JSON.stringify writes it: no whitespace outside strings) to a growing buffer,
 * indented as JSON.stringify(value, null, 2) would write it at nesting `depth`: the pretty form of a list
 * item made from its cached compact bytes, without serializing the object again.
 */
class PrettyWriter {
  out: Uint8Array<ArrayBuffer>;
  at = 0;
  constructor(capacity: number) {
    this.out = new Uint8Array(capacity);
  }
  private room(n: number): void {
    if (this.at + n <= this.out.length) return;
    const next = new Uint8Array(Math.max(this.out.length * 2, this.at + n));
    next.set(this.out.subarray(0, this.at));
    this.out = next;
  }
  private newline(depth: number): void {
    this.room(1 + 2 * depth);
    const out = this.out;
    out[this.at++] = 0x0a;
    for (let k = 2 * depth; k > 0; k--) out[this.at++] = 0x20;
  }
  /** Copies src[from, to) (short runs byte by byte: cheaper than a subarray). */
  private copy(src: Uint8Array, from: number, to: number): void {
    const len = to - from;
    this.room(len + 1);
    if (len < 16) {
      const out = this.out;
      for (let k = from; k < to; k++) out[this.at++] = src[k];
    } else {
      this.out.set(src.subarray(from, to), this.at);
      this.at += len;
    }
  }
  indented(src: Uint8Array, depth: number): void {
    const n = src.length;
    let run = 0; // start of the bytes not yet copied
    let i = 0;
    while (i < n) {
      const c = src[i];
      if (c === 0x22) {
        // a string: skip to its closing quote (one preceded by an even run of backslashes)
        let j = src.indexOf(0x22, i + 1);
        for (;;) {
          if (j < 0) return this.copy(src, run, n);
          let k = j - 1;
          while (src[k] === 0x5c) k--;
          if ((j - 1 - k) % 2 === 0) break;
          j = src.indexOf(0x22, j + 1);
        }
        i = j + 1;
        continue;
      }
      if (c === 0x7b || c === 0x5b) {
        // { or [: empty ones stay on the line
        if (src[i + 1] === c + 2) {
          i += 2;
          continue;
        }
        this.copy(src, run, i + 1);
        this.newline(++depth);
        run = ++i;
      } else if (c === 0x7d || c === 0x5d) {
        this.copy(src, run, i);
        this.newline(--depth);
        run = i++;
      } else if (c === 0x2c) {
        this.copy(src, run, i + 1);
        this.newline(depth);
        run = ++i;
      } else if (c === 0x3a) {
        this.copy(src, run, i + 1);
        this.out[this.at++] = 0x20; // copy() left room for it
        run = ++i;
      } else {
        i++;
      }
    }
    this.copy(src, run, n);
  }
  take(): Uint8Array<ArrayBuffer> {
    return this.out.subarray(0, this.at);
  }
}

const PRETTY_ITEM_START = utf8.encode('\n    ');
const PRETTY_ITEM_NEXT = utf8.encode(',\n    ');
const PRETTY_TAIL = utf8.encode('\n  ]\n}\n');

/**
 * The list as `JSON.stringify(listObject(def, res), null, 2) + '\n'` (what pretty=true and browser user
 * agents get), written from the cached compact item bytes: one buffer for short lists, else a stream of
 * pieces of about STREAM_PIECE bytes.
 */
export function listJsonPretty(def: ResourceDefinition, res: ListResult): ReadableStream<Uint8Array> | Uint8Array<ArrayBuffer> {
  const gv = groupVersion(def);
  const items = res.items;
  const shell = goJsonText(JSON.stringify({ kind: listKindOf(def), apiVersion: gv, metadata: res.meta, items: [] }, null, 2));
  if (items.length === 0) return utf8.encode(`${shell}\n`) as Uint8Array<ArrayBuffer>;
  let head: Uint8Array | undefined = utf8.encode(shell.slice(0, -'[]\n}'.length) + '[');
  let i = 0;
  // a piece's items are gathered first, then copied into one buffer of the piece's exact size (a growing
  // buffer would allocate and copy about three times the body per list)
  const parts: Uint8Array[] = [];
  const compactKey = itemCacheKey(def, gv);
  const prettyKey = `${compactKey}|pretty`;
  // the average size of the last batch's items, with their separator: how many of the next run fit a piece
  let itemSize = 0;
  // a piece: the items gathered (kept bytes) copied into one buffer, or in a stream a batch of items never
  // serialized, sent as its buffer holds it (after the pieces before it); in a stream, long runs of kept items
  // go out as views of the buffer that holds them (sendKept)
  const piece = (limit: number): { chunks: Uint8Array[]; last: boolean } => {
    const stream = limit !== Infinity;
    const first = i;
    let n = head ? head.length : 0;
    while (i < items.length && n < limit) {
      const kept = itemJsonCache.get(items[i]);
      const hit = keptPretty(kept, prettyKey);
      if (hit) {
        parts.push(hit);
        n += PRETTY_ITEM_NEXT.length + hit.length;
        i++;
        continue;
      }
      if (!kept?.has(compactKey)) {
        // a run of items never serialized: written in one batch, sized to what is left of the piece; in a
        // stream, what was gathered before it goes first, in a piece of its own
        if (stream && (head || parts.length > 0)) break;
        let count = 1;
        const most = Math.min(BATCH_MAX, items.length - i, !stream ? BATCH_MAX : Math.ceil((limit - n) / (itemSize || 1)));
        while (count < most && prettyMiss(items[i + count], compactKey, prettyKey)) count++;
        const { size, chunk } = prettyItemBatch(def, items, i, count, gv, prettyKey, parts, stream ? (i === 0 ? PRETTY_ITEM_START : PRETTY_ITEM_NEXT) : undefined);
        itemSize = Math.ceil(size / count) + PRETTY_ITEM_NEXT.length;
        i += count;
        // (the list's tail, if this was its last item, is the next pull's piece)
        if (chunk) return { chunks: [chunk], last: false };
        n += count * PRETTY_ITEM_NEXT.length + size;
        continue;
      }
      const b = prettyItemBytes(def, items[i++], gv);
      parts.push(b);
      n += PRETTY_ITEM_NEXT.length + b.length;
    }
    const last = i >= items.length;
    const chunks = sendKept(parts, first, stream, head, last);
    head = undefined;
    parts.length = 0;
    return { chunks, last };
  };
  if (items.length < STREAM_MIN_ITEMS) return piece(Infinity).chunks[0] as Uint8Array<ArrayBuffer>;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const { chunks, last } = piece(STREAM_PIECE);
      for (const c of chunks) controller.enqueue(c);
      if (last) controller.close();
    },
  });
}

/** Runs of kept items at least this long are sent as views of the buffer that holds them (a stream's pieces). */
const VIEW_MIN = 16 * 1024;

/**
 * The bytes of a pretty list's piece: `head` (if any), then each of `parts` (items' pretty bytes, the first
 * of them the list's item `first`) after its separator, then the list's tail if `last`. Kept items that
 * follow each other in one batch's buffer (its separators between them) are one run of it. Outside a stream
 * everything is copied into one buffer. In a stream, a run of at least VIEW_MIN bytes whose buffer holds the
 * run's separator right before it goes out as a view of that buffer, as the batch's first list sent it:
 * a later list of items kept in order copies nothing. What lies between such runs is copied into buffers of
 * its own. The views are the kept bytes themselves: our hosts only read a body's chunks, and one whose
 * buffer a reader detached reads as not kept the next time (keptPretty).
 */
function sendKept(parts: readonly Uint8Array[], first: number, stream: boolean, head: Uint8Array | undefined, last: boolean): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  // what is to be copied before the next view (or the end): segments and their length
  const copies: Uint8Array[] = [];
  let size = 0;
  const copy = (b: Uint8Array): void => {
    copies.push(b);
    size += b.length;
  };
  const flush = (): void => {
    if (size === 0) return;
    const out = new Uint8Array(size);
    let at = 0;
    for (const b of copies) {
      out.set(b, at);
      at += b.length;
    }
    chunks.push(out);
    copies.length = 0;
    size = 0;
  };
  if (head) copy(head);
  for (let k = 0; k < parts.length; ) {
    const sep = first + k === 0 ? PRETTY_ITEM_START : PRETTY_ITEM_NEXT;
    const part = parts[k++];
    const buffer = part.buffer;
    const start = part.byteOffset;
    let end = start + part.length;
    while (k < parts.length && parts[k].byteOffset === end + PRETTY_ITEM_NEXT.length && parts[k].buffer === buffer) end = parts[k].byteOffset + parts[k++].length;
    if (stream && end - start >= VIEW_MIN && precededBy(part, sep)) {
      flush();
      chunks.push(new Uint8Array(buffer, start - sep.length, end - start + sep.length));
      continue;
    }
    copy(sep);
    copy(end === start + part.length ? part : new Uint8Array(buffer, start, end - start));
  }
  if (last) copy(PRETTY_TAIL);
  flush();
  return chunks;
}

/**
 * Whether `view`'s buffer holds `sep` right before it. Kept pretty bytes are views of a batch's buffer
 * (prettyItemBatch), where each item follows its separator: `,\n    `, or before a stream batch's first item
 * its lead (the same, or `\n    ` for the list's first item, which is the end of the other), or buffers of
 * their own. So an item with at least `sep.length` bytes before it in its buffer has `sep` there.
 */
function precededBy(view: Uint8Array, sep: Uint8Array): boolean {
  return view.byteOffset >= sep.length;
}

/** Writes the list JSON item by item into one buffer, without copying the cached objects. */
export function listJson(def: ResourceDefinition, res: ListResult): Uint8Array<ArrayBuffer> {
  const gv = groupVersion(def);
  const head = utf8.encode(goJsonText(`{"kind":${JSON.stringify(listKindOf(def))},"apiVersion":${JSON.stringify(gv)},"metadata":${JSON.stringify(res.meta)},"items":[`));
  const tail = utf8.encode(']}\n');
  const parts: Uint8Array[] = new Array(res.items.length);
  let size = head.length + tail.length + Math.max(0, res.items.length - 1);
  for (let i = 0; i < res.items.length; i++) size += (parts[i] = itemBytes(def, res.items[i], gv)).length;
  const out = new Uint8Array(size);
  out.set(head, 0);
  let at = head.length;
  for (let i = 0; i < parts.length; i++) {
    if (i > 0) out[at++] = 0x2c; // ','
    out.set(parts[i], at);
    at += parts[i].length;
  }
  out.set(tail, at);
  return out;
}

export function listObject(def: ResourceDefinition, res: ListResult): Record<string, unknown> {
  const gv = groupVersion(def);
  return { kind: listKindOf(def), apiVersion: gv, metadata: res.meta, items: res.items.map((o) => listItem(def, o, gv)) };
}

export async function handleList(scope: Scope): Promise<EngineResponse> {
  const { def, core } = scope;
  const lq = parseListQuery(scope);
  const res = await readListAsync(scope, lq);
  const neg = scope.negotiated;
  if (neg.as === 'Table') {
    const include = parseIncludeObject(scope.query);
    const objs = res.items.map((o) => presentShallow(def, o));
    return bodyResponse(toTable(def, objs, res.meta, core.env.clock.now(), include, neg.asVersion!, neg.asGroup!), neg, scope.pretty);
  }
  if (neg.as === 'PartialObjectMetadata') {
    throw notAcceptable(`you requested PartialObjectMetadata, but the requested object is a list (${goTypeName(def, true)})`);
  }
  if (neg.as === 'PartialObjectMetadataList') {
    const apiVersion = `${neg.asGroup}/${neg.asVersion}`;
    return bodyResponse(
      {
        kind: 'PartialObjectMetadataList',
        apiVersion,
        metadata: res.meta,
        items: res.items.map((o) => ({ kind: 'PartialObjectMetadata', apiVersion, metadata: o.metadata })),
      },
      neg,
      scope.pretty,
    );
  }
  if (neg.format === 'json') {
    const body = scope.pretty ? listJsonPretty(def, res) : listJsonStream(def, res);
    return noteResponseObject(new EngineResponse(body, { status: 200, headers: { 'Cache-Control': 'no-cache, private', 'Content-Type': neg.contentType } }), () => listObject(def, res));
  }
  if (neg.format === 'cbor') return noteResponseObject(new EngineResponse(encodeCbor(listObject(def, res)), { status: 200, headers: { 'Cache-Control': 'no-cache, private', 'Content-Type': neg.contentType } }), () => listObject(def, res));
  return bodyResponse(listObject(def, res), neg, scope.pretty);
}

