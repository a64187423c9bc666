// Chunked lists at a past revision and across writes: a page is read from the cache's index and the history
// since its revision (ClusterState.scanAt), not from a copy of the collection. Every way of paging here must
// give exactly the list as it was read while that revision was the current one (from the index alone, no
// history), item for item, and so must the unpaginated list at that revision,
// with a remainingItemCount that counts what is left: objects created, changed and deleted since the
// revision, before, inside and after each page, in one namespace and across all.
import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../testing/harness.js';

const CMS = '/api/v1/configmaps';
const nsPath = (ns: string) => `/api/v1/namespaces/${ns}/configmaps`;

async function write(c: TestClient, method: string, path: string, body?: unknown, type = 'application/json') {
  const r = await c.req(method, path, body, { 'Content-Type': type });
  expect(r.status, `${method} ${path}: ${r.text}`).toBeLessThan(300);
  return r.body;
}

async function revisionNow(c: TestClient): Promise<string> {
  return (await c.req('GET', `${CMS}?limit=1`)).body.metadata.resourceVersion;
}

describe('paginated lists at past revisions', () => {
  it('page to the unpaginated list at the same revision, with writes between the pages', async () => {
    const c = await testClient(createMemoryStorage(), { controllers: [] });
    for (const ns of ['a', 'b', 'c']) await write(c, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    const cm = (name: string, tier: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { tier } }, data: { v: name } });
    for (let i = 0; i < 24; i++) await write(c, 'POST', nsPath(['a', 'b', 'c'][i % 3]), cm(`m-${String(i).padStart(2, '0')}`, i % 2 ? 'odd' : 'even'));
    let step = 0;
    // a round of writes: a create that sorts first, one in the middle, one last; a change; a delete; a change back
    const churn = async () => {
      const n = step++;
      for (const ns of ['a', 'b']) {
        await write(c, 'POST', nsPath(ns), cm(`a-${n}`, 'odd'));
        await write(c, 'POST', nsPath(ns), cm(`m-${String(n).padStart(2, '0')}x`, 'even'));
        await write(c, 'POST', nsPath(ns), cm(`z-${n}`, 'even'));
      }
      const victims = (await c.req('GET', nsPath('c'))).body.items.map((o: { metadata: { name: string } }) => o.metadata.name);
      if (victims.length) {
        await write(c, 'PATCH', `${nsPath('c')}/${victims[0]}`, { metadata: { labels: { tier: 'odd', touched: String(n) } } }, 'application/merge-patch+json');
        await write(c, 'DELETE', `${nsPath('c')}/${victims[victims.length - 1]}`);
      }
      await write(c, 'PATCH', `${nsPath('a')}/m-00`, { data: { v: `changed-${n}` } }, 'application/merge-patch+json');
    };
    const paths = [CMS, nsPath('a'), nsPath('c')];
    const selectors = ['', 'labelSelector=tier%3Dodd'];
    // the lists as they are while a revision is the current one (read from the index itself, no history):
    // what a page at that revision must give later, after the cluster has moved on
    const seen = new Map<string, string>();
    const record = async () => {
      const rv = await revisionNow(c);
      for (const path of paths) {
        for (const selector of selectors) {
          const r = await c.req('GET', `${path}${selector ? `?${selector}` : ''}`);
          expect(r.body.metadata.resourceVersion).toBe(rv);
          seen.set(`${rv} ${path} ${selector}`, JSON.stringify(r.body.items));
        }
      }
      return rv;
    };
    await churn();
    const revisions = [await record()];
    await churn();
    revisions.push(await record());
    await churn();

    let checked = 0;
    for (const rv of revisions) {
      for (const path of paths) {
        for (const selector of selectors) {
          const q = (s: string) => [s, selector].filter(Boolean).join('&');
          const whole = await c.req('GET', `${path}?${q(`resourceVersion=${rv}&resourceVersionMatch=Exact`)}`);
          expect(whole.status, whole.text).toBe(200);
          const expected = seen.get(`${rv} ${path} ${selector}`)!;
          expect(JSON.stringify(whole.body.items), `${path}?${q(`rv=${rv}`)} unpaginated`).toBe(expected);
          for (const limit of [1, 2, 5, 100]) {
            const items: unknown[] = [];
            let r = await c.req('GET', `${path}?${q(`resourceVersion=${rv}&resourceVersionMatch=Exact&limit=${limit}`)}`);
            for (let page = 0; ; page++) {
              expect(r.status, r.text).toBe(200);
              expect(r.body.metadata.resourceVersion).toBe(rv);
              items.push(...r.body.items);
              const token = r.body.metadata.continue;
              if (!selector && token) expect(r.body.metadata.remainingItemCount, `${path} rv ${rv} limit ${limit} page ${page}`).toBe(whole.body.items.length - items.length);
              if (!token) break;
              await churn(); // the cluster moves on between pages: the next page is read at `rv` from the history
              r = await c.req('GET', `${path}?${q(`limit=${limit}&continue=${encodeURIComponent(token)}`)}`);
            }
            expect(JSON.stringify(items), `${path}?${q(`rv=${rv}&limit=${limit}`)}`).toBe(expected);
            checked++;
          }
        }
      }
    }
    expect(checked).toBe(2 * 3 * 2 * 4);
  }, 60_000);

  it('a first page at the current revision, then pages after writes, give the list as it was at the first page', async () => {
    const c = await testClient(createMemoryStorage(), { controllers: [] });
    await write(c, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } });
    for (let i = 0; i < 12; i++) await write(c, 'POST', nsPath('a'), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `k-${String(i).padStart(2, '0')}` } });
    const first = await c.req('GET', `${nsPath('a')}?limit=4`);
    const rv = first.body.metadata.resourceVersion;
    const whole = JSON.stringify((await c.req('GET', `${nsPath('a')}?resourceVersion=${rv}&resourceVersionMatch=Exact`)).body.items);
    expect(first.body.metadata.remainingItemCount).toBe(JSON.parse(whole).length - 4);
    // gone, added and changed after the first page
    await write(c, 'DELETE', `${nsPath('a')}/k-06`);
    await write(c, 'POST', nsPath('a'), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'k-05a' } });
    await write(c, 'PATCH', `${nsPath('a')}/k-09`, { data: { x: '1' } }, 'application/merge-patch+json');
    const items = [...first.body.items];
    let token = first.body.metadata.continue;
    while (token) {
      const r = await c.req('GET', `${nsPath('a')}?limit=4&continue=${encodeURIComponent(token)}`);
      expect(r.body.metadata.resourceVersion).toBe(rv);
      if (r.body.metadata.continue) expect(r.body.metadata.remainingItemCount).toBe(JSON.parse(whole).length - items.length - r.body.items.length);
      items.push(...r.body.items);
      token = r.body.metadata.continue;
    }
    expect(JSON.stringify(items)).toBe(whole);
  });
});
