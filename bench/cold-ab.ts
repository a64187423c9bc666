// Cold start of the service worker, two builds side by side in one Chromium (issue 17, cold-start row):
// each build is served from its own origin (its own worker and IndexedDB), gets a cluster of N ConfigMaps
// of ~2 KiB created through its worker, then rounds alternate between the builds: all workers stopped over
// the DevTools protocol, one get from a controlled page that runs no app (bench/browser.ts coldStarts), and
// with it a list of one item (it waits for the engine to have loaded everything), timed apart.
//   npx tsx bench/cold-ab.ts <before-dist> <after-dist> [N] [rounds]
// A dist is `vite build --outDir <dir>` of a checkout (this tree's vite.config.ts serves either).
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { preview } from 'vite';
import { findChromium } from '../e2e/browser.js';
import { coldStarts, createBulk, createNamespace, moveToWorkerScript } from './browser.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const [beforeDist, afterDist] = process.argv.slice(2, 4);
const N = Number(process.argv[4] ?? 10_000);
const ROUNDS = Number(process.argv[5] ?? 7);
const log = (s: string) => process.stderr.write(`[cold-ab] ${s}\n`);

const choice = findChromium();
if (!choice.launchOptions) throw new Error(`no Chromium: ${choice.description}`);
const configFile = join(ROOT, 'vite.config.ts');
const servers = await Promise.all(
  [beforeDist, afterDist].map((outDir, i) => preview({ configFile, root: ROOT, logLevel: 'warn', build: { outDir }, preview: { host: '127.0.0.1', port: 4491 + i * 10, strictPort: false } })),
);
const browser = await chromium.launch({ ...choice.launchOptions, headless: true });
try {
  const context = await browser.newContext();
  const sides = [];
  for (const [i, server] of servers.entries()) {
    const origin = server.resolvedUrls!.local[0].replace(/\/$/, '');
    const page = await context.newPage();
    await page.goto(`${origin}/?cluster=cold`);
    await page.getByTestId('engine-mode').waitFor();
    const base = `${origin}/clusters/cold`;
    await createNamespace(page, base, 'bench-bulk');
    const t0 = Date.now();
    const made = await createBulk(page, base, N, 8);
    if (made.failures.length) throw new Error(made.failures.join('; '));
    log(`${i ? 'after' : 'before'}: ${N} ConfigMaps created in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    const probe = await context.newPage();
    await probe.goto(`${origin}/sw.js`);
    await page.close();
    // the worker later visits run (a first visit installs sw-first.js; the app moves to sw.js once hidden);
    // a build from before sw-first.js already runs sw.js
    await moveToWorkerScript(probe);
    sides.push({ name: i ? 'after' : 'before', probe, url: `${base}/api/v1/namespaces/bench-bulk/configmaps/bulk-00000`, list: `${base}/api/v1/namespaces/bench-bulk/configmaps?limit=1`, ms: [] as number[], lists: [] as number[] });
  }
  for (let r = 0; r < ROUNDS; r++) {
    for (let j = 0; j < sides.length; j++) {
      const side = sides[(r + j) % sides.length];
      const { durations, lists, failures } = await coldStarts(side.probe, side.url, 1, side.list);
      if (failures.length) throw new Error(`${side.name}: ${failures.join('; ')}`);
      side.ms.push(durations[0]);
      side.lists.push(lists[0]);
    }
    log(`round ${r + 1}: ${sides.map((s) => `${s.name} ${s.ms[r].toFixed(0)} ms (list ${s.lists[r].toFixed(0)} ms)`).join(', ')}`);
  }
  const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  for (const s of sides) {
    console.log(`${s.name}: cold start to first answer, median ${median(s.ms).toFixed(0)} ms [${s.ms.map((x) => x.toFixed(0)).join(' ')}]`);
    console.log(`${s.name}: the list of one fetched with it, median ${median(s.lists).toFixed(0)} ms [${s.lists.map((x) => x.toFixed(0)).join(' ')}]`);
  }
  console.log(`after/before: first answer ${(median(sides[1].ms) / median(sides[0].ms)).toFixed(2)}x, list ${(median(sides[1].lists) / median(sides[0].lists)).toFixed(2)}x`);
} finally {
  await browser.close();
  for (const s of servers) await s.close();
}
