// Reading a request body within the server's budget, the one reader every body-reading path uses (create,
// update, patch, delete options, scale, the playground CEL endpoint). The real server reads at most
// limit+1 bytes and answers 413 `Request entity too large: limit is 3145728` when there are more
// (handlers/rest.go limitedReadBody; MaxRequestBodyBytes defaults to 3 MiB). The body is read as a
// stream and reading stops at the first chunk past the limit, so an oversized body is never held whole.

import { requestEntityTooLarge } from '../errors.js';
import { MAX_REQUEST_BODY_BYTES } from './budgets.js';
import { concatBytes } from '../util/bytes.js';
import type { EngineRequest } from '../endpoints/wire.js';

export { MAX_REQUEST_BODY_BYTES };

const UTF8 = new TextEncoder();

const observers = new WeakMap<object, (bytes: Uint8Array) => void>();

/** Hands the bytes of the request's body, once read whole, to `fn` (the audit layer's request object). */
export function observeRequestBody(request: EngineRequest, fn: (bytes: Uint8Array) => void): void {
  observers.set(request, fn);
}

function observed(request: EngineRequest, bytes: Uint8Array): Uint8Array {
  observers.get(request)?.(bytes);
  return bytes;
}

/** Reads the body of a request, refusing it with the real 413 once it passes `limit` bytes. */
export async function readLimitedBody(request: EngineRequest, limit = MAX_REQUEST_BODY_BYTES): Promise<Uint8Array> {
  // a host that holds the whole body gives it as is (no stream to read)
  if (request.bodyBytes !== undefined || request.bodyText !== undefined) {
    const bytes = request.bodyBytes ?? UTF8.encode(request.bodyText!);
    if (bytes.byteLength > limit) throw tooLarge(limit);
    return observed(request, bytes);
  }
  const declared = request.headers.get('Content-Length');
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > limit) {
    // the stream is left unread: cancelling it tells the host to stop sending
    await request.body?.cancel().catch(() => undefined);
    throw tooLarge(limit);
  }
  const stream = request.body;
  if (!stream) return observed(request, new Uint8Array(0));
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!value) continue;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return observed(request, concatBytes(chunks));
}

function tooLarge(limit: number) {
  return requestEntityTooLarge(`limit is ${limit}`);
}
