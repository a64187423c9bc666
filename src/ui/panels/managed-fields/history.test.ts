import { describe, expect, it } from 'vitest';
import { ownershipChanges } from './history.js';

describe('ownershipChanges', () => {
  it('reports gained and lost paths per entry, new and removed entries', () => {
    const before = [
      { manager: 'a', operation: 'Apply', apiVersion: 'v1', fieldsV1: { 'f:data': { 'f:x': {}, 'f:y': {} } } },
      { manager: 'b', operation: 'Update', apiVersion: 'v1', fieldsV1: { 'f:data': { 'f:z': {} } } },
    ];
    const after = [
      { manager: 'a', operation: 'Apply', apiVersion: 'v1', fieldsV1: { 'f:data': { 'f:x': {} } } },
      { manager: 'c', operation: 'Update', apiVersion: 'v1', fieldsV1: { 'f:data': { 'f:y': {} } } },
    ];
    expect(ownershipChanges(before, after)).toEqual([
      { label: 'a (Apply) v1', manager: 'a', gained: [], lost: ['.data.y'], status: 'changed' },
      { label: 'b (Update) v1', manager: 'b', gained: [], lost: ['.data.z'], status: 'removed' },
      { label: 'c (Update) v1', manager: 'c', gained: ['.data.y'], lost: [], status: 'new' },
    ]);
    expect(ownershipChanges(after, after)).toEqual([]);
  });
});
