// File-backed Storage for the Node host (`npm run serve -- --data DIR`): the cluster survives restarts with
// the guarantee IndexedDB gives the browser host, one durable transaction per write.
//
// The state lives in memory (a memory storage answers every read); the directory holds how to rebuild it:
//   snapshot.json        the whole state at some point (objects, history, revision, compacted revision) and
//                        its generation g; absent until the first snapshot
//   journal-<g>.log      every transaction committed since that snapshot, in order
//   lock                 the pid of the process using the directory
// A journal record is [payload length: u32 LE][CRC-32 of the payload: u32 LE][payload: JSON]. A write is
// planned against the current state (preconditions checked, nothing journaled when they fail), appended as
// one record and fsynced, and only then applied in memory and acknowledged. On open, records are replayed
// up to the first one that is short or fails its checksum (a write torn by a crash, never acknowledged);
// the file is cut there. Every `snapshotEvery` records (or `snapshotBytes` of journal) the state is written
// to a temp file, fsynced and renamed over snapshot.json with generation g + 1, then journal g + 1 starts
// and journal g is removed: a crash at any step leaves either the old snapshot with its journal or the new
// one. A failed snapshot never fails the write that triggered it (it is retried after later writes).

import { closeSync, fsyncSync, openSync } from 'node:fs';
import { mkdir, open, readFile, readdir, rename, unlink, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { HistoryEvent, Storage, StorageContents, StorageKey, StorageRecords, StoredObject, WriteOp, WriteResult } from '../../engine/storage/interface.js';
import { memoryStorageFromState, type MemoryState } from '../memory/memory-storage.js';
import { assertValidWrite, planWrite } from '../memory/write-plan.js';

export interface FileStorageOptions {
  dir: string;
  /** Journal records after which the state is snapshotted (default 1000). */
  snapshotEvery?: number;
  /** Journal size in bytes after which the state is snapshotted (default 16 MiB). */
  snapshotBytes?: number;
}

type JournalRecord =
  | { t: 'write'; revision: number; time: number; ops: WriteOp[] }
  | { t: 'compact'; before: number };

interface SnapshotFile extends MemoryState {
  format: 'kube-playground-snapshot';
  version: 1;
  generation: number;
}

const SNAPSHOT = 'snapshot.json';
const HEADER = 8;

function journalName(generation: number): string {
  return `journal-${generation}.log`;
}

export function encodeRecord(record: JournalRecord): Buffer {
  const payload = Buffer.from(JSON.stringify(record), 'utf8');
  const out = Buffer.allocUnsafe(HEADER + payload.length);
  out.writeUInt32LE(payload.length, 0);
  out.writeUInt32LE(crc32(payload), 4);
  payload.copy(out, HEADER);
  return out;
}

/** The whole records of a journal, and the length of the intact prefix they fill. */
export function decodeJournal(buf: Buffer): { records: JournalRecord[]; validLength: number } {
  const records: JournalRecord[] = [];
  let at = 0;
  while (buf.length - at >= HEADER) {
    const len = buf.readUInt32LE(at);
    const sum = buf.readUInt32LE(at + 4);
    if (buf.length - at - HEADER < len) break;
    const payload = buf.subarray(at + HEADER, at + HEADER + len);
    if (crc32(payload) !== sum) break;
    let record: JournalRecord;
    try {
      record = JSON.parse(payload.toString('utf8')) as JournalRecord;
    } catch {
      break;
    }
    records.push(record);
    at += HEADER + len;
  }
  return { records, validLength: at };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function takeLock(dir: string): Promise<string> {
  const path = join(dir, 'lock');
  try {
    const held = Number((await readFile(path, 'utf8')).trim());
    if (Number.isInteger(held) && held > 0 && held !== process.pid && isAlive(held)) {
      throw new Error(`storage: the data directory ${dir} is in use by process ${held}`);
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  await writeFile(path, `${process.pid}\n`);
  return path;
}

function syncDir(dir: string): void {
  // makes renames and new files durable (directories cannot be fsynced everywhere; best effort)
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // not supported on this platform
  }
}

export async function openFileStorage(opts: FileStorageOptions): Promise<Storage> {
  const dir = opts.dir;
  await mkdir(dir, { recursive: true });
  const lock = await takeLock(dir);
  try {
    let generation = 0;
    let state: MemoryState | undefined;
    try {
      const snap = JSON.parse(await readFile(join(dir, SNAPSHOT), 'utf8')) as SnapshotFile;
      if (snap.format !== 'kube-playground-snapshot' || snap.version !== 1) {
        throw new Error(`storage: ${join(dir, SNAPSHOT)} is not a snapshot this version can read`);
      }
      generation = snap.generation;
      state = { revision: snap.revision, compacted: snap.compacted, objects: snap.objects, history: snap.history };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    // leftovers of an interrupted snapshot: older journals and the temp file
    for (const f of await readdir(dir)) {
      if ((/^journal-\d+\.log$/.test(f) && f !== journalName(generation)) || f === `${SNAPSHOT}.tmp`) await unlink(join(dir, f));
    }
    const mem = memoryStorageFromState(state);
    const journalPath = join(dir, journalName(generation));
    let buf: Buffer;
    try {
      buf = await readFile(journalPath);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      buf = Buffer.alloc(0);
    }
    const { records, validLength } = decodeJournal(buf);
    for (const r of records) {
      if (r.t === 'write') {
        const res = await mem.write(r.ops, r.time);
        if (!res.ok || res.revision !== r.revision) {
          throw new Error(`storage: ${journalPath} does not replay: the record of revision ${r.revision} gave ${JSON.stringify(res.ok ? res.revision : res)}`);
        }
      } else {
        await mem.compact(r.before);
      }
    }
    const journal = await open(journalPath, 'a');
    if (validLength < buf.length) {
      await journal.truncate(validLength); // a torn tail: never acknowledged, cut it so appends follow the last whole record
      await journal.sync();
    }
    syncDir(dir);
    return new FileStorage(dir, lock, mem, generation, journal, validLength, records.length, opts);
  } catch (e) {
    await unlink(lock).catch(() => undefined);
    throw e;
  }
}

class FileStorage implements Storage {
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** Set when the journal could not be restored after a failed append: writes are refused from then on. */
  private broken: Error | undefined;
  private readonly snapshotEvery: number;
  private readonly snapshotBytes: number;

  constructor(
    private readonly dir: string,
    private readonly lockPath: string,
    private readonly mem: Storage & { exportState(): MemoryState },
    private generation: number,
    private journal: FileHandle,
    private journalBytes: number,
    private journalRecords: number,
    opts: FileStorageOptions,
  ) {
    this.snapshotEvery = opts.snapshotEvery ?? 1000;
    this.snapshotBytes = opts.snapshotBytes ?? 16 * 1024 * 1024;
  }

  private check(): void {
    if (this.closed) throw new Error(`storage: the file storage in ${this.dir} is closed`);
  }

  /** Runs mutations one at a time, in call order. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  async revision(): Promise<number> {
    this.check();
    return this.mem.revision();
  }

  async compactedRevision(): Promise<number> {
    this.check();
    return this.mem.compactedRevision();
  }

  async get(key: StorageKey): Promise<StoredObject | undefined> {
    this.check();
    return this.mem.get(key);
  }

  async list(prefix: StorageKey): Promise<StoredObject[]> {
    this.check();
    return this.mem.list(prefix);
  }

  async events(after: number): Promise<HistoryEvent[]> {
    this.check();
    return this.mem.events(after);
  }

  async readAll(): Promise<StorageContents> {
    this.check();
    return this.mem.readAll!();
  }

  async readKeys(keys: StorageKey[]): Promise<StorageRecords> {
    this.check();
    return this.mem.readKeys!(keys);
  }

  write(ops: WriteOp[], time: number): Promise<WriteResult> {
    return this.serial(async () => {
      this.check();
      assertValidWrite(ops, time);
      if (ops.length === 0) return this.mem.write(ops, time);
      const revision = (await this.mem.revision()) + 1;
      const current = await Promise.all(ops.map((op) => this.mem.get(op.key)));
      const plan = planWrite(ops, current, revision, time);
      if (!plan.ok) return plan;
      // preconditions hold now and nothing else runs until this write is done: journal the ops without them
      const record: JournalRecord = {
        t: 'write',
        revision,
        time,
        ops: ops.map((op) => (op.kind === 'put' ? { kind: 'put', key: op.key, object: op.object } : { kind: 'delete', key: op.key })),
      };
      await this.append(record);
      const result = await this.mem.write(record.ops, time);
      await this.maybeSnapshot();
      return result;
    });
  }

  compact(beforeTime: number): Promise<number> {
    return this.serial(async () => {
      this.check();
      const before = await this.mem.compactedRevision();
      const compacted = await this.mem.compact(beforeTime);
      if (compacted === before) return compacted; // nothing dropped: nothing to journal
      // Dropping history acknowledges no client write: if this record is lost, a restart merely keeps
      // some history longer, until the next compaction.
      await this.append({ t: 'compact', before: beforeTime === Infinity ? Number.MAX_VALUE : beforeTime });
      await this.maybeSnapshot();
      return compacted;
    });
  }

  /** Appends one record and makes it durable; on failure the journal is cut back to its last whole record. */
  private async append(record: JournalRecord): Promise<void> {
    if (this.broken) throw this.broken;
    const bytes = encodeRecord(record);
    try {
      await this.journal.write(bytes, 0, bytes.length, null);
      await this.journal.datasync();
    } catch (e) {
      try {
        await this.journal.truncate(this.journalBytes);
        await this.journal.datasync();
      } catch (cut) {
        this.broken = new Error(`storage: the journal in ${this.dir} could not be restored after a failed write (${String(cut)}); restart the host`);
      }
      throw e;
    }
    this.journalBytes += bytes.length;
    this.journalRecords++;
  }

  private async maybeSnapshot(): Promise<void> {
    if (this.journalRecords < this.snapshotEvery && this.journalBytes < this.snapshotBytes) return;
    try {
      await this.snapshot();
    } catch {
      // the journal still holds everything; try again after the next write
    }
  }

  /** Writes the whole state as snapshot generation g + 1 and starts its (empty) journal. */
  async snapshot(): Promise<void> {
    const next = this.generation + 1;
    const state = this.mem.exportState();
    const snap: SnapshotFile = { format: 'kube-playground-snapshot', version: 1, generation: next, ...state };
    const tmp = join(this.dir, `${SNAPSHOT}.tmp`);
    const fh = await open(tmp, 'w');
    try {
      await fh.writeFile(JSON.stringify(snap));
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, join(this.dir, SNAPSHOT));
    syncDir(this.dir);
    const journal = await open(join(this.dir, journalName(next)), 'a');
    syncDir(this.dir);
    const old = this.journal;
    const oldPath = join(this.dir, journalName(this.generation));
    this.journal = journal;
    this.generation = next;
    this.journalBytes = 0;
    this.journalRecords = 0;
    await old.close();
    await unlink(oldPath).catch(() => undefined);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.queue;
    if (this.closed) return;
    this.closed = true;
    await this.journal.close().catch(() => undefined);
    await this.mem.close();
    await unlink(this.lockPath).catch(() => undefined);
  }
}
