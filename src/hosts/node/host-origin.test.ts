// A hostile web page cannot reach the local cluster (issue 11, item 2). DNS rebinding sends the attacker's
// name as Host; a cross-site write (a `no-cors` fetch of a Blob needs no preflight) carries the page's
// Origin. Both are refused with a 403 Status before the engine sees the request; kubectl and curl, which
// send a loopback Host and no Origin, are unaffected.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { systemEnv } from '../../adapters/system-env.js';
import { createApiServer, type ApiServer } from '../../engine/server.js';
import type { Storage } from '../../engine/storage/interface.js';
import { startHttpHost, type HttpHost } from './http-host.js';
import { rawRequest } from './raw-http.js';

let storage: Storage;
let api: ApiServer;
let host: HttpHost;
let allowing: HttpHost;

beforeAll(async () => {
  storage = createMemoryStorage();
  api = createApiServer({ storage, env: systemEnv(), host: 'node' });
  await api.ready;
  host = await startHttpHost(api, { port: 0 });
  allowing = await startHttpHost(api, { port: 0, allowHosts: ['my.box', 'Other.Box:9000'], allowOrigins: ['http://localhost:5173', 'https://tools.example/'] });
});

afterAll(async () => {
  await host.close();
  await allowing.close();
  await api.close();
});

function forbidden(message: string) {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Forbidden', details: {}, code: 403 };
}

const hostMessage = (h: string) =>
  `host ${JSON.stringify(h)} is not allowed: the playground's Node host answers requests addressed to a loopback name (localhost, 127.0.0.1, [::1]) or to a name given with --allow-host`;
const originMessage = (o: string, h: string) =>
  `origin ${JSON.stringify(o)} may not write to this cluster: writes from a web page are accepted from this host's own origin (http://${h}) or from an origin given with --allow-origin; clients that send no Origin (kubectl, curl) are not affected`;

const CM = '/api/v1/namespaces/default/configmaps';
const cm = (name: string) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' } });

async function names(): Promise<string[]> {
  const r = await rawRequest(host.port, 'GET', CM);
  return (r.json() as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name);
}

describe('Host header', () => {
  it('loopback names, with or without a port, in any case, reach the engine', async () => {
    for (const h of ['localhost', 'localhost:8080', 'LocalHost', '127.0.0.1', `127.0.0.1:${host.port}`, '127.1.2.3:80', '[::1]', '[::1]:8080', 'localhost.']) {
      const r = await rawRequest(host.port, 'GET', '/api/v1/namespaces/default', { headers: { Host: h } });
      expect([h, r.status]).toEqual([h, 200]);
    }
  });

  it('any other name is refused with 403 for reads and writes, and nothing is written', async () => {
    const rev = await storage.revision();
    for (const h of ['evil.example', 'evil.example:8080', 'localhost.evil.example', '127.0.0.1.nip.io', '10.0.0.1', '[::2]', '0.0.0.0', '127.0.0.256', 'localhost:80@evil']) {
      const get = await rawRequest(host.port, 'GET', '/api/v1/namespaces', { headers: { Host: h } });
      expect([h, get.status, get.json()]).toEqual([h, 403, forbidden(hostMessage(h))]);
      expect(get.headers['content-type']).toBe('application/json');
      const del = await rawRequest(host.port, 'DELETE', '/api/v1/namespaces/default', { headers: { Host: h } });
      expect([h, del.status]).toEqual([h, 403]);
      const post = await rawRequest(host.port, 'POST', CM, { headers: { Host: h, 'Content-Type': 'application/json' }, body: cm('rebound') });
      expect([h, post.status]).toEqual([h, 403]);
    }
    expect(await storage.revision()).toBe(rev);
    expect(await names()).not.toContain('rebound');
  });

  it('a request without Host is refused (HTTP/1.1 by node:http itself, HTTP/1.0 by the host)', async () => {
    const r = await rawRequest(host.port, 'GET', '/api/v1/namespaces', { setHost: false });
    expect(r.status).toBe(400);
    const answer = await new Promise<string>((resolve, reject) => {
      const sock = connect(host.port, '127.0.0.1', () => sock.end('DELETE /api/v1/namespaces/default HTTP/1.0\r\n\r\n'));
      let data = '';
      sock.on('data', (d) => (data += d));
      sock.on('end', () => resolve(data));
      sock.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
    expect(answer).toContain('"message":"a Host header is required');
    const ns = await rawRequest(host.port, 'GET', '/api/v1/namespaces/default');
    expect((ns.json() as { metadata: { deletionTimestamp?: string } }).metadata.deletionTimestamp).toBeUndefined();
  });

  it('--allow-host adds names: any port for a bare name, exactly that port for name:port', async () => {
    for (const [h, status] of [
      ['my.box', 200],
      ['MY.BOX:1234', 200],
      ['other.box:9000', 200],
      ['other.box:9001', 403],
      ['other.box', 403],
      ['their.box', 403],
      ['localhost', 200],
    ] as const) {
      const r = await rawRequest(allowing.port, 'GET', '/api/v1/namespaces/default', { headers: { Host: h } });
      expect([h, r.status]).toEqual([h, status]);
    }
  });
});

describe('Origin header on writes', () => {
  it('a cross-site no-cors write (Blob body, no Content-Type) is refused, for every write method; nothing changes', async () => {
    const rev = await storage.revision();
    const h = `127.0.0.1:${host.port}`;
    for (const origin of ['https://evil.example', 'null', `http://localhost:${host.port}`, `https://${h}`, 'http://localhost:5173']) {
      for (const [method, path] of [
        ['POST', CM],
        ['PUT', `${CM}/x`],
        ['PATCH', `${CM}/x`],
        ['DELETE', `${CM}/x`],
        ['DELETE', CM],
        ['DELETE', '/api/v1/namespaces/default'],
        ['POST', '/x-playground/cel'],
      ] as const) {
        const r = await rawRequest(host.port, method, path, { headers: { Origin: origin }, body: method === 'DELETE' ? undefined : cm('x') });
        expect([origin, method, path, r.status, r.json()]).toEqual([origin, method, path, 403, forbidden(originMessage(origin, h))]);
      }
    }
    expect(await storage.revision()).toBe(rev);
    expect(await names()).not.toContain('x');
    const ns = await rawRequest(host.port, 'GET', '/api/v1/namespaces/default');
    expect((ns.json() as { metadata: { deletionTimestamp?: string } }).metadata.deletionTimestamp).toBeUndefined();
  });

  it('reads carrying any Origin are answered (a page cannot read them without CORS headers, which are never sent)', async () => {
    const r = await rawRequest(host.port, 'GET', CM, { headers: { Origin: 'https://evil.example' } });
    expect(r.status).toBe(200);
    expect(r.headers['access-control-allow-origin']).toBeUndefined();
  });

  it("the host's own origin (the Host it was addressed by) and --allow-origin origins may write", async () => {
    const own = await rawRequest(host.port, 'POST', CM, {
      headers: { Origin: `http://127.0.0.1:${host.port}`, 'Content-Type': 'application/json' },
      body: cm('from-own-origin'),
    });
    expect(own.status, own.body).toBe(201);
    for (const [origin, name] of [
      ['http://localhost:5173', 'from-dev-server'],
      ['https://tools.example', 'from-tools'],
      ['HTTPS://TOOLS.EXAMPLE/', 'from-tools-2'],
    ]) {
      const r = await rawRequest(allowing.port, 'POST', CM, { headers: { Origin: origin, 'Content-Type': 'application/json' }, body: cm(name) });
      expect([origin, r.status]).toEqual([origin, 201]);
    }
    const other = await rawRequest(allowing.port, 'POST', CM, { headers: { Origin: 'http://localhost:5174', 'Content-Type': 'application/json' }, body: cm('nope') });
    expect(other.status).toBe(403);
    expect(await names()).toEqual(expect.arrayContaining(['from-own-origin', 'from-dev-server', 'from-tools', 'from-tools-2']));
    expect(await names()).not.toContain('nope');
  });

  it('kubectl and curl (no Origin) write as before', async () => {
    const r = await rawRequest(host.port, 'POST', CM, { headers: { 'Content-Type': 'application/json', 'User-Agent': 'kubectl/v1.33.0' }, body: cm('from-kubectl') });
    expect(r.status).toBe(201);
    const del = await rawRequest(host.port, 'DELETE', `${CM}/from-kubectl`, { headers: { 'User-Agent': 'curl/8.5.0' } });
    expect(del.status).toBe(200);
  });

  it('without Origin, a body without Content-Type is JSON for create (as the real server defaults it) but 415 for patch', async () => {
    const create = await rawRequest(host.port, 'POST', CM, { body: cm('no-content-type') });
    expect(create.status).toBe(201);
    const patch = await rawRequest(host.port, 'PATCH', `${CM}/no-content-type`, { body: '{"data":{"k":"w"}}' });
    expect(patch.status).toBe(415);
    expect((patch.json() as { reason: string }).reason).toBe('UnsupportedMediaType');
  });

  it('--allow-origin origins get the real server\'s CORS headers, and a preflight is answered 204; others get none', async () => {
    const cors = {
      'access-control-allow-origin': 'http://localhost:5173',
      'access-control-allow-methods': 'POST, GET, OPTIONS, PUT, DELETE, PATCH',
      'access-control-allow-headers': 'Content-Type, Content-Length, Accept-Encoding, X-CSRF-Token, Authorization, X-Requested-With, If-Modified-Since',
      'access-control-expose-headers': 'Date',
      'access-control-allow-credentials': 'true',
    };
    const preflight = await rawRequest(allowing.port, 'OPTIONS', CM, {
      headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers).toMatchObject(cors);
    expect(preflight.body).toBe('');
    const get = await rawRequest(allowing.port, 'GET', CM, { headers: { Origin: 'http://localhost:5173' } });
    expect(get.status).toBe(200);
    expect(get.headers).toMatchObject(cors);
    for (const origin of ['https://evil.example', `http://127.0.0.1:${allowing.port}`]) {
      const other = await rawRequest(allowing.port, 'GET', CM, { headers: { Origin: origin } });
      expect(other.status).toBe(200);
      expect(Object.keys(other.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    }
    const noCors = await rawRequest(host.port, 'OPTIONS', CM, { headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'POST' } });
    expect(noCors.headers['access-control-allow-origin']).toBeUndefined();
  });
});
