// The contract of a served resource: one definition per group/version/resource. Built-in kinds export one
// from resources/<plural>/index.ts; a CRD produces the same shape at runtime. Strategies are data (objects
// of optional hooks), not subclasses [K8S registry/rest]. The generic store (registry/store.ts) supplies
// CRUD and watch and calls these hooks.

import type { Env } from '../env.js';
import type { FieldError } from '../errors.js';
import type { KubeObject } from '../object.js';
import type { Schema, SchemaRegistry } from '../schema/types.js';
import type { AdmissionRequest } from '../admission/types.js';
import type { ResourceRegistry } from './resources.js';
import type { VersionConversion } from './conversion.js';

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

export interface ScaleSubresource {
  /** JSON paths as in a CRD's scale subresource, e.g. ".spec.replicas". */
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

export interface TableColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  format?: string;
  description?: string;
  priority?: number;
  /** Computes the cell; returns null/undefined for an empty cell. */
  cell: (obj: KubeObject, ctx: { now: number }) => unknown;
}

export interface StrategyContext {
  env: Env;
  /** ms since epoch of this request (from env.clock). */
  now: number;
  dryRun: boolean;
  /** '' for the main resource, else 'status' | 'scale' | ... */
  subresource: string;
  /** Who writes (authentication's user info), when the write comes from a request. */
  user?: { name: string; uid?: string; groups: string[]; extra?: Record<string, string[]> };
  /** Read other objects (e.g. to allocate a unique Service clusterIP). Returns current state. */
  list(group: string, resource: string, namespace?: string): KubeObject[];
  /** The served resources (built-in and custom), e.g. to resolve a kind or the versions of a resource. */
  resources?: ResourceRegistry;
  /** One object as stored (namespace '' for cluster-scoped kinds); the store provides it, test contexts may not. */
  get?(group: string, resource: string, namespace: string, name: string): KubeObject | undefined;
  /** The cluster's feature gates as set (a gate not named has its default: registry/gated-fields.ts gateOn). */
  featureGates?: Record<string, boolean>;
}

export interface ResourceStrategy {
  /** Defaulting, as the real server's SetDefaults_* functions do. Mutates `obj`. */
  default?(obj: KubeObject, ctx: StrategyContext): void;
  /** Kind-specific preparation before create (e.g. allocate clusterIP). Generic parts are done by the store. */
  prepareForCreate?(obj: KubeObject, ctx: StrategyContext): void;
  prepareForUpdate?(obj: KubeObject, old: KubeObject, ctx: StrategyContext): void;
  /** Field errors for a new object (beyond schema type/required checks the store already makes). */
  validate?(obj: KubeObject, ctx: StrategyContext): FieldError[];
  validateUpdate?(obj: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[];
  warningsOnCreate?(obj: KubeObject, ctx: StrategyContext): string[];
  warningsOnUpdate?(obj: KubeObject, old: KubeObject, ctx: StrategyContext): string[];
  /** PUT to a missing object creates it. */
  allowCreateOnUpdate?: boolean;
  /** PUT without metadata.resourceVersion is accepted. */
  allowUnconditionalUpdate?: boolean;
  /** Field-selector fields beyond metadata.name / metadata.namespace, e.g. {"spec.nodeName": ...}. */
  selectableFields?(obj: KubeObject): Record<string, string>;
  /**
   * RESTGracefulDeleteStrategy.CheckGracefulDelete: the grace period (seconds) of a graceful delete, or
   * undefined when the kind deletes at once. Kinds without the hook are not graceful.
   */
  checkGracefulDelete?(obj: KubeObject, options: { gracePeriodSeconds?: number }): number | undefined;
  /** GarbageCollectionDeleteStrategy.DefaultGarbageCollectionPolicy (default: DeleteDependents, i.e. background). */
  defaultGarbageCollectionPolicy?: GarbageCollectionPolicy;
  /** Warnings of a delete request (REST.Delete of jobs warns about the orphaning default). */
  warningsOnDelete?(options: StoreDeleteOptions): string[];
  /** Extra condition for removing an object on the update that empties its finalizers (namespaces: spec.finalizers too). */
  shouldDeleteDuringUpdate?(obj: KubeObject): boolean;
  /** The kind's own REST delete (namespaces), replacing the generic store's; see registry/delete.ts. */
  restDelete?: RestDeleteHook;
}

export type StatusPinnableMeta = 'labels' | 'annotations' | 'finalizers' | 'ownerReferences';

/** metav1.ResetObjectMetaForStatus: a status write changes none of these. */
export const RESET_OBJECT_META_FOR_STATUS: StatusPinnableMeta[] = ['labels', 'annotations', 'finalizers', 'ownerReferences'];

export type GarbageCollectionPolicy = 'DeleteDependents' | 'OrphanDependents' | 'Unsupported';

/** Options of one delete as the store sees them (metav1.DeleteOptions, validated). */
export interface StoreDeleteOptions {
  dryRun: boolean;
  gracePeriodSeconds?: number;
  propagationPolicy?: string;
  orphanDependents?: boolean;
  preconditions?: { uid?: string; resourceVersion?: string };
  /** Who asked (for admission); undefined for the engine's own deletes. */
  admission?: AdmissionRequest;
}

/** What a kind's own delete may use: the stored object and the generic store's primitives, under the write lock. */
export interface RestDeleteContext {
  def: ResourceDefinition;
  name: string;
  current: KubeObject;
  options: StoreDeleteOptions;
  now: number;
  /** Writes `obj` as the new state (or answers it under dry run). */
  put(obj: KubeObject): Promise<KubeObject>;
  /** The generic store's delete of the same object. */
  generic(): Promise<{ object: KubeObject; deleted: boolean; finalized: boolean }>;
}

export type RestDeleteHook = (ctx: RestDeleteContext) => Promise<{ object: KubeObject; deleted: boolean; finalized: boolean }>;

export interface ResourceDefinition {
  group: string; // '' for core
  version: string;
  kind: string;
  listKind: string;
  plural: string;
  singular: string;
  shortNames?: string[];
  categories?: string[];
  namespaced: boolean;
  verbs: Verb[];
  subresources: { status?: boolean; scale?: ScaleSubresource; finalize?: boolean; approval?: boolean; ephemeralcontainers?: boolean; resize?: boolean };
  /**
   * Subresources answered by their own handler rather than the store (pods/log, pods/exec, pods/eviction,
   * services/proxy...): their discovery facts; endpoints/connect.ts serves them.
   */
  connect?: ConnectSubresource[];
  /** Objects computed on every read instead of stored (componentstatuses): get and list only. */
  computed?: (ctx: { now: number }) => KubeObject[];
  /** Root schema of the kind (usually a $ref into `definitions`). */
  schema: Schema;
  definitions: SchemaRegistry;
  strategy: ResourceStrategy;
  /** Extra Table columns after Name (kubectl-like). Default table: Name, Created At. */
  tableColumns?: TableColumn[];
  /** Kind is stored and served only from this version (storage version), for multi-version resources. */
  storageVersion?: string;
  /** True when this group/version is the preferred one for its group in discovery. */
  preferred?: boolean;
  /** Deprecation warning text for deprecated versions. */
  deprecated?: string;
  /**
   * Metadata a write to the status subresource may not change (the kind's StatusStrategy.PrepareForUpdate):
   * 'all' keeps the stored metadata whole but managedFields (custom resources); a list pins those fields
   * (pods: ownerReferences; deployments: labels; metav1.ResetObjectMetaForStatus: all four). Unset: the
   * request's labels, annotations, finalizers and owner references are taken, as most built-in status
   * strategies reset only spec.
   */
  statusPinnedMetadata?: 'all' | StatusPinnableMeta[];
  /** Create keeps a status given in the request (nodes); every other kind starts from an empty status. */
  keepStatusOnCreate?: boolean;
  /**
   * Rewrites alias spellings in a decoded body to the canonical ones before field validation (docs/design.md
   * section 3: the `svc` spellings of the spec are accepted wherever they can appear). Mutates `body`.
   */
  canonicalizeBody?(body: KubeObject): void;
  /** Storage shared with other served forms of the kind, and the conversion between them (registry/conversion.ts). */
  conversion?: VersionConversion;
  /**
   * Copy-on-write writes: the kind's defaulting and preparation write only what changes (never the same
   * value again, never a whole member rebuilt), so an update's object may share the unchanged parts of the
   * stored state (deeply frozen) instead of being a private deep copy: the strategic merge patch copies only
   * the maps it writes, apply and the managedFields update keep the frozen parts they take from live, and
   * status is shared on the main resource. A writer that still writes in place over a shared part throws
   * (strict mode); resources/frozen-writes.test.ts holds every opted-in kind to it.
   */
  copyOnWrite?: boolean;
}

export interface ConnectSubresource {
  name: string;
  /** Discovery verbs. */
  verbs: string[];
  /** The kind discovery names for it, when not the parent's (e.g. policy/v1 Eviction). */
  kind?: { group: string; version: string; kind: string };
}

export function groupVersion(def: { group: string; version: string }): string {
  return def.group ? `${def.group}/${def.version}` : def.version;
}
