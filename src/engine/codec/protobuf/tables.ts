// The protobuf field tables of fields.generated.ts, parsed on first use into lookup structures.

import { MESSAGES, KINDS, LIST_KINDS, META_KINDS } from './fields.generated.js';

export type ScalarCode = 's' | 'b' | 'i' | 'l' | 'u' | 'U' | 'd' | 'f' | 'y';

/** Messages whose JSON form is not their field structure (custom MarshalJSON in Go). */
export type SpecialId =
  | 'meta/v1.Time' | 'meta/v1.MicroTime' | 'meta/v1.Duration' | 'meta/v1.FieldsV1'
  | 'resource.Quantity' | 'intstr.IntOrString' | 'runtime.RawExtension'
  | 'apiextensions/v1.JSON' | 'apiextensions/v1.JSONSchemaPropsOrArray' | 'apiextensions/v1.JSONSchemaPropsOrBool'
  | 'apiextensions/v1.JSONSchemaPropsOrStringArray';

const SPECIAL_IDS: ReadonlySet<string> = new Set<SpecialId>([
  'meta/v1.Time', 'meta/v1.MicroTime', 'meta/v1.Duration', 'meta/v1.FieldsV1',
  'resource.Quantity', 'intstr.IntOrString', 'runtime.RawExtension',
  'apiextensions/v1.JSON', 'apiextensions/v1.JSONSchemaPropsOrArray', 'apiextensions/v1.JSONSchemaPropsOrBool',
  'apiextensions/v1.JSONSchemaPropsOrStringArray',
]);

export type FieldType =
  | { k: 'scalar'; t: ScalarCode }
  | { k: 'message'; id: string }
  | { k: 'list'; elem: FieldType }
  | { k: 'map'; key: ScalarCode; value: FieldType };

export interface FieldDef {
  /** JSON name ('' for an inline field). */
  json: string;
  num: number;
  type: FieldType;
  omitempty: boolean;
  /** The Go field is a pointer: nil when absent, written even when its value is zero. */
  pointer: boolean;
  /** `json:",inline"`: the message's fields are written at the parent's level. */
  inline: boolean;
  /** The Go field name as gogo-protobuf's errors print it. */
  goName: string;
}

export type MessageDef =
  | { kind: 'struct'; id: string; name: string; fields: FieldDef[]; byNum: Map<number, FieldDef> }
  /** A Go named slice (`type ExtraValue []string`): a wrapper message whose field 1 holds the items. */
  | { kind: 'slice'; id: string; name: string; elem: FieldType }
  | { kind: 'special'; id: SpecialId; name: string };

const SCALAR_CODES: ReadonlySet<string> = new Set(['s', 'b', 'i', 'l', 'u', 'U', 'd', 'f', 'y']);

const cache = new Map<string, MessageDef>();

function parseType(pkg: string, s: string): FieldType {
  if (s.startsWith('[')) return { k: 'list', elem: parseType(pkg, s.slice(1, -1)) };
  if (s.startsWith('{')) {
    const comma = s.indexOf(',');
    return { k: 'map', key: s.slice(1, comma) as ScalarCode, value: parseType(pkg, s.slice(comma + 1, -1)) };
  }
  if (SCALAR_CODES.has(s)) return { k: 'scalar', t: s as ScalarCode };
  return { k: 'message', id: s.includes('.') ? s : `${pkg}.${s}` };
}

function goNameOf(json: string, type: FieldType): string {
  // embedded ObjectMeta/ListMeta are named after their type; other fields are their JSON name capitalized
  if (type.k === 'message' && (json === 'metadata' || json === '')) return type.id.slice(type.id.lastIndexOf('.') + 1);
  return json.charAt(0).toUpperCase() + json.slice(1);
}

/** The definition of a message by id (`core/v1.Pod`, `meta/v1.ObjectMeta`). */
export function messageDef(id: string): MessageDef {
  const hit = cache.get(id);
  if (hit) return hit;
  const dot = id.lastIndexOf('.');
  const pkg = id.slice(0, dot);
  const name = id.slice(dot + 1);
  let def: MessageDef;
  if (SPECIAL_IDS.has(id)) {
    def = { kind: 'special', id: id as SpecialId, name };
  } else {
    const enc = MESSAGES[pkg]?.[name];
    if (enc === undefined) throw new Error(`protobuf: no table for message ${id}`);
    if (enc.startsWith('[')) {
      def = { kind: 'slice', id, name, elem: parseType(pkg, enc.slice(1, -1)) };
    } else {
      const fields: FieldDef[] = [];
      for (const part of enc === '' ? [] : enc.split(';')) {
        const eq = part.indexOf('=');
        const rest = part.slice(eq + 1).split(':');
        const flags = rest[2] ?? '';
        const json = part.slice(0, eq);
        const type = parseType(pkg, rest[1]);
        fields.push({
          json, num: Number(rest[0]), type,
          omitempty: flags.includes('?'), pointer: flags.includes('*'), inline: flags.includes('^'),
          goName: goNameOf(json, type),
        });
      }
      def = { kind: 'struct', id, name, fields, byNum: new Map(fields.map((f) => [f.num, f])) };
    }
  }
  cache.set(id, def);
  return def;
}

let groupVersions: Set<string> | undefined;

/**
 * The message id of a top-level kind (`apps/v1`, `Deployment` -> `apps/v1.Deployment`), if tabled.
 * DeleteOptions is registered in every group version (metav1.AddToGroupVersion) and in meta.k8s.io/v1:
 * typed clients send it as the body of a DELETE.
 */
export function kindMessageId(apiVersion: string, kind: string): string | undefined {
  const key = `${apiVersion}/${kind}`;
  if (Object.prototype.hasOwnProperty.call(KINDS, key)) return KINDS[key];
  if (kind === 'DeleteOptions') {
    groupVersions ??= new Set(['meta.k8s.io/v1', ...Object.keys(KINDS).map((k) => k.slice(0, k.lastIndexOf('/')))]);
    if (groupVersions.has(apiVersion)) return 'meta/v1.DeleteOptions';
  }
  return undefined;
}

/** Every `apiVersion/kind` the tables can decode (DeleteOptions aside). */
export function protobufKinds(): string[] {
  return Object.keys(KINDS);
}

function own(table: Record<string, string>, key: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;
}

/**
 * The message id of an object a response carries: a top-level kind, its list (`v1/PodList`), or a meta
 * kind (`v1/Status`, `meta.k8s.io/v1/PartialObjectMetadataList`).
 */
export function outputMessageId(apiVersion: string, kind: string): string | undefined {
  const key = `${apiVersion}/${kind}`;
  const hit = own(KINDS, key) ?? own(LIST_KINDS, key) ?? own(META_KINDS, key);
  if (hit || !apiVersion.includes('/')) return hit;
  // the spec's `svc` spellings of a group (docs/design.md 3), and meta.k8s.io/v1beta1, whose
  // PartialObjectMetadata[List] are v1's types
  const slash = apiVersion.indexOf('/');
  let group = apiVersion.slice(0, slash);
  let version = apiVersion.slice(slash + 1);
  if (group.endsWith('.svc.io')) group = `${group.slice(0, -'.svc.io'.length)}.k8s.io`;
  if (group === 'meta.k8s.io' && version === 'v1beta1') version = 'v1';
  const canonical = `${group}/${version}`;
  return canonical === apiVersion ? undefined : outputMessageId(canonical, kind);
}
