// CEL types as the checker sees them. Plain data, compared structurally (see typeEquals / isAssignable).

export type CelVersion = '1.28' | '1.29' | '1.30' | '1.31' | '1.32' | '1.33' | '1.34';
export const CEL_VERSIONS: CelVersion[] = ['1.28', '1.29', '1.30', '1.31', '1.32', '1.33', '1.34'];

/** Compares two compatibility versions ("1.29" < "1.30"). */
export function versionAtLeast(v: CelVersion, min: CelVersion | undefined): boolean {
  if (!min) return true;
  return Number(v.split('.')[1]) >= Number(min.split('.')[1]);
}

export type PrimitiveKind =
  | 'int' | 'uint' | 'double' | 'bool' | 'string' | 'bytes' | 'null_type' | 'timestamp' | 'duration' | 'dyn' | 'error';

export interface PrimitiveType {
  kind: PrimitiveKind;
  /** Upper bound of size (string/bytes length) known from a schema (maxLength), for cost estimation. */
  maxSize?: number;
}
export interface ListType {
  kind: 'list';
  elem: CelType;
  /** x-kubernetes-list-type set/map (spec rule 6: order-insensitive equality, union/merge concatenation). */
  listType?: 'set' | 'map';
  mapKeys?: string[];
  maxSize?: number;
}
export interface MapType {
  kind: 'map';
  key: CelType;
  value: CelType;
  maxSize?: number;
}
/** `type` (param absent) or `type(T)`: the type of a type value. */
export interface TypeType {
  kind: 'type';
  param?: CelType;
}
export interface OptionalType {
  kind: 'optional';
  param: CelType;
}
/** Opaque named types such as `net.IP`, `kubernetes.Quantity`; params for generic ones. */
export interface OpaqueType {
  kind: 'opaque';
  name: string;
  params?: CelType[];
}
/** Object types built from OpenAPI schemas: fixed set of fields. Values are CelMap at runtime. */
export interface ObjectType {
  kind: 'object';
  name: string;
  /** Field types (escaped property names as keys, see schema-types.ts). Getter to allow recursive schemas. */
  field(name: string): CelType | undefined;
  fieldNames(): string[];
  maxSize?: number;
  /** Set when no field type holds a type parameter, at any depth (schema types): the checker looks no further. */
  plainFields?: boolean;
}
/** Type parameter inside overload signatures (`A`, `K`, `V`). */
export interface TypeParam {
  kind: 'param';
  name: string;
}

export type CelType = PrimitiveType | ListType | MapType | TypeType | OptionalType | OpaqueType | ObjectType | TypeParam;

export const T = {
  int: { kind: 'int' } as PrimitiveType,
  uint: { kind: 'uint' } as PrimitiveType,
  double: { kind: 'double' } as PrimitiveType,
  bool: { kind: 'bool' } as PrimitiveType,
  string: { kind: 'string' } as PrimitiveType,
  bytes: { kind: 'bytes' } as PrimitiveType,
  null: { kind: 'null_type' } as PrimitiveType,
  timestamp: { kind: 'timestamp' } as PrimitiveType,
  duration: { kind: 'duration' } as PrimitiveType,
  dyn: { kind: 'dyn' } as PrimitiveType,
  error: { kind: 'error' } as PrimitiveType,
  type: { kind: 'type' } as TypeType,
  list: (elem: CelType): ListType => ({ kind: 'list', elem }),
  map: (key: CelType, value: CelType): MapType => ({ kind: 'map', key, value }),
  optional: (param: CelType): OptionalType => ({ kind: 'optional', param }),
  typeOf: (param: CelType): TypeType => ({ kind: 'type', param }),
  opaque: (name: string, ...params: CelType[]): OpaqueType => ({ kind: 'opaque', name, params }),
  param: (name: string): TypeParam => ({ kind: 'param', name }),
};

/** The name CEL prints for a type: `int`, `list(string)`, `map(string, int)`, `optional_type(int)`. */
export function typeName(t: CelType): string {
  switch (t.kind) {
    case 'list':
      return `list(${typeName(t.elem)})`;
    case 'map':
      return `map(${typeName(t.key)}, ${typeName(t.value)})`;
    case 'type':
      return t.param ? `type(${typeName(t.param)})` : 'type';
    case 'optional':
      return `optional_type(${typeName(t.param)})`;
    case 'opaque':
      return t.params && t.params.length ? `${t.name}(${t.params.map(typeName).join(', ')})` : t.name;
    case 'object':
      return t.name;
    case 'param':
      return t.name;
    case 'timestamp':
      return 'google.protobuf.Timestamp';
    case 'duration':
      return 'google.protobuf.Duration';
    case 'null_type':
      // cel-go's FormatCELType prints the null type as `null` in messages
      return 'null';
    default:
      return t.kind;
  }
}

/** The runtime type name (`type(x)` prints this). Timestamps/durations print their proto names in cel-go. */
export function runtimeTypeName(t: CelType): string {
  switch (t.kind) {
    case 'list':
      return 'list';
    case 'map':
      return 'map';
    case 'optional':
      return 'optional_type';
    case 'opaque':
      return t.name;
    case 'type':
      return 'type';
    default:
      return typeName(t);
  }
}

export function typeEquals(a: CelType, b: CelType): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'list':
      return typeEquals(a.elem, (b as ListType).elem);
    case 'map':
      return typeEquals(a.key, (b as MapType).key) && typeEquals(a.value, (b as MapType).value);
    case 'type': {
      const bp = (b as TypeType).param;
      if (!a.param || !bp) return !a.param && !bp;
      return typeEquals(a.param, bp);
    }
    case 'optional':
      return typeEquals(a.param, (b as OptionalType).param);
    case 'opaque': {
      const bo = b as OpaqueType;
      if (a.name !== bo.name) return false;
      const ap = a.params ?? [], bpp = bo.params ?? [];
      return ap.length === bpp.length && ap.every((p, i) => typeEquals(p, bpp[i]));
    }
    case 'object':
      return a.name === (b as ObjectType).name;
    case 'param':
      return a.name === (b as TypeParam).name;
    default:
      return true;
  }
}
