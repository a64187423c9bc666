// The benchmarks are not timed tests (they measure and print), but they must not rot: each suite that can
// run in a few hundred milliseconds runs here once with tiny sizes and few iterations, and its report is
// checked for shape (every series measured, every figure a positive number).
import { describe, expect, it } from 'vitest';
import { alternate } from '../bench/alternate.js';
import { abSuite, formatRow, type Entry } from '../bench/ab.js';
import { growthRows, growthSeries, series } from '../bench/growth.js';
import { scale, scaleRows } from '../bench/scale.js';
import { apiTable, celTable, peerMarkdown, RULES } from '../bench/peers.js';
import { GC, HARNESS, medianResult, OTHER, STEPS, stepsFor, stepsMarkdown, WORKS } from '../bench/steps.js';

describe('bench smoke runs', () => {
  it('growth: every series doubles its work and reports a factor per doubling', async () => {
    const all = await growthSeries({ objects: 4, doublings: 1, samples: 3 });
    expect(all.map((s) => `${s.cost} / ${s.axis}`)).toEqual([
      'get / objects',
      'limit=500 chunk from the middle of the list / objects',
      'merge-patch write / objects',
      'write to delivery at the last watcher / watchers',
      'apply (value change) by one of the managers / field managers on the object',
      'create of the custom resource / CEL rules on the CRD',
    ]);
    for (const s of all) {
      expect(s.sizes).toEqual([s.sizes[0], s.sizes[0] * 2]);
      for (const v of s.p50Ms) expect(v).toBeGreaterThan(0);
      expect(s.factor).toBeGreaterThan(0);
      // one doubling: the factor per doubling is that doubling's
      expect(s.worst).toBeCloseTo(s.factor, 6);
    }
    const rows = growthRows(all);
    expect(rows).toHaveLength(6);
    for (const r of rows) expect(r.note).toMatch(/^factor per doubling \d+\.\d\d \(per round \d+\.\d\dx-\d+\.\d\dx; largest single doubling \d+\.\d\d\); p50 [\d.]+ \/ [\d.]+ ms$/);
  });

  it('growth: factors are taken round by round, p50s are the medians of the rounds', () => {
    // round 2 ran under load at every size: it moves the p50s, not the factors
    const s = series('get', 'objects', [1, 2, 4], [[1, 1, 10], [1, 1.2, 10], [2, 2, 20]], 1);
    expect(s.p50Ms).toEqual([1, 1.2, 2]);
    expect(s.factor).toBeCloseTo(Math.SQRT2, 6);
    expect(s.factorSpread).toBe('1.41x-1.41x');
    expect(s.worst).toBeCloseTo(2, 6); // the second doubling: 2, 2/1.2, 2
  });

  it('scale: both clusters timed in turn, each ratio the median of the per-round ratios', async () => {
    const r = await scale({ small: 20, large: 200, chunkRounds: 3, chunksPerRound: 1, requestRounds: 3, requestsPerRound: 2 });
    for (const c of [r.chunk, r.get, r.write, r.create, r.firstPage]) {
      expect(c.smallMs).toBeGreaterThan(0);
      expect(c.largeMs).toBeGreaterThan(0);
      expect(c.spread).toMatch(/^\d+\.\d\dx-\d+\.\d\dx$/);
    }
    expect(r.heapBytes).toBeGreaterThan(0);
    const rows = scaleRows(r);
    // the rows of BENCHMARKS.md's table keep their names
    expect(rows.map((x) => x.name)).toEqual([
      'scale: limit=500 chunk at 100,000 objects (p50 of 30)',
      'scale: get at 100,000 objects (p50 of 400)',
      'scale: merge-patch write at 100,000 objects (p50 of 400)',
      'scale: create at 100,000 objects (p50 of 400)',
      'scale: limit=500 first page right after a write at 100,000 objects (p50 of 400)',
      'scale: engine heap at 100,000 objects / stored JSON',
    ]);
    for (const x of rows.slice(0, 5)) expect(x.note).toMatch(/^\d+\.\d\dx of the 1,000-object figure \([\d.]+ ms\); median of 3 per-round ratios, middle half \d+\.\d\dx-\d+\.\d\dx, all \d+\.\d\dx-\d+\.\d\dx$/);
  });

  it('alternate: sides in turn, order reversed every other round, warm-up rounds dropped', async () => {
    const order: string[] = [];
    const p50s = await alternate(['a', 'b'], { rounds: 2, perRound: 2, warmupRounds: 1 }, (side, n) => void order.push(`${side}${n}`));
    expect(order).toEqual(['a0', 'a1', 'b0', 'b1', 'b2', 'b3', 'a2', 'a3', 'a4', 'a5', 'b4', 'b5']);
    expect(p50s.a).toHaveLength(2);
    expect(p50s.b).toHaveLength(2);
  });

  it('ab: each suite runs (one row each) this tree against itself and reports a ratio', async () => {
    const self = (await import('../bench/engine-entry.js')) as Entry;
    const opts = { rounds: 2, perRound: 2, warmupRounds: 1 };
    const requests = await abSuite('requests', self, self, opts, 'get ConfigMap');
    expect(requests.map((r) => r.name)).toEqual(['get ConfigMap']);
    const writes = await abSuite('writes', self, self, { ...opts, perRound: 1 }, 'conflict');
    expect(writes.map((r) => r.name)).toEqual(['apply Deployment (3 containers), conflict 409']);
    expect(writes[0].p25).toBeGreaterThan(0);
    const cel = await abSuite('cel', self, self, opts, 'replicas');
    expect(cel.length).toBeGreaterThan(0);
    for (const r of [...requests, ...writes, ...cel]) {
      expect(r.beforeUs).toBeGreaterThan(0);
      expect(r.afterUs).toBeGreaterThan(0);
      expect(r.ratio).toBeCloseTo(r.afterUs / r.beforeUs, 6);
      expect(formatRow(r)).toMatch(/^(requests|writes|cel): .+: before [\d.]+ µs, after [\d.]+ µs, after\/before \d+\.\d\dx \((per round \d+\.\d\dx-\d+\.\d\dx|p25 \d+\.\d\dx)\)$/);
    }
  });

  it('peers, CEL: every rule evaluated and compiled by ours and every peer, each with a ratio, printed as a table', async () => {
    const table = await celTable({ rounds: 1, warmUp: 1, batches: { evaluate: 2, compile: 1 } });
    expect(table.peerNames).toEqual(['@marcbachmann/cel-js', '@marcbachmann/cel-js checked', '@bufbuild/cel']);
    expect(table.rows.map((r) => r.work)).toEqual(RULES.flatMap((r) => [`evaluate: ${r.name}`, `compile + evaluate: ${r.name}`]));
    for (const row of table.rows) {
      expect(row.ours).toBeGreaterThan(0);
      for (const p of table.peerNames) {
        expect(row.peers[p]).toBeGreaterThan(0);
        expect(row.ratios?.[p]).toBeGreaterThan(0);
      }
    }
    const md = peerMarkdown([table]);
    expect(md).toContain('### CEL (rules of CRD and policy shape) (µs, p50)');
    expect(md.split('\n').filter((l) => l.startsWith('| evaluate: ') || l.startsWith('| compile + evaluate: '))).toHaveLength(RULES.length * 2);
  });

  it('peers, API: every side in a process of its own, webernetes booted with and without its control plane', async () => {
    // the same table as `npm run bench`, tiny: a few objects per side, two rounds (webernetes waits for its
    // control-plane pods to run, a few seconds)
    const table = await apiTable({ warm: 3, rounds: 2, per: 2 });
    expect(table.notes.filter((n) => n.includes('not measured'))).toEqual([]);
    const apply = 'server-side apply Namespace (label change)';
    expect(table.rows.map((r) => r.work)).toEqual([
      'create Namespace',
      'get Namespace',
      'update Namespace (get + put, label change)',
      'merge patch Namespace (label change)',
      apply,
      'create Namespace (ours through handle())',
      'get Namespace (ours through handle())',
      'create Namespace (both API servers alone: ours without controllers, webernetes without its control-plane pods)',
      'update Namespace (get + put, label change) (both API servers alone: ours without controllers, webernetes without its control-plane pods)',
      'merge patch Namespace (label change) (both API servers alone: ours without controllers, webernetes without its control-plane pods)',
      'list all Namespaces, 5 to 7 (one request)',
    ]);
    for (const row of table.rows) {
      expect(row.ours).toBeGreaterThan(0);
      if (row.work === apply) {
        // the peer answers 415 to an apply patch: no figure, and the table says why
        expect(row.peers.webernetes).toBeUndefined();
        expect(row.why?.webernetes).toMatch(/415/);
        continue;
      }
      expect(row.peers.webernetes).toBeGreaterThan(0);
      expect(row.ratios?.webernetes).toBeGreaterThan(0);
    }
    const md = peerMarkdown([table]);
    expect(md).toContain('### API (Namespaces, in-process, memory storage) (ms, p50)');
    expect(md.split('\n').filter((l) => /^\| (create|get|update|merge patch|list) /.test(l) && /\d\.\d\dx/.test(l))).toHaveLength(10);
  }, 120_000);

  it('steps: a profiled request kind is charged to the named steps, and the table has a row per step', async () => {
    const runs = [await stepsFor('create-cm', 400), await stepsFor('create-cm', 400)];
    for (const r of runs) {
      expect(r.usPerOp).toBeGreaterThan(0);
      // the shares are of the loop's p50: they add up to it
      expect([...r.steps.values()].reduce((a, b) => a + b, 0)).toBeCloseTo(r.usPerOp, 3);
      // STEPS still names the engine's functions: some of the time is charged to one of them
      const named = [...r.steps].filter(([k]) => k !== OTHER && k !== GC && k !== HARNESS);
      expect(named.reduce((a, [, v]) => a + v, 0)).toBeGreaterThan(0);
    }
    const md = stepsMarkdown([['create-cm', medianResult(runs)], ['get-cm', await stepsFor('get-cm', 400)]]);
    const lines = md.split('\n');
    expect(lines[0]).toBe(`| step | ${WORKS['create-cm'].label} | ${WORKS['get-cm'].label} |`);
    // a row per step (the named ones, other engine code, garbage collection, the harness), then the whole
    expect(lines).toHaveLength(2 + STEPS.length + 3 + 1);
    for (const l of lines.slice(2, -1)) expect(l).toMatch(/^\| [^|]+ \| \d+\.\d \(\d+%\) \| \d+\.\d \(\d+%\) \|$/);
    expect(lines.at(-1)).toMatch(/^\| \*\*whole request \(p50\)\*\* \| \*\*\d+\*\* \| \*\*\d+\*\* \|$/);
  }, 120_000);
});
