import { describe, expect, it } from 'vitest';
import { listableResources, sortGroups, toTableView } from './discovery.js';

describe('listableResources', () => {
  it('keeps listable top-level resources, sorted, with their group', () => {
    const list = {
      resources: [
        { name: 'deployments', kind: 'Deployment', namespaced: true, verbs: ['create', 'list', 'watch'], shortNames: ['deploy'] },
        { name: 'deployments/scale', kind: 'Scale', namespaced: true, verbs: ['get', 'patch'] },
        { name: 'controllerrevisions', kind: 'ControllerRevision', namespaced: true, verbs: ['list'] },
        { name: 'tokenreviews', kind: 'TokenReview', namespaced: false, verbs: ['create'] },
      ],
    };
    expect(listableResources(list, 'apps/v1').map((r) => [r.group, r.name])).toEqual([
      ['apps', 'controllerrevisions'],
      ['apps', 'deployments'],
    ]);
    expect(listableResources({ resources: [{ name: 'pods', kind: 'Pod', namespaced: true, verbs: ['list'] }] }, 'v1')[0].group).toBe('');
  });
  it('puts the core group first', () => {
    expect(sortGroups([{ name: 'apps', groupVersion: 'apps/v1', resources: [] }, { name: '', groupVersion: 'v1', resources: [] }, { name: 'batch', groupVersion: 'batch/v1', resources: [] }]).map((g) => g.name)).toEqual(['', 'apps', 'batch']);
  });
});

describe('toTableView', () => {
  const table = {
    kind: 'Table',
    metadata: { resourceVersion: '9' },
    columnDefinitions: [
      { name: 'Name', type: 'string', priority: 0 },
      { name: 'Ready', type: 'string', priority: 0 },
      { name: 'IP', type: 'string', priority: 1 },
    ],
    rows: [{ cells: ['web-1', '1/1', '10.0.0.1'], object: { metadata: { name: 'web-1', namespace: 'prod' } } }],
  };
  it('keeps priority-0 columns unless wide', () => {
    expect(toTableView(table)).toEqual({
      columns: [
        { name: 'Name', type: 'string', priority: 0 },
        { name: 'Ready', type: 'string', priority: 0 },
      ],
      rows: [{ cells: ['web-1', '1/1'], name: 'web-1', namespace: 'prod' }],
      resourceVersion: '9',
    });
    expect(toTableView(table, true).rows[0].cells).toEqual(['web-1', '1/1', '10.0.0.1']);
  });
  it('falls back to a plain list', () => {
    expect(toTableView({ items: [{ metadata: { name: 'a', creationTimestamp: '2024-01-01T00:00:00Z' } }] }).rows).toEqual([
      { cells: ['a', '2024-01-01T00:00:00Z'], name: 'a', namespace: undefined },
    ]);
  });
});
