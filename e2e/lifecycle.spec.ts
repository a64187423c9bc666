// Object lifecycle in the playground against the real service worker: an object with a finalizer is deleted
// from the editor and stays (terminating), the stuck finalizer is visible in the manifest read back, and a
// patch from the editor releases it; the object is then gone.
import { expect, test, type Page } from '@playwright/test';
import { openShell, shellFetch, skipWithoutBrowser } from './helpers';

skipWithoutBrowser();

const CM = '/api/v1/namespaces/default/configmaps';

async function setEditor(page: Page, text: string): Promise<void> {
  await page.evaluate((t) => window.playground.editor.setText(t), text);
}

const results = (page: Page) => page.getByTestId('action-results');

test('a stuck finalizer: delete leaves the object terminating; a patch from the editor releases it', async ({ page }, testInfo) => {
  await openShell(page, '/');
  await expect(page.locator('[data-testid="monaco"][data-ready="true"]')).toBeVisible({ timeout: 30_000 });
  await page.getByLabel('Field manager').fill('e2e-lifecycle');
  const manifest = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: held\n  namespace: default\n  finalizers:\n  - example.com/hold\ndata:\n  a: "1"\n';
  await setEditor(page, manifest);
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(results(page)).toContainText('201 configmaps/held created');

  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  // the UI asks before it deletes
  await page.getByRole('dialog', { name: 'Delete ConfigMap default/held?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(results(page)).toContainText('200 configmaps/held');
  // still there, terminating, held by its finalizer
  const stuck = (await shellFetch(page, `${CM}/held`)).body as { metadata: { deletionTimestamp?: string; finalizers?: string[] } };
  expect(stuck.metadata.deletionTimestamp).toBeTruthy();
  expect(stuck.metadata.finalizers).toEqual(['example.com/hold']);
  await page.screenshot({ path: testInfo.outputPath('stuck-finalizer.png') });

  // release it: a merge patch removing the finalizers, sent from the editor
  await expect(page.getByLabel('Patch target')).toHaveValue('v1 ConfigMap default/held');
  await page.getByLabel('Patch type').selectOption('merge');
  await setEditor(page, 'metadata:\n  finalizers: null\n');
  await page.getByRole('button', { name: 'Patch', exact: true }).click();
  await expect(results(page)).toContainText('200 configmaps/held patched');
  await expect.poll(async () => (await shellFetch(page, `${CM}/held`)).status).toBe(404);
});
