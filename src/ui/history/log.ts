// The cluster's retained history as the UI holds it: the state at the window's first revision (one list
// per resource type at that revision) and every watch event after it, kept in revision order. From these
// it answers, without asking the server again: the state at any revision in the window (the time slider),
// the versions of one object from its creation (the managed-fields history), and the events for the
// timeline. Events are added one by one as watches deliver them, so nothing is rebuilt when one arrives.
// Pure: no fetch, no timers.
import { causingManager, type KubeObject } from '../panels/timeline/stream.js';
import type { ManagedFieldsEntry } from '../panels/managed-fields/fields.js';

/** A served resource type the history covers. */
export interface ResourceType {
  /** `v1`, `apps/v1` */
  groupVersion: string;
  /** plural, e.g. `configmaps` */
  resource: string;
  kind: string;
  namespaced: boolean;
}

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface HistoryRecord {
  /** Order of arrival (stable key for the UI). */
  seq: number;
  revision: number;
  type: ChangeType;
  res: ResourceType;
  /** The object after the change (for DELETED: its last state). */
  object: KubeObject;
  /** The object's state before this change in the window (undefined for a creation). */
  previous?: KubeObject;
  /** Identity of the object: its uid (a recreated object is another object). */
  id: string;
  /**
   * Set when the record does not come from a watch event but from a relist after the history was cut
   * (a watch that could not resume): the state changed somewhere in revisions the UI could not see.
   */
  resync?: boolean;
}

export interface ObjectState {
  res: ResourceType;
  object: KubeObject;
  /** Revision of the object's last change (its resourceVersion). */
  revision: number;
}

function objectId(o: KubeObject, res: ResourceType): string {
  const m = o.metadata ?? {};
  return m.uid ?? `${res.groupVersion}/${res.resource}/${m.namespace ?? ''}/${m.name ?? ''}`;
}

function revisionOf(o: KubeObject): number {
  const n = Number(o.metadata?.resourceVersion);
  return Number.isFinite(n) ? n : 0;
}

/** The key an object is shown under: `<groupVersion>/<resource>/<namespace>/<name>`. */
export function refKeyOf(res: ResourceType, o: KubeObject): string {
  return `${res.groupVersion}/${res.resource}/${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
}

export class HistoryLog {
  /** The window's first revision: `base` is the state there, `records` the changes after it. */
  start: number;
  private readonly base = new Map<string, ObjectState>();
  /** Changes after `start`, by revision (arrival order within a revision). */
  readonly records: HistoryRecord[] = [];
  /** The newest state of every object (the live view). */
  private readonly current = new Map<string, ObjectState>();
  private readonly seen = new Set<string>();
  private seq = 0;
  private managers = new WeakMap<HistoryRecord, ManagedFieldsEntry | null>();
  private cache?: { version: number; revision: number; state: Map<string, ObjectState> };
  /** Changes whenever the log does (for memoisation). */
  version = 0;

  constructor(start: number) {
    this.start = start;
  }

  /** Adds the objects of one resource type as they were at `start` (a list at that revision). */
  addBase(res: ResourceType, items: KubeObject[]): void {
    for (const o of items) {
      const id = objectId(o, res);
      // the same object served under two resource types (v1 and events.k8s.io Events) counts once
      if (this.base.has(id)) continue;
      const s = { res, object: o, revision: revisionOf(o) };
      this.base.set(id, s);
      if (!this.current.has(id)) this.current.set(id, s);
    }
    this.version++;
  }

  /**
   * Adds one change. Returns the record, or undefined for one already held (the same object and revision
   * seen through another resource type) or at or before the window's start.
   */
  add(res: ResourceType, type: ChangeType, object: KubeObject, resync = false): HistoryRecord | undefined {
    const revision = revisionOf(object);
    if (revision <= this.start && !resync) return undefined;
    const id = objectId(object, res);
    const dedupe = `${id}@${revision}@${type}`;
    if (this.seen.has(dedupe)) return undefined;
    this.seen.add(dedupe);
    const before = this.current.get(id);
    const record: HistoryRecord = { seq: ++this.seq, revision, type, res, object, previous: before?.object, id, resync: resync || undefined };
    if (type === 'DELETED') this.current.delete(id);
    else this.current.set(id, { res, object, revision });
    // watches of different types deliver in parallel: keep revision order (usually an append)
    const recs = this.records;
    if (recs.length === 0 || recs[recs.length - 1].revision <= revision) recs.push(record);
    else {
      let lo = 0;
      let hi = recs.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (recs[mid].revision <= revision) lo = mid + 1;
        else hi = mid;
      }
      recs.splice(lo, 0, record);
    }
    this.version++;
    return record;
  }

  /** The newest revision the log knows of (its start when nothing changed since). */
  get latestRevision(): number {
    return this.records.length ? this.records[this.records.length - 1].revision : this.start;
  }

  /** The live state (every object as it is now), keyed by object id. */
  now(): Map<string, ObjectState> {
    return this.current;
  }

  /** The state at `revision` (clamped to the window): the base with every change up to it applied. */
  stateAt(revision: number): Map<string, ObjectState> {
    if (this.cache && this.cache.version === this.version && this.cache.revision === revision) return this.cache.state;
    const state = new Map(this.base);
    for (const r of this.records) {
      if (r.revision > revision) break;
      if (r.type === 'DELETED') state.delete(r.id);
      else state.set(r.id, { res: r.res, object: r.object, revision: r.revision });
    }
    this.cache = { version: this.version, revision, state };
    return state;
  }

  /**
   * The versions of the objects shown under one key (kind, namespace, name), oldest first: the state at
   * the window's start if it existed then, then each change. A deleted and recreated object continues in
   * the same list (its uid changes).
   */
  versionsOf(res: Pick<ResourceType, 'groupVersion' | 'resource'>, namespace: string | undefined, name: string): { base?: ObjectState; records: HistoryRecord[] } {
    const match = (r: ResourceType, o: KubeObject) =>
      r.resource === res.resource && sameGroup(r.groupVersion, res.groupVersion) && (o.metadata?.namespace ?? '') === (namespace ?? '') && o.metadata?.name === name;
    let base: ObjectState | undefined;
    for (const s of this.base.values()) if (match(s.res, s.object)) base = s;
    return { base, records: this.records.filter((r) => match(r.res, r.object)) };
  }

  /** The managedFields entry whose write made this change (cached; none for a deletion). */
  managerOf(r: HistoryRecord): ManagedFieldsEntry | undefined {
    if (r.type === 'DELETED') return undefined;
    let m = this.managers.get(r);
    if (m === undefined) {
      m = causingManager(r.previous, r.object) ?? null;
      this.managers.set(r, m);
    }
    return m ?? undefined;
  }

  /**
   * The clock time of the window's start, as far as the objects tell: the newest managedFields time of
   * an object last written at the start revision, else that of the first change after it.
   */
  startTime(): string | undefined {
    const newest = (o: KubeObject) =>
      (o.metadata?.managedFields ?? []).map((e) => e.time ?? '').reduce((a, b) => (b > a ? b : a), '') || undefined;
    for (const s of this.base.values()) if (s.revision === this.start) return newest(s.object);
    const first = this.records[0];
    return first ? (this.managerOf(first)?.time ?? newest(first.object)) : undefined;
  }

  /**
   * Folds the changes up to `revision` into the base, so the window starts there (bounds the memory a
   * long-open tab uses); returns how many records were folded.
   */
  foldUpTo(revision: number): number {
    if (revision <= this.start) return 0;
    let i = 0;
    for (; i < this.records.length && this.records[i].revision <= revision; i++) {
      const r = this.records[i];
      if (r.type === 'DELETED') this.base.delete(r.id);
      else this.base.set(r.id, { res: r.res, object: r.object, revision: r.revision });
    }
    this.records.splice(0, i);
    this.start = revision;
    this.version++;
    return i;
  }
}

/** `apps/v1` and `apps/v1beta1` name the same group; the core group is `v1`. */
function sameGroup(a: string, b: string): boolean {
  const g = (gv: string) => (gv.includes('/') ? gv.slice(0, gv.indexOf('/')) : '');
  return g(a) === g(b);
}
