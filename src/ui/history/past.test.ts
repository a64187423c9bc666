import { describe, expect, it } from 'vitest';
import { HistoryLog, type ResourceType } from './log.js';
import { pastView, revisionStops } from './past.js';
import type { KubeObject } from '../panels/timeline/stream.js';

const CM: ResourceType = { groupVersion: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true };
const NS: ResourceType = { groupVersion: 'v1', resource: 'namespaces', kind: 'Namespace', namespaced: false };
const cm = (name: string, rv: number, data: Record<string, string>): KubeObject => ({ kind: 'ConfigMap', metadata: { name, namespace: 'default', uid: name, resourceVersion: String(rv) }, data });

describe('past view', () => {
  const log = new HistoryLog(5);
  log.addBase(NS, [{ kind: 'Namespace', metadata: { name: 'default', uid: 'ns', resourceVersion: '2' } }]);
  log.addBase(CM, [cm('keep', 4, { a: '1' }), cm('gone', 5, { b: '1' })]);
  log.add(CM, 'MODIFIED', cm('keep', 7, { a: '2' }));
  log.add(CM, 'ADDED', cm('new', 7, {}));
  log.add(CM, 'DELETED', cm('gone', 9, { b: '1' }));

  it('stops at the start and at each revision with a change', () => {
    expect(revisionStops(log)).toEqual([5, 7, 9]);
  });

  it('shows each object as it was, marked against now: the deleted one is back, the updated one has its old value', () => {
    const rows = pastView(log, 5);
    expect(rows.map((r) => `${r.label} ${r.status}`)).toEqual(['ConfigMap default/gone deleted', 'ConfigMap default/keep changed', 'ConfigMap default/new created', 'Namespace default unchanged']);
    const keep = rows.find((r) => r.label.endsWith('keep'))!;
    expect((keep.past!.object as { data: unknown }).data).toEqual({ a: '1' });
    expect((keep.now!.object as { data: unknown }).data).toEqual({ a: '2' });
    expect(pastView(log, 9).map((r) => r.status)).toEqual(['unchanged', 'unchanged', 'unchanged']);
  });
});
