// The Node host's streams, over real sockets: request bodies reach the engine as a stream (an oversized body
// is refused while it is still being sent, not after the host buffered it), methods the Fetch API cannot
// carry (TRACE) still reach the engine's router. (The host honours backpressure on watch streams, so a client
// that stops reading leaves events queued in the engine, whose watcher bound closes it: hub.test.ts.)
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { systemEnv } from '../../adapters/system-env.js';
import { createApiServer } from '../../engine/server.js';
import { startHttpHost, type HttpHost } from './http-host.js';

let host: HttpHost;
let port: number;
let api: ReturnType<typeof createApiServer>;

beforeAll(async () => {
  api = createApiServer({ storage: createMemoryStorage(), env: systemEnv(), host: 'node' });
  await api.ready;
  host = await startHttpHost(api);
  port = Number(new URL(host.url).port);
});
afterAll(async () => {
  await host?.close();
});

function raw(method: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function configMapNames(ns: string): Promise<string[]> {
  const r = await fetch(`${host.url}/api/v1/namespaces/${ns}/configmaps`);
  return ((await r.json()) as any).items.map((o: any) => o.metadata.name);
}

describe('the Node host', () => {
  it('TRACE reaches the router: 405 MethodNotAllowed on a served path, never a 500', async () => {
    // (TRACK never gets here: Node's HTTP parser refuses it with a bare 400 before any handler runs)
    for (const method of ['TRACE']) {
      const r = await raw(method, '/api/v1/namespaces/default/configmaps');
      expect([method, r.status]).toEqual([method, 405]);
      expect(JSON.parse(r.body)).toMatchObject({ kind: 'Status', reason: 'MethodNotAllowed', code: 405 });
    }
    // (CONNECT never gets here either: Node hands it to a 'connect' listener, and without one closes the socket)
    expect((await fetch(`${host.url}/version`)).status).toBe(200);
  });

  it('an oversized body is answered 413 while the client is still sending it', async () => {
    const cap = 64 * 1024 * 1024;
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    let sent = 0;
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/api/v1/namespaces/default/configmaps', headers: { 'Content-Type': 'application/json' } });
      let answered = 0;
      req.on('response', (res: IncomingMessage) => {
        answered = res.statusCode ?? 0;
        res.resume();
        req.destroy();
        resolve(answered);
      });
      req.on('error', (e) => (answered ? resolve(answered) : reject(e)));
      req.write('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"huge"},"data":{"a":"');
      const pump = () => {
        while (!answered && sent < cap) {
          sent += chunk.byteLength;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        if (!answered) req.end('"}}');
      };
      pump();
    });
    expect(status).toBe(413);
    // answered long before the whole body was sent: the host did not buffer it first
    expect(sent).toBeLessThan(cap / 2);
    expect(await configMapNames('default')).not.toContain('huge');
  });
});
