// Response bodies in `application/vnd.kubernetes.protobuf`: the JSON form of an object (as the engine
// stores and serves it) written as the bytes the real server's gogo-generated marshallers write for the Go
// struct that JSON decodes into.
//
// The rules of the generated Marshal code (k8s.io/api generated.pb.go), which decode.ts reads back:
//  - fields in field-number order, each with its tag; repeated scalars unpacked (one tag per element);
//  - a non-pointer scalar or message is always written, its Go zero value when the JSON has none
//    (`""`, `0`, `false`, an empty message: every non-pointer field of it again);
//  - a pointer is written only when present (then even when zero), a slice or map only when non-empty;
//  - map entries sorted by key (Go's string order), each entry `{1: key, 2: value}`; a nil []byte value
//    (JSON null) is written without its field 2; `[]byte` fields are written when non-nil;
//  - Time/MicroTime are `{1: seconds, 2: nanos}`, and nothing at all for the zero time; Duration `{1: ns}`;
//    Quantity `{1: its string}`; IntOrString `{1: type, 2: intVal, 3: strVal}`; RawExtension and FieldsV1
//    `{1: the JSON bytes}` (compact), nothing when null.
// An object is framed as the serializer does: the prefix `k8s\0`, then runtime.Unknown
// `{1: {1: apiVersion, 2: kind}, 2: raw, 3: "", 4: ""}`.

import { compareGoStrings, goJsonText } from '../go-format.js';
import { MAX_NESTING_DEPTH } from '../budgets.js';
import { PROTOBUF_PREFIX } from './decode.js';
import { messageDef, outputMessageId, kindMessageId, type FieldDef, type FieldType, type MessageDef, type ScalarCode } from './tables.js';

const UTF8 = new TextEncoder();

/** Thrown for a value the protobuf form cannot hold (the responder turns it into a 500, as Go's encoder errors). */
export class ProtobufEncodeError extends Error {}

export class ProtoWriter {
  buf = new Uint8Array(256);
  len = 0;

  private ensure(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }

  byte(b: number): void {
    this.ensure(1);
    this.buf[this.len++] = b;
  }

  raw(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
  }

  /** An unsigned varint of a non-negative safe integer. */
  uvarint(n: number): void {
    this.ensure(10);
    while (n >= 0x80) {
      this.buf[this.len++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    this.buf[this.len++] = n;
  }

  /** A varint of a signed 64-bit value (negative ones as their two's complement: ten bytes). */
  varint(n: number | bigint): void {
    if (typeof n === 'number' && n >= 0 && Number.isSafeInteger(n)) return this.uvarint(n);
    let u = BigInt.asUintN(64, BigInt(n));
    this.ensure(10);
    while (u >= 0x80n) {
      this.buf[this.len++] = Number(u & 0x7fn) | 0x80;
      u >>= 7n;
    }
    this.buf[this.len++] = Number(u);
  }

  tag(num: number, wire: number): void {
    this.uvarint(num * 8 + wire);
  }

  bytesField(num: number, b: Uint8Array): void {
    this.tag(num, 2);
    this.uvarint(b.length);
    this.raw(b);
  }

  /** A length-delimited field whose payload `body` writes into this writer (its length patched after). */
  nested(num: number, body: () => void): void {
    this.tag(num, 2);
    // reserve one length byte; move the payload if its length needs more
    this.ensure(1);
    const at = this.len++;
    body();
    const size = this.len - at - 1;
    if (size < 0x80) {
      this.buf[at] = size;
      return;
    }
    const head = new ProtoWriter();
    head.uvarint(size);
    const extra = head.len - 1;
    this.ensure(extra);
    this.buf.copyWithin(at + head.len, at + 1, this.len);
    this.buf.set(head.buf.subarray(0, head.len), at);
    this.len += extra;
  }

  result(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}

const sortedFields = new WeakMap<MessageDef, FieldDef[]>();

function byNumber(def: Extract<MessageDef, { kind: 'struct' }>): FieldDef[] {
  let f = sortedFields.get(def);
  if (!f) sortedFields.set(def, (f = [...def.fields].sort((a, b) => a.num - b.num)));
  return f;
}

let depth = 0;

function writeMessage(w: ProtoWriter, id: string, value: unknown): void {
  const def = messageDef(id);
  if (depth >= MAX_NESTING_DEPTH) throw new ProtobufEncodeError('exceeded maximum recursion depth');
  depth++;
  try {
    if (def.kind === 'special') return writeSpecial(w, def.id, value);
    if (def.kind === 'slice') {
      if (Array.isArray(value)) for (const x of value) writeElement(w, 1, def.elem, x);
      return;
    }
    const obj = isObject(value) ? value : {};
    for (const f of byNumber(def)) {
      if (f.inline) {
        // the inline struct's fields are the parent's JSON members
        w.nested(f.num, () => writeMessage(w, (f.type as { id: string }).id, obj));
        continue;
      }
      writeField(w, f, obj[f.json]);
    }
  } finally {
    depth--;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function writeField(w: ProtoWriter, f: FieldDef, v: unknown): void {
  const t = f.type;
  if (t.k === 'list') {
    if (Array.isArray(v)) for (const x of v) writeElement(w, f.num, t.elem, x);
    return;
  }
  if (t.k === 'map') {
    if (!isObject(v)) return;
    for (const key of Object.keys(v).sort(compareGoStrings)) {
      const x = v[key];
      w.nested(f.num, () => {
        w.bytesField(1, UTF8.encode(key));
        // a nil []byte (or pointer) map value is written without its field
        if ((x === null || x === undefined) && t.value.k === 'scalar' && t.value.t === 'y') return;
        writeElement(w, 2, t.value, x);
      });
    }
    return;
  }
  const absent = v === undefined || v === null;
  if (absent && f.pointer) return;
  if (t.k === 'scalar' && t.t === 'y' && absent) return; // []byte: written when non-nil
  writeElement(w, f.num, t, absent ? undefined : v);
}

/** One value of a field (a list element, a map value, or a singular field's value). */
function writeElement(w: ProtoWriter, num: number, t: FieldType, v: unknown): void {
  if (t.k === 'message') {
    w.nested(num, () => writeMessage(w, t.id, v));
    return;
  }
  if (t.k !== 'scalar') throw new Error('protobuf tables: nested list or map');
  writeScalar(w, num, t.t, v);
}

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

function writeScalar(w: ProtoWriter, n: number, t: ScalarCode, v: unknown): void {
  switch (t) {
    case 's':
      w.bytesField(n, UTF8.encode(typeof v === 'string' ? v : ''));
      return;
    case 'y':
      w.bytesField(n, typeof v === 'string' ? fromBase64(v) : new Uint8Array(0));
      return;
    case 'b':
      w.tag(n, 0);
      w.byte(v === true ? 1 : 0);
      return;
    case 'i':
      w.tag(n, 0);
      w.varint(num(v) | 0);
      return;
    case 'u':
      w.tag(n, 0);
      w.varint(num(v) >>> 0);
      return;
    case 'l':
    case 'U':
      w.tag(n, 0);
      w.varint(Math.trunc(num(v)));
      return;
    case 'd': {
      w.tag(n, 1);
      const b = new DataView(new ArrayBuffer(8));
      b.setFloat64(0, num(v), true);
      w.raw(new Uint8Array(b.buffer));
      return;
    }
    case 'f': {
      w.tag(n, 5);
      const b = new DataView(new ArrayBuffer(4));
      b.setFloat32(0, num(v), true);
      w.raw(new Uint8Array(b.buffer));
    }
  }
}

function writeSpecial(w: ProtoWriter, id: string, v: unknown): void {
  switch (id) {
    case 'meta/v1.Time':
    case 'meta/v1.MicroTime': {
      const t = typeof v === 'string' ? parseTime(v) : undefined;
      if (!t) return; // the zero time writes nothing
      w.tag(1, 0);
      w.varint(t.seconds);
      w.tag(2, 0);
      w.varint(t.nanos);
      return;
    }
    case 'meta/v1.Duration':
      w.tag(1, 0);
      w.varint(typeof v === 'string' ? parseGoDuration(v) : 0n);
      return;
    case 'resource.Quantity':
      w.bytesField(1, UTF8.encode(typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '0'));
      return;
    case 'intstr.IntOrString':
      w.tag(1, 0);
      w.varint(typeof v === 'string' ? 1 : 0);
      w.tag(2, 0);
      w.varint(typeof v === 'number' ? v | 0 : 0);
      w.bytesField(3, UTF8.encode(typeof v === 'string' ? v : ''));
      return;
    case 'meta/v1.FieldsV1':
      // structured-merge-diff writes the set with json-iterator's plain string writer: no HTML escaping
      if (v === undefined || v === null) return;
      w.bytesField(1, UTF8.encode(JSON.stringify(v)));
      return;
    case 'runtime.RawExtension':
    case 'apiextensions/v1.JSON':
      // raw JSON as encoding/json (the clients' and the server's) writes it
      if (v === undefined || v === null) return;
      w.bytesField(1, UTF8.encode(goJsonText(JSON.stringify(v))));
      return;
    // the JSON-schema unions of apiextensions/v1 (their UnmarshalJSON picks the member by the JSON's shape)
    case 'apiextensions/v1.JSONSchemaPropsOrArray':
      if (Array.isArray(v)) for (const s of v) w.nested(2, () => writeMessage(w, 'apiextensions/v1.JSONSchemaProps', s));
      else if (isObject(v)) w.nested(1, () => writeMessage(w, 'apiextensions/v1.JSONSchemaProps', v));
      return;
    case 'apiextensions/v1.JSONSchemaPropsOrBool':
      w.tag(1, 0);
      w.byte(v === true || isObject(v) ? 1 : 0);
      if (isObject(v)) w.nested(2, () => writeMessage(w, 'apiextensions/v1.JSONSchemaProps', v));
      return;
    case 'apiextensions/v1.JSONSchemaPropsOrStringArray':
      if (Array.isArray(v)) for (const s of v) w.bytesField(2, UTF8.encode(typeof s === 'string' ? s : ''));
      else if (isObject(v)) w.nested(1, () => writeMessage(w, 'apiextensions/v1.JSONSchemaProps', v));
      return;
  }
  throw new Error(`protobuf: no encoder for ${id}`);
}

const DAY = 86400;

/** RFC 3339 to Unix seconds and nanoseconds; undefined for the zero time or an unreadable value. */
export function parseTime(s: string): { seconds: number; nanos: number } | undefined {
  const m = /^(-?\d{4,})-(\d\d)-(\d\d)[Tt](\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?(?:[Zz]|([+-])(\d\d):(\d\d))$/.exec(s);
  if (!m) return undefined;
  let y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  // days from civil (proleptic Gregorian)
  y -= mo <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  const days = era * 146097 + doe - 719468;
  let seconds = days * DAY + Number(m[4]) * 3600 + Number(m[5]) * 60 + Number(m[6]);
  if (m[8]) seconds -= (m[8] === '-' ? -1 : 1) * (Number(m[9]) * 3600 + Number(m[10]) * 60);
  const nanos = m[7] ? Number(m[7].padEnd(9, '0')) : 0;
  if (seconds === -62135596800 && nanos === 0) return undefined;
  return { seconds, nanos };
}

const UNITS: Record<string, bigint> = { ns: 1n, us: 1000n, 'µs': 1000n, 'μs': 1000n, ms: 1000000n, s: 1000000000n, m: 60000000000n, h: 3600000000000n };

/** Go's time.ParseDuration, in nanoseconds (0 for an unreadable value). */
export function parseGoDuration(s: string): bigint {
  const m = /^([+-]?)(.*)$/.exec(s)!;
  let rest = m[2];
  if (rest === '0') return 0n;
  let total = 0n;
  const re = /^(\d*)(?:\.(\d*))?(ns|us|µs|μs|ms|s|m|h)/;
  if (!rest) return 0n;
  while (rest) {
    const p = re.exec(rest);
    if (!p || (p[1] === '' && !p[2])) return 0n;
    const unit = UNITS[p[3]];
    total += BigInt(p[1] || '0') * unit;
    if (p[2]) {
      const scale = 10n ** BigInt(p[2].length);
      total += (BigInt(p[2]) * unit) / scale;
    }
    rest = rest.slice(p[0].length);
  }
  return m[1] === '-' ? -total : total;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_INDEX = new Map([...B64].map((c, i) => [c, i]));

/** Standard base64 (encoding/json's []byte form) to bytes; characters outside the alphabet are skipped. */
export function fromBase64(s: string): Uint8Array {
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const c of s) {
    const v = B64_INDEX.get(c);
    if (v === undefined) continue;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
    }
  }
  return Uint8Array.from(out);
}

/** Whether an object of this apiVersion/kind has a protobuf form (built-in kinds, their lists, meta kinds). */
export function hasProtobufForm(apiVersion: string, kind: string): boolean {
  return outputMessageId(apiVersion, kind) !== undefined;
}

/** The raw message of a JSON object (no prefix, no envelope). */
export function encodeProtobufMessage(id: string, value: unknown): Uint8Array {
  const w = new ProtoWriter();
  depth = 0;
  writeMessage(w, id, value);
  return w.result();
}

/** An object in the protobuf serializer's framing: `k8s\0` + runtime.Unknown. Throws for a kind with no protobuf form. */
export function encodeProtobufObject(obj: Record<string, unknown>): Uint8Array {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  const id = outputMessageId(apiVersion, kind) ?? kindMessageId(apiVersion, kind);
  if (!id) throw new ProtobufEncodeError(`object ${apiVersion}/${kind} does not implement the protobuf marshalling interface and cannot be encoded to a protobuf message`);
  const w = new ProtoWriter();
  w.raw(PROTOBUF_PREFIX);
  w.nested(1, () => {
    w.bytesField(1, UTF8.encode(apiVersion));
    w.bytesField(2, UTF8.encode(kind));
  });
  w.nested(2, () => {
    depth = 0;
    writeMessage(w, id, obj);
  });
  w.bytesField(3, new Uint8Array(0));
  w.bytesField(4, new Uint8Array(0));
  return w.result();
}

/**
 * One watch frame as the protobuf stream serializer writes it: a 4-byte big-endian length, then a
 * meta/v1 WatchEvent `{1: type, 2: {1: the object in its own framing}}`.
 */
export function encodeProtobufWatchFrame(type: string, object: Record<string, unknown>): Uint8Array {
  const inner = encodeProtobufObject(object);
  const w = new ProtoWriter();
  w.raw(new Uint8Array(4));
  w.bytesField(1, UTF8.encode(type));
  w.nested(2, () => w.bytesField(1, inner));
  const out = w.result();
  new DataView(out.buffer).setUint32(0, out.length - 4, false);
  return out;
}

/**
 * Whether two JSON values are the same Go value of a message type (apiequality.Semantic.DeepEqual for
 * these types): compared through their deterministic protobuf encoding, so member order, absent zero
 * values and empty structs do not count.
 */
export function semanticEqual(id: string, a: unknown, b: unknown): boolean {
  const x = encodeProtobufMessage(id, a ?? {});
  const y = encodeProtobufMessage(id, b ?? {});
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}
