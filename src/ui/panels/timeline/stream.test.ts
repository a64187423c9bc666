import { describe, expect, it } from 'vitest';
import { causingManager, collectionPath, filterEntries, JsonStreamParser, TimelineModel, watchQuery, type KubeObject } from './stream.js';

describe('JsonStreamParser', () => {
  it('reassembles events split anywhere, with braces and escapes in strings', () => {
    const events = [
      { type: 'ADDED', object: { metadata: { name: 'a' }, data: { x: '}{"\\' } } },
      { type: 'MODIFIED', object: { metadata: { name: 'b' }, data: { y: 'ü \u2028 ]' } } },
    ];
    const wire = events.map((e) => JSON.stringify(e) + '\n').join('');
    for (let cut = 1; cut < wire.length; cut += 7) {
      const p = new JsonStreamParser();
      const got = [...p.push(wire.slice(0, cut)), ...p.push(wire.slice(cut))];
      expect(got).toEqual(events);
      expect(p.pending).toBe('');
    }
  });
  it('accepts values without separators and reports an unfinished one', () => {
    const p = new JsonStreamParser();
    expect(p.push('{"a":1}{"b":[2]}  {"c"')).toEqual([{ a: 1 }, { b: [2] }]);
    expect(p.pending).toBe('{"c"');
    expect(p.push(':3}')).toEqual([{ c: 3 }]);
  });
  it('rejects text between values', () => {
    expect(() => new JsonStreamParser().push('{"a":1}\nnot json')).toThrow(SyntaxError);
  });
});

describe('watchQuery', () => {
  it('builds the options', () => {
    expect(watchQuery({ rvMode: 'unset' })).toBe('watch=true');
    expect(watchQuery({ rvMode: '0', labelSelector: 'app=web', fieldSelector: 'metadata.name=x', allowWatchBookmarks: true })).toBe(
      'watch=true&labelSelector=app%3Dweb&fieldSelector=metadata.name%3Dx&resourceVersion=0&allowWatchBookmarks=true',
    );
    expect(watchQuery({ rvMode: 'unset', sendInitialEvents: true })).toBe(
      'watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true',
    );
  });
  it('a reconnect resumes from the last resourceVersion without the initial-events options', () => {
    expect(watchQuery({ rvMode: 'rv', resourceVersion: '5', sendInitialEvents: true }, '42')).toBe('watch=true&resourceVersion=42');
  });
  it('collection paths', () => {
    expect(collectionPath('v1', 'configmaps', 'default')).toBe('/api/v1/namespaces/default/configmaps');
    expect(collectionPath('apps/v1', 'deployments')).toBe('/apis/apps/v1/deployments');
  });
});

const obj = (rv: string, managed: { manager: string; operation: string; time: string; fieldsV1?: Record<string, unknown> }[], data = {}): KubeObject => ({
  kind: 'ConfigMap',
  metadata: { name: 'cm', namespace: 'default', uid: 'u1', resourceVersion: rv, managedFields: managed },
  data,
});

describe('causingManager', () => {
  const a = { manager: 'a', operation: 'Apply', time: '2024-01-01T00:00:05Z', fieldsV1: { 'f:data': {} } };
  const b = { manager: 'b', operation: 'Update', time: '2024-01-01T00:00:01Z', fieldsV1: { 'f:x': {} } };
  it('is the newest entry for a new object', () => {
    expect(causingManager(undefined, obj('1', [b, a]))?.manager).toBe('a');
  });
  it('is the entry that changed, even when another one is newer', () => {
    const b2 = { ...b, time: '2024-01-01T00:00:03Z', fieldsV1: { 'f:x': {}, 'f:y': {} } };
    expect(causingManager(obj('1', [a, b]), obj('2', [a, b2]))?.manager).toBe('b');
  });
  it('in the same second, the writer that gained fields, not the one that lost them', () => {
    const t = '2024-01-01T00:00:01Z';
    const creator = { manager: 'creator', operation: 'Update', time: t, fieldsV1: { 'f:data': { 'f:a': {} } } };
    const after = [
      { manager: 'creator', operation: 'Update', time: t, fieldsV1: { 'f:data': {} } },
      { manager: 'editor', operation: 'Update', time: t, fieldsV1: { 'f:data': { 'f:a': {}, 'f:b': {} } } },
    ];
    expect(causingManager(obj('1', [creator]), obj('2', after))?.manager).toBe('editor');
    // Listed first or last makes no difference.
    expect(causingManager(obj('1', [creator]), obj('2', [after[1], after[0]]))?.manager).toBe('editor');
    const again = { ...creator, fieldsV1: { 'f:data': { 'f:a': {}, 'f:z': {} } } };
    expect(causingManager(obj('1', [creator, after[1]]), obj('2', [again, after[1]]))?.manager).toBe('creator');
  });
  it('is undefined without managedFields', () => {
    expect(causingManager(undefined, { metadata: {} })).toBeUndefined();
  });
});

describe('TimelineModel', () => {
  it('links versions of an object, tracks the rv, and recognises 410', () => {
    const m = new TimelineModel();
    const e1 = m.ingest({ type: 'ADDED', object: obj('1', [], { a: '1' }) }, 1000);
    const e2 = m.ingest({ type: 'MODIFIED', object: obj('2', [], { a: '2' }) }, 2000);
    m.ingest({ type: 'BOOKMARK', object: { kind: 'ConfigMap', metadata: { resourceVersion: '7', annotations: { 'k8s.io/initial-events-end': 'true' } } } }, 3000);
    expect(e1.previous).toBeUndefined();
    expect(e2.previous).toEqual(obj('1', [], { a: '1' }));
    expect(m.lastResourceVersion).toBe('7');
    expect(m.entries[2].text).toBe('initial events end');
    const gone = m.ingest({ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired', message: 'too old resource version: 1 (5)' } }, 4000);
    expect(TimelineModel.isGone(gone)).toBe(true);
    expect(gone.text).toBe('410 Expired: too old resource version: 1 (5)');
    const del = m.ingest({ type: 'DELETED', object: obj('8', []) }, 5000);
    expect(del.previous?.metadata?.resourceVersion).toBe('2');
    expect(m.ingest({ type: 'ADDED', object: obj('9', []) }, 6000).previous).toBeUndefined();
    expect(m.entries.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6]);
  });
  it('keeps at most `limit` entries and filters', () => {
    const m = new TimelineModel(3);
    for (let i = 1; i <= 5; i++) m.ingest({ type: 'ADDED', object: { kind: 'Pod', metadata: { name: `p${i}`, uid: `${i}`, resourceVersion: `${i}` } } }, i);
    m.marker('reconnect', 'stream ended; resuming from 5', 9);
    expect(m.entries.map((e) => e.name ?? e.marker)).toEqual(['p4', 'p5', 'reconnect']);
    expect(filterEntries(m.entries, { text: 'P5' }).map((e) => e.name)).toEqual(['p5']);
    expect(filterEntries(m.entries, { types: new Set(['MARKER']) }).map((e) => e.marker)).toEqual(['reconnect']);
  });
});
