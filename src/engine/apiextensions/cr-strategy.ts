// The custom resource strategy's validation and defaulting hooks [K8S apiextensions-apiserver/pkg/registry/
// customresource strategy.go, validator.go]: ObjectMeta, the structural schema (kube-openapi, ratcheting on
// update), embedded resources' metadata, list-type set/map uniqueness, the scale paths, then CEL rules
// unless an error already blocks them.

import { fieldErr, type FieldError } from '../errors.js';
import { clone, isPlainObject, type JsonValue, type KubeObject } from '../object.js';
import type { ResourceStrategy } from '../registry/types.js';
import type { Schema } from '../schema/types.js';
import { isQualifiedName, nameIsDNSSubdomain, validateObjectMeta, validateObjectMetaUpdate } from '../util/validation.js';
import { compileRuleTree, validateRules, type RuleNode } from './cel-rules.js';
import { applyDefaults, pruneNonNullableNullsWithoutDefaults } from './defaulting.js';
import { validateAgainstSchema, validateEmbedded, validateListSetsAndMaps } from './schema-validate.js';

const BLOCKING = new Set(['FieldValueNotSupported', 'FieldValueRequired', 'FieldValueTooLong', 'FieldValueTooMany', 'FieldValueTypeInvalid']);

/** hasBlockingErr: CEL rules are not run over an object with these errors. */
function blocking(errs: FieldError[]): FieldError | undefined {
  if (!errs.some((e) => BLOCKING.has(e.type))) return undefined;
  return fieldErr.invalid('<nil>', 'null', 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation');
}

function nestedInt(obj: unknown, path: string): { value?: number; error?: string } {
  const parts = path.replace(/^\./, '').split('.');
  let cur: unknown = obj;
  for (const p of parts) {
    if (!isPlainObject(cur)) return {};
    cur = (cur as Record<string, unknown>)[p];
    if (cur === undefined) return {};
  }
  if (typeof cur !== 'number' || !Number.isInteger(cur)) {
    return { value: 0, error: `.${parts.join('.')} accessor error: ${JSON.stringify(cur)} is of the type ${typeof cur === 'number' ? 'float64' : typeof cur === 'string' ? 'string' : typeof cur}, expected int64` };
  }
  return { value: cur };
}

function scaleErrors(obj: KubeObject, scale: { specReplicasPath: string; statusReplicasPath: string } | undefined, spec: boolean): FieldError[] {
  if (!scale) return [];
  const errs: FieldError[] = [];
  const check = (path: string) => {
    const r = nestedInt(obj, path);
    if (r.error) errs.push(fieldErr.invalid(path, r.value, r.error));
    else if (r.value !== undefined && r.value < 0) errs.push(fieldErr.invalid(path, r.value, 'should be a non-negative integer'));
    else if (r.value !== undefined && r.value > 2147483647) errs.push(fieldErr.invalid(path, r.value, 'should be less than or equal to 2147483647'));
  };
  if (spec) check(scale.specReplicasPath);
  check(scale.statusReplicasPath);
  return errs;
}

const STANDARD_FINALIZERS = new Set(['orphan', 'foregroundDeletion', 'kubernetes']);

/** generateWarningsFromObj: warnings for finalizers added by this write. */
export function finalizerWarnings(obj: KubeObject, old?: KubeObject): string[] {
  const before = new Set(old?.metadata?.finalizers ?? []);
  const added = [...new Set(obj.metadata?.finalizers ?? [])].filter((f) => !before.has(f)).sort();
  const out: string[] = [];
  const p = 'metadata.finalizers';
  for (const f of added) {
    for (const m of isQualifiedName(f)) out.push(`${p}: ${JSON.stringify(f)}: ${m}`);
    if (!f.includes('/') && !STANDARD_FINALIZERS.has(f)) {
      out.push(f.includes('.')
        ? `${p}: ${JSON.stringify(f)}: prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers`
        : `${p}: ${JSON.stringify(f)}: prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers`);
    }
  }
  return out;
}

export interface CustomResourceOptions {
  namespaced: boolean;
  scale?: { specReplicasPath: string; statusReplicasPath: string };
  preserveUnknownFields?: boolean;
}

/** Strategy hooks (default, validate, validateUpdate) of custom resources validated by `schema`. */
export function customResourceHooks(schema: Schema | undefined, opts: CustomResourceOptions): Partial<ResourceStrategy> {
  if (!schema) {
    return {
      warningsOnCreate: (obj) => finalizerWarnings(obj),
      warningsOnUpdate: (obj, old) => finalizerWarnings(obj, old),
      validate: (obj) => validateObjectMeta(obj.metadata, { namespaced: opts.namespaced, nameValidator: nameIsDNSSubdomain }),
      validateUpdate: (obj, old) => validateObjectMetaUpdate(obj.metadata, old.metadata),
    };
  }
  let tree: RuleNode | undefined;
  let compiled = false;
  const rules = () => {
    if (!compiled) {
      tree = compileRuleTree(schema, true);
      compiled = true;
    }
    return tree;
  };
  const statusSchema = schema.properties?.status;

  const withCel = (errs: FieldError[], obj: KubeObject, old?: KubeObject): FieldError[] => {
    const t = rules();
    if (!t) return errs;
    const b = blocking(errs);
    if (b) return [...errs, b];
    return [...errs, ...validateRules(t, obj, old)];
  };

  return {
    warningsOnCreate: (obj) => finalizerWarnings(obj),
    warningsOnUpdate: (obj, old) => finalizerWarnings(obj, old),
    default(obj, ctx) {
      if (ctx.subresource !== '' && ctx.subresource !== 'status') return;
      // the store may hand over an object sharing nested values with the stored one: copy before changing
      for (const k of Object.keys(obj)) {
        if (k !== 'metadata' && obj[k] !== null && typeof obj[k] === 'object') obj[k] = clone(obj[k] as JsonValue);
      }
      if (!opts.preserveUnknownFields) pruneNonNullableNullsWithoutDefaults(obj, schema);
      applyDefaults(obj, schema);
    },
    validate(obj) {
      const errs = validateObjectMeta(obj.metadata, { namespaced: opts.namespaced, nameValidator: nameIsDNSSubdomain });
      errs.push(...validateAgainstSchema(schema, obj));
      errs.push(...scaleErrors(obj, opts.scale, true));
      errs.push(...validateEmbedded(schema, obj, ''));
      errs.push(...validateListSetsAndMaps(schema, obj, ''));
      return withCel(errs, obj);
    },
    validateUpdate(obj, old, ctx) {
      const errs = validateObjectMetaUpdate(obj.metadata, old.metadata);
      if (ctx.subresource === 'status') {
        if (obj.status !== undefined && statusSchema) {
          errs.push(...validateAgainstSchema(statusSchema, obj.status, { prefix: 'status', old: old.status, hasOld: old.status !== undefined }));
        }
        errs.push(...scaleErrors(obj, opts.scale, false));
      } else {
        errs.push(...validateAgainstSchema(schema, obj, { old, hasOld: true }));
        errs.push(...scaleErrors(obj, opts.scale, true));
        errs.push(...validateEmbedded(schema, obj, ''));
      }
      if (validateListSetsAndMaps(schema, old, '').length === 0) errs.push(...validateListSetsAndMaps(schema, obj, ''));
      return withCel(errs, obj, old);
    },
  };
}
