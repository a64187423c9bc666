// A storage that forwards every call to another one but its writes: the wrappers tests and benchmarks use to
// hold, fail or count writes.
import type { Storage, StorageKey } from '../interface.js';

/** `inner` with its writes going to `write` (which may call `inner.write`); the optional reads forwarded when it has them. */
export function withWrite(inner: Storage, write: Storage['write']): Storage {
  return {
    revision: () => inner.revision(),
    compactedRevision: () => inner.compactedRevision(),
    get: (key) => inner.get(key),
    list: (prefix) => inner.list(prefix),
    events: (after) => inner.events(after),
    compact: (beforeTime) => inner.compact(beforeTime),
    close: () => inner.close(),
    ...(inner.readAll && { readAll: () => inner.readAll!() }),
    ...(inner.readKeys && { readKeys: (keys: StorageKey[]) => inner.readKeys!(keys) }),
    write,
  };
}
