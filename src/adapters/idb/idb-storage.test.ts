import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { Storage } from '../../engine/storage/interface.js';
import { storageConformanceCases } from '../../engine/storage/testing/index.js';
import { openIdbStorage } from './idb-storage.js';

let seq = 0;
const names = new WeakMap<Storage, string>();

async function make(): Promise<Storage> {
  const name = `conformance-${++seq}`;
  const s = await openIdbStorage({ name });
  names.set(s, name);
  return s;
}

async function reopen(old: Storage): Promise<Storage> {
  const name = names.get(old);
  if (name === undefined) throw new Error('reopen: unknown storage');
  const s = await openIdbStorage({ name });
  names.set(s, name);
  return s;
}

describe('storage conformance: IndexedDB backend (fake-indexeddb)', () => {
  for (const c of storageConformanceCases()) {
    it(c.name, () => c.run(make, reopen));
  }
});
