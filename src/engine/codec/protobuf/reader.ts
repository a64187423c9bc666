// A minimal protobuf wire reader. Errors carry the texts gogo-protobuf's generated Unmarshal code returns
// (k8s.io/api generated.pb.go), because the real server puts them in its 400 messages.

export class ProtoError extends Error {}

export const ERR_EOF = 'unexpected EOF';
export const ERR_OVERFLOW = 'proto: integer overflow';
export const ERR_NEGATIVE_LENGTH = 'proto: negative length found during unmarshaling';
export const ERR_END_OF_GROUP = 'proto: unexpected end of group';

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_BYTES = 2;
export const WIRE_START_GROUP = 3;
export const WIRE_END_GROUP = 4;
export const WIRE_FIXED32 = 5;

const TWO_32 = 4294967296;

export class Reader {
  pos: number;
  constructor(readonly buf: Uint8Array, start = 0, readonly end = buf.length) {
    this.pos = start;
  }

  done(): boolean {
    return this.pos >= this.end;
  }

  /** A varint as its low and high 32 bits (unsigned). */
  varint(): [number, number] {
    let lo = 0;
    let hi = 0;
    for (let shift = 0; ; shift += 7) {
      if (shift >= 64) throw new ProtoError(ERR_OVERFLOW);
      if (this.pos >= this.end) throw new ProtoError(ERR_EOF);
      const b = this.buf[this.pos++];
      if (shift < 28) lo |= (b & 0x7f) << shift;
      else if (shift === 28) {
        lo |= (b & 0x0f) << 28;
        hi |= (b & 0x7f) >> 4;
      } else hi |= (b & 0x7f) << (shift - 32);
      if (b < 0x80) return [lo >>> 0, hi >>> 0];
    }
  }

  /** A tag: Go converts `wire >> 3` to int32, so huge numbers wrap (and are then illegal). */
  tag(): { num: number; wire: number; raw: number } {
    const [lo, hi] = this.varint();
    return { num: ((lo >>> 3) | (hi << 29)) | 0, wire: lo & 7, raw: hi * TWO_32 + lo };
  }

  /** The bounds of a length-delimited payload. */
  lengthDelimited(): [number, number] {
    const [lo, hi] = this.varint();
    if (hi & 0x80000000) throw new ProtoError(ERR_NEGATIVE_LENGTH);
    const len = hi * TWO_32 + lo;
    const start = this.pos;
    if (len > this.end - start) throw new ProtoError(ERR_EOF);
    this.pos = start + len;
    return [start, start + len];
  }

  bytes(): Uint8Array {
    const [s, e] = this.lengthDelimited();
    return this.buf.subarray(s, e);
  }

  fixed64(): [number, number] {
    if (this.end - this.pos < 8) throw new ProtoError(ERR_EOF);
    const v = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8);
    this.pos += 8;
    return [v.getUint32(0, true), v.getUint32(4, true)];
  }

  fixed32(): number {
    if (this.end - this.pos < 4) throw new ProtoError(ERR_EOF);
    const v = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 4);
    this.pos += 4;
    return v.getUint32(0, true);
  }

  /** Skips a field's payload after its tag (gogo's skipGenerated, groups included). */
  skip(wire: number): void {
    let depth = 0;
    for (;;) {
      switch (wire) {
        case WIRE_VARINT: this.varint(); break;
        case WIRE_FIXED64: this.fixed64(); break;
        case WIRE_BYTES: this.lengthDelimited(); break;
        case WIRE_START_GROUP: depth++; break;
        case WIRE_END_GROUP:
          if (depth === 0) throw new ProtoError(ERR_END_OF_GROUP);
          depth--;
          break;
        case WIRE_FIXED32: this.fixed32(); break;
        default: throw new ProtoError(`proto: illegal wireType ${wire}`);
      }
      if (depth === 0) return;
      wire = this.tag().wire;
    }
  }
}

/** A 64-bit two's complement value as a JS number (exact up to 2^53). */
export function int64ToNumber(lo: number, hi: number): number {
  return (hi | 0) * TWO_32 + lo;
}

export function uint64ToNumber(lo: number, hi: number): number {
  return hi * TWO_32 + lo;
}

export function int64ToBigInt(lo: number, hi: number): bigint {
  return BigInt.asIntN(64, (BigInt(hi) << 32n) | BigInt(lo));
}
