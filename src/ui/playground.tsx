// The contract between the playground's frame and its panels. Every panel reaches the API only through
// `api.fetch` (logged in the request console, sent to base_url over HTTP: STYLE.md layering 4), shares the
// selected object, and can hand a manifest to the editor. The frame (app.tsx) provides it.
import { createContext, useContext, useSyncExternalStore } from 'react';
import { apiFetch } from './api.js';

/** An object the user picked (in the browser, the timeline, a request...). */
export interface ObjectRef {
  /** `v1` or `apps/v1` */
  groupVersion: string;
  /** resource plural, e.g. `deployments` */
  resource: string;
  kind: string;
  namespace?: string;
  name: string;
}

export interface LoggedRequest {
  id: number;
  /** Which panel sent it ("editor", "browser", "timeline", "console", ...). */
  source: string;
  method: string;
  path: string;
  requestHeaders: [string, string][];
  requestBody?: string;
  status?: number;
  responseHeaders?: [string, string][];
  responseBody?: string;
  /** Milliseconds until the response headers arrived. */
  durationMs?: number;
  startedAt: number;
  /** A watch or other stream: the body is not captured. */
  streaming?: boolean;
  error?: string;
}

export type Theme = 'light' | 'dark';

export interface PlaygroundState {
  selected?: ObjectRef;
  /** Text loaded into the manifest editor by a panel (the editor owns its live text). */
  editorRequest?: { text: string; seq: number };
  requests: LoggedRequest[];
  theme: Theme;
  /**
   * Added by the frame (optional, backward compatible): a request the console should show, set by
   * `focusRequest(id)` (e.g. the editor after an apply conflict). `seq` changes on every call.
   */
  focusedRequest?: { id: number; seq: number };
  /**
   * Added by the frame: bumped by `discoveryChanged()` after a CRD (or APIService) is created, changed or
   * deleted through the editor. Panels that cache discovery (the resource browser) should re-read it when
   * this number changes: `const epoch = usePlayground((s) => s.discoveryEpoch ?? 0)`.
   */
  discoveryEpoch?: number;
}

type Listener = () => void;

/** A tiny external store (useSyncExternalStore), so panels re-render only on what they read. */
export class PlaygroundStore {
  private state: PlaygroundState;
  private listeners = new Set<Listener>();
  private nextId = 1;
  private seq = 0;
  /** At most this many requests are kept in the console. */
  static readonly MAX_REQUESTS = 500;

  constructor(initial: Partial<PlaygroundState> = {}) {
    this.state = { requests: [], theme: 'light', ...initial };
  }

  get = (): PlaygroundState => this.state;

  subscribe = (l: Listener): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };

  private set(patch: Partial<PlaygroundState>): void {
    this.state = { ...this.state, ...patch };
    for (const l of [...this.listeners]) l();
  }

  select(ref: ObjectRef | undefined): void {
    this.set({ selected: ref });
  }

  openInEditor(text: string): void {
    this.set({ editorRequest: { text, seq: ++this.seq } });
  }

  setTheme(theme: Theme): void {
    this.set({ theme });
  }

  /** Shows request `id` in the request console (the frame switches to the console tab). */
  focusRequest(id: number): void {
    this.set({ focusedRequest: { id, seq: ++this.seq } });
  }

  /** Discovery changed (a CRD was written): panels caching discovery re-read it (see `discoveryEpoch`). */
  discoveryChanged(): void {
    this.set({ discoveryEpoch: (this.state.discoveryEpoch ?? 0) + 1 });
  }

  /** The id the next logged request gets (so a caller can find its own entry). */
  peekNextRequestId(): number {
    return this.nextId;
  }

  clearRequests(): void {
    this.set({ requests: [] });
  }

  private upsert(r: LoggedRequest): void {
    const list = this.state.requests.filter((x) => x.id !== r.id);
    list.push(r);
    if (list.length > PlaygroundStore.MAX_REQUESTS) list.splice(0, list.length - PlaygroundStore.MAX_REQUESTS);
    this.set({ requests: list });
  }

  /** apiFetch, logged: method, path, headers, bodies (non-streaming), status and duration. */
  fetch = async (path: string, init: RequestInit = {}, source = 'ui'): Promise<Response> => {
    const headers = new Headers(init.headers);
    const entry: LoggedRequest = {
      id: this.nextId++,
      source,
      method: (init.method ?? 'GET').toUpperCase(),
      path,
      requestHeaders: [...headers.entries()],
      requestBody: typeof init.body === 'string' ? init.body : undefined,
      startedAt: Date.now(),
    };
    this.upsert(entry);
    const t0 = performance.now();
    try {
      const res = await apiFetch(path, init);
      const streaming = /[?&]watch=(1|true)/.test(path) || res.headers.get('Transfer-Encoding') === 'chunked';
      const done: LoggedRequest = {
        ...entry,
        status: res.status,
        responseHeaders: [...res.headers.entries()],
        durationMs: performance.now() - t0,
        streaming,
      };
      if (!streaming) {
        done.responseBody = await res.clone().text();
      }
      this.upsert(done);
      return res;
    } catch (e) {
      this.upsert({ ...entry, error: e instanceof Error ? e.message : String(e), durationMs: performance.now() - t0 });
      throw e;
    }
  };
}

export const PlaygroundContext = createContext<PlaygroundStore | null>(null);

export function usePlaygroundStore(): PlaygroundStore {
  const s = useContext(PlaygroundContext);
  if (!s) throw new Error('usePlaygroundStore outside <PlaygroundContext.Provider>');
  return s;
}

/** Subscribe to a slice of the state. */
export function usePlayground<T>(select: (s: PlaygroundState) => T): T {
  const store = usePlaygroundStore();
  return useSyncExternalStore(store.subscribe, () => select(store.get()));
}
