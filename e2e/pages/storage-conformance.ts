// Runs the runner-agnostic storage conformance suite in this page against real IndexedDB (Chromium) and
// publishes the results on `window.storageConformance` for e2e/storage-conformance.spec.ts.
import { openIdbStorage } from '../../src/adapters/idb/idb-storage.js';
import type { Storage } from '../../src/engine/storage/interface.js';
import { storageConformanceCases } from '../../src/engine/storage/testing/index.js';

export interface CaseResult {
  name: string;
  ok: boolean;
  skipped?: boolean;
  error?: string;
  ms: number;
}

declare global {
  interface Window {
    storageConformance?: { done: boolean; results: CaseResult[]; fatal?: string };
  }
}

const state: NonNullable<Window['storageConformance']> = { done: false, results: [] };
window.storageConformance = state;

function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve) => {
    const req = indexedDB.deleteDatabase(name);
    req.onsuccess = req.onerror = req.onblocked = () => resolve();
  });
}

async function runAll(): Promise<void> {
  const list = document.getElementById('results')!;
  const summary = document.getElementById('summary')!;
  const cases = storageConformanceCases();
  const run = `${Date.now()}`;
  let n = 0;
  for (const c of cases) {
    // Every `make` opens a new, empty database; `reopen` opens the same database again.
    const names = new WeakMap<Storage, string>();
    const created: string[] = [];
    const open = async (name: string) => {
      const s = await openIdbStorage({ name });
      names.set(s, name);
      return s;
    };
    const make = () => {
      const name = `conformance-${run}-${n++}`;
      created.push(name);
      return open(name);
    };
    const reopen = (s: Storage) => {
      const name = names.get(s);
      if (!name) throw new Error('reopen: not a storage made by this runner');
      return open(name);
    };
    const start = performance.now();
    let result: CaseResult;
    try {
      await c.run(make, reopen);
      result = { name: c.name, ok: true, ms: performance.now() - start };
    } catch (err) {
      const error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      result = { name: c.name, ok: false, error, ms: performance.now() - start };
    }
    state.results.push(result);
    const li = document.createElement('li');
    li.textContent = `${result.ok ? 'PASS' : 'FAIL'} ${c.name}${result.error ? ` — ${result.error}` : ''}`;
    list.append(li);
    await Promise.all(created.map(deleteDatabase));
  }
  const failed = state.results.filter((r) => !r.ok).length;
  summary.textContent = `${state.results.length - failed} of ${state.results.length} cases passed`;
}

runAll().then(
  () => {
    state.done = true;
  },
  (err: unknown) => {
    state.fatal = err instanceof Error ? (err.stack ?? err.message) : String(err);
    state.done = true;
  },
);
