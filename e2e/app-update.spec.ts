// An update of the app reaches the user (docs/hosts.md 1.1): the built app is served from a folder of its
// own, visited once (the worker installs and keeps the page), then replaced by a new version (a changed page
// and a changed worker script). The next visit shows the new page, the new worker takes over, and the copy
// kept for offline use is the new page too: nothing of the old version is served once the new one is active.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { serveFolder as serve, skipWithoutBrowser } from './helpers';

skipWithoutBrowser();

// the build Playwright's web server serves (playwright.config.ts)
const BUILD = '.e2e-dist';
const APP_CACHE = 'kube-playground-app-v1';

/** The page the worker keeps for offline use. */
function keptPage(page: Page, origin: string): Promise<string | undefined> {
  return page.evaluate(async ({ name, url }) => {
    const hit = await (await caches.open(name)).match(url);
    return hit ? await hit.text() : undefined;
  }, { name: APP_CACHE, url: `${origin}/` });
}

test('a new version of the app reaches the user: the new page, the new worker, and the new page kept for offline', async ({ page, context }) => {
  test.setTimeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'kube-app-update-'));
  cpSync(BUILD, dir, { recursive: true });
  const { server, origin } = await serve(dir);
  try {
    await page.goto(`${origin}/`);
    await expect(page.getByTestId('engine-mode')).toHaveText('service worker', { timeout: 30_000 });
    await expect.poll(() => keptPage(page, origin), { timeout: 30_000 }).toContain('<div id="root"');
    const firstWorker = await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.scriptURL);
    // a first install registers sw-first.js (the worker's code compiled lazily; vite.config.ts)
    expect(firstWorker).toBe(`${origin}/sw-first.js`);

    // the new version: another page, and worker scripts that differ by a byte
    const html = readFileSync(join(dir, 'index.html'), 'utf8');
    expect(html).toContain('</head>');
    writeFileSync(join(dir, 'index.html'), html.replace('</head>', '<meta name="app-version" content="2"></head>'));
    for (const script of ['sw.js', 'sw-first.js']) writeFileSync(join(dir, script), `${readFileSync(join(dir, script), 'utf8')}\n// version 2\n`);

    await page.reload();
    await expect(page.locator('meta[name="app-version"]')).toHaveAttribute('content', '2');
    await expect(page.getByTestId('engine-mode')).toHaveText('service worker', { timeout: 30_000 });
    // the browser found the new worker script: it is installed and takes over at once
    await expect.poll(() => page.evaluate(async () => {
      const reg = await navigator.serviceWorker.getRegistration();
      const text = reg?.active ? await (await fetch(reg.active.scriptURL, { cache: 'no-store' })).text() : '';
      return !!reg?.active && !reg.installing && !reg.waiting && text.endsWith('// version 2\n') && navigator.serviceWorker.controller?.state === 'activated';
    }), { timeout: 30_000 }).toBe(true);
    // the copy kept for offline use is the new page
    await expect.poll(() => keptPage(page, origin), { timeout: 30_000 }).toContain('<meta name="app-version" content="2">');

    // offline, the app opens as the new version
    await context.setOffline(true);
    await page.reload();
    await expect(page.locator('meta[name="app-version"]')).toHaveAttribute('content', '2');
    await expect(page.getByTestId('engine-mode')).toHaveText('service worker', { timeout: 30_000 });
  } finally {
    await context.setOffline(false);
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
