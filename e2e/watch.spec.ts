// Watches through the service worker survive a stopped worker (docs/design.md 2): a client in the page keeps a
// cache from list + watch, the worker is stopped through CDP mid-stream, the client reconnects from the
// last resourceVersion it saw, and its cache then equals a fresh list: no gap, no duplicate event.
import { expect, test } from '@playwright/test';
import { openShell, pageFetch, skipWithoutBrowser } from './helpers';

skipWithoutBrowser();

const BASE = '/clusters/watch-e2e';
const URL_CM = `${BASE}/api/v1/namespaces/default/configmaps`;

declare global {
  interface Window {
    watcher?: {
      cache: Record<string, string>;
      events: { type: string; name: string; rv: string }[];
      connects: string[];
      errors: string[];
      stop: () => void;
    };
  }
}

test('a watch reconnects from its last resourceVersion after the worker is stopped, with no gap and no duplicate', async ({ page, context }) => {
  await openShell(page);
  // a fresh cluster of its own (another engine over another database); clear what an earlier run left
  for (const name of ['w-0', 'w-1', 'w-2', 'w-3', 'w-4', 'w-5', 'w-6', 'w-7', 'w-8', 'w-9']) {
    await pageFetch(page, `${URL_CM}/${name}`, { method: 'DELETE' });
  }
  const write = (method: string, name: string, data: Record<string, string>) =>
    pageFetch(page, method === 'POST' ? URL_CM : `${URL_CM}/${name}`, {
      method,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data }),
    });
  for (const n of ['w-0', 'w-1', 'w-2']) expect((await write('POST', n, { v: '0' })).status).toBe(201);

  // the client: list, then watch from the list's version; on any end or error, watch again from the last
  // version seen (a client duty per the spec), and on 410 list again
  await page.evaluate(async (url) => {
    const state = { cache: {} as Record<string, string>, events: [] as { type: string; name: string; rv: string }[], connects: [] as string[], errors: [] as string[], stopped: false };
    let abort = new AbortController();
    window.watcher = { ...state, stop: () => ((state.stopped = true), abort.abort()) };
    const w = window.watcher;
    let rv = '';
    const relist = async () => {
      const list = (await (await fetch(url)).json()) as { items: { metadata: { name: string; resourceVersion: string } }[]; metadata: { resourceVersion: string } };
      w.cache = {};
      for (const i of list.items) w.cache[i.metadata.name] = i.metadata.resourceVersion;
      rv = list.metadata.resourceVersion;
    };
    await relist();
    void (async () => {
      while (!state.stopped) {
        abort = new AbortController();
        try {
          w.connects.push(rv);
          const res = await fetch(`${url}?watch=true&allowWatchBookmarks=true&resourceVersion=${rv}`, { signal: abort.signal });
          const reader = res.body!.getReader();
          const dec = new TextDecoder();
          let buf = '';
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buf += dec.decode(value, { stream: true });
            let i: number;
            while ((i = buf.indexOf('\n')) >= 0) {
              const ev = JSON.parse(buf.slice(0, i));
              buf = buf.slice(i + 1);
              if (ev.type === 'ERROR') {
                if (ev.object.code === 410) await relist();
                continue;
              }
              const name = ev.object.metadata.name;
              const erv = ev.object.metadata.resourceVersion;
              if (ev.type !== 'BOOKMARK') {
                w.events.push({ type: ev.type, name, rv: erv });
                if (ev.type === 'DELETED') delete w.cache[name];
                else w.cache[name] = erv;
              }
              rv = erv;
            }
          }
        } catch (e) {
          w.errors.push(String(e));
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
  }, URL_CM);

  // changes while the stream is up
  expect((await write('POST', 'w-3', { v: '0' })).status).toBe(201);
  expect((await write('PUT', 'w-1', { v: '1' })).status).toBe(200);
  await expect.poll(() => page.evaluate(() => window.watcher!.events.length)).toBe(2);

  // stop the worker mid-stream through CDP
  const cdp = await context.newCDPSession(page);
  const statuses: string[] = [];
  cdp.on('ServiceWorker.workerVersionUpdated', (e) => {
    for (const v of e.versions) statuses.push(v.runningStatus);
  });
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await expect.poll(() => statuses.includes('stopped')).toBe(true);

  // writes after the stop (the first request starts the worker again with a new engine from IndexedDB)
  expect((await write('POST', 'w-4', { v: '0' })).status).toBe(201);
  expect((await pageFetch(page, `${URL_CM}/w-0`, { method: 'DELETE' })).status).toBe(200);
  expect((await write('POST', 'w-5', { v: '0' })).status).toBe(201);
  expect((await write('PUT', 'w-2', { v: '2' })).status).toBe(200);

  // the client reconnected from its last version and caught up
  await expect.poll(() => page.evaluate(() => window.watcher!.events.length), { timeout: 20_000 }).toBe(6);
  const fresh = (await pageFetch(page, URL_CM)).body as any;
  const expected: Record<string, string> = {};
  for (const i of fresh.items) expected[i.metadata.name] = i.metadata.resourceVersion;
  const got = await page.evaluate(() => ({ cache: window.watcher!.cache, events: window.watcher!.events, connects: window.watcher!.connects }));
  expect(got.cache).toEqual(expected);
  expect(Object.keys(expected).sort()).toEqual(['kube-root-ca.crt', 'w-1', 'w-2', 'w-3', 'w-4', 'w-5']);
  // every event once, in revision order
  const rvs = got.events.map((e) => Number(e.rv));
  expect(new Set(rvs).size).toBe(rvs.length);
  expect([...rvs].sort((a, b) => a - b)).toEqual(rvs);
  expect(got.events.map((e) => `${e.type} ${e.name}`)).toEqual(['ADDED w-3', 'MODIFIED w-1', 'ADDED w-4', 'DELETED w-0', 'ADDED w-5', 'MODIFIED w-2']);
  // it did reconnect, from the version of the last event before the stop
  expect(got.connects.length).toBeGreaterThanOrEqual(2);
  expect(got.connects[1]).toBe(got.events[1].rv);
  await page.evaluate(() => window.watcher!.stop());
});
