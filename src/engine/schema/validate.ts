// Type and required-field checks of built-in kinds against their schema.
//
// checkTypes reproduces the decoder error the real server returns (400 BadRequest) when a request body has a
// value of the wrong JSON type for a built-in kind: the JSON decoder (sigs.k8s.io/json, Go's encoding/json
// rules) reports the first such value in document order as
//   json: cannot unmarshal <value> into Go struct field <Struct>.<json.field.path> of type <go type>
// and the handler wraps it as `<Kind> in version "<version>" cannot be handled as a <Kind>: <error>`.
// int-or-string fields take strings or numbers, quantities strings or numbers, RawExtension / JSON /
// preserve-unknown-fields anything.
//
// checkRequired reports absent string fields the schema marks required (field.Required, paths like
// `spec.containers[0].name`), skipping status and list envelopes; absent numbers, booleans, lists and
// structs are zero values the real validation reports in its own words (or accepts).

import { badRequest, fieldErr, type FieldError, type StatusError } from '../errors.js';
import { isPlainObject } from '../object.js';
import { ext, resolve, someChildSchema, type Schema, type SchemaRegistry } from './types.js';

const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const TIME = 'io.k8s.apimachinery.pkg.apis.meta.v1.Time';
const MICRO_TIME = 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime';
const ANY_VALUE = new Set([
  'io.k8s.apimachinery.pkg.runtime.RawExtension',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray',
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1',
]);

export const QUANTITY_FORMAT_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const QUANTITY_RE = /^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|[eE][+-]?[0-9]+)?$/;

/** Go type name of a schema node, as encoding/json prints it (`int32`, `v1.Container`, `[]string`, ...). */
export function goTypeName(s: Schema | undefined, defs: SchemaRegistry): string {
  if (!s) return 'interface {}';
  const ref = refName(s);
  if (ref) {
    const parts = ref.split('.');
    return `${parts[parts.length - 2]}.${parts[parts.length - 1]}`;
  }
  switch (s.type) {
    case 'integer':
      return s.format === 'int32' ? 'int32' : s.format === 'int64' ? 'int64' : 'int';
    case 'number':
      return s.format === 'float' ? 'float32' : 'float64';
    case 'boolean':
      return 'bool';
    case 'string':
      return s.format === 'byte' ? '[]uint8' : 'string';
    case 'array':
      return `[]${goTypeName(s.items, defs)}`;
    case 'object':
      if (s.additionalProperties && typeof s.additionalProperties === 'object') return `map[string]${goTypeName(s.additionalProperties, defs)}`;
      return 'map[string]interface {}';
    default:
      return 'interface {}';
  }
}

function refName(s: Schema): string | undefined {
  if (s.$ref) return s.$ref;
  if (s.allOf && s.allOf.length === 1 && s.allOf[0].$ref && !s.type && !s.properties) return s.allOf[0].$ref;
  return undefined;
}

function jsonKind(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'array';
  return 'object';
}

interface Where {
  struct: string;
  path: string[];
}

class TypeMismatch {
  constructor(readonly message: string) {}
}

function mismatch(value: string, where: Where, type: string): never {
  if (where.struct) throw new TypeMismatch(`json: cannot unmarshal ${value} into Go struct field ${where.struct}.${where.path.join('.')} of type ${type}`);
  throw new TypeMismatch(`json: cannot unmarshal ${value} into Go value of type ${type}`);
}

/** The offset Go's base64 decoder reports for malformed input, or -1 when the input is valid. */
function base64ErrorOffset(s: string): number {
  const body = s.replace(/\r|\n/g, '');
  let i = 0;
  for (; i < body.length; i++) {
    const c = body[i];
    if (c === '=') break;
    if (!/[A-Za-z0-9+/]/.test(c)) return i;
  }
  const dataLen = i;
  const pad = body.length - dataLen;
  if (pad > 2 || body.slice(dataLen).replace(/=/g, '') !== '') return dataLen + body.slice(dataLen).search(/[^=]/);
  if ((dataLen + pad) % 4 !== 0) return dataLen - (dataLen % 4);
  if (pad > 0 && dataLen % 4 === 1) return dataLen - 1;
  return -1;
}

/**
 * `old`: the value at the same place in the stored state an update starts from (undefined when none). A
 * stored state of a built-in kind decodes into its type (every write path checks it before storing it, and
 * frozen-writes.test.ts checks it after every write over the catalog), so a member or item that is that
 * very value (a copy-on-write update shares it) passes as it did then and is not walked again.
 */
function check(v: unknown, s: Schema | undefined, defs: SchemaRegistry, where: Where, old?: unknown): void {
  if (v === null || v === undefined || !s) return;
  if (ext<boolean>(s, 'preserve-unknown-fields') === true && !s.properties) return;
  const ref = refName(s);
  if (ref) {
    if (ANY_VALUE.has(ref)) return;
    if (ref === INT_OR_STRING) {
      if (typeof v === 'string') return;
      if (typeof v === 'number') {
        if (!Number.isInteger(v) || v > 2147483647 || v < -2147483648) mismatch(`number ${v}`, { struct: '', path: [] }, 'int32');
        return;
      }
      mismatch(jsonKind(v), { struct: '', path: [] }, 'int32');
    }
    if (ref === QUANTITY) {
      if (typeof v === 'number' && Number.isFinite(v)) return;
      if (typeof v === 'string' && QUANTITY_RE.test(v.trim())) return;
      throw new TypeMismatch(QUANTITY_FORMAT_ERROR);
    }
    if (ref === TIME || ref === MICRO_TIME) {
      if (typeof v === 'string') {
        if (v === '' || !Number.isNaN(Date.parse(v))) return;
        throw new TypeMismatch(`parsing time ${JSON.stringify(v)} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(v)} as "2006"`);
      }
      mismatch(jsonKind(v), { struct: '', path: [] }, 'string');
    }
    const target = defs[ref];
    if (!target) return;
    if (target.type === 'object' || target.properties) {
      if (!isPlainObject(v)) mismatch(jsonKind(v), where, goTypeName(s, defs));
      const structName = ref.split('.').pop()!;
      checkStruct(v, target, defs, structName, where.path, old);
      return;
    }
    check(v, target, defs, where, old);
    return;
  }
  const r = resolve(s, defs) ?? s;
  switch (r.type) {
    case 'string':
      if (typeof v !== 'string') mismatch(jsonKind(v), where, goTypeName(r, defs));
      if (r.format === 'byte') {
        const off = base64ErrorOffset(v);
        if (off >= 0) throw new TypeMismatch(`illegal base64 data at input byte ${off}`);
      }
      return;
    case 'integer':
      if (typeof v !== 'number') mismatch(jsonKind(v), where, goTypeName(r, defs));
      else {
        const limit = r.format === 'int32' ? 2147483647 : Number.MAX_SAFE_INTEGER;
        if (!Number.isInteger(v) || v > limit || v < -limit - 1) mismatch(`number ${v}`, where, goTypeName(r, defs));
      }
      return;
    case 'number':
      if (typeof v !== 'number') mismatch(jsonKind(v), where, goTypeName(r, defs));
      return;
    case 'boolean':
      if (typeof v !== 'boolean') mismatch(jsonKind(v), where, 'bool');
      return;
    case 'array':
      if (!Array.isArray(v)) mismatch(jsonKind(v), where, goTypeName(r, defs));
      {
        const items = v as unknown[];
        const was = Array.isArray(old) ? old : undefined;
        for (let i = 0; i < items.length; i++) {
          const item = items[i];
          const o = was?.[i];
          if (o !== undefined && o === item) continue;
          check(item, r.items, defs, where, o);
        }
      }
      return;
    case 'object':
      if (!isPlainObject(v)) mismatch(jsonKind(v), where, goTypeName(r, defs));
      if (r.properties) checkStruct(v, r, defs, where.struct, where.path, old);
      else if (r.additionalProperties && typeof r.additionalProperties === 'object') {
        const m = v as Record<string, unknown>;
        const was = isPlainObject(old) ? old : undefined;
        for (const k in m) {
          if (!Object.hasOwn(m, k)) continue;
          const val = m[k];
          const o = was?.[k];
          if (o !== undefined && o === val) continue;
          check(val, r.additionalProperties, defs, where, o);
        }
      }
      return;
    default:
      return;
  }
}

function checkStruct(v: unknown, s: Schema, defs: SchemaRegistry, structName: string, path: string[], old?: unknown): void {
  const props = s.properties ?? {};
  const m = v as Record<string, unknown>;
  const was = isPlainObject(old) ? old : undefined;
  for (const k in m) {
    if (!Object.hasOwn(m, k)) continue;
    const ps = props[k];
    if (!ps) continue;
    const val = m[k];
    const o = was?.[k];
    if (o !== undefined && o === val) continue;
    check(val, ps, defs, { struct: structName, path: [...path, k] }, o);
  }
}

/**
 * The decoder's 400 for a body that does not fit the Go types of a built-in kind, or undefined when it fits.
 * `schema` is the kind's root schema (usually `{ $ref: "io.k8s.api.apps.v1.Deployment" }`). `old`: the
 * stored state an update starts from; the parts of `obj` that are its very values are not walked again.
 */
export function checkTypes(
  obj: unknown,
  schema: Schema,
  defs: SchemaRegistry,
  kind: { group: string; version: string; kind: string },
  old?: unknown,
): StatusError | undefined {
  try {
    const ref = refName(schema);
    const root = ref ? defs[ref] : schema;
    if (!isPlainObject(obj)) mismatch(jsonKind(obj), { struct: '', path: [] }, ref ? goTypeName(schema, defs) : 'map[string]interface {}');
    if (root) checkStruct(obj, root, defs, ref ? ref.split('.').pop()! : kind.kind, [], old);
    return undefined;
  } catch (e) {
    if (e instanceof TypeMismatch) {
      return badRequest(`${kind.kind} in version "${kind.version}" cannot be handled as a ${kind.kind}: ${e.message}`);
    }
    throw e;
  }
}

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/**
 * The JSON decoder's error for a custom resource's `metadata` that does not fit metav1.ObjectMeta (the
 * apiextensions server round-trips it through JSON into that type), or undefined when it fits. Paths are
 * relative to ObjectMeta (`ObjectMeta.finalizers`), as that decoder prints them.
 */
export function objectMetaTypeError(metadata: unknown, defs: SchemaRegistry): string | undefined {
  if (metadata === undefined || metadata === null || !defs[OBJECT_META]) return undefined;
  try {
    check(metadata, { $ref: OBJECT_META }, defs, { struct: '', path: [] });
    return undefined;
  } catch (e) {
    if (e instanceof TypeMismatch) return e.message;
    throw e;
  }
}

function isSkippedDefinition(name: string | undefined): boolean {
  if (!name) return false;
  const short = name.split('.').pop() ?? '';
  return /(Status|Condition|List|SystemInfo)$/.test(short);
}

/** What `required` needs of a schema, worked out once per schema object (the walk meets the same ones on every write). */
interface RequiredFacts {
  /** The resolved schema; undefined: nothing to check below (missing, or x-kubernetes-preserve-unknown-fields). */
  r: Schema | undefined;
  /** Required string fields checked here (none for skipped definitions). */
  strings: string[];
  /** Whether any required field can be checked here or below (worked out on first use). */
  below?: boolean;
}

/**
 * Whether a value of `s` can hold anything `required` reports: most parts of an object cannot (ObjectMeta,
 * env values, resources), and the walk skips them. A schema met again while its answer is being worked
 * out (a recursive definition) counts as one that can.
 */
function requiredBelow(s: Schema, defs: SchemaRegistry): boolean {
  const f = factsOf(s, defs);
  if (f.below !== undefined) return f.below;
  f.below = true;
  const r = f.r;
  let below = false;
  if (r) below = f.strings.length > 0 || someChildSchema(r, (child) => requiredBelow(child, defs));
  f.below = below;
  return below;
}

const requiredFacts = new WeakMap<SchemaRegistry, WeakMap<Schema, RequiredFacts>>();

function factsOf(s: Schema, defs: SchemaRegistry): RequiredFacts {
  let bySchema = requiredFacts.get(defs);
  if (!bySchema) requiredFacts.set(defs, (bySchema = new WeakMap()));
  let f = bySchema.get(s);
  if (f) return f;
  const ref = refName(s);
  const r = ref ? defs[ref] : (resolve(s, defs) ?? s);
  f = { r: !r || ext<boolean>(r, 'preserve-unknown-fields') === true ? undefined : r, strings: [] };
  if (f.r?.properties && !isSkippedDefinition(ref)) {
    for (const k of f.r.required ?? []) {
      const ps = f.r.properties[k];
      const pr = ps ? (refName(ps) ? defs[refName(ps)!] : resolve(ps, defs)) : undefined;
      // only string fields: absent numbers, booleans, lists and structs are zero values the real
      // validation reports in its own words (or accepts)
      if (pr?.type === 'string' && !refName(ps!)) f.strings.push(k);
    }
  }
  bySchema.set(s, f);
  return f;
}

function required(v: unknown, s: Schema | undefined, defs: SchemaRegistry, path: string, out: FieldError[]): void {
  if (v === null || v === undefined || !s) return;
  const facts = factsOf(s, defs);
  const r = facts.r;
  if (!r || !requiredBelow(s, defs)) return;
  if (r.type === 'array' || Array.isArray(v)) {
    if (Array.isArray(v)) v.forEach((item, i) => required(item, r.items, defs, `${path}[${i}]`, out));
    return;
  }
  if (!isPlainObject(v)) return;
  if (r.properties) {
    for (const k of facts.strings) if (v[k] === undefined || v[k] === null) out.push(fieldErr.required(path ? `${path}.${k}` : k, ''));
    for (const k of Object.keys(v)) {
      if (!path && (k === 'status' || k === 'metadata')) continue;
      const ps = r.properties[k];
      if (ps) required(v[k], ps, defs, path ? `${path}.${k}` : k, out);
    }
  } else if (r.additionalProperties && typeof r.additionalProperties === 'object') {
    for (const k of Object.keys(v)) required(v[k], r.additionalProperties, defs, `${path}[${k}]`, out);
  }
}

/** field.Required errors for absent fields the schema marks required (see the file comment for the scope). */
export function checkRequired(obj: unknown, schema: Schema, defs: SchemaRegistry): FieldError[] {
  const out: FieldError[] = [];
  required(obj, schema, defs, '', out);
  return out;
}
