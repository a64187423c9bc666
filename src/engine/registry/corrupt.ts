// Reads of undecodable stored values (storage/undecodable.ts) fail as in the real v1.33 storage layer
// [K8S storage/errors.go, storage/etcd3/corrupt_obj_deleter.go, storage/errors/storage.go]. With the gate
// AllowUnsafeMalformedObjectDeletion the etcd3 store classifies decode failures as corrupt objects (a get
// is a 500 InternalError naming a `corrupt object` StorageError; a list a 500 StoreReadError with one cause
// per object); without it the decoder's error reaches the responder as it is (500, no reason).

import { StatusError, qualified, type StatusCause } from '../errors.js';
import type { StoredObject } from '../storage/interface.js';
import { UNDECODABLE_DECODE_ERROR } from '../storage/undecodable.js';
import type { ResourceDefinition } from './types.js';

/** Code 7 of storage.StorageError (ErrCodeCorruptObj). */
const CORRUPT_OBJ_CODE = 7;

/** The registry's key of an object (what the generic store hands the storage layer, before `/registry`). */
export function registryKey(def: ResourceDefinition, namespace: string, name: string): string {
  const custom = (def as { custom?: boolean }).custom === true;
  const res = custom && def.group ? `${def.group}/${def.plural}` : def.plural;
  return `/${res}/${def.namespaced ? `${namespace}/` : ''}${name}`;
}

/** corruptObjectError: `object not decodable revision=N: <decoder error>`. */
function notDecodable(revision: number): string {
  return `object not decodable revision=${revision}: ${UNDECODABLE_DECODE_ERROR}`;
}

function corruptStorageError(key: string, revision: number): string {
  return `StorageError: corrupt object, Code: ${CORRUPT_OBJ_CODE}, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: ${notDecodable(revision)}`;
}

/** A Status error with no reason: what ErrorToAPIStatus makes of an error that is not an API status. */
function unclassified(message: string): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 });
}

/** Get, update, patch and a normal delete of an undecodable object. */
export function unreadableObjectError(def: ResourceDefinition, namespace: string, name: string, item: StoredObject, gate: boolean): StatusError {
  if (!gate) return unclassified(UNDECODABLE_DECODE_ERROR);
  const message = corruptStorageError(registryKey(def, namespace, name), item.revision);
  return new StatusError({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
    message: `Internal error occurred: ${message}`, reason: 'InternalError', details: { causes: [{ message }] }, code: 500,
  });
}

/** A list (or a watch's initial list) over a prefix holding undecodable objects. */
export function unreadableListError(def: ResourceDefinition, items: StoredObject[], gate: boolean): StatusError {
  if (!gate) return unclassified(UNDECODABLE_DECODE_ERROR);
  // the etcd3 list aggregates up to 100 corrupt objects, then a sentinel
  const causes: StatusCause[] = items.slice(0, 100).map((i) => {
    const key = `/registry${registryKeyOf(def, i.key)}`;
    return { reason: 'UnexpectedServerResponse', message: corruptStorageError(key, i.revision), field: key };
  });
  if (items.length > 100) causes.push({ reason: 'TooMany', message: 'too many errors, the list is truncated' });
  const details: Record<string, unknown> = { name: 'list' };
  if (def.group) details.group = def.group;
  details.kind = def.plural;
  details.causes = causes;
  return new StatusError({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
    message: `failed to read one or more ${qualified({ group: def.group, resource: def.plural })} from the storage`,
    reason: 'StoreReadError', details, code: 500,
  });
}

/** The registry key of an engine storage key (`/<group|core>/<plural>/<ns>/<name>`). */
function registryKeyOf(def: ResourceDefinition, storageKey: string): string {
  const [, , , namespace, name] = storageKey.split('/');
  return registryKey(def, namespace, name);
}

/**
 * A watch of a resource whose watch cache cannot be rebuilt (its relist meets an undecodable object): the
 * cacher is not ready, and with ResilientWatchCacheInitialization (beta, on) a watch is refused with 429.
 */
export function cacheNotReady(): StatusError {
  return new StatusError(
    { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'storage is (re)initializing', reason: 'TooManyRequests', details: { retryAfterSeconds: 1 }, code: 429 },
    { 'Retry-After': '1' },
  );
}
