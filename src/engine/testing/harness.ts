// Test harness: an engine over in-memory storage with a fake clock, manual timers and deterministic ids,
// and a tiny client that speaks HTTP to `handle` and returns status, headers and the decoded body.
import type { Env } from '../env.js';
import { createApiServer, type ApiServerOptions } from '../server.js';
import type { Storage } from '../storage/interface.js';

export interface FakeEnv extends Env {
  advance(ms: number): Promise<void>;
  set(ms: number): void;
}

export function fakeEnv(start = Date.UTC(2025, 0, 1, 0, 0, 0)): FakeEnv {
  let now = start;
  let seq = 0;
  let timerSeq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const env: FakeEnv = {
    clock: { now: () => now },
    timers: {
      setTimeout: (fn, ms) => {
        const id = ++timerSeq;
        timers.set(id, { at: now + Math.max(0, ms), fn });
        return id;
      },
      clearTimeout: (h) => void timers.delete(h as number),
    },
    ids: {
      uid: () => {
        const n = (++seq).toString(16).padStart(12, '0');
        return `00000000-0000-4000-8000-${n}`;
      },
      suffix: (n) => {
        const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
        let s = '';
        let x = ++seq;
        for (let i = 0; i < n; i++) {
          s += alphabet[x % alphabet.length];
          x = Math.floor(x / alphabet.length) + 7 * (i + 1);
        }
        return s;
      },
      int: (max) => ++seq % max,
    },
    async advance(ms: number) {
      const target = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= target).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = Math.max(now, due[1].at);
        due[1].fn();
        await new Promise((r) => setImmediate(r));
      }
      now = target;
      await new Promise((r) => setImmediate(r));
    },
    set(ms: number) {
      now = ms;
    },
  };
  return env;
}

export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface TestClient {
  env: FakeEnv;
  server: ReturnType<typeof createApiServer>;
  req<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<TestResponse<T>>;
  raw(method: string, path: string, body?: string | Uint8Array, headers?: Record<string, string>): Promise<Response>;
  /** Lets the engine's controllers finish what they can do now (timers due now run; the clock does not move). */
  settle(): Promise<void>;
}

export async function testClient(storage: Storage, opts: Partial<ApiServerOptions> & { env?: FakeEnv } = {}): Promise<TestClient> {
  const env = opts.env ?? fakeEnv();
  const server = createApiServer({ storage, env, host: 'test', controllerStartDelayMs: 0, ...opts });
  await server.ready;
  const raw = (method: string, path: string, body?: string | Uint8Array, headers: Record<string, string> = {}) =>
    server.handle(new Request(`http://127.0.0.1${path}`, { method, body: body instanceof Uint8Array ? new Uint8Array(body) : body, headers }));
  return {
    env,
    server,
    raw,
    async settle() {
      for (let i = 0; i < 30; i++) {
        // timers due now (an informer starting, a queue key due) run; the clock does not move
        await env.advance(0);
        await server.engine.controllers?.idle();
        await new Promise((r) => setImmediate(r));
      }
    },
    async req(method, path, body, headers = {}) {
      const h = { ...headers };
      let payload: string | undefined;
      if (body !== undefined) {
        payload = typeof body === 'string' ? body : JSON.stringify(body);
        if (!Object.keys(h).some((k) => k.toLowerCase() === 'content-type')) h['Content-Type'] = 'application/json';
      }
      const res = await raw(method, path, payload, h);
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON
      }
      return { status: res.status, headers: res.headers, body: parsed as any, text };
    },
  };
}
