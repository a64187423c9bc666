import { describe, expect, it } from 'vitest';
import { filterRows } from './object-list.js';

const rows = ['web', 'Web-2', 'db', 'cache-web'].map((name) => ({ name, cells: [name] }));

describe('filterRows', () => {
  it('keeps the rows whose name contains the query, ignoring case and surrounding spaces', () => {
    expect(filterRows(rows, 'web').map((r) => r.name)).toEqual(['web', 'Web-2', 'cache-web']);
    expect(filterRows(rows, ' WEB-').map((r) => r.name)).toEqual(['Web-2']);
    expect(filterRows(rows, 'nothing')).toEqual([]);
  });
  it('an empty query keeps every row (the same array)', () => {
    expect(filterRows(rows, '')).toBe(rows);
    expect(filterRows(rows, '   ')).toBe(rows);
  });
});
