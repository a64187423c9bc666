// The engine's whole view of its environment: the standard Fetch, Streams, URL and Encoding APIs that
// every host (service worker, page, Node >= 18) provides. Nothing else is declared here on purpose: no DOM
// (window, document, indexedDB), no timers, no clock, no randomness, no Node types. tsconfig.engine.json
// compiles src/engine against this file alone, so a stray `setTimeout` or `indexedDB` fails to compile.
export {};

declare global {
  type BodyInit = string | Uint8Array | ArrayBuffer | ReadableStream<Uint8Array> | URLSearchParams;
  type HeadersInit = Headers | Record<string, string> | [string, string][];

  interface Headers {
    append(name: string, value: string): void;
    delete(name: string): void;
    get(name: string): string | null;
    has(name: string): boolean;
    set(name: string, value: string): void;
    forEach(cb: (value: string, key: string, parent: Headers) => void): void;
    entries(): IterableIterator<[string, string]>;
    keys(): IterableIterator<string>;
    [Symbol.iterator](): IterableIterator<[string, string]>;
  }
  var Headers: { prototype: Headers; new (init?: HeadersInit): Headers };

  interface AbortSignal {
    readonly aborted: boolean;
    addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
    removeEventListener(type: 'abort', listener: () => void): void;
  }

  interface Body {
    readonly body: ReadableStream<Uint8Array> | null;
    readonly bodyUsed: boolean;
    arrayBuffer(): Promise<ArrayBuffer>;
    text(): Promise<string>;
    json(): Promise<unknown>;
  }

  interface RequestInit {
    method?: string;
    headers?: HeadersInit;
    body?: BodyInit | null;
    signal?: AbortSignal | null;
    duplex?: 'half';
  }
  interface Request extends Body {
    readonly method: string;
    readonly url: string;
    readonly headers: Headers;
    readonly signal: AbortSignal;
  }
  var Request: { prototype: Request; new (input: string | Request, init?: RequestInit): Request };

  interface ResponseInit {
    status?: number;
    statusText?: string;
    headers?: HeadersInit;
  }
  interface Response extends Body {
    readonly status: number;
    readonly statusText: string;
    readonly headers: Headers;
    readonly ok: boolean;
  }
  var Response: { prototype: Response; new (body?: BodyInit | null, init?: ResponseInit): Response };

  interface ReadableStreamDefaultController<R> {
    enqueue(chunk: R): void;
    close(): void;
    error(e?: unknown): void;
    readonly desiredSize: number | null;
  }
  interface UnderlyingSource<R> {
    start?(controller: ReadableStreamDefaultController<R>): void | Promise<void>;
    pull?(controller: ReadableStreamDefaultController<R>): void | Promise<void>;
    cancel?(reason?: unknown): void | Promise<void>;
  }
  interface ReadableStreamReadResult<R> {
    done: boolean;
    value?: R;
  }
  interface ReadableStreamDefaultReader<R> {
    read(): Promise<ReadableStreamReadResult<R>>;
    cancel(reason?: unknown): Promise<void>;
    releaseLock(): void;
  }
  interface ReadableStream<R = unknown> {
    getReader(): ReadableStreamDefaultReader<R>;
    cancel(reason?: unknown): Promise<void>;
    readonly locked: boolean;
  }
  var ReadableStream: {
    prototype: ReadableStream;
    new <R = unknown>(source?: UnderlyingSource<R>, strategy?: { highWaterMark?: number }): ReadableStream<R>;
  };

  interface TextEncoder {
    encode(input?: string): Uint8Array;
  }
  var TextEncoder: { prototype: TextEncoder; new (): TextEncoder };
  interface TextDecoder {
    decode(input?: Uint8Array | ArrayBuffer, options?: { stream?: boolean }): string;
  }
  var TextDecoder: { prototype: TextDecoder; new (label?: string, options?: { fatal?: boolean }): TextDecoder };

  interface URLSearchParams {
    get(name: string): string | null;
    getAll(name: string): string[];
    has(name: string): boolean;
    set(name: string, value: string): void;
    append(name: string, value: string): void;
    delete(name: string): void;
    forEach(cb: (value: string, key: string) => void): void;
    keys(): IterableIterator<string>;
    entries(): IterableIterator<[string, string]>;
    toString(): string;
    [Symbol.iterator](): IterableIterator<[string, string]>;
  }
  var URLSearchParams: {
    prototype: URLSearchParams;
    new (init?: string | Record<string, string> | [string, string][]): URLSearchParams;
  };
  interface URL {
    href: string;
    origin: string;
    protocol: string;
    host: string;
    hostname: string;
    port: string;
    pathname: string;
    search: string;
    hash: string;
    readonly searchParams: URLSearchParams;
    toString(): string;
  }
  var URL: { prototype: URL; new (url: string, base?: string | URL): URL };

  function btoa(data: string): string;
  function atob(data: string): string;
  function queueMicrotask(cb: () => void): void;
  function structuredClone<T>(value: T): T;
}
