// Whole-scenario links: the codec carries CEL, lesson, acting user and cluster objects within its budgets
// (depth, object count, shape); the cluster's non-system objects are read from one engine and created in
// another, where they read back the same.
import { afterEach, describe, expect, it } from 'vitest';
import { encodeScenario, jsonDepth, MAX_DEPTH, MAX_OBJECTS, readScenario, SCENARIO_PREFIX, ShareLinkError, toBase64Url, type Scenario } from './share.js';
import { collectObjects, createObjects } from './objects.js';
import { createApiServer, type ApiServer } from '../../engine/server.js';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { fakeEnv } from '../../engine/testing/harness.js';
import type { Fetcher } from '../terminal/resources.js';

async function pack(v: unknown): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify(v));
  const out = new Response(new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream('deflate-raw')));
  return SCENARIO_PREFIX + toBase64Url(new Uint8Array(await out.arrayBuffer()));
}

async function problem(hash: string): Promise<string> {
  try {
    await readScenario(hash);
  } catch (err) {
    expect(err).toBeInstanceOf(ShareLinkError);
    return (err as ShareLinkError).message;
  }
  throw new Error('decoded');
}

const objects = [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default' }, data: { x: '1' } }];

describe('whole-scenario links', () => {
  it('round-trip editor text, settings, CEL, lesson, acting user and objects; a small one stays short', async () => {
    const s: Scenario = { text: 'kind: ConfigMap\n', settings: { dryRun: true }, cel: { expression: 'self.x > 1', variables: 'self: {x: 2}\n' }, lesson: { id: 'ssa', step: 2 }, user: { kind: 'user', name: 'jane', groups: ['team-a'] }, objects };
    const hash = await encodeScenario(s);
    expect(hash.length).toBeLessThan(400);
    expect(await readScenario(hash)).toEqual(s);
  });

  it('carries the acting user: a user with groups, a service account; a bare name (older links) is read too', async () => {
    const sa: Scenario = { text: '', settings: {}, user: { kind: 'serviceaccount', namespace: 'team', name: 'builder' } };
    expect(await readScenario(await encodeScenario(sa))).toEqual(sa);
    expect((await readScenario(await pack({ t: '', u: 'jane' })))?.user).toEqual({ kind: 'user', name: 'jane', groups: [] });
    expect((await readScenario(await pack({ t: '', u: 'system:serviceaccount:ns:sa' })))?.user).toEqual({ kind: 'serviceaccount', namespace: 'ns', name: 'sa' });
    // what the switcher would refuse is refused in a link too
    expect(await problem(await pack({ t: '', u: { kind: 'user', name: 'system:serviceaccount:a:b', groups: [] } }))).toBe("the link's acting user is not a user name");
    expect(await problem(await pack({ t: '', u: { kind: 'admin' } }))).toBe("the link's acting user is not a user name");
    expect(await problem(await pack({ t: '', u: { kind: 'user', name: 'x', groups: ['a,b'] } }))).toBe("the link's acting user is not a user name");
  });

  it('a text-only link decodes as before (no extra keys)', async () => {
    expect(await readScenario(await encodeScenario({ text: 'x', settings: {} }))).toEqual({ text: 'x', settings: {} });
  });

  it('refuses JSON nested deeper than the budget', async () => {
    let deep: unknown = 1;
    for (let i = 0; i < MAX_DEPTH + 5; i++) deep = [deep];
    expect(jsonDepth(deep)).toBeGreaterThan(MAX_DEPTH);
    expect(await problem(await pack({ t: '', o: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: deep }] }))).toBe(`the scenario in the link is nested deeper than ${MAX_DEPTH} levels`);
  });

  it('refuses too many objects, objects without a kind or name, and malformed parts', async () => {
    const many = Array.from({ length: MAX_OBJECTS + 1 }, (_, i) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${i}` } }));
    expect(await problem(await pack({ t: '', o: many }))).toBe(`the link carries ${MAX_OBJECTS + 1} cluster objects (at most ${MAX_OBJECTS})`);
    expect(await problem(await pack({ t: '', o: [{ kind: 'ConfigMap' }] }))).toBe('cluster object 1 in the link has no apiVersion, kind and metadata.name');
    expect(await problem(await pack({ t: '', o: {} }))).toBe("the link's cluster objects are not a list");
    expect(await problem(await pack({ t: '', c: { e: 1 } }))).toBe("the link's CEL content is not an expression and variables");
    expect(await problem(await pack({ t: '', l: { id: 'ssa', step: -1 } }))).toBe("the link's lesson is not a lesson id and step");
    expect(await problem(await pack({ t: '', u: 5 }))).toBe("the link's acting user is not a user name");
  });

  it('refuses a link past the length budget unread, and a scenario past the size budget while inflating', async () => {
    const hash = await encodeScenario({ text: 'a'.repeat(5000), settings: {} });
    await expect(readScenario(hash, { maxLinkChars: 10, maxScenarioBytes: 1 << 20 })).rejects.toThrow(/the link is too long/);
    await expect(readScenario(hash, { maxLinkChars: 1 << 20, maxScenarioBytes: 1000 })).rejects.toThrow('the scenario in the link unpacks to more than 1 KiB');
  });
});

describe('scenario objects', () => {
  const engines: ApiServer[] = [];
  afterEach(async () => {
    await Promise.all(engines.splice(0).map((e) => e.close()));
  });
  async function cluster(): Promise<Fetcher> {
    const e = createApiServer({ storage: createMemoryStorage(), env: fakeEnv(), basePath: '/c', host: 'service-worker' });
    engines.push(e);
    await e.ready;
    return (path, init) => e.handle(new Request(`http://t/c${path}`, init));
  }
  const post = (f: Fetcher, path: string, body: unknown) => f(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  it("carries the cluster's own objects only, and they are created again in another cluster", async () => {
    const a = await cluster();
    expect((await collectObjects(a)).objects).toEqual([]); // a fresh cluster has nothing of the user's
    expect((await post(a, '/api/v1/namespaces', { metadata: { name: 'team' } })).status).toBe(201);
    expect((await post(a, '/api/v1/namespaces/team/configmaps', { metadata: { name: 'cfg', labels: { app: 'x' } }, data: { k: 'v' } })).status).toBe(201);
    expect((await post(a, '/apis/rbac.authorization.k8s.io/v1/clusterroles', { metadata: { name: 'reader' }, rules: [] })).status).toBe(201);
    const { objects: got, omitted } = await collectObjects(a);
    expect(omitted).toBe(0);
    expect(got.map((o) => `${o.kind}/${String(o.metadata?.name)}`)).toEqual(['Namespace/team', 'ClusterRole/reader', 'ConfigMap/cfg']);
    expect(got[2]).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'team', labels: { app: 'x' } }, data: { k: 'v' } });

    const b = await cluster();
    expect(await createObjects(b, got, async () => undefined)).toEqual({ created: 3, errors: [] });
    const cm = (await (await b('/api/v1/namespaces/team/configmaps/cfg')).json()) as { data: unknown };
    expect(cm.data).toEqual({ k: 'v' });
  });

  it('keeps within the size budget and counts what it left out', async () => {
    const a = await cluster();
    for (const n of ['c1', 'c2', 'c3']) await post(a, '/api/v1/namespaces/default/configmaps', { metadata: { name: n }, data: { big: 'x'.repeat(400) } });
    const { objects: got, omitted } = await collectObjects(a, 1200);
    expect(got.length).toBe(2);
    expect(omitted).toBe(1);
  });
});
