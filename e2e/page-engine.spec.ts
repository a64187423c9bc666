// The in-page fallback (docs/hosts.md 2): `?engine=page`, and a browser context without navigator.serviceWorker.
import { expect, test } from '@playwright/test';
import { CORE_NAMESPACES, configMap, names, openShell, pageFetch, shellFetch, skipWithoutBrowser } from './helpers';

skipWithoutBrowser();

test('?engine=page runs the engine in the page; objects persist across a reload', async ({ page, baseURL }, testInfo) => {
  await openShell(page, '/?engine=page');
  await expect(page.getByTestId('engine-mode')).toHaveText('in-page engine (requested with ?engine=page)');
  await expect(page.getByLabel('base_url')).toHaveValue(`${baseURL}/clusters/default`);
  // No service worker was registered: a plain fetch of base_url reaches the static server (vite preview
  // answers unknown paths with index.html), not an engine.
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);
  const direct = await pageFetch(page, '/clusters/default/api/v1/namespaces');
  expect(direct.contentType).toContain('text/html');
  expect(direct.body).toBeUndefined();

  const namespace = page.getByTestId('resource-browser').getByLabel('Namespace', { exact: true });
  for (const ns of CORE_NAMESPACES) await expect(namespace.locator(`option[value="${ns}"]`)).toHaveCount(1);
  const namespaces = await shellFetch(page, '/api/v1/namespaces');
  expect(namespaces.status).toBe(200);
  expect(names(namespaces.body)).toEqual(CORE_NAMESPACES);

  const created = await shellFetch(page, '/api/v1/namespaces/kube-public/configmaps', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: configMap('in-page', { mode: 'page' }),
  });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'in-page', namespace: 'kube-public' } });

  await page.reload();
  await expect(page.getByTestId('engine-mode')).toContainText('in-page engine');
  const read = await shellFetch(page, '/api/v1/namespaces/kube-public/configmaps/in-page');
  expect(read.status).toBe(200);
  expect(read.body).toMatchObject({ data: { mode: 'page' } });

  await page.getByTestId('resource-browser').getByLabel('Namespace', { exact: true }).selectOption('kube-public');
  await expect(page.getByRole('cell', { name: 'in-page', exact: true })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('shell-in-page.png'), fullPage: true });
});

test('without navigator.serviceWorker the shell falls back to the in-page engine', async ({ page }) => {
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'serviceWorker', { get: () => undefined, configurable: true });
  });
  await openShell(page);
  await expect(page.getByTestId('engine-mode')).toHaveText(
    'in-page engine (service workers are not available in this browser context)',
  );
  const res = await shellFetch(page, '/api/v1/namespaces/default');
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ kind: 'Namespace', metadata: { name: 'default' } });
});

test('a failed service worker registration falls back to the in-page engine', async ({ page }) => {
  await page.addInitScript(() => {
    ServiceWorkerContainer.prototype.register = () => Promise.reject(new Error('registration refused by the test'));
  });
  await openShell(page);
  await expect(page.getByTestId('engine-mode')).toHaveText(
    'in-page engine (service worker unavailable: registration refused by the test)',
  );
  await expect(page.getByTestId('resource-browser').getByLabel('Namespace', { exact: true }).locator('option[value="kube-node-lease"]')).toHaveCount(1);
});

test('?cluster= selects another cluster', async ({ page, baseURL }) => {
  await openShell(page, '/?cluster=dev&engine=page');
  await expect(page.getByTestId('cluster-name')).toHaveText('dev');
  await expect(page.getByLabel('base_url')).toHaveValue(`${baseURL}/clusters/dev`);
});

test('the service worker and an in-page engine in another tab see each other\'s writes', async ({ page, context }) => {
  await openShell(page);
  await expect(page.getByTestId('engine-mode')).toHaveText('service worker');
  const tab = await context.newPage();
  await openShell(tab, '/?engine=page');
  await expect(tab.getByTestId('engine-mode')).toContainText('in-page engine');

  const path = '/api/v1/namespaces/default/configmaps';
  expect((await shellFetch(tab, path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: configMap('from-page', { by: 'page' }) })).status).toBe(201);
  const seen = await shellFetch(page, `${path}/from-page`);
  expect(seen.status).toBe(200);
  expect(seen.body).toMatchObject({ data: { by: 'page' } });

  expect((await shellFetch(page, path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: configMap('from-worker', { by: 'sw' }) })).status).toBe(201);
  expect(names((await shellFetch(tab, path)).body)).toEqual(['from-page', 'from-worker', 'kube-root-ca.crt']);
  expect(names((await shellFetch(page, path)).body)).toEqual(['from-page', 'from-worker', 'kube-root-ca.crt']);
});
