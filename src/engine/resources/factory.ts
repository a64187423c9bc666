// Builds a ResourceDefinition for a built-in kind from the generated facts (generated/builtins.ts) plus the
// kind's behaviour. Each resources/<plural>/index.ts calls `builtin(...)`. Every built-in kind gets the
// ObjectMeta checks of the real server (ValidateObjectMeta on create, ValidateObjectMetaUpdate on update)
// ahead of its own checks.

import type { FieldError } from '../errors.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition, ResourceStrategy, StrategyContext, TableColumn } from '../registry/types.js';
import type { Schema, SchemaRegistry } from '../schema/types.js';
import { checkRequired } from '../schema/validate.js';
import {
  nameIsDNSSubdomain, validateKubeFinalizerNames, validateObjectMeta, validateObjectMetaUpdate, type NameValidator,
} from '../util/validation.js';
import type { BuiltinResourceFacts } from './builtin-data.js';
import { canonicalizeQuantities } from './common/canonicalize.js';
import { builtins } from './generated/builtins.js';
import { dropDisabledFields, gatedFieldsOf } from '../registry/gated-fields.js';

/** All trimmed schema definitions of the built-in kinds, by bare name. */
export const builtinDefinitions: SchemaRegistry = builtins.definitions;

export interface BuiltinBehaviour {
  /** Validates metadata.name / generateName; DNS-1123 subdomain unless given. */
  nameValidator?: NameValidator;
  /** Apply the core API's rule that unqualified finalizer names must be standard ones (default true). */
  kubeFinalizerNames?: boolean;
  /** Skip ValidateObjectMeta on create (core v1 Events are validated by their legacy rules only). */
  skipObjectMeta?: boolean;
  /** Skip the schema's required-field checks (kinds whose real validation does not require them). */
  skipRequired?: boolean;
  default?: ResourceStrategy['default'];
  prepareForCreate?: ResourceStrategy['prepareForCreate'];
  prepareForUpdate?: ResourceStrategy['prepareForUpdate'];
  /** Checks of the object itself: run on create and on (non-status) update. */
  validateObject?(obj: KubeObject, ctx: StrategyContext): FieldError[];
  /** Create-only checks, run after validateObject on create. */
  validateNew?(obj: KubeObject, ctx: StrategyContext): FieldError[];
  /** Update-only checks (immutable fields...), run after validateObject on (non-status) update. */
  validateChange?(obj: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[];
  /** Checks of an update through another subresource of the object (pods/ephemeralcontainers, pods/resize). */
  validateSubresourceChange?(obj: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[];
  /** Checks of a status-subresource update. */
  validateStatusChange?(obj: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[];
  warningsOnCreate?: ResourceStrategy['warningsOnCreate'];
  warningsOnUpdate?: ResourceStrategy['warningsOnUpdate'];
  allowCreateOnUpdate?: boolean;
  allowUnconditionalUpdate?: boolean;
  selectableFields?: ResourceStrategy['selectableFields'];
  checkGracefulDelete?: ResourceStrategy['checkGracefulDelete'];
  defaultGarbageCollectionPolicy?: ResourceStrategy['defaultGarbageCollectionPolicy'];
  shouldDeleteDuringUpdate?: ResourceStrategy['shouldDeleteDuringUpdate'];
  restDelete?: ResourceStrategy['restDelete'];
  warningsOnDelete?: ResourceStrategy['warningsOnDelete'];
  tableColumns?: TableColumn[];
  preferred?: boolean;
  deprecated?: string;
  /** Storage shared with the kind's other served forms (registry/conversion.ts). */
  conversion?: ResourceDefinition['conversion'];
  /** Metadata a status write may not change (the kind's StatusStrategy.PrepareForUpdate). */
  statusPinnedMetadata?: ResourceDefinition['statusPinnedMetadata'];
  /** Create keeps the status given (nodes). */
  keepStatusOnCreate?: boolean;
  /** Defaulting and preparation write only what changes (ResourceDefinition.copyOnWrite). */
  copyOnWrite?: boolean;
}

export function builtinFacts(group: string, version: string, plural: string): BuiltinResourceFacts {
  const f = builtins.resources.find((r) => r.group === group && r.version === version && r.plural === plural);
  if (!f) throw new Error(`no generated facts for ${plural}.${version}.${group}`);
  return f;
}

/** Required-field errors of the schema that the kind's own checks did not already report. */
function withRequired(errs: FieldError[], obj: KubeObject, f: BuiltinResourceFacts, b: BuiltinBehaviour): FieldError[] {
  if (b.skipRequired) return errs;
  const seen = new Set(errs.map((e) => e.field));
  for (const e of checkRequired(obj, rootSchema(f.definition), builtinDefinitions)) if (!seen.has(e.field)) errs.push(e);
  return errs;
}

// One `{ $ref }` schema object per definition: the schema walks keep what they work out per schema object
// (in WeakMaps), and a new root object per write would be a new entry every time
const roots = new Map<string, Schema>();

function rootSchema(definition: string): Schema {
  let s = roots.get(definition);
  if (!s) roots.set(definition, (s = { $ref: definition }));
  return s;
}

function strategyOf(f: BuiltinResourceFacts, b: BuiltinBehaviour): ResourceStrategy {
  const nameValidator = b.nameValidator ?? nameIsDNSSubdomain;
  const kubeFinalizers = b.kubeFinalizerNames ?? true;
  const s: ResourceStrategy = {
    validate(obj, ctx) {
      const errs = b.skipObjectMeta ? [] : validateObjectMeta(obj.metadata, { namespaced: f.namespaced, nameValidator });
      if (kubeFinalizers && !b.skipObjectMeta) errs.push(...validateKubeFinalizerNames(obj.metadata));
      if (b.validateObject) errs.push(...b.validateObject(obj, ctx));
      if (b.validateNew) errs.push(...b.validateNew(obj, ctx));
      return withRequired(errs, obj, f, b);
    },
    validateUpdate(obj, old, ctx) {
      const errs = validateObjectMetaUpdate(obj.metadata, old.metadata);
      if (ctx.subresource === 'status' || ctx.subresource === 'approval') {
        if (b.validateStatusChange) errs.push(...b.validateStatusChange(obj, old, ctx));
        return errs;
      }
      if (ctx.subresource !== '') {
        if (b.validateSubresourceChange) errs.push(...b.validateSubresourceChange(obj, old, ctx));
        return errs;
      }
      if (b.validateObject) errs.push(...b.validateObject(obj, ctx));
      if (b.validateChange) errs.push(...b.validateChange(obj, old, ctx));
      return withRequired(errs, obj, f, b);
    },
    allowCreateOnUpdate: b.allowCreateOnUpdate ?? false,
    allowUnconditionalUpdate: b.allowUnconditionalUpdate ?? true,
  };
  // every built-in object's quantities read back in canonical form (Quantity.MarshalJSON)
  s.default = (obj, ctx) => {
    b.default?.(obj, ctx);
    canonicalizeQuantities(obj as Record<string, unknown>, f.definition, builtinDefinitions);
  };
  // the kind's own preparation, then the fields of gates that are off (registry/gated-fields.ts)
  const gated = gatedFieldsOf(f.group, f.plural).length > 0;
  if (b.prepareForCreate || gated) {
    s.prepareForCreate = (obj, ctx) => {
      b.prepareForCreate?.(obj, ctx);
      if (gated) dropDisabledFields(f.group, f.plural, obj, undefined, ctx.featureGates);
    };
  }
  if (b.prepareForUpdate || gated) {
    s.prepareForUpdate = (obj, old, ctx) => {
      b.prepareForUpdate?.(obj, old, ctx);
      if (gated) dropDisabledFields(f.group, f.plural, obj, old, ctx.featureGates);
    };
  }
  if (b.warningsOnCreate) s.warningsOnCreate = b.warningsOnCreate;
  if (b.warningsOnUpdate) s.warningsOnUpdate = b.warningsOnUpdate;
  if (b.selectableFields) s.selectableFields = b.selectableFields;
  if (b.checkGracefulDelete) s.checkGracefulDelete = b.checkGracefulDelete;
  if (b.defaultGarbageCollectionPolicy) s.defaultGarbageCollectionPolicy = b.defaultGarbageCollectionPolicy;
  if (b.shouldDeleteDuringUpdate) s.shouldDeleteDuringUpdate = b.shouldDeleteDuringUpdate;
  if (b.restDelete) s.restDelete = b.restDelete;
  if (b.warningsOnDelete) s.warningsOnDelete = b.warningsOnDelete;
  return s;
}

export function builtin(group: string, version: string, plural: string, behaviour: BuiltinBehaviour = {}): ResourceDefinition {
  const f = builtinFacts(group, version, plural);
  const subresources: ResourceDefinition['subresources'] = {};
  if (f.subresources.includes('status')) subresources.status = true;
  if (f.subresources.includes('approval')) subresources.approval = true;
  if (f.subresources.includes('ephemeralcontainers')) subresources.ephemeralcontainers = true;
  if (f.subresources.includes('resize')) subresources.resize = true;
  if (f.subresources.includes('scale')) {
    // Built-in scale subresources read spec.replicas / status.replicas; the Scale's status.selector is the
    // kind's spec.selector rendered as a label-selector string (a LabelSelector object for apps kinds, a
    // plain map for ReplicationController).
    subresources.scale = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.spec.selector' };
  }
  const def: ResourceDefinition = {
    group: f.group,
    version: f.version,
    kind: f.kind,
    listKind: f.listKind,
    plural: f.plural,
    singular: f.singular,
    namespaced: f.namespaced,
    verbs: [...f.verbs],
    subresources,
    schema: { $ref: f.definition },
    definitions: builtinDefinitions,
    strategy: strategyOf(f, behaviour),
    preferred: behaviour.preferred ?? true,
  };
  if (f.shortNames) def.shortNames = [...f.shortNames];
  if (f.categories) def.categories = [...f.categories];
  if (behaviour.tableColumns) def.tableColumns = behaviour.tableColumns;
  if (behaviour.deprecated) def.deprecated = behaviour.deprecated;
  if (behaviour.conversion) def.conversion = behaviour.conversion;
  if (behaviour.statusPinnedMetadata) def.statusPinnedMetadata = behaviour.statusPinnedMetadata;
  if (behaviour.keepStatusOnCreate) def.keepStatusOnCreate = true;
  if (behaviour.copyOnWrite) {
    // a copy-on-write patch starts from the stored state as it is (its parts in the same places); a kind
    // served through a conversion would read converted parts in other places
    if (behaviour.conversion) throw new Error(`${plural}: copy-on-write writes need a kind stored as served`);
    def.copyOnWrite = true;
  }
  return def;
}
