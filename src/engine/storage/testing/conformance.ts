// The one conformance suite every Storage backend must pass (the role k8s.io/apiserver/pkg/storage/testing
// plays for etcd3 and the watch cache). Runner-agnostic: plain async functions that throw on failure, no
// vitest and no Node imports, so the same cases run under vitest in Node and inside a Chromium page.
//
// Semantics pinned down here (the contract of storage/interface.ts made exact):
// - An empty store has revision 0 and compacted revision 0. Every successful non-empty write commits
//   as revision + 1, however many ops it holds; all its objects get resourceVersion = String(revision)
//   and all its history entries carry that revision, in op order. write([]) succeeds without a bump.
// - Preconditions: put with expectRevision 0 fails `exists` when the key is present; expectRevision n > 0
//   fails `not-found` when absent and `revision-mismatch` (with currentRevision) when its revision is
//   not n; delete of an absent key fails `not-found`. The first failing op in op order is reported, and
//   a failed write changes nothing (no object, no history entry, no revision bump). One key twice in one
//   write is a programming error: the write rejects (etcd: "duplicate key given in txn request"); so
//   does a time that is not a finite number (TypeError). events(NaN) and compact(NaN) reject with a
//   TypeError; compact(Infinity) drops the whole history.
// - DELETED entries carry the last state stamped with the deletion's revision as `object`, and the state
//   as it was stored (old resourceVersion) as `prevObject`; MODIFIED entries carry the previous state as
//   `prevObject`; ADDED entries have none.
// - list(prefix) is a plain string-prefix match in UTF-16 code-unit order (the order of JS `<` and of
//   IndexedDB keys); callers end prefixes with `/` to isolate `/core/pods/a/` from `/core/pods/ab/`.
// - Objects handed in are never aliased with what is stored: changing one later changes nothing stored.
//   Everything handed out (StoredObject and HistoryEvent wrappers, their objects, all the way down) is
//   deeply frozen, so no caller can change stored state through it; the arrays returned are the caller's.
// - Compaction boundary: compact(t) drops every entry whose time is < t (strictly; an entry written at
//   exactly t stays), as one unbroken run of the oldest revisions, and returns the compacted revision C,
//   the newest revision no longer in history (unchanged when nothing was dropped; it never decreases).
//   events(after) returns every entry with revision > after; it throws StorageCompactedError exactly when
//   after < C (the entry at revision after + 1 <= C is gone). events(C) succeeds: it needs only revisions
//   > C. This matches etcd, where a watch starting at revision after + 1 <= C is refused as compacted.
// - Compaction never changes objects or the revision counter; the revision never goes backwards.
// - Concurrent writes are serialised: each successful one gets a distinct revision and together they
//   form an unbroken sequence.
//
// `reopen`, when given, is called after `s.close()` has resolved and must return a new Storage over the
// same persisted data (same database name). Cases marked requiresReopen do nothing without it.

import type { KubeObject } from '../../object.js';
import {
  StorageCompactedError,
  type HistoryEvent,
  type Storage,
  type StorageKey,
  type WriteOp,
  type WriteResult,
} from '../interface.js';
import { assert, assertDeepEqual, assertEqual, assertRejects, fail } from './assert.js';

export interface StorageConformanceCase {
  name: string;
  /** True when the case checks persistence and is a no-op unless `reopen` is given. */
  requiresReopen?: boolean;
  run: (make: () => Promise<Storage>, reopen?: (s: Storage) => Promise<Storage>) => Promise<void>;
}

const T0 = 1_700_000_000_000;

function podKey(ns: string, name: string): StorageKey {
  return `/core/pods/${ns}/${name}`;
}

function pod(ns: string, name: string, image = 'nginx:1.27', labels: Record<string, string> = { app: name }): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ns, uid: `uid-${ns}-${name}`, labels },
    spec: { containers: [{ name: 'main', image, ports: [{ containerPort: 80, protocol: 'TCP' }] }] },
  };
}

/** What the store must hold for `object` written at `revision`. */
function at(object: KubeObject, revision: number): KubeObject {
  const copy = JSON.parse(JSON.stringify(object)) as KubeObject;
  copy.metadata = { ...(copy.metadata ?? {}), resourceVersion: String(revision) };
  return copy;
}

/** Fails unless `value` and everything reachable from it is frozen. */
function assertDeeplyFrozen(value: unknown, what: string, path = ''): void {
  if (typeof value !== 'object' || value === null) return;
  if (!Object.isFrozen(value)) fail(`${what}: ${path || 'the value'} is not frozen`);
  for (const [k, v] of Object.entries(value)) assertDeeplyFrozen(v, what, `${path}.${k}`);
}

/** Fails unless `fn` throws a TypeError (a write to a frozen object in strict mode). */
function assertThrows(fn: () => unknown, what: string): void {
  try {
    fn();
  } catch (e) {
    if (e instanceof TypeError) return;
    fail(`${what}: threw ${String(e)} instead of a TypeError`);
  }
  fail(`${what}: succeeded, the object handed out is not frozen`);
}

async function mustWrite(s: Storage, ops: WriteOp[], time: number): Promise<Extract<WriteResult, { ok: true }>> {
  const r = await s.write(ops, time);
  if (!r.ok) fail(`write of ${ops.map((o) => `${o.kind} ${o.key}`).join(', ')} failed: ${JSON.stringify(r)}`);
  return r;
}

function put(key: StorageKey, object: KubeObject, expectRevision?: number): WriteOp {
  return expectRevision === undefined ? { kind: 'put', key, object } : { kind: 'put', key, object, expectRevision };
}

function del(key: StorageKey, expectRevision?: number): WriteOp {
  return expectRevision === undefined ? { kind: 'delete', key } : { kind: 'delete', key, expectRevision };
}

async function withStorage(make: () => Promise<Storage>, fn: (s: Storage) => Promise<void>): Promise<void> {
  const s = await make();
  try {
    await fn(s);
  } finally {
    await s.close();
  }
}

/** Asserts that revision, objects and history are exactly as before a failed write. */
async function assertUnchanged(s: Storage, revision: number, keys: StorageKey[], history: HistoryEvent[], what: string) {
  assertEqual(await s.revision(), revision, `${what}: revision`);
  assertDeepEqual(
    (await s.list('')).map((o) => o.key),
    keys,
    `${what}: stored keys`,
  );
  assertDeepEqual(await s.events(0), history, `${what}: history`);
}

function bigConfigMap(i: number): KubeObject {
  // ~2 KiB of varied data: nested maps, arrays, numbers, booleans, null and non-ASCII text.
  const data: Record<string, string> = {};
  for (let j = 0; j < 16; j++) {
    data[`key-${j}`] = `value ${i}/${j} ${'αβγ-ß-€-日本-'.repeat(2)}${'x'.repeat(60 + ((i + j) % 17))}`;
  }
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: `cm-${String(i).padStart(5, '0')}`,
      namespace: 'bulk',
      uid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      labels: { index: String(i), parity: i % 2 === 0 ? 'even' : 'odd' },
      annotations: { note: 'emoji 🚀 and quotes "\'' },
    },
    data,
    nested: { list: [1, 2.5, -3, true, false, null, { deep: [[i]] }], empty: {}, emptyList: [] },
  };
}

export function storageConformanceCases(): StorageConformanceCase[] {
  return [
    {
      name: 'a new store has revision 0, compacted revision 0, no objects and no history',
      run: (make) =>
        withStorage(make, async (s) => {
          assertEqual(await s.revision(), 0, 'revision()');
          assertEqual(await s.compactedRevision(), 0, 'compactedRevision()');
          assertEqual(await s.get(podKey('default', 'a')), undefined, 'get of a missing key');
          assertDeepEqual(await s.list(''), [], "list('')");
          assertDeepEqual(await s.events(0), [], 'events(0)');
          assertEqual(await s.compact(T0 + 1_000_000), 0, 'compact on an empty history');
          assertEqual(await s.compactedRevision(), 0, 'compactedRevision() after compacting nothing');
        }),
    },
    {
      name: 'each write bumps the revision by exactly 1 and stamps metadata.resourceVersion',
      run: (make) =>
        withStorage(make, async (s) => {
          const a = pod('default', 'a');
          a.metadata!.resourceVersion = '999'; // whatever the caller sends is replaced
          const r1 = await mustWrite(s, [put(podKey('default', 'a'), a)], T0 + 1);
          assertEqual(r1.revision, 1, 'first write revision');
          assertEqual(a.metadata!.resourceVersion, '999', 'the input object is not modified');
          assertDeepEqual(
            r1.events,
            [{ revision: 1, type: 'ADDED', key: podKey('default', 'a'), object: at(a, 1), time: T0 + 1 }],
            'events of the first write',
          );
          assertEqual(await s.revision(), 1, 'revision() after one write');
          assertDeepEqual(
            await s.get(podKey('default', 'a')),
            { key: podKey('default', 'a'), object: at(a, 1), revision: 1 },
            'get after create',
          );

          const b = pod('default', 'b');
          const r2 = await mustWrite(s, [put(podKey('default', 'b'), b, 0)], T0 + 2);
          assertEqual(r2.revision, 2, 'second write revision');

          const a2 = pod('default', 'a', 'nginx:1.28');
          const r3 = await mustWrite(s, [put(podKey('default', 'a'), a2, 1)], T0 + 3);
          assertEqual(r3.revision, 3, 'third write revision');
          assertDeepEqual(
            r3.events,
            [
              {
                revision: 3,
                type: 'MODIFIED',
                key: podKey('default', 'a'),
                object: at(a2, 3),
                prevObject: at(a, 1),
                time: T0 + 3,
              },
            ],
            'events of an update',
          );
          assertDeepEqual(
            await s.get(podKey('default', 'a')),
            { key: podKey('default', 'a'), object: at(a2, 3), revision: 3 },
            'get after update',
          );
          assertDeepEqual(
            await s.get(podKey('default', 'b')),
            { key: podKey('default', 'b'), object: at(b, 2), revision: 2 },
            'an untouched object keeps its revision',
          );
          assertEqual(await s.revision(), 3, 'revision() after three writes');
        }),
    },
    {
      name: 'an object without metadata gets metadata.resourceVersion',
      run: (make) =>
        withStorage(make, async (s) => {
          const r = await mustWrite(s, [put('/example.com/things//x', { kind: 'Thing', spec: { n: 1 } })], T0);
          const expected = { kind: 'Thing', spec: { n: 1 }, metadata: { resourceVersion: '1' } };
          assertDeepEqual(r.events[0].object, expected, 'event object');
          assertDeepEqual((await s.get('/example.com/things//x'))?.object, expected, 'stored object');
        }),
    },
    {
      name: 'a multi-op write commits under one shared revision with its events in op order',
      run: (make) =>
        withStorage(make, async (s) => {
          const c = pod('ns', 'c');
          await mustWrite(s, [put(podKey('ns', 'c'), c)], T0 + 1);
          const a = pod('ns', 'a');
          const b = pod('ns', 'b');
          const r = await mustWrite(s, [put(podKey('ns', 'b'), b, 0), del(podKey('ns', 'c'), 1), put(podKey('ns', 'a'), a)], T0 + 2);
          assertEqual(r.revision, 2, 'revision of the multi-op write');
          assertDeepEqual(
            r.events,
            [
              { revision: 2, type: 'ADDED', key: podKey('ns', 'b'), object: at(b, 2), time: T0 + 2 },
              { revision: 2, type: 'DELETED', key: podKey('ns', 'c'), object: at(c, 2), prevObject: at(c, 1), time: T0 + 2 },
              { revision: 2, type: 'ADDED', key: podKey('ns', 'a'), object: at(a, 2), time: T0 + 2 },
            ],
            'events of the multi-op write',
          );
          assertEqual(await s.revision(), 2, 'revision() after the multi-op write');
          assertDeepEqual(
            await s.list('/core/pods/ns/'),
            [
              { key: podKey('ns', 'a'), object: at(a, 2), revision: 2 },
              { key: podKey('ns', 'b'), object: at(b, 2), revision: 2 },
            ],
            'objects after the multi-op write',
          );
          assertDeepEqual((await s.events(1)).map((e) => [e.revision, e.type, e.key]), [
            [2, 'ADDED', podKey('ns', 'b')],
            [2, 'DELETED', podKey('ns', 'c')],
            [2, 'ADDED', podKey('ns', 'a')],
          ], 'events(1)');
        }),
    },
    {
      name: 'expectRevision 0 (must not exist) fails atomically with nothing written',
      run: (make) =>
        withStorage(make, async (s) => {
          await mustWrite(s, [put(podKey('d', 'a'), pod('d', 'a'))], T0 + 1);
          const history = await s.events(0);
          const r = await s.write([put(podKey('d', 'x'), pod('d', 'x')), put(podKey('d', 'a'), pod('d', 'a', 'other'), 0)], T0 + 2);
          assertDeepEqual(r, { ok: false, failedKey: podKey('d', 'a'), reason: 'exists', currentRevision: 1 }, 'write result');
          await assertUnchanged(s, 1, [podKey('d', 'a')], history, 'after the failed write');
          assertEqual((await s.get(podKey('d', 'a')))?.object.spec !== undefined, true, 'a is still there');
          assertDeepEqual((await s.get(podKey('d', 'a')))?.object, at(pod('d', 'a'), 1), 'a is unchanged');
          // The next successful write takes the next revision: the failure consumed none.
          assertEqual((await mustWrite(s, [put(podKey('d', 'x'), pod('d', 'x'), 0)], T0 + 3)).revision, 2, 'next revision');
        }),
    },
    {
      name: 'expectRevision n must match the current revision of the key, atomically',
      run: (make) =>
        withStorage(make, async (s) => {
          await mustWrite(s, [put(podKey('d', 'a'), pod('d', 'a'))], T0 + 1);
          await mustWrite(s, [put(podKey('d', 'b'), pod('d', 'b'))], T0 + 2);
          const ok = await mustWrite(s, [put(podKey('d', 'a'), pod('d', 'a', 'v2'), 1)], T0 + 3);
          assertEqual(ok.revision, 3, 'matching precondition');
          const history = await s.events(0);
          const keys = [podKey('d', 'a'), podKey('d', 'b')];

          let r = await s.write([put(podKey('d', 'a'), pod('d', 'a', 'v3'), 1)], T0 + 4);
          assertDeepEqual(r, { ok: false, failedKey: podKey('d', 'a'), reason: 'revision-mismatch', currentRevision: 3 }, 'stale update');
          await assertUnchanged(s, 3, keys, history, 'after a stale update');

          r = await s.write([put(podKey('d', 'b'), pod('d', 'b', 'v2'), 2), put(podKey('d', 'zz'), pod('d', 'zz'), 5)], T0 + 4);
          assertDeepEqual(r, { ok: false, failedKey: podKey('d', 'zz'), reason: 'not-found' }, 'update of a missing key');
          await assertUnchanged(s, 3, keys, history, 'after an update of a missing key');
          assertDeepEqual((await s.get(podKey('d', 'b')))?.object, at(pod('d', 'b'), 2), 'b untouched by the failed write');

          // The first failing op in op order is the one reported.
          r = await s.write([put(podKey('d', 'a'), pod('d', 'a'), 2), del(podKey('d', 'missing'))], T0 + 4);
          assertDeepEqual(r, { ok: false, failedKey: podKey('d', 'a'), reason: 'revision-mismatch', currentRevision: 3 }, 'first failure wins');
          await assertUnchanged(s, 3, keys, history, 'after two failing ops');
        }),
    },
    {
      name: 'delete: missing key fails, preconditions apply, the DELETED event carries both states',
      run: (make) =>
        withStorage(make, async (s) => {
          const a = pod('d', 'a');
          await mustWrite(s, [put(podKey('d', 'a'), a)], T0 + 1);
          await mustWrite(s, [put(podKey('d', 'b'), pod('d', 'b'))], T0 + 2);
          const history = await s.events(0);
          const keys = [podKey('d', 'a'), podKey('d', 'b')];

          let r = await s.write([del(podKey('d', 'missing'))], T0 + 3);
          assertDeepEqual(r, { ok: false, failedKey: podKey('d', 'missing'), reason: 'not-found' }, 'delete of a missing key');
          await assertUnchanged(s, 2, keys, history, 'after deleting a missing key');

          r = await s.write([del(podKey('d', 'missing'), 4)], T0 + 3);
          assertDeepEqual(r, { ok: false, failedKey: podKey('d', 'missing'), reason: 'not-found' }, 'delete of a missing key with a precondition');

          r = await s.write([del(podKey('d', 'a'), 2)], T0 + 3);
          assertDeepEqual(r, { ok: false, failedKey: podKey('d', 'a'), reason: 'revision-mismatch', currentRevision: 1 }, 'delete with a stale precondition');
          r = await s.write([del(podKey('d', 'a'), 0)], T0 + 3);
          assertDeepEqual(r, { ok: false, failedKey: podKey('d', 'a'), reason: 'exists', currentRevision: 1 }, 'delete with expectRevision 0');
          await assertUnchanged(s, 2, keys, history, 'after failed deletes');

          const ok = await mustWrite(s, [del(podKey('d', 'a'), 1)], T0 + 4);
          assertEqual(ok.revision, 3, 'delete revision');
          assertDeepEqual(
            ok.events,
            [{ revision: 3, type: 'DELETED', key: podKey('d', 'a'), object: at(a, 3), prevObject: at(a, 1), time: T0 + 4 }],
            'events of the delete',
          );
          assertEqual(await s.get(podKey('d', 'a')), undefined, 'get after delete');
          assertDeepEqual((await s.list('/core/pods/d/')).map((o) => o.key), [podKey('d', 'b')], 'list after delete');
          assertEqual(await s.revision(), 3, 'revision() after delete');

          r = await s.write([del(podKey('d', 'a'))], T0 + 5);
          assertDeepEqual(r, { ok: false, failedKey: podKey('d', 'a'), reason: 'not-found' }, 'second delete');

          // Re-creating a deleted key is an ADDED event with no prevObject.
          const again = await mustWrite(s, [put(podKey('d', 'a'), a, 0)], T0 + 6);
          assertDeepEqual(again.events, [{ revision: 4, type: 'ADDED', key: podKey('d', 'a'), object: at(a, 4), time: T0 + 6 }], 're-create');
        }),
    },
    {
      name: 'write([]) succeeds without a revision bump; one key twice or a non-finite time rejects',
      run: (make) =>
        withStorage(make, async (s) => {
          assertDeepEqual(await s.write([], T0), { ok: true, revision: 0, events: [] }, 'empty write on an empty store');
          await mustWrite(s, [put(podKey('d', 'a'), pod('d', 'a'))], T0 + 1);
          assertDeepEqual(await s.write([], T0 + 2), { ok: true, revision: 1, events: [] }, 'empty write');
          const history = await s.events(0);
          await assertRejects(
            () => s.write([put(podKey('d', 'b'), pod('d', 'b')), del(podKey('d', 'b'))], T0 + 3),
            Error,
            'a write naming one key twice',
          );
          await assertRejects(() => s.write([put(podKey('d', 'c'), pod('d', 'c'))], Number.NaN), TypeError, 'a write at time NaN');
          await assertUnchanged(s, 1, [podKey('d', 'a')], history, 'after the rejected write');
        }),
    },
    {
      name: 'list(prefix) returns key order and isolates `/core/pods/a/` from `/core/pods/ab/`',
      run: (make) =>
        withStorage(make, async (s) => {
          const keys = [
            '/core/pods/ab/y',
            '/core/pods/a/x',
            '/core/podsx/a/n',
            '/core/pods/a0/q',
            '/core/pods/a/\uffff\uffff',
            '/core/pods/a-/z',
            '/apps/deployments/a/d',
            '/core/pods/a/b',
            '/core/pods/a/\u00e9t\u00e9',
            '/core/pods/a',
            '/core/pods/a/\uffff',
            '/core/pods/a0',
          ];
          let t = T0;
          for (const k of keys) await mustWrite(s, [put(k, { kind: 'Pod', metadata: { name: k } })], ++t);
          const listed = async (prefix: string) => (await s.list(prefix)).map((o) => o.key);
          // UTF-16 code-unit order: '-' (2d) < '/' (2f) < '0' (30) < 'b' < 'x' < 'é' (e9) < U+FFFF.
          assertDeepEqual(
            await listed('/core/pods/a/'),
            ['/core/pods/a/b', '/core/pods/a/x', '/core/pods/a/\u00e9t\u00e9', '/core/pods/a/\uffff', '/core/pods/a/\uffff\uffff'],
            "list('/core/pods/a/')",
          );
          assertDeepEqual(await listed('/core/pods/ab/'), ['/core/pods/ab/y'], "list('/core/pods/ab/')");
          assertDeepEqual(
            await listed('/core/pods/'),
            [
              '/core/pods/a',
              '/core/pods/a-/z',
              '/core/pods/a/b',
              '/core/pods/a/x',
              '/core/pods/a/\u00e9t\u00e9',
              '/core/pods/a/\uffff',
              '/core/pods/a/\uffff\uffff',
              '/core/pods/a0',
              '/core/pods/a0/q',
              '/core/pods/ab/y',
            ],
            "list('/core/pods/')",
          );
          assertDeepEqual(await listed('/core/pods/a/\uffff'), ['/core/pods/a/\uffff', '/core/pods/a/\uffff\uffff'], 'prefix ending in U+FFFF');
          assertDeepEqual(await listed('/core/pods/a/x'), ['/core/pods/a/x'], 'a full key as prefix');
          assertDeepEqual(await listed('/core/pods/b/'), [], 'empty prefix range');
          assertDeepEqual(await listed('/zzz/'), [], 'prefix after every key');
          assertDeepEqual(await listed(''), [...keys].sort(), "list('') is every key in order");
          const items = await s.list('/core/pods/a/');
          assertDeepEqual(
            items[0],
            { key: '/core/pods/a/b', object: { kind: 'Pod', metadata: { name: '/core/pods/a/b', resourceVersion: '8' } }, revision: 8 },
            'a listed item',
          );
        }),
    },
    {
      name: 'objects handed in are copied, objects handed out are deeply frozen: no caller can change the store',
      run: (make) =>
        withStorage(make, async (s) => {
          const k = podKey('d', 'a');
          const input = pod('d', 'a');
          const r1 = await mustWrite(s, [put(k, input)], T0 + 1);
          const expected1 = at(pod('d', 'a'), 1);
          (input.metadata!.labels as Record<string, string>).app = 'mutated-input';
          (input.spec as { containers: { image: string }[] }).containers[0].image = 'mutated';
          assertDeeplyFrozen(r1.events[0], 'the event returned by write');
          assertThrows(() => ((r1.events[0].object.metadata!.labels as Record<string, string>).app = 'mutated-event'), 'changing a label of the returned event');
          assertDeepEqual((await s.get(k))?.object, expected1, 'after mutating the input and trying the returned event');

          const got = await s.get(k);
          assertDeeplyFrozen(got, 'a get result');
          assertThrows(() => (got!.object.metadata!.name = 'changed'), 'changing the name of a get result');
          assertThrows(() => (got!.object.spec as { containers: unknown[] }).containers.push({ name: 'extra' }), 'adding a container to a get result');
          assertThrows(() => (got!.revision = 42), 'changing the revision of a get result');
          assertThrows(() => delete (got!.object as Record<string, unknown>).spec, 'deleting the spec of a get result');
          assertDeepEqual(await s.get(k), { key: k, object: expected1, revision: 1 }, 'after trying to change a get result');

          const listed = await s.list('/core/pods/');
          assertDeeplyFrozen(listed[0], 'a list item');
          assertThrows(() => (listed[0].object.metadata!.labels = {}), 'replacing the labels of a list item');
          listed.push(listed[0]); // the array is the caller's
          assertDeepEqual((await s.list('/core/pods/')).map((i) => i.object), [expected1], 'after changing a list result');

          const r2 = await mustWrite(s, [put(k, pod('d', 'a', 'v2'))], T0 + 2);
          assertDeeplyFrozen(r2.events[0], 'the MODIFIED event returned by write');
          assertThrows(() => ((r2.events[0].prevObject!.spec as { containers: unknown[] }).containers.length = 0), 'emptying the containers of a prevObject');
          const ev = await s.events(0);
          assertDeeplyFrozen(ev[0], 'a history entry');
          assertDeeplyFrozen(ev[1], 'a history entry with prevObject');
          assertThrows(() => ((ev[1].prevObject!.metadata!.labels as Record<string, string>).x = 'y'), 'adding a label to a prevObject');
          assertThrows(() => (ev[0].object.kind = 'Changed'), 'changing the kind of a history object');
          assertThrows(() => (ev[1].revision = 7), 'changing the revision of a history entry');
          ev.length = 0; // the array is the caller's
          assertDeepEqual(
            await s.events(0),
            [
              { revision: 1, type: 'ADDED', key: k, object: expected1, time: T0 + 1 },
              { revision: 2, type: 'MODIFIED', key: k, object: at(pod('d', 'a', 'v2'), 2), prevObject: expected1, time: T0 + 2 },
            ],
            'history after trying to change returned events',
          );
          const r3 = await mustWrite(s, [del(k)], T0 + 3);
          assertDeeplyFrozen(r3.events[0], 'the DELETED event returned by write');
          assertDeepEqual((await s.events(2))[0].object, at(pod('d', 'a', 'v2'), 3), 'the DELETED entry: last state at the deletion revision');
        }),
    },
    {
      name: 'events(after) returns the exact history after a revision, with prevObject for MODIFIED and DELETED',
      run: (make) =>
        withStorage(make, async (s) => {
          const A1 = pod('h', 'a');
          const B1 = pod('h', 'b');
          const A2 = pod('h', 'a', 'v2');
          const C1 = pod('h', 'c');
          const A3 = pod('h', 'a', 'v3', { app: 'a', tier: 'web' });
          await mustWrite(s, [put(podKey('h', 'a'), A1)], T0 + 10);
          await mustWrite(s, [put(podKey('h', 'b'), B1)], T0 + 20);
          await mustWrite(s, [put(podKey('h', 'a'), A2, 1)], T0 + 30);
          await mustWrite(s, [del(podKey('h', 'b'))], T0 + 40);
          const r5 = await mustWrite(s, [put(podKey('h', 'c'), C1, 0), put(podKey('h', 'a'), A3, 3)], T0 + 50);
          const all: HistoryEvent[] = [
            { revision: 1, type: 'ADDED', key: podKey('h', 'a'), object: at(A1, 1), time: T0 + 10 },
            { revision: 2, type: 'ADDED', key: podKey('h', 'b'), object: at(B1, 2), time: T0 + 20 },
            { revision: 3, type: 'MODIFIED', key: podKey('h', 'a'), object: at(A2, 3), prevObject: at(A1, 1), time: T0 + 30 },
            { revision: 4, type: 'DELETED', key: podKey('h', 'b'), object: at(B1, 4), prevObject: at(B1, 2), time: T0 + 40 },
            { revision: 5, type: 'ADDED', key: podKey('h', 'c'), object: at(C1, 5), time: T0 + 50 },
            { revision: 5, type: 'MODIFIED', key: podKey('h', 'a'), object: at(A3, 5), prevObject: at(A2, 3), time: T0 + 50 },
          ];
          assertDeepEqual(await s.events(0), all, 'events(0)');
          assertDeepEqual(await s.events(2), all.slice(2), 'events(2)');
          assertDeepEqual(await s.events(4), all.slice(4), 'events(4)');
          assertDeepEqual(r5.events, all.slice(4), 'events returned by the write equal the history');
          assertDeepEqual(await s.events(5), [], 'events(current revision)');
          assertDeepEqual(await s.events(99), [], 'events(after the current revision)');
          assertEqual(await s.revision(), 5, 'revision()');
        }),
    },
    {
      name: 'readAll (where a backend has it) is revision, compacted revision, list and events read together',
      run: (make) =>
        withStorage(make, async (s) => {
          if (!s.readAll) return;
          const same = async (what: string) => {
            const all = await s.readAll!();
            const c = await s.compactedRevision();
            assertDeepEqual(
              all,
              { revision: await s.revision(), compactedRevision: c, objects: await s.list(''), events: await s.events(c) },
              `readAll ${what}`,
            );
            assert(Object.isFrozen(all.objects[0]?.object ?? {}) && all.events.every((e) => Object.isFrozen(e) && Object.isFrozen(e.object)), `readAll ${what}: frozen`);
            all.objects.push(all.objects[0]);
            all.events.length = 0;
            assertDeepEqual((await s.readAll!()).objects, await s.list(''), `readAll ${what}: the arrays are the caller's`);
          };
          assertDeepEqual(await s.readAll(), { revision: 0, compactedRevision: 0, objects: [], events: [] }, 'readAll of an empty store');
          await mustWrite(s, [put(podKey('r', 'a'), pod('r', 'a'))], T0 + 10);
          await mustWrite(s, [put(podKey('r', 'b'), pod('r', 'b')), put(podKey('r', 'c'), pod('r', 'c'))], T0 + 20);
          await mustWrite(s, [put(podKey('r', 'a'), pod('r', 'a', 'v2'))], T0 + 30);
          await mustWrite(s, [del(podKey('r', 'b'))], T0 + 40);
          await mustWrite(s, [put(podKey('r', 'b'), pod('r', 'b', 'v3')), put(podKey('r', 'a'), pod('r', 'a', 'v3'))], T0 + 50);
          await mustWrite(s, [del(podKey('r', 'c'))], T0 + 60);
          await same('after writes and deletes');
          assertEqual(await s.compact(T0 + 35), 3, 'compact');
          await same('after compaction');
        }),
    },
    {
      name: 'readKeys (where a backend has it) is revision, compacted revision and the objects of the keys read together',
      run: (make) =>
        withStorage(make, async (s) => {
          if (!s.readKeys) return;
          assertDeepEqual(await s.readKeys([podKey('k', 'a')]), { revision: 0, compactedRevision: 0, objects: [] }, 'readKeys of an empty store');
          await mustWrite(s, [put(podKey('k', 'a'), pod('k', 'a')), put(podKey('k', 'b'), pod('k', 'b'))], T0 + 10);
          await mustWrite(s, [put(podKey('k', 'a'), pod('k', 'a', 'v2'))], T0 + 20);
          await mustWrite(s, [del(podKey('k', 'b'))], T0 + 30);
          assertEqual(await s.compact(T0 + 15), 1, 'compact');
          const got = await s.readKeys([podKey('k', 'b'), podKey('k', 'a'), podKey('k', 'zz')]);
          assertDeepEqual(got, { revision: 3, compactedRevision: 1, objects: [(await s.get(podKey('k', 'a')))!] }, 'readKeys after writes, a delete and compaction');
          assert(Object.isFrozen(got.objects[0]) && Object.isFrozen(got.objects[0].object), 'readKeys: frozen');
          assertEqual(got.objects[0].object.metadata?.resourceVersion, '2', 'readKeys: the stored state');
        }),
    },
    {
      name: 'compaction by time drops old history; events(older than compacted) throws StorageCompactedError',
      run: (make) =>
        withStorage(make, async (s) => {
          for (let i = 1; i <= 4; i++) await mustWrite(s, [put(podKey('c', `p${i}`), pod('c', `p${i}`))], T0 + i * 1000);
          const all = await s.events(0);
          assertEqual(all.length, 4, 'history length before compaction');

          assertEqual(await s.compact(T0 + 2500), 2, 'compact(before t3) drops revisions 1 and 2');
          assertEqual(await s.compactedRevision(), 2, 'compactedRevision()');
          assertDeepEqual(await s.events(2), all.slice(2), 'events(compacted revision) still works');
          assertDeepEqual(await s.events(3), all.slice(3), 'events(3)');
          let err = await assertRejects(() => s.events(1), StorageCompactedError, 'events(1) after compacting revision 2');
          assertEqual(err.requested, 1, 'StorageCompactedError.requested');
          assertEqual(err.compacted, 2, 'StorageCompactedError.compacted');
          await assertRejects(() => s.events(0), StorageCompactedError, 'events(0) after compaction');

          assertEqual(await s.compact(T0 + 2500), 2, 'compacting again at the same time changes nothing');
          assertEqual(await s.compact(T0 + 1000), 2, 'compacting at an older time never goes backwards');
          assertEqual(await s.compact(T0 + 3000), 2, 'an entry written exactly at beforeTime is kept');
          assertDeepEqual(await s.events(2), all.slice(2), 'history after the no-op compactions');
          assertEqual(await s.compact(T0 + 3001), 3, 'compact just after t3');
          assertEqual(await s.compactedRevision(), 3, 'compactedRevision() after the second compaction');

          assertEqual(await s.compact(T0 + 1_000_000), 4, 'compacting everything');
          assertDeepEqual(await s.events(4), [], 'events(revision) with an empty history');
          err = await assertRejects(() => s.events(3), StorageCompactedError, 'events(3) after compacting all');
          assertEqual(err.compacted, 4, 'compacted revision in the error');

          // Objects are not history: compaction leaves them alone.
          assertDeepEqual(
            (await s.list('/core/pods/c/')).map((o) => [o.key, o.revision]),
            [1, 2, 3, 4].map((i) => [podKey('c', `p${i}`), i]),
            'objects after compaction',
          );
        }),
    },
    {
      name: 'after a clock step backwards, compaction drops only the unbroken run of oldest old entries',
      run: (make) =>
        withStorage(make, async (s) => {
          const times = [1000, 3000, 2000, 4000];
          for (let i = 0; i < times.length; i++) await mustWrite(s, [put(podKey('cb', `p${i}`), pod('cb', `p${i}`))], T0 + times[i]);
          const all = await s.events(0);
          // Revision 3 (t=2000) is older than 2500 but revision 2 (t=3000) is not: the run stops at 1.
          assertEqual(await s.compact(T0 + 2500), 1, 'compact(2500)');
          assertDeepEqual(await s.events(1), all.slice(1), 'history keeps revisions 2..4');
          assertEqual(await s.compact(T0 + 3500), 3, 'compact(3500) drops revisions 2 and 3');
          assertDeepEqual(await s.events(3), all.slice(3), 'history keeps revision 4');
          await assertRejects(() => s.events(2), StorageCompactedError, 'events(2)');
        }),
    },
    {
      name: 'the revision never goes backwards after compaction and deletes',
      run: (make) =>
        withStorage(make, async (s) => {
          await mustWrite(s, [put(podKey('r', 'a'), pod('r', 'a'))], T0 + 1);
          await mustWrite(s, [put(podKey('r', 'b'), pod('r', 'b'))], T0 + 2);
          await mustWrite(s, [del(podKey('r', 'a')), del(podKey('r', 'b'))], T0 + 3);
          assertDeepEqual(await s.list(''), [], 'no objects left');
          assertEqual(await s.revision(), 3, 'revision() after deleting everything');
          await assertRejects(() => s.compact(Number.NaN), TypeError, 'compact(NaN)');
          await assertRejects(() => s.events(Number.NaN), TypeError, 'events(NaN)');
          assertEqual(await s.compact(Number.POSITIVE_INFINITY), 3, 'compact(Infinity) drops everything');
          assertEqual(await s.revision(), 3, 'revision() after compacting everything');
          const r = await mustWrite(s, [put(podKey('r', 'a'), pod('r', 'a'), 0)], T0 + 4);
          assertEqual(r.revision, 4, 'next write after compaction');
          assertDeepEqual(await s.events(3), r.events, 'history after the compaction point');
          assertEqual(await s.compactedRevision(), 3, 'compactedRevision() unchanged by a write');
        }),
    },
    {
      name: 'concurrent writes serialise with unique consecutive revisions',
      run: (make) =>
        withStorage(make, async (s) => {
          const n = 40;
          const results = await Promise.all(
            Array.from({ length: n }, (_, i) => s.write([put(podKey('cc', `p${i}`), pod('cc', `p${i}`), 0)], T0 + i)),
          );
          const revs: number[] = [];
          for (let i = 0; i < n; i++) {
            const r = results[i];
            if (!r.ok) fail(`concurrent write ${i} failed: ${JSON.stringify(r)}`);
            revs.push(r.revision);
            assertEqual(r.events[0].key, podKey('cc', `p${i}`), `event key of write ${i}`);
            assertEqual(r.events[0].object.metadata?.resourceVersion, String(r.revision), `resourceVersion of write ${i}`);
            assertEqual((await s.get(podKey('cc', `p${i}`)))?.revision, r.revision, `stored revision of write ${i}`);
          }
          assertDeepEqual(
            [...revs].sort((a, b) => a - b),
            Array.from({ length: n }, (_, i) => i + 1),
            'revisions of the concurrent writes',
          );
          const history = await s.events(0);
          assertDeepEqual(history.map((e) => e.revision), Array.from({ length: n }, (_, i) => i + 1), 'history revisions');
          for (const e of history) {
            const i = revs.indexOf(e.revision);
            assertEqual(e.key, podKey('cc', `p${i}`), `history entry at revision ${e.revision}`);
          }

          // Racing creates of one key: exactly one wins.
          const k = podKey('cc', 'race');
          const creates = await Promise.all(Array.from({ length: 10 }, (_, i) => s.write([put(k, pod('cc', 'race', `img${i}`), 0)], T0 + 100)));
          const won = creates.filter((r) => r.ok);
          assertEqual(won.length, 1, 'number of successful racing creates');
          const winRev = (won[0] as { revision: number }).revision;
          assertEqual(winRev, n + 1, 'revision of the winning create');
          for (const r of creates) {
            if (!r.ok) assertDeepEqual(r, { ok: false, failedKey: k, reason: 'exists', currentRevision: winRev }, 'a losing create');
          }

          // Racing updates from the same read: exactly one wins, the rest see a conflict.
          const updates = await Promise.all(
            Array.from({ length: 10 }, (_, i) => s.write([put(k, pod('cc', 'race', `upd${i}`), winRev)], T0 + 200)),
          );
          assertEqual(updates.filter((r) => r.ok).length, 1, 'number of successful racing updates');
          for (const r of updates) {
            if (!r.ok) assertDeepEqual(r, { ok: false, failedKey: k, reason: 'revision-mismatch', currentRevision: n + 2 }, 'a losing update');
          }
          assertEqual(await s.revision(), n + 2, 'revision() after the races');
        }),
    },
    {
      name: 'large values (~2 KiB x 2,000) round trip through write, get and list',
      run: (make) =>
        withStorage(make, async (s) => {
          const count = 2000;
          const objs = Array.from({ length: count }, (_, i) => bigConfigMap(i));
          const size = JSON.stringify(objs[0]).length;
          assert(size > 1800 && size < 3000, `test object size should be ~2 KiB, is ${size} bytes`);
          const key = (i: number) => `/core/configmaps/bulk/cm-${String(i).padStart(5, '0')}`;
          // Reverse insertion order, in writes of 100 ops: list order must come from the keys.
          for (let start = count - 100; start >= 0; start -= 100) {
            const ops: WriteOp[] = [];
            for (let i = start + 99; i >= start; i--) ops.push(put(key(i), objs[i], 0));
            await mustWrite(s, ops, T0 + start);
          }
          assertEqual(await s.revision(), count / 100, 'revision() after the bulk writes');
          const listed = await s.list('/core/configmaps/bulk/');
          assertEqual(listed.length, count, 'number of listed objects');
          for (let i = 0; i < count; i++) {
            const rev = (count - Math.floor(i / 100) * 100) / 100;
            assertDeepEqual(listed[i], { key: key(i), object: at(objs[i], rev), revision: rev }, `listed object ${i}`);
          }
          assertDeepEqual((await s.get(key(1234)))?.object, at(objs[1234], 8), 'get of one large object');

          // One much larger object too (~256 KiB).
          const huge: KubeObject = { kind: 'Blob', metadata: { name: 'huge' }, data: { payload: '\u263a0123456789abcdef'.repeat(15_000) } };
          await mustWrite(s, [put('/core/configmaps/bulk/zz-huge', huge)], T0 + 5000);
          assertDeepEqual((await s.get('/core/configmaps/bulk/zz-huge'))?.object, at(huge, count / 100 + 1), 'a ~256 KiB object');
        }),
    },
    {
      name: 'objects, revision, history and compacted revision survive close and reopen',
      requiresReopen: true,
      run: async (make, reopen) => {
        if (!reopen) return;
        let s = await make();
        try {
          const a = pod('p', 'a');
          const b = pod('p', 'b');
          await mustWrite(s, [put(podKey('p', 'a'), a)], T0 + 1000);
          await mustWrite(s, [put(podKey('p', 'b'), b)], T0 + 2000);
          await mustWrite(s, [put(podKey('p', 'a'), pod('p', 'a', 'v2'), 1)], T0 + 3000);
          await mustWrite(s, [del(podKey('p', 'b'), 2)], T0 + 4000);
          assertEqual(await s.compact(T0 + 2500), 2, 'compact before reopen');
          const objects = await s.list('');
          const history = await s.events(2);
          await s.close();
          s = await reopen(s);

          assertEqual(await s.revision(), 4, 'revision() after reopen');
          assertEqual(await s.compactedRevision(), 2, 'compactedRevision() after reopen');
          assertDeepEqual(await s.list(''), objects, 'objects after reopen');
          assertDeepEqual(await s.events(2), history, 'history after reopen');
          await assertRejects(() => s.events(1), StorageCompactedError, 'events(1) after reopen');

          const r = await mustWrite(s, [put(podKey('p', 'b'), b, 0)], T0 + 5000);
          assertEqual(r.revision, 5, 'the first write after reopen continues the count');
          assertEqual(await s.compact(T0 + 4500), 4, 'compact after reopen');
          await s.close();
          s = await reopen(s);
          assertEqual(await s.revision(), 5, 'revision() after the second reopen');
          assertEqual(await s.compactedRevision(), 4, 'compactedRevision() after the second reopen');
          assertDeepEqual(await s.events(4), r.events, 'history after the second reopen');
          assertDeepEqual(
            (await s.list('')).map((o) => [o.key, o.revision, o.object.metadata?.resourceVersion]),
            [
              [podKey('p', 'a'), 3, '3'],
              [podKey('p', 'b'), 5, '5'],
            ],
            'objects after the second reopen',
          );
        } finally {
          await s.close();
        }
      },
    },
  ];
}
