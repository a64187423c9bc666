// The playground panels (src/ui/panels) against the real service worker, mounted on their own test page
// (e2e/pages/ui-panels.html) so they do not depend on the frame. Screenshots go to test-results/.
import { expect, test, type Page } from '@playwright/test';
import { pageFetch, skipWithoutBrowser } from './helpers';

skipWithoutBrowser();

const PAGE = '/e2e/pages/ui-panels.html';

async function openPanels(page: Page, panels: string): Promise<string> {
  await page.goto(`${PAGE}?panels=${panels}`);
  await expect(page.getByTestId('panels-ready')).toBeVisible();
  await expect(page.getByTestId('engine-mode')).toHaveText('service-worker');
  // the timeline opens on the stored history (e2e/history.spec.ts); these tests drive the collection watch
  if (panels === 'timeline') await page.getByRole('button', { name: 'Watch a collection' }).click();
  return page.evaluate(() => window.uiPanels!.connection.baseUrl);
}

async function api(page: Page, base: string, method: string, path: string, body?: unknown, contentType = 'application/json') {
  const res = await pageFetch(page, base + path, {
    method,
    headers: { 'Content-Type': contentType, Accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
  return res.body as { metadata?: { resourceVersion?: string } };
}

const cm = (name: string, data: Record<string, string>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data });

test('resource browser: discovery, Table columns, select, open in editor, templates, CRDs appear', async ({ page }, info) => {
  const base = await openPanels(page, 'browser');
  const browser = page.getByTestId('resource-browser');
  await expect(browser.getByTestId('resource-core-configmaps')).toBeVisible();
  await expect(browser.getByTestId('resource-apps-deployments')).toBeVisible();

  await api(page, base, 'POST', '/api/v1/namespaces/default/configmaps', cm('alpha', { a: '1', b: '2' }));
  const table = browser.getByTestId('objects-table');
  // The list follows a watch on the collection: the new object appears without a refresh.
  const row = table.locator('tbody tr', { hasText: 'alpha' });
  await expect(row).toBeVisible();
  // kubectl's columns come from the server's Table: NAME, DATA, AGE.
  await expect(table.locator('thead th')).toHaveText(['Name', 'Data', 'Age']);
  await expect(row.locator('td').nth(1)).toHaveText('2');

  await row.click();
  await expect(row).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('selected')).toHaveText(
    JSON.stringify({ groupVersion: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespace: 'default', name: 'alpha' }),
  );

  await row.dblclick();
  const editor = page.getByTestId('editor-request');
  await expect(editor).toContainText('name: alpha');
  await expect(editor).toContainText("a: '1'");
  await expect(editor).not.toContainText('managedFields');
  await browser.getByLabel('Open with managedFields').check();
  await browser.getByRole('button', { name: 'Open in editor' }).click();
  await expect(editor).toContainText('managedFields:');
  await expect(editor).toContainText('manager: ');

  await browser.getByLabel('New from template').selectOption('deployment');
  await browser.getByRole('button', { name: 'Open template' }).click();
  await expect(editor).toContainText('kind: Deployment');
  await expect(editor).toContainText('image: nginx:1.27');

  // A CRD: discovery is read again when the CRD watch reports it, and its resource appears.
  await expect(browser.getByTestId('resource-example.com-widgets')).toHaveCount(0);
  await api(page, base, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
    },
  });
  await expect(browser.getByTestId('resource-example.com-widgets')).toBeVisible({ timeout: 20_000 });
  await browser.getByTestId('resource-example.com-widgets').click();
  await expect(browser.getByText('No resources found in default namespace.')).toBeVisible();

  await browser.getByTestId('resource-core-configmaps').click();
  await expect(row).toBeVisible();
  await browser.screenshot({ path: info.outputPath('resource-browser.png') });
  await page.getByRole('button', { name: /Theme/ }).click();
  await browser.screenshot({ path: info.outputPath('resource-browser-dark.png') });
});

test('watch timeline: live events with their manager, diff, filter, pause, clear', async ({ page }, info) => {
  const base = await openPanels(page, 'timeline');
  const tl = page.getByTestId('watch-timeline');
  await tl.getByRole('button', { name: 'Start watch' }).click();
  await expect(tl.locator('.tl-row[data-type="MARKER"]').first()).toContainText('watching: GET /api/v1/namespaces/default/configmaps?watch=true');

  await api(page, base, 'POST', '/api/v1/namespaces/default/configmaps?fieldManager=creator', cm('w1', { a: '1' }));
  await api(page, base, 'PATCH', '/api/v1/namespaces/default/configmaps/w1?fieldManager=editor', { data: { a: '2', b: 'new' } }, 'application/merge-patch+json');
  await api(page, base, 'DELETE', '/api/v1/namespaces/default/configmaps/w1');

  const rows = tl.locator('.tl-row');
  await expect(tl.locator('.tl-row[data-type="ADDED"]')).toContainText(['ConfigMap default/w1']);
  await expect(tl.locator('.tl-row[data-type="ADDED"]')).toContainText(['creator (Update)']);
  const modified = tl.locator('.tl-row[data-type="MODIFIED"]');
  await expect(modified).toContainText('editor (Update)');
  await expect(tl.locator('.tl-row[data-type="DELETED"]')).toContainText('ConfigMap default/w1');

  await modified.click();
  const diff = tl.getByTestId('timeline-diff');
  await expect(diff).toContainText('-   a: "1"');
  await expect(diff).toContainText('+   a: "2"');
  await expect(diff).toContainText('+   b: new');
  await expect(tl.getByTestId('timeline-detail')).toContainText('caused by editor (Update');
  await expect(tl.getByTestId('timeline-object')).toContainText('name: w1');
  await tl.screenshot({ path: info.outputPath('watch-timeline.png') });

  // Filter by text and by type.
  await tl.getByLabel('Filter', { exact: true }).fill('editor');
  await expect(rows).toHaveCount(1);
  await tl.getByLabel('Filter', { exact: true }).fill('');
  await tl.getByLabel('ADDED').uncheck();
  await expect(tl.locator('.tl-row[data-type="ADDED"]')).toHaveCount(0);
  await tl.getByLabel('ADDED').check();

  // Pause freezes the view while events keep arriving.
  const before = await rows.count();
  await tl.getByRole('button', { name: 'Pause view' }).click();
  await api(page, base, 'POST', '/api/v1/namespaces/default/configmaps', cm('w2', {}));
  await expect(tl.getByTestId('timeline-status')).toContainText('1 new while paused');
  await expect(rows).toHaveCount(before);
  await tl.getByRole('button', { name: 'Resume view' }).click();
  await expect(tl.locator('.tl-row[data-type="ADDED"]', { hasText: 'w2' })).toBeVisible();

  // Keyboard: arrows move between rows, Enter expands one.
  await rows.first().focus();
  await page.keyboard.press('ArrowDown');
  await expect(rows.nth(1)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(rows.nth(1)).toHaveAttribute('aria-selected', 'true');

  await tl.getByRole('button', { name: 'Clear' }).click();
  await expect(rows).toHaveCount(0);
  await expect(tl.getByTestId('timeline-status')).toContainText('0 entries');
  await tl.getByRole('button', { name: 'Stop' }).click();
  await expect(tl.getByTestId('timeline-status')).toContainText('stopped');

  // "Watch <name>" narrows the watch to the object selected elsewhere.
  await page.evaluate(() => window.uiPanels!.store.select({ groupVersion: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespace: 'default', name: 'w3' }));
  await tl.getByRole('button', { name: 'Watch w3' }).click();
  await expect(tl.getByLabel('Field selector')).toHaveValue('metadata.name=w3');
  await tl.getByRole('button', { name: 'Start watch' }).click();
  await expect(tl.locator('.tl-row[data-type="MARKER"]').first()).toContainText('fieldSelector=metadata.name%3Dw3');
  await api(page, base, 'POST', '/api/v1/namespaces/default/configmaps', cm('w4', {}));
  await api(page, base, 'POST', '/api/v1/namespaces/default/configmaps', cm('w3', {}));
  await expect(tl.locator('.tl-row[data-type="ADDED"]')).toHaveText([/default\/w3/]);
  await tl.getByRole('button', { name: 'Stop' }).click();
});

test('watch timeline: stream end reconnects from the last resourceVersion; sendInitialEvents ends with a bookmark', async ({ page }, info) => {
  const base = await openPanels(page, 'timeline');
  await api(page, base, 'POST', '/api/v1/namespaces/default/configmaps', cm('pre', { x: 'y' }));
  const tl = page.getByTestId('watch-timeline');
  await tl.getByLabel('sendInitialEvents').check();
  await tl.getByLabel('timeoutSeconds').fill('1');
  await tl.getByRole('button', { name: 'Start watch' }).click();
  await expect(tl.locator('.tl-row[data-type="MARKER"]').first()).toContainText('sendInitialEvents=true&resourceVersionMatch=NotOlderThan');
  await expect(tl.locator('.tl-row[data-type="ADDED"]', { hasText: 'default/pre' })).toBeVisible();
  await expect(tl.locator('.tl-row[data-type="BOOKMARK"]', { hasText: 'initial events end' })).toBeVisible();
  // timeoutSeconds=1: the server closes the stream, the timeline resumes from the newest rv it saw.
  const ended = tl.locator('.tl-row[data-type="MARKER"]', { hasText: 'stream ended; reconnecting from resourceVersion' }).first();
  await expect(ended).toBeVisible({ timeout: 10_000 });
  await expect(tl.locator('.tl-row[data-type="MARKER"]', { hasText: 'reconnected: GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=' }).first()).toBeVisible();
  await api(page, base, 'POST', '/api/v1/namespaces/default/configmaps', cm('after', {}));
  await expect(tl.locator('.tl-row[data-type="ADDED"]', { hasText: 'default/after' })).toBeVisible();
  // The object that existed before is not delivered again after a reconnect.
  await expect(tl.locator('.tl-row[data-type="ADDED"]', { hasText: 'default/pre' })).toHaveCount(1);
  await tl.screenshot({ path: info.outputPath('watch-timeline-reconnect.png') });
  await tl.getByRole('button', { name: 'Stop' }).click();
});

test('watch timeline: a 410 ERROR event is shown, then the timeline relists and watches again', async ({ page }, info) => {
  const base = await openPanels(page, 'timeline');
  await api(page, base, 'POST', '/api/v1/namespaces/default/configmaps', cm('g1', {}));
  // the relist below counts g1 and the root CA publisher's kube-root-ca.crt: both are there before the watch
  await expect.poll(async () => ((await api(page, base, 'GET', '/api/v1/namespaces/default/configmaps')) as { items: unknown[] }).items.length).toBe(2);
  // The service worker has no way to compact history on demand (5 minute window), so the timeline's first
  // watch response is replaced by what the server sends for a compacted resourceVersion; the relist and the
  // following watch go to the real engine. Only that one request is replaced: the stored-history view on the
  // same page keeps its own watches (through the same store) open and may start one at any time.
  await page.evaluate(() => {
    const store = window.uiPanels!.store;
    const real = store.fetch;
    const w = window as unknown as { replacedWatches: string[] };
    w.replacedWatches = [];
    store.fetch = async (path, init, source, options) => {
      if (source === 'timeline' && w.replacedWatches.length === 0 && path.startsWith('/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=1&')) {
        w.replacedWatches.push(path);
        const status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'too old resource version: 1 (5)', reason: 'Expired', code: 410 };
        return new Response(JSON.stringify({ type: 'ERROR', object: status }) + '\n', { status: 200, headers: { 'Content-Type': 'application/json' } });
      }
      return real(path, init, source, options);
    };
  });
  const tl = page.getByTestId('watch-timeline');
  await tl.getByLabel('resourceVersion', { exact: true }).selectOption('rv');
  await tl.getByLabel('given resourceVersion').fill('1');
  await tl.getByRole('button', { name: 'Start watch' }).click();
  await expect(tl.locator('.tl-row[data-type="ERROR"]')).toContainText('410 Expired: too old resource version: 1 (5)');
  expect(await page.evaluate(() => (window as unknown as { replacedWatches: string[] }).replacedWatches)).toHaveLength(1);
  await expect(tl.locator('.tl-row[data-type="MARKER"]', { hasText: '410 Gone: resourceVersion 1 is too old; relisting' })).toBeVisible();
  const relisted = tl.locator('.tl-row[data-type="MARKER"]', { hasText: /relisted 2 objects at resourceVersion \d+; watching from there/ });
  await expect(relisted).toBeVisible();
  // the watch after the relist starts from the list's resourceVersion
  const rv = /resourceVersion (\d+)/.exec(await relisted.innerText())![1];
  await expect(tl.locator('.tl-row[data-type="MARKER"]', { hasText: `reconnected: GET /api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${rv}&` })).toBeVisible();
  // nothing from before the relist is delivered again
  await expect(tl.locator('.tl-row[data-type="ADDED"]')).toHaveCount(0);
  await api(page, base, 'POST', '/api/v1/namespaces/default/configmaps', cm('g2', {}));
  await expect(tl.locator('.tl-row[data-type="ADDED"]', { hasText: 'default/g2' })).toBeVisible();
  await expect(tl.locator('.tl-row[data-type="ADDED"]')).toHaveCount(1);
  await tl.screenshot({ path: info.outputPath('watch-timeline-410.png') });
  await tl.getByRole('button', { name: 'Stop' }).click();
});

test('watch timeline: 10,000 events stay responsive (virtualised list)', async ({ page }, info) => {
  test.setTimeout(120_000);
  await openPanels(page, 'timeline');
  // Creating 10,000 objects in the service worker takes about 80 s on this machine, so the watch response
  // is a stream of 10,000 well-formed events delivered in chunks; the parsing, the model and the rendering
  // under test are the panel's own.
  await page.evaluate(() => {
    const store = window.uiPanels!.store;
    const real = store.fetch;
    store.fetch = async (path, init, source) => {
      if (!path.includes('watch=true')) return real(path, init, source);
      const enc = new TextEncoder();
      let i = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(ctl) {
          if (i >= 10_000) {
            await new Promise((r) => setTimeout(r, 60_000));
            ctl.close();
            return;
          }
          let chunk = '';
          for (let k = 0; k < 250 && i < 10_000; k++, i++) {
            const name = `cm-${i % 500}`;
            chunk += JSON.stringify({
              type: i < 500 ? 'ADDED' : 'MODIFIED',
              object: {
                apiVersion: 'v1',
                kind: 'ConfigMap',
                metadata: {
                  name,
                  namespace: 'default',
                  uid: `uid-${i % 500}`,
                  resourceVersion: String(100 + i),
                  managedFields: [{ manager: `m${i % 3}`, operation: 'Update', apiVersion: 'v1', time: new Date(1_700_000_000_000 + i * 1000).toISOString(), fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:n': {} } } }],
                },
                data: { n: String(i) },
              },
            }) + '\n';
          }
          // Split a chunk mid-event, as a transport may.
          const cut = Math.floor(chunk.length / 2);
          ctl.enqueue(enc.encode(chunk.slice(0, cut)));
          ctl.enqueue(enc.encode(chunk.slice(cut)));
          await new Promise((r) => setTimeout(r, 8));
        },
      });
      return new Response(body, { status: 200, headers: { 'Content-Type': 'application/json' } });
    };
  });
  const tl = page.getByTestId('watch-timeline');
  // Frame gaps while the events stream in.
  await page.evaluate(() => {
    const w = window as unknown as { frameGaps: number[]; frameStop: boolean };
    w.frameGaps = [];
    w.frameStop = false;
    let last = performance.now();
    const loop = (t: number) => {
      w.frameGaps.push(t - last);
      last = t;
      if (!w.frameStop) requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  });
  await tl.getByRole('button', { name: 'Start watch' }).click();
  await expect(tl.getByTestId('timeline-status')).toContainText('10001 entries', { timeout: 60_000 });
  const list = tl.getByTestId('timeline-list');
  // Only the rows in view are in the DOM.
  expect(await list.locator('.tl-row').count()).toBeLessThan(40);
  await expect(list.locator('.tl-row').last()).toContainText('default/cm-499');
  // Scroll to the middle and to the top: rows render at once.
  const scrollMs = await list.evaluate(async (el) => {
    const t0 = performance.now();
    el.scrollTop = el.scrollHeight / 2;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    el.scrollTop = 0;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return performance.now() - t0;
  });
  await expect(list.locator('.tl-row').first()).toContainText('watching');
  // Filtering 10,000 entries.
  const t0 = Date.now();
  await tl.getByLabel('Filter', { exact: true }).fill('cm-42 ');
  await tl.getByLabel('Filter', { exact: true }).fill('cm-421');
  await expect(tl.getByText('20 shown')).toBeVisible();
  const filterMs = Date.now() - t0;
  const gaps = await page.evaluate(() => {
    const w = window as unknown as { frameGaps: number[]; frameStop: boolean };
    w.frameStop = true;
    return w.frameGaps.slice(1);
  });
  gaps.sort((a, b) => a - b);
  const p95 = gaps[Math.floor(gaps.length * 0.95)];
  const max = gaps[gaps.length - 1];
  const report = `frames ${gaps.length}, p95 gap ${p95.toFixed(1)} ms, max gap ${max.toFixed(1)} ms, scroll ${scrollMs.toFixed(1)} ms, filter ${filterMs} ms`;
  info.annotations.push({ type: 'timeline-10k', description: report });
  console.log(`timeline with 10,000 events: ${report}`);
  // Loose budgets for a shared 2-core CI machine.
  expect(p95).toBeLessThan(250);
  expect(max).toBeLessThan(2000);
  expect(scrollMs).toBeLessThan(500);
  await tl.screenshot({ path: info.outputPath('watch-timeline-10k.png') });
  await tl.getByRole('button', { name: 'Stop' }).click();
});

test('managed fields: blame with shared ownership, entries, live history, the [{}] reset', async ({ page }, info) => {
  const base = await openPanels(page, 'managed-fields');
  const path = '/api/v1/namespaces/default/configmaps/owned';
  const applyAs = (manager: string, data: Record<string, string>) =>
    api(page, base, 'PATCH', `${path}?fieldManager=${manager}`, cm('owned', data), 'application/apply-patch+yaml');
  await applyAs('alice', { a: '1' });
  await applyAs('bob', { a: '1', b: '2' });
  const mf = page.getByTestId('managed-fields');
  await expect(mf).toContainText('Select an object');
  await page.evaluate(() => window.uiPanels!.store.select({ groupVersion: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespace: 'default', name: 'owned' }));

  const blame = mf.getByTestId('blame');
  const line = (text: string) => blame.locator('.blame-line', { hasText: text });
  // Two appliers of the same value share the field.
  await expect(line('a: "1"')).toHaveAttribute('data-owners', 'alice,bob');
  await expect(line('a: "1"')).toHaveClass(/shared/);
  await expect(line('b: "2"')).toHaveAttribute('data-owners', 'bob');
  await expect(line('name: owned')).toHaveAttribute('data-owners', '');
  await expect(mf.getByTestId('managers').locator('li')).toHaveCount(2);
  await expect(mf.getByTestId('managers')).toContainText('alice');
  await expect(mf.getByTestId('managers')).toContainText('Apply');
  await mf.getByRole('button', { name: 'fieldsV1' }).first().click();
  await expect(mf.getByTestId('fieldsv1-tree')).toHaveText('.data.a ●');
  await mf.getByText('raw fieldsV1').click();
  await expect(mf.getByTestId('fieldsv1')).toContainText('"f:a": {}');

  // An Update by another manager arrives live through the watch.
  await api(page, base, 'PATCH', `${path}?fieldManager=carol`, { data: { c: '3' } }, 'application/merge-patch+json');
  await expect(line('c: "3"')).toHaveAttribute('data-owners', 'carol');
  const history = mf.getByTestId('history');
  // from the stored history: alice's create, bob's apply, carol's update
  await expect(history.locator(':scope > li')).toHaveCount(3);
  await expect(history).toContainText('carol (Update) v1 (new) +.data.c');
  await info.attach('managed-fields', { body: await mf.screenshot({ path: info.outputPath('managed-fields.png') }), contentType: 'image/png' });

  // The reset (spec rule 8): a non-apply write that sets managedFields to [{}] clears tracking.
  await api(page, base, 'PATCH', path, { metadata: { managedFields: [{}] } }, 'application/merge-patch+json');
  await expect(mf).toContainText('This object has no managedFields');
  await expect(history.locator(':scope > li')).toHaveCount(4);
  await expect(history.locator(':scope > li').last()).toContainText('alice (Apply) v1 (removed)');
  // The explanation of [{}] versus [] is in the panel.
  await mf.getByText('Resetting managedFields').click();
  await expect(mf).toContainText('this playground follows the spec');
  // Back in history: the version where alice and bob shared .data.a.
  await history.getByRole('button').nth(1).click();
  await expect(line('a: "1"')).toHaveAttribute('data-owners', 'alice,bob');
  await mf.screenshot({ path: info.outputPath('managed-fields-reset.png') });

  // `[]` is not a reset here (the spec; docs/design.md 7): tracking goes on, and the writer is recorded.
  await mf.getByRole('button', { name: 'Back to live' }).click();
  // Applying to an object without managedFields first records its fields under before-first-apply.
  await applyAs('alice', { a: '1' });
  await expect(line('a: "1"')).toHaveAttribute('data-owners', 'alice,before-first-apply');
  await expect(line('b: "2"')).toHaveAttribute('data-owners', 'before-first-apply');
  await api(page, base, 'PATCH', `${path}?fieldManager=dave`, { metadata: { managedFields: [] }, data: { d: '4' } }, 'application/merge-patch+json');
  await expect(line('d: "4"')).toHaveAttribute('data-owners', 'dave');
  await expect(line('a: "1"')).toHaveAttribute('data-owners', 'alice,before-first-apply');
});

test('CEL evaluator: value and type, cost, compile vs runtime errors, versions, binding the selected object', async ({ page }, info) => {
  const base = await openPanels(page, 'cel');
  const cel = page.getByTestId('cel-evaluator');
  const expr = cel.getByLabel('Expression');
  const result = cel.getByTestId('cel-result');

  // The first example runs as soon as the panel opens.
  await expect(cel.getByTestId('cel-type')).toHaveText('bool');
  await expect(cel.getByTestId('cel-value')).toHaveText('true');
  await expect(cel.getByTestId('cel-cost')).toContainText(/Runtime cost \d+ of 1,000,000 per expression/);
  await expect(cel.getByTestId('cel-cost')).toContainText('of 10,000,000');

  await expr.fill('[1, 2, 3].map(x, x * 2)');
  await expect(cel.getByTestId('cel-value')).toHaveText('[\n  2,\n  4,\n  6\n]');
  await expect(cel.getByTestId('cel-type')).toHaveText('list');

  // A compile error: the offending operator is underlined.
  await expr.fill("'replicas: ' + 3");
  await expect(result.locator('[data-kind]')).toHaveAttribute('data-kind', 'compile');
  await expect(result).toContainText('Compile error at line 1, column 14');
  await expect(result).toContainText("found no matching overload for '_+_' applied to '(string, int)'");
  await expect(cel.getByTestId('cel-highlight').locator('[data-error]')).toHaveText('+');
  await cel.screenshot({ path: info.outputPath('cel-compile-error.png') });

  // A runtime error.
  await cel.getByLabel('Example').selectOption({ label: 'Runtime error: division by zero' });
  await expect(result.locator('[data-kind]')).toHaveAttribute('data-kind', 'runtime');
  await expect(result).toContainText('Runtime error');
  await expect(result).toContainText('division by zero');

  // Quantities arrive in 1.29: under 1.28 the function is unknown.
  await cel.getByLabel('Example').selectOption({ label: 'Quantities (1.29+)' });
  await expect(cel.getByTestId('cel-value')).toHaveText('true');
  await cel.getByLabel('Compatibility version').selectOption('1.28');
  await expect(result.locator('[data-kind]')).toHaveAttribute('data-kind', 'compile');
  await cel.getByLabel('Compatibility version').selectOption('1.33');

  // Bind the selected object as `object`.
  await api(page, base, 'POST', '/api/v1/namespaces/default/configmaps', cm('celcm', { mode: 'fast' }));
  await page.evaluate(() => window.uiPanels!.store.select({ groupVersion: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespace: 'default', name: 'celcm' }));
  await cel.getByLabel('Bind the selected object as').selectOption('object');
  await cel.getByRole('button', { name: 'Bind ConfigMap celcm' }).click();
  await expect(cel.getByTestId('cel-variables')).toHaveValue(/object:\n {2}kind: ConfigMap\n {2}apiVersion: v1/);
  await expr.fill("object.data.mode + '!'");
  await expect(cel.getByTestId('cel-value')).toHaveText('"fast!"');
  await expect(cel.getByTestId('cel-type')).toHaveText('string');

  // Invalid variables YAML is reported before anything is sent.
  await cel.getByTestId('cel-variables').fill('self: [1, 2');
  await expect(result.getByRole('alert')).toContainText('variables:');
  await cel.getByTestId('cel-variables').fill('self: [1, 2]');
  await expr.fill('self.exists(x, x > 1)');
  await expect(cel.getByTestId('cel-value')).toHaveText('true');
  await cel.screenshot({ path: info.outputPath('cel-evaluator.png') });
});
