import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openIdbStorage } from './idb-storage.js';
import { dumpClusterDatabase, restoreClusterDatabase } from './cluster-copy.js';
import { rawHistory } from './raw-history.testing.js';

const key = (name: string) => `/core/configmaps/team/${name}`;
const cm = (name: string, v: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'team' }, data: { v } });

async function cluster(name: string) {
  const s = await openIdbStorage({ name });
  await s.write([{ kind: 'put', key: key('a'), object: cm('a', '1') }, { kind: 'put', key: key('b'), object: cm('b', '1') }], 10);
  await s.write([{ kind: 'put', key: key('a'), object: cm('a', '2') }], 20);
  await s.write([{ kind: 'delete', key: key('b') }], 30);
  await s.write([{ kind: 'put', key: key('b'), object: cm('b', '2') }], 40);
  await s.write([{ kind: 'put', key: key('a'), object: cm('a', '3') }], 50);
  const events = await s.events(0);
  const objects = await s.list('');
  await s.close();
  return { events, objects };
}

describe('cluster copies of layout-3 databases', () => {
  it('a dump holds every event whole (the export file format), and its restore reads back the same history stored once', async () => {
    const { events, objects } = await cluster('copy-src');
    const dump = await dumpClusterDatabase('copy-src');
    expect(dump.objects).toEqual(objects);
    expect(dump.history.map((r) => r.revision)).toEqual([1, 2, 3, 4, 5]);
    expect(dump.history.flatMap((r) => r.events)).toEqual(events);
    // through JSON, as an export file is
    await restoreClusterDatabase('copy-dst', JSON.parse(JSON.stringify(dump)));
    const s = await openIdbStorage({ name: 'copy-dst' });
    expect(await s.events(0)).toEqual(events);
    expect(await s.list('')).toEqual(objects);
    await s.close();
    expect((await rawHistory('copy-dst')).flatMap((r) => r.events.map((e) => 'object' in e))).toEqual([false, false, false, false, false, false]);
  });

  it('an event of a file whose state would not read back the same is stored whole and read as given', async () => {
    const { events } = await cluster('odd-src');
    const dump = JSON.parse(JSON.stringify(await dumpClusterDatabase('odd-src')));
    dump.history[1].events[0].object.data.v = 'edited by hand';
    await restoreClusterDatabase('odd-dst', dump);
    const s = await openIdbStorage({ name: 'odd-dst' });
    const got = await s.events(0);
    expect(got[2].object.data).toEqual({ v: 'edited by hand' });
    expect(got.filter((_, i) => i !== 2)).toEqual(events.filter((_, i) => i !== 2));
    await s.close();
    expect((await rawHistory('odd-dst')).map((r) => r.events.map((e) => 'object' in e))).toEqual([[false, false], [true], [false], [false], [false]]);
  });
});
