// Request bodies in `application/cbor` (behind CBORServingAndStorage): one CBOR data item read into the
// JSON-shaped value the rest of the engine works with, under the real decoder's mode (apimachinery
// runtime/serializer/cbor/internal/modes, fxamacker/cbor): byte strings and text strings both become
// strings (text must be valid UTF-8), map keys must be strings and unique, at most 64 nested levels and
// 1024 elements per array or map, indefinite lengths allowed, NaN, infinities and bignums refused, the
// simple values false/true/null only (undefined refused), tags accepted with their content kept (the
// self-described tag 55799 the encoder writes is one of them; epoch-time tags become RFC 3339 strings).
// Errors carry the decoder's texts (`cbor: ...`).

export class CborDecodeError extends Error {}

const MAX_NESTED_LEVELS = 64;
const MAX_ELEMENTS = 1024;

const UTF8 = new TextDecoder('utf-8', { fatal: true });

class Decoder {
  pos = 0;
  constructor(readonly b: Uint8Array) {}

  need(n: number): void {
    if (this.b.length - this.pos < n) throw new CborDecodeError('unexpected EOF');
  }

  u8(): number {
    this.need(1);
    return this.b[this.pos++];
  }

  /** The argument of a head (ai < 28); -1 for an indefinite length (ai 31). */
  arg(ai: number, major: number): number {
    if (ai < 24) return ai;
    if (ai === 24) return this.u8();
    if (ai === 25) {
      this.need(2);
      const v = (this.b[this.pos] << 8) | this.b[this.pos + 1];
      this.pos += 2;
      return v;
    }
    if (ai === 26) {
      this.need(4);
      const v = new DataView(this.b.buffer, this.b.byteOffset + this.pos, 4).getUint32(0);
      this.pos += 4;
      return v;
    }
    if (ai === 27) {
      this.need(8);
      const v = new DataView(this.b.buffer, this.b.byteOffset + this.pos, 8).getBigUint64(0);
      this.pos += 8;
      if (v > BigInt(Number.MAX_SAFE_INTEGER)) {
        if (major === 0 || major === 1) throw new CborDecodeError(`cbor: cannot unmarshal ${major === 0 ? 'positive' : 'negative'} integer into Go value of type int64 (overflows)`);
        throw new CborDecodeError(`cbor: ${major === 4 ? 'array' : major === 5 ? 'map' : 'string'} length ${v} is too large`);
      }
      return Number(v);
    }
    if (ai === 31 && major >= 2 && major <= 5) return -1;
    throw new CborDecodeError(`cbor: invalid additional information ${ai} for type ${TYPE_NAMES[major]}`);
  }

  isBreak(): boolean {
    this.need(1);
    if (this.b[this.pos] === 0xff) {
      this.pos++;
      return true;
    }
    return false;
  }

  /** A string's bytes (definite, or indefinite made of definite chunks of the same major type). */
  chunks(major: number, len: number): Uint8Array {
    if (len >= 0) {
      this.need(len);
      const out = this.b.subarray(this.pos, this.pos + len);
      this.pos += len;
      return out;
    }
    const parts: Uint8Array[] = [];
    while (!this.isBreak()) {
      const h = this.u8();
      if (h >> 5 !== major || (h & 31) === 31) throw new CborDecodeError(`cbor: wrong element type ${TYPE_NAMES[h >> 5]} for indefinite-length ${TYPE_NAMES[major]}`);
      parts.push(this.chunks(major, this.arg(h & 31, major)));
    }
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let o = 0;
    for (const p of parts) {
      out.set(p, o);
      o += p.length;
    }
    return out;
  }

  text(bytes: Uint8Array): string {
    try {
      return UTF8.decode(bytes);
    } catch {
      throw new CborDecodeError('cbor: invalid UTF-8 string');
    }
  }

  value(level: number): unknown {
    const h = this.u8();
    const major = h >> 5;
    const ai = h & 31;
    // arrays, maps and tags count as levels (scalars do not)
    if (major >= 4 && major <= 6 && level > MAX_NESTED_LEVELS) throw new CborDecodeError(`cbor: exceeded max nested level ${MAX_NESTED_LEVELS}`);
    switch (major) {
      case 0:
        return this.arg(ai, 0);
      case 1:
        return -1 - this.arg(ai, 1);
      case 2:
        // a byte string decodes into a string (DefaultByteStringType)
        return this.text(this.chunks(2, this.arg(ai, 2)));
      case 3:
        return this.text(this.chunks(3, this.arg(ai, 3)));
      case 4: {
        const len = this.arg(ai, 4);
        const out: unknown[] = [];
        for (let i = 0; len < 0 ? !this.isBreak() : i < len; i++) {
          if (out.length >= MAX_ELEMENTS) throw new CborDecodeError(`cbor: exceeded max number of elements ${MAX_ELEMENTS} for CBOR array`);
          out.push(this.value(level + 1));
        }
        return out;
      }
      case 5: {
        const len = this.arg(ai, 5);
        const out: Record<string, unknown> = {};
        const seen = new Set<string>();
        for (let i = 0; len < 0 ? !this.isBreak() : i < len; i++) {
          if (i >= MAX_ELEMENTS) throw new CborDecodeError(`cbor: exceeded max number of key-value pairs ${MAX_ELEMENTS} for CBOR map`);
          const kh = this.b[this.pos];
          if (kh === undefined) throw new CborDecodeError('unexpected EOF');
          const km = kh >> 5;
          if (km !== 2 && km !== 3) throw new CborDecodeError(`cbor: invalid map key type: ${TYPE_NAMES[km]}`);
          const key = this.value(level + 1) as string;
          if (seen.has(key)) throw new CborDecodeError(`cbor: found duplicate map key ${JSON.stringify(key)} at map element index ${i}`);
          seen.add(key);
          Object.defineProperty(out, key, { value: this.value(level + 1), enumerable: true, writable: true, configurable: true });
        }
        return out;
      }
      case 6: {
        const tag = this.arg(ai, 6);
        if (tag === 2 || tag === 3) throw new CborDecodeError('cbor: bignum tags are not accepted');
        const content = this.value(level + 1);
        if ((tag === 1) && typeof content === 'number') return new Date(content * 1000).toISOString().replace('.000Z', 'Z');
        return content;
      }
      default:
        return this.simple(ai);
    }
  }

  simple(ai: number): unknown {
    if (ai === 20) return false;
    if (ai === 21) return true;
    if (ai === 22) return null;
    if (ai === 25 || ai === 26 || ai === 27) {
      let v: number;
      if (ai === 25) {
        const bits = this.arg(25, 7);
        const exp = (bits >> 10) & 0x1f;
        const frac = bits & 0x3ff;
        v = exp === 0 ? frac * 2 ** -24 : exp === 31 ? (frac ? NaN : Infinity) : (1 + frac / 1024) * 2 ** (exp - 15);
        if (bits & 0x8000) v = -v;
      } else {
        const n = ai === 26 ? 4 : 8;
        this.need(n);
        const dv = new DataView(this.b.buffer, this.b.byteOffset + this.pos, n);
        v = n === 4 ? dv.getFloat32(0) : dv.getFloat64(0);
        this.pos += n;
      }
      if (Number.isNaN(v)) throw new CborDecodeError('cbor: floating-point NaN is not accepted');
      if (!Number.isFinite(v)) throw new CborDecodeError('cbor: floating-point infinity is not accepted');
      return v;
    }
    if (ai === 31) throw new CborDecodeError('cbor: unexpected "break" code');
    throw new CborDecodeError(`cbor: simple value ${ai === 24 ? this.u8() : ai} is not recognized`);
  }
}

const TYPE_NAMES = ['positive integer', 'negative integer', 'byte string', 'UTF-8 text string', 'array', 'map', 'tag', 'primitives'];

/** True when the bytes start with the self-described CBOR tag (0xd9d9f7), as the real recognizer checks. */
export function hasCborPrefix(b: Uint8Array): boolean {
  return b.length >= 3 && b[0] === 0xd9 && b[1] === 0xd9 && b[2] === 0xf7;
}

/** One CBOR data item (nothing after it) into a JSON-shaped value. Throws CborDecodeError. */
export function decodeCbor(bytes: Uint8Array): unknown {
  if (bytes.length === 0) throw new CborDecodeError('EOF');
  const d = new Decoder(bytes);
  const v = d.value(1);
  if (d.pos < bytes.length) throw new CborDecodeError(`cbor: ${bytes.length - d.pos} bytes of extraneous data starting at index ${d.pos}`);
  return v;
}
