// Response bodies in the negotiated representation: JSON (compact or pretty), YAML, and CBOR behind the
// CBORServingAndStorage gate (watch streams use application/cbor-seq, one data item per event).

import { encodeJson, encodeYaml } from '../responders.js';
import type { Negotiated } from './media.js';
import { noteResponseObject } from '../../audit/log.js';
import { encodeProtobufObject } from '../../codec/protobuf/encode.js';
import { EngineResponse } from '../wire.js';

// The real CBOR serializer's encoding mode (apimachinery runtime/serializer/cbor/internal/modes): strings and
// field names as byte strings, map keys sorted bytewise by their encoding, integers and floats in their
// shortest form (floats down to half precision), no indefinite lengths, tag 55799 before every object.

const utf8 = new TextEncoder();

class CborWriter {
  private buf: Uint8Array<ArrayBuffer> = new Uint8Array(1024);
  private len = 0;

  private ensure(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }

  bytes(b: ArrayLike<number>): void {
    this.ensure(b.length);
    this.buf.set(b as Uint8Array, this.len);
    this.len += b.length;
  }

  head(major: number, n: number): void {
    const m = major << 5;
    if (n < 24) this.bytes([m | n]);
    else if (n < 0x100) this.bytes([m | 24, n]);
    else if (n < 0x10000) this.bytes([m | 25, n >> 8, n & 0xff]);
    else if (n < 0x100000000) this.bytes([m | 26, (n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]);
    else {
      const hi = Math.floor(n / 0x100000000);
      const lo = n >>> 0;
      this.bytes([m | 27, (hi >>> 24) & 0xff, (hi >>> 16) & 0xff, (hi >>> 8) & 0xff, hi & 0xff, (lo >>> 24) & 0xff, (lo >>> 16) & 0xff, (lo >>> 8) & 0xff, lo & 0xff]);
    }
  }

  result(): Uint8Array<ArrayBuffer> {
    return this.buf.slice(0, this.len);
  }
}

function float16Bits(v: number): number | undefined {
  // exact half-precision representation of v, if there is one
  if (v === 0) return Object.is(v, -0) ? 0x8000 : 0;
  const sign = v < 0 ? 0x8000 : 0;
  const a = Math.abs(v);
  let e = Math.floor(Math.log2(a));
  if (e < -24 || e > 15) return undefined;
  if (e < -14) {
    const m = a / 2 ** -24;
    return Number.isInteger(m) ? sign | m : undefined;
  }
  let m = (a / 2 ** e - 1) * 1024;
  if (m >= 1024) {
    e++;
    m = (a / 2 ** e - 1) * 1024;
  }
  if (!Number.isInteger(m) || e > 15) return undefined;
  return sign | ((e + 15) << 10) | m;
}

function writeNumber(w: CborWriter, v: number): void {
  if (!Number.isFinite(v)) throw new Error('CBOR: NaN and infinite values cannot be encoded');
  if (Number.isSafeInteger(v)) {
    if (v >= 0) w.head(0, v);
    else w.head(1, -1 - v);
    return;
  }
  const h = float16Bits(v);
  if (h !== undefined) return w.bytes([0xf9, h >> 8, h & 0xff]);
  if (Math.fround(v) === v) {
    const b = new DataView(new ArrayBuffer(4));
    b.setFloat32(0, v);
    return w.bytes([0xfa, ...new Uint8Array(b.buffer)]);
  }
  const b = new DataView(new ArrayBuffer(8));
  b.setFloat64(0, v);
  w.bytes([0xfb, ...new Uint8Array(b.buffer)]);
}

function byteString(s: string): Uint8Array {
  const body = utf8.encode(s);
  const w = new CborWriter();
  w.head(2, body.length);
  w.bytes(body);
  return w.result();
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

function writeValue(w: CborWriter, v: unknown): void {
  if (v === null || v === undefined) return w.bytes([0xf6]);
  if (v === true) return w.bytes([0xf5]);
  if (v === false) return w.bytes([0xf4]);
  if (typeof v === 'number') return writeNumber(w, v);
  if (typeof v === 'string') return w.bytes(byteString(v));
  if (Array.isArray(v)) {
    w.head(4, v.length);
    for (const x of v) writeValue(w, x);
    return;
  }
  if (v instanceof Uint8Array) {
    w.head(2, v.length);
    return w.bytes(v);
  }
  const entries = Object.entries(v as Record<string, unknown>)
    .filter(([, x]) => x !== undefined)
    .map(([k, x]) => [byteString(k), x] as const)
    .sort((a, b) => compareBytes(a[0], b[0]));
  w.head(5, entries.length);
  for (const [k, x] of entries) {
    w.bytes(k);
    writeValue(w, x);
  }
}

/** One CBOR data item for a JSON-shaped value, after the self-described CBOR tag (55799). */
export function encodeCbor(value: unknown): Uint8Array<ArrayBuffer> {
  const w = new CborWriter();
  w.bytes([0xd9, 0xd9, 0xf7]);
  writeValue(w, value);
  return w.result();
}

/** A body already serialized as JSON, as bytes or text (200), with the object it was written from for the audit layer. */
export function jsonBodyResponse(body: Uint8Array<ArrayBuffer> | string, contentType: string, object: () => unknown): EngineResponse {
  return noteResponseObject(new EngineResponse(body, { status: 200, headers: [['Cache-Control', 'no-cache, private'], ['Content-Type', contentType]] }), object);
}

/** One body in the negotiated format (200 unless given). */
export function bodyResponse(body: unknown, neg: Negotiated, pretty: boolean, status = 200, headers: Record<string, string> = {}): EngineResponse {
  const h: Record<string, string> = { 'Cache-Control': 'no-cache, private', 'Content-Type': neg.contentType, ...headers };
  if (neg.format === 'cbor') return noteResponseObject(new EngineResponse(encodeCbor(body), { status, headers: h }), body);
  if (neg.format === 'protobuf') return noteResponseObject(new EngineResponse(encodeProtobufObject(body as Record<string, unknown>) as Uint8Array<ArrayBuffer>, { status, headers: h }), body);
  if (neg.format === 'yaml') return noteResponseObject(new EngineResponse(encodeYaml(body), { status, headers: h }), body);
  return noteResponseObject(new EngineResponse(encodeJson(body, pretty), { status, headers: h }), body);
}
