// GET ?watch: a chunked stream of watch events [K8S handlers/watch.go, storage/cacher].
// Start semantics: rv unset or "0" = synthetic ADDED events for the current state, then changes; another
// rv = changes after it (a future one is waited for); sendInitialEvents=true (with NotOlderThan) = the
// initial ADDED events, then a BOOKMARK annotated k8s.io/initial-events-end when bookmarks were asked for.

import { badRequest, isStatusError } from '../../errors.js';
import { cacheNotReady } from '../../registry/corrupt.js';
import { resourcePrefix } from '../../registry/keys.js';
import type { KubeObject } from '../../object.js';
import { groupVersion, type ResourceDefinition } from '../../registry/types.js';
import { zeroObject } from '../../typed/zero.js';
import type { WatchEvent } from '../../watch/hub.js';
import { encodeJson } from '../responders.js';
import { parseIncludeObject, tableRow, columnDefinitions } from '../table.js';
import { encodeCbor } from '../negotiation/encode.js';
import { encodeProtobufWatchFrame } from '../../codec/protobuf/encode.js';
import { watchTimeoutMs, type Scope } from '../scope.js';
import { conversionKey } from '../../registry/conversion.js';
import { parseListQuery, parseRevision, presentShallow, selectorMatcher, waitForRevision } from './list.js';
import { EngineResponse } from '../wire.js';

const encoder = new TextEncoder();

/** Default bookmark interval when the core does not say (the real cacher: about a minute). */
const DEFAULT_BOOKMARK_MS = 60_000;

/** Encodings of stored objects shared by every watcher that asks for the same representation. */
const encodedCache = new WeakMap<object, Map<string, Uint8Array>>();

/**
 * The last served object made for an in-process watcher, by stored object and version: the hub hands one
 * event to every watcher of the collection in turn, so the others of that version (a simulated cluster
 * runs a dozen informers on pods) share it. Frozen, as the stored parts it holds are; one entry, replaced
 * by the next event (stored objects never change, so an entry is never stale).
 */
let lastPresented: { stored: object; key: string; object: KubeObject } | undefined;

function bookmarkObject(def: ResourceDefinition, revision: number, annotations?: Record<string, string>): KubeObject {
  const custom = (def as { custom?: boolean }).custom === true;
  // a typed bookmark is the kind's zero value (metadata.creationTimestamp: null, spec/status structs...)
  const zero = custom ? {} : (zeroObject(def.schema, def.definitions, false) as KubeObject);
  const metadata: Record<string, unknown> = { resourceVersion: String(revision) };
  if (!custom) metadata.creationTimestamp = null;
  if (annotations) metadata.annotations = annotations;
  const { metadata: _m, ...rest } = zero;
  void _m;
  return { kind: def.kind, apiVersion: groupVersion(def), metadata, ...rest } as KubeObject;
}

function boolParam(v: string | null): boolean {
  return v === 'true' || v === '1' || v === 't' || v === 'True' || v === 'TRUE';
}

export async function handleWatch(scope: Scope): Promise<EngineResponse> {
  const { def, core, info, query } = scope;
  const lq = parseListQuery(scope, true);
  const state = core.store.state;
  // a watch on a named path is the same as the field selector metadata.name=<name>
  if (info.name) {
    const named = lq.fieldSelector.filter((r) => r.field === 'metadata.name');
    if (lq.fieldSelector.length > 0 && (named.length !== 1 || named[0].op !== '=' || named[0].value !== info.name || lq.fieldSelector.length !== 1)) {
      throw badRequest(`fieldSelector metadata.name doesn't match requested name`);
    }
    if (lq.fieldSelector.length === 0) lq.fieldSelector.push({ field: 'metadata.name', op: '=', value: info.name });
  }
  lq.hasSelectors = lq.labelSelector.length > 0 || lq.fieldSelector.length > 0;
  const match = selectorMatcher(def, lq);
  const prefix = core.store.prefix(def, info.namespace);
  // the resource's watch cache cannot relist past an undecodable value: not ready, watches are refused
  if (state.unreadableUnder(resourcePrefix(def.group, def.plural)).length > 0) throw cacheNotReady();

  const sieRaw = query.get('sendInitialEvents');
  const sie = sieRaw !== null && boolParam(sieRaw);
  const bookmarks = boolParam(query.get('allowWatchBookmarks'));
  // the real server: minRequestTimeout (30 min) * (1 + rand) when no timeoutSeconds is given
  let timeoutMs = watchTimeoutMs(query, 0);
  // (drawn only when needed, so that clients giving a timeout do not move the id sequence)
  if (timeoutMs === 0) timeoutMs = 1800_000 + core.env.ids.int(1800) * 1000;
  const rv = lq.resourceVersion;
  const requested = parseRevision(rv);
  let startRevision: number;
  let initial: KubeObject[] | undefined;
  const snapshot = () => {
    const out: KubeObject[] = [];
    for (const s of state.list(prefix)) if (match(s.object)) out.push(s.object);
    return out;
  };
  if (sie) {
    // streaming list: the state at least as new as rv (waited for), then the end-of-initial-events bookmark
    if (requested > state.revision) {
      const reached = await waitForRevision(core, requested, timeoutMs, scope.request.signal).catch(() => false);
      if (!reached) return emptyStream(scope);
    }
    startRevision = state.revision;
    initial = snapshot();
  } else if (requested === 0) {
    startRevision = state.revision;
    // Get State and Start at Most Recent / Any; sendInitialEvents=false asks for no initial state
    if (sieRaw === null) initial = snapshot();
  } else {
    startRevision = requested; // Start at Exact: changes after rv, no synthetic events (a future rv waits)
  }

  const neg = scope.negotiated;
  const gv = groupVersion(def);
  const include = neg.as === 'Table' ? parseIncludeObject(query) : 'Object';
  const cbor = neg.format === 'cbor';
  const protobuf = neg.format === 'protobuf';
  let firstTable = true;
  // JSON: one document per event; CBOR: one data item; protobuf: length-prefixed WatchEvent frames
  const frame = (ev: { type: string; object: unknown }): Uint8Array =>
    protobuf ? encodeProtobufWatchFrame(ev.type, ev.object as Record<string, unknown>) : cbor ? encodeCbor(ev) : encoder.encode(encodeJson(ev, false));
  const encode = (ev: WatchEvent): Uint8Array => {
    try {
      return encodeEvent(ev);
    } catch (e) {
      // an object that cannot be converted to the watched version (a CRD's unreachable conversion webhook)
      // reaches the watcher as an ERROR event carrying the Status
      if (isStatusError(e)) return frame({ type: 'ERROR', object: e.status });
      throw e;
    }
  };
  const encodeEvent = (ev: WatchEvent): Uint8Array => {
    const isObject = ev.type === 'ADDED' || ev.type === 'MODIFIED' || ev.type === 'DELETED';
    if (!isObject) return frame(ev);
    const stored = ev.object as KubeObject;
    if (neg.as === 'Table') {
      const obj = presentShallow(def, stored, gv);
      const table = {
        kind: 'Table',
        apiVersion: `${neg.asGroup}/${neg.asVersion}`,
        metadata: { resourceVersion: obj.metadata?.resourceVersion },
        columnDefinitions: firstTable ? columnDefinitions(def) : null,
        rows: [tableRow(def, obj, core.env.clock.now(), include, neg.asVersion!, neg.asGroup!)],
      };
      firstTable = false;
      return frame({ type: ev.type, object: table });
    }
    if (neg.as === 'PartialObjectMetadata' || neg.as === 'PartialObjectMetadataList') return frame(presentEvent(ev));
    // the same stored object is encoded once for all watchers of this version and format
    const key = `${ev.type}|${gv}${conversionKey(def)}|${neg.format}`;
    let m = encodedCache.get(stored);
    const hit = m?.get(key);
    if (hit) return hit;
    const bytes = frame({ type: ev.type, object: presentShallow(def, stored, gv) });
    if (!m) encodedCache.set(stored, (m = new Map()));
    m.set(key, bytes);
    return bytes;
  };
  // the object an event's frame holds (not Table, whose rows are made in encodeEvent)
  const presentEvent = (ev: WatchEvent): { type: string; object: unknown } => {
    const isObject = ev.type === 'ADDED' || ev.type === 'MODIFIED' || ev.type === 'DELETED';
    if (!isObject) return ev;
    const stored = ev.object as KubeObject;
    if (neg.as === 'PartialObjectMetadata' || neg.as === 'PartialObjectMetadataList') {
      return { type: ev.type, object: { kind: 'PartialObjectMetadata', apiVersion: `${neg.asGroup}/${neg.asVersion}`, metadata: stored.metadata } };
    }
    return { type: ev.type, object: presentShallow(def, stored, gv) };
  };
  const convertsOnRead = (stored: KubeObject) => def.conversion !== undefined && (stored.apiVersion !== gv || def.conversion.convertOnRead === true);
  const presentedKey = `${gv}${conversionKey(def)}`;
  /** presentEvent for in-process watchers: a whole object shared with the other watchers of its version. */
  const presentShared = (ev: WatchEvent): { type: string; object: unknown } => {
    const stored = ev.object as KubeObject;
    if (neg.as !== undefined || (ev.type !== 'ADDED' && ev.type !== 'MODIFIED' && ev.type !== 'DELETED') || convertsOnRead(stored)) return presentEvent(ev);
    const last = lastPresented;
    if (last !== undefined && last.stored === stored && last.key === presentedKey) return { type: ev.type, object: last.object };
    const object = presentShallow(def, stored, gv);
    if (object.metadata) Object.freeze(object.metadata);
    Object.freeze(object);
    lastPresented = { stored, key: presentedKey, object };
    return { type: ev.type, object };
  };
  // the engine's own informers may take the events as the objects a JSON frame would hold (EngineRequest.watchEvents)
  const target = scope.request.watchEvents;
  const objects = target !== undefined && neg.format === 'json' && neg.as !== 'Table' && (core.isInternal?.(scope.request) ?? false);
  const sink = objects
    ? (ev: WatchEvent) => {
      let out: { type: string; object: unknown };
      try {
        out = presentShared(ev);
      } catch (e) {
        if (!isStatusError(e)) throw e;
        out = { type: 'ERROR', object: e.status };
      }
      queueMicrotask(() => target(out.type, out.object));
    }
    : undefined;
  const handle = core.watch.open({
    sink,
    internal: core.isInternal?.(scope.request) ?? false,
    prefix,
    startRevision,
    initial,
    initialEventsEnd: sie && bookmarks,
    matches: match,
    bookmark: (revision, annotations) => bookmarkObject(def, revision, annotations),
    encode,
    bookmarks,
    bookmarkIntervalMs: (core as { bookmarkIntervalMs?: number }).bookmarkIntervalMs ?? DEFAULT_BOOKMARK_MS,
    timeoutMs,
    signal: scope.request.signal,
  });
  return new EngineResponse(handle.stream, { status: 200, headers: watchHeaders(scope) });
}

function watchHeaders(scope: Scope): Record<string, string> {
  const neg = scope.negotiated;
  // the stream serializer's own media type, without the as=Table/PartialObjectMetadata parameters
  // (serveWatchHandler); a CBOR watch is a CBOR sequence
  const contentType = neg.format === 'cbor'
    ? 'application/cbor-seq'
    : neg.format === 'protobuf' ? `${neg.contentType.split(';')[0]};stream=watch` : 'application/json';
  return { 'Content-Type': contentType, 'Cache-Control': 'no-cache, private', 'Transfer-Encoding': 'chunked' };
}

function emptyStream(scope: Scope): EngineResponse {
  return new EngineResponse(new ReadableStream({ start: (c) => c.close() }), { status: 200, headers: watchHeaders(scope) });
}
