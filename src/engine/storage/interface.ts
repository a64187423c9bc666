// The persistence contract, modelled on k8s.io/apiserver/pkg/storage over etcd3: one global revision
// counter per cluster, every successful write is one atomic transaction that stores the objects, bumps the
// counter and appends the event-history entries, and the object's metadata.resourceVersion is the
// revision of its last write. Backends (src/adapters/memory, src/adapters/idb) implement it; the engine's
// registry is the only caller. storage/testing/conformance.ts holds the suite every backend must pass.
//
// Ownership: committed states are immutable values. An object handed in (a put) stays the caller's: the
// backend stores a copy of its own. Everything handed out (get, list, events, the events of write: the
// StoredObject and HistoryEvent wrappers and their objects, all the way down) is deeply frozen and may be
// shared: with the backend's own records, between calls, between an entry's object and the next entry's
// prevObject. A caller that wants to change a state copies it first (registry/state.ts ClusterState.copy);
// trying to change it in place throws (modules run in strict mode). The arrays returned are the caller's.
// This is what lets the engine's cache hold the very objects the memory backend stores instead of a
// second copy of the cluster (docs/architecture.md, "One copy of each state").

import type { KubeObject } from '../object.js';

/** Storage key: `/<group or "core">/<resource>/<namespace or "">/<name>`; see registry/keys.ts. */
export type StorageKey = string;

export interface StoredObject {
  key: StorageKey;
  /** The object with metadata.resourceVersion = String(revision). */
  object: KubeObject;
  /** Revision of the object's last write (etcd mod_revision). */
  revision: number;
}

export type EventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface HistoryEvent {
  revision: number;
  type: EventType;
  key: StorageKey;
  /** New state (ADDED, MODIFIED) or last state (DELETED; resourceVersion = this event's revision). */
  object: KubeObject;
  /** State before the event (MODIFIED, DELETED); used to rebuild older snapshots. */
  prevObject?: KubeObject;
  /** Clock time of the write in ms; drives compaction by age. */
  time: number;
}

/** Everything an engine's start reads, from one consistent state of the store (Storage.readAll). */
export interface StorageContents {
  revision: number;
  compactedRevision: number;
  /** list(''): every object, in key order. */
  objects: StoredObject[];
  /** events(compactedRevision): the whole retained history, in revision order. */
  events: HistoryEvent[];
}

/** A few objects and the store's revisions, from one consistent state of the store (Storage.readKeys). */
export interface StorageRecords {
  revision: number;
  compactedRevision: number;
  /** The objects stored under the keys asked for, in the order asked (keys with no object left out). */
  objects: StoredObject[];
}

/** One part of a write transaction. */
export type WriteOp =
  | {
      kind: 'put';
      key: StorageKey;
      object: KubeObject;
      /** Precondition: 0 = key must not exist; n = current revision of the key must be n; undefined = none. */
      expectRevision?: number;
    }
  | { kind: 'delete'; key: StorageKey; expectRevision?: number };

export type WriteResult =
  | { ok: true; revision: number; events: HistoryEvent[] }
  | { ok: false; failedKey: StorageKey; reason: 'exists' | 'not-found' | 'revision-mismatch'; currentRevision?: number };

export interface Storage {
  /** The latest committed revision (0 for an empty store). */
  revision(): Promise<number>;
  /** Revisions <= this one are no longer in the event history. */
  compactedRevision(): Promise<number>;
  get(key: StorageKey): Promise<StoredObject | undefined>;
  /** Every object whose key starts with `prefix`, in key order. */
  list(prefix: StorageKey): Promise<StoredObject[]>;
  /**
   * Atomically applies all ops under one new revision, or none when a precondition fails. Each stored
   * object gets metadata.resourceVersion = String(revision); the returned events carry the stored states.
   */
  write(ops: WriteOp[], time: number): Promise<WriteResult>;
  /** History entries with revision > `after`, in revision order. Throws StorageCompactedError if after < compactedRevision. */
  events(after: number): Promise<HistoryEvent[]>;
  /**
   * Optional: revision(), compactedRevision(), list('') and events(compactedRevision) in one call, read from
   * one consistent state of the store (what an engine reads when it starts: registry/state.ts
   * ClusterState.load). A backend that keeps its history without the new states (idb: each state is
   * stored once, as the current object or as the next event's prevObject) derives the events from the
   * objects it reads here instead of reading them twice. Without it, the four calls are made one by one.
   */
  readAll?(): Promise<StorageContents>;
  /**
   * Optional: revision(), compactedRevision() and get() of each key in one call, read from one consistent
   * state of the store: what an engine that has not loaded yet reads to answer a get by name (the
   * api-server's early answers). Without it, such requests wait for the engine's start.
   */
  readKeys?(keys: StorageKey[]): Promise<StorageRecords>;
  /** Drops history entries written before `beforeTime`; returns the new compacted revision. */
  compact(beforeTime: number): Promise<number>;
  /** Releases resources (database handles). */
  close(): Promise<void>;
}

export class StorageCompactedError extends Error {
  constructor(readonly requested: number, readonly compacted: number) {
    super(`revision ${requested} has been compacted (compacted revision ${compacted})`);
  }
}

/** Stamps the revision into a (mutable, deep) copy of the object. */
export function withResourceVersion(object: KubeObject, revision: number): KubeObject {
  const copy = JSON.parse(JSON.stringify(object)) as KubeObject;
  copy.metadata = { ...(copy.metadata ?? {}), resourceVersion: String(revision) };
  return copy;
}
