import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../../engine/testing/harness.js';
import { findHistoryWindow, parseTooOld } from './window.js';

const CM = '/api/v1/namespaces/default/configmaps';
let c: TestClient;
afterEach(async () => c?.server.close());

const probeFetch = (p: string, signal?: AbortSignal) => c.server.handle(new Request(`http://127.0.0.1${p}`, { signal, headers: { Accept: 'application/json' } }));

async function firstWatchEvent(path: string): Promise<{ type: string; object: { code?: number; message?: string } } | undefined> {
  const ctl = new AbortController();
  const res = await c.server.handle(new Request(`http://127.0.0.1${path}`, { signal: ctl.signal }));
  const reader = res.body!.getReader();
  const first = await Promise.race([reader.read(), new Promise<undefined>((r) => setTimeout(() => r(undefined), 50))]);
  void reader.cancel();
  ctl.abort();
  return first?.value ? JSON.parse(new TextDecoder().decode(first.value).split('\n')[0]) : undefined;
}

describe('parseTooOld', () => {
  it('reads both numbers of the watch cache message and nothing else', () => {
    expect(parseTooOld('too old resource version: 1 (57)')).toEqual({ requested: 1, oldest: 57 });
    expect(parseTooOld('The resourceVersion for the provided list is too old.')).toBeUndefined();
    expect(parseTooOld(undefined)).toBeUndefined();
  });
});

describe('findHistoryWindow against the engine', () => {
  it('nothing compacted: the list at revision 1 answers, the window starts at 1', async () => {
    c = await testClient(createMemoryStorage(), { defaultObjects: false });
    await c.req('POST', CM, { metadata: { name: 'a' } });
    expect(await findHistoryWindow(probeFetch)).toEqual({ start: 1, via: 'list' });
  });

  it('after compaction: the watch 410 names the smallest revision a watch and an Exact list still accept', async () => {
    const storage = createMemoryStorage();
    c = await testClient(storage, { historyWindowMs: 1000, defaultObjects: false });
    for (const n of ['a', 'b', 'c']) await c.req('POST', CM, { metadata: { name: n } });
    await c.env.advance(5000);
    await c.req('POST', CM, { metadata: { name: 'd' } });
    await c.req('PUT', `${CM}/a`, { metadata: { name: 'a' }, data: { x: '1' } });
    const w = await findHistoryWindow(probeFetch);
    expect(w.via).toBe('watch');
    const compacted = await storage.compactedRevision();
    expect(w.start).toBe(compacted);
    expect(w.start).toBeGreaterThan(1);
    // the state at the start is served; one revision earlier is not
    expect((await c.req('GET', `${CM}?resourceVersion=${w.start}&resourceVersionMatch=Exact`)).status).toBe(200);
    expect((await c.req('GET', `${CM}?resourceVersion=${w.start - 1}&resourceVersionMatch=Exact`)).status).toBe(410);
    // a watch from the start replays the changes after it (d created, a updated); one earlier is 410
    const ok = await firstWatchEvent(`${CM}?watch=true&resourceVersion=${w.start}`);
    expect(ok?.type).toBe('ADDED');
    const old = await firstWatchEvent(`${CM}?watch=true&resourceVersion=${w.start - 1}`);
    expect(old).toMatchObject({ type: 'ERROR', object: { code: 410, message: `too old resource version: ${w.start - 1} (${w.start})` } });
  });

  it('an answer that says neither is an error, not a guess', async () => {
    const fake = async (p: string) => (p.includes('watch') ? new Response('{"type":"ADDED","object":{}}\n') : new Response('{}', { status: 410 }));
    await expect(findHistoryWindow(fake)).rejects.toThrow(/did not say where history starts/);
    await expect(findHistoryWindow(async () => new Response('{}', { status: 403 }))).rejects.toThrow(/answered 403/);
  });
});
