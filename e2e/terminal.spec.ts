// The terminal panel in the playground frame against the real service worker: kubectl commands typed at the
// prompt change and read the browser cluster, `apply -f -` takes the editor's text, errors are kubectl's, and
// the history comes back with the Up key. A screenshot of the end state goes to test-results/.
import { expect, test, type Page } from '@playwright/test';
import { openShell, shellFetch, skipWithoutBrowser } from './helpers';

skipWithoutBrowser();

async function openTerminal(page: Page) {
  await openShell(page, '/');
  await expect(page.locator('[data-testid="monaco"][data-ready="true"]')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('tab', { name: 'Terminal' }).click();
  const input = page.getByLabel('kubectl command');
  await expect(input).toBeVisible();
  return input;
}

async function run(page: Page, command: string) {
  const input = page.getByLabel('kubectl command');
  const before = await page.locator('.terminal-entry').count();
  await input.fill(command);
  await input.press('Enter');
  await expect(page.locator('.terminal-entry')).toHaveCount(before + 1);
  return page.locator('.terminal-entry').last();
}

test('terminal: kubectl commands against the browser cluster', async ({ page }, info) => {
  await openTerminal(page);

  const created = await run(page, 'create namespace term-demo');
  await expect(created.locator('.terminal-stdout')).toHaveText('namespace/term-demo created\n');
  const check = await shellFetch(page, '/api/v1/namespaces/term-demo');
  expect(check.status).toBe(200);

  const ns = await run(page, 'get ns term-demo');
  await expect(ns.locator('.terminal-stdout')).toContainText(/NAME\s+STATUS\s+AGE\nterm-demo\s+Active\s+\d+s/);

  await page.evaluate(() =>
    window.playground.editor.setText('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-editor\n  namespace: term-demo\ndata:\n  greeting: hello\n'),
  );
  const applied = await run(page, 'apply -f -');
  await expect(applied.locator('.terminal-stdout')).toHaveText('configmap/from-editor created\n');
  const again = await run(page, 'apply -f -');
  await expect(again.locator('.terminal-stdout')).toHaveText('configmap/from-editor unchanged\n');

  const yaml = await run(page, 'get cm from-editor -n term-demo -o yaml');
  await expect(yaml.locator('.terminal-stdout')).toContainText('greeting: hello');
  await expect(yaml.locator('.terminal-stdout')).not.toContainText('managedFields');

  const missing = await run(page, 'get widgets');
  await expect(missing.locator('.terminal-stderr')).toHaveText(`error: the server doesn't have a resource type "widgets"\n`);

  const canI = await run(page, 'auth can-i create pods');
  await expect(canI.locator('.terminal-stdout')).toHaveText('yes\n');

  // the request console logs the terminal's requests like any panel's
  await page.getByRole('tab', { name: 'Requests' }).click();
  await expect(page.getByText('/api/v1/namespaces/term-demo/configmaps').first()).toBeVisible();
  await page.getByRole('tab', { name: 'Terminal' }).click();

  // history: Up brings back the last command
  const input = page.getByLabel('kubectl command');
  await input.press('ArrowUp');
  await expect(input).toHaveValue('auth can-i create pods');
  await page.screenshot({ path: info.outputPath('terminal.png') });
});
