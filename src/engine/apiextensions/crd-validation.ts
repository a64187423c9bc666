// ValidateCustomResourceDefinition(+Update) of the real v1.33 apiextensions-apiserver, on the v1 object.
// Schema paths follow the internal version the real server validates: when every version carries the same
// schema it is validated once as `spec.validation.openAPIV3Schema`, otherwise per version as
// `spec.versions[i].schema.openAPIV3Schema`. Structural-schema errors are sorted by their text, as
// ValidateStructural sorts them.

import { fieldErr, fieldErrorString, GoRepr, type FieldError } from '../errors.js';
import { isPlainObject, type KubeObject } from '../object.js';
import type { Schema } from '../schema/types.js';
import {
  isDNS1035Label, isDNS1123Subdomain, nameIsDNSSubdomain, validateObjectMeta, validateObjectMetaUpdate, validateImmutable,
} from '../util/validation.js';
import { normalizeFieldPath, validateRuleDefinitions } from './cel-rules.js';
import { validateAgainstSchema, canonical, goValue } from './schema-validate.js';

/** True when pruning `v` by `s` changes nothing (requirePrunedDefaults). */
function prunedEqual(v: unknown, s: Schema | undefined): boolean {
  if (!s || (s as Obj)['x-kubernetes-preserve-unknown-fields'] === true) return true;
  if (Array.isArray(v)) return v.every((x) => prunedEqual(x, s.items));
  if (isPlainObject(v)) {
    const rec = v as Obj;
    for (const k of Object.keys(rec)) {
      const ps = s.properties?.[k];
      if (ps) {
        if (!prunedEqual(rec[k], ps)) return false;
      } else if (s.additionalProperties && typeof s.additionalProperties === 'object') {
        if (!prunedEqual(rec[k], s.additionalProperties)) return false;
      } else if (s.additionalProperties !== true && !((s as Obj)['x-kubernetes-embedded-resource'] && ['apiVersion', 'kind', 'metadata'].includes(k))) return false;
    }
  }
  return true;
}
import { validateRE2 } from '../cel/lib/regex.js';

/** Go's regexp error text: "error parsing regexp: <code>: `<expr>`". */
export function regexpError(msg: string): string {
  return msg.startsWith('error parsing regexp: ') ? msg : `error parsing regexp: ${msg}`;
}
import { compileRuleTree, validateRules } from './cel-rules.js';

type Obj = Record<string, unknown>;
const o = (v: unknown): Obj => (isPlainObject(v) ? (v as Obj) : {});
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

const ALLOWED_AT_ROOT = ['Description', 'Type', 'Format', 'Title', 'Maximum', 'ExclusiveMaximum', 'Minimum', 'ExclusiveMinimum', 'MaxLength', 'MinLength', 'Pattern', 'MaxItems', 'MinItems', 'UniqueItems', 'MultipleOf', 'Required', 'Items', 'Properties', 'ExternalDocs', 'Example', 'XPreserveUnknownFields', 'XValidations'];
const ROOT_FIELDS: [string, string][] = [
  ['ID', 'id'], ['Schema', '$schema'], ['Ref', '$ref'], ['Description', 'description'], ['Type', 'type'], ['Format', 'format'], ['Title', 'title'],
  ['Default', 'default'], ['Maximum', 'maximum'], ['ExclusiveMaximum', 'exclusiveMaximum'], ['Minimum', 'minimum'], ['ExclusiveMinimum', 'exclusiveMinimum'],
  ['MaxLength', 'maxLength'], ['MinLength', 'minLength'], ['Pattern', 'pattern'], ['MaxItems', 'maxItems'], ['MinItems', 'minItems'], ['UniqueItems', 'uniqueItems'],
  ['MultipleOf', 'multipleOf'], ['Enum', 'enum'], ['MaxProperties', 'maxProperties'], ['MinProperties', 'minProperties'], ['Required', 'required'], ['Items', 'items'],
  ['AllOf', 'allOf'], ['OneOf', 'oneOf'], ['AnyOf', 'anyOf'], ['Not', 'not'], ['Properties', 'properties'], ['AdditionalProperties', 'additionalProperties'],
  ['PatternProperties', 'patternProperties'], ['Dependencies', 'dependencies'], ['AdditionalItems', 'additionalItems'], ['Definitions', 'definitions'],
  ['ExternalDocs', 'externalDocs'], ['Example', 'example'], ['Nullable', 'nullable'], ['XPreserveUnknownFields', 'x-kubernetes-preserve-unknown-fields'],
  ['XEmbeddedResource', 'x-kubernetes-embedded-resource'], ['XIntOrString', 'x-kubernetes-int-or-string'], ['XListMapKeys', 'x-kubernetes-list-map-keys'],
  ['XListType', 'x-kubernetes-list-type'], ['XMapType', 'x-kubernetes-map-type'], ['XValidations', 'x-kubernetes-validations'],
];
const OPENAPI_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const COLUMN_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];

function versionsGoRepr(versions: Obj[]): GoRepr {
  const items = versions.map((v) => `apiextensions.CustomResourceDefinitionVersion{Name:${JSON.stringify(str(v.name))}, Served:${v.served === true}, Storage:${v.storage === true}, ...}`);
  return new GoRepr(`[]apiextensions.CustomResourceDefinitionVersion{${items.join(', ')}}`);
}

function validateNames(names: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const plural = str(names.plural);
  const singular = str(names.singular);
  const kind = str(names.kind);
  const listKind = str(names.listKind);
  const dns = isDNS1035Label;
  if (plural) {
    const e = dns(plural);
    if (e.length) errs.push(fieldErr.invalid(`${path}.plural`, plural, e.join(',')));
  }
  if (singular) {
    const e = dns(singular);
    if (e.length) errs.push(fieldErr.invalid(`${path}.singular`, singular, e.join(',')));
  }
  if (kind) {
    const e = dns(kind.toLowerCase());
    if (e.length) errs.push(fieldErr.invalid(`${path}.kind`, kind, 'may have mixed case, but should otherwise match: ' + e.join(',')));
  }
  if (listKind) {
    const e = dns(listKind.toLowerCase());
    if (e.length) errs.push(fieldErr.invalid(`${path}.listKind`, listKind, 'may have mixed case, but should otherwise match: ' + e.join(',')));
  }
  arr(names.shortNames).forEach((s, i) => {
    const e = dns(String(s));
    if (e.length) errs.push(fieldErr.invalid(`${path}.shortNames[${i}]`, s, e.join(',')));
  });
  if (kind && kind === listKind) errs.push(fieldErr.invalid(`${path}.listKind`, listKind, 'kind and listKind may not be the same'));
  arr(names.categories).forEach((c, i) => {
    const e = dns(String(c));
    if (e.length) errs.push(fieldErr.invalid(`${path}.categories[${i}]`, c, e.join(',')));
  });
  return errs;
}

// ---------------------------------------------------------------------------------------------------
// structural schema (schema/validation.go ValidateStructural) and the OpenAPI schema checks

type Level = 'root' | 'item' | 'field';

function structuralInvariants(s: Schema, lvl: Level, p: string, out: FieldError[]): void {
  const x = s as Obj;
  if (s.type === 'array' && !s.items) out.push(fieldErr.required(`${p}.items`, 'must be specified'));
  if (s.items) structuralInvariants(s.items, 'item', `${p}.items`, out);
  for (const [k, v] of Object.entries(s.properties ?? {})) structuralInvariants(v, 'field', `${p}.properties[${k}]`, out);
  if (s.additionalProperties !== undefined && s.additionalProperties !== false) {
    if (lvl === 'root') out.push(fieldErr.forbidden(`${p}.additionalProperties`, 'must not be used at the root'));
    if (typeof s.additionalProperties === 'object') structuralInvariants(s.additionalProperties, 'field', `${p}.additionalProperties`, out);
  }
  const ios = x['x-kubernetes-int-or-string'] === true;
  const pres = x['x-kubernetes-preserve-unknown-fields'] === true;
  const emb = x['x-kubernetes-embedded-resource'] === true;
  if (ios && pres) out.push(fieldErr.invalid(`${p}.x-kubernetes-preserve-unknown-fields`, true, 'must be false if x-kubernetes-int-or-string is true'));
  if (ios && emb) out.push(fieldErr.invalid(`${p}.x-kubernetes-embedded-resource`, true, 'must be false if x-kubernetes-int-or-string is true'));
  const intOrStringAnyOf = (a: Schema[] | undefined) => !!a && a.length === 2 && canonical(a) === canonical([{ type: 'integer' }, { type: 'string' }]);
  if (!intOrStringAnyOf(s.anyOf)) (s.anyOf ?? []).forEach((n, i) => nestedValueValidation(n, `${p}.anyOf[${i}]`, out));
  (s.allOf ?? []).forEach((n, i) => nestedValueValidation(n, `${p}.allOf[${i}]`, out, i === 0 && intOrStringAnyOf(n.anyOf)));
  (s.oneOf ?? []).forEach((n, i) => nestedValueValidation(n, `${p}.oneOf[${i}]`, out));
  if (s.not) nestedValueValidation(s.not, `${p}.not`, out);
  if (s.pattern) {
    const err = validateRE2(s.pattern);
    if (err) out.push(fieldErr.invalid(`${p}.pattern`, s.pattern, `must be a valid regular expression, but isn't: ${regexpError(err)}`));
  }
  const checkMetadata = lvl === 'root' || emb;
  if (emb && s.type !== 'object') {
    if (!s.type) out.push(fieldErr.required(`${p}.type`, 'must be object if x-kubernetes-embedded-resource is true'));
    else out.push(fieldErr.invalid(`${p}.type`, s.type, 'must be object if x-kubernetes-embedded-resource is true'));
  } else if (!s.type && !ios && !pres) {
    const detail = lvl === 'root' ? 'must not be empty at the root' : lvl === 'item' ? 'must not be empty for specified array items' : 'must not be empty for specified object fields';
    out.push(fieldErr.required(`${p}.type`, detail));
  }
  if (emb && s.additionalProperties !== undefined) out.push(fieldErr.forbidden(`${p}.additionalProperties`, 'must not be used if x-kubernetes-embedded-resource is set'));
  if (lvl === 'root' && s.type && s.type !== 'object') out.push(fieldErr.invalid(`${p}.type`, s.type, 'must be object at the root'));
  const props = s.properties ?? {};
  if (props.kind && checkMetadata && props.kind.type !== 'string') out.push(fieldErr.invalid(`${p}.properties[kind].type`, props.kind.type ?? '', 'must be string'));
  if (props.apiVersion && checkMetadata && props.apiVersion.type !== 'string') out.push(fieldErr.invalid(`${p}.properties[apiVersion].type`, props.apiVersion.type ?? '', 'must be string'));
  if (props.metadata) {
    const m = props.metadata;
    const mp = `${p}.properties[metadata]`;
    if (checkMetadata && m.type !== 'object') out.push(fieldErr.invalid(`${mp}.type`, m.type ?? '', 'must be object'));
    if (lvl === 'root') {
      const keys = Object.keys(m.properties ?? {});
      const onlyNames = keys.every((k) => k === 'name' || k === 'generateName');
      const rest = Object.keys(m).filter((k) => k !== 'type' && k !== 'properties' && k !== 'default' && k !== 'description');
      if (!onlyNames || rest.length) out.push(fieldErr.forbidden(mp, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
    }
  }
  if (emb && !pres && Object.keys(props).length === 0) out.push(fieldErr.required(`${p}.properties`, 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
}

function nestedValueValidation(s: Schema, p: string, out: FieldError[], skipAnyOf = false): void {
  const x = s as Obj;
  if (!skipAnyOf) (s.anyOf ?? []).forEach((n, i) => nestedValueValidation(n, `${p}.anyOf[${i}]`, out));
  (s.allOf ?? []).forEach((n, i) => nestedValueValidation(n, `${p}.allOf[${i}]`, out));
  (s.oneOf ?? []).forEach((n, i) => nestedValueValidation(n, `${p}.oneOf[${i}]`, out));
  if (s.not) nestedValueValidation(s.not, `${p}.not`, out);
  if (s.type) out.push(fieldErr.forbidden(`${p}.type`, 'must be empty to be structural'));
  if (s.additionalProperties !== undefined) out.push(fieldErr.forbidden(`${p}.additionalProperties`, 'must be undefined to be structural'));
  if (s.default !== undefined) out.push(fieldErr.forbidden(`${p}.default`, 'must be undefined to be structural'));
  if (x.title) out.push(fieldErr.forbidden(`${p}.title`, 'must be empty to be structural'));
  if (x.description) out.push(fieldErr.forbidden(`${p}.description`, 'must be empty to be structural'));
  if (s.nullable) out.push(fieldErr.forbidden(`${p}.nullable`, 'must be false to be structural'));
  if (x['x-kubernetes-preserve-unknown-fields'] !== undefined) out.push(fieldErr.forbidden(`${p}.x-kubernetes-preserve-unknown-fields`, 'must be false to be structural'));
  if (x['x-kubernetes-embedded-resource']) out.push(fieldErr.forbidden(`${p}.x-kubernetes-embedded-resource`, 'must be false to be structural'));
  if (x['x-kubernetes-int-or-string']) out.push(fieldErr.forbidden(`${p}.x-kubernetes-int-or-string`, 'must be false to be structural'));
  if (Array.isArray(x['x-kubernetes-list-map-keys']) && (x['x-kubernetes-list-map-keys'] as unknown[]).length) out.push(fieldErr.forbidden(`${p}.x-kubernetes-list-map-keys`, 'must be empty to be structural'));
  if (x['x-kubernetes-list-type'] !== undefined) out.push(fieldErr.forbidden(`${p}.x-kubernetes-list-type`, 'must be undefined to be structural'));
  if (x['x-kubernetes-map-type'] !== undefined) out.push(fieldErr.forbidden(`${p}.x-kubernetes-map-type`, 'must be undefined to be structural'));
  if (Array.isArray(x['x-kubernetes-validations']) && (x['x-kubernetes-validations'] as unknown[]).length) out.push(fieldErr.forbidden(`${p}.x-kubernetes-validations`, 'must be empty to be structural'));
  if (s.properties?.metadata) out.push(fieldErr.forbidden(`${p}.properties[metadata]`, 'must not be specified in a nested context'));
}

/** ValidateCustomResourceDefinitionOpenAPISchema (schema errors; CEL errors are collected separately). */
function openAPISchemaChecks(s: Schema, p: string, out: FieldError[], isRoot: boolean, insideMeta: boolean, forbidDefaultsReason?: string): void {
  const x = s as Obj;
  if (s.type && !OPENAPI_TYPES.includes(s.type)) {
    if ((s.type as string) === 'null') out.push(fieldErr.forbidden(`${p}.type`, 'type cannot be set to null, use nullable as an alternative'));
    else out.push(fieldErr.notSupported(`${p}.type`, s.type, OPENAPI_TYPES));
  }
  if (s.default !== undefined && forbidDefaultsReason) out.push(fieldErr.forbidden(`${p}.default`, `must not be set ${forbidDefaultsReason}`));
  if (x.id) out.push(fieldErr.forbidden(`${p}.id`, 'id is not supported'));
  if (x.additionalItems !== undefined) out.push(fieldErr.forbidden(`${p}.additionalItems`, 'additionalItems is not supported'));
  if (x.patternProperties && Object.keys(x.patternProperties as Obj).length) out.push(fieldErr.forbidden(`${p}.patternProperties`, 'patternProperties is not supported'));
  if (x.definitions && Object.keys(x.definitions as Obj).length) out.push(fieldErr.forbidden(`${p}.definitions`, 'definitions is not supported'));
  if (x.dependencies !== undefined) out.push(fieldErr.forbidden(`${p}.dependencies`, 'dependencies is not supported'));
  if (s.$ref !== undefined) out.push(fieldErr.forbidden(`${p}.$ref`, '$ref is not supported'));
  if (Array.isArray(s.items)) out.push(fieldErr.forbidden(`${p}.items`, 'items must be a schema object and not an array'));
  if (insideMeta && x['x-kubernetes-embedded-resource']) out.push(fieldErr.forbidden(`${p}.x-kubernetes-embedded-resource`, 'must not be used inside of resource meta'));
  if (s.uniqueItems) out.push(fieldErr.forbidden(`${p}.uniqueItems`, 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  if (s.additionalProperties !== undefined) {
    if (Object.keys(s.properties ?? {}).length && (s.additionalProperties === false || typeof s.additionalProperties === 'object')) {
      out.push(fieldErr.forbidden(`${p}.additionalProperties`, 'additionalProperties and properties are mutual exclusive'));
    }
    if (typeof s.additionalProperties === 'object') openAPISchemaChecks(s.additionalProperties, `${p}.additionalProperties`, out, false, insideMeta);
  }
  for (const [k, v] of Object.entries(s.properties ?? {})) {
    const emb = x['x-kubernetes-embedded-resource'] === true;
    const meta = (isRoot || emb) && (k === 'metadata' || k === 'kind' || k === 'apiVersion');
    openAPISchemaChecks(v, `${p}.properties[${k}]`, out, false, insideMeta || meta, meta && isRoot ? `in top-level ${k}` : undefined);
  }
  if (s.not) openAPISchemaChecks(s.not, `${p}.not`, out, false, insideMeta);
  (s.allOf ?? []).forEach((n, i) => openAPISchemaChecks(n, `${p}.allOf[${i}]`, out, false, insideMeta));
  (s.oneOf ?? []).forEach((n, i) => openAPISchemaChecks(n, `${p}.oneOf[${i}]`, out, false, insideMeta));
  (s.anyOf ?? []).forEach((n, i) => openAPISchemaChecks(n, `${p}.anyOf[${i}]`, out, false, insideMeta));
  if (s.items && !Array.isArray(s.items)) openAPISchemaChecks(s.items, `${p}.items`, out, false, insideMeta);
  if (x['x-kubernetes-preserve-unknown-fields'] === false) out.push(fieldErr.invalid(`${p}.x-kubernetes-preserve-unknown-fields`, false, 'must be true or undefined'));
  const mapType = x['x-kubernetes-map-type'];
  if (mapType !== undefined && s.type !== 'object') {
    if (!s.type) out.push(fieldErr.required(`${p}.type`, 'must be object if x-kubernetes-map-type is specified'));
    else out.push(fieldErr.invalid(`${p}.type`, s.type, 'must be object if x-kubernetes-map-type is specified'));
  }
  if (mapType !== undefined && mapType !== 'atomic' && mapType !== 'granular') out.push(fieldErr.notSupported(`${p}.x-kubernetes-map-type`, mapType, ['atomic', 'granular']));
  const listType = x['x-kubernetes-list-type'] as string | undefined;
  if (listType !== undefined && s.type !== 'array') {
    if (!s.type) out.push(fieldErr.required(`${p}.type`, 'must be array if x-kubernetes-list-type is specified'));
    else out.push(fieldErr.invalid(`${p}.type`, s.type, 'must be array if x-kubernetes-list-type is specified'));
  } else if (listType === 'set' && s.items) {
    const is = s.items as Obj;
    if (s.items.type === 'array' && is['x-kubernetes-list-type'] !== undefined && is['x-kubernetes-list-type'] !== 'atomic') {
      out.push(fieldErr.invalid(`${p}.items.x-kubernetes-list-type`, is['x-kubernetes-list-type'], 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
    if (s.items.type === 'object' && is['x-kubernetes-map-type'] !== 'atomic') {
      out.push(fieldErr.invalid(`${p}.items.x-kubernetes-map-type`, is['x-kubernetes-list-type'] ?? null, 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
  }
  if (listType !== undefined && listType !== 'atomic' && listType !== 'set' && listType !== 'map') out.push(fieldErr.notSupported(`${p}.x-kubernetes-list-type`, listType, ['atomic', 'set', 'map']));
  const keys = Array.isArray(x['x-kubernetes-list-map-keys']) ? (x['x-kubernetes-list-map-keys'] as string[]) : [];
  if (keys.length) {
    if (listType === undefined) out.push(fieldErr.required(`${p}.x-kubernetes-list-type`, 'must be map if x-kubernetes-list-map-keys is non-empty'));
    else if (listType !== 'map') out.push(fieldErr.invalid(`${p}.x-kubernetes-list-type`, listType, 'must be map if x-kubernetes-list-map-keys is non-empty'));
  }
  if (listType === 'map') {
    if (!keys.length) out.push(fieldErr.required(`${p}.x-kubernetes-list-map-keys`, 'must not be empty if x-kubernetes-list-type is map'));
    if (!s.items) out.push(fieldErr.required(`${p}.items`, 'must have a schema if x-kubernetes-list-type is map'));
    if (s.items && s.items.type !== 'object') out.push(fieldErr.invalid(`${p}.items.type`, s.items.type ?? '', "must be object if parent array's x-kubernetes-list-type is map"));
    if (s.items && s.items.type === 'object') {
      const seen = new Set<string>();
      for (const k of keys) {
        const ks = s.items.properties?.[k];
        if (ks) {
          if (ks.type === 'array' || ks.type === 'object') out.push(fieldErr.invalid(`${p}.items.properties[${k}].type`, ks.type, "must be a scalar type if parent array's x-kubernetes-list-type is map"));
        } else out.push(fieldErr.invalid(`${p}.x-kubernetes-list-map-keys`, new GoRepr(`[]string{${keys.map((q) => JSON.stringify(q)).join(', ')}}`), 'entries must all be names of item properties'));
        if (seen.has(k)) out.push(fieldErr.invalid(`${p}.x-kubernetes-list-map-keys`, new GoRepr(`[]string{${keys.map((q) => JSON.stringify(q)).join(', ')}}`), 'must not contain duplicate entries'));
        seen.add(k);
      }
    }
  }
  // validateMapListKeysMapSet
  if (s.items && (listType === 'set' || listType === 'map')) {
    if (s.items.nullable) out.push(fieldErr.forbidden(`${p}.items.nullable`, `cannot be nullable when x-kubernetes-list-type is ${listType}`));
    if (listType === 'map') {
      const req = new Set(s.items.required ?? []);
      for (const k of keys) {
        const ks = s.items.properties?.[k];
        if (!ks) continue;
        if (!req.has(k) && ks.default === undefined) out.push(fieldErr.required(`${p}.items.properties[${k}].default`, 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
        if (ks.nullable) out.push(fieldErr.forbidden(`${p}.items.properties[${k}].nullable`, 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
      }
    }
  }
  const rules = Array.isArray(x['x-kubernetes-validations']) ? (x['x-kubernetes-validations'] as Obj[]) : [];
  rules.forEach((r, i) => {
    const rp = `${p}.x-kubernetes-validations[${i}]`;
    const rule = str(r.rule).trim();
    if (!rule) out.push(fieldErr.required(`${rp}.rule`, 'rule is not specified'));
    if (r.message !== undefined && !str(r.message).trim()) out.push(fieldErr.invalid(`${rp}.message`, r.message, 'message must be non-empty if specified'));
    else if (/[\n\r]/.test(str(r.message))) out.push(fieldErr.invalid(`${rp}.message`, r.message, 'message must not contain line breaks'));
    else if (/[\n\r]/.test(rule) && !r.message) out.push(fieldErr.required(`${rp}.message`, 'message must be specified if rule contains line breaks'));
    if (r.messageExpression !== undefined && !str(r.messageExpression).trim()) out.push(fieldErr.required(`${rp}.messageExpression`, 'messageExpression must be non-empty if specified'));
    if (r.reason !== undefined && !['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'].includes(str(r.reason))) {
      out.push(fieldErr.notSupported(`${rp}.reason`, r.reason, ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired']));
    }
    if (r.fieldPath !== undefined) {
      const fp = str(r.fieldPath);
      if (!fp.trim()) out.push(fieldErr.invalid(`${rp}.fieldPath`, fp, 'fieldPath must be non-empty if specified'));
      else if (/[\n\r]/.test(fp)) out.push(fieldErr.invalid(`${rp}.fieldPath`, fp, 'fieldPath must not contain line breaks'));
      else if (normalizeFieldPath(fp, s) === undefined) out.push(fieldErr.invalid(`${rp}.fieldPath`, fp, 'fieldPath must be a valid path'));
    }
  });
}

/** Defaults must validate against their schema (structuraldefaulting.ValidateDefaults, simplified). */
function validateDefaults(s: Schema, p: string, out: FieldError[], insideMeta: boolean): void {
  if (s.default !== undefined && s.default !== null && !insideMeta) {
    if (!prunedEqual(s.default, s)) {
      out.push(fieldErr.invalid(`${p}.default`, isPlainObject(s.default) || Array.isArray(s.default) ? new GoRepr(goValue(s.default)) : s.default, 'must not have unknown fields'));
    }
    const before = out.length;
    out.push(...validateAgainstSchema(s, s.default, { prefix: `${p}.default` }));
    if (out.length === before) {
      const tree = compileRuleTree(s, false);
      out.push(...validateRules(tree, s.default, undefined, { path: `${p}.default`, resourceRoot: false }));
    }
  }
  if (s.items) validateDefaults(s.items, `${p}.items`, out, insideMeta);
  for (const [k, v] of Object.entries(s.properties ?? {})) validateDefaults(v, `${p}.properties[${k}]`, out, insideMeta);
  if (s.additionalProperties && typeof s.additionalProperties === 'object') validateDefaults(s.additionalProperties, `${p}.additionalProperties`, out, insideMeta);
}

function validateSchema(schema: Schema, p: string, statusEnabled: boolean, preserveUnknownFields: boolean, suppressCost: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (statusEnabled) {
    // JSONSchemaProps fields in struct order, with their JSON names
    for (const [goName, json] of ROOT_FIELDS) {
      const v = (schema as Obj)[json];
      if (v === undefined || v === null || v === false || (Array.isArray(v) && v.length === 0) || (isPlainObject(v) && Object.keys(v as Obj).length === 0 && json !== 'default' && json !== 'example')) continue;
      if (goName === 'Type') {
        if (v !== 'object') {
          errs.push(fieldErr.invalid(`${p}.openAPIV3Schema.type`, v, 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled'));
          break;
        }
        continue;
      }
      if (!ALLOWED_AT_ROOT.includes(goName)) {
        errs.push(fieldErr.invalid(`${p}.openAPIV3Schema`, new GoRepr('apiextensions.JSONSchemaProps{...}'), `only [${ALLOWED_AT_ROOT.join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`));
        break;
      }
    }
  }
  if (schema.nullable) errs.push(fieldErr.forbidden(`${p}.openAPIV3Schema.nullable`, 'nullable cannot be true at the root'));
  const root = `${p}.openAPIV3Schema`;
  const structural: FieldError[] = [];
  structuralInvariants(schema, 'root', root, structural);
  structural.sort((a, b) => (fieldErrorString(a) < fieldErrorString(b) ? -1 : fieldErrorString(a) > fieldErrorString(b) ? 1 : 0));
  let celOk = false;
  if (structural.length) errs.push(...structural);
  else {
    const d: FieldError[] = [];
    validateDefaults(schema, root, d, false);
    errs.push(...d);
    celOk = d.length === 0;
  }
  void preserveUnknownFields;
  const schemaErrs: FieldError[] = [];
  openAPISchemaChecks(schema, root, schemaErrs, true, false);
  errs.push(...schemaErrs);
  if (celOk && schemaErrs.length === 0) errs.push(...validateRuleDefinitions(schema, root, { suppressCost }));
  return errs;
}

function schemaOf(v: Obj): Schema | undefined {
  const s = o(v.schema).openAPIV3Schema;
  return isPlainObject(s) ? (s as Schema) : undefined;
}

function validateColumn(col: Obj, p: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!str(col.name)) errs.push(fieldErr.required(`${p}.name`, ''));
  if (!str(col.type)) errs.push(fieldErr.required(`${p}.type`, `must be one of ${COLUMN_TYPES.join(',')}`));
  else if (!COLUMN_TYPES.includes(str(col.type))) errs.push(fieldErr.invalid(`${p}.type`, col.type, `must be one of ${COLUMN_TYPES.join(',')}`));
  if (str(col.format) && !COLUMN_FORMATS.includes(str(col.format))) errs.push(fieldErr.invalid(`${p}.format`, col.format, `must be one of ${COLUMN_FORMATS.join(',')}`));
  if (!str(col.jsonPath)) errs.push(fieldErr.required(`${p}.JSONPath`, ''));
  return errs;
}

function validateSubresources(sub: Obj | undefined, p: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!sub) return errs;
  const scale = sub.scale;
  if (isPlainObject(scale)) {
    const sc = scale as Obj;
    const spec = str(sc.specReplicasPath);
    if (!spec) errs.push(fieldErr.required(`${p}.scale.specReplicasPath`, ''));
    else if (!spec.startsWith('.spec.')) errs.push(fieldErr.invalid(`${p}.scale.specReplicasPath`, spec, 'should be a json path under .spec'));
    const status = str(sc.statusReplicasPath);
    if (!status) errs.push(fieldErr.required(`${p}.scale.statusReplicasPath`, ''));
    else if (!status.startsWith('.status.')) errs.push(fieldErr.invalid(`${p}.scale.statusReplicasPath`, status, 'should be a json path under .status'));
    const sel = sc.labelSelectorPath;
    if (typeof sel === 'string' && sel && !sel.startsWith('.spec.') && !sel.startsWith('.status.')) {
      errs.push(fieldErr.invalid(`${p}.scale.labelSelectorPath`, sel, 'should be a json path under either .spec or .status'));
    }
  }
  return errs;
}

function validateSpec(crd: KubeObject, oldCrd: KubeObject | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const spec = o(crd.spec);
  const group = str(spec.group);
  if (!group) errs.push(fieldErr.required('spec.group', ''));
  else {
    const e = isDNS1123Subdomain(group);
    if (e.length) errs.push(fieldErr.invalid('spec.group', group, e.join(',')));
    else if (group.split('.').length < 2) errs.push(fieldErr.invalid('spec.group', group, 'should be a domain with at least one dot'));
  }
  const scope = str(spec.scope);
  if (!scope) errs.push(fieldErr.required('spec.scope', ''));
  else if (scope !== 'Cluster' && scope !== 'Namespaced') errs.push(fieldErr.notSupported('spec.scope', scope, ['Cluster', 'Namespaced']));
  const versions = arr(spec.versions);
  const pruf = spec.preserveUnknownFields === true;
  const schemas = versions.map(schemaOf);
  const identical = versions.length > 0 && schemas.every((s) => s !== undefined && canonical(s) === canonical(schemas[0]));
  const subs = versions.map((v) => (isPlainObject(v.subresources) ? (v.subresources as Obj) : undefined));
  const identicalSubs = versions.length > 0 && subs.every((s) => canonical(s) === canonical(subs[0])) && subs[0] !== undefined;
  const cols = versions.map((v) => v.additionalPrinterColumns);
  const identicalCols = versions.length > 0 && cols.every((c) => canonical(c) === canonical(cols[0])) && Array.isArray(cols[0]) && (cols[0] as unknown[]).length > 0;
  // oldSchemas: cost limits are not enforced for unchanged schemas on update
  const oldSchemas = new Map<string, string>();
  for (const v of arr(o(oldCrd?.spec).versions)) {
    const s = schemaOf(v);
    if (s) oldSchemas.set(str(v.name), canonical(s));
  }
  if (!identical) {
    versions.forEach((v, i) => {
      if (!schemaOf(v)) errs.push(fieldErr.required(`spec.versions[${i}].schema.openAPIV3Schema`, 'schemas are required'));
    });
  }
  let storage = 0;
  const seen = new Set<string>();
  let unique = true;
  versions.forEach((v, i) => {
    if (v.storage === true) storage++;
    const name = str(v.name);
    if (seen.has(name)) unique = false;
    seen.add(name);
    const e = isDNS1035Label(name);
    if (e.length) errs.push(fieldErr.invalid(`spec.versions[${i}].name`, name, e.join(',')));
    const p = `spec.versions[${i}]`;
    if (v.deprecationWarning !== undefined) {
      if (v.deprecated !== true) errs.push(fieldErr.invalid(`${p}.deprecationWarning`, v.deprecationWarning, 'can only be set for deprecated versions'));
      else if (str(v.deprecationWarning).length > 256) errs.push(fieldErr.invalid(`${p}.deprecationWarning`, v.deprecationWarning, 'must be <= 256 characters long'));
      else if (str(v.deprecationWarning).length === 0) errs.push(fieldErr.invalid(`${p}.deprecationWarning`, v.deprecationWarning, 'must not be an empty string'));
    }
    const s = schemaOf(v);
    const statusEnabled = !!subs[i] && isPlainObject(subs[i]!.status);
    if (s && !identical) {
      errs.push(...validateSchema(s, `${p}.schema`, statusEnabled, pruf, oldSchemas.get(name) === canonical(s)));
    }
    if (!identicalSubs) errs.push(...validateSubresources(subs[i], `${p}.subresources`));
    if (!identicalCols) arr(v.additionalPrinterColumns).forEach((c, j) => errs.push(...validateColumn(c, `${p}.additionalPrinterColumns[${j}]`)));
  });
  if (!unique) errs.push(fieldErr.invalid('spec.versions', versionsGoRepr(versions), 'must contain unique version names'));
  if (storage !== 1) errs.push(fieldErr.invalid('spec.versions', versionsGoRepr(versions), 'must have exactly one version marked as storage version'));
  const names = o(spec.names);
  if (!str(names.plural)) errs.push(fieldErr.required('spec.names.plural', ''));
  if (!str(names.singular)) errs.push(fieldErr.required('spec.names.singular', ''));
  if (!str(names.kind)) errs.push(fieldErr.required('spec.names.kind', ''));
  if (!str(names.listKind)) errs.push(fieldErr.required('spec.names.listKind', ''));
  errs.push(...validateNames(names, 'spec.names'));
  if (identical && schemas[0]) {
    const anyStatus = subs.some((s) => !!s && isPlainObject(s.status));
    const unchanged = versions.every((v) => oldSchemas.get(str(v.name)) === canonical(schemas[0]));
    errs.push(...validateSchema(schemas[0], 'spec.validation', anyStatus, pruf, unchanged && oldSchemas.size > 0));
  }
  if (identicalSubs) errs.push(...validateSubresources(subs[0], 'spec.subresources'));
  if (identicalCols) arr(cols[0]).forEach((c, j) => errs.push(...validateColumn(c, `spec.additionalPrinterColumns[${j}]`)));
  const conv = o(spec.conversion);
  if (conv.strategy && conv.strategy !== 'None' && pruf) errs.push(fieldErr.invalid('spec.conversion.strategy', conv.strategy, 'must be None if spec.preserveUnknownFields is true'));
  if (conv.strategy && conv.strategy !== 'None' && conv.strategy !== 'Webhook') errs.push(fieldErr.notSupported('spec.conversion.strategy', conv.strategy, ['None', 'Webhook']));
  if (conv.strategy === 'Webhook' && !isPlainObject(o(conv.webhook).clientConfig)) errs.push(fieldErr.required('spec.conversion.webhookClientConfig', 'required when strategy is set to Webhook'));
  return errs;
}

function validateStoredVersions(crd: KubeObject): FieldError[] {
  const stored = Array.isArray(o(crd.status).storedVersions) ? (o(crd.status).storedVersions as string[]) : [];
  const p = 'status.storedVersions';
  const goList = new GoRepr(`[]string{${stored.map((s) => JSON.stringify(s)).join(', ')}}`);
  if (stored.length === 0) return [fieldErr.invalid(p, goList, 'must have at least one stored version')];
  const errs: FieldError[] = [];
  const rest = new Map(stored.map((v, i) => [v, i]));
  for (const v of arr(o(crd.spec).versions)) {
    const n = str(v.name);
    if (v.storage === true && !rest.has(n)) errs.push(fieldErr.invalid(p, goList, `must have the storage version ${n}`));
    rest.delete(n);
  }
  for (const [v, i] of rest) {
    errs.push(fieldErr.invalid(`${p}[${i}]`, v, `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`));
  }
  return errs;
}

const APPROVAL = 'api-approved.kubernetes.io';

function approvalState(crd: KubeObject | undefined): { state: string; reason: string } {
  const a = crd?.metadata?.annotations?.[APPROVAL] ?? '';
  if (!a) return { state: 'missing', reason: `protected groups must have approval annotation ${JSON.stringify(APPROVAL)}, see https://github.com/kubernetes/enhancements/pull/1111` };
  if (a.startsWith('unapproved')) return { state: 'bypassed', reason: '' };
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#\s]+/.test(a)) return { state: 'approved', reason: '' };
  return { state: 'invalid', reason: `protected groups must have approval annotation ${JSON.stringify(APPROVAL)} with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111` };
}

/** validateAPIApproval: groups under k8s.io and kubernetes.io need the approval annotation. */
function validateAPIApproval(crd: KubeObject, old?: KubeObject): FieldError[] {
  const group = str(o(crd.spec).group);
  const isProtected = group === 'k8s.io' || group.endsWith('.k8s.io') || group === 'kubernetes.io' || group.endsWith('.kubernetes.io');
  if (!isProtected) return [];
  const now = approvalState(crd);
  if (old && approvalState(old).state === now.state) return [];
  const field = `metadata.annotations[${APPROVAL}]`;
  if (now.state === 'missing') return [fieldErr.required(field, now.reason)];
  if (now.state === 'invalid') return [fieldErr.invalid(field, crd.metadata?.annotations?.[APPROVAL] ?? '', now.reason)];
  return [];
}

/** validatePreserveUnknownFields: spec.preserveUnknownFields may not be turned on in v1. */
function validatePreserveUnknownFields(crd: KubeObject, old?: KubeObject): FieldError[] {
  if (old && o(old.spec).preserveUnknownFields === true) return [];
  if (o(crd.spec).preserveUnknownFields === true) {
    return [fieldErr.invalid('spec.preserveUnknownFields', true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead')];
  }
  return [];
}

function crdNameValidator(crd: KubeObject) {
  return (name: string, prefix: boolean): string[] => {
    const out = nameIsDNSSubdomain(name, prefix);
    const spec = o(crd.spec);
    if (name !== `${str(o(spec.names).plural)}.${str(spec.group)}`) out.push('must be spec.names.plural+"."+spec.group');
    return out;
  };
}

/** ValidateCustomResourceDefinition (create). */
export function validateCRD(crd: KubeObject): FieldError[] {
  const errs = validateObjectMeta(crd.metadata, { namespaced: false, nameValidator: crdNameValidator(crd) });
  errs.push(...validateSpec(crd, undefined));
  errs.push(...validateStoredVersions(crd));
  errs.push(...validateAPIApproval(crd));
  errs.push(...validatePreserveUnknownFields(crd));
  return errs;
}

function established(crd: KubeObject): boolean {
  return arr(o(crd.status).conditions).some((c) => c.type === 'Established' && c.status === 'True');
}

/** ValidateCustomResourceDefinitionUpdate. */
export function validateCRDUpdate(crd: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateObjectMetaUpdate(crd.metadata, old.metadata);
  errs.push(...validateSpec(crd, old));
  const n = o(crd.spec);
  const p = o(old.spec);
  if (established(old)) {
    errs.push(...validateImmutable(n.scope, p.scope, 'spec.scope'));
    errs.push(...validateImmutable(o(n.names).kind, o(p.names).kind, 'spec.names.kind'));
  }
  errs.push(...validateImmutable(n.group, p.group, 'spec.group'));
  errs.push(...validateImmutable(o(n.names).plural, o(p.names).plural, 'spec.names.plural'));
  errs.push(...validateStoredVersions(crd));
  errs.push(...validateAPIApproval(crd, old));
  errs.push(...validatePreserveUnknownFields(crd, old));
  return errs;
}
