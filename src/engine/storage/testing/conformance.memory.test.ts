import { describe, it } from 'vitest';
import { createMemoryStorage } from '../../../adapters/memory/memory-storage.js';
import { storageConformanceCases } from './index.js';

describe('storage conformance: memory backend', () => {
  for (const c of storageConformanceCases()) {
    // The memory backend has nothing to reopen: persistence cases do not apply.
    it.skipIf(c.requiresReopen === true)(c.requiresReopen ? `${c.name} (skipped: the memory backend keeps nothing to reopen)` : c.name, () => c.run(async () => createMemoryStorage()));
  }
});
