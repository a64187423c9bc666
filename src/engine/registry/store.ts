// The generic store [K8S registry/generic/registry/store.go]: CRUD over ClusterState for any resource
// definition, calling the definition's strategy hooks. Handlers call this; it calls ClusterState, never a
// storage backend directly.

import type { Env } from '../env.js';
import { rfc3339 } from '../env.js';
import {
  GoRepr,
  OBJECT_MODIFIED,
  alreadyExists,
  badRequest,
  conflict,
  fieldErr,
  invalid,
  notFound,
  type FieldError,
  type GroupResource,
} from '../errors.js';
import { clone, handedOver, isPlainObject, type KubeObject, type ObjectMeta } from '../object.js';
import type { HistoryEvent, WriteOp } from '../storage/interface.js';
import { namespacePrefix, objectKey, resourcePrefix } from './keys.js';
import {
  nameIsDNS1035Label,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  nameIsPathSegment,
  validateObjectMeta,
  validateObjectMetaUpdate,
  type NameValidator,
} from '../util/validation.js';
import { fieldErrorString } from '../errors.js';
import type { ResourceRegistry } from './resources.js';
import { ClusterState, WriteConflict } from './state.js';
import { mutatingAdmission, validatingAdmission, type AdmissionEffects, type AdmissionRequest } from '../admission/index.js';
import { groupVersion, type ResourceDefinition, type StoreDeleteOptions, type StrategyContext } from './types.js';
import { undecodableValue } from '../storage/undecodable.js';
import { unreadableListError, unreadableObjectError } from './corrupt.js';
import { beforeDelete, gcFinalizers, markAsDeleting, shouldDeleteDuringUpdate } from './delete.js';
import { storageLocation, toRequestVersion, toStorageVersion } from './conversion.js';

/** Built-in resources whose strategies set metadata.generation (custom resources always do). */
const GENERATION_TRACKED = new Set([
  'apps/deployments',
  'apps/replicasets',
  'apps/statefulsets',
  'apps/daemonsets',
  'batch/jobs',
  'batch/cronjobs',
  'autoscaling/horizontalpodautoscalers',
  'policy/poddisruptionbudgets',
  'networking.k8s.io/networkpolicies',
  'networking.k8s.io/ingresses',
  'discovery.k8s.io/endpointslices',
  '/replicationcontrollers',
  'apiextensions.k8s.io/customresourcedefinitions',
  'admissionregistration.k8s.io/validatingadmissionpolicies',
  'admissionregistration.k8s.io/validatingadmissionpolicybindings',
]);

/** ObjectMeta fields in the order the real server serializes them. */
const META_ORDER = [
  'name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp',
  'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers',
  'managedFields',
];

/** ObjectMeta maps and lists tagged omitempty: an empty one is not serialized (every kind's metadata is typed). */
const OMIT_EMPTY_META = new Set(['labels', 'annotations', 'finalizers', 'ownerReferences', 'managedFields']);

function isEmpty(v: unknown): boolean {
  if (Array.isArray(v)) return v.length === 0;
  return isPlainObject(v) && Object.keys(v).length === 0;
}

/** kind, apiVersion, metadata first (in ObjectMeta order), then the rest, status last: the real JSON layout. */
export function normalizeLayout(obj: KubeObject): KubeObject {
  const out: KubeObject = {};
  if (obj.kind !== undefined) out.kind = obj.kind;
  if (obj.apiVersion !== undefined) out.apiVersion = obj.apiVersion;
  if (obj.metadata !== undefined) {
    const m = obj.metadata as Record<string, unknown>;
    const meta: Record<string, unknown> = {};
    for (const k of META_ORDER) if (m[k] !== undefined && !(OMIT_EMPTY_META.has(k) && isEmpty(m[k]))) meta[k] = m[k];
    for (const k of Object.keys(m)) if (!(k in meta) && m[k] !== undefined && !(OMIT_EMPTY_META.has(k) && isEmpty(m[k]))) meta[k] = m[k];
    out.metadata = meta as ObjectMeta;
  }
  for (const k of Object.keys(obj)) {
    if (k === 'kind' || k === 'apiVersion' || k === 'metadata' || k === 'status') continue;
    out[k] = obj[k];
  }
  if (obj.status !== undefined) out.status = obj.status;
  return out;
}

export interface WriteOptions {
  dryRun: boolean;
  /** Who asked (for admission); undefined for the engine's own writes. */
  admission?: AdmissionRequest;
  /** Called with the final object just before storage, e.g. to record managedFields. */
  finalize?: (obj: KubeObject, old: KubeObject | null) => KubeObject;
}

export interface WriteOutcome {
  object: KubeObject;
  /**
   * The stored object `object` presents, when the answer is one (not for dry runs or an object removed by
   * the write): its serialization is kept with it, so the answer and later reads of it share one.
   */
  stored?: KubeObject;
  created: boolean;
  warnings: string[];
}

export interface DeleteOutcome {
  /** The object as deleted (or as marked for deletion when not removed yet). */
  object: KubeObject;
  /** False when the object was only marked (finalizers or graceful deletion pending). */
  deleted: boolean;
  /**
   * The answer is the store's finalizeDelete (a Success Status unless the kind returns the deleted object):
   * true when the object was removed, or when a graceful deletion was already pending.
   */
  finalized: boolean;
  /** Warnings of validating admission (answered with the response). */
  warnings?: string[];
}

export interface Preconditions {
  uid?: string;
  resourceVersion?: string;
}

/**
 * How a write's attempt commits: `locked` when the whole attempt runs inside ClusterState.exclusive (the
 * last attempt of a write, and the engine's own writes without admission), so its commit takes no lock.
 */
interface Attempt {
  readonly locked: boolean;
  /** The cluster's revision when the attempt began to read: when it is still the current one, nothing changed. */
  readonly readAt: number;
  /**
   * What the attempt read of other objects through its StrategyContext (an optimistic attempt only): the
   * collections it listed (a Service's clusterIP and nodePorts are chosen against every Service, admission
   * reads quotas, limit ranges, policies) and the objects it got (the namespace). Its commit checks them
   * as it checks its own keys, so that two writes prepared together cannot both allocate one address.
   */
  listed?: string[];
  got?: string[];
  /**
   * The warnings the attempt has made so far (admission's, the strategy's): an attempt that runs again keeps
   * them for the answer, as the real server's warning recorder keeps what every attempt added.
   */
  warned?: readonly string[];
}
const LOCKED: Attempt = { locked: true, readAt: 0 };
const optimistic = (readAt: number): Attempt => ({ locked: false, readAt, listed: undefined, got: undefined });

/**
 * Attempts of a write prepared outside the lock before the last one runs under it. A retry happens only
 * when another write committed to one of the write's keys (or its quota) while it was prepared: each
 * retry means another write landed, so a few cover ordinary contention; the last attempt cannot fail so.
 */
const OPTIMISTIC_ATTEMPTS = 4;

/** A write's commit found a key it read written since (the CAS of GuaranteedUpdate failed): it runs again. */
class Stale extends Error {
  constructor(readonly key: string) {
    super(`${key} was written since it was read`);
  }
}

export class Store {
  /** The cluster's feature gates (set by the engine); the store reads AllowUnsafeMalformedObjectDeletion. */
  gates: Record<string, boolean> = {};

  constructor(
    readonly state: ClusterState,
    readonly resources: ResourceRegistry,
    readonly env: Env,
  ) {}

  gr(def: ResourceDefinition): GroupResource {
    return { group: def.group, resource: def.plural };
  }

  /** The storage key: every served form of a kind shares its storage location (registry/conversion.ts). */
  key(def: ResourceDefinition, namespace: string, name: string): string {
    const at = storageLocation(def);
    return objectKey(at.group, at.resource, def.namespaced ? namespace : '', name);
  }

  /**
   * The key prefix of a collection: a continue token's start key is relative to it, so for cluster-scoped
   * kinds it includes the empty namespace segment (`/core/namespaces//`), as the real keys have no segment
   * before the name.
   */
  prefix(def: ResourceDefinition, namespace: string): string {
    const at = storageLocation(def);
    if (!def.namespaced) return namespacePrefix(at.group, at.resource, '');
    return namespace ? namespacePrefix(at.group, at.resource, namespace) : resourcePrefix(at.group, at.resource);
  }

  context(subresource: string, dryRun: boolean, user?: StrategyContext['user'], tx?: Attempt): StrategyContext {
    // an optimistic attempt keeps what it reads (the last attempt runs under the lock: nothing to keep)
    const reads = tx && !tx.locked ? tx : undefined;
    return {
      env: this.env,
      now: this.env.clock.now(),
      dryRun,
      subresource,
      resources: this.resources,
      featureGates: this.gates,
      ...(user ? { user } : {}),
      list: (group, resource, namespace) => {
        const prefix = namespace ? namespacePrefix(group, resource, namespace) : resourcePrefix(group, resource);
        if (reads) (reads.listed ??= []).push(prefix);
        return this.state.list(prefix).map((s) => s.object);
      },
      get: (group, resource, namespace, name) => {
        const key = objectKey(group, resource, namespace, name);
        if (reads) (reads.got ??= []).push(key);
        return this.state.get(key)?.object;
      },
    };
  }

  /** The object as the client asked for it: a copy with apiVersion/kind of the requested version. */
  present(def: ResourceDefinition, obj: KubeObject): KubeObject {
    const copy = clone(toRequestVersion(def, obj));
    copy.apiVersion = groupVersion(def);
    copy.kind = def.kind;
    return normalizeLayout(copy);
  }

  /**
   * The object as answered to a write: apiVersion/kind of the requested version in the real layout. A shallow
   * view (nested values are shared with `obj`): responses only serialize it.
   */
  view(def: ResourceDefinition, obj: KubeObject): KubeObject {
    return normalizeLayout({ ...toRequestVersion(def, obj), apiVersion: groupVersion(def), kind: def.kind });
  }

  /**
   * The request's object as the real server decodes it before anything else runs: apiVersion/kind of the
   * requested version, the kind's defaults applied, and what the typed encoding of a built-in kind always
   * writes (`metadata.creationTimestamp: null` until the server sets it, an empty status). No system field
   * is set and nothing is stored: the audit log records this as the request object of a create or update.
   */
  decoded(def: ResourceDefinition, input: KubeObject, subresource: string): KubeObject {
    const obj = requestedCopy(def, input);
    if (!(def as { custom?: boolean }).custom) {
      const meta = obj.metadata as Record<string, unknown>;
      if (meta.creationTimestamp === undefined) meta.creationTimestamp = null;
      // the status struct is there before defaulting, as in the typed object
      if (def.subresources.status && obj.status === undefined) obj.status = {};
    }
    def.strategy.default?.(obj, this.context(subresource, true));
    return normalizeLayout(obj);
  }

  /** What is written: the object in the kind's storage version, in the real layout. */
  private stored(def: ResourceDefinition, obj: KubeObject): KubeObject {
    return normalizeLayout(toStorageVersion(def, obj));
  }

  /** Throws the storage layer's read error when the value stored for this object cannot be decoded. */
  assertReadable(def: ResourceDefinition, namespace: string, name: string): void {
    const bad = this.state.unreadable(this.key(def, namespace, name));
    if (bad) throw unreadableObjectError(def, namespace, name, bad, !!this.gates.AllowUnsafeMalformedObjectDeletion);
  }

  /** Throws the storage layer's list error when values under the collection's prefix cannot be decoded. */
  assertListable(def: ResourceDefinition, namespace: string): void {
    const bad = this.state.unreadableUnder(this.prefix(def, namespace));
    if (bad.length) throw unreadableListError(def, bad, !!this.gates.AllowUnsafeMalformedObjectDeletion);
  }

  get(def: ResourceDefinition, namespace: string, name: string): KubeObject {
    const item = this.state.get(this.key(def, namespace, name));
    if (!item) this.assertReadable(def, namespace, name);
    if (!item) throw notFound(this.gr(def), name);
    return this.present(def, item.object);
  }

  getStored(def: ResourceDefinition, namespace: string, name: string): KubeObject | undefined {
    return this.state.get(this.key(def, namespace, name))?.object;
  }

  private generationTracked(def: ResourceDefinition): boolean {
    return GENERATION_TRACKED.has(`${def.group}/${def.plural}`) || (def as { custom?: boolean }).custom === true;
  }

  /** Shared create path: system fields, defaulting, validation, storage. */
  async create(def: ResourceDefinition, namespace: string, input: KubeObject, opts: WriteOptions): Promise<WriteOutcome> {
    return this.attempts((tx) => this.createAttempt(tx, def, namespace, input, opts));
  }

  /**
   * One attempt of a create: everything up to the commit runs outside the write lock (admission may call
   * out); the commit checks under the lock that the name is still free and the admission effects' objects
   * unchanged. `viaUpdate`: the create of an update that found no object, which retries as a whole when
   * the name is taken meanwhile (the retry updates what is there).
   */
  private async createAttempt(tx: Attempt, def: ResourceDefinition, namespace: string, input: KubeObject, opts: WriteOptions, viaUpdate = false): Promise<WriteOutcome> {
    const ctx = this.context('', opts.dryRun, opts.admission?.user, tx);
    const obj = requestedCopy(def, input);
    const meta = obj.metadata as ObjectMeta;
    if (def.namespaced) meta.namespace = namespace;
    else delete meta.namespace;

    // rest.BeforeCreate: system fields are the server's
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
    delete meta.selfLink;
    meta.uid = this.env.ids.uid();
    meta.creationTimestamp = rfc3339(ctx.now);
    delete meta.resourceVersion;
    if (this.generationTracked(def)) meta.generation = 1;
    else delete meta.generation;
    if (def.subresources.status && !def.keepStatusOnCreate) {
      if ((def as { custom?: boolean }).custom) delete obj.status;
      else obj.status = {};
    }
    def.strategy.default?.(obj, ctx);
    // managedFields are recorded on the decoded, defaulted object, before mutating admission and the
    // strategy's preparation, as the real create handler runs its field manager first: what admission and
    // PrepareForCreate add belongs to no manager (a reset with `[{}]` is consumed here too)
    let final = opts.finalize ? opts.finalize(obj, null) : obj;
    let fmeta: ObjectMeta = (final.metadata ??= {});
    const mutated = mutatingAdmission({ operation: 'create', object: final, oldObject: null, def, namespace, name: fmeta.name ?? '', subresource: '', dryRun: opts.dryRun, ctx, request: opts.admission });
    const admitted = mutated instanceof Promise ? await mutated : mutated;
    def.strategy.prepareForCreate?.(final, ctx);
    const warnings = [...admitted.warnings, ...(def.strategy.warningsOnCreate?.(final, ctx) ?? [])];
    if (!tx.locked) tx.warned = warnings;

    // generateName: the real server (RetryGenerateName, on in 1.33) retries a few times on collision
    const generated = !fmeta.name && !!fmeta.generateName;
    if (generated) fmeta.name = fmeta.generateName + this.env.ids.suffix(5);

    const errs = this.validateCreate(def, final, ctx);
    if (errs.length) throw invalid({ group: def.group, kind: def.kind }, fmeta.name ?? fmeta.generateName ?? '', errs);
    const effects = this.effects();
    const validated = validatingAdmission({ operation: 'create', object: final, oldObject: null, def, namespace, name: fmeta.name ?? '', subresource: '', dryRun: opts.dryRun, ctx, request: opts.admission, effects: opts.dryRun ? undefined : effects });
    warnings.push(...(validated instanceof Promise ? await validated : validated));

    for (let attempt = 0; ; attempt++) {
      const key = this.key(def, namespace, fmeta.name!);
      const existing = this.state.get(key) ?? this.state.unreadable(key);
      if (existing) {
        if (viaUpdate) throw new Stale(key);
        if (generated && attempt < 7) {
          fmeta.name = fmeta.generateName + this.env.ids.suffix(5);
          continue;
        }
        throw alreadyExists(this.gr(def), fmeta.name!);
      }
      final = normalizeLayout(final);
      fmeta = final.metadata!;
      if (opts.dryRun) return { object: this.view(def, final), created: true, warnings };
      let events: HistoryEvent[];
      try {
        events = await this.commitOne({ kind: 'put', key, object: this.stored(def, final), expectRevision: 0 }, def, fmeta.name!, effects.ops(), tx);
      } catch (e) {
        // the name was taken since it was found free: the loop above answers as if it had been taken before
        // (AlreadyExists, or the next generated name); a changed quota retries the whole create
        if (e instanceof Stale && e.key === key && !viaUpdate) continue;
        throw e;
      }
      return { object: this.view(def, events[0].object), stored: events[0].object, created: true, warnings };
    }
  }

  /**
   * The kind's validation (built-in strategies validate ObjectMeta themselves, with their own name rules);
   * kinds without a validate hook (custom resources) get the generic ObjectMeta validation.
   */
  validateCreate(def: ResourceDefinition, obj: KubeObject, ctx: StrategyContext): FieldError[] {
    if (def.strategy.validate) return dedupe(def.strategy.validate(obj, ctx));
    return dedupe(validateObjectMeta(obj.metadata, { namespaced: def.namespaced, nameValidator: nameValidatorFor(def) }));
  }

  validateUpdate(def: ResourceDefinition, obj: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[] {
    if (def.strategy.validateUpdate) return dedupe(def.strategy.validateUpdate(obj, old, ctx));
    return dedupe(validateObjectMetaUpdate(obj.metadata, old.metadata));
  }

  /**
   * Read-modify-write of one object under the write lock (rest.Update / GuaranteedUpdate). `tryUpdate`
   * receives the current stored object (null when missing) and returns the desired object, or throws.
   */
  async update(
    def: ResourceDefinition,
    namespace: string,
    name: string,
    subresource: string,
    tryUpdate: (current: KubeObject | null) => KubeObject | Promise<KubeObject>,
    opts: WriteOptions & { createOnMissing?: boolean; expectResourceVersion?: string; preconditions?: Preconditions },
  ): Promise<WriteOutcome> {
    return this.attempts(async (tx) => {
      const key = this.key(def, namespace, name);
      const item = this.state.get(key);
      if (!item) this.assertReadable(def, namespace, name);
      // GuaranteedUpdate: a missing object is NotFound before the update function runs, unless creating
      if (!item && !opts.createOnMissing) throw notFound(this.gr(def), name);
      // a shallow view of the stored object (top level and metadata copied): the update function and the
      // strategies read it and never modify nested values in place
      const current = item ? this.view(def, item.object) : null;
      const pre = opts.preconditions;
      if (item && pre?.uid !== undefined && pre.uid !== item.object.metadata?.uid) {
        // storage preconditions fail as an invalid-object StorageError, reported as a Conflict
        throw conflict(this.gr(def), name, `StorageError: invalid object, Code: 4, Key: ${storageKey(def, namespace, name)}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${item.object.metadata?.uid ?? ''}`);
      }
      const tried = tryUpdate(current);
      const desired = tried instanceof Promise ? await tried : tried;
      if (!item) {
        const meta = (desired.metadata ??= {});
        if (!meta.name) meta.name = name;
        return this.createAttempt(tx, def, namespace, desired, opts, true).then((o) => ({ ...o, created: true }));
      }
      // the update function must not modify `current` (it is the old object from here on); what it returns
      // belongs to the store (for this attempt: a retry calls it again, and it answers a fresh object)
      return this.updateAttempt(tx, def, namespace, name, subresource, current!, item.revision, desired, opts);
    });
  }

  /**
   * storage.GuaranteedUpdate without the strategy: `tryUpdate` gets a copy of the stored object and returns
   * the new one, which is written as is (the pod binding REST writes so; no field manager, no validation).
   * A thrown non-Status error is the caller's to interpret.
   */
  async guaranteedUpdate(
    def: ResourceDefinition,
    namespace: string,
    name: string,
    tryUpdate: (current: KubeObject) => KubeObject,
    opts: { dryRun: boolean; preconditions?: Preconditions },
  ): Promise<KubeObject> {
    return this.state.exclusive(async () => {
      const key = this.key(def, namespace, name);
      const item = this.state.get(key);
      if (!item) throw notFound(this.gr(def), name);
      const pre = opts.preconditions;
      const failed = (what: string, want: string, have: string) =>
        conflict(this.gr(def), name, `StorageError: invalid object, Code: 4, Key: ${storageKey(def, namespace, name)}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: ${what} in precondition: ${want}, ${what} in object meta: ${have}`);
      if (pre?.uid && pre.uid !== item.object.metadata?.uid) throw failed('UID', pre.uid, String(item.object.metadata?.uid ?? ''));
      if (pre?.resourceVersion && pre.resourceVersion !== String(item.revision)) throw failed('ResourceVersion', pre.resourceVersion, String(item.revision));
      const next = normalizeLayout(tryUpdate(clone(item.object)));
      if (opts.dryRun || deepEqual(next, item.object)) return this.present(def, next);
      const events = await this.commitOne({ kind: 'put', key, object: next, expectRevision: item.revision }, def, name);
      return this.present(def, events[0].object);
    });
  }

  /**
   * Writes a kind's defaulting or preparation has met a frozen part in: a copy-on-write kind's writers
   * write only what changes, so over the stored state's shared parts they write nothing, unless that state
   * lacks something they set (a state stored before a default existed). Then `write` runs again over a
   * copy of the frozen parts (the writers are idempotent) and this counts it; frozen-writes.test.ts holds
   * it at zero over the catalog, so that an in-place writer does not hide behind this net.
   */
  copyOnWriteFallbacks = 0;

  private writeInPlace(def: ResourceDefinition, obj: KubeObject, write: (o: KubeObject) => void): KubeObject {
    if (!def.copyOnWrite) {
      write(obj);
      return obj;
    }
    try {
      write(obj);
      return obj;
    } catch (e) {
      // the TypeError of a write into a frozen object (strict mode); any other error is the writer's own
      if (!(e instanceof TypeError)) throw e;
      this.copyOnWriteFallbacks++;
      const own = handedOver(obj);
      write(own);
      return own;
    }
  }

  private async updateAttempt(
    tx: Attempt,
    def: ResourceDefinition,
    namespace: string,
    name: string,
    subresource: string,
    old: KubeObject,
    revision: number,
    desired: KubeObject,
    opts: WriteOptions & { expectResourceVersion?: string },
  ): Promise<WriteOutcome> {
    const ctx = this.context(subresource, opts.dryRun, opts.admission?.user, tx);
    const stored = old;
    const oldMeta = old.metadata ?? {};
    const rv = opts.expectResourceVersion ?? desired.metadata?.resourceVersion;
    // a resourceVersion unset or "0" asks for an unconditional update, which the kind's strategy allows or
    // refuses (AllowUnconditionalUpdate); any other must be the current one
    const unconditional = rv === undefined || rv === null || rv === '' || rv === '0';
    if (!unconditional && rv !== String(revision)) {
      throw conflict(this.gr(def), name, OBJECT_MODIFIED);
    }
    if (unconditional && def.strategy.allowUnconditionalUpdate === false) {
      // the real store names the resource (plural) as the kind here, and prints the uint64 zero as %#v
      throw invalid({ group: def.group, kind: def.plural }, name, [
        fieldErr.invalid('metadata.resourceVersion', new GoRepr('0x0'), 'must be specified for an update'),
      ]);
    }
    let obj = desired === old ? clone(desired) : desired;
    obj.apiVersion = groupVersion(def);
    obj.kind = def.kind;
    const meta: ObjectMeta = (obj.metadata = isPlainObject(obj.metadata) ? (obj.metadata as ObjectMeta) : {});
    // fields the client may not change (rest.BeforeUpdate / ValidateObjectMetaUpdate reject; we keep system ones)
    // rest.BeforeUpdate: the existing UID when none is given (a different one fails validation)
    if (!meta.uid) meta.uid = oldMeta.uid;
    meta.creationTimestamp = oldMeta.creationTimestamp;
    meta.resourceVersion = oldMeta.resourceVersion;
    // rest.BeforeUpdate: an update never removes or changes a deletion timestamp or grace period (setting
    // one on a live object fails validation: the fields are immutable)
    if (oldMeta.deletionTimestamp) meta.deletionTimestamp = oldMeta.deletionTimestamp;
    if (oldMeta.deletionGracePeriodSeconds !== undefined && oldMeta.deletionGracePeriodSeconds !== null && (meta.deletionGracePeriodSeconds === undefined || meta.deletionGracePeriodSeconds === null)) {
      meta.deletionGracePeriodSeconds = oldMeta.deletionGracePeriodSeconds;
    }
    if (oldMeta.generation !== undefined) meta.generation = oldMeta.generation;
    else delete meta.generation;
    if (def.namespaced) meta.namespace = namespace;
    else delete meta.namespace;
    delete meta.selfLink;

    if (subresource === 'status' || subresource === 'approval') {
      // the status strategy: everything but metadata and status stays as stored (spec is reset); of the
      // metadata, the kind's pinned fields stay too (all of it for custom resources); the approval strategy
      // (certificatesigningrequests) narrows the status further
      // a copy-on-write kind keeps the stored parts (frozen, shared) and takes the request's status as it
      // is (the request's object is the store's from here on); others copy both
      const cow = def.copyOnWrite === true;
      const next: KubeObject = cow ? { ...old, metadata: { ...old.metadata } } : clone(old);
      if (desired.status !== undefined) next.status = cow ? desired.status : clone(desired.status);
      else delete next.status;
      const pinned = def.statusPinnedMetadata ?? [];
      if (pinned === 'all') {
        next.metadata = { ...next.metadata, managedFields: meta.managedFields };
      } else {
        const m: ObjectMeta = { ...meta };
        for (const f of pinned) {
          if (oldMeta[f] !== undefined) (m as Record<string, unknown>)[f] = cow ? oldMeta[f] : clone(oldMeta[f] as object);
          else delete m[f];
        }
        next.metadata = m;
      }
      if (meta.managedFields === undefined) delete next.metadata!.managedFields;
      obj = next;
    } else if (def.subresources.status) {
      // a copy-on-write kind shares the stored status (frozen): nothing after this writes it in place
      if (old.status !== undefined) obj.status = def.copyOnWrite ? old.status : clone(old.status);
      else delete obj.status;
    }

    if (def.strategy.default) obj = this.writeInPlace(def, obj, (o) => def.strategy.default!(o, ctx));
    // managedFields first, then mutating admission and the strategy's preparation (the real update handler
    // runs the field manager before admission, and the store prepares the object after both)
    let final = opts.finalize ? opts.finalize(obj, old) : obj;
    const mutated = mutatingAdmission({ operation: 'update', object: final, oldObject: old, def, namespace, name, subresource, dryRun: opts.dryRun, ctx, request: opts.admission });
    const admitted = mutated instanceof Promise ? await mutated : mutated;
    if (def.strategy.prepareForUpdate) final = this.writeInPlace(def, final, (o) => def.strategy.prepareForUpdate!(o, old, ctx));

    // whether anything but metadata and status changed, when the kind's generation needed it (then a
    // no-op check below need not walk the spec again)
    let specDiffers: boolean | undefined;
    if (this.generationTracked(def) && subresource !== 'status' && subresource !== 'approval') {
      specDiffers = specChanged(old, final);
      if (specDiffers) final.metadata!.generation = (oldMeta.generation ?? 0) + 1;
    }
    const errs = this.validateUpdate(def, final, old, ctx);
    if (errs.length) throw invalid({ group: def.group, kind: def.kind }, name, errs);
    const warnings = [...admitted.warnings, ...(def.strategy.warningsOnUpdate?.(final, old, ctx) ?? [])];
    if (!tx.locked) tx.warned = warnings;
    const effects = this.effects();
    const validated = validatingAdmission({ operation: 'update', object: final, oldObject: old, def, namespace, name, subresource, dryRun: opts.dryRun, ctx, request: opts.admission, effects: opts.dryRun ? undefined : effects });
    warnings.push(...(validated instanceof Promise ? await validated : validated));
    final = normalizeLayout(final);
    // A no-op write is not persisted and keeps the resourceVersion (the real server skips the etcd write).
    if (specDiffers !== true && sameIgnoringRV(final, old, specDiffers === false)) {
      // only from the current object, as GuaranteedUpdate reads again before it answers a no-op found on a
      // cached state: a write of the object since this attempt read it makes the update run again on it
      // (the key is built only when something was committed since)
      if (this.state.revision !== tx.readAt) this.assertUnchanged(tx, [{ key: this.key(def, namespace, name), expectRevision: revision }], false);
      return { object: this.view(def, stored), stored, created: false, warnings };
    }
    if (opts.dryRun) return { object: this.view(def, final), created: false, warnings };

    // finalizers emptied on a terminating object (ShouldDeleteDuringUpdate): the object goes away, and the
    // answer is the object as requested
    if (shouldDeleteDuringUpdate(def, final, old)) {
      await this.commitOne({ kind: 'delete', key: this.key(def, namespace, name), expectRevision: revision }, def, name, [], tx);
      return { object: this.view(def, final), created: false, warnings };
    }
    const events = await this.commitOne(
      { kind: 'put', key: this.key(def, namespace, name), object: this.stored(def, final), expectRevision: revision },
      def,
      name,
      effects.ops(),
      tx,
    );
    return { object: this.view(def, events[0].object), stored: events[0].object, created: false, warnings };
  }

  /**
   * Deletes one object as the generic store does [K8S store.go Delete]: preconditions and graceful deletion
   * (rest.BeforeDelete), the garbage collector's finalizers from the propagation policy, then either marks
   * the object (deletionTimestamp; it stays while finalizers or a grace period remain) or removes it.
   */
  async delete(def: ResourceDefinition, namespace: string, name: string, opts: StoreDeleteOptions): Promise<DeleteOutcome> {
    return this.attempts((tx) => this.deleteAttempt(tx, def, namespace, name, { ...opts }));
  }

  private async deleteAttempt(tx: Attempt, def: ResourceDefinition, namespace: string, name: string, options: StoreDeleteOptions): Promise<DeleteOutcome> {
    const key = this.key(def, namespace, name);
    const item = this.state.get(key);
    if (!item) this.assertReadable(def, namespace, name);
    if (!item) throw notFound(this.gr(def), name);
    const now = this.env.clock.now();
    const validated = validatingAdmission({ operation: 'delete', object: null, oldObject: this.present(def, item.object), def, namespace, name, subresource: '', dryRun: options.dryRun, ctx: this.context('', options.dryRun, undefined, tx), request: options.admission });
    const warnings = validated instanceof Promise ? await validated : validated;
    if (!tx.locked) tx.warned = warnings;
    // the revision the removal expects: the one read, or the one the write below made
    let revision = item.revision;
    const put = async (obj: KubeObject): Promise<KubeObject> => {
      const next = normalizeLayout(obj);
      // GuaranteedUpdate writes nothing when nothing changed
      if (deepEqual(next, item.object)) return this.present(def, item.object);
      if (options.dryRun) return this.present(def, next);
      const events = await this.commitOne({ kind: 'put', key, object: next, expectRevision: item.revision }, def, name, [], tx);
      revision = events[0].revision;
      return this.present(def, events[0].object);
    };
    const generic = () => this.genericDelete(tx, def, key, name, item.object, () => revision, options, now, put);
    const out = def.strategy.restDelete
      ? await def.strategy.restDelete({ def, name, current: this.present(def, item.object), options, now, put, generic })
      : await generic();
    return warnings.length ? { ...out, warnings } : out;
  }

  /**
   * The corrupt-object deleter [K8S registry corrupt_obj_deleter.go], for a delete with
   * ignoreStoreReadErrorWithClusterBreakingPotential: refused (422) unless the stored value cannot be
   * decoded; then the normal deletion is tried (it fails on the read) and the key is removed from storage
   * directly: no preconditions, no finalizers, no graceful deletion, no admission. True when removed.
   */
  async unsafeDelete(def: ResourceDefinition, namespace: string, name: string): Promise<boolean> {
    return this.state.exclusive(async () => {
      const key = this.key(def, namespace, name);
      const bad = this.state.unreadable(key);
      if (!bad) {
        throw invalid({ group: def.group, kind: def.plural }, name, [
          fieldErr.invalid('ignoreStoreReadErrorWithClusterBreakingPotential', true, 'is exclusively used to delete corrupt object(s), try again by removing this option'),
        ]);
      }
      const result = await this.state.commit([{ kind: 'delete', key }], this.env.clock.now()).catch((e: unknown) => {
        if (e instanceof WriteConflict && e.result.reason === 'not-found') return undefined;
        throw e;
      });
      return result !== undefined;
    });
  }

  /**
   * The playground's corruption simulation (storage/undecodable.ts): the object's stored value becomes
   * undecodable bytes, written as one storage transaction like any write. False when it already was.
   */
  async corrupt(def: ResourceDefinition, namespace: string, name: string): Promise<boolean> {
    return this.state.exclusive(async () => {
      const key = this.key(def, namespace, name);
      if (this.state.unreadable(key)) return false;
      const item = this.state.get(key);
      if (!item) throw notFound(this.gr(def), name);
      await this.commitOne({ kind: 'put', key, object: undecodableValue(item.object), expectRevision: item.revision }, def, name);
      return true;
    });
  }

  private async genericDelete(
    tx: Attempt,
    def: ResourceDefinition,
    key: string,
    name: string,
    stored: KubeObject,
    revision: () => number,
    options: StoreDeleteOptions,
    now: number,
    put: (obj: KubeObject) => Promise<KubeObject>,
  ): Promise<DeleteOutcome> {
    const obj = clone(stored);
    const { graceful, pending } = beforeDelete(def, obj, options, now);
    // a graceful deletion already under way: nothing changes (finalizers cannot be changed through options now)
    if (pending) return { object: this.present(def, stored), deleted: false, finalized: true };
    const meta = obj.metadata!;
    const gc = gcFinalizers(def, meta, options);
    let out: KubeObject | undefined;
    if (graceful || (meta.finalizers ?? []).length > 0 || gc.changed) {
      if (gc.changed) meta.finalizers = gc.finalizers;
      const pendingFinalizers = (meta.finalizers ?? []).length > 0;
      if (!graceful && pendingFinalizers) {
        markAsDeleting(meta, now);
        return { object: await put(obj), deleted: false, finalized: false };
      }
      if (graceful) {
        out = await put(obj);
        if (pendingFinalizers || (options.gracePeriodSeconds ?? 0) > 0) return { object: out, deleted: false, finalized: false };
        if (options.dryRun) return { object: out, deleted: true, finalized: true };
      }
    }
    if (options.dryRun) return { object: this.present(def, stored), deleted: true, finalized: true };
    // the state read (or the one this deletion just wrote): a write since then makes the deletion retry
    const events = await this.commitOne({ kind: 'delete', key, expectRevision: revision() }, def, name, [], tx);
    return { object: this.present(def, events[0].object), deleted: true, finalized: true };
  }

  /**
   * Throws Stale when a commit since the optimistic attempt `tx` began to read has written one of its own
   * keys (each at the revision it expects) or, with `reads`, what it read of other objects (a collection it
   * listed, an object it got; the retry queues behind the others that lost on the same read).
   */
  private assertUnchanged(tx: Attempt, own: readonly { key: string; expectRevision?: number }[], reads: boolean): void {
    // nothing committed or queued since the attempt began to read: everything is as it read it
    if (tx.locked) return;
    const state = this.state;
    const queued = state.queued;
    if (!queued && state.revision === tx.readAt) return;
    for (let i = 0; i < own.length; i++) {
      const o = own[i];
      // a commit queued (not yet durable) on one of its keys: the write runs again once it is applied
      if (queued && state.queuedWrite(o.key, true)) throw new Stale(o.key);
      if (o.expectRevision !== undefined && this.revisionOf(o.key) !== o.expectRevision) throw new Stale(o.key);
    }
    if (!reads) return;
    const { listed, got } = tx;
    if (listed) for (let i = 0; i < listed.length; i++) if (state.writtenSince(listed[i], tx.readAt, false) || state.queuedWrite(listed[i], false)) throw new Stale(listed[i]);
    if (got) for (let i = 0; i < got.length; i++) if (state.writtenSince(got[i], tx.readAt, true) || state.queuedWrite(got[i], true)) throw new Stale(got[i]);
  }

  /** The revision of what is stored under `key` (0: nothing), as a WriteOp's expectRevision names it. */
  private revisionOf(key: string): number {
    return (this.state.get(key) ?? this.state.unreadable(key))?.revision ?? 0;
  }

  /** Writes that found what they read changed at their commit and started again (Stale), since the start. */
  retries = 0;

  /**
   * Runs a write as the real server's GuaranteedUpdate does: `run` reads the current state and prepares
   * the write outside the write lock (the strategy, managedFields, admission, which may await a webhook),
   * then commits under the lock only if nothing it read has changed; if something has, it runs again from
   * a fresh read. Bounded: after OPTIMISTIC_ATTEMPTS the last attempt runs whole under the lock, where
   * nothing can change under it (the engine as it was before: progress is certain, and a write that keeps
   * losing to others still ends).
   */
  private async attempts<T extends { warnings?: string[] }>(run: (tx: Attempt) => Promise<T>): Promise<T> {
    // the first attempt starts a microtask after the call, as the lock's turn started it before: writes
    // still reach the lock in the order they were called, and an error thrown early (an apply's 409) is
    // made on a short stack (run from the handler's stack, the apply conflict row read 1.04x-1.05x of main;
    // from a microtask 1.01x)
    await undefined;
    const first = optimistic(this.state.revision);
    try {
      return await run(first);
    } catch (e) {
      if (!(e instanceof Stale)) throw e;
      return this.retry(run, e, [...(first.warned ?? [])]);
    }
  }

  /** The attempts after the first lost; the answer also carries the warnings of those that lost (`earlier`). */
  private async retry<T extends { warnings?: string[] }>(run: (tx: Attempt) => Promise<T>, stale: Stale, earlier: string[]): Promise<T> {
    const withEarlier = (out: T): T => (earlier.length ? { ...out, warnings: [...earlier, ...(out.warnings ?? [])] } : out);
    for (let i = 1; i < OPTIMISTIC_ATTEMPTS; i++) {
      this.retries++;
      let tx: Attempt | undefined;
      try {
        return withEarlier(
          await this.oneAtATime(stale.key, async () => {
            // the commits queued when it lost (group commit) are applied first: it reads what they wrote
            if (this.state.queued) await this.state.settled();
            return run((tx = optimistic(this.state.revision)));
          }),
        );
      } catch (e) {
        if (!(e instanceof Stale)) throw e;
        stale = e;
        if (tx?.warned) earlier.push(...tx.warned);
      }
    }
    this.retries++;
    return withEarlier(await this.state.exclusive(() => run(LOCKED)));
  }

  /** The retries in flight by the key they lost on: the tail of each key's queue (emptied as they end). */
  private readonly retrying = new Map<string, Promise<unknown>>();

  /**
   * Runs `fn` after the retries of `key` queued before it. A burst of writes of one object would otherwise
   * prepare together after each commit, and all but one lose again (n writes, n²/2 attempts); queued, each
   * retry reads the state the one before it left. First attempts do not queue: the common write pays
   * nothing, and a slow webhook holds back only retries of the key its write lost on.
   */
  private async oneAtATime<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const before = this.retrying.get(key);
    const run = before ? before.then(fn, fn) : fn();
    const tail = run.catch(() => undefined);
    this.retrying.set(key, tail);
    try {
      return await run;
    } finally {
      if (this.retrying.get(key) === tail) this.retrying.delete(key);
    }
  }

  /**
   * What validating admission stores beside the request's own write (ResourceQuota's charge): collected
   * while admission runs, committed in the same transaction after the request's own operation.
   */
  private effects(): AdmissionEffects & { ops(): WriteOp[] } {
    const puts = new Map<string, WriteOp>();
    return {
      put: (group, resource, namespace, name, object) => {
        const key = objectKey(group, resource, namespace, name);
        const cur = this.state.get(key);
        if (!cur) return;
        puts.set(key, { kind: 'put', key, object: normalizeLayout(object), expectRevision: cur.revision });
      },
      ops: () => [...puts.values()],
    };
  }

  /**
   * Commits `op` (its event comes first) with the admission effects `also`. Under the write lock already
   * (`tx` locked) it commits at once; otherwise it takes the lock, and throws Stale when a key the write
   * read has been written since (its expectRevision is no longer the key's revision), before any storage.
   */
  private async commitOne(op: WriteOp, def: ResourceDefinition, name: string, also: WriteOp[] = [], tx: Attempt = LOCKED): Promise<HistoryEvent[]> {
    const ops = also.length ? [op, ...also] : [op];
    try {
      if (tx.locked) return await this.state.commit(ops, this.env.clock.now());
      return await this.state.commitQueued(() => this.assertUnchanged(tx, ops, true), ops, () => this.env.clock.now());
    } catch (e) {
      if (e instanceof WriteConflict) {
        if (e.result.reason === 'exists') throw alreadyExists(this.gr(def), name);
        if (e.result.reason === 'not-found') throw notFound(this.gr(def), name);
        throw conflict(this.gr(def), name, OBJECT_MODIFIED);
      }
      throw e;
    }
  }
}

const NAME_VALIDATORS: Record<string, NameValidator> = {
  '/namespaces': nameIsDNSLabel,
  '/services': nameIsDNS1035Label,
  'rbac.authorization.k8s.io/roles': nameIsPathSegment,
  'rbac.authorization.k8s.io/clusterroles': nameIsPathSegment,
  'rbac.authorization.k8s.io/rolebindings': nameIsPathSegment,
  'rbac.authorization.k8s.io/clusterrolebindings': nameIsPathSegment,
};

/** How each kind validates metadata.name (most: DNS-1123 subdomain). */
export function nameValidatorFor(def: ResourceDefinition): NameValidator {
  return NAME_VALIDATORS[`${def.group}/${def.plural}`] ?? nameIsDNSSubdomain;
}

function dedupe(errs: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errs.filter((e) => {
    const k = fieldErrorString(e);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** A copy of a request's object with apiVersion/kind of the requested version and a metadata object. */
function requestedCopy(def: ResourceDefinition, input: KubeObject): KubeObject {
  const obj = clone(input);
  obj.apiVersion = groupVersion(def);
  obj.kind = def.kind;
  obj.metadata = isPlainObject(obj.metadata) ? (obj.metadata as ObjectMeta) : {};
  return obj;
}

/** The etcd key the real server would use (named in storage precondition errors). */
function storageKey(def: ResourceDefinition, namespace: string, name: string): string {
  const custom = (def as { custom?: boolean }).custom === true;
  const res = custom && def.group ? `${def.group}/${def.plural}` : def.plural;
  return `/registry/${res}/${def.namespaced ? `${namespace}/` : ''}${name}`;
}


/** Anything but metadata and status changed (the generation rule of most strategies and of custom resources). */
export function specChanged(a: KubeObject, b: KubeObject): boolean {
  const strip = (o: KubeObject) => {
    const { metadata: _m, status: _s, apiVersion: _a, kind: _k, ...rest } = o;
    return rest;
  };
  return !deepEqual(strip(a), strip(b));
}

/**
 * Equal but for the resourceVersion and the managedFields timestamps (which change on every write: a write
 * that changes nothing else is still a no-op). `specEqual`: everything but metadata and status is known to
 * be equal already (specChanged said so), so only those are compared.
 */
function sameIgnoringRV(a: KubeObject, b: KubeObject, specEqual = false): boolean {
  // the members outside metadata first, without copying anything: one that differs (the common case of a
  // write) makes the write no no-op; each is walked once
  if (specEqual) {
    if (a.apiVersion !== b.apiVersion || a.kind !== b.kind || !deepEqual(a.status, b.status)) return false;
  } else {
    for (const k in a) if (k !== 'metadata' && Object.hasOwn(a, k) && !deepEqual(a[k], b[k])) return false;
    // a member b has and a lacks
    for (const k in b) if (k !== 'metadata' && Object.hasOwn(b, k) && b[k] !== undefined && !(Object.hasOwn(a, k) && a[k] !== undefined)) return false;
  }
  return sameMetaIgnoringRV(a.metadata ?? {}, b.metadata ?? {});
}

/**
 * deepEqual of two ObjectMetas but resourceVersion and the managedFields entries' times, without copying
 * either (the entries of a write that changed nothing are the stored ones but for their times).
 */
function sameMetaIgnoringRV(ma: ObjectMeta, mb: ObjectMeta): boolean {
  let n = 0;
  for (const k in ma) {
    if (!Object.hasOwn(ma, k) || k === 'resourceVersion') continue;
    const v = ma[k];
    if (v === undefined) continue;
    if (!Object.hasOwn(mb, k)) return false;
    if (k === 'managedFields' ? !sameEntriesIgnoringTime(v, mb[k]) : !deepEqual(v, mb[k])) return false;
    n++;
  }
  for (const k in mb) if (Object.hasOwn(mb, k) && k !== 'resourceVersion' && mb[k] !== undefined && --n < 0) return false;
  return n === 0;
}

function sameEntriesIgnoringTime(a: unknown, b: unknown): boolean {
  if (!Array.isArray(a) || !Array.isArray(b)) return deepEqual(a, b);
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const ea = a[i];
    const eb = b[i];
    if (ea === eb) continue;
    if (!isPlainObject(ea) || !isPlainObject(eb)) {
      if (!deepEqual(ea, eb)) return false;
      continue;
    }
    let n = 0;
    for (const k in ea) {
      if (!Object.hasOwn(ea, k) || k === 'time' || ea[k] === undefined) continue;
      if (!Object.hasOwn(eb, k) || !deepEqual(ea[k], eb[k])) return false;
      n++;
    }
    for (const k in eb) if (Object.hasOwn(eb, k) && k !== 'time' && eb[k] !== undefined && --n < 0) return false;
    if (n !== 0) return false;
  }
  return true;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  // the defined members of `a` equal those of `b`, and `b` has no more of them (no key arrays made: the
  // no-op check of every write walks whole objects)
  const oa = a as Record<string, unknown>;
  const ob = b as Record<string, unknown>;
  let n = 0;
  for (const k in oa) {
    if (!Object.hasOwn(oa, k)) continue;
    const v = oa[k];
    if (v === undefined) continue;
    if (!Object.hasOwn(ob, k) || !deepEqual(v, ob[k])) return false;
    n++;
  }
  for (const k in ob) if (Object.hasOwn(ob, k) && ob[k] !== undefined && --n < 0) return false;
  return n === 0;
}

export { badRequest };
