// Request bodies in `application/vnd.kubernetes.protobuf` (kubectl's typed clients send them), turned into
// the JSON object the real v1.33 server would write for the same object: the real server unmarshals the
// protobuf into its Go struct, and encoding/json output of that struct is what this returns.
//
// Wire format (spec "Media types and negotiation" rule 4): the prefix 6b 38 73 00, then a `runtime.Unknown`
// {1: typeMeta {1: apiVersion, 2: kind}, 2: raw (the object message), 3: contentEncoding, 4: contentType}.
//
// JSON mapping, as encoding/json writes the decoded Go struct (fields.generated.ts has the Go facts):
//  - fields in Go struct order; `json:",inline"` structs written at the parent's level;
//  - omitempty drops "", 0, false, nil and empty slices/maps; structs are never dropped (`status: {}`);
//  - without omitempty a zero scalar is written (`disruptionsAllowed: 0`), a nil slice/map/pointer is `null`
//    (`rules: null`); a Go pointer present on the wire is written even when zero (`replicas: 0`);
//  - Time -> RFC 3339 in seconds (`null` when zero), MicroTime -> RFC 3339 with microseconds, Duration ->
//    Go duration string, Quantity -> its string, IntOrString -> number or string, RawExtension and FieldsV1
//    -> the embedded JSON, bytes -> base64, int64 -> number, map keys sorted (Go sorts them).
// go-to-protobuf writes every non-pointer field, so a real client's body has no absent non-pointer fields;
// an absent one decodes as its Go zero value, which is written by the rules above.
//
// Errors are 400s worded as the create/update handlers word decode errors (handlers/rest.go
// transformDecodeError) when `expectKind` is given, with the protobuf serializer's and gogo-protobuf's texts.

import { badRequest, StatusError } from '../../errors.js';
import { summarizeData } from '../decode.js';
import { parseJson, JsonSyntaxError, setMember } from '../json.js';
import { compareGoStrings } from '../go-format.js';
import { MAX_NESTING_DEPTH } from '../budgets.js';
import {
  Reader, ProtoError, int64ToNumber, uint64ToNumber, int64ToBigInt,
  WIRE_VARINT, WIRE_FIXED64, WIRE_BYTES, WIRE_END_GROUP, WIRE_FIXED32,
} from './reader.js';
import { messageDef, kindMessageId, outputMessageId, type FieldDef, type FieldType, type MessageDef, type ScalarCode } from './tables.js';

export { protobufKinds } from './tables.js';

export const PROTOBUF_PREFIX = new Uint8Array([0x6b, 0x38, 0x73, 0x00]);

export interface ProtobufDecodeOptions {
  /**
   * The kind the endpoint decodes into (e.g. `ConfigMap`): errors are then worded like the create/update
   * handlers' (`the object provided is unrecognized (must be of type ConfigMap): ...`), and a missing
   * kind in the envelope defaults to it (the serializer's copyKindDefaults).
   */
  expectKind?: string;
  /** The endpoint's `group/version` (`v1`, `apps/v1`): default for a missing apiVersion in the envelope. */
  expectApiVersion?: string;
  /** A missing kind in the envelope defaults to this (without the handlers' error wording of expectKind). */
  defaultKind?: string;
  /** Also read the kinds only responses carry (lists, Status, PartialObjectMetadata): for clients and tests. */
  responseKinds?: boolean;
}

export interface ProtobufObject {
  apiVersion: string;
  kind: string;
  object: Record<string, unknown>;
}

/** True when the body starts with the protobuf envelope prefix. */
export function hasProtobufPrefix(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x6b && bytes[1] === 0x38 && bytes[2] === 0x73 && bytes[3] === 0x00;
}

/** Decodes a protobuf request body into its JSON object (apiVersion and kind first). Throws 400s. */
export function decodeProtobufObject(bytes: Uint8Array, opts: ProtobufDecodeOptions = {}): ProtobufObject {
  // serializer/protobuf Decode: these errors come before any kind is known
  const unrecognized = (inner: string): StatusError =>
    opts.expectKind
      ? badRequest(`the object provided is unrecognized (must be of type ${opts.expectKind}): ${inner} (${summarizeData(bytes)})`)
      : badRequest(inner);
  if (bytes.length === 0) throw unrecognized('empty data');
  if (!hasProtobufPrefix(bytes)) {
    throw unrecognized('provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
  }
  if (bytes.length === 4) throw unrecognized('empty body');

  let env: Envelope;
  try {
    env = readEnvelope(bytes.subarray(4));
  } catch (e) {
    if (e instanceof ProtoError) throw unrecognized(e.message);
    throw e;
  }

  // copyKindDefaults: a missing kind or version comes from the endpoint
  let { apiVersion, kind } = env;
  if (!kind && (opts.expectKind ?? opts.defaultKind)) kind = (opts.expectKind ?? opts.defaultKind)!;
  if (!versionOf(apiVersion) && opts.expectApiVersion) apiVersion = opts.expectApiVersion;

  const typed = (inner: string): StatusError =>
    opts.expectKind
      ? badRequest(`${kind} in version ${JSON.stringify(versionOf(apiVersion))} cannot be handled as a ${opts.expectKind}: ${inner}`)
      : badRequest(inner);
  const typeMetaText = `runtime.TypeMeta{APIVersion:${JSON.stringify(env.apiVersion)}, Kind:${JSON.stringify(env.kind)}}`;
  if (!kind) throw typed(`Object 'Kind' is missing in '${typeMetaText}'`);
  if (!versionOf(apiVersion)) throw typed(`Object 'apiVersion' is missing in '${typeMetaText}'`);

  const id = kindMessageId(apiVersion, kind) ?? (opts.responseKinds ? outputMessageId(apiVersion, kind) : undefined);
  if (!id) {
    throw typed(`no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)} in scheme "pkg/api/legacyscheme/scheme.go:30"`);
  }
  let body: Record<string, unknown>;
  try {
    body = decodeMessage(id, env.raw) as Record<string, unknown>;
  } catch (e) {
    if (e instanceof ProtoError) throw typed(e.message);
    throw e;
  }
  const object: Record<string, unknown> = { apiVersion, kind };
  for (const [k, v] of Object.entries(body)) setMember(object, k, v);
  return { apiVersion, kind, object };
}

function versionOf(apiVersion: string): string {
  const slash = apiVersion.lastIndexOf('/');
  return slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
}

interface Envelope {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
}

const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true } as { fatal?: boolean });

function utf8(b: Uint8Array): string {
  // invalid UTF-8 becomes U+FFFD, as encoding/json writes it
  return UTF8.decode(b);
}

/** A message header check shared by every loop (gogo's Unmarshal preamble). */
function readTag(r: Reader, msg: string): { num: number; wire: number } {
  const t = r.tag();
  if (t.wire === WIRE_END_GROUP) throw new ProtoError(`proto: ${msg}: wiretype end group for non-group`);
  if (t.num <= 0) throw new ProtoError(`proto: ${msg}: illegal tag ${t.num} (wire type ${t.raw})`);
  return t;
}

function wrongWire(wire: number, goName: string): ProtoError {
  return new ProtoError(`proto: wrong wireType = ${wire} for field ${goName}`);
}

function readEnvelope(data: Uint8Array): Envelope {
  const env: Envelope = { apiVersion: '', kind: '', raw: new Uint8Array(0) };
  const r = new Reader(data);
  while (!r.done()) {
    const { num, wire } = readTag(r, 'Unknown');
    const names: Record<number, string> = { 1: 'TypeMeta', 2: 'Raw', 3: 'ContentEncoding', 4: 'ContentType' };
    if (num >= 1 && num <= 4) {
      if (wire !== WIRE_BYTES) throw wrongWire(wire, names[num]);
      const b = r.bytes();
      if (num === 1) {
        const t = new Reader(b);
        while (!t.done()) {
          const tt = readTag(t, 'TypeMeta');
          if (tt.num === 1 || tt.num === 2) {
            if (tt.wire !== WIRE_BYTES) throw wrongWire(tt.wire, tt.num === 1 ? 'APIVersion' : 'Kind');
            const s = utf8(t.bytes());
            if (tt.num === 1) env.apiVersion = s;
            else env.kind = s;
          } else t.skip(tt.wire);
        }
      } else if (num === 2) env.raw = b;
      // contentEncoding / contentType: the typed decoder reads raw as protobuf regardless
    } else r.skip(wire);
  }
  return env;
}

// ---------------------------------------------------------------------------------------------------------
// Values: `undefined` stands for Go's nil (a nil slice, map, pointer or []byte).

type Acc =
  | { k: 'scalar'; v: unknown }
  | { k: 'list'; items: unknown[] }
  | { k: 'map'; entries: Map<string, unknown> }
  | { k: 'message'; chunks: Uint8Array[] };

function expectedWire(t: FieldType): number {
  if (t.k !== 'scalar') return WIRE_BYTES;
  switch (t.t) {
    case 's': case 'y': return WIRE_BYTES;
    case 'd': return WIRE_FIXED64;
    case 'f': return WIRE_FIXED32;
    default: return WIRE_VARINT;
  }
}

function readScalar(r: Reader, t: ScalarCode): unknown {
  switch (t) {
    case 's': return utf8(r.bytes());
    case 'y': return base64(r.bytes());
    case 'b': { const [lo, hi] = r.varint(); return lo !== 0 || hi !== 0; }
    case 'i': return r.varint()[0] | 0;
    case 'u': return r.varint()[0];
    case 'l': { const [lo, hi] = r.varint(); return int64ToNumber(lo, hi); }
    case 'U': { const [lo, hi] = r.varint(); return uint64ToNumber(lo, hi); }
    case 'd': {
      const [lo, hi] = r.fixed64();
      const v = new DataView(new ArrayBuffer(8));
      v.setUint32(0, lo, true);
      v.setUint32(4, hi, true);
      return v.getFloat64(0, true);
    }
    case 'f': {
      const v = new DataView(new ArrayBuffer(4));
      v.setUint32(0, r.fixed32(), true);
      return v.getFloat32(0, true);
    }
  }
}

function scalarZero(t: ScalarCode): unknown {
  if (t === 's') return '';
  if (t === 'b') return false;
  if (t === 'y') return undefined;
  return 0;
}

function concat(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

/** Messages open in the current decoding (the nesting budget, see codec/budgets.ts). */
let messageDepth = 0;

/** The JSON value of an embedded message given its encoding (several chunks merge, as in protobuf). */
function decodeMessage(id: string, data: Uint8Array): unknown {
  const def = messageDef(id);
  // self-nesting messages (JSONSchemaProps) are bounded like the other decoders, with the words of
  // google.golang.org/protobuf's recursion limit
  if (messageDepth >= MAX_NESTING_DEPTH) throw new ProtoError('exceeded maximum recursion depth');
  messageDepth++;
  try {
    switch (def.kind) {
      case 'struct': return decodeStruct(def, data);
      case 'slice': return decodeSlice(def, data);
      case 'special': return decodeSpecial(def.id, data);
    }
  } finally {
    messageDepth--;
  }
}

/** A map entry or list element of a message type: its value, or its Go zero value when absent. */
function valueOf(t: FieldType, r: Reader): unknown {
  if (t.k === 'scalar') return readScalar(r, t.t);
  if (t.k === 'message') return decodeMessage(t.id, r.bytes());
  throw new Error('protobuf tables: nested list or map');
}

function zeroOf(t: FieldType): unknown {
  if (t.k === 'scalar') return scalarZero(t.t);
  if (t.k === 'message') return decodeMessage(t.id, new Uint8Array(0));
  return undefined;
}

function decodeStruct(def: Extract<MessageDef, { kind: 'struct' }>, data: Uint8Array): Record<string, unknown> {
  const accs = new Map<number, Acc>();
  const r = new Reader(data);
  while (!r.done()) {
    const { num, wire } = readTag(r, def.name);
    const f = def.byNum.get(num);
    if (!f) {
      r.skip(wire);
      continue;
    }
    readField(r, f, wire, accs);
  }
  const out: Record<string, unknown> = {};
  for (const f of def.fields) {
    const acc = accs.get(f.num);
    if (f.inline) {
      if (f.type.k !== 'message') throw new Error(`protobuf tables: inline ${def.id}.${f.goName}`);
      if (f.pointer && !acc) continue; // a nil embedded pointer writes nothing
      const inner = decodeMessage(f.type.id, acc && acc.k === 'message' ? concat(acc.chunks) : new Uint8Array(0));
      if (inner && typeof inner === 'object' && !Array.isArray(inner)) {
        for (const [k, v] of Object.entries(inner)) setMember(out, k, v);
      }
      continue;
    }
    const v = fieldValue(f, acc);
    if (f.omitempty && isEmpty(v, f)) continue;
    setMember(out, f.json, v === undefined ? null : v);
  }
  return out;
}

function readField(r: Reader, f: FieldDef, wire: number, accs: Map<number, Acc>): void {
  const t = f.type;
  if (t.k === 'list') {
    let acc = accs.get(f.num) as Extract<Acc, { k: 'list' }> | undefined;
    if (!acc) accs.set(f.num, (acc = { k: 'list', items: [] }));
    const ew = expectedWire(t.elem);
    if (wire === ew) {
      acc.items.push(valueOf(t.elem, r));
    } else if (wire === WIRE_BYTES && t.elem.k === 'scalar' && ew !== WIRE_BYTES) {
      // packed numbers (gogo accepts both encodings)
      const [s, e] = r.lengthDelimited();
      const pr = new Reader(r.buf, s, e);
      while (!pr.done()) acc.items.push(readScalar(pr, t.elem.t));
    } else throw wrongWire(wire, f.goName);
    return;
  }
  if (wire !== expectedWire(t)) throw wrongWire(wire, f.goName);
  if (t.k === 'map') {
    let acc = accs.get(f.num) as Extract<Acc, { k: 'map' }> | undefined;
    if (!acc) accs.set(f.num, (acc = { k: 'map', entries: new Map() }));
    const [s, e] = r.lengthDelimited();
    const er = new Reader(r.buf, s, e);
    let key: unknown = scalarZero(t.key);
    let value: unknown;
    let hasValue = false;
    while (!er.done()) {
      const et = er.tag();
      if (et.num === 1 && et.wire === expectedWire({ k: 'scalar', t: t.key })) key = readScalar(er, t.key);
      else if (et.num === 2 && et.wire === expectedWire(t.value)) {
        value = valueOf(t.value, er);
        hasValue = true;
      } else if (et.num === 1 || et.num === 2) throw wrongWire(et.wire, f.goName);
      else er.skip(et.wire);
    }
    if (!hasValue) value = t.value.k === 'scalar' && t.value.t === 'y' ? '' : zeroOf(t.value);
    acc.entries.set(String(key ?? ''), value);
    return;
  }
  if (t.k === 'message') {
    const acc = accs.get(f.num) as Extract<Acc, { k: 'message' }> | undefined;
    if (acc) acc.chunks.push(r.bytes());
    else accs.set(f.num, { k: 'message', chunks: [r.bytes()] });
    return;
  }
  const v = readScalar(r, t.t);
  accs.set(f.num, { k: 'scalar', v });
}

/** A field's Go value as JSON (undefined = nil). */
function fieldValue(f: FieldDef, acc: Acc | undefined): unknown {
  const t = f.type;
  if (t.k === 'list') return acc && acc.k === 'list' ? acc.items.map((x) => (x === undefined ? null : x)) : undefined;
  if (t.k === 'map') {
    if (!acc || acc.k !== 'map') return undefined;
    const m: Record<string, unknown> = {};
    for (const k of [...acc.entries.keys()].sort(compareGoStrings)) {
      const v = acc.entries.get(k);
      setMember(m, k, v === undefined ? null : v);
    }
    return m;
  }
  if (t.k === 'message') {
    if (!acc) return f.pointer ? undefined : zeroOf(t);
    return decodeMessage(t.id, concat((acc as Extract<Acc, { k: 'message' }>).chunks));
  }
  if (!acc) return f.pointer ? undefined : scalarZero(t.t);
  return (acc as Extract<Acc, { k: 'scalar' }>).v;
}

/** encoding/json's isEmptyValue for the Go kinds these fields have. */
function isEmpty(v: unknown, f: FieldDef): boolean {
  if (v === undefined) return true; // nil pointer, slice, map or []byte
  if (f.pointer) return false;
  const t = f.type;
  if (t.k === 'list') return (v as unknown[]).length === 0;
  if (t.k === 'map') return Object.keys(v as object).length === 0;
  if (t.k === 'message') {
    // a struct is never empty; a named slice (ExtraValue) is when it has no items
    return messageDef(t.id).kind === 'slice' && (v as unknown[]).length === 0;
  }
  return v === '' || v === 0 || v === false;
}

/** A Go named slice; these are only map values, which gogo starts as an empty non-nil slice (`[]`). */
function decodeSlice(def: Extract<MessageDef, { kind: 'slice' }>, data: Uint8Array): unknown[] {
  const items: unknown[] = [];
  const r = new Reader(data);
  while (!r.done()) {
    const { num, wire } = readTag(r, def.name);
    if (num !== 1) {
      r.skip(wire);
      continue;
    }
    if (wire !== expectedWire(def.elem)) throw wrongWire(wire, 'Items');
    items.push(valueOf(def.elem, r));
  }
  return items;
}

// ---------------------------------------------------------------------------------------------------------
// Messages with their own JSON form.

function decodeSpecial(id: string, data: Uint8Array): unknown {
  switch (id) {
    case 'meta/v1.Time':
    case 'meta/v1.MicroTime': {
      if (data.length === 0) return null; // Time.Unmarshal: no bytes is the zero time
      let seconds = 0n;
      let nanos = 0;
      const r = new Reader(data);
      while (!r.done()) {
        const { num, wire } = readTag(r, 'Timestamp');
        if (num === 1 || num === 2) {
          if (wire !== WIRE_VARINT) throw wrongWire(wire, num === 1 ? 'Seconds' : 'Nanos');
          const [lo, hi] = r.varint();
          if (num === 1) seconds = int64ToBigInt(lo, hi);
          else nanos = lo | 0;
        } else r.skip(wire);
      }
      // Time keeps whole seconds only; MicroTime truncates to microseconds
      return id === 'meta/v1.Time' ? formatTime(seconds, 0, false) : formatTime(seconds, nanos, true);
    }
    case 'meta/v1.Duration': {
      let d = 0n;
      const r = new Reader(data);
      while (!r.done()) {
        const { num, wire } = readTag(r, 'Duration');
        if (num === 1) {
          if (wire !== WIRE_VARINT) throw wrongWire(wire, 'Duration');
          const [lo, hi] = r.varint();
          d = int64ToBigInt(lo, hi);
        } else r.skip(wire);
      }
      return goDuration(d);
    }
    case 'resource.Quantity': {
      // the zero Quantity writes "0"; clients send the canonical string (Quantity.String())
      let s = '0';
      const r = new Reader(data);
      while (!r.done()) {
        const { num, wire } = readTag(r, 'Quantity');
        if (num === 1) {
          if (wire !== WIRE_BYTES) throw wrongWire(wire, 'String_');
          s = utf8(r.bytes());
        } else r.skip(wire);
      }
      return s;
    }
    case 'intstr.IntOrString': {
      let type = 0;
      let intVal = 0;
      let strVal = '';
      const r = new Reader(data);
      while (!r.done()) {
        const { num, wire } = readTag(r, 'IntOrString');
        if (num === 1 || num === 2) {
          if (wire !== WIRE_VARINT) throw wrongWire(wire, num === 1 ? 'Type' : 'IntVal');
          const [lo, hi] = r.varint();
          if (num === 1) type = int64ToNumber(lo, hi);
          else intVal = lo | 0;
        } else if (num === 3) {
          if (wire !== WIRE_BYTES) throw wrongWire(wire, 'StrVal');
          strVal = utf8(r.bytes());
        } else r.skip(wire);
      }
      if (type === 0) return intVal;
      if (type === 1) return strVal;
      throw new ProtoError('impossible IntOrString.Type');
    }
    case 'apiextensions/v1.JSONSchemaPropsOrArray':
    case 'apiextensions/v1.JSONSchemaPropsOrBool':
    case 'apiextensions/v1.JSONSchemaPropsOrStringArray':
      return decodeSchemaUnion(id, data);
    case 'runtime.RawExtension':
    case 'apiextensions/v1.JSON':
    case 'meta/v1.FieldsV1': {
      let raw: Uint8Array | undefined;
      const r = new Reader(data);
      while (!r.done()) {
        const { num, wire } = readTag(r, id === 'meta/v1.FieldsV1' ? 'FieldsV1' : id === 'apiextensions/v1.JSON' ? 'JSON' : 'RawExtension');
        if (num === 1) {
          if (wire !== WIRE_BYTES) throw wrongWire(wire, 'Raw');
          raw = r.bytes();
        } else r.skip(wire);
      }
      // nil (or empty) raw writes null; otherwise the raw bytes are the JSON
      if (!raw || raw.length === 0) return null;
      try {
        return parseJson(utf8(raw), { maxDepth: Math.max(1, MAX_NESTING_DEPTH - messageDepth) }).value;
      } catch (e) {
        if (e instanceof JsonSyntaxError) throw new ProtoError(`${id === 'meta/v1.FieldsV1' ? 'FieldsV1' : id === 'apiextensions/v1.JSON' ? 'JSON' : 'RawExtension'} is not JSON: ${e.message}`);
        throw e;
      }
    }
  }
  throw new Error(`protobuf: no decoder for ${id}`);
}

/**
 * The JSON-schema unions of apiextensions/v1 as their MarshalJSON writes them: OrArray is the list when it
 * has items, else the schema (null without one); OrBool is the schema when there is one, else the bool;
 * OrStringArray is the property list when non-empty, else the schema (null without one).
 */
function decodeSchemaUnion(id: string, data: Uint8Array): unknown {
  const name = id.slice(id.indexOf('.') + 1);
  let schema: Uint8Array[] | undefined;
  const list: unknown[] = [];
  let allows = false;
  const r = new Reader(data);
  while (!r.done()) {
    const { num, wire } = readTag(r, name);
    const schemaNum = id === 'apiextensions/v1.JSONSchemaPropsOrBool' ? 2 : 1;
    if (num === schemaNum) {
      if (wire !== WIRE_BYTES) throw wrongWire(wire, 'Schema');
      (schema ??= []).push(r.bytes());
    } else if (id === 'apiextensions/v1.JSONSchemaPropsOrBool' && num === 1) {
      if (wire !== WIRE_VARINT) throw wrongWire(wire, 'Allows');
      const [lo, hi] = r.varint();
      allows = lo !== 0 || hi !== 0;
    } else if (id !== 'apiextensions/v1.JSONSchemaPropsOrBool' && num === 2) {
      if (wire !== WIRE_BYTES) throw wrongWire(wire, id === 'apiextensions/v1.JSONSchemaPropsOrArray' ? 'JSONSchemas' : 'Property');
      list.push(id === 'apiextensions/v1.JSONSchemaPropsOrArray' ? decodeMessage('apiextensions/v1.JSONSchemaProps', r.bytes()) : utf8(r.bytes()));
    } else r.skip(wire);
  }
  const decodedSchema = schema ? decodeMessage('apiextensions/v1.JSONSchemaProps', concat(schema)) : undefined;
  if (id === 'apiextensions/v1.JSONSchemaPropsOrBool') return decodedSchema ?? allows;
  if (list.length > 0) return list;
  return decodedSchema ?? null;
}

const DAY_SECONDS = 86400n;

/** RFC 3339 in UTC for Unix seconds (+ nanos): `2006-01-02T15:04:05Z` or with `.000000` microseconds. */
export function formatTime(seconds: bigint, nanos: number, micro: boolean): string | null {
  // time.Unix normalizes nanos outside [0, 1e9)
  let s = seconds + BigInt(Math.floor(nanos / 1e9));
  let ns = nanos - Math.floor(nanos / 1e9) * 1e9;
  if (micro) ns = Math.floor(ns / 1000) * 1000;
  // the zero time.Time (0001-01-01T00:00:00Z) writes null
  if (s === -62135596800n && ns === 0) return null;
  let days = s / DAY_SECONDS;
  let rem = s % DAY_SECONDS;
  if (rem < 0n) {
    rem += DAY_SECONDS;
    days -= 1n;
  }
  // civil date from days since 1970-01-01 (proleptic Gregorian)
  const z = days + 719468n;
  const era = (z >= 0n ? z : z - 146096n) / 146097n;
  const doe = z - era * 146097n;
  const yoe = (doe - doe / 1460n + doe / 36524n - doe / 146096n) / 365n;
  const doy = doe - (365n * yoe + yoe / 4n - yoe / 100n);
  const mp = (5n * doy + 2n) / 153n;
  const d = doy - (153n * mp + 2n) / 5n + 1n;
  const m = mp < 10n ? mp + 3n : mp - 9n;
  const y = yoe + era * 400n + (m <= 2n ? 1n : 0n);
  const sec = Number(rem);
  const pad = (n: number | bigint, w: number): string => String(n).padStart(w, '0');
  const year = y < 0n ? `-${pad(-y, 4)}` : pad(y, 4);
  let out = `${year}-${pad(m, 2)}-${pad(d, 2)}T${pad(Math.floor(sec / 3600), 2)}:${pad(Math.floor(sec / 60) % 60, 2)}:${pad(sec % 60, 2)}`;
  if (micro) out += `.${pad(Math.floor(ns / 1000), 6)}`;
  return `${out}Z`;
}

/** Go's time.Duration.String(). */
export function goDuration(d: bigint): string {
  if (d === 0n) return '0s';
  const neg = d < 0n;
  const u = neg ? -d : d;
  const frac = (v: bigint, digits: number): string => {
    const p = 10n ** BigInt(digits);
    const f = (v % p).toString().padStart(digits, '0').replace(/0+$/, '');
    return `${v / p}${f ? `.${f}` : ''}`;
  };
  let s: string;
  if (u < 1000n) s = `${u}ns`;
  else if (u < 1000000n) s = `${frac(u, 3)}µs`;
  else if (u < 1000000000n) s = `${frac(u, 6)}ms`;
  else {
    const secs = u / 1000000000n;
    const sub = u % 1000000000n;
    const h = secs / 3600n;
    const m = (secs / 60n) % 60n;
    const sPart = frac((secs % 60n) * 1000000000n + sub, 9);
    s = h > 0n ? `${h}h${m}m${sPart}s` : m > 0n ? `${m}m${sPart}s` : `${sPart}s`;
  }
  return neg ? `-${s}` : s;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Standard base64 with padding (encoding/json's form of []byte). */
export function base64(b: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < b.length; i += 3) {
    const n = (b[i] << 16) | (b[i + 1] << 8) | b[i + 2];
    out += B64[n >> 18] + B64[(n >> 12) & 63] + B64[(n >> 6) & 63] + B64[n & 63];
  }
  if (i < b.length) {
    const n = (b[i] << 16) | ((i + 1 < b.length ? b[i + 1] : 0) << 8);
    out += B64[n >> 18] + B64[(n >> 12) & 63] + (i + 1 < b.length ? B64[(n >> 6) & 63] : '=') + '=';
  }
  return out;
}
