// Response bodies in the negotiated representation: JSON (compact or pretty), YAML, and CBOR behind the
// CBORServingAndStorage gate (a single data item with the self-described CBOR tag, as the real
// serializer writes it; watch streams use application/cbor-seq, one item per event).

import { Encoder } from 'cbor-x';
import { encodeJson, encodeYaml } from '../responders.js';
import type { Negotiated } from './media.js';

const cbor = new Encoder({ useRecords: false, tagUint8Array: false, variableMapSize: true, mapsAsObjects: true } as ConstructorParameters<typeof Encoder>[0]);

/** Tag 55799 (self-described CBOR), which the real server puts before every CBOR object. */
const SELF_DESCRIBED = new Uint8Array([0xd9, 0xd9, 0xf7]);

export function encodeCbor(value: unknown): Uint8Array {
  const body = cbor.encode(value) as Uint8Array;
  const out = new Uint8Array(SELF_DESCRIBED.length + body.length);
  out.set(SELF_DESCRIBED, 0);
  out.set(body, SELF_DESCRIBED.length);
  return out;
}

/** One body in the negotiated format (200 unless given). */
export function bodyResponse(body: unknown, neg: Negotiated, pretty: boolean, status = 200, headers: Record<string, string> = {}): Response {
  const h: Record<string, string> = { 'Cache-Control': 'no-cache, private', 'Content-Type': neg.contentType, ...headers };
  if (neg.format === 'cbor') return new Response(encodeCbor(body), { status, headers: h });
  if (neg.format === 'yaml') return new Response(encodeYaml(body), { status, headers: h });
  return new Response(encodeJson(body, pretty), { status, headers: h });
}
