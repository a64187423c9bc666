// Whole-scenario links in Chromium through the real service worker: a scenario shared from one browser
// (cluster objects, editor text, CEL content) opens in a fresh browser context after confirmation, in a
// cluster of its own, with the same objects, text and CEL content; a bad link is refused with a message and
// nothing is applied.
import { expect, test, type Page } from '@playwright/test';
import { shellFetch, skipWithoutBrowser } from './helpers';

skipWithoutBrowser();

async function open(page: Page, path: string) {
  await page.goto(path);
  await expect(page.getByTestId('engine-mode')).toHaveText('service worker', { timeout: 30_000 });
  await expect(page.locator('[data-testid="monaco"][data-ready="true"]')).toBeVisible({ timeout: 30_000 });
}

const TEXT = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-link\n  namespace: default\ndata:\n  shared: "yes"\n';
const EXPRESSION = 'self.replicas <= 5';
const VARIABLES = 'self:\n  replicas: 3\n';

test('a whole-scenario link opens in a fresh context, after confirming, with the same objects, editor text and CEL', async ({ page, browser }, info) => {
  test.setTimeout(150_000);
  const source = `src-${Date.now().toString(36)}`;
  await open(page, `/?cluster=${source}`);
  const post = (path: string, body: unknown) => shellFetch(page, path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  expect((await post('/api/v1/namespaces', { metadata: { name: 'team' } })).status).toBe(201);
  expect((await post('/api/v1/namespaces/team/configmaps', { metadata: { name: 'cfg', labels: { app: 'x' } }, data: { k: 'v' } })).status).toBe(201);
  await page.evaluate((t) => window.playground.editor.setText(t), TEXT);
  await page.getByRole('tab', { name: 'CEL' }).click();
  await page.getByLabel('Expression', { exact: true }).fill(EXPRESSION);
  await page.getByTestId('cel-variables').fill(VARIABLES);

  await page.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(page.getByTestId('share-status')).toContainText(/Share link (copied to the clipboard|is in the address bar)/);
  const link = page.url();
  expect(link).toMatch(/#scenario\/[A-Za-z0-9_-]+$/);
  expect(link.length).toBeLessThan(2000);

  const other = await browser.newContext();
  const b = await other.newPage();
  await b.goto(link);
  const dialog = b.getByTestId('confirm-dialog');
  await expect(dialog).toBeVisible({ timeout: 30_000 });
  await expect(dialog).toContainText('2 cluster objects to create: Namespace team, ConfigMap team/cfg.');
  await expect(dialog).toContainText(`The CEL panel's expression: ${EXPRESSION}`);
  await expect(dialog).toContainText(/A new cluster, shared-[0-9a-f]{8}/);
  await b.screenshot({ path: info.outputPath('scenario-confirm.png') });
  await dialog.getByRole('button', { name: 'Open' }).click();

  await b.waitForURL(/cluster=shared-[0-9a-f]{8}/);
  await expect(b.getByTestId('cluster-name')).toHaveText(/^shared-[0-9a-f]{8}$/, { timeout: 30_000 });
  await expect(b).not.toHaveURL(/#scenario/, { timeout: 30_000 }); // loaded: the fragment is gone
  const cm = await shellFetch(b, '/api/v1/namespaces/team/configmaps/cfg');
  expect(cm.status).toBe(200);
  expect(cm.body).toMatchObject({ metadata: { labels: { app: 'x' } }, data: { k: 'v' } });
  expect(await b.evaluate(() => window.playground.editor.getText())).toBe(TEXT);
  await b.getByRole('tab', { name: 'CEL' }).click();
  await expect(b.getByLabel('Expression', { exact: true })).toHaveValue(EXPRESSION);
  await expect(b.getByTestId('cel-variables')).toHaveValue(VARIABLES);
  await b.screenshot({ path: info.outputPath('scenario-opened.png') });
  await other.close();
});

test('a bad link is refused with a message and nothing is applied', async ({ page }) => {
  test.setTimeout(90_000);
  // valid base64url, but not deflate data
  await open(page, '/?cluster=badlink#scenario/AAAAAAAAAAAA');
  await expect(page.getByRole('alert').filter({ hasText: 'The shared link could not be opened' })).toBeVisible();
  await expect(page.getByTestId('cluster-name')).toHaveText('badlink');
  await expect(page.getByTestId('confirm-dialog')).toHaveCount(0);
  const list = await shellFetch(page, '/api/v1/namespaces/default/configmaps');
  expect((list.body as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name)).toEqual(['kube-root-ca.crt']);
});
