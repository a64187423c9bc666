// Typed schema for server-side apply, built from the engine's OpenAPI `Schema` the way
// k8s.io/kube-openapi schemaconv turns OpenAPI models into a structured-merge-diff schema:
//   - object -> map (struct fields + element type), `x-*-map-type` atomic|granular
//   - array  -> list, `x-*-list-type` atomic|set|map (+ `x-*-list-map-keys`); without a list type a
//     `patchStrategy=merge` marker reads as an associative list keyed by `patchMergeKey` (a set when no
//     key), and everything else is atomic ("Merge strategy markers" rules 1-3)
//   - a schema without `type` (int-or-string, preserve-unknown-fields) may be a scalar, a list or a map
//   - objects without properties or with `additionalProperties: true` / preserve-unknown-fields hold
//     "deduced" values: granular maps whose lists are atomic
//   - Quantity is an untyped scalar, RawExtension is atomic.
// Custom resources: lists without markers are atomic and objects are struct-like; metadata is ObjectMeta.

import type { JsonValue } from '../object.js';
import { ext, type Schema, type SchemaRegistry } from '../schema/types.js';

export type ScalarKind = 'numeric' | 'string' | 'boolean' | 'untyped';

export interface ListType {
  atomic: boolean;
  /** Associative list keys; empty for a set (or an atomic list). */
  keys: string[];
  elem: TypeRef;
}

export interface StructField {
  type: TypeRef;
  default?: JsonValue;
}

export interface MapType {
  atomic: boolean;
  fields: Map<string, StructField>;
  /** Type of keys that are not struct fields; undefined = such keys are not declared in the schema. */
  elem?: TypeRef;
  /** The "__untyped_deduced_" map (no fields, deduced elements). */
  deduced?: boolean;
}

export interface Atom {
  scalar?: ScalarKind;
  list?: ListType;
  map?: MapType;
}

/** A lazily resolved reference to an atom (schemas are recursive). */
export class TypeRef {
  private cached: Atom | undefined;
  constructor(private readonly make: () => Atom) {}
  get atom(): Atom {
    return (this.cached ??= this.make());
  }
  static of(a: Atom): TypeRef {
    const r = new TypeRef(() => a);
    return r;
  }
}

// "__untyped_atomic_": anything, replaced as a whole.
const untypedAtomicAtom: Atom = { scalar: 'untyped' };
export const UNTYPED_ATOMIC = TypeRef.of(untypedAtomicAtom);
untypedAtomicAtom.list = { atomic: true, keys: [], elem: UNTYPED_ATOMIC };
untypedAtomicAtom.map = { atomic: true, fields: new Map(), elem: UNTYPED_ATOMIC };

// "__untyped_deduced_": granular maps all the way down, atomic lists.
const deducedAtom: Atom = { scalar: 'untyped' };
export const DEDUCED = TypeRef.of(deducedAtom);
deducedAtom.list = { atomic: true, keys: [], elem: UNTYPED_ATOMIC };
deducedAtom.map = { atomic: false, fields: new Map(), elem: DEDUCED, deduced: true };

const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const RAW_EXTENSION = 'io.k8s.apimachinery.pkg.runtime.RawExtension';
export const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/**
 * Defaults of associative-list key fields. The v1.33 OpenAPI carries `default: "TCP"` for these
 * (`+default="TCP"`), the trimmed swagger here does not, and structured-merge-diff uses key defaults to
 * identify items whose key field is omitted (so `{containerPort: 80}` is the item `k:{"containerPort":80,"protocol":"TCP"}`).
 */
const KEY_DEFAULTS: Record<string, Record<string, JsonValue>> = {
  'io.k8s.api.core.v1.ContainerPort': { protocol: 'TCP' },
  'io.k8s.api.core.v1.ServicePort': { protocol: 'TCP' },
};

function refName(s: Schema): string | undefined {
  let r = s.$ref;
  if (!r && s.allOf && s.allOf.length === 1 && s.allOf[0].$ref) r = s.allOf[0].$ref;
  if (!r) return undefined;
  const i = r.lastIndexOf('/');
  return i >= 0 ? r.slice(i + 1) : r;
}

/** ObjectMeta as custom resources see it when the registry lacks the definition. */
const FALLBACK_OBJECT_META: Schema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    generateName: { type: 'string' },
    namespace: { type: 'string' },
    selfLink: { type: 'string' },
    uid: { type: 'string' },
    resourceVersion: { type: 'string' },
    generation: { type: 'integer', format: 'int64' },
    creationTimestamp: { type: 'string', format: 'date-time' },
    deletionTimestamp: { type: 'string', format: 'date-time' },
    deletionGracePeriodSeconds: { type: 'integer', format: 'int64' },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
    annotations: { type: 'object', additionalProperties: { type: 'string' } },
    ownerReferences: {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['uid'],
      items: {
        type: 'object',
        properties: {
          apiVersion: { type: 'string' },
          kind: { type: 'string' },
          name: { type: 'string' },
          uid: { type: 'string' },
          controller: { type: 'boolean' },
          blockOwnerDeletion: { type: 'boolean' },
        },
        required: ['apiVersion', 'kind', 'name', 'uid'],
        'x-kubernetes-map-type': 'atomic',
      },
    },
    finalizers: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
    managedFields: { type: 'array', items: { type: 'object' }, 'x-kubernetes-list-type': 'atomic' },
  },
};

export class SchemaConverter {
  private named = new Map<string, Atom>();
  constructor(
    private readonly defs: SchemaRegistry,
    private readonly customResource: boolean,
  ) {}

  /** The typed root of a kind. */
  root(schema: Schema): TypeRef {
    const name = refName(schema);
    if (name) return this.refTo(name, schema);
    return TypeRef.of(this.parse(schema, false, undefined, true));
  }

  private namedAtom(name: string): Atom {
    let a = this.named.get(name);
    if (a) return a;
    if (name === QUANTITY) a = { scalar: 'untyped' };
    else if (name === RAW_EXTENSION) a = untypedAtomicAtom;
    else {
      const s = this.defs[name] ?? (name === OBJECT_META ? FALLBACK_OBJECT_META : undefined);
      if (!s) a = deducedAtom;
      else {
        const preserve = ext<boolean>(s, 'preserve-unknown-fields') === true;
        a = this.parse(s, preserve, name, false);
      }
    }
    this.named.set(name, a);
    return a;
  }

  private refTo(name: string, site: Schema): TypeRef {
    const mapType = ext<string>(site, 'map-type');
    return new TypeRef(() => {
      const a = this.namedAtom(name);
      if (mapType !== 'atomic' && mapType !== 'granular') return a;
      // A field-level marker overrides the referred type's relationship (schema.Resolve).
      const atomic = mapType === 'atomic';
      if (a.map) return { map: { ...a.map, atomic } };
      if (a.list) return { list: { ...a.list, atomic } };
      return a;
    });
  }

  private makeRef(s: Schema, preserve: boolean): TypeRef {
    const name = refName(s);
    if (name) return this.refTo(name, s);
    return new TypeRef(() => this.parse(s, preserve, undefined, false));
  }

  private parse(s: Schema, preserveIn: boolean, defName: string | undefined, isRoot: boolean): Atom {
    const preserve = preserveIn || ext<boolean>(s, 'preserve-unknown-fields') === true;
    switch (s.type) {
      case undefined:
        return { scalar: 'untyped', list: this.parseList(s, preserve), map: this.parseObject(s, preserve, defName, isRoot) };
      case 'object':
        return { map: this.parseObject(s, preserve, defName, isRoot) };
      case 'array':
        return { list: this.parseList(s, preserve) };
      case 'integer':
      case 'number':
        return { scalar: 'numeric' };
      case 'boolean':
        return { scalar: 'boolean' };
      case 'string':
        return { scalar: !s.format || s.format === 'byte' ? 'string' : 'untyped' };
      default:
        return { scalar: 'untyped' };
    }
  }

  private parseObject(s: Schema, preserve: boolean, defName: string | undefined, isRoot: boolean): MapType {
    const fields = new Map<string, StructField>();
    const props = s.properties ?? {};
    for (const [name, member] of Object.entries(props)) {
      let type: TypeRef;
      type = this.makeRef(member, preserve);
      const f: StructField = { type };
      let def = member.default;
      if (def === undefined && !this.customResource) def = keyDefault(defName, name, props);
      if (def !== undefined) f.default = def;
      fields.set(name, f);
    }
    if (isRoot && this.customResource) {
      // the served schema of a custom resource always declares TypeMeta and ObjectMeta
      fields.set('metadata', { type: this.refTo(OBJECT_META, {}) });
      if (!fields.has('apiVersion')) fields.set('apiVersion', { type: TypeRef.of({ scalar: 'string' }) });
      if (!fields.has('kind')) fields.set('kind', { type: TypeRef.of({ scalar: 'string' }) });
    }
    let elem: TypeRef | undefined;
    const ap = s.additionalProperties;
    if (ap === undefined) elem = preserve || Object.keys(props).length === 0 ? DEDUCED : undefined;
    else if (typeof ap === 'object') elem = this.makeRef(ap, preserve);
    else if (ap === true) elem = DEDUCED;
    const mt = ext<string>(s, 'map-type');
    const out: MapType = { atomic: mt === 'atomic', fields, elem };
    if (fields.size === 0 && elem === DEDUCED) out.deduced = true;
    return out;
  }

  private parseList(s: Schema, preserve: boolean): ListType {
    let atomic = true;
    let keys: string[] = [];
    const lt = ext<string>(s, 'list-type');
    if (lt !== undefined) {
      if (lt === 'set') atomic = false;
      else if (lt === 'map') {
        atomic = false;
        keys = [...(ext<string[]>(s, 'list-map-keys') ?? [])];
      }
    } else if (!this.customResource) {
      const ps = ext<string>(s, 'patch-strategy');
      if (ps === 'merge' || ps === 'merge,retainKeys') {
        atomic = false;
        const k = ext<string>(s, 'patch-merge-key');
        if (typeof k === 'string') keys = [k];
      }
    }
    const elem = s.items ? this.makeRef(s.items, preserve) : UNTYPED_ATOMIC;
    return { atomic, keys, elem };
  }
}

function keyDefault(defName: string | undefined, field: string, props: Record<string, Schema>): JsonValue | undefined {
  if (defName && KEY_DEFAULTS[defName]) return KEY_DEFAULTS[defName][field];
  // Inlined copies of the same structs (no definition name): recognise them by their fields.
  if (field === 'protocol' && ('containerPort' in props || ('port' in props && 'targetPort' in props))) return 'TCP';
  return undefined;
}

/** Value alternatives of an atom (typed.deduceAtom): which of scalar/list/map applies to `v`. */
export type Kind = 'scalar' | 'list' | 'map' | 'any';

export function deduce(a: Atom, v: JsonValue | undefined): Kind {
  let k: Kind = 'any';
  if (v === undefined || v === null) k = 'any';
  else if (Array.isArray(v)) k = a.list ? 'list' : 'any';
  else if (typeof v === 'object') k = a.map ? 'map' : 'any';
  else k = a.scalar ? 'scalar' : 'any';
  if (k !== 'any') return k;
  // An atom with a single alternative equals its deduced form (atoms compare by their alternatives).
  const alts = (a.scalar ? 1 : 0) + (a.list ? 1 : 0) + (a.map ? 1 : 0);
  if (alts === 1) return a.map ? 'map' : a.scalar ? 'scalar' : 'list';
  return 'any';
}

/** The handler an atom dispatches to for a deduced kind (handleAtom: map, then scalar, then list). */
export function dispatch(a: Atom, k: Kind): 'scalar' | 'list' | 'map' | undefined {
  if (k !== 'any') return k;
  if (a.map) return 'map';
  if (a.scalar) return 'scalar';
  if (a.list) return 'list';
  return undefined;
}

export function fieldType(m: MapType, key: string): TypeRef | undefined {
  return m.fields.get(key)?.type ?? m.elem;
}
