import { describe, expect, it } from 'vitest';
import { HistoryLog, type ResourceType } from './log.js';
import type { KubeObject } from '../panels/timeline/stream.js';

const CM: ResourceType = { groupVersion: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true };
const DEP: ResourceType = { groupVersion: 'apps/v1', resource: 'deployments', kind: 'Deployment', namespaced: true };
const EV: ResourceType = { groupVersion: 'v1', resource: 'events', kind: 'Event', namespaced: true };
const EV2: ResourceType = { groupVersion: 'events.k8s.io/v1', resource: 'events', kind: 'Event', namespaced: true };

function cm(name: string, rv: number, data: Record<string, string>, uid = `uid-${name}`, manager = 'kubectl', time = `2026-01-01T00:00:${String(rv).padStart(2, '0')}Z`): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'default', uid, resourceVersion: String(rv), managedFields: [{ manager, operation: 'Update', apiVersion: 'v1', time, fieldsV1: { 'f:data': Object.fromEntries(Object.keys(data).map((k) => [`f:${k}`, {}])) } }] },
    data,
  };
}

const names = (m: Map<string, { object: KubeObject }>) => [...m.values()].map((s) => `${s.object.metadata?.name}=${JSON.stringify((s.object as { data?: unknown }).data ?? null)}`).sort();

describe('HistoryLog', () => {
  it('rebuilds the state at every revision of the window from the base and the changes', () => {
    const log = new HistoryLog(10);
    log.addBase(CM, [cm('a', 8, { x: '1' }), cm('b', 10, { y: '1' })]);
    log.add(CM, 'MODIFIED', cm('a', 11, { x: '2' }));
    log.add(CM, 'ADDED', cm('c', 12, { z: '1' }));
    log.add(CM, 'DELETED', cm('b', 13, { y: '1' }));
    expect(names(log.stateAt(10))).toEqual(['a={"x":"1"}', 'b={"y":"1"}']);
    expect(names(log.stateAt(11))).toEqual(['a={"x":"2"}', 'b={"y":"1"}']);
    expect(names(log.stateAt(12))).toEqual(['a={"x":"2"}', 'b={"y":"1"}', 'c={"z":"1"}']);
    expect(names(log.stateAt(13))).toEqual(['a={"x":"2"}', 'c={"z":"1"}']);
    expect(names(log.now())).toEqual(names(log.stateAt(13)));
    expect(log.latestRevision).toBe(13);
    // each change knows the version before it
    expect(log.records.map((r) => `${r.type} ${r.revision} prev=${r.previous?.metadata?.resourceVersion ?? '-'}`)).toEqual([
      'MODIFIED 11 prev=8',
      'ADDED 12 prev=-',
      'DELETED 13 prev=10',
    ]);
  });

  it('keeps revision order when watches of different types deliver interleaved, and drops duplicates', () => {
    const log = new HistoryLog(1);
    const dep = (rv: number): KubeObject => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'default', uid: 'd1', resourceVersion: String(rv) } });
    log.add(CM, 'ADDED', cm('a', 2, {}));
    log.add(CM, 'MODIFIED', cm('a', 5, { k: 'v' }));
    log.add(DEP, 'ADDED', dep(3));
    log.add(DEP, 'MODIFIED', dep(4));
    log.add(DEP, 'MODIFIED', dep(6));
    expect(log.records.map((r) => r.revision)).toEqual([2, 3, 4, 5, 6]);
    // the same Event through v1 and events.k8s.io/v1 is one change
    const ev: KubeObject = { metadata: { name: 'e', namespace: 'default', uid: 'e1', resourceVersion: '7' } };
    expect(log.add(EV, 'ADDED', ev)).toBeDefined();
    expect(log.add(EV2, 'ADDED', ev)).toBeUndefined();
    // changes at or before the window's start are the base's, not history
    expect(log.add(CM, 'ADDED', cm('old', 1, {}))).toBeUndefined();
    expect(log.records).toHaveLength(6);
  });

  it('lists the versions of one object from its creation, across a delete and recreate', () => {
    const log = new HistoryLog(4);
    log.addBase(CM, [cm('other', 3, {})]);
    log.add(CM, 'ADDED', cm('a', 5, { x: '1' }, 'u1', 'alice'));
    log.add(CM, 'MODIFIED', cm('other', 6, { q: '1' }));
    log.add(CM, 'MODIFIED', cm('a', 7, { x: '1', y: '2' }, 'u1', 'bob'));
    log.add(CM, 'DELETED', cm('a', 8, { x: '1', y: '2' }, 'u1', 'bob'));
    log.add(CM, 'ADDED', cm('a', 9, { z: '3' }, 'u2', 'carol'));
    const v = log.versionsOf({ groupVersion: 'v1', resource: 'configmaps' }, 'default', 'a');
    expect(v.base).toBeUndefined();
    expect(v.records.map((r) => `${r.type} ${r.revision} ${log.managerOf(r)?.manager ?? '-'}`)).toEqual(['ADDED 5 alice', 'MODIFIED 7 bob', 'DELETED 8 -', 'ADDED 9 carol']);
    const o = log.versionsOf({ groupVersion: 'v1', resource: 'configmaps' }, 'default', 'other');
    expect(o.base?.revision).toBe(3);
    expect(o.records.map((r) => r.revision)).toEqual([6]);
  });

  it('tells when the window starts and folds old changes into the base', () => {
    const log = new HistoryLog(10);
    log.addBase(CM, [cm('a', 10, { x: '1' })]);
    expect(log.startTime()).toBe('2026-01-01T00:00:10Z');
    log.add(CM, 'MODIFIED', cm('a', 11, { x: '2' }));
    log.add(CM, 'ADDED', cm('b', 12, {}));
    log.add(CM, 'DELETED', cm('b', 13, {}));
    const before = names(log.stateAt(13));
    expect(log.foldUpTo(12)).toBe(2);
    expect(log.start).toBe(12);
    expect(names(log.stateAt(12))).toEqual(['a={"x":"2"}', 'b={}']);
    expect(names(log.stateAt(13))).toEqual(before);
    const empty = new HistoryLog(3);
    empty.add(CM, 'ADDED', cm('c', 4, {}));
    expect(empty.startTime()).toBe('2026-01-01T00:00:04Z');
  });

  it('answers a state query from its cache until the log changes', () => {
    const log = new HistoryLog(0);
    log.add(CM, 'ADDED', cm('a', 1, {}));
    const s = log.stateAt(1);
    expect(log.stateAt(1)).toBe(s);
    log.add(CM, 'ADDED', cm('b', 2, {}));
    expect(log.stateAt(1)).not.toBe(s);
    expect(names(log.stateAt(1))).toEqual(names(s));
  });
});

describe('HistoryLog with a long history', () => {
  it('20,000 changes: adding each, a past state, an object\'s versions and the live state stay in milliseconds', () => {
    const log = new HistoryLog(1);
    log.addBase(CM, Array.from({ length: 500 }, (_, i) => cm(`c${i}`, 1, { n: '0' }, `u${i}`)));
    const cms: KubeObject[] = [];
    for (let i = 0; i < 20_000; i++) if (i % 10 !== 9) cms.push(cm(`c${i % 500}`, 2 + i, { n: String(i) }, `u${i % 500}`));
    const deps: KubeObject[] = [];
    for (let i = 9; i < 20_000; i += 10) deps.push({ kind: 'Deployment', metadata: { name: 'd', namespace: 'default', uid: 'dep', resourceVersion: String(2 + i) } });
    const t0 = performance.now();
    // parallel watches deliver interleaved: the configmaps first, then the deployment's changes, whose
    // revisions fall between theirs
    for (const o of cms) log.add(CM, 'MODIFIED', o);
    for (const o of deps) log.add(DEP, 'MODIFIED', o);
    const addMs = performance.now() - t0;
    expect(log.records).toHaveLength(20_000);
    expect(log.records.every((r, i) => i === 0 || log.records[i - 1].revision <= r.revision)).toBe(true);
    const t1 = performance.now();
    const mid = log.stateAt(10_001);
    const stateMs = performance.now() - t1;
    expect(mid.size).toBe(501);
    expect((mid.get('u498')!.object as { data: { n: string } }).data.n).toBe('9998');
    expect(mid.get('dep')!.revision).toBe(10_001);
    const t2 = performance.now();
    const v = log.versionsOf({ groupVersion: 'v1', resource: 'configmaps' }, 'default', 'c7');
    const versionsMs = performance.now() - t2;
    expect(v.base).toBeDefined();
    expect(v.records).toHaveLength(40);
    console.log(`20k changes: add ${addMs.toFixed(0)} ms, state ${stateMs.toFixed(1)} ms, versions ${versionsMs.toFixed(1)} ms`);
    // loose budgets for a shared 2-core machine
    expect(addMs).toBeLessThan(3000);
    expect(stateMs).toBeLessThan(200);
    expect(versionsMs).toBeLessThan(300);
  });
});
