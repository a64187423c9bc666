import { describe, expect, it } from 'vitest';
import { decodeCbor } from './cbor.js';
import { encodeCbor } from '../endpoints/negotiation/encode.js';

const hex = (h: string) => new Uint8Array(h.match(/../g)!.map((x) => parseInt(x, 16)));

describe('CBOR request decoding (the real decoder mode)', () => {
  it('reads what the encoder writes, with or without the self-described tag', () => {
    const v = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', labels: { x: 'y' } }, data: { n: '1' }, list: [1, -2, 1.5, true, null] };
    expect(decodeCbor(encodeCbor(v))).toEqual(v);
    expect(decodeCbor(encodeCbor(v).slice(3))).toEqual(v);
  });

  it('text and byte strings both become strings; indefinite lengths are accepted', () => {
    expect(decodeCbor(hex('a14161626262'))).toEqual({ a: 'bb' }); // {h'61': "bb"} with a byte-string key
    expect(decodeCbor(hex('9f0102ff'))).toEqual([1, 2]);
    expect(decodeCbor(hex('bf6161f5ff'))).toEqual({ a: true });
    expect(decodeCbor(hex('7f626162626364ff'))).toBe('abcd');
  });

  it('refuses what the real mode refuses, with its texts', () => {
    const err = (h: string | Uint8Array) => {
      try {
        decodeCbor(typeof h === 'string' ? hex(h) : h);
      } catch (e) {
        return (e as Error).message;
      }
      return 'no error';
    };
    expect(err('a2616101616102')).toBe('cbor: found duplicate map key "a" at map element index 1');
    expect(err('a10101')).toBe('cbor: invalid map key type: positive integer');
    expect(err('f97e00')).toBe('cbor: floating-point NaN is not accepted');
    expect(err('f97c00')).toBe('cbor: floating-point infinity is not accepted');
    expect(err('c249010000000000000000')).toBe('cbor: bignum tags are not accepted');
    expect(err('f7')).toBe('cbor: simple value 23 is not recognized');
    expect(err('0101')).toBe('cbor: 1 bytes of extraneous data starting at index 1');
    expect(err('62ffff')).toBe('cbor: invalid UTF-8 string');
    expect(err('82')).toBe('unexpected EOF');
    expect(err(new Uint8Array([...new Array(65).fill(0x81), 0x01]))).toBe('cbor: exceeded max nested level 64');
    expect(Array.isArray(decodeCbor(new Uint8Array([...new Array(64).fill(0x81), 0x01])))).toBe(true);
    expect(err(new Uint8Array([0x99, 0x04, 0x01, ...new Array(1025).fill(0x01)]))).toBe('cbor: exceeded max number of elements 1024 for CBOR array');
  });
});
