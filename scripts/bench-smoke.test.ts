// The benchmarks are not timed tests (they measure and print), but they must not rot: each suite that can
// run in a few hundred milliseconds runs here once with tiny sizes and few iterations, and its report is
// checked for shape (every series measured, every figure a positive number).
import { describe, expect, it } from 'vitest';
import { growthRows, growthSeries } from '../bench/growth.js';

describe('bench smoke runs', () => {
  it('growth: every series doubles its work and reports a factor per doubling', async () => {
    const series = await growthSeries({ objects: 4, doublings: 1, samples: 3 });
    expect(series.map((s) => `${s.cost} / ${s.axis}`)).toEqual([
      'get / objects',
      'limit=500 chunk from the middle of the list / objects',
      'merge-patch write / objects',
      'write to delivery at the last watcher / watchers',
      'apply (value change) by one of the managers / field managers on the object',
      'create of the custom resource / CEL rules on the CRD',
    ]);
    for (const s of series) {
      expect(s.sizes).toEqual([s.sizes[0], s.sizes[0] * 2]);
      for (const v of s.p50Ms) expect(v).toBeGreaterThan(0);
      expect(s.factor).toBeCloseTo(s.p50Ms[1] / s.p50Ms[0], 6);
    }
    const rows = growthRows(series);
    expect(rows).toHaveLength(6);
    for (const r of rows) expect(r.note).toMatch(/^factor per doubling \d+\.\d\d \(largest single doubling \d+\.\d\d\); p50 [\d.]+ \/ [\d.]+ ms$/);
  });
});
