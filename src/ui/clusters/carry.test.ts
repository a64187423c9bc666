import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openIdbStorage } from '../../adapters/idb/idb-storage.js';
import { databaseExists, dumpClusterDatabase, restoreClusterDatabase, type ClusterDump } from '../../adapters/idb/cluster-copy.js';
import { testClient } from '../../engine/testing/harness.js';
import { readClusterSettings, writeClusterSettings } from '../../adapters/idb/cluster-settings.js';
import { clusterDatabaseName } from '../../adapters/idb/cluster-database.js';
import { exportClusterFile, importClusterFile } from './actions.js';
import { buildClusterFile, ClusterFileError, describeClusterFile, dumpOf, MAX_FILE_DEPTH, parseClusterFile } from './carry.js';

let seq = 0;

/** A cluster database with a namespace, a ConfigMap changed twice and settings; returns its name. */
async function makeCluster(): Promise<{ name: string; rvs: string[] }> {
  const name = `carry-${++seq}`;
  const storage = await openIdbStorage({ name });
  const c = await testClient(storage, { controllers: [] });
  const rvs: string[] = [];
  expect((await c.req('POST', '/api/v1/namespaces', { metadata: { name: 'team' } })).status).toBe(201);
  const cm = await c.req('POST', '/api/v1/namespaces/team/configmaps', { metadata: { name: 'cfg' }, data: { a: '1' } });
  rvs.push(cm.body.metadata.resourceVersion);
  const up = await c.req('PATCH', '/api/v1/namespaces/team/configmaps/cfg', { data: { a: '2' } }, { 'Content-Type': 'application/merge-patch+json' });
  rvs.push(up.body.metadata.resourceVersion);
  expect((await c.req('PUT', '/x-playground/settings', { featureGates: 'MutatingAdmissionPolicy=true', runtimeConfig: '' })).status).toBe(200);
  await c.server.close();
  return { name, rvs };
}

async function fileOf(name: string) {
  return buildClusterFile(name, await dumpClusterDatabase(name), { simulated: true }, { kind: 'user', name: 'jane', groups: ['team-a'] }, new Date(Date.UTC(2026, 0, 1)));
}

describe('cluster files: export, check, import', () => {
  it('a cluster exported and imported under another name has the same objects, history and settings', async () => {
    const { name, rvs } = await makeCluster();
    const file = await fileOf(name);
    expect(file.settings).toEqual({ simulated: true, featureGates: 'MutatingAdmissionPolicy=true', runtimeConfig: '' });
    const parsed = parseClusterFile(JSON.stringify(file));
    expect(parsed).toEqual(file);
    expect(describeClusterFile(parsed, 'copy')).toEqual(expect.arrayContaining(['Feature gates: MutatingAdmissionPolicy=true.', 'Acting user: jane.', 'Simulated workloads: on.']));

    const target = `${name}-copy`;
    await restoreClusterDatabase(target, dumpOf(parsed));
    expect(await dumpClusterDatabase(target)).toEqual(dumpOf(file));
    // the engine over the copy: same objects, the stored settings in effect, and a watch from an old revision
    const c = await testClient(await openIdbStorage({ name: target }), { controllers: [] });
    const cm = await c.req('GET', '/api/v1/namespaces/team/configmaps/cfg');
    expect(cm.body).toMatchObject({ data: { a: '2' }, metadata: { resourceVersion: rvs[1] } });
    expect((await c.req('GET', '/x-playground/settings')).body).toMatchObject({ featureGates: 'MutatingAdmissionPolicy=true' });
    const w = await c.raw('GET', `/api/v1/namespaces/team/configmaps?watch=1&resourceVersion=${rvs[0]}&timeoutSeconds=1`);
    const reader = w.body!.getReader();
    const first = JSON.parse(new TextDecoder().decode((await reader.read()).value).split('\n')[0]) as { type: string; object: { data: Record<string, string> } };
    expect(first).toMatchObject({ type: 'MODIFIED', object: { data: { a: '2' } } });
    await reader.cancel();
    await c.server.close();
  });

  it('the simulated cluster\'s controller list goes into the file and comes back on import', async () => {
    // the actions keep the acting user in localStorage, which Node does not have
    const kept = new Map<string, string>();
    const storage = { getItem: (k: string) => kept.get(k) ?? null, setItem: (k: string, v: string) => void kept.set(k, v), removeItem: (k: string) => void kept.delete(k) };
    Object.defineProperty(globalThis, 'localStorage', { value: storage, configurable: true });
    try {
      const name = `ctl-${++seq}`;
      const c = await testClient(await openIdbStorage({ name: clusterDatabaseName(name) }), { controllers: [] });
      expect((await c.req('POST', '/api/v1/namespaces', { metadata: { name: 'team' } })).status).toBe(201);
      await c.server.close();
      await writeClusterSettings(name, { simulated: true, controllers: ['deployment', 'replicaset', 'scheduler'] });
      const file = parseClusterFile(JSON.stringify(await exportClusterFile(name)));
      expect(file.settings.controllers).toEqual(['deployment', 'replicaset', 'scheduler']);
      expect(describeClusterFile(file, 'copy')).toContain('Controllers: deployment, replicaset, scheduler.');
      await importClusterFile(file, `${name}-copy`);
      expect(await readClusterSettings(`${name}-copy`)).toEqual({ simulated: true, controllers: ['deployment', 'replicaset', 'scheduler'] });
      // a cluster whose list was never narrowed runs them all: the file says nothing, the import leaves it so
      await writeClusterSettings(name, { simulated: true });
      const all = await exportClusterFile(name);
      expect(all.settings).not.toHaveProperty('controllers');
      await importClusterFile(parseClusterFile(JSON.stringify(all)), `${name}-all`);
      expect(await readClusterSettings(`${name}-all`)).toEqual({ simulated: true });
    } finally {
      delete (globalThis as { localStorage?: unknown }).localStorage;
    }
  });

  it('restoring into a cluster that holds data is refused and changes nothing', async () => {
    const { name } = await makeCluster();
    const other = await makeCluster();
    const before = await dumpClusterDatabase(other.name);
    await expect(restoreClusterDatabase(other.name, await dumpClusterDatabase(name))).rejects.toThrow(`cluster database ${other.name} is not empty`);
    expect(await dumpClusterDatabase(other.name)).toEqual(before);
  });

  it('a restore failing midway leaves no database behind (one transaction)', async () => {
    const { name } = await makeCluster();
    const dump = await dumpClusterDatabase(name);
    // the last object cannot be stored (no key): the transaction aborts after the others were put
    const broken: ClusterDump = { ...dump, objects: [...dump.objects, { object: {} } as never] };
    await expect(restoreClusterDatabase('half', broken)).rejects.toThrow();
    expect(await databaseExists('half')).toBe(false);
    await restoreClusterDatabase('half', dump);
    expect((await dumpClusterDatabase('half')).revision).toBe(dump.revision);
  });
});

describe('parseClusterFile refuses bad files with a clear message', () => {
  const bad = async (mutate: ((f: Record<string, any>) => unknown) | string, message: string | RegExp) => {
    const { name } = await makeCluster();
    const f = JSON.parse(JSON.stringify(await fileOf(name))) as Record<string, any>;
    if (typeof mutate === 'function') mutate(f);
    const text = typeof mutate === 'string' ? mutate : JSON.stringify(f);
    expect(() => parseClusterFile(text)).toThrow(message);
    try {
      parseClusterFile(text);
    } catch (e) {
      expect(e).toBeInstanceOf(ClusterFileError);
    }
  };

  it('not JSON, not a cluster file, another version', async () => {
    await bad('{"kind":', 'the file is not JSON');
    await bad((f) => (f.kind = 'List'), 'the file is not a cluster export (kind KubePlaygroundCluster)');
    await bad((f) => (f.version = 2), "the file's version 2 is not supported (only 1)");
    await bad((f) => (f.cluster = 'Not A Name'), 'the file names no valid cluster');
  });

  it('settings and acting user of the wrong shape', async () => {
    await bad((f) => (f.settings.controllers = 'deployment'), "the file's settings.controllers is not a list of controller names");
    await bad((f) => (f.settings.controllers = ['deployment', 'kube-proxy']), 'the file\'s settings.controllers names an unknown controller "kube-proxy" (known: deployment, replicaset,');
    await bad((f) => (f.settings.controllers = ['job', 'job']), 'the file\'s settings.controllers names "job" twice');
    await bad((f) => (f.settings = { simulated: 'yes', featureGates: '', runtimeConfig: '' }), "the file's settings are not {simulated, featureGates, runtimeConfig}");
    await bad((f) => (f.actingUser = { kind: 'user', name: '' }), "the file's acting user is not a valid user or service account");
  });

  it('history that breaks the storage invariant: a missing, extra or misnumbered record', async () => {
    await bad((f) => f.history.pop(), /the file's history has \d+ records; revisions 1 to \d+ need \d+/);
    await bad((f) => f.history.splice(1, 1), /history has \d+ records/);
    await bad((f) => ([f.history[0], f.history[1]] = [f.history[1], f.history[0]]), 'history record 1 is not {revision: 1, time, events}');
    await bad((f) => (f.history[0].events[0].type = 'CHANGED'), 'event 1 of revision 1 is not {revision, type, key, object, time}');
    await bad((f) => (f.compactedRevision = f.revision + 1), 'compactedRevision <= revision');
  });

  it('objects: duplicate keys, a revision past the file, a resourceVersion not its revision, no kind', async () => {
    await bad((f) => f.objects.push(f.objects[0]), /key .* appears twice/);
    await bad((f) => (f.objects[0].revision = f.revision + 1), /is not \{key, object, revision\} with a revision from 1 to/);
    await bad((f) => (f.objects[0].object.metadata.resourceVersion = '999999'), /has resourceVersion "999999", not its revision/);
    await bad((f) => delete f.objects[0].object.kind, /is not an object with apiVersion, kind and metadata.name/);
  });

  it('within a budget: too deep, too large', async () => {
    let deep: unknown = {};
    for (let i = 0; i < MAX_FILE_DEPTH + 10; i++) deep = { x: deep };
    await bad((f) => (f.objects[0].object.spec = deep), `the file is nested deeper than ${MAX_FILE_DEPTH} levels`);
    expect(() => parseClusterFile(' '.repeat(64 * 1024 * 1024 + 1))).toThrow('the file is larger than 64 MiB');
  });
});
