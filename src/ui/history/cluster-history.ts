// Loads and follows the cluster's stored history with the real API, once per playground store, for the
// panels that show it (the timeline, the managed-fields history, the time slider):
//   1. discovery: every resource type that can be listed and watched;
//   2. the window's start S (window.ts: a list at revision 1, else the 410 of a watch from 1);
//   3. the state at S: one `list ?resourceVersion=S&resourceVersionMatch=Exact` per type;
//   4. one watch per type from S, which replays every retained change and then follows live ones.
// The history is the cluster's, not the page's: a reload finds it again the same way. Requests go through
// the store's logged fetch as the cluster's administrator (the history shows the whole cluster whoever
// acts; refusals of the acting user are not the history's to report).
import { discover, type ApiResource } from '../panels/browser/discovery.js';
import { fetchJson, HttpError, errorText } from '../panels/common/ui.js';
import { readWatch, sleep } from '../panels/common/watch.js';
import { collectionPath, type KubeObject } from '../panels/timeline/stream.js';
import type { PlaygroundStore } from '../playground.js';
import { HistoryLog, type ChangeType, type ResourceType } from './log.js';
import { findHistoryWindow, type HistoryWindow } from './window.js';

const SOURCE = 'history';
/** Past this many records, the oldest are folded into the base (the window start moves forward). */
const MAX_RECORDS = 50_000;

export type HistoryPhase = 'idle' | 'finding' | 'loading' | 'live' | 'error';

export interface HistorySnapshot {
  phase: HistoryPhase;
  log?: HistoryLog;
  window?: HistoryWindow;
  error?: string;
  /** Resource types whose history could not be read (with why). */
  skipped: string[];
  /** Bumped on every change (for React). */
  version: number;
}

function typeOf(r: ApiResource): ResourceType {
  return { groupVersion: r.groupVersion, resource: r.name, kind: r.kind, namespaced: r.namespaced };
}

function typeKey(t: ResourceType): string {
  return `${t.groupVersion}/${t.resource}`;
}

export class ClusterHistory {
  private snap: HistorySnapshot = { phase: 'idle', skipped: [], version: 0 };
  private listeners = new Set<() => void>();
  private abort = new AbortController();
  private watched = new Map<string, ResourceType>();
  private notifyPending = false;
  private rediscover?: ReturnType<typeof setTimeout>;

  constructor(private readonly store: PlaygroundStore) {}

  get = (): HistorySnapshot => this.snap;

  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    if (this.snap.phase === 'idle') void this.run();
    return () => this.listeners.delete(l);
  };

  /** Stops every request (the store is going away). */
  stop(): void {
    this.abort.abort();
  }

  private update(patch: Partial<HistorySnapshot>, now = false): void {
    this.snap = { ...this.snap, ...patch, version: this.snap.version + 1 };
    if (now) return this.emit();
    // many events arrive at once (a replayed backlog): tell the panels at most once per frame
    if (this.notifyPending) return;
    this.notifyPending = true;
    const later = typeof requestAnimationFrame === 'function' ? requestAnimationFrame : (f: () => void) => setTimeout(f, 16);
    later(() => {
      this.notifyPending = false;
      this.emit();
    });
  }

  private emit(): void {
    for (const l of [...this.listeners]) l();
  }

  private fetch = (path: string, init: RequestInit = {}) => this.store.fetch(path, init, SOURCE, { asAdmin: true });

  /** The store, as readWatch and fetchJson take it, with every request sent as the administrator. */
  private adminStore(): PlaygroundStore {
    return { fetch: (path: string, init?: RequestInit, source?: string) => this.store.fetch(path, init, source, { asAdmin: true }) } as PlaygroundStore;
  }

  private async run(): Promise<void> {
    const signal = this.abort.signal;
    for (let attempt = 0; !signal.aborted; attempt++) {
      try {
        this.update({ phase: 'finding' }, true);
        const types = await this.discoverTypes();
        const window = await findHistoryWindow((p, s) => this.fetch(p, { signal: s, headers: { Accept: 'application/json' } }), signal);
        this.update({ phase: 'loading', window }, true);
        const log = new HistoryLog(window.start);
        const skipped: string[] = [];
        const ok: ResourceType[] = [];
        // the state at the window's start, type by type (a 410 here: the window moved while loading, start over)
        await Promise.all(
          types.map(async (t) => {
            try {
              const list = await fetchJson<{ items?: KubeObject[] }>(
                this.adminStore(),
                `${collectionPath(t.groupVersion, t.resource)}?resourceVersion=${window.start}&resourceVersionMatch=Exact`,
                SOURCE,
                { signal },
              );
              log.addBase(t, (list.items ?? []).map((o) => withKind(o, t)));
              ok.push(t);
            } catch (e) {
              if (e instanceof HttpError && e.status === 410) throw e;
              if (!signal.aborted) skipped.push(`${typeKey(t)}: ${errorText(e)}`);
            }
          }),
        );
        this.update({ log, skipped, phase: 'live', error: undefined }, true);
        for (const t of ok) this.follow(log, t, window.start);
        return;
      } catch (e) {
        if (signal.aborted) return;
        this.update({ phase: 'error', error: errorText(e) }, true);
        await sleep(Math.min(10_000, 1000 * 2 ** Math.min(attempt, 3)), signal);
      }
    }
  }

  private async discoverTypes(): Promise<ResourceType[]> {
    const groups = await discover(this.adminStore(), SOURCE);
    return groups
      .flatMap((g) => g.resources)
      .filter((r) => r.verbs.includes('list') && r.verbs.includes('watch'))
      .map(typeOf);
  }

  /** Watches one type from `from` on, for as long as the store lives; resumes where it stopped. */
  private follow(log: HistoryLog, t: ResourceType, from: number): void {
    const key = typeKey(t);
    if (this.watched.has(key)) return;
    this.watched.set(key, t);
    const signal = this.abort.signal;
    void (async () => {
      let rv = from;
      let failures = 0;
      while (!signal.aborted && this.watched.has(key)) {
        let gone = false;
        const path = `${collectionPath(t.groupVersion, t.resource)}?watch=true&resourceVersion=${rv}&allowWatchBookmarks=true`;
        let outcome: string;
        let status = 0;
        try {
          const r = await readWatch(this.adminStore(), path, SOURCE, signal, (raw) => {
            const ev = raw as { type?: string; object?: KubeObject & { code?: number } };
            if (ev.type === 'ERROR') {
              if (ev.object?.code === 410) gone = true;
              return;
            }
            const n = Number(ev.object?.metadata?.resourceVersion);
            if (Number.isFinite(n) && n > rv) rv = n;
            if (ev.type === 'ADDED' || ev.type === 'MODIFIED' || ev.type === 'DELETED') {
              const o = withKind(ev.object as KubeObject, t);
              log.add(t, ev.type as ChangeType, o);
              if (t.resource === 'customresourcedefinitions' || t.resource === 'apiservices') this.scheduleRediscovery(log);
              if (log.records.length > MAX_RECORDS) log.foldUpTo(log.records[log.records.length - MAX_RECORDS].revision);
              this.update({});
            }
          });
          outcome = r.outcome;
          status = r.status;
        } catch {
          outcome = 'error';
        }
        if (signal.aborted || outcome === 'aborted') return;
        if (outcome === 'http' && (status === 404 || status === 403 || status === 405)) {
          // the type went away (its CRD was deleted) or cannot be watched
          this.watched.delete(key);
          return;
        }
        if (gone || status === 410) {
          // the stream stopped and its resourceVersion is compacted: relist and note the changes as a resync
          try {
            rv = await this.resync(log, t);
            failures = 0;
          } catch {
            failures++;
          }
        } else if (outcome !== 'end') failures++;
        else failures = 0;
        await sleep(failures > 0 ? Math.min(10_000, 500 * 2 ** failures) : 200, signal);
      }
    })();
  }

  /** Lists a type now and records what differs from the log's live state; returns the list's revision. */
  private async resync(log: HistoryLog, t: ResourceType): Promise<number> {
    const list = await fetchJson<{ metadata?: { resourceVersion?: string }; items?: KubeObject[] }>(
      this.adminStore(),
      collectionPath(t.groupVersion, t.resource),
      SOURCE,
      { signal: this.abort.signal },
    );
    const rv = Number(list.metadata?.resourceVersion ?? 0);
    const items = (list.items ?? []).map((o) => withKind(o, t));
    const uids = new Set(items.map((o) => o.metadata?.uid));
    for (const [, s] of log.now()) {
      if (s.res.resource === t.resource && s.res.groupVersion === t.groupVersion && !uids.has(s.object.metadata?.uid)) {
        log.add(t, 'DELETED', { ...s.object, metadata: { ...s.object.metadata, resourceVersion: String(rv) } }, true);
      }
    }
    const now = log.now();
    for (const o of items) {
      const had = o.metadata?.uid ? now.get(o.metadata.uid) : undefined;
      if (!had) log.add(t, 'ADDED', o, true);
      else if (had.object.metadata?.resourceVersion !== o.metadata?.resourceVersion) log.add(t, 'MODIFIED', o, true);
    }
    this.update({});
    return rv;
  }

  /** A CRD or APIService changed: types may have come or gone; new ones are followed from the window's start. */
  private scheduleRediscovery(log: HistoryLog): void {
    if (this.rediscover !== undefined) clearTimeout(this.rediscover);
    this.rediscover = setTimeout(() => {
      this.rediscover = undefined;
      this.discoverTypes().then(
        (types) => {
          for (const t of types) if (!this.watched.has(typeKey(t))) this.follow(log, t, log.start);
        },
        () => undefined,
      );
    }, 500);
  }
}

/** List items carry no kind and apiVersion; the history shows them with their type's. */
function withKind(o: KubeObject, t: ResourceType): KubeObject {
  if (o.kind && o.apiVersion) return o;
  return { apiVersion: t.groupVersion, kind: t.kind, ...o };
}

const histories = new WeakMap<PlaygroundStore, ClusterHistory>();

/** The one history of a playground store (started by its first subscriber). */
export function clusterHistory(store: PlaygroundStore): ClusterHistory {
  let h = histories.get(store);
  if (!h) histories.set(store, (h = new ClusterHistory(store)));
  return h;
}
