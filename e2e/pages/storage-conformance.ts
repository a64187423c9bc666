// Runs the runner-agnostic storage conformance suite in this page against real IndexedDB (Chromium) and
// publishes the results on `window.storageConformance` for e2e/storage-conformance.spec.ts. The suite runs
// twice: over fresh connections, and over connections that loaded the store first (readAll, as the engine
// does), whose commits issue their puts behind one read of the revision (idb-storage.ts `known`). One more
// case has another connection write after such a load: the commit must be aborted and run again.
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
  const cases = [
    ...storageConformanceCases().map((c) => ({ ...c, loaded: false })),
    ...storageConformanceCases().map((c) => ({ ...c, name: `${c.name} (after readAll)`, loaded: true })),
    { name: 'another connection writes after readAll: the commit is aborted, none of its puts stored, and runs again', run: staleCommit, loaded: false },
  ];
  const run = `${Date.now()}`;
  let n = 0;
  for (const c of cases) {
    // Every `make` opens a new, empty database; `reopen` opens the same database again.
    const names = new WeakMap<Storage, string>();
    const created: string[] = [];
    const open = async (name: string) => {
      const s = await openIdbStorage({ name });
      names.set(s, name);
      if (c.loaded) await s.readAll!();
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

function check(what: string, got: unknown, want: unknown): void {
  const g = JSON.stringify(got);
  const w = JSON.stringify(want);
  if (g !== w) throw new Error(`${what}: got ${g}, want ${w}`);
}

async function staleCommit(make: () => Promise<Storage>, reopen: (s: Storage) => Promise<Storage>): Promise<void> {
  const cm = (name: string, v: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'd' }, data: { v } });
  const key = (name: string) => `/core/configmaps/d/${name}`;
  const a = await make();
  const b = await reopen(a);
  await a.write([{ kind: 'put', key: key('x'), object: cm('x', 'a0') }], 1);
  await a.readAll!(); // a knows the store at revision 1
  await b.write([{ kind: 'put', key: key('x'), object: cm('x', 'b'), expectRevision: 1 }], 2);
  await b.write([{ kind: 'put', key: key('y'), object: cm('y', 'b'), expectRevision: 0 }], 3);
  // planned on what a knows, both would land at revisions 2 and 3 over b's records
  const [z, y] = await Promise.all([
    a.write([{ kind: 'put', key: key('z'), object: cm('z', 'a') }], 4),
    a.write([{ kind: 'put', key: key('y'), object: cm('y', 'a'), expectRevision: 0 }], 5),
  ]);
  check('z', z.ok && z.revision, 4);
  check('y', y.ok ? 'ok' : [y.reason, y.currentRevision], ['exists', 3]);
  await a.close();
  await b.close();
  const c = await reopen(a);
  check('revision', await c.revision(), 4);
  check('objects', (await c.list('')).map((o) => [o.key, o.revision, o.object.data]), [
    [key('x'), 2, { v: 'b' }],
    [key('y'), 3, { v: 'b' }],
    [key('z'), 4, { v: 'a' }],
  ]);
  check('history', (await c.events(0)).map((e) => [e.revision, e.type, e.key, e.object.data]), [
    [1, 'ADDED', key('x'), { v: 'a0' }],
    [2, 'MODIFIED', key('x'), { v: 'b' }],
    [3, 'ADDED', key('y'), { v: 'b' }],
    [4, 'ADDED', key('z'), { v: 'a' }],
  ]);
  await c.close();
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
