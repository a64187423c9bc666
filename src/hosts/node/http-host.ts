// Host 2 (DESIGN.md 1): the engine on 127.0.0.1 over node:http, so real clients (kubectl,
// @kubernetes/client-node, curl) can talk to it. Streams watch responses chunk by chunk; gzips large
// get/list responses when the client asks (APIResponseCompression, on by default; never on the SW host).

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import type { ApiServer } from '../../engine/server.js';

/** The real server compresses responses of at least 128 KiB (defaultGzipThresholdBytes). */
const GZIP_THRESHOLD = 128 * 1024;

export interface HttpHost {
  server: Server;
  port: number;
  url: string;
  close(): Promise<void>;
}

async function toRequest(req: IncomingMessage, origin: string, signal: AbortSignal): Promise<Request> {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const x of v) headers.append(k, x);
    else headers.set(k, v);
  }
  const method = req.method ?? 'GET';
  let body: Uint8Array<ArrayBuffer> | undefined;
  if (method !== 'GET' && method !== 'HEAD') {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    body = new Uint8Array(Buffer.concat(chunks));
  }
  return new Request(origin + (req.url ?? '/'), { method, headers, body, signal });
}

async function writeResponse(res: ServerResponse, response: Response, acceptsGzip: boolean, compression: boolean): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, key) => {
    if (key === 'transfer-encoding') return;
    if (key === 'warning') {
      // several Warning headers arrive joined; split them back
      headers['Warning'] = value.split(/,\s*(?=299 )/);
      return;
    }
    headers[key] = value;
  });
  const streaming = response.headers.get('Transfer-Encoding') === 'chunked';
  if (!streaming || !response.body) {
    const buf = Buffer.from(await response.arrayBuffer());
    if (compression && acceptsGzip && buf.byteLength >= GZIP_THRESHOLD) {
      const gz = gzipSync(buf);
      res.writeHead(response.status, { ...headers, 'Content-Encoding': 'gzip', 'Content-Length': String(gz.byteLength), Vary: 'Accept-Encoding' });
      res.end(gz);
      return;
    }
    res.writeHead(response.status, { ...headers, 'Content-Length': String(buf.byteLength) });
    res.end(buf);
    return;
  }
  res.writeHead(response.status, headers);
  res.flushHeaders();
  const reader = response.body.getReader();
  res.on('close', () => void reader.cancel().catch(() => undefined));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
  } catch {
    // client went away
  }
  res.end();
}

export async function startHttpHost(api: ApiServer, opts: { port?: number; host?: string; compression?: boolean } = {}): Promise<HttpHost> {
  const host = opts.host ?? '127.0.0.1';
  const compression = opts.compression ?? true;
  const sockets = new Set<import('node:net').Socket>();
  const server = createServer((req, res) => {
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    const origin = `http://${req.headers.host ?? `${host}`}`;
    void (async () => {
      try {
        const request = await toRequest(req, origin, abort.signal);
        const response = await api.handle(request);
        const acceptsGzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
        await writeResponse(res, response, acceptsGzip, compression);
      } catch (e) {
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end(String(e));
      }
    })();
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A kubeconfig that points kubectl at this host (plain HTTP on loopback, no credentials). */
export function kubeconfig(url: string, cluster = 'playground'): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: ${cluster}`,
    '  cluster:',
    `    server: ${url}`,
    'contexts:',
    `- name: ${cluster}`,
    '  context:',
    `    cluster: ${cluster}`,
    `    user: ${cluster}`,
    '    namespace: default',
    `current-context: ${cluster}`,
    'users:',
    `- name: ${cluster}`,
    '  user: {}',
    '',
  ].join('\n');
}
