// Watch streams [K8S storage/cacher]: history replay from a start revision, live fan-out of committed
// events, selector transitions (an object that stops matching is DELETED, one that starts matching is
// ADDED), bookmarks, timeouts, and the 410 ERROR event for a start revision older than retained history.
// No gap between a list and the watch that follows it: history is read and the subscription is taken in
// the same synchronous step.

import type { Env, TimerHandle } from '../env.js';
import type { Status } from '../errors.js';
import type { KubeObject } from '../object.js';
import type { ClusterState } from '../registry/state.js';
import { StorageCompactedError, type HistoryEvent } from '../storage/interface.js';
import { isUndecodable } from '../storage/undecodable.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchEvent {
  type: WatchEventType;
  object: KubeObject | Status;
}

export interface WatchRequest {
  /** Storage-key prefix of the collection watched. */
  prefix: string;
  /** Send changes with revision > this. */
  startRevision: number;
  /** Synthetic ADDED events sent first (initial state): stored objects, already filtered. */
  initial?: KubeObject[];
  /** After the initial events, a BOOKMARK annotated k8s.io/initial-events-end (sendInitialEvents). */
  initialEventsEnd?: boolean;
  /** Selector match on a stored object. */
  matches: (obj: KubeObject) => boolean;
  /** A BOOKMARK event's object for a revision. */
  bookmark: (revision: number, annotations?: Record<string, string>) => KubeObject;
  /**
   * Final encoding of one event (JSON line, Table rows, CBOR...). ADDED/MODIFIED/DELETED carry the stored
   * object (shared with the cache: never mutate); the encoder presents it in the requested version.
   */
  encode: (event: WatchEvent) => Uint8Array;
  /**
   * When set, every event goes to it instead of `encode` and the stream (an in-process client that reads
   * objects: EngineRequest.watchEvents); the stream then carries no bytes and only ends with the watch.
   * Nothing queues unread, so the slow-watcher bound does not apply.
   */
  sink?: (event: WatchEvent) => void;
  bookmarks: boolean;
  bookmarkIntervalMs: number;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Opened by the engine's own controllers: not counted among clients' watches. */
  internal?: boolean;
}

/**
 * Events a watcher may leave unread beyond its initial state before it is closed. The real cacheWatcher
 * closes a watcher whose buffer stays full (it cannot keep up); the client sees the stream end and
 * re-watches from its last resourceVersion, and memory stays bounded however long it stalls.
 */
export const WATCH_QUEUE_LIMIT = 1000;

export interface WatchHandle {
  stream: ReadableStream<Uint8Array>;
  close(): void;
}

export class WatchHub {
  private readonly active = new Set<{ prefix: string; close: () => void; internal: boolean }>();

  constructor(
    private readonly state: ClusterState,
    private readonly env: Env,
  ) {}

  /** Open watches of clients (the engine's controllers' own watches are not counted). */
  get count(): number {
    let n = 0;
    for (const w of this.active) if (!w.internal) n++;
    return n;
  }

  /** Ends every watch whose prefix starts with `prefix` (e.g. when a CRD is deleted). */
  closeUnder(prefix: string): void {
    for (const w of [...this.active]) if (w.prefix.startsWith(prefix)) w.close();
  }

  closeAll(): void {
    for (const w of [...this.active]) w.close();
  }

  open(req: WatchRequest): WatchHandle {
    const { env, state } = this;
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    let closed = false;
    let lastRevision = req.startRevision;
    let unsubscribe: (() => void) | undefined;
    let timeoutTimer: TimerHandle | undefined;
    let bookmarkTimer: TimerHandle | undefined;
    const entry = { prefix: req.prefix, close: () => close(), internal: req.internal === true };
    // queued events allowed: the initial state and backlog delivered at start, plus WATCH_QUEUE_LIMIT
    let queueLimit = WATCH_QUEUE_LIMIT;

    const sink = req.sink;
    const send = (ev: WatchEvent) => {
      if (closed) return;
      if (sink) {
        try {
          sink(ev);
        } catch {
          close();
        }
        return;
      }
      try {
        controller.enqueue(req.encode(ev));
      } catch {
        close();
        return;
      }
      // desiredSize is the high-water mark (1) minus the events queued and not yet read
      const queued = 1 - (controller.desiredSize ?? 1);
      if (queued > queueLimit) close();
    };

    const close = () => {
      if (closed) return;
      closed = true;
      unsubscribe?.();
      if (timeoutTimer !== undefined) env.timers.clearTimeout(timeoutTimer);
      if (bookmarkTimer !== undefined) env.timers.clearTimeout(bookmarkTimer);
      this.active.delete(entry);
      try {
        controller.close();
      } catch {
        // already closed or errored
      }
    };

    const deliver = (e: HistoryEvent) => {
      if (e.revision <= lastRevision) return;
      lastRevision = e.revision;
      if (!e.key.startsWith(req.prefix)) return;
      // an undecodable value (simulated corruption): the watch cache cannot serve it and ends the watch
      if (isUndecodable(e.object) || isUndecodable(e.prevObject)) return close();
      const now = req.matches(e.object);
      if (e.type === 'ADDED') {
        if (now) send({ type: 'ADDED', object: e.object });
      } else if (e.type === 'DELETED') {
        const before = e.prevObject ? req.matches(e.prevObject) : now;
        if (before) send({ type: 'DELETED', object: e.object });
      } else {
        const before = e.prevObject ? req.matches(e.prevObject) : now;
        if (before && now) send({ type: 'MODIFIED', object: e.object });
        else if (now) send({ type: 'ADDED', object: e.object });
        // stops matching: DELETED with the previous content at this event's resourceVersion (cacheWatcher)
        else if (before) send({ type: 'DELETED', object: withResourceVersion(e.prevObject ?? e.object, e.revision) });
      }
    };

    const deadline = req.timeoutMs > 0 ? env.clock.now() + req.timeoutMs : 0;
    // cacheWatcher.nextBookmarkTime: every interval, and once about 2 s before the watch times out (so a
    // client resumes from as recent a version as possible); none when that moment has passed
    const scheduleBookmark = () => {
      if (!req.bookmarks || closed) return;
      const now = env.clock.now();
      let at = now + req.bookmarkIntervalMs;
      if (deadline > 0 && deadline - 2000 < at) at = deadline - 2000;
      if (at <= now) return;
      bookmarkTimer = env.timers.setTimeout(() => {
        if (closed) return;
        // a bookmark never names a version the cluster has not reached (a watch from a future version waits)
        if (state.revision >= lastRevision) {
          lastRevision = state.revision;
          send({ type: 'BOOKMARK', object: req.bookmark(lastRevision) });
        }
        scheduleBookmark();
      }, at - now);
    };

    const stream = new ReadableStream<Uint8Array>({
      start: (c) => {
        controller = c;
        // history first, then live: both in this synchronous step so nothing falls in between
        let backlog: HistoryEvent[];
        try {
          backlog = req.initial ? [] : state.eventsAfter(req.startRevision);
        } catch (e) {
          if (e instanceof StorageCompactedError) {
            send({ type: 'ERROR', object: tooOldStatus(req.startRevision, state.compactedRevision) });
            closed = true;
            c.close();
            return;
          }
          throw e;
        }
        // the watch cache was rebuilt after an undecodable value (simulated corruption) was written or removed
        // under this prefix: it holds nothing older, so a resume from before that answers 410 like any too old one
        let rebuiltAt = 0;
        for (const e of backlog) if (e.key.startsWith(req.prefix) && (isUndecodable(e.object) || isUndecodable(e.prevObject))) rebuiltAt = e.revision;
        if (rebuiltAt > 0) {
          send({ type: 'ERROR', object: tooOldStatus(req.startRevision, rebuiltAt) });
          closed = true;
          c.close();
          return;
        }
        this.active.add(entry);
        queueLimit = WATCH_QUEUE_LIMIT + backlog.length + (req.initial?.length ?? 0) + 1;
        // only commits that touch this collection call it (deliver still filters a commit's other keys)
        unsubscribe = state.subscribe((events) => {
          for (const e of events) deliver(e);
        }, req.prefix);
        if (req.initial) {
          for (const o of req.initial) send({ type: 'ADDED', object: o });
          if (req.initialEventsEnd) {
            send({ type: 'BOOKMARK', object: req.bookmark(lastRevision, { 'k8s.io/initial-events-end': 'true' }) });
          }
        }
        for (const e of backlog) deliver(e);
        // a negative timeout has passed already (Go's timer fires at once): the stream ends after what is queued
        if (req.timeoutMs !== 0) timeoutTimer = env.timers.setTimeout(close, Math.max(0, req.timeoutMs));
        scheduleBookmark();
        if (req.signal?.aborted) close();
        else req.signal?.addEventListener('abort', close, { once: true });
      },
      cancel: () => close(),
    });
    return { stream, close };
  }
}

function withResourceVersion(o: KubeObject, revision: number): KubeObject {
  return { ...o, metadata: { ...(o.metadata ?? {}), resourceVersion: String(revision) } };
}

/**
 * The Status of the ERROR event sent for a start revision older than retained history: the watch cache
 * names the requested version and the newest one it can no longer serve (oldest retained - 1).
 */
export function tooOldStatus(requested: number, oldest: number): Status {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `too old resource version: ${requested} (${oldest})`,
    reason: 'Expired',
    code: 410,
  };
}
