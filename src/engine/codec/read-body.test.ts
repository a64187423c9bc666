import { describe, expect, it } from 'vitest';
import { StatusError } from '../errors.js';
import { readLimitedBody, MAX_REQUEST_BODY_BYTES } from './read-body.js';

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
