// A/B of CEL compile + evaluate between two builds of the engine in one process, on the peer rules of
// bench/peers.ts: rounds alternate between the builds, each figure is the median of the per-round p50s.
//   npx esbuild <main>/bench/engine-entry.ts --bundle --format=esm --platform=node --outfile=/tmp/before.mjs
//   npx tsx bench/cel-ab.ts /tmp/before.mjs [rounds] [per-round] [rule filter]
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { importBundled } from './bundled.js';
import { median } from './run.js';
import { DATA, RULES, SCHEMA } from './peers.js';

type Entry = typeof import('./engine-entry.js');
const after = await importBundled<Entry>('bench/engine-entry.ts');
const before = (await import(pathToFileURL(resolve(process.argv[2])).href)) as Entry;
const ROUNDS = Number(process.argv[3] ?? 15);
const PER_ROUND = Number(process.argv[4] ?? 100);
const only = process.argv[5];

function side(e: Entry) {
  const envs = {
    self: e.createCelEnv({ variables: { self: e.schemaToCelType(SCHEMA, {}, { resourceRoot: true })! } }),
    object: e.createCelEnv({ variables: { object: e.schemaToCelType(SCHEMA, {}, { resourceRoot: false })! } }),
  };
  return (expr: string, v: 'self' | 'object') => {
    const p = envs[v].compile(expr);
    if (e.isCompileError(p)) throw new Error(p.formatted);
    const r = p.evaluateJson({ [v]: DATA });
    if (e.isRuntimeError(r) || r.value !== true) throw new Error(`${expr}: not true`);
  };
}

const sides = { before: side(before), after: side(after) };
const ratios: number[] = [];
for (const rule of RULES) {
  if (only && !rule.name.includes(only)) continue;
  const p50s: Record<string, number[]> = { before: [], after: [] };
  for (let r = 0; r < ROUNDS + 1; r++) {
    for (const s of (r % 2 ? ['after', 'before'] : ['before', 'after']) as ('before' | 'after')[]) {
      const t: number[] = [];
      for (let i = 0; i < PER_ROUND; i++) {
        const t0 = performance.now();
        sides[s](rule.expr, rule.variable);
        t.push(performance.now() - t0);
      }
      if (r > 0) p50s[s].push(median(t)); // round 0 warms up
    }
  }
  const b = median(p50s.before) * 1000;
  const a = median(p50s.after) * 1000;
  ratios.push(a / b);
  console.log(`compile + evaluate: ${rule.name}: before ${b.toFixed(1)} µs, after ${a.toFixed(1)} µs, after/before ${(a / b).toFixed(2)}x`);
}
console.log(`after/before: ${Math.min(...ratios).toFixed(2)}x - ${Math.max(...ratios).toFixed(2)}x, median ${median(ratios).toFixed(2)}x`);
process.exit(0);
