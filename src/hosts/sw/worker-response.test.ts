import { describe, expect, it } from 'vitest';
import { EngineResponse } from '../../engine/server.js';
import { workerResponse } from './worker-response.js';

describe('workerResponse: an engine answer as the worker hands it to respondWith', () => {
  const headers: [string, string][] = [['Content-Type', 'application/json'], ['Audit-Id', 'a-1'], ['Cache-Control', 'no-cache, private']];

  it('gives a body written whole as a stream, with the same bytes, status, status text and headers', async () => {
    const bytes = new TextEncoder().encode('{"kind":"ConfigMap","data":{"k":"é"}}');
    const res = workerResponse(new EngineResponse(bytes, { status: 201, statusText: 'Created', headers }));
    expect(res.status).toBe(201);
    expect(res.statusText).toBe('Created');
    const pairs: [string, string][] = [];
    res.headers.forEach((v, k) => pairs.push([k, v]));
    expect(pairs).toEqual(headers.map(([k, v]) => [k.toLowerCase(), v]).sort(([a], [b]) => (a < b ? -1 : 1)));
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
    // the engine may keep those bytes for its next answer: handing them over must not detach them
    expect(bytes.byteLength).toBeGreaterThan(0);
    expect(new TextDecoder().decode(bytes)).toBe('{"kind":"ConfigMap","data":{"k":"é"}}');
  });

  it('encodes a text body as UTF-8, with the content type the engine gave it', async () => {
    const res = workerResponse(new EngineResponse('ok ✓', { status: 200 }));
    expect(res.headers.get('Content-Type')).toBe('text/plain;charset=UTF-8');
    expect(await res.text()).toBe('ok ✓');
  });

  it('keeps an answer without a body without one (204 must have none)', async () => {
    for (const body of [null, '', new Uint8Array(0)]) {
      const res = workerResponse(new EngineResponse(body, { status: 204, headers }));
      expect(res.status).toBe(204);
      expect(res.body).toBeNull();
    }
  });

  it('passes a streamed answer (a watch) on as it is', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('{"type":"ADDED"}\n'));
        c.close();
      },
    });
    const res = workerResponse(new EngineResponse(stream, { status: 200, headers }));
    expect(await res.text()).toBe('{"type":"ADDED"}\n');
  });
});
