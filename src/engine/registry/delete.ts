// The rules of the generic store's delete [K8S registry/rest/delete.go BeforeDelete; registry/generic/registry/
// store.go deletionFinalizersForGarbageCollection, markAsDeleting]: pure functions over one object, used by
// Store.delete (registry/store.ts) under the write lock.

import { rfc3339 } from '../env.js';
import { conflict } from '../errors.js';
import type { KubeObject, ObjectMeta } from '../object.js';
import type { ResourceDefinition, StoreDeleteOptions } from './types.js';

export const FINALIZER_ORPHAN = 'orphan';
export const FINALIZER_FOREGROUND = 'foregroundDeletion';

export interface BeforeDeleteResult {
  /** The object gets (or keeps) a graceful deletion timestamp: `obj` was updated in place. */
  graceful: boolean;
  /** A graceful deletion is already under way and this request changes nothing. */
  pending: boolean;
}

/**
 * rest.BeforeDelete: preconditions (a Conflict naming the kind), then graceful deletion for kinds that
 * support it: the first delete sets deletionTimestamp = now + grace and deletionGracePeriodSeconds; a later
 * one may only shorten the period (the timestamp moves back, never before now). Mutates `obj` and
 * `options.gracePeriodSeconds`.
 */
export function beforeDelete(def: ResourceDefinition, obj: KubeObject, options: StoreDeleteOptions, now: number): BeforeDeleteResult {
  const meta: ObjectMeta = (obj.metadata ??= {});
  const name = meta.name ?? '';
  const byKind = { group: def.group, resource: def.kind };
  const pre = options.preconditions;
  if (pre?.uid !== undefined && pre.uid !== (meta.uid ?? '')) {
    throw conflict(byKind, name, `the UID in the precondition (${pre.uid}) does not match the UID in record (${meta.uid ?? ''}). The object might have been deleted and then recreated`);
  }
  if (pre?.resourceVersion !== undefined && pre.resourceVersion !== (meta.resourceVersion ?? '')) {
    throw conflict(byKind, name, `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${meta.resourceVersion ?? ''}). The object might have been modified`);
  }
  if (options.gracePeriodSeconds !== undefined && options.gracePeriodSeconds < 0) options.gracePeriodSeconds = 1;
  if (typeof meta.deletionGracePeriodSeconds === 'number' && meta.deletionGracePeriodSeconds < 0) meta.deletionGracePeriodSeconds = 1;
  const check = def.strategy.checkGracefulDelete;
  if (!check) return { graceful: false, pending: false };
  if (meta.deletionTimestamp) {
    const current = meta.deletionGracePeriodSeconds;
    // a graceful delete whose update went through but whose removal did not: remove now
    if (current === undefined || current === null || current === 0) return { graceful: false, pending: false };
    if (options.gracePeriodSeconds === undefined) {
      options.gracePeriodSeconds = current;
      return { graceful: false, pending: true };
    }
    let period = options.gracePeriodSeconds;
    if (period >= current) return { graceful: false, pending: true };
    let at = Date.parse(meta.deletionTimestamp) - current * 1000 + period * 1000;
    if (at < now) {
      at = now;
      // the whole period has passed: the shortest graceful period, someone else removes it
      if (period !== 0) period = 1;
    }
    meta.deletionTimestamp = rfc3339(at);
    meta.deletionGracePeriodSeconds = period;
    options.gracePeriodSeconds = period;
    return { graceful: true, pending: false };
  }
  const grace = check(obj, options);
  if (grace === undefined) return { graceful: false, pending: false };
  options.gracePeriodSeconds = grace;
  meta.deletionTimestamp = rfc3339(now + grace * 1000);
  meta.deletionGracePeriodSeconds = grace;
  if ((meta.generation ?? 0) > 0) meta.generation = meta.generation! + 1;
  return { graceful: true, pending: false };
}

function shouldOrphanDependents(def: ResourceDefinition, finalizers: string[], options: StoreDeleteOptions): boolean {
  const policy = def.strategy.defaultGarbageCollectionPolicy ?? 'DeleteDependents';
  if (policy === 'Unsupported') return false;
  if (options.orphanDependents !== undefined) return options.orphanDependents;
  if (options.propagationPolicy === 'Orphan') return true;
  if (options.propagationPolicy === 'Background' || options.propagationPolicy === 'Foreground') return false;
  for (const f of finalizers) {
    if (f === FINALIZER_ORPHAN) return true;
    if (f === FINALIZER_FOREGROUND) return false;
  }
  return policy === 'OrphanDependents';
}

function shouldDeleteDependentsInForeground(def: ResourceDefinition, finalizers: string[], options: StoreDeleteOptions): boolean {
  if (def.strategy.defaultGarbageCollectionPolicy === 'Unsupported') return false;
  if (options.orphanDependents !== undefined) return false;
  if (options.propagationPolicy === 'Foreground') return true;
  if (options.propagationPolicy === 'Background' || options.propagationPolicy === 'Orphan') return false;
  for (const f of finalizers) {
    if (f === FINALIZER_FOREGROUND) return true;
    if (f === FINALIZER_ORPHAN) return false;
  }
  return false;
}

/**
 * deletionFinalizersForGarbageCollection: the orphan / foregroundDeletion finalizers the options (or the
 * object's finalizers, or the kind's default policy) ask for. `changed` is false when the set is the same.
 */
export function gcFinalizers(def: ResourceDefinition, meta: ObjectMeta, options: StoreDeleteOptions): { changed: boolean; finalizers: string[] } {
  const old = meta.finalizers ?? [];
  const orphan = shouldOrphanDependents(def, old, options);
  const foreground = shouldDeleteDependentsInForeground(def, old, options);
  const next = old.filter((f) => f !== FINALIZER_ORPHAN && f !== FINALIZER_FOREGROUND);
  if (orphan) next.push(FINALIZER_ORPHAN);
  if (foreground) next.push(FINALIZER_FOREGROUND);
  const a = new Set(old);
  const b = new Set(next);
  const same = a.size === b.size && [...a].every((f) => b.has(f));
  return same ? { changed: false, finalizers: old } : { changed: true, finalizers: next };
}

/**
 * markAsDeleting: deletionTimestamp = now unless one is set (and not later), grace period 0; the first
 * time, the generation moves on for kinds that track it.
 */
export function markAsDeleting(meta: ObjectMeta, now: number): void {
  if (!meta.deletionTimestamp && (meta.generation ?? 0) > 0) meta.generation = meta.generation! + 1;
  if (!meta.deletionTimestamp || Date.parse(meta.deletionTimestamp) > now) meta.deletionTimestamp = rfc3339(now);
  meta.deletionGracePeriodSeconds = 0;
}

/** ShouldDeleteDuringUpdate: no finalizers left on an object being deleted with no (or a zero) grace period. */
export function shouldDeleteDuringUpdate(def: ResourceDefinition, obj: KubeObject, old: KubeObject): boolean {
  if ((obj.metadata?.finalizers ?? []).length > 0) return false;
  const om = old.metadata ?? {};
  if (!om.deletionTimestamp) return false;
  if (om.deletionGracePeriodSeconds !== undefined && om.deletionGracePeriodSeconds !== null && om.deletionGracePeriodSeconds !== 0) return false;
  return def.strategy.shouldDeleteDuringUpdate ? def.strategy.shouldDeleteDuringUpdate(obj) : true;
}
