// The watch timeline's pure parts: the chunked JSON stream parser (one JSON object per event, usually
// newline-separated, split anywhere by the transport), the watch query, the manager that caused a change,
// and the timeline model (events, reconnection and 410 markers, previous versions for diffs).
import { deepEqual, entryPaths, type ManagedFieldsEntry } from '../managed-fields/fields.js';

/**
 * Splits a stream of concatenated JSON values into values. Tracks string and escape state so braces in
 * strings do not count; whitespace (including the newlines the server writes) between values is skipped.
 */
export class JsonStreamParser {
  private buf = '';
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Index in buf up to which the current value was scanned. */
  private scanned = 0;
  private start = -1;

  /** Feeds text; returns the complete values it finished. Throws SyntaxError on malformed JSON. */
  push(text: string): unknown[] {
    this.buf += text;
    const out: unknown[] = [];
    let i = this.scanned;
    const b = this.buf;
    for (; i < b.length; i++) {
      const c = b.charCodeAt(i);
      if (this.start < 0) {
        if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
        if (c !== 0x7b && c !== 0x5b) throw new SyntaxError(`unexpected ${JSON.stringify(b[i])} between watch events`);
        this.start = i;
        this.depth = 1;
        continue;
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 0x5c) this.escaped = true;
        else if (c === 0x22) this.inString = false;
        continue;
      }
      if (c === 0x22) this.inString = true;
      else if (c === 0x7b || c === 0x5b) this.depth++;
      else if (c === 0x7d || c === 0x5d) {
        this.depth--;
        if (this.depth === 0) {
          out.push(JSON.parse(b.slice(this.start, i + 1)));
          this.start = -1;
        }
      }
    }
    // Keep only the unfinished value.
    if (this.start < 0) {
      this.buf = '';
      this.scanned = 0;
    } else {
      this.buf = b.slice(this.start);
      this.scanned = i - this.start;
      this.start = 0;
    }
    return out;
  }

  /** Text of an unfinished value left when the stream ended ('' when it ended cleanly). */
  get pending(): string {
    return this.start < 0 ? '' : this.buf;
  }
}

export interface WatchOptions {
  labelSelector?: string;
  fieldSelector?: string;
  /** 'unset': no resourceVersion; '0': any; 'rv': the given `resourceVersion`. */
  rvMode: 'unset' | '0' | 'rv';
  resourceVersion?: string;
  allowWatchBookmarks?: boolean;
  /** sendInitialEvents=true with resourceVersionMatch=NotOlderThan (the watch-list protocol). */
  sendInitialEvents?: boolean;
  timeoutSeconds?: number;
}

/** The collection path: `/api/v1/namespaces/default/configmaps` or `/apis/apps/v1/deployments`. */
export function collectionPath(groupVersion: string, resource: string, namespace?: string): string {
  const root = groupVersion.includes('/') ? `/apis/${groupVersion}` : `/api/${groupVersion}`;
  return `${root}${namespace ? `/namespaces/${encodeURIComponent(namespace)}` : ''}/${resource}`;
}

/** The query of a watch request; `resumeFrom` (a reconnect) replaces the chosen resourceVersion options. */
export function watchQuery(o: WatchOptions, resumeFrom?: string): string {
  const q = new URLSearchParams();
  q.set('watch', 'true');
  if (o.labelSelector) q.set('labelSelector', o.labelSelector);
  if (o.fieldSelector) q.set('fieldSelector', o.fieldSelector);
  if (resumeFrom !== undefined) {
    q.set('resourceVersion', resumeFrom);
  } else {
    if (o.rvMode === '0') q.set('resourceVersion', '0');
    else if (o.rvMode === 'rv' && o.resourceVersion) q.set('resourceVersion', o.resourceVersion);
    if (o.sendInitialEvents) {
      q.set('sendInitialEvents', 'true');
      q.set('resourceVersionMatch', 'NotOlderThan');
    }
  }
  if (o.allowWatchBookmarks || (o.sendInitialEvents && resumeFrom === undefined)) q.set('allowWatchBookmarks', 'true');
  if (o.timeoutSeconds) q.set('timeoutSeconds', String(o.timeoutSeconds));
  return q.toString();
}

interface Meta {
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  managedFields?: ManagedFieldsEntry[];
  annotations?: Record<string, string>;
}
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: Meta;
  [k: string]: unknown;
}

function entryId(e: ManagedFieldsEntry): string {
  return `${e.manager ?? ''}|${e.operation ?? ''}|${e.apiVersion ?? ''}|${e.subresource ?? ''}`;
}

/**
 * The managedFields entry behind a change. Preferred, in order: an entry that is new or whose time moved (the
 * writer's own entry is stamped with the write's time), then one that gained fields (a write in the same
 * second); a manager that only lost fields to another is never the cause. Ties go to the newest time, then
 * to the later entry. With no previous version (or no difference), the newest entry.
 */
export function causingManager(prev: KubeObject | undefined, cur: KubeObject | undefined): ManagedFieldsEntry | undefined {
  const entries = cur?.metadata?.managedFields ?? [];
  if (entries.length === 0) return undefined;
  const before = new Map((prev?.metadata?.managedFields ?? []).map((e) => [entryId(e), e]));
  const score = (e: ManagedFieldsEntry): number => {
    if (!prev) return 0;
    const old = before.get(entryId(e));
    if (!old || old.time !== e.time) return 2;
    if (deepEqual(old.fieldsV1, e.fieldsV1)) return 0;
    const had = new Set(entryPaths(old));
    return entryPaths(e).some((p) => !had.has(p)) ? 1 : 0;
  };
  let best = entries[0];
  let bestScore = score(best);
  for (const e of entries.slice(1)) {
    const sc = score(e);
    if (sc > bestScore || (sc === bestScore && (e.time ?? '') >= (best.time ?? ''))) {
      best = e;
      bestScore = sc;
    }
  }
  return best;
}

export type EventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
export type MarkerKind = 'connect' | 'reconnect' | 'gone' | 'relist' | 'error' | 'end' | 'initial-events-end';

export interface TimelineEntry {
  seq: number;
  /** Milliseconds (wall clock) when it was received. */
  at: number;
  /** A watch event, or a marker (connection lifecycle). */
  type: EventType | 'MARKER';
  marker?: MarkerKind;
  text?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  manager?: ManagedFieldsEntry;
  object?: unknown;
  /** The previous version of the same object seen in this timeline. */
  previous?: KubeObject;
}

/** Holds the events of a timeline; the React panel renders its `entries`. */
export class TimelineModel {
  entries: TimelineEntry[] = [];
  /** The newest resourceVersion seen (events and bookmarks): reconnect from here. */
  lastResourceVersion?: string;
  private latest = new Map<string, KubeObject>();
  private seq = 0;

  constructor(private readonly limit = 100_000) {}

  private push(e: Omit<TimelineEntry, 'seq'>): TimelineEntry {
    const entry = { ...e, seq: ++this.seq } as TimelineEntry;
    this.entries.push(entry);
    if (this.entries.length > this.limit) this.entries.splice(0, this.entries.length - this.limit);
    return entry;
  }

  marker(marker: MarkerKind, text: string, at: number): TimelineEntry {
    return this.push({ at, type: 'MARKER', marker, text });
  }

  /** Adds one decoded watch event. */
  ingest(raw: unknown, at: number): TimelineEntry {
    const ev = (raw ?? {}) as { type?: string; object?: KubeObject };
    const type = (ev.type ?? 'ERROR') as EventType;
    const obj = ev.object;
    if (type === 'ERROR') {
      const status = obj as { code?: number; message?: string; reason?: string } | undefined;
      return this.push({
        at,
        type,
        object: obj,
        kind: 'Status',
        text: `${status?.code ?? ''} ${status?.reason ?? ''}: ${status?.message ?? ''}`.trim(),
      });
    }
    const meta = obj?.metadata ?? {};
    const rv = meta.resourceVersion;
    if (rv) this.lastResourceVersion = rv;
    if (type === 'BOOKMARK') {
      const initialEnd = meta.annotations?.['k8s.io/initial-events-end'] === 'true';
      return this.push({
        at,
        type,
        kind: obj?.kind,
        resourceVersion: rv,
        object: obj,
        text: initialEnd ? 'initial events end' : undefined,
      });
    }
    const id = meta.uid ?? `${meta.namespace ?? ''}/${meta.name ?? ''}`;
    const previous = this.latest.get(id);
    if (type === 'DELETED') this.latest.delete(id);
    else if (obj) this.latest.set(id, obj);
    return this.push({
      at,
      type,
      kind: obj?.kind,
      name: meta.name,
      namespace: meta.namespace,
      uid: meta.uid,
      resourceVersion: rv,
      manager: type === 'DELETED' ? undefined : causingManager(previous, obj),
      object: obj,
      previous,
    });
  }

  /** Whether an ERROR event says the resourceVersion is too old (410 Gone / Expired). */
  static isGone(e: TimelineEntry): boolean {
    const s = e.object as { code?: number; reason?: string } | undefined;
    return e.type === 'ERROR' && (s?.code === 410 || s?.reason === 'Expired' || s?.reason === 'Gone');
  }

  clear(): void {
    this.entries = [];
  }
}

export interface TimelineFilter {
  text?: string;
  types?: Set<string>;
}

/** Entries matching a free-text filter (kind, name, namespace, manager, rv, marker text) and types. */
export function filterEntries(entries: TimelineEntry[], f: TimelineFilter): TimelineEntry[] {
  const text = f.text?.trim().toLowerCase();
  if (!text && !f.types) return entries;
  return entries.filter((e) => {
    if (f.types && !f.types.has(e.type)) return false;
    if (!text) return true;
    const hay = [e.type, e.kind, e.name, e.namespace, e.resourceVersion, e.manager?.manager, e.text]
      .filter(Boolean)
      .join(' ')
      .toLowerCase();
    return hay.includes(text);
  });
}
