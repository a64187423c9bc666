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

/**
 * The body as text when the host holds it as text (serve() clients: the controllers, the post-start hooks):
 * refused past `limit` bytes of UTF-8 and handed to an observer as readLimitedBody does, without encoding it
 * to bytes only to decode them again. Undefined when the body is to be read as bytes: the host gave bytes or
 * a stream, or the text holds a lone surrogate (encoding would write it as U+FFFD).
 */
export function heldBodyText(request: EngineRequest, limit = MAX_REQUEST_BODY_BYTES): string | undefined {
  const text = request.bodyText;
  if (text === undefined || request.bodyBytes !== undefined || !wellFormed(text)) return undefined;
  const observer = observers.get(request);
  // at most three bytes per UTF-16 unit (a surrogate pair, two units, is four)
  if (observer || text.length * 3 > limit) {
    const bytes = UTF8.encode(text);
    if (bytes.byteLength > limit) throw tooLarge(limit);
    observer?.(bytes);
  }
  return text;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** No lone surrogate (String.prototype.isWellFormed where the runtime has it). */
function wellFormed(text: string): boolean {
  const native = (text as { isWellFormed?: () => boolean }).isWellFormed;
  return native ? native.call(text) : !LONE_SURROGATE.test(text);
}

function tooLarge(limit: number) {
  return requestEntityTooLarge(`limit is ${limit}`);
}
