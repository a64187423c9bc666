import { describe, expect, it } from 'vitest';
import { StatusError } from '../errors.js';
import { heldBodyText, observeRequestBody, readLimitedBody, MAX_REQUEST_BODY_BYTES } from './read-body.js';

/** A request whose body arrives in `chunks` chunks of `size` bytes, counting how many were pulled. */
function streamed(chunks: number, size: number, contentLength?: number) {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      if (pulled === chunks) return c.close();
      pulled++;
      c.enqueue(new Uint8Array(size).fill(0x20));
    },
  });
  const headers: Record<string, string> = {};
  if (contentLength !== undefined) headers['Content-Length'] = String(contentLength);
  const request = new Request('http://x/', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);
  return { request, pulled: () => pulled };
}

async function status(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    if (e instanceof StatusError) return e.status;
    throw e;
  }
  throw new Error('no error');
}

describe('readLimitedBody', () => {
  it('the limit is the real server default, 3 MiB', () => {
    expect(MAX_REQUEST_BODY_BYTES).toBe(3145728);
  });

  it('reads a body up to the limit exactly', async () => {
    const { request } = streamed(4, 256);
    expect((await readLimitedBody(request, 1024)).byteLength).toBe(1024);
  });

  it('refuses one byte past the limit with the real 413 Status', async () => {
    const s = await status(readLimitedBody(new Request('http://x/', { method: 'POST', body: 'x'.repeat(1025) }), 1024));
    expect(s).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'Request entity too large: limit is 1024', reason: 'RequestEntityTooLarge', code: 413,
    });
  });

  it('stops reading at the first chunk past the limit (the body is never held whole)', async () => {
    const { request, pulled } = streamed(1000, 1024);
    expect((await status(readLimitedBody(request, 4096)))?.code).toBe(413);
    expect(pulled()).toBeLessThan(10);
  });

  it('refuses a declared Content-Length past the limit without reading', async () => {
    const { request, pulled } = streamed(1000, 1024, 1024 * 1000);
    expect((await status(readLimitedBody(request, 4096)))?.code).toBe(413);
    expect(pulled()).toBeLessThanOrEqual(1);
  });

  it('an absent body is empty', async () => {
    expect((await readLimitedBody(new Request('http://x/', { method: 'POST' }))).byteLength).toBe(0);
  });
});

describe('heldBodyText', () => {
  const held = (bodyText: string, extra: Record<string, unknown> = {}) =>
    ({ method: 'POST', url: 'http://x/', headers: new Headers(), bodyText, ...extra }) as unknown as Parameters<typeof heldBodyText>[0];

  it('answers the text a host holds, as its bytes would decode', () => {
    const text = '{"data":{"k":"é 日本 😀"}}';
    expect(heldBodyText(held(text))).toBe(text);
    expect(new TextDecoder().decode(new TextEncoder().encode(text))).toBe(text);
  });

  it('refuses past the limit by UTF-8 bytes, not by characters (the real 413)', async () => {
    expect(heldBodyText(held('é'.repeat(500)), 1000)).toBe('é'.repeat(500));
    let caught: unknown;
    try {
      heldBodyText(held('é'.repeat(501)), 1000);
    } catch (e) {
      caught = e;
    }
    expect((caught as StatusError).status).toMatchObject({ code: 413, message: 'Request entity too large: limit is 1000' });
    expect(await status(readLimitedBody(held('é'.repeat(501)), 1000))).toMatchObject({ code: 413, message: 'Request entity too large: limit is 1000' });
  });

  it('leaves bytes, and text with a lone surrogate (which encodes as U+FFFD), to the byte reader', () => {
    expect(heldBodyText(held('{}', { bodyBytes: new Uint8Array([0x7b, 0x7d]) }))).toBeUndefined();
    expect(heldBodyText(held('{"a":"\ud800"}'))).toBeUndefined();
    expect(heldBodyText(held('{"a":"\udc00"}'))).toBeUndefined();
    expect(heldBodyText(held('{"a":"😀"}'))).toBe('{"a":"😀"}');
  });

  it('hands the bytes to an observer (the audit layer) as readLimitedBody does', () => {
    const request = held('{"a":"é"}');
    let seen: Uint8Array | undefined;
    observeRequestBody(request, (b) => (seen = b));
    expect(heldBodyText(request)).toBe('{"a":"é"}');
    expect(seen).toEqual(new TextEncoder().encode('{"a":"é"}'));
  });
});
