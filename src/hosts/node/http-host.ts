// Host 2 (docs/hosts.md 3): the engine on 127.0.0.1 over node:http, so real clients (kubectl,
// @kubernetes/client-node, curl) can talk to it. Streams watch responses chunk by chunk; gzips large
// get/list responses when the client asks (APIResponseCompression, on by default; never on the SW host).
//
// Three guards stand before the engine, because anything a browser can reach can be made to reach this:
// - the engine routes on the raw request target (`req.url`), never on a URL the parser resolved, so
//   `configmaps/%2e%2e` names `..` (refused) instead of the namespace above;
// - the Host header must be a loopback name or one given with --allow-host (DNS rebinding sends the
//   attacker's name);
// - a write (any method but GET, HEAD, OPTIONS) that carries an Origin header must come from this host's
//   own origin (`http://` + the Host it was sent to: a page this host itself served) or from an origin
//   given with --allow-origin. curl, kubectl and client libraries send no Origin and are not affected;
//   browsers send one with every cross-site write, `no-cors` included.

import { createServer, type IncomingHttpHeaders, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import type { ApiServer, EngineHeaderReader, EngineRequest, EngineResponse } from '../../engine/server.js';
import { goJsonText } from '../../engine/codec/go-format.js';

/** The real server compresses responses of at least 128 KiB (defaultGzipThresholdBytes). */
const GZIP_THRESHOLD = 128 * 1024;

export interface HttpHost {
  server: Server;
  port: number;
  url: string;
  close(): Promise<void>;
}

export interface HttpHostOptions {
  port?: number;
  /** Address to listen on (default 127.0.0.1). */
  host?: string;
  compression?: boolean;
  /** Host names (optionally `name:port`) accepted besides the loopback names. */
  allowHosts?: readonly string[];
  /** Origins (`scheme://host[:port]`) whose pages may write, besides this host's own. */
  allowOrigins?: readonly string[];
  /** Serve HTTPS with this certificate and key (kubectl sends bearer tokens only over TLS). */
  tls?: { cert: string; key: string };
}

/** Splits a Host header (or an allow-list entry) into its lowercased name and port. */
export function parseHostHeader(value: string): { name: string; port?: string } | undefined {
  const v = value.trim().toLowerCase();
  const m = /^(\[[0-9a-f:.]+\]|[^:[\]/\s@]+)(?::(\d*))?$/.exec(v);
  if (!m) return undefined;
  return { name: m[1].replace(/\.$/, ''), port: m[2] || undefined };
}

/** localhost, 127.0.0.0/8 and [::1]: names that reach this machine only. */
export function isLoopbackName(name: string): boolean {
  if (name === 'localhost' || name === '[::1]') return true;
  const m = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(name);
  return !!m && m.slice(1).every((o) => Number(o) <= 255);
}

export function hostAllowed(hostHeader: string | undefined, allowHosts: readonly string[] = []): boolean {
  if (hostHeader === undefined) return false;
  const h = parseHostHeader(hostHeader);
  if (!h) return false;
  if (isLoopbackName(h.name)) return true;
  return allowHosts.some((entry) => {
    const a = parseHostHeader(entry);
    return !!a && a.name === h.name && (a.port === undefined || a.port === h.port);
  });
}

function normalizeOrigin(o: string): string {
  return o.trim().toLowerCase().replace(/\/+$/, '');
}

export function originAllowed(origin: string, hostHeader: string, allowOrigins: readonly string[] = []): boolean {
  const o = normalizeOrigin(origin);
  if (o === `http://${hostHeader.trim().toLowerCase()}`) return true;
  return allowOrigins.some((a) => normalizeOrigin(a) === o);
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Why the request may not reach the engine, or undefined when it may. */
export function refusal(req: Pick<IncomingMessage, 'headers' | 'method'>, opts: Pick<HttpHostOptions, 'allowHosts' | 'allowOrigins'>): string | undefined {
  const host = req.headers.host;
  if (host === undefined || host === '') {
    return 'a Host header is required: the playground\'s Node host answers requests addressed to a loopback name (localhost, 127.0.0.1, [::1]) or to a name given with --allow-host';
  }
  if (!hostAllowed(host, opts.allowHosts)) {
    return `host ${JSON.stringify(host)} is not allowed: the playground's Node host answers requests addressed to a loopback name (localhost, 127.0.0.1, [::1]) or to a name given with --allow-host`;
  }
  const origin = req.headers.origin;
  const method = (req.method ?? 'GET').toUpperCase();
  if (origin !== undefined && !SAFE_METHODS.has(method) && !originAllowed(origin, host, opts.allowOrigins)) {
    return `origin ${JSON.stringify(origin)} may not write to this cluster: writes from a web page are accepted from this host's own origin (http://${host}) or from an origin given with --allow-origin; clients that send no Origin (kubectl, curl) are not affected`;
  }
  return undefined;
}

function forbiddenStatus(message: string): string {
  return (
    goJsonText(JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Forbidden', details: {}, code: 403 })) + '\n'
  );
}

/**
 * The request body as a pull stream with backpressure. Cancelling it (the engine refusing an oversized body)
 * drains the rest without keeping it and leaves the socket open, so the 413 still reaches the client.
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.on('data', (chunk: Buffer) => {
          if (cancelled) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.on('end', () => {
          if (!cancelled) controller.close();
        });
        req.on('error', (e) => {
          if (!cancelled) controller.error(e);
        });
        req.pause();
      },
      pull() {
        req.resume();
      },
      cancel() {
        cancelled = true;
        req.resume();
      },
    },
    { highWaterMark: 8 },
  );
}

/**
 * The request's headers as the engine reads them, straight from node:http's parsed object (names already
 * lowercased, repeated values joined or kept as node:http does), read as a fetch Headers object reads them.
 */
class NodeRequestHeaders implements EngineHeaderReader {
  constructor(private readonly h: IncomingHttpHeaders) {}

  get(name: string): string | null {
    const v = this.h[name.toLowerCase()];
    if (v === undefined) return null;
    return Array.isArray(v) ? v.join(', ') : v;
  }

  has(name: string): boolean {
    return this.h[name.toLowerCase()] !== undefined;
  }

  forEach(cb: (value: string, name: string) => void): void {
    for (const k of Object.keys(this.h).sort()) {
      const v = this.get(k);
      if (v !== null) cb(v, k);
    }
  }
}

/**
 * The engine's request, built straight from the IncomingMessage (no fetch Request): the method as it
 * arrived, the headers as parsed, the body as a stream (so the engine's size budget refuses it before it is
 * held whole). The engine routes on the raw target, passed beside it; the URL only names the origin.
 */
function toEngineRequest(req: IncomingMessage, origin: string, signal: AbortSignal): EngineRequest {
  const method = req.method ?? 'GET';
  const body = method !== 'GET' && method !== 'HEAD' ? bodyStream(req) : null;
  const target = req.url ?? '/';
  return { method, url: origin + (target.startsWith('/') ? target : '/'), headers: new NodeRequestHeaders(req.headers), body, signal };
}

/** Splits a joined Warning header back into its values, at commas outside quoted text. */
export function splitWarnings(value: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (quoted && c === '\\') {
      cur += c + (value[i + 1] ?? '');
      i++;
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (c === ',' && !quoted) {
      out.push(cur.trim());
      cur = '';
      continue;
    }
    cur += c;
  }
  if (cur.trim() !== '') out.push(cur.trim());
  return out;
}

/**
 * CORS for the origins given with --allow-origin, with the real server's defaults (its WithCORS filter,
 * as --cors-allowed-origins installs it): the request's origin echoed, these methods and headers, `Date`
 * exposed, credentials allowed. Undefined for any other request, which gets no CORS header at all.
 */
export function corsHeaders(origin: string | undefined, allowOrigins: readonly string[] = []): Record<string, string> | undefined {
  if (origin === undefined || !allowOrigins.some((a) => normalizeOrigin(a) === normalizeOrigin(origin))) return undefined;
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Methods': 'POST, GET, OPTIONS, PUT, DELETE, PATCH',
    'Access-Control-Allow-Headers': 'Content-Type, Content-Length, Accept-Encoding, X-CSRF-Token, Authorization, X-Requested-With, If-Modified-Since',
    'Access-Control-Expose-Headers': 'Date',
    'Access-Control-Allow-Credentials': 'true',
  };
}

async function writeResponse(res: ServerResponse, response: EngineResponse, acceptsGzip: boolean, compression: boolean, extra: Record<string, string> = {}): Promise<void> {
  const headers: Record<string, string | string[]> = { ...extra };
  // the header list as a fetch Response iterates it (lowercased names, sorted, repeated names joined)
  response.headers.forEach((value, key) => {
    if (key === 'transfer-encoding') return;
    if (key === 'warning') {
      // several Warning headers arrive joined; split them back
      headers['Warning'] = splitWarnings(value);
      return;
    }
    headers[key] = value;
  });
  const streaming = response.headers.get('Transfer-Encoding') === 'chunked';
  if (!streaming || response.body === null) {
    const body = response.body;
    const buf = typeof body === 'string' ? Buffer.from(body, 'utf8') : body instanceof Uint8Array ? Buffer.from(body.buffer, body.byteOffset, body.byteLength) : Buffer.from(await response.bytes());
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
  const reader = response.stream()!.getReader();
  res.on('close', () => void reader.cancel().catch(() => undefined));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      // honour backpressure: a client that stops reading leaves the events queued in the engine, whose
      // watcher bound then closes the stream, instead of piling them up in the socket buffer
      if (!res.write(value)) await new Promise<void>((resolve) => {
        const go = () => {
          res.off('drain', go);
          res.off('close', go);
          resolve();
        };
        res.on('drain', go);
        res.on('close', go);
      });
    }
  } catch {
    // client went away
  }
  res.end();
}

export async function startHttpHost(api: ApiServer, opts: HttpHostOptions = {}): Promise<HttpHost> {
  const host = opts.host ?? '127.0.0.1';
  const compression = opts.compression ?? true;
  const scheme = opts.tls ? 'https' : 'http';
  const sockets = new Set<import('node:net').Socket>();
  const listener: RequestListener = (req, res) => {
    const refused = refusal(req, opts);
    if (refused !== undefined) {
      const body = forbiddenStatus(refused);
      res.writeHead(403, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private', 'Content-Length': String(Buffer.byteLength(body)) });
      res.end(body);
      req.resume(); // drain the body without reading it
      return;
    }
    const cors = corsHeaders(req.headers.origin, opts.allowOrigins);
    if (cors && (req.method ?? '').toUpperCase() === 'OPTIONS') {
      res.writeHead(204, cors); // a preflight stops here, as in the real server
      res.end();
      req.resume();
      return;
    }
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    const origin = `${scheme}://${req.headers.host ?? `${host}`}`;
    void (async () => {
      try {
        // the engine's own entry: no fetch Request or Response on this path
        const request = toEngineRequest(req, origin, abort.signal);
        const response = await api.serve(request, {
          target: req.url ?? '/',
          ...(req.socket.remoteAddress ? { remoteAddr: req.socket.remoteAddress } : {}),
        });
        const acceptsGzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
        await writeResponse(res, response, acceptsGzip, compression, cors);
      } catch (e) {
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end(String(e));
      }
    })();
  };
  const server: Server = opts.tls ? (createTlsServer({ cert: opts.tls.cert, key: opts.tls.key }, listener) as unknown as Server) : createServer(listener);
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
    url: `${scheme}://${host}:${port}`,
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
