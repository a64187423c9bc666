// An informer as client-go's reflector + store: LIST a collection, then WATCH from the list's
// resourceVersion (bookmarks on, a bounded timeout), re-watching from the last version seen when a watch
// ends and listing again on 410 Gone. Handlers see every change once, in order. All state comes from the
// API, so a restarted engine's controllers rebuild it from storage.

import type { Env } from '../env.js';
import type { KubeObject } from '../object.js';
import type { ApiClient } from './client.js';

export interface InformerHandlers {
  add?(obj: KubeObject): void;
  update?(old: KubeObject, obj: KubeObject): void;
  delete?(obj: KubeObject): void;
}

export interface InformerOptions {
  /**
   * List and watch PartialObjectMetadata (client-go's metadata informer, which the garbage collector uses):
   * each object arrives as its kind, apiVersion and metadata only, so a controller that reads nothing else
   * neither parses nor keeps the rest.
   */
  metadataOnly?: boolean;
}

const METADATA_LIST_ACCEPT = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';
const METADATA_WATCH_ACCEPT = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';

/** Seconds a watch of the controllers lasts before it is renewed (the reflector picks 5-10 minutes). */
const WATCH_TIMEOUT_SECONDS = 300;

export function objectKeyOf(o: KubeObject): string {
  const m = o.metadata ?? {};
  return m.namespace ? `${m.namespace}/${m.name}` : String(m.name ?? '');
}

export class Informer {
  readonly store = new Map<string, KubeObject>();
  private rv = '';
  private stopped = false;
  private reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  private retryTimer: unknown;
  /** Resolves after the first list was delivered to the handlers. */
  readonly synced: Promise<void>;
  private markSynced!: () => void;

  constructor(
    private readonly client: ApiClient,
    private readonly env: Env,
    /** Collection path, e.g. "/api/v1/namespaces" or "/apis/apps/v1/deployments". */
    readonly path: string,
    private readonly handlers: InformerHandlers,
    /** Called when the collection is no longer served (404): e.g. a CRD went away. */
    private readonly onGone?: () => void,
    private readonly options: InformerOptions = {},
  ) {
    this.synced = new Promise((r) => (this.markSynced = r));
  }

  /** Starts in a task of its own (a timer of 0 ms), so that a manager starting many informers yields to its host. */
  start(): void {
    this.retryTimer = this.env.timers.setTimeout(() => {
      this.retryTimer = undefined;
      void this.loop();
    }, 0);
  }

  stop(): void {
    this.stopped = true;
    // nobody waits forever for an informer that will not list any more
    this.markSynced();
    if (this.retryTimer !== undefined) this.env.timers.clearTimeout(this.retryTimer);
    void this.reader?.cancel().catch(() => undefined);
  }

  private retryLater(): void {
    if (this.stopped) return;
    this.retryTimer = this.env.timers.setTimeout(() => {
      this.retryTimer = undefined;
      void this.loop();
    }, 1000);
  }

  private async loop(): Promise<void> {
    try {
      if (!this.rv && !(await this.list())) return;
      while (!this.stopped) {
        const outcome = await this.watchOnce();
        if (outcome === 'relist' && !(await this.list())) return;
        if (outcome === 'retry') return this.retryLater();
      }
    } catch {
      this.retryLater();
    }
  }

  /** LIST and reconcile the store with it (deletes for what vanished). False when the loop must stop. */
  private async list(): Promise<boolean> {
    const r = this.options.metadataOnly
      ? await this.client.request('GET', this.path, undefined, undefined, METADATA_LIST_ACCEPT)
      : await this.client.request('GET', this.path);
    if (this.stopped) return false;
    if (r.status === 404) {
      this.stopped = true;
      this.markSynced();
      this.onGone?.();
      return false;
    }
    if (r.status !== 200) {
      this.retryLater();
      return false;
    }
    const items = (r.body.items ?? []) as KubeObject[];
    const kind = String(r.body.kind ?? '').replace(/List$/, '');
    const apiVersion = String(r.body.apiVersion ?? '');
    const seen = new Set<string>();
    for (const it of items) {
      const o = { apiVersion, kind, ...it } as KubeObject;
      const k = objectKeyOf(o);
      seen.add(k);
      const old = this.store.get(k);
      this.store.set(k, o);
      if (!old) this.handlers.add?.(o);
      else if (old.metadata?.resourceVersion !== o.metadata?.resourceVersion) this.handlers.update?.(old, o);
    }
    for (const [k, old] of [...this.store]) {
      if (seen.has(k)) continue;
      this.store.delete(k);
      this.handlers.delete?.(old);
    }
    this.rv = String(r.body.metadata?.resourceVersion ?? '');
    this.markSynced();
    return true;
  }

  private async watchOnce(): Promise<'rewatch' | 'relist' | 'retry' | 'stop'> {
    const sep = this.path.includes('?') ? '&' : '?';
    const url = `${this.path}${sep}watch=1&allowWatchBookmarks=true&timeoutSeconds=${WATCH_TIMEOUT_SECONDS}&resourceVersion=${encodeURIComponent(this.rv)}`;
    // the events come as the objects their JSON lines would hold (ApiClient.watch), each in a microtask after
    // its write and before the body ends; a watch answered in bytes is read line by line below
    let outcome: 'relist' | 'retry' | undefined;
    let over = false;
    const event = (type: string, object: unknown): void => {
      if (over || this.stopped || outcome) return;
      const obj = object as KubeObject & { code?: number };
      if (type === 'ERROR') {
        outcome = obj.code === 410 ? 'relist' : 'retry';
        void this.reader?.cancel().catch(() => undefined);
        return;
      }
      this.apply(type, obj);
    };
    const res = await this.client.watch(url, this.options.metadataOnly ? METADATA_WATCH_ACCEPT : 'application/json', event);
    const body = res.streaming ? (res.body as ReadableStream<Uint8Array>) : undefined;
    const end = <T>(result: T): T => {
      over = true;
      this.reader = undefined;
      return result;
    };
    if (this.stopped) {
      void body?.cancel().catch(() => undefined);
      return end('stop');
    }
    if (res.status === 410) return end('relist');
    if (res.status === 404) {
      this.stopped = true;
      this.onGone?.();
      return end('stop');
    }
    if (res.status !== 200 || !body) return end('retry');
    if (outcome) {
      void body.cancel().catch(() => undefined);
      return end(outcome);
    }
    const reader = body.getReader();
    this.reader = reader;
    const decoder = new TextDecoder();
    let buf = '';
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch {
        break;
      }
      if (chunk.done || outcome) break;
      buf += decoder.decode(chunk.value, { stream: true });
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl).trim();
        buf = buf.slice(nl + 1);
        if (!line) continue;
        const ev = JSON.parse(line) as { type: string; object: KubeObject & { code?: number } };
        event(ev.type, ev.object);
        if (outcome) break;
      }
      if (outcome) break;
    }
    if (outcome) {
      void reader.cancel().catch(() => undefined);
      return end(outcome);
    }
    if (this.stopped) return end('stop');
    return end('rewatch');
  }

  private apply(type: string, obj: KubeObject): void {
    const rv = obj.metadata?.resourceVersion;
    if (rv) this.rv = rv;
    if (type === 'BOOKMARK') return;
    const k = objectKeyOf(obj);
    const old = this.store.get(k);
    if (type === 'DELETED') {
      this.store.delete(k);
      this.handlers.delete?.(obj);
      return;
    }
    this.store.set(k, obj);
    if (old) this.handlers.update?.(old, obj);
    else this.handlers.add?.(obj);
  }
}
