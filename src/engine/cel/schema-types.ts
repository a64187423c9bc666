// OpenAPI schema -> CEL type (spec "Validation expression language" rules 5-7), with the size bounds
// Kubernetes derives for cost estimation (maxLength/maxItems/maxProperties, else what fits in a 3 MiB request).

import type { Schema, SchemaRegistry } from '../schema/types.js';
import { ext, resolve } from '../schema/types.js';
import type { CelType, ListType, MapType, ObjectType, PrimitiveType } from './types.js';

/** Kubernetes' maximum request size used to bound unbounded strings, lists and maps. */
export const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;
const MIN_STRING_SIZE = 2; // ""
const MIN_BOOL_SIZE = 4; // true
const MIN_NUMBER_SIZE = 1; // 0
const MIN_DURATION_SIZE_JSON = 3; // as Kubernetes counts it
const JSON_DATE_SIZE = 12; // "0000-00-00"
const MIN_DATETIME_SIZE_JSON = 21; // "0000-00-00T00:00:00Z"
const MAX_DURATION_SIZE_JSON = 32;
const MAX_DATETIME_SIZE_JSON = 37;

const KEYWORDS = new Set([
  'true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let',
  'loop', 'package', 'namespace', 'return', 'var', 'void', 'while',
]);

/**
 * Escapes a property name for use in CEL (spec rule 7): keywords become `__{kw}__`; `__` -> `__underscores__`,
 * `.` -> `__dot__`, `-` -> `__dash__`, `/` -> `__slash__`. Returns undefined when the name is not accessible.
 */
export function escapeProperty(name: string): string | undefined {
  if (KEYWORDS.has(name)) return `__${name}__`;
  if (!/^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*$/.test(name)) return undefined;
  let out = '';
  for (let i = 0; i < name.length; i++) {
    const c = name[i];
    if (c === '_' && name[i + 1] === '_') {
      out += '__underscores__';
      i++;
    } else if (c === '.') out += '__dot__';
    else if (c === '-') out += '__dash__';
    else if (c === '/') out += '__slash__';
    else out += c;
  }
  return out;
}

/** Reverses escapeProperty. */
export function unescapeProperty(escaped: string): string {
  const kw = /^__([a-z]+)__$/.exec(escaped);
  if (kw && KEYWORDS.has(kw[1])) return kw[1];
  return escaped.replace(/__(underscores|dot|dash|slash)__/g, (_m, w: string) => ({ underscores: '__', dot: '.', dash: '-', slash: '/' })[w]!);
}

interface Sized {
  type: CelType;
  minSize: number;
}

/** Type with the serialized minimum size Kubernetes tracks (for estimating list/map bounds). */
function decl(s0: Schema | undefined, defs: SchemaRegistry, resourceRoot: boolean, name: string, depth: number): Sized | undefined {
  let s = resolve(s0, defs);
  if (!s || depth > 64) return undefined;
  // built-in schemas spell int-or-string as a format (IntOrString), CRDs as the extension
  if (ext<boolean>(s, 'int-or-string') || s.format === 'int-or-string') {
    const maxSize = s.maxLength !== undefined ? Math.max(0, s.maxLength) * 4 : MAX_REQUEST_SIZE_BYTES - 2;
    return { type: { kind: 'dyn', maxSize }, minSize: 1 };
  }
  if (resourceRoot) s = withTypeAndObjectMeta(s, defs);
  switch (s.type) {
    case 'array': {
      if (!s.items) return undefined;
      const items = decl(s.items, defs, !!ext(resolve(s.items, defs) ?? {}, 'embedded-resource'), `${name}.@idx`, depth + 1);
      if (!items) return undefined;
      const maxSize = s.maxItems !== undefined ? Math.max(0, s.maxItems) : Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (items.minSize + 1));
      const lt = ext<string>(s, 'list-type');
      const t: ListType = { kind: 'list', elem: items.type, maxSize };
      if (lt === 'set' || lt === 'map') {
        t.listType = lt;
        if (lt === 'map') t.mapKeys = (ext<string[]>(s, 'list-map-keys') ?? []).map((k) => escapeProperty(k) ?? k);
      }
      return { type: t, minSize: 2 };
    }
    case 'object': {
      const ap = s.additionalProperties;
      if (ap !== undefined && ap !== false) {
        if (ap === true) return undefined;
        const apr = resolve(ap, defs);
        const props = decl(ap, defs, !!(apr && ext(apr, 'embedded-resource')), `${name}.@elem`, depth + 1);
        if (!props) return undefined;
        const maxSize = s.maxProperties !== undefined ? Math.max(0, s.maxProperties) : Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (props.minSize + 6));
        // map keys are Kubernetes' plain StringType, without an element bound
        const t: MapType = { kind: 'map', key: { kind: 'string', maxSize: 0 }, value: props.type, maxSize };
        return { type: t, minSize: 2 };
      }
      const schema = s;
      const required = new Set(schema.required ?? []);
      const fields = new Map<string, Sized | null>();
      const escapedToProp = new Map<string, string>();
      for (const p of Object.keys(schema.properties ?? {})) {
        const e = escapeProperty(p);
        if (e !== undefined) escapedToProp.set(e, p);
      }
      const fieldDecl = (field: string): Sized | undefined => {
        // a reserved word is also recognized as a field name for its escaped property (`namespace`)
        const escaped = !escapedToProp.has(field) && KEYWORDS.has(field) ? `__${field}__` : field;
        if (fields.has(escaped)) return fields.get(escaped) ?? undefined;
        const prop = escapedToProp.get(escaped);
        let r: Sized | undefined;
        if (prop !== undefined) {
          const ps = schema.properties![prop];
          const pr = resolve(ps, defs);
          r = decl(ps, defs, !!(pr && ext(pr, 'embedded-resource')), `${name}.${escaped}`, depth + 1);
        }
        fields.set(escaped, r ?? null);
        return r;
      };
      // min serialized size: {} plus required properties without defaults
      let minSize = 2;
      for (const p of required) {
        const ps = resolve(schema.properties?.[p], defs);
        const e = escapeProperty(p);
        if (!ps || ps.default !== undefined || e === undefined) continue;
        const f = fieldDecl(e);
        if (f) minSize += p.length + f.minSize + 4;
      }
      const fieldTypes = new Map<string, CelType | null>();
      const t: ObjectType = {
        kind: 'object',
        name,
        // field types are read on every field selection at runtime: one map lookup once known
        field: (f) => {
          let ft = fieldTypes.get(f);
          if (ft === undefined) fieldTypes.set(f, (ft = fieldDecl(f)?.type ?? null));
          return ft ?? undefined;
        },
        fieldNames: () => [...escapedToProp.keys()].filter((e) => fieldDecl(e) !== undefined),
        maxSize: 0,
        // a schema's types hold no type parameter (see ObjectType.plainFields)
        plainFields: true,
      };
      return { type: t, minSize };
    }
    case 'string': {
      const enumMax = s.enum && s.enum.length ? Math.max(0, ...s.enum.map((v) => (typeof v === 'string' ? v.length : 0))) : undefined;
      switch (s.format) {
        case 'byte':
          return { type: { kind: 'bytes', maxSize: s.maxLength !== undefined ? Math.max(0, s.maxLength) : MAX_REQUEST_SIZE_BYTES - 2 }, minSize: MIN_STRING_SIZE };
        case 'duration':
          return { type: { kind: 'duration', maxSize: MAX_DURATION_SIZE_JSON }, minSize: MIN_DURATION_SIZE_JSON };
        case 'date':
          return { type: { kind: 'timestamp', maxSize: JSON_DATE_SIZE }, minSize: JSON_DATE_SIZE };
        case 'date-time':
          return { type: { kind: 'timestamp', maxSize: MAX_DATETIME_SIZE_JSON }, minSize: MIN_DATETIME_SIZE_JSON };
      }
      const maxSize = s.maxLength !== undefined ? Math.max(0, s.maxLength) * 4 : enumMax !== undefined ? enumMax : MAX_REQUEST_SIZE_BYTES - 2;
      const t: PrimitiveType = { kind: 'string', maxSize };
      return { type: t, minSize: MIN_STRING_SIZE };
    }
    // scalars and objects carry no element bound (MaxElements 0 in Kubernetes' DeclType): comparing them
    // costs nothing in the estimator
    case 'boolean':
      return { type: { kind: 'bool', maxSize: 0 }, minSize: MIN_BOOL_SIZE };
    case 'number':
      return { type: { kind: 'double', maxSize: 0 }, minSize: MIN_NUMBER_SIZE };
    case 'integer':
      return { type: { kind: 'int', maxSize: 0 }, minSize: MIN_NUMBER_SIZE };
  }
  return undefined;
}

// apiVersion, kind, metadata.name and metadata.generateName are accessible at the root of every resource and
// embedded resource even when the schema does not list them.
function withTypeAndObjectMeta(s: Schema, defs: SchemaRegistry): Schema {
  const p = s.properties ?? {};
  const md = resolve(p.metadata, defs);
  if (resolve(p.kind, defs)?.type === 'string' && resolve(p.apiVersion, defs)?.type === 'string' && md?.type === 'object' &&
    resolve(md.properties?.name, defs)?.type === 'string' && resolve(md.properties?.generateName, defs)?.type === 'string') return s;
  return {
    ...s,
    type: 'object',
    properties: {
      ...p,
      kind: { type: 'string' },
      apiVersion: { type: 'string' },
      metadata: { type: 'object', properties: { name: { type: 'string' }, generateName: { type: 'string' } } },
    },
  };
}

/**
 * The CEL type of values validated by `schema` (spec rule 5). Returns undefined when the schema is not
 * accessible from CEL (untyped, preserve-unknown-fields without a type, additionalProperties: true).
 * `name` names the root object type (nested types get `name.field`, `name.@idx`, `name.@elem`).
 */
export function schemaToCelType(schema: Schema, defs: SchemaRegistry = {}, opts: { name?: string; resourceRoot?: boolean } = {}): CelType | undefined {
  return decl(schema, defs, !!opts.resourceRoot, opts.name ?? 'object', 0)?.type;
}

/**
 * The smallest size in bytes a value of `schema` can serialize to (Kubernetes' DeclType.MinSerializedSize):
 * `{}` plus the required properties without defaults for objects, `[]`/`{}` for lists and maps, `""` for
 * strings. Undefined when the schema has no CEL type.
 */
export function schemaMinSerializedSize(schema: Schema, defs: SchemaRegistry = {}, opts: { resourceRoot?: boolean } = {}): number | undefined {
  return decl(schema, defs, !!opts.resourceRoot, 'object', 0)?.minSize;
}

/** Fields of an object type from a schema, for tooling (completion, messages). */
export function objectFieldNames(t: CelType): string[] {
  return t.kind === 'object' ? t.fieldNames() : [];
}

/**
 * Declares object types from a schema registry: `typeFor('io.k8s.api.core.v1.Pod')` or `typeForSchema(s)`.
 * Types are cached per definition name, so `self` and `oldSelf` built from the same name share one type.
 */
export class SchemaTypeProvider {
  readonly #cache = new Map<string, CelType | undefined>();
  constructor(private readonly defs: SchemaRegistry = {}) {}
  /** Type of a named definition, as a resource root (apiVersion, kind, metadata.name are accessible). */
  typeFor(definition: string, opts: { resourceRoot?: boolean; name?: string } = {}): CelType | undefined {
    const key = `${definition}|${opts.resourceRoot ?? true}|${opts.name ?? ''}`;
    if (!this.#cache.has(key)) {
      const s = this.defs[definition];
      this.#cache.set(key, s ? schemaToCelType(s, this.defs, { resourceRoot: opts.resourceRoot ?? true, name: opts.name ?? definition }) : undefined);
    }
    return this.#cache.get(key);
  }
  typeForSchema(schema: Schema, opts: { resourceRoot?: boolean; name?: string } = {}): CelType | undefined {
    return schemaToCelType(schema, this.defs, opts);
  }
}
