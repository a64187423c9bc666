// Installable and offline after one visit (docs/hosts.md 1.1): the page links a web app manifest with
// icons; the service worker keeps the app's files, so a reload without any network renders the playground,
// the editor included, and the API (the engine over IndexedDB) answers as before.
import { expect, test, type Page } from '@playwright/test';
import { configMap, openShell, pageFetch, skipWithoutBrowser } from './helpers';

skipWithoutBrowser();

const BASE = '/clusters/default';
const APP_CACHE = 'kube-playground-app-v1';

/** URLs of the app-shell cache. */
function cachedUrls(page: Page): Promise<string[]> {
  return page.evaluate(async (name) => (await (await caches.open(name)).keys()).map((r) => r.url), APP_CACHE);
}

test('the manifest makes the playground installable: name, start_url, standalone display, icons that load', async ({ page, baseURL }) => {
  await openShell(page);
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBe('/manifest.webmanifest');
  const manifest = (await pageFetch(page, href!)).body as {
    name: string; short_name: string; start_url: string; display: string; theme_color: string; icons: { src: string; sizes: string; type: string }[];
  };
  expect(manifest).toMatchObject({ name: 'Kubernetes API playground', start_url: '.', display: 'standalone', theme_color: '#326ce5' });
  expect(manifest.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
  for (const icon of manifest.icons) {
    const res = await page.request.get(new URL(icon.src, `${baseURL}${href}`).href);
    expect(res.status(), icon.src).toBe(200);
    expect(res.headers()['content-type']).toContain(icon.type);
  }
});

test('after one visit the playground reloads offline, and the API still answers', async ({ page, context, baseURL }, testInfo) => {
  await openShell(page);
  await expect(page.getByTestId('engine-mode')).toHaveText('service worker');
  await expect(page.locator('[data-testid="monaco"][data-ready="true"]')).toBeVisible({ timeout: 30_000 });
  const created = await pageFetch(page, `${BASE}/api/v1/namespaces/default/configmaps`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: configMap('written-online', { mode: 'online' }),
  });
  expect(created.status).toBe(201);

  // every file of the build manifest (the lazily loaded editor and panels too) and the page are kept
  const manifest = (await pageFetch(page, '/build-manifest.json')).body as Record<string, { file: string }>;
  const files = Object.values(manifest).map((c) => `${baseURL}/${c.file}`);
  expect(files.length).toBeGreaterThan(3);
  await expect.poll(async () => {
    const cached = new Set(await cachedUrls(page));
    return [`${baseURL}/`, ...files].filter((f) => !cached.has(f));
  }, { timeout: 30_000 }).toEqual([]);
  // the API is never cached
  expect((await cachedUrls(page)).filter((u) => u.includes('/clusters/'))).toEqual([]);

  await context.setOffline(true);
  // the worker is offline too: a file it never kept cannot be fetched
  const probe = await page.evaluate(async () => {
    try {
      const res = await fetch(`/manifest.webmanifest?probe=${Date.now()}`, { cache: 'no-store' });
      return `status ${res.status}`;
    } catch {
      return 'network error';
    }
  });
  expect(probe).toBe('network error');

  await page.reload();
  // served from the cache at once; the time it takes is the CPU's (the editor's chunk is large)
  await expect(page.getByTestId('engine-mode')).toHaveText('service worker', { timeout: 30_000 });
  const browser = page.getByTestId('resource-browser');
  await expect(browser.getByLabel('Namespace', { exact: true }).locator('option[value="kube-system"]')).toHaveCount(1, { timeout: 30_000 });
  await expect(page.locator('[data-testid="monaco"][data-ready="true"]')).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: testInfo.outputPath('offline.png') });

  const read = await pageFetch(page, `${BASE}/api/v1/namespaces/default/configmaps/written-online`);
  expect(read.status).toBe(200);
  expect((read.body as { data: Record<string, string> }).data).toEqual({ mode: 'online' });
  const written = await pageFetch(page, `${BASE}/api/v1/namespaces/default/configmaps`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: configMap('written-offline', { mode: 'offline' }),
  });
  expect(written.status).toBe(201);
  await context.setOffline(false);
});
