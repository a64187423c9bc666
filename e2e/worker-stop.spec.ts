// Writes in flight while the service worker is stopped, over and over: every client write takes effect
// once and is answered truthfully. The page sends many POSTs (half with generateName, half with a fixed
// name) through the shell's API client (src/ui/api.ts) in rounds, and the test stops the worker through CDP
// twice in each round while its writes are in flight; each write carries a unique marker label, so that
// afterwards every stored object can be traced to the client write that made it. Counted: duplicates (more
// than one object for a write), false errors (an error answer, or another name, for a stored write), lost
// writes (answered 201, not stored) and failed ones (an error answer, nothing stored).
// Without idempotent writes (src/hosts/sw/idempotency.ts), 480 writes and 60 stops gave 2 duplicate
// generateName objects and 9 network errors; earlier runs also gave 409s for stored writes.
import { expect, test } from '@playwright/test';
import { openShell, shellFetch, skipWithoutBrowser } from './helpers';

skipWithoutBrowser();

const CLUSTER = 'worker-stop-e2e';
const NS = 'worker-stop';
const WRITES = Number(process.env.KUBE_E2E_WORKER_STOP_WRITES ?? 480);
/** Two stops per round, while that round's writes are in flight. */
const ROUNDS = Number(process.env.KUBE_E2E_WORKER_STOP_ROUNDS ?? 30);
const CONCURRENCY = 6;

interface Outcome {
  marker: string;
  kind: 'generate' | 'fixed';
  status: number;
  name?: string;
  reason?: string;
  /** Answered from the host's record of an earlier delivery of the same write (Idempotent-Replayed). */
  replayed?: boolean;
}

declare global {
  interface Window {
    workerStop?: { inflight: number; results: Outcome[]; batch(from: number, count: number): void };
  }
}

test('writes in flight while the worker is stopped: no duplicate, no false error, nothing lost', async ({ page, context }) => {
  test.setTimeout(120_000);
  await openShell(page, `/?cluster=${CLUSTER}`);
  // a namespace of this run's own: an earlier run's objects are deleted with their namespace first
  const run = `r${Date.now().toString(36)}`;
  const ns = `${NS}-${run}`;
  const created = await shellFetch(page, '/api/v1/namespaces', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }),
  });
  expect(created.status).toBe(201);

  const cdp = await context.newCDPSession(page);
  await cdp.send('ServiceWorker.enable');
  // the client: window.workerStop.batch(from, count) sends writes from..from+count-1, CONCURRENCY at a time
  await page.evaluate(
    ({ ns, run, concurrency }) => {
      const state = { inflight: 0, results: [] as Outcome[], batch };
      window.workerStop = state;
      const url = `/api/v1/namespaces/${ns}/configmaps`;
      async function one(i: number): Promise<void> {
        const marker = `${run}-${i}`;
        const kind: Outcome['kind'] = i % 2 === 0 ? 'generate' : 'fixed';
        const metadata = kind === 'generate' ? { generateName: 'gen-', labels: { marker } } : { name: `fixed-${marker}`, labels: { marker } };
        const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata, data: { i: String(i) } });
        try {
          const res = await window.playground.apiFetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
          const text = await res.text();
          let parsed: { metadata?: { name?: string }; reason?: string } = {};
          try {
            parsed = JSON.parse(text) as typeof parsed;
          } catch {
            parsed = { reason: `not JSON: ${text.slice(0, 80)}` };
          }
          state.results.push({ marker, kind, status: res.status, name: parsed.metadata?.name, reason: parsed.reason, replayed: res.headers.get('Idempotent-Replayed') === 'true' });
        } catch (err) {
          state.results.push({ marker, kind, status: 0, reason: String(err) });
        }
      }
      function batch(from: number, count: number): void {
        let next = from;
        const lane = async () => {
          while (next < from + count) await one(next++);
        };
        state.inflight++;
        void Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane)).finally(() => state.inflight--);
      }
    },
    { ns, run, concurrency: CONCURRENCY },
  );

  // rounds: start a batch of writes, stop the worker while they are in flight (at varying moments, twice),
  // wait for the batch to be answered
  const perRound = Math.ceil(WRITES / ROUNDS);
  let stops = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const from = round * perRound;
    const count = Math.min(perRound, WRITES - from);
    if (count <= 0) break;
    await page.evaluate(({ from, count }) => window.workerStop!.batch(from, count), { from, count });
    for (const delay of [(round * 7) % 25, 10 + ((round * 13) % 40)]) {
      await page.waitForTimeout(delay);
      await cdp.send('ServiceWorker.stopAllWorkers');
      stops++;
    }
    await expect.poll(() => page.evaluate(() => window.workerStop!.inflight), { timeout: 30_000, intervals: [20, 50, 100] }).toBe(0);
  }
  const results = await page.evaluate(() => window.workerStop!.results);
  expect(results).toHaveLength(WRITES);

  // what is stored, by marker
  const list = await shellFetch(page, `/api/v1/namespaces/${ns}/configmaps`);
  expect(list.status).toBe(200);
  const stored = new Map<string, string[]>();
  for (const item of (list.body as { items: { metadata: { name: string; labels?: Record<string, string> } }[] }).items) {
    const marker = item.metadata.labels?.marker ?? '';
    stored.set(marker, [...(stored.get(marker) ?? []), item.metadata.name]);
  }
  let duplicates = 0;
  let falseErrors = 0;
  let lost = 0;
  let unanswered = 0;
  const problems: string[] = [];
  for (const r of results) {
    const names = stored.get(r.marker) ?? [];
    if (names.length > 1) {
      duplicates += names.length - 1;
      problems.push(`${r.marker}: ${names.length} objects (${names.join(', ')}), answered ${r.status}`);
    }
    if (r.status === 201) {
      if (names.length === 0) {
        lost++;
        problems.push(`${r.marker}: answered 201 (${r.name}) but not stored`);
      } else if (!names.includes(r.name ?? '')) {
        problems.push(`${r.marker}: answered 201 with ${r.name} but stored as ${names.join(', ')}`);
        falseErrors++;
      }
    } else if (names.length > 0) {
      falseErrors++;
      problems.push(`${r.marker}: answered ${r.status} ${r.reason ?? ''} but stored as ${names.join(', ')}`);
    } else {
      unanswered++;
      problems.push(`${r.marker}: answered ${r.status} ${r.reason ?? ''}, not stored`);
    }
  }
  console.log(`worker-stop: writes ${results.length}, stops ${stops}, duplicates ${duplicates}, false errors ${falseErrors}, lost ${lost}`);
  console.log(`worker-stop: answered from the record of an earlier delivery: ${results.filter((r) => r.replayed).length}`);
  if (problems.length) console.log(problems.slice(0, 30).join('\n'));
  expect(stops).toBe(2 * ROUNDS);
  expect({ duplicates, falseErrors, lost, failed: unanswered }).toEqual({ duplicates: 0, falseErrors: 0, lost: 0, failed: 0 });
});
