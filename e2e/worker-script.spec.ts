// The two worker scripts (vite.config.ts, docs/hosts.md 1): a first install registers sw-first.js, the
// worker's code kept as text and run by eval, so that Chromium does not compile all of it eagerly while the
// first visit waits; once the page has been hidden, the registration moves to sw.js (the plain script, which
// later starts load from its code cache; it takes over when the running worker has nothing in progress, e.g.
// once the tab is closed), and it stays there. Where a Content-Security-Policy on sw-first.js
// refuses eval, it imports sw.js instead. Every way serves the API and keeps what was written.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { pageFetch, serveFolder, skipWithoutBrowser } from './helpers';

skipWithoutBrowser();

// the build Playwright's web server serves (playwright.config.ts)
const BUILD = '.e2e-dist';
const CM = '/clusters/default/api/v1/namespaces/default/configmaps';

async function create(page: Page, origin: string, name: string): Promise<void> {
  const made = await pageFetch(page, `${origin}${CM}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ metadata: { name }, data: { name } }) });
  expect(made.status).toBe(201);
}

async function read(page: Page, origin: string, name: string): Promise<unknown> {
  const got = await pageFetch(page, `${origin}${CM}/${name}`);
  expect(got.status).toBe(200);
  return (got.body as { data: unknown }).data;
}

function activeScript(page: Page): Promise<string | undefined> {
  return page.evaluate(async () => {
    const r = await navigator.serviceWorker.getRegistration();
    return r && !r.installing && !r.waiting ? r.active?.scriptURL : undefined;
  });
}

/** What a page does when the user switches away from it: its document becomes hidden. */
function hide(page: Page): Promise<void> {
  return page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

async function withBuild(headers: (path: string) => Record<string, string>, run: (origin: string, requested: string[]) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kube-worker-script-'));
  cpSync(BUILD, dir, { recursive: true });
  const { server, origin, requested } = await serveFolder(dir, headers);
  try {
    await run(origin, requested);
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a first install runs sw-first.js; hidden, the page moves the registration to sw.js, which keeps it and the data', async ({ page, context }) => {
  test.setTimeout(120_000);
  await withBuild(() => ({}), async (origin, requested) => {
    await page.goto(`${origin}/`);
    await expect(page.getByTestId('engine-mode')).toHaveText('service worker', { timeout: 30_000 });
    expect(await activeScript(page)).toBe(`${origin}/sw-first.js`);
    expect(requested).not.toContain('/sw.js'); // eval ran the code: the plain script was not needed
    await create(page, origin, 'before');

    // a reload is not "hidden": the registration stays
    await page.reload();
    await expect(page.getByTestId('engine-mode')).toHaveText('service worker', { timeout: 30_000 });
    expect(await activeScript(page)).toBe(`${origin}/sw-first.js`);

    // hidden for a second, the page registers sw.js: it installs beside the running worker, and takes over
    // when that one has nothing in progress (here: the tab closed; a reload may not do, its new page's
    // watches keep the old worker busy)
    await hide(page);
    await expect.poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting?.scriptURL), { timeout: 30_000 }).toBe(`${origin}/sw.js`);
    await page.close();
    // a page of the scope that sends no requests (a static file) sees the switch
    const probe = await context.newPage();
    await probe.goto(`${origin}/manifest.webmanifest`);
    await expect.poll(() => activeScript(probe), { timeout: 30_000 }).toBe(`${origin}/sw.js`);
    await probe.close();
    const next = await context.newPage();
    await next.goto(`${origin}/`);
    await expect(next.getByTestId('engine-mode')).toHaveText('service worker', { timeout: 30_000 });
    expect(await activeScript(next)).toBe(`${origin}/sw.js`);
    expect(await next.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${origin}/sw.js`);
    expect(await read(next, origin, 'before')).toEqual({ name: 'before' });
    await create(next, origin, 'after');

    // a later visit (a new tab, no controller yet at its first line) registers the newest script again
    const second = await context.newPage();
    await second.goto(`${origin}/`);
    await expect(second.getByTestId('engine-mode')).toHaveText('service worker', { timeout: 30_000 });
    expect(await activeScript(second)).toBe(`${origin}/sw.js`);
    expect(await read(second, origin, 'after')).toEqual({ name: 'after' });
    await second.close();
  });
});

test('with eval refused by a CSP on sw-first.js, the first install imports sw.js and serves the API', async ({ page }) => {
  test.setTimeout(90_000);
  await withBuild((path): Record<string, string> => (path === '/sw-first.js' ? { 'Content-Security-Policy': "script-src 'self'" } : {}), async (origin, requested) => {
    await page.goto(`${origin}/`);
    await expect(page.getByTestId('engine-mode')).toHaveText('service worker', { timeout: 30_000 });
    expect(await activeScript(page)).toBe(`${origin}/sw-first.js`);
    expect(requested).toContain('/sw.js');
    await create(page, origin, 'csp');
    expect(await read(page, origin, 'csp')).toEqual({ name: 'csp' });
  });
});

test('a page that stays in view moves the registration to sw.js after five minutes, not before', async ({ page }) => {
  test.setTimeout(90_000);
  await withBuild(() => ({}), async (origin) => {
    await page.clock.install(); // the page's timers, fast-forwarded below
    await page.goto(`${origin}/`);
    await expect(page.getByTestId('engine-mode')).toHaveText('service worker', { timeout: 30_000 });
    const newer = () => page.evaluate(async () => {
      const r = await navigator.serviceWorker.getRegistration();
      return (r?.installing ?? r?.waiting)?.scriptURL;
    });
    await page.clock.fastForward('04:50');
    await page.waitForTimeout(1000);
    expect(await newer()).toBeUndefined();
    expect(await activeScript(page)).toBe(`${origin}/sw-first.js`);
    await page.clock.fastForward('00:20'); // past five minutes, and past the idle wait's own timeout
    await expect.poll(newer, { timeout: 30_000 }).toBe(`${origin}/sw.js`);
  });
});
