// The watch hub's bound on unread events: a watcher that stops reading is closed (as the real cacheWatcher
// closes slow watchers) instead of holding every later event in memory.
import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient } from '../testing/harness.js';
import { WATCH_QUEUE_LIMIT } from './hub.js';

const CM = '/api/v1/namespaces/default/configmaps';

async function readAll(body: ReadableStream<Uint8Array>): Promise<string[]> {
  const reader = body.getReader();
  const dec = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += dec.decode(value, { stream: true });
  }
  return text.split('\n').filter(Boolean);
}

describe('watch hub: slow watchers', () => {
  it(`a watch whose body is never read is closed once more than ${WATCH_QUEUE_LIMIT} events wait; a reading one stays open`, async () => {
    // from namespaces alone: the initial state is the one ConfigMap below
    const c = await testClient(createMemoryStorage(), { defaultObjects: false });
    expect((await c.req('POST', CM, { metadata: { name: 'w' } })).status).toBe(201);
    const stalled = await c.raw('GET', `${CM}?watch=1&resourceVersion=0`);
    const reading = await c.raw('GET', `${CM}?watch=1&resourceVersion=0`);
    const reader = reading.body!.getReader();
    let readEvents = 0;
    const dec = new TextDecoder();
    void (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        readEvents += dec.decode(value).split('\n').filter(Boolean).length;
      }
    })();
    expect(c.server.engine.watch.count).toBe(2);
    const writes = WATCH_QUEUE_LIMIT + 50;
    for (let i = 0; i < writes; i++) {
      const r = await c.req('PATCH', `${CM}/w`, { data: { n: String(i) } }, { 'Content-Type': 'application/merge-patch+json' });
      expect(r.status).toBe(200);
    }
    await new Promise((r) => setTimeout(r, 10));
    // the stalled watch is gone; the reading one saw the initial ADDED and every change
    expect(c.server.engine.watch.count).toBe(1);
    expect(readEvents).toBe(writes + 1);
    // what was queued before the close is still delivered, then the stream ends
    const lines = await readAll(stalled.body!);
    expect(lines.length).toBeGreaterThan(WATCH_QUEUE_LIMIT);
    expect(lines.length).toBeLessThanOrEqual(WATCH_QUEUE_LIMIT + 3);
    expect(JSON.parse(lines[0]).type).toBe('ADDED');
    expect(JSON.parse(lines[lines.length - 1]).type).toBe('MODIFIED');
    await reader.cancel();
  });

  it('the initial state does not count against the bound', async () => {
    const c = await testClient(createMemoryStorage());
    for (let i = 0; i < WATCH_QUEUE_LIMIT + 10; i++) {
      expect((await c.req('POST', CM, { metadata: { name: `cm-${i}` } })).status).toBe(201);
    }
    const w = await c.raw('GET', `${CM}?watch=1&resourceVersion=0`);
    expect(c.server.engine.watch.count).toBe(1);
    expect((await c.req('POST', CM, { metadata: { name: 'one-more' } })).status).toBe(201);
    expect(c.server.engine.watch.count).toBe(1);
    const reader = w.body!.getReader();
    await reader.read();
    await reader.cancel();
  });
});
