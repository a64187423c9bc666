// The write lock is not held while a commit waits to be durable (ClusterState.commitQueued): a storage whose
// commits are held open still receives the commits of other writes (a group-committing storage gathers
// them), while the answers, cache and watch events wait for durability, in storage order; a write whose
// keys a queued commit writes runs again once that commit is applied, and a failed commit leaves no trace.
import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import type { WriteOp, WriteResult } from '../storage/interface.js';
import { withWrite } from '../storage/testing/forwarding.js';
import { testClient } from '../testing/harness.js';
import { until } from '../testing/wait.js';

const CM = '/api/v1/namespaces/default/configmaps';
const cm = (name: string, data: Record<string, string> = { k: name }) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });

/**
 * Memory storage whose writes, once `hold` is on, are decided at once but answered only when released (as a
 * transaction that is written but not yet complete); `fail` makes a held write's answer an error instead
 * (its records are then put back, as an aborted transaction stores nothing).
 */
function heldStorage() {
  const inner = createMemoryStorage();
  const held: { ops: WriteOp[]; release(fail?: Error): void }[] = [];
  let hold = false;
  const storage = withWrite(inner, (ops, time) => {
    if (!hold) return inner.write(ops, time);
    return new Promise<WriteResult>((resolve, reject) => {
      held.push({
        ops,
        release: (fail) => (fail ? reject(fail) : resolve(inner.write(ops, time))),
      });
    });
  });
  return { storage, held, setHold: (on: boolean) => void (hold = on) };
}

describe('commits queued outside the write lock', () => {
  it('a commit held open at storage does not hold back the commits of other writes; answers wait for their own', async () => {
    const s = heldStorage();
    const c = await testClient(s.storage, { controllers: [] });
    s.setHold(true);
    let answered = 0;
    const a = c.req('POST', CM, cm('a')).then((r) => (answered++, r));
    await until('the first commit at storage', () => s.held.length === 1);
    const b = c.req('POST', CM, cm('b')).then((r) => (answered++, r));
    const d = c.req('POST', CM, cm('d')).then((r) => (answered++, r));
    // under one lock across the commit, these would wait for the first one's answer
    await until('the other commits at storage', () => s.held.length === 3);
    expect(answered).toBe(0);
    expect((await c.req('GET', `${CM}/a`)).status).toBe(404); // not durable: not in the cache
    s.setHold(false);
    for (const h of s.held.splice(0)) h.release();
    const rvs = (await Promise.all([a, b, d])).map((r) => (expect(r.status).toBe(201), Number(r.body.metadata.resourceVersion)));
    expect(rvs[1]).toBe(rvs[0] + 1);
    expect(rvs[2]).toBe(rvs[0] + 2);
  });

  it('a write of a key whose commit is queued runs again on the state that commit leaves, not a 409', async () => {
    const s = heldStorage();
    const c = await testClient(s.storage, { controllers: [] });
    expect((await c.req('POST', CM, cm('x', { a: '0' }))).status).toBe(201);
    s.setHold(true);
    const merge = { 'Content-Type': 'application/merge-patch+json' };
    const p1 = c.req('PATCH', `${CM}/x`, { data: { a: '1' } }, merge);
    await until('the first patch at storage', () => s.held.length === 1);
    const p2 = c.req('PATCH', `${CM}/x`, { data: { b: '2' } }, merge);
    // the second patch read x before the first is applied: it must not commit over it
    await new Promise((r) => setTimeout(r, 10));
    expect(s.held.length).toBe(1);
    s.setHold(false);
    s.held.splice(0)[0].release();
    const [r1, r2] = await Promise.all([p1, p2]);
    expect([r1.status, r2.status]).toEqual([200, 200]);
    expect(r2.body.data).toEqual({ a: '1', b: '2' });
  });

  it('a commit that fails is not applied; a write queued behind it on other keys lands', async () => {
    const s = heldStorage();
    const c = await testClient(s.storage, { controllers: [] });
    const before = Number((await c.req('GET', CM)).body.metadata.resourceVersion);
    s.setHold(true);
    const a = c.req('POST', CM, cm('a'));
    await until('the first commit at storage', () => s.held.length === 1);
    const b = c.req('POST', CM, cm('b'));
    await until('the second commit at storage', () => s.held.length === 2);
    s.setHold(false);
    const [ha, hb] = s.held.splice(0);
    ha.release(new Error('transaction aborted'));
    hb.release();
    const [ra, rb] = await Promise.all([a, b]);
    expect(ra.status).toBe(500);
    expect(ra.body.message).toContain('transaction aborted');
    expect(rb.status).toBe(201);
    expect(Number(rb.body.metadata.resourceVersion)).toBe(before + 1);
    expect((await c.req('GET', `${CM}/a`)).status).toBe(404);
    const list = (await c.req('GET', CM)).body;
    expect(list.items.map((i: any) => i.metadata.name)).not.toContain('a');
  });
});
