// The file backend passes the one storage conformance suite (persistence cases included: reopen is a new
// openFileStorage over the same directory), keeps every committed write across restarts, and drops a
// record torn by a crash instead of failing to start.
import { mkdtempSync, readFileSync, readdirSync, statSync, truncateSync, appendFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import type { Storage, WriteOp } from '../../engine/storage/interface.js';
import { storageConformanceCases } from '../../engine/storage/testing/index.js';
import { decodeJournal, encodeRecord, openFileStorage } from './file-storage.js';

const root = mkdtempSync(join(tmpdir(), 'file-storage-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let seq = 0;
const dirs = new WeakMap<Storage, string>();

async function openIn(dir: string, opts: { snapshotEvery?: number } = {}): Promise<Storage> {
  const s = await openFileStorage({ dir, ...opts });
  dirs.set(s, dir);
  return s;
}

const make = (opts: { snapshotEvery?: number } = {}) => () => openIn(join(root, `s${++seq}`), opts);
const reopen = (opts: { snapshotEvery?: number } = {}) => async (old: Storage) => openIn(dirs.get(old)!, opts);

describe('storage conformance: file backend', () => {
  for (const c of storageConformanceCases()) it(c.name, () => c.run(make(), reopen()));
});

describe('storage conformance: file backend, snapshotting after every 3 records', () => {
  for (const c of storageConformanceCases()) it(c.name, () => c.run(make({ snapshotEvery: 3 }), reopen({ snapshotEvery: 3 })));
});

const pod = (name: string, image = 'nginx') => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'd' }, spec: { containers: [{ name: 'c', image }] } });
const put = (name: string, expectRevision?: number, image?: string): WriteOp => ({ kind: 'put', key: `/core/pods/d/${name}`, object: pod(name, image), expectRevision });

describe('openFileStorage: restarts and crashes', () => {
  it('a restart sees every committed write, with its revision and history, across snapshots', async () => {
    const dir = join(root, 'restart');
    let s = await openFileStorage({ dir, snapshotEvery: 7 });
    const results = [];
    for (let i = 0; i < 25; i++) results.push(await s.write([put(`p${i}`, 0)], 1000 + i));
    await s.write([put('p3', 4, 'v2'), { kind: 'delete', key: '/core/pods/d/p4' }], 2000);
    expect(results.every((r) => r.ok)).toBe(true);
    const objects = await s.list('');
    const history = await s.events(0);
    await s.close();
    expect(readdirSync(dir).filter((f) => f.startsWith('journal-'))).toHaveLength(1);
    expect(readdirSync(dir)).toContain('snapshot.json');
    s = await openFileStorage({ dir, snapshotEvery: 7 });
    expect(await s.revision()).toBe(26);
    expect(await s.list('')).toEqual(objects);
    expect(await s.events(0)).toEqual(history);
    expect((await s.get('/core/pods/d/p3'))?.object.spec).toEqual({ containers: [{ name: 'c', image: 'v2' }] });
    expect(await s.get('/core/pods/d/p4')).toBeUndefined();
    await s.close();
  });

  it('a torn final record (a crash mid-append) is dropped; every whole record before it is kept; writes go on', async () => {
    const dir = join(root, 'torn');
    let s = await openFileStorage({ dir });
    for (let i = 0; i < 5; i++) await s.write([put(`p${i}`, 0)], 1000 + i);
    await s.close();
    const journal = join(dir, 'journal-0.log');
    const whole = statSync(journal).size;
    // the crash: the next record only partly written
    const next = encodeRecord({ t: 'write', revision: 6, time: 2000, ops: [put('torn')] });
    for (const cut of [1, 7, 8, 20, next.length - 1]) {
      truncateSync(journal, whole);
      appendFileSync(journal, next.subarray(0, cut));
      s = await openFileStorage({ dir });
      expect(await s.revision()).toBe(5);
      expect(await s.get('/core/pods/d/torn')).toBeUndefined();
      expect((await s.list('')).map((o) => o.object.metadata?.name)).toEqual(['p0', 'p1', 'p2', 'p3', 'p4']);
      await s.close();
      expect(statSync(journal).size).toBe(whole); // cut back to the last whole record
    }
    // a whole record whose bytes were damaged fails its checksum: dropped too
    const bad = Buffer.from(next);
    bad[bad.length - 3] ^= 0x20;
    appendFileSync(journal, bad);
    s = await openFileStorage({ dir });
    expect(await s.revision()).toBe(5);
    const r = await s.write([put('after', 0)], 3000);
    expect(r).toMatchObject({ ok: true, revision: 6 });
    await s.close();
    s = await openFileStorage({ dir });
    expect(await s.revision()).toBe(6);
    expect((await s.get('/core/pods/d/after'))?.object.metadata?.resourceVersion).toBe('6');
    await s.close();
    expect(decodeJournal(readFileSync(journal)).records.map((x) => (x.t === 'write' ? x.revision : -1))).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('a failed precondition journals nothing', async () => {
    const dir = join(root, 'precondition');
    const s = await openFileStorage({ dir });
    await s.write([put('a', 0)], 1);
    const size = statSync(join(dir, 'journal-0.log')).size;
    expect(await s.write([put('a', 0)], 2)).toMatchObject({ ok: false, reason: 'exists' });
    expect(await s.write([put('b', 7)], 2)).toMatchObject({ ok: false, reason: 'not-found' });
    expect(statSync(join(dir, 'journal-0.log')).size).toBe(size);
    await s.close();
  });

  it('a snapshot interrupted before its rename leaves the old snapshot and journal in charge', async () => {
    const dir = join(root, 'interrupted');
    let s = await openFileStorage({ dir });
    for (let i = 0; i < 3; i++) await s.write([put(`p${i}`, 0)], 1000 + i);
    await s.close();
    writeFileSync(join(dir, 'snapshot.json.tmp'), '{"format":"kube-playground-snap'); // the crash
    s = await openFileStorage({ dir });
    expect(await s.revision()).toBe(3);
    await s.close();
    expect(readdirSync(dir)).not.toContain('snapshot.json.tmp');
  });

  it('refuses a directory another live process holds', async () => {
    const dir = join(root, 'locked');
    const s = await openFileStorage({ dir });
    await s.close();
    writeFileSync(join(dir, 'lock'), `${process.ppid}\n`);
    await expect(openFileStorage({ dir })).rejects.toThrow(`storage: the data directory ${dir} is in use by process ${process.ppid}`);
    writeFileSync(join(dir, 'lock'), '999999999\n'); // a process that is gone
    const again = await openFileStorage({ dir });
    await again.close();
  });
});
