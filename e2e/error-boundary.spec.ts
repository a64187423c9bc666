// The editor's error boundary (src/ui/error-boundary.tsx, PanelErrorBoundary around the manifest editor): an
// editor that throws while rendering shows its own error while the rest of the playground keeps working, and
// "Reload this panel" renders it again.
import { expect, test } from '@playwright/test';
import { openShell, shellFetch, skipWithoutBrowser } from './helpers';

skipWithoutBrowser();

test('the editor throws: its panel shows the error, the rest keeps working, "Reload this panel" brings it back', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await openShell(page, `/?cluster=boundary-${Date.now().toString(36)}`);
  await expect(page.locator('[data-testid="monaco"][data-ready="true"]')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('panel-error')).toHaveCount(0);

  // The editor's text store holds something that is not text: the editor's render fails on it.
  await page.evaluate(() => window.playground.editor.setText(42 as unknown as string));
  const failed = page.locator('#editor').getByTestId('panel-error');
  await expect(failed).toContainText('The editor panel could not be shown:');
  await expect(page.locator('#editor [data-testid="monaco"]')).toHaveCount(0);
  // only the editor: the page's own boundary did not take over, the other panels and the API still work
  await expect(page.getByTestId('render-error')).toHaveCount(0);
  await expect(page.getByTestId('resource-browser')).toBeVisible();
  await page.getByRole('tab', { name: 'Requests', exact: true }).click();
  await expect(page.getByRole('tab', { name: 'Requests', exact: true })).toHaveAttribute('aria-selected', 'true');
  expect((await shellFetch(page, '/api/v1/namespaces/default')).status).toBe(200);

  // Reloading while the cause is still there fails again, and says so again.
  await failed.getByRole('button', { name: 'Reload this panel' }).click();
  await expect(failed).toContainText('The editor panel could not be shown:');

  // Once the text is text again, "Reload this panel" renders the editor with it, without reloading the page.
  await page.evaluate(() => {
    (window as unknown as { notReloaded: boolean }).notReloaded = true;
    window.playground.editor.setText('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: back-again\n');
  });
  await failed.getByRole('button', { name: 'Reload this panel' }).click();
  await expect(page.getByTestId('panel-error')).toHaveCount(0);
  await expect(page.locator('[data-testid="monaco"][data-ready="true"]')).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('#editor .monaco-editor .view-lines')).toContainText('name: back-again');
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  // and it works: Apply sends the text
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(page.getByTestId('action-results')).toContainText('configmaps/back-again');
  expect(errors.filter((e) => !/42|split|not a function|toString/.test(e))).toEqual([]);
});
