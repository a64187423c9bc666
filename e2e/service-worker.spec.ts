// The service-worker host in Chromium: control on first load, the API under base_url, persistence across a
// reload, a stopped worker and a second tab.
import { expect, test, type Page } from '@playwright/test';
import { CORE_NAMESPACES, configMap, names, openShell, pageFetch, skipWithoutBrowser } from './helpers';

skipWithoutBrowser();

const BASE = '/clusters/default';

async function isControlled(page: Page): Promise<boolean> {
  return page.evaluate(() => navigator.serviceWorker.controller !== null);
}

test('the shell loads, the worker takes control on the first load, and the namespaces are shown', async ({ page, baseURL }, testInfo) => {
  await openShell(page);
  expect(await isControlled(page)).toBe(true);
  await expect(page.getByTestId('engine-mode')).toHaveText('service worker');
  await expect(page.getByTestId('cluster-name')).toHaveText('default');
  await expect(page.getByLabel('base_url')).toHaveValue(`${baseURL}${BASE}`);
  // The frame's resource browser (src/ui/panels/browser) reads namespaces and kinds from the API.
  const browser = page.getByTestId('resource-browser');
  const namespace = browser.getByLabel('Namespace', { exact: true });
  for (const ns of CORE_NAMESPACES) await expect(namespace.locator(`option[value="${ns}"]`)).toHaveCount(1);
  await expect(browser.getByTestId('objects-table')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('shell-service-worker.png'), fullPage: true });

  // Kinds come from discovery; choosing one lists it in the chosen namespace (the request console shows it).
  await expect(browser.getByTestId('resource-apps-deployments')).toBeVisible();
  await browser.getByTestId('resource-core-secrets').click();
  await namespace.selectOption('kube-system');
  await expect(page.getByTestId('request-row').filter({ hasText: '/api/v1/namespaces/kube-system/secrets' }).first()).toBeVisible();
});

test('the copy button copies base_url', async ({ page, context, baseURL }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openShell(page);
  await page.getByRole('button', { name: 'Copy base_url' }).click();
  await expect(page.getByText('Copied base_url to the clipboard.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}${BASE}`);
});

test('fetch of /clusters/default/api/v1/namespaces lists the four initial namespaces', async ({ page }) => {
  await openShell(page);
  const res = await pageFetch(page, `${BASE}/api/v1/namespaces`);
  expect(res.status).toBe(200);
  expect(res.contentType).toContain('application/json');
  expect(res.contentEncoding).toBeNull(); // docs/design.md 2: the worker never gzips
  expect((res.body as { kind?: string }).kind).toBe('NamespaceList');
  expect(names(res.body)).toEqual(CORE_NAMESPACES);
});

test('a ConfigMap created through base_url survives a reload, a stopped worker, and is seen by a second tab', async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  await openShell(page);
  const url = `${baseURL}${BASE}/api/v1/namespaces/default/configmaps`;
  const created = await pageFetch(page, url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: configMap('e2e-settings', { colour: 'blue' }),
  });
  expect(created.status).toBe(201);
  const rv = (created.body as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
  expect(rv).toMatch(/^\d+$/);

  const read = await pageFetch(page, `${url}/e2e-settings`);
  expect(read.status).toBe(200);
  expect(read.body).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'e2e-settings', namespace: 'default', resourceVersion: rv }, data: { colour: 'blue' } });

  // After a reload: the page is controlled again and the object is still there.
  await page.reload();
  await expect(page.getByTestId('engine-mode')).toHaveText('service worker');
  expect(await isControlled(page)).toBe(true);
  expect((await pageFetch(page, `${url}/e2e-settings`)).body).toMatchObject({ data: { colour: 'blue' }, metadata: { resourceVersion: rv } });
  await expect(page.getByRole('cell', { name: 'e2e-settings', exact: true })).toBeVisible();

  // Stop the worker through CDP; the next request starts it again with a new engine built from IndexedDB.
  const cdp = await context.newCDPSession(page);
  const statuses: string[] = [];
  cdp.on('ServiceWorker.workerVersionUpdated', (e) => {
    for (const v of e.versions) statuses.push(v.runningStatus);
  });
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  // the UI's own watches restart the worker at once: 'stopped' need not be the last status seen
  await expect.poll(() => statuses.includes('stopped')).toBe(true);
  const afterStop = await pageFetch(page, `${url}/e2e-settings`);
  expect(afterStop.status).toBe(200);
  expect(afterStop.body).toMatchObject({ data: { colour: 'blue' }, metadata: { resourceVersion: rv } });
  expect(statuses.slice(statuses.lastIndexOf('stopped'))).toContain('running');

  // Writes after the restart continue the same revision sequence.
  const second = await pageFetch(page, url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: configMap('e2e-after-restart', { n: '2' }),
  });
  expect(second.status).toBe(201);
  expect(Number((second.body as { metadata: { resourceVersion: string } }).metadata.resourceVersion)).toBeGreaterThan(Number(rv));

  // A second tab of the same browser context sees both objects, through the same worker.
  const tab = await context.newPage();
  await openShell(tab);
  expect(await isControlled(tab)).toBe(true);
  const list = await pageFetch(tab, url);
  expect(list.status).toBe(200);
  expect(names(list.body)).toEqual(['e2e-after-restart', 'e2e-settings', 'kube-root-ca.crt']);
  await expect(tab.getByRole('cell', { name: 'e2e-after-restart', exact: true })).toBeVisible();
  await tab.screenshot({ path: testInfo.outputPath('shell-second-tab.png'), fullPage: true });
});

test('a hard reload (page not controlled) is claimed again by the worker', async ({ page }) => {
  await openShell(page);
  await page.addInitScript(() => {
    (window as { controlledAtStart?: boolean }).controlledAtStart = navigator.serviceWorker.controller !== null;
  });
  // Simulates a shift-reload: a new document whose requests bypass the worker until it claims the page.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setBypassServiceWorker', { bypass: true });
  await page.reload();
  await cdp.send('Network.setBypassServiceWorker', { bypass: false });
  await expect(page.getByTestId('engine-mode')).toHaveText('service worker');
  expect(await page.evaluate(() => (window as { controlledAtStart?: boolean }).controlledAtStart)).toBe(false);
  expect(await isControlled(page)).toBe(true);
  const res = await pageFetch(page, `${BASE}/api/v1/namespaces/kube-system`);
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ kind: 'Namespace', metadata: { name: 'kube-system' } });
});

test('requests outside base_url and bad cluster names', async ({ page }) => {
  await openShell(page);
  // Another cluster is another engine over another database: it starts with its root-CA ConfigMap only.
  const other = await pageFetch(page, '/clusters/staging/api/v1/namespaces/default/configmaps');
  expect(other.status).toBe(200);
  expect(names(other.body)).toEqual(['kube-root-ca.crt']);
  const bad = await pageFetch(page, '/clusters/Not_Valid/api/v1/namespaces');
  expect(bad.status).toBe(400);
  expect(bad.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'BadRequest', code: 400 });
});

test('a watch streams events through the worker', async ({ page }) => {
  await openShell(page);
  const url = `${BASE}/api/v1/namespaces/default/configmaps`;
  const list = await pageFetch(page, url);
  const rv = (list.body as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
  const events = await page.evaluate(
    async ({ url, rv }) => {
      const abort = new AbortController();
      const res = await fetch(`${url}?watch=true&resourceVersion=${rv}`, { signal: abort.signal });
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      // Written after the watch has started: the stream must deliver it without the response ending.
      await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'watched' }, data: { a: '1' } }),
      });
      let text = '';
      const deadline = Date.now() + 10_000;
      while (!text.includes('\n') && Date.now() < deadline) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      abort.abort();
      return { status: res.status, contentType: res.headers.get('content-type'), lines: text.split('\n').filter(Boolean) };
    },
    { url, rv },
  );
  expect(events.status).toBe(200);
  expect(events.contentType).toContain('application/json');
  expect(events.lines.length).toBeGreaterThanOrEqual(1);
  expect(JSON.parse(events.lines[0])).toMatchObject({ type: 'ADDED', object: { kind: 'ConfigMap', metadata: { name: 'watched' } } });
});

test('a watch cut by a stopped worker resumes from its last resourceVersion', async ({ page, context }) => {
  await openShell(page);
  const url = `${BASE}/api/v1/namespaces/default/configmaps`;
  const rv = ((await pageFetch(page, url)).body as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
  // Open a watch and keep reading it in the page.
  await page.evaluate(
    ({ url, rv }) => {
      const w = window as unknown as { watchEnded?: string };
      void fetch(`${url}?watch=true&resourceVersion=${rv}`).then(async (res) => {
        const reader = res.body!.getReader();
        try {
          for (;;) {
            const { done } = await reader.read();
            if (done) {
              w.watchEnded = 'done';
              return;
            }
          }
        } catch (err) {
          w.watchEnded = `error: ${String(err)}`;
        }
      });
    },
    { url, rv },
  );
  const cdp = await context.newCDPSession(page);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await expect.poll(() => page.evaluate(() => (window as unknown as { watchEnded?: string }).watchEnded)).toBeTruthy();

  // Written after the cut; a new watch from the last seen resourceVersion replays it from the stored history.
  expect((await pageFetch(page, url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: configMap('after-cut', { a: '1' }) })).status).toBe(201);
  const first = await page.evaluate(
    async ({ url, rv }) => {
      const abort = new AbortController();
      const res = await fetch(`${url}?watch=true&resourceVersion=${rv}`, { signal: abort.signal });
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      while (!text.includes('\n')) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      abort.abort();
      return text.split('\n')[0];
    },
    { url, rv },
  );
  expect(JSON.parse(first)).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'after-cut' } } });
});
