// Commit listeners: a listener of a key prefix (a watch's collection) is called only for commits that touch
// that prefix, so idle watches of other collections cost a write nothing; every listener that is called is
// called in the order of subscription, prefixed or not, once per commit, with all of its events.
import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { ClusterState } from './state.js';

const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });

describe('cluster state: commit listeners', () => {
  it('prefixed listeners hear only commits under their prefix, in subscription order with the others', async () => {
    const state = await ClusterState.load(createMemoryStorage());
    const calls: string[] = [];
    const listen = (name: string, prefix?: string) => state.subscribe((events) => calls.push(`${name}:${events.length}`), prefix);
    listen('all');
    listen('configmaps', '/core/configmaps/');
    const offNs1 = listen('configmaps-ns1', '/core/configmaps/ns1/');
    listen('secrets', '/core/secrets/');
    listen('everything', '/');
    listen('all-later');
    listen('configmaps-later', '/core/configmaps/');

    await state.commit([{ kind: 'put', key: '/core/configmaps/ns1/a', object: cm('a') }], 1);
    expect(calls.splice(0)).toEqual(['all:1', 'configmaps:1', 'configmaps-ns1:1', 'everything:1', 'all-later:1', 'configmaps-later:1']);

    await state.commit([{ kind: 'put', key: '/core/secrets/ns1/s', object: cm('s') }], 2);
    expect(calls.splice(0)).toEqual(['all:1', 'secrets:1', 'everything:1', 'all-later:1']);

    // one commit touching two collections: each listener once, with both events
    await state.commit([{ kind: 'put', key: '/core/configmaps/ns2/b', object: cm('b') }, { kind: 'put', key: '/core/configmaps/ns1/c', object: cm('c') }, { kind: 'put', key: '/core/secrets/ns2/t', object: cm('t') }], 3);
    expect(calls.splice(0)).toEqual(['all:3', 'configmaps:3', 'configmaps-ns1:3', 'secrets:3', 'everything:3', 'all-later:3', 'configmaps-later:3']);

    offNs1();
    await state.commit([{ kind: 'delete', key: '/core/configmaps/ns1/a' }], 4);
    expect(calls.splice(0)).toEqual(['all:1', 'configmaps:1', 'everything:1', 'all-later:1', 'configmaps-later:1']);
  });
});
