// Server-side apply and managedFields, as the v1.33 API server does them (structured-merge-diff v4 under
// k8s.io/apimachinery managedfields, wrapped as the real FieldManager wraps it):
//   decode managedFields -> version check -> before-first-apply -> cap Update entries at 10 ->
//   manager identity -> timestamps -> strip never-tracked metadata -> merge/compare -> encode.
// Pure: the caller supplies the time; defaulting and validation run after these functions.

import type { JsonObject, JsonValue, KubeObject, ManagedFieldsEntry } from '../object.js';
import { clone, deepFreeze, handedOver } from '../object.js';
import { StatusError, type Status } from '../errors.js';
import type { Schema, SchemaRegistry } from '../schema/types.js';
import { FieldSet } from '../fieldpath/set.js';
import { pathToString, type Path } from '../fieldpath/element.js';
import { goJSON, isMap } from '../fieldpath/value.js';
import { SchemaConverter, type TypeRef } from '../typed/schema.js';
import { compare, toFieldSet, validate } from '../typed/ops.js';
import { zeroObject } from '../typed/zero.js';
import { BoundedMemo } from '../util/bounded-memo.js';
import {
  capUpdateManagers,
  decodeManagedFields,
  emptyManaged,
  encodeManagedFields,
  isResetManagedFields,
  managerIdentifier,
  parseIdentifier,
  printManager,
  type Managed,
} from './managed.js';
import { ConflictsError, Updater, kept, type Conflict } from './updater.js';

export interface ManagedOptions {
  manager: string;
  apiVersion: string;
  subresource?: string;
  /** RFC3339, whole seconds. */
  time: string;
  /** Kind expected in an applied configuration; defaults to the schema's group-version-kind or the live kind. */
  kind?: string;
  /**
   * Top-level paths (as field-name lists, e.g. [['status']]) that this endpoint never tracks: the
   * ResetFieldsStrategy of the kind (the main resource ignores status, /status ignores spec).
   */
  resetFields?: string[][];
  /**
   * The object is handed on to a copy-on-write kind's writers (ResourceDefinition.copyOnWrite): the parts
   * it shares with a stored state (frozen) stay shared instead of being copied for in-place writers.
   */
  share?: boolean;
}

export interface ObjectType {
  readonly root: TypeRef;
  readonly customResource: boolean;
  /** From `x-kubernetes-group-version-kind` of a built-in definition. */
  readonly gvk?: { group: string; version: string; kind: string };
  /** The empty object of the kind, as a create is compared against. */
  zero(): JsonObject;
}

const typeCache = new WeakMap<SchemaRegistry, WeakMap<Schema, Map<boolean, ObjectType>>>();
const refCache = new WeakMap<SchemaRegistry, Map<string, ObjectType>>();

/** The typed schema of a kind; cached per (registry, schema object) and per (registry, `$ref` name). */
export function objectTypeFor(schema: Schema, defs: SchemaRegistry, opts?: { customResource?: boolean }): ObjectType {
  const cr = !!opts?.customResource;
  // the schema object itself first (a kind's schema is one object from request to request): no key text
  let bySchema = typeCache.get(defs);
  if (!bySchema) typeCache.set(defs, (bySchema = new WeakMap()));
  let byFlag = bySchema.get(schema);
  const hit = byFlag?.get(cr);
  if (hit) return hit;
  if (!byFlag) bySchema.set(schema, (byFlag = new Map()));
  const pureRef = schema.$ref && Object.keys(schema).length === 1 ? `${cr}:${schema.$ref}` : undefined;
  let byRef = refCache.get(defs);
  if (!byRef) refCache.set(defs, (byRef = new Map()));
  if (pureRef && byRef.has(pureRef)) {
    const t = byRef.get(pureRef)!;
    byFlag.set(cr, t);
    return t;
  }
  const conv = new SchemaConverter(defs, cr);
  const root = conv.root(schema);
  let resolved: Schema | undefined = schema;
  for (let i = 0; resolved?.$ref && i < 16; i++) resolved = defs[resolved.$ref.slice(resolved.$ref.lastIndexOf('/') + 1)];
  const g = resolved?.['x-kubernetes-group-version-kind']?.[0];
  let zero: JsonObject | undefined;
  const t: ObjectType = {
    root,
    customResource: cr,
    gvk: g ? { group: g.group, version: g.version, kind: g.kind } : undefined,
    zero: () => clone((zero ??= zeroObject(schema, defs, cr))),
  };
  byFlag.set(cr, t);
  if (pureRef) byRef.set(pureRef, t);
  return t;
}

// ---------------------------------------------------------------------------------------------------
// helpers

/** Paths never tracked (stripMetaManager): TypeMeta and the server-owned parts of ObjectMeta. */
const STRIP = FieldSet.of(
  [{ field: 'apiVersion' }],
  [{ field: 'kind' }],
  [{ field: 'metadata' }],
  ...['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion'].map(
    (f): Path => [{ field: 'metadata' }, { field: f }],
  ),
);

/** `prev`: the manager's set before this write, kept (same object) when the result equals it. */
function stripFields(m: Managed, id: string, prev?: FieldSet): void {
  const vs = m.fields.get(id);
  if (!vs) return;
  const s = vs.set.difference(STRIP);
  if (s.empty()) m.fields.delete(id);
  else m.fields.set(id, { ...vs, set: kept(s, prev) });
}

function ignoredSet(opts: ManagedOptions): FieldSet | undefined {
  const reset = opts.resetFields;
  if (!reset?.length) return undefined;
  // one top-level field (status on the main resource, spec on /status): the same set every time (field
  // sets are immutable)
  if (reset.length === 1 && reset[0].length === 1) {
    const f = reset[0][0];
    let s = topLevelSets.get(f);
    if (!s) topLevelSets.set(f, (s = FieldSet.of([{ field: f }])));
    return s;
  }
  return FieldSet.of(...reset.map((p) => p.map((f) => ({ field: f }))));
}

const topLevelSets = new BoundedMemo<string, FieldSet>(64);

const zeroViews = new WeakMap<ObjectType, JsonObject>();

/** The kind's empty object for readers only (a create is compared against it): made once and frozen. */
function zeroView(type: ObjectType): JsonObject {
  let z = zeroViews.get(type);
  if (!z) zeroViews.set(type, (z = deepFreeze(type.zero())));
  return z;
}


/** `o` without managedFields, its top level and metadata new objects (nested values shared). */
function freshTop(o: KubeObject): JsonObject {
  if (!isMap(o.metadata)) return { ...o } as JsonObject;
  const { managedFields: _, ...metadata } = o.metadata;
  return { ...o, metadata } as JsonObject;
}

/** A shallow view of `o` without managedFields (top level and metadata copied), for readers only. */
function viewWithoutManagedFields(o: KubeObject): JsonObject {
  if (!isMap(o.metadata) || !('managedFields' in o.metadata)) return o as JsonObject;
  const { managedFields: _, ...metadata } = o.metadata;
  return { ...o, metadata } as JsonObject;
}

function setManagedFields(o: KubeObject, entries: ManagedFieldsEntry[] | undefined): KubeObject {
  if (!entries) {
    if (o.metadata) delete o.metadata.managedFields;
    return o;
  }
  o.metadata ??= {};
  delete o.metadata.managedFields;
  o.metadata.managedFields = entries; // last, as ObjectMeta orders it
  return o;
}

function status(code: number, reason: string, message: string, details?: Status['details']): StatusError {
  // key order of the real body: kind, apiVersion, metadata, status, message, reason, details, code
  const s: Status = {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message,
    ...(reason ? { reason } : {}), ...(details ? { details } : {}), code,
  };
  return new StatusError(s);
}

/** A plain Go error surfacing from the handler: 500 with StatusReasonUnknown, which is "" and omitted (ErrorToAPIStatus). */
function internal(message: string): StatusError {
  return status(500, '', message);
}

function parseGV(apiVersion: unknown): { group: string; version: string } {
  if (typeof apiVersion !== 'string' || apiVersion === '') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: parts[0] };
  if (parts.length === 2) return { group: parts[0], version: parts[1] };
  return { group: '', version: '' }; // unparsable: the empty GroupVersionKind
}

/** Group names accept the `svc` spelling (docs/design.md 3). */
function canonicalGroup(g: string): string {
  return g.endsWith('.svc.io') ? g.slice(0, -'.svc.io'.length) + '.k8s.io' : g;
}

function gvkString(group: string, version: string, kind: string): string {
  return `${group}/${version}, Kind=${kind}`;
}

function objectGVKNN(o: KubeObject): string {
  const gv = parseGV(o.apiVersion);
  const kind = typeof o.kind === 'string' ? o.kind : '';
  return `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}; ${gvkString(gv.group, gv.version, kind)}`;
}

/**
 * The Update chain below the decoding (capManagers -> buildManagerInfo -> managedFieldsUpdater ->
 * stripMeta -> structured merge): the writer is first tracked as "current-operation" so that its own
 * earlier entry loses what changed, then merged into its entry, whose time is set only if it changed something.
 */
function trackUpdate(type: ObjectType, live: JsonObject, next: JsonObject, managed: Managed, manager: string, opts: ManagedOptions): Managed {
  const id = managerIdentifier({ manager: manager || 'unknown', operation: 'Update', apiVersion: opts.apiVersion, subresource: opts.subresource });
  const updater = new Updater(type.root, ignoredSet(opts));
  if (managed.fields.size === 0) {
    // no manager before this write (a create, a reset): the writer's set is what it added or changed, less
    // the never-tracked metadata, recorded under its own identifier at once (the chain below gives the same
    // entry: tracked as current-operation, stripped, then moved to an identifier that holds nothing yet)
    const set = updater.first(live, next).difference(STRIP);
    const out: Managed = { fields: new Map(), times: new Map(managed.times) };
    if (!set.empty()) {
      out.fields.set(id, { set, apiVersion: opts.apiVersion, applied: false });
      out.times.set(id, opts.time);
    }
    return out;
  }
  const self = 'current-operation';
  // the writer's set as it came in: the update takes what changed from every other entry, the writer's own
  // included, and gives it back below, so when the writer already owned all of it the union equals this set
  // and keeps it (its encoding then made once, merge/managed.ts)
  const before = managed.fields.get(id)?.set;
  // the usual update (a client or controller changing what it wrote before): no set changes, the steps below
  // would give every set back as it came; only the writer's time moves when something changed
  const owned = updater.owned(live, next, managed.fields, id, STRIP);
  if (!('cmp' in owned)) {
    const out: Managed = { fields: owned.managers, times: new Map(managed.times) };
    const vs = owned.managers.get(id)!;
    if (owned.changed) {
      out.fields.set(id, { set: kept(vs.set, before), apiVersion: opts.apiVersion, applied: false });
      out.times.set(id, opts.time);
    }
    capUpdateManagers(out);
    return out;
  }
  const fields = updater.update(live, next, opts.apiVersion, managed.fields, self, owned);
  const out: Managed = { fields, times: new Map(managed.times) };
  stripFields(out, self);
  const vs = out.fields.get(self);
  if (vs) {
    out.fields.delete(self);
    const prev = out.fields.get(id);
    out.fields.set(id, prev ? { set: kept(vs.set.union(prev.set), before), apiVersion: vs.apiVersion, applied: vs.applied } : vs);
    out.times.set(id, opts.time);
  }
  capUpdateManagers(out);
  return out;
}

function encodeInto(o: KubeObject, m: Managed): KubeObject {
  // times of managers that no longer exist are dropped with them
  return setManagedFields(o, encodeManagedFields(m));
}

// ---------------------------------------------------------------------------------------------------
// public API

/**
 * Records an Update entry for a create, an update or a non-apply patch. `live` is null on create.
 * Returns `next` with managedFields set (or removed when nothing is tracked): a new top level and
 * metadata, nested values kept where `next` owns them and copied where they are frozen (shared with a
 * stored state). `next` is handed over: the caller does not use it afterwards.
 *
 * managedFields sent by the writer:
 *  - `[{}]` (one empty entry) resets tracking; the reset is processed first, so the writer then owns
 *    what it changed in the same request (spec "managedFields entry" rule 8). Deviation from v1.33,
 *    which drops tracking entirely there (its skip for existing objects without managers).
 *  - `[]` is NOT a reset: it is treated like absent managedFields and the live entries are kept. The
 *    spec and the public docs say so; the v1.33 code resets on `[]` too (docs/design.md 7).
 *  - entries the real decoder rejects (bad operation, empty apiVersion, missing fieldsType, bad fieldsV1)
 *    are ignored and the live entries kept, as the real server does; so are entries sent to a subresource.
 */
export function updateManagedFields(type: ObjectType, live: KubeObject | null, next: KubeObject, opts: ManagedOptions): KubeObject {
  const sent = next.metadata?.managedFields as unknown;
  const liveManaged = (): Managed => {
    try {
      return decodeManagedFields(live?.metadata?.managedFields);
    } catch {
      return emptyManaged();
    }
  };
  let managed: Managed;
  let reset = false;
  if (opts.subresource) managed = liveManaged();
  else if (isResetManagedFields(sent)) {
    managed = emptyManaged();
    reset = true;
  } else {
    let decoded: Managed | undefined;
    try {
      decoded = decodeManagedFields(sent);
    } catch {
      decoded = undefined;
    }
    managed = decoded && decoded.fields.size > 0 ? decoded : liveManaged();
  }
  // `next` is handed over (the store does not use it again): its own nodes are kept, and the parts it
  // shares with a stored state are copied, so that what runs after this may write anywhere in `out`
  const out = handedOver(freshTop(next), opts.share) as KubeObject;
  // An existing object that has no managers is not tracked by updates (skipNonAppliedManager); only an
  // apply starts tracking it again, under before-first-apply.
  if (managed.fields.size === 0 && live && live.metadata?.uid && !reset) return out;
  // the comparison only reads both sides: a view of live, and `out` itself (a copy without managedFields)
  const liveObj = live ? viewWithoutManagedFields(live) : zeroView(type);
  const result = trackUpdate(type, liveObj, out as JsonObject, managed, opts.manager, opts);
  return encodeInto(out, result);
}

/**
 * Server-side apply of `config` onto `live` (null: the object does not exist yet). Returns the merged
 * object with managedFields; the caller defaults and validates it afterwards. Errors as the real server:
 * 400 for a wrong group/version/kind or managedFields in the configuration, 500 for a configuration the
 * schema cannot type (undeclared field, duplicate keys), 409 Conflict listing each conflicting field.
 */
export function applyPatch(type: ObjectType, live: KubeObject | null, config: KubeObject, opts: ManagedOptions & { force: boolean }): KubeObject {
  // FieldManager.Apply: the live managedFields must decode
  let managed: Managed;
  try {
    managed = decodeManagedFields(live?.metadata?.managedFields);
  } catch (e) {
    throw internal(`failed to decode managed fields: ${(e as Error).message}`);
  }

  // versionCheckManager: the configuration must be of the endpoint's group/version/kind
  const want = parseGV(opts.apiVersion);
  const got = parseGV(config.apiVersion);
  const wantKind = opts.kind ?? type.gvk?.kind ?? (typeof live?.kind === 'string' ? live.kind : undefined);
  const gotKind = typeof config.kind === 'string' ? config.kind : '';
  if (canonicalGroup(got.group) !== want.group || got.version !== want.version || (wantKind !== undefined ? gotKind !== wantKind : gotKind === '')) {
    throw status(400, 'BadRequest', `invalid object type: ${gvkString(got.group, got.version, gotKind)}`);
  }
  const cfg = clone(config);
  if (got.group !== want.group) cfg.apiVersion = opts.apiVersion;

  // live as it is (a view without managedFields: its nested values may be a stored state's, frozen); the
  // merge builds the new object and shares only what it takes whole from live, and applyCore copies those
  // parts before the object is handed on (the store defaults and prepares it in place)
  const liveObj: JsonObject = live ? freshTop(live) : {};

  // lastAppliedManager / lastAppliedUpdater: kubectl's own server-side applies upgrade from client-side apply
  let result: KubeObject;
  try {
    result = applyCore(type, liveObj, cfg, managed, opts, opts.force);
  } catch (e) {
    if (!(e instanceof ConflictsError)) throw e;
    if (opts.manager !== 'kubectl') throw conflictError(e.conflicts);
    const allowed = allowedConflictsFromLastApplied(type, live, opts.apiVersion);
    if (!allowed) throw conflictError(e.conflicts);
    const remaining = e.conflicts.filter((c) => !allowed.has(c.path));
    if (remaining.length > 0) throw conflictError(remaining);
    result = applyCore(type, liveObj, cfg, managed, opts, true);
  }
  if (opts.manager === 'kubectl') updateLastApplied(result, config);
  return result;
}

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * Conflicts kubectl may override when it moves from client-side to server-side apply: the fields of the
 * last-applied annotation whose values still match the live object.
 */
function allowedConflictsFromLastApplied(type: ObjectType, live: KubeObject | null, apiVersion: string): FieldSet | undefined {
  const raw = live?.metadata?.annotations?.[LAST_APPLIED];
  if (!raw) return undefined;
  let last: unknown;
  try {
    last = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (!isMap(last) || last.apiVersion !== apiVersion) return undefined;
  if (validate(type.root, last, false).length > 0) return undefined;
  const set = toFieldSet(type.root, last);
  const cmp = compare(type.root, last, live as JsonObject);
  return set.difference(cmp.modified).difference(cmp.added).difference(cmp.removed);
}

/** After a successful apply by kubectl, an existing last-applied annotation is rewritten from the config. */
function updateLastApplied(obj: KubeObject, config: KubeObject): void {
  let annotations = obj.metadata?.annotations;
  if (!annotations || !annotations[LAST_APPLIED]) return;
  // the result's metadata is its own; its annotations may be live's, shared (copy-on-write kinds)
  if (Object.isFrozen(annotations)) annotations = obj.metadata!.annotations = { ...annotations };
  const c = clone(config);
  if (c.metadata?.annotations) {
    delete c.metadata.annotations[LAST_APPLIED];
    if (Object.keys(c.metadata.annotations).length === 0) delete c.metadata.annotations;
  }
  // encoding/json of the unstructured map (sorted keys), as json.Encoder writes it (trailing newline)
  const value = goJSON(c as JsonValue) + '\n';
  annotations[LAST_APPLIED] = value;
  let total = 0;
  for (const [k, v] of Object.entries(annotations)) total += k.length + v.length;
  if (total > 256 * 1024) delete annotations[LAST_APPLIED]; // ValidateAnnotationsSize
}

/** skipNonApplied -> capManagers -> buildManagerInfo -> managedFieldsUpdater -> stripMeta -> structured merge. */
function applyCore(type: ObjectType, liveObj: JsonObject, cfg: KubeObject, managedIn: Managed, opts: ManagedOptions, force: boolean): KubeObject {
  let managed = managedIn;
  // skipNonAppliedManager: an object without managers first gets its existing fields recorded
  if (managed.fields.size === 0) {
    managed = trackUpdate(type, type.zero(), liveObj, managed, 'before-first-apply', opts);
  }

  // structuredMergeManager.Apply
  const meta = cfg.metadata as unknown;
  if (isMap(meta) && meta.managedFields !== undefined && meta.managedFields !== null) {
    throw status(400, 'BadRequest', 'metadata.managedFields must be nil');
  }
  const errs = validate(type.root, cfg as JsonValue, false);
  if (errs.length > 0) {
    const msg = errs.length === 1 ? errs[0] : ['errors:', ...errs.map((e) => '  ' + e)].join('\n');
    throw internal(`failed to create typed patch object (${objectGVKNN(cfg)}): ${msg}`);
  }

  const id = managerIdentifier({ manager: opts.manager || 'unknown', operation: 'Apply', subresource: opts.subresource });
  const updater = new Updater(type.root, ignoredSet(opts));
  const res = updater.apply(liveObj, cfg as JsonObject, opts.apiVersion, managed.fields, id, force);
  const out: Managed = { fields: res.managers, times: new Map(managed.times) };
  let object: KubeObject;
  if (res.object !== undefined) {
    out.times.set(id, opts.time);
    object = dropIntroducedNulls(res.object, liveObj, cfg as JsonObject) as KubeObject;
  } else object = freshTop(liveObj as KubeObject) as KubeObject; // live again (a no-op)
  stripFields(out, id, managed.fields.get(id)?.set);
  // the object's own: what it shares with live (frozen parts of a stored state) is copied
  return encodeInto(handedOver(object, opts.share), out);
}

/** 409 with one FieldManagerConflict cause per field (managedfields NewConflictError). */
function conflictError(conflicts: Conflict[]): StatusError {
  const causes = conflicts.map((c) => ({
    reason: 'FieldManagerConflict',
    message: `conflict with ${printManager(c.manager)}`,
    field: pathToString(c.path),
  }));
  let message: string;
  if (conflicts.length === 1) {
    message = `Apply failed with 1 conflict: conflict with ${printManager(conflicts[0].manager)}: ${pathToString(conflicts[0].path)}`;
  } else {
    const byManager = new Map<string, string[]>();
    for (const c of conflicts) {
      const l = byManager.get(c.manager) ?? [];
      l.push(pathToString(c.path));
      byManager.set(c.manager, l);
    }
    const lines: string[] = [];
    for (const m of [...byManager.keys()].sort()) {
      lines.push(`conflicts with ${printManager(m)}:`);
      for (const p of byManager.get(m)!) lines.push(`- ${p}`);
    }
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
  }
  return status(409, 'Conflict', message, { causes });
}

/**
 * Removing every owned member of a map leaves `null` behind in the real walker; once converted to a typed
 * object (or pruned as a non-nullable null) it disappears. Drop such nulls when neither side had them.
 */
function dropIntroducedNulls(v: JsonValue, live: JsonValue | undefined, cfg: JsonValue | undefined): JsonValue {
  // live's own value (the merge keeps what it did not change) has no null live lacks
  if (!isMap(v) || v === live) return v;
  // a map is copied only when something below it is dropped (nearly never): otherwise it is `v` itself
  let out: JsonObject | undefined;
  const lm = isMap(live) ? live : undefined;
  const cm = isMap(cfg) ? cfg : undefined;
  for (const k in v) {
    if (!Object.hasOwn(v, k)) continue;
    const val = v[k];
    const l = lm?.[k];
    const c = cm?.[k];
    const drop = val === null && l !== null && c !== null;
    const d = drop ? undefined : dropIntroducedNulls(val, l, c);
    if (out === undefined && (drop || d !== val)) {
      out = {};
      for (const p in v) {
        if (p === k) break;
        if (Object.hasOwn(v, p)) out[p] = v[p];
      }
    }
    if (out !== undefined && !drop) out[k] = d!;
  }
  return out ?? v;
}

// ---------------------------------------------------------------------------------------------------
// /scale

let scaleType: ObjectType | undefined;

/** autoscaling/v1 Scale, the object the scale subresource's field manager sees. */
function scaleObjectType(): ObjectType {
  if (scaleType) return scaleType;
  const int: Schema = { type: 'integer', format: 'int32' };
  const schema: Schema = {
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { $ref: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' },
      spec: { type: 'object', properties: { replicas: int } },
      status: { type: 'object', properties: { replicas: int, selector: { type: 'string' } }, required: ['replicas'] },
    },
  };
  const root = new SchemaConverter({}, false).root(schema);
  scaleType = { root, customResource: false, zero: () => ({ metadata: { creationTimestamp: null }, spec: {}, status: { replicas: 0 } }) };
  return scaleType;
}

function getPath(o: KubeObject | null, path: string[]): JsonValue | undefined {
  let cur: unknown = o;
  for (const f of path) {
    if (!isMap(cur)) return undefined;
    cur = cur[f];
  }
  return cur as JsonValue | undefined;
}

function scaleView(o: KubeObject, replicasPath: string[]): JsonObject {
  const replicas = getPath(o, replicasPath);
  return {
    apiVersion: 'autoscaling/v1',
    kind: 'Scale',
    metadata: { name: o.metadata?.name ?? '', namespace: o.metadata?.namespace ?? '', uid: o.metadata?.uid ?? '' },
    spec: replicas === undefined ? {} : { replicas },
  };
}

/**
 * managedFields of a write through the scale subresource (managedfields.ScaleHandler): the parent's owners
 * of the replicas field are mapped to a Scale object, the write is tracked there as an Update with
 * subresource "scale", and the result is mapped back. As in v1.33, the writer's parent entry then carries
 * the parent's apiVersion and no time (its Scale-side identity names autoscaling/v1, which the parent's
 * times never hold). `replicasPath` defaults to spec.replicas (a CRD's specReplicasPath otherwise).
 */
export function updateScaleManagedFields(live: KubeObject, next: KubeObject, opts: ManagedOptions & { replicasPath?: string[] }): KubeObject {
  const replicasPath = opts.replicasPath ?? ['spec', 'replicas'];
  const parentPath: Path = replicasPath.map((f) => ({ field: f }));
  const scalePath: Path = [{ field: 'spec' }, { field: 'replicas' }];
  const out = clone(next);
  let parent: Managed;
  try {
    parent = decodeManagedFields(live.metadata?.managedFields);
  } catch {
    return setManagedFields(out, live.metadata?.managedFields ? clone(live.metadata.managedFields) : undefined);
  }
  // ToSubresource
  let scale: Managed = emptyManaged();
  for (const [id, vs] of parent.fields) {
    if (!vs.set.has(parentPath)) continue;
    // encoded as autoscaling/v1 entries and decoded again by the scale endpoint: an Update manager's
    // identity now names autoscaling/v1 (so it never matches its parent entry again below)
    const info = parseIdentifier(id) ?? {};
    const sid = managerIdentifier({ ...info, apiVersion: 'autoscaling/v1' });
    scale.fields.set(sid, { set: FieldSet.of(scalePath), apiVersion: 'autoscaling/v1', applied: vs.applied });
    scale.times.set(sid, parent.times.get(id));
  }
  // the scale endpoint's field manager (an existing object without owners of replicas is not tracked)
  if (scale.fields.size > 0) {
    scale = trackUpdate(scaleObjectType(), scaleView(live, replicasPath), scaleView(next, replicasPath), scale, opts.manager, {
      ...opts,
      apiVersion: 'autoscaling/v1',
      subresource: 'scale',
      resetFields: undefined,
    });
  }
  // ToParent
  const result = emptyManaged();
  const remaining = new Map(scale.fields);
  for (const [id, vs] of parent.fields) {
    if (!vs.set.has(parentPath)) {
      result.fields.set(id, vs);
      result.times.set(id, parent.times.get(id));
      continue;
    }
    if (!remaining.has(id)) {
      const s = vs.set.difference(FieldSet.of(parentPath));
      if (!s.empty()) {
        result.fields.set(id, { ...vs, set: s });
        result.times.set(id, parent.times.get(id));
      }
    } else {
      result.fields.set(id, vs);
      result.times.set(id, parent.times.get(id));
      remaining.delete(id);
    }
  }
  for (const [id, vs] of remaining) {
    if (!vs.set.has(scalePath)) continue;
    result.fields.set(id, { set: FieldSet.of(parentPath), apiVersion: opts.apiVersion, applied: vs.applied });
    result.times.set(id, parent.times.get(id));
  }
  return encodeInto(out, result);
}
