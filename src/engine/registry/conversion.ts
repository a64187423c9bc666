// Several served forms of one kind share one store [K8S storage versions]: HorizontalPodAutoscaler in
// autoscaling/v1 and autoscaling/v2, Event in core v1 and events.k8s.io/v1, the versions of a CRD. A
// definition with `conversion` names where its objects are stored and how they convert; the store writes
// every object in the storage version and every read (get, list, watch, the object an update starts from)
// converts it to the version the request named. This module is the one place that applies it.

import type { KubeObject } from '../object.js';
import { groupVersion, type ResourceDefinition } from './types.js';

export interface VersionConversion {
  /** Group ('' for core) and resource of the storage key shared by every served form. */
  storageGroup: string;
  storageResource: string;
  /** apiVersion objects are written in. */
  storageApiVersion: string;
  /**
   * Converts an object of any served apiVersion of the kind to `apiVersion`. Returns a new object (the input
   * stays untouched) or throws a Status error when it cannot convert (a CRD's unreachable webhook).
   */
  convert(obj: KubeObject, apiVersion: string): KubeObject;
  /** Convert on every read, even to the version an object is stored in (a CRD's read-path defaulting). */
  convertOnRead?: boolean;
}

/** The group and resource under which a definition's objects are stored. */
export function storageLocation(def: ResourceDefinition): { group: string; resource: string } {
  const c = def.conversion;
  return c ? { group: c.storageGroup, resource: c.storageResource } : { group: def.group, resource: def.plural };
}

/** A stored object in the definition's own version: the object itself when nothing needs converting. */
export function toRequestVersion(def: ResourceDefinition, stored: KubeObject): KubeObject {
  const c = def.conversion;
  const gv = groupVersion(def);
  if (!c || (stored.apiVersion === gv && !c.convertOnRead)) return stored;
  return c.convert(stored, gv);
}

/** An object of the definition's version in the storage version (unchanged when they are the same). */
export function toStorageVersion(def: ResourceDefinition, obj: KubeObject): KubeObject {
  const c = def.conversion;
  if (!c || obj.apiVersion === c.storageApiVersion) return obj;
  return c.convert(obj, c.storageApiVersion);
}

/** A matcher over stored objects that sees them in the definition's version (field selectors use its names). */
export function convertingMatcher(def: ResourceDefinition, match: (o: KubeObject) => boolean): (o: KubeObject) => boolean {
  if (!def.conversion) return match;
  return (o) => match(toRequestVersion(def, o));
}

const ids = new WeakMap<VersionConversion, number>();
let nextId = 0;

/**
 * A key naming the definition's conversion, for caches of converted stored objects: a CRD update brings a
 * new conversion (new schemas, new defaults), so a cached rendering of the old one no longer applies.
 */
export function conversionKey(def: ResourceDefinition): string {
  const c = def.conversion;
  if (!c) return '';
  let id = ids.get(c);
  if (id === undefined) ids.set(c, (id = ++nextId));
  return `#${id}`;
}
