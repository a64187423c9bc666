// The contract between the playground's frame and its panels. Every panel reaches the API only through
// `api.fetch` (logged in the request console, sent to base_url over HTTP: STYLE.md layering 4), shares the
// selected object, and can hand a manifest to the editor. The frame (app.tsx) provides it.
import { createContext, useContext, useSyncExternalStore } from 'react';
import { apiFetch } from './api.js';
import { ADMIN, actingUserId, withImpersonation, type ActingUser } from './auth/identity.js';
import { parseRefusal, type Refusal } from './auth/refusal.js';

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

/** A request refused by authorization or admission, with what refused it (src/ui/auth/refusal.ts). */
export interface Denial {
  /** the logged request's id */
  requestId: number;
  source: string;
  method: string;
  path: string;
  status: number;
  refusal: Refusal;
  /** who was acting when it was refused */
  actingUser: ActingUser;
  seq: number;
}

/** Options of `store.fetch`. */
export interface FetchOptions {
  /** Sent without impersonation headers, i.e. as the cluster's default user (used to explain a 403). */
  asAdmin?: boolean;
}

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
  /**
   * Added by the frame: who acts (every request of `fetch` carries the impersonation headers for it;
   * src/ui/auth/identity.ts). Absent: the cluster's administrator.
   */
  actingUser?: ActingUser;
  /** Requests refused by RBAC or admission, newest last (one per distinct message). */
  denials?: Denial[];
  /** Added by the frame: the presenter layout is on (large type; the editor enlarges its font). */
  presenter?: boolean;
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

  setPresenter(presenter: boolean): void {
    if ((this.state.presenter ?? false) !== presenter) this.set({ presenter });
  }

  /** Shows request `id` in the request console (the frame switches to the console tab). */
  focusRequest(id: number): void {
    this.set({ focusedRequest: { id, seq: ++this.seq } });
  }

  /** Discovery changed (a CRD was written): panels caching discovery re-read it (see `discoveryEpoch`). */
  discoveryChanged(): void {
    this.set({ discoveryEpoch: (this.state.discoveryEpoch ?? 0) + 1 });
  }

  /** Who acts from now on (the frame keeps it per cluster). */
  setActingUser(u: ActingUser): void {
    this.set({ actingUser: u });
  }

  /** Forgets a denial (or all of them). */
  dismissDenial(requestId?: number): void {
    this.set({ denials: requestId === undefined ? [] : (this.state.denials ?? []).filter((d) => d.requestId !== requestId) });
  }

  /** At most this many denials are kept. */
  static readonly MAX_DENIALS = 8;

  private recordDenial(entry: LoggedRequest, status: number, body: string | undefined): void {
    let parsed: unknown;
    try {
      parsed = body ? JSON.parse(body) : undefined;
    } catch {
      return;
    }
    const refusal = parseRefusal(parsed);
    if (!refusal) return;
    const d: Denial = {
      requestId: entry.id,
      source: entry.source,
      method: entry.method,
      path: entry.path,
      status,
      refusal,
      actingUser: this.state.actingUser ?? ADMIN,
      seq: ++this.seq,
    };
    const list = (this.state.denials ?? []).filter((x) => x.refusal.message !== refusal.message);
    list.push(d);
    if (list.length > PlaygroundStore.MAX_DENIALS) list.splice(0, list.length - PlaygroundStore.MAX_DENIALS);
    this.set({ denials: list });
  }

  /** The same request by the same user has now succeeded: its denial is no longer current. */
  private clearDenialsOf(entry: LoggedRequest): void {
    const denials = this.state.denials;
    if (!denials?.length) return;
    const who = actingUserId(this.state.actingUser ?? ADMIN);
    const base = (p: string) => p.split('?')[0];
    const left = denials.filter((d) => !(d.method === entry.method && base(d.path) === base(entry.path) && actingUserId(d.actingUser) === who));
    if (left.length !== denials.length) this.set({ denials: left });
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

  /**
   * apiFetch, logged: method, path, headers, bodies (non-streaming), status and duration. The request
   * carries the acting user's impersonation headers (unless `options.asAdmin`, or the caller set its own);
   * a refusal by RBAC or admission is kept in `denials`.
   */
  fetch = async (path: string, init: RequestInit = {}, source = 'ui', options: FetchOptions = {}): Promise<Response> => {
    const headers = new Headers(init.headers);
    if (!options.asAdmin) withImpersonation(headers, this.state.actingUser ?? ADMIN);
    init = { ...init, headers };
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
      // an error response is never a stream: its Status body is read and logged
      const streaming = res.ok && (/[?&]watch=(1|true)/.test(path) || res.headers.get('Transfer-Encoding') === 'chunked');
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
      if (!res.ok && !options.asAdmin) this.recordDenial(entry, res.status, done.responseBody);
      else if (res.ok && !options.asAdmin) this.clearDenialsOf(entry);
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
