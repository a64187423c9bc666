// The engine's own request and response shapes: what the request path reads of a request and what every
// responder writes, without the Fetch API's objects. A fetch `Request` already is an EngineRequest, so the
// public `handle(Request): Promise<Response>` is `serve()` plus one conversion (toFetchResponse); hosts and
// in-process clients that hold the parts of a request (the Node host's IncomingMessage, the controllers'
// method, path and JSON text) call `serve()` and write the EngineResponse themselves, skipping Node's
// Request/Response objects, their header lists, body streams and promise glue.
//
// The two entries must answer the same bytes: the header list behaves as a fetch Headers object does
// (case-insensitive names, values trimmed, iteration sorted by lowercased name with repeated names joined
// by ", "), and a string body without a Content-Type gets the one a fetch Response gives it.

import { concatBytes } from '../util/bytes.js';

/** What the engine reads of a request's headers (a fetch Headers object is one). */
export interface EngineHeaderReader {
  get(name: string): string | null;
  has(name: string): boolean;
  /** Every header, as a fetch Headers object iterates them: lowercased names, sorted, repeated ones joined. */
  forEach(cb: (value: string, name: string) => void): void;
}

/**
 * A request as the engine reads it; a fetch `Request` satisfies it. Hosts that already hold the whole body
 * give it as `bodyBytes` or `bodyText` (then `body` is not read).
 */
export interface EngineRequest {
  readonly method: string;
  /** An absolute URL (only its path, query and host are read; hosts with the raw target pass it beside). */
  readonly url: string;
  readonly headers: EngineHeaderReader;
  readonly signal?: AbortSignal;
  readonly body?: ReadableStream<Uint8Array> | null;
  /** The whole body as bytes, when the host holds it. */
  readonly bodyBytes?: Uint8Array;
  /** The whole body as text (encoded as UTF-8), when the host holds it. */
  readonly bodyText?: string;
  /**
   * In-process watch delivery, honoured only for a request the engine built itself (its controllers'
   * informers) and a JSON watch of whole objects or PartialObjectMetadata: each event goes to this function
   * as the type and the object the JSON line would hold (the served object; stored parts are shared and
   * frozen, never mutate them), each in a microtask of its own after the write that made it, in order,
   * instead of being encoded into the body. The body stream still ends when the watch ends (timeout, the
   * collection going away, the client's cancel), and every layer that watches it (metrics, audit) sees that
   * end as for any watch. Any other watch ignores it and answers bytes as usual.
   */
  readonly watchEvents?: (type: string, object: unknown) => void;
}

export type EngineBody = string | Uint8Array | ReadableStream<Uint8Array> | null;

export type EngineHeadersInit = Record<string, string> | [string, string][] | EngineHeaderReader;

function isStreamBody(body: EngineBody | undefined): body is ReadableStream<Uint8Array> {
  return typeof body === 'object' && body !== null && !(body instanceof Uint8Array);
}

/** A header value as fetch keeps it: leading and trailing tabs, spaces, CR and LF removed. */
function trimValue(v: string): string {
  if (v.length === 0) return v;
  const a = v.charCodeAt(0);
  const b = v.charCodeAt(v.length - 1);
  if (a > 32 && b > 32) return v;
  return v.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
}

/** A response's header list: a small array of pairs with the lookups of a fetch Headers object. */
export class WireHeaders implements EngineHeaderReader {
  /** [name as written, value], in the order added. */
  private readonly list: [string, string][] = [];

  constructor(init?: EngineHeadersInit) {
    if (!init) return;
    if (Array.isArray(init)) {
      for (const [k, v] of init) this.list.push([k, trimValue(v)]);
    } else if (typeof (init as EngineHeaderReader).forEach === 'function' && typeof (init as EngineHeaderReader).get === 'function') {
      (init as EngineHeaderReader).forEach((v, k) => void this.list.push([k, v]));
    } else {
      for (const k of Object.keys(init)) this.list.push([k, trimValue((init as Record<string, string>)[k])]);
    }
  }

  append(name: string, value: string): void {
    this.list.push([name, trimValue(value)]);
  }

  set(name: string, value: string): void {
    this.delete(name);
    this.list.push([name, trimValue(value)]);
  }

  delete(name: string): void {
    const lower = name.toLowerCase();
    for (let i = this.list.length - 1; i >= 0; i--) if (this.list[i][0].toLowerCase() === lower) this.list.splice(i, 1);
  }

  get(name: string): string | null {
    const lower = name.toLowerCase();
    let out: string | null = null;
    for (const [k, v] of this.list) {
      if (k.length !== lower.length || k.toLowerCase() !== lower) continue;
      out = out === null ? v : `${out}, ${v}`;
    }
    return out;
  }

  has(name: string): boolean {
    const lower = name.toLowerCase();
    return this.list.some(([k]) => k.toLowerCase() === lower);
  }

  /** As fetch iterates: lowercased names in sorted order, the values of a repeated name joined by ", ". */
  forEach(cb: (value: string, name: string, parent: WireHeaders) => void): void {
    for (const [k, v] of this.combined()) cb(v, k, this);
  }

  entries(): IterableIterator<[string, string]> {
    return this.combined()[Symbol.iterator]();
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  /** The pairs as added (names as written, repeated names apart): what a fetch Response is built from. */
  pairs(): [string, string][] {
    return this.list;
  }

  private combined(): [string, string][] {
    // lowercased, then a stable insertion sort (a handful of headers): a repeated name's values stay in the
    // order they were added, and are joined as they meet
    const rows: [string, string][] = this.list.map(([k, v]) => [k.toLowerCase(), v]);
    for (let i = 1; i < rows.length; i++) {
      const x = rows[i];
      let j = i - 1;
      while (j >= 0 && rows[j][0] > x[0]) {
        rows[j + 1] = rows[j];
        j--;
      }
      rows[j + 1] = x;
    }
    const out: [string, string][] = [];
    for (const r of rows) {
      const last = out[out.length - 1];
      if (last !== undefined && last[0] === r[0]) last[1] = `${last[1]}, ${r[1]}`;
      else out.push(r);
    }
    return out;
  }
}

export interface EngineResponseInit {
  status?: number;
  statusText?: string;
  headers?: EngineHeadersInit;
}

const UTF8 = new TextEncoder();
const UTF8_DECODER = new TextDecoder();

/** A response as every responder writes it: status, a header list, and the body as written. */
export class EngineResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: WireHeaders;
  readonly body: EngineBody;

  constructor(body: EngineBody | undefined, init: EngineResponseInit = {}) {
    this.status = init.status ?? 200;
    this.statusText = init.statusText ?? '';
    this.headers = init.headers instanceof WireHeaders ? new WireHeaders(init.headers.pairs().map(([k, v]): [string, string] => [k, v])) : new WireHeaders(init.headers);
    this.body = body ?? null;
    // a fetch Response gives a string body this type when none was set
    if (typeof body === 'string' && !this.headers.has('Content-Type')) this.headers.append('Content-Type', 'text/plain;charset=UTF-8');
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  /** Whether the body is a stream (a watch, a log) rather than written whole. */
  get streaming(): boolean {
    return isStreamBody(this.body);
  }

  /** The body as bytes (a stream is read to its end). */
  async bytes(): Promise<Uint8Array> {
    const b = this.body;
    if (b === null) return new Uint8Array(0);
    if (typeof b === 'string') return UTF8.encode(b);
    if (b instanceof Uint8Array) return b;
    const reader = b.getReader();
    const chunks: Uint8Array[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (value) chunks.push(value);
    }
    return concatBytes(chunks);
  }

  async text(): Promise<string> {
    const b = this.body;
    if (typeof b === 'string') return b;
    return UTF8_DECODER.decode(await this.bytes());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.bytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  /** The body as a stream (a whole body becomes a stream of one chunk), or null. */
  stream(): ReadableStream<Uint8Array> | null {
    const b = this.body;
    if (b === null) return null;
    if (isStreamBody(b)) return b;
    const bytes = typeof b === 'string' ? UTF8.encode(b) : b;
    return new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytes);
        c.close();
      },
    });
  }
}

/** The EngineResponse as a fetch Response (the public `handle()`). */
export function toFetchResponse(res: EngineResponse): Response {
  const b = res.body;
  const body = b instanceof Uint8Array ? (b as Uint8Array<ArrayBuffer>) : b;
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers.pairs() });
}

/**
 * A request built from parts, for in-process clients that hold a method, a URL, header pairs and the body
 * as text (no fetch Request, no stream).
 */
export function engineRequest(method: string, url: string, headers: [string, string][], bodyText?: string, signal?: AbortSignal): EngineRequest {
  return { method, url, headers: new RequestHeaders(headers), bodyText, signal, body: null };
}

/** Request headers from pairs, read as a fetch Headers object reads them. */
export class RequestHeaders implements EngineHeaderReader {
  private readonly inner: WireHeaders;
  constructor(pairs: [string, string][]) {
    this.inner = new WireHeaders(pairs);
  }
  get(name: string): string | null {
    return this.inner.get(name);
  }
  has(name: string): boolean {
    return this.inner.has(name);
  }
  forEach(cb: (value: string, name: string) => void): void {
    this.inner.forEach((v, k) => cb(v, k));
  }
}
