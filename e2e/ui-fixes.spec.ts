// Fixes found in use (issue 16, item 6), each proven gone in the browser: Ctrl+Enter acts only in the panel
// that has the focus; Patch targets the object shown; dry-run results say so; a resolved apply conflict no
// longer shows its 409; the hover names the field's own type; "Copy as curl" gives a command that works
// against the Node host (run here with curl against `npm run serve`).
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { shellFetch, skipWithoutBrowser } from './helpers';

skipWithoutBrowser();

const CM = '/api/v1/namespaces/default/configmaps';
const results = (page: Page) => page.getByTestId('action-results');
const configMapYaml = (name: string, data: Record<string, string>) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: default\ndata:\n${Object.entries(data)
    .map(([k, v]) => `  ${k}: "${v}"`)
    .join('\n')}\n`;

async function openFrame(page: Page): Promise<void> {
  await page.goto('/');
  // a loaded machine may take a while to start the service worker
  await expect(page.getByTestId('engine-mode')).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('[data-testid="monaco"][data-ready="true"]')).toBeVisible({ timeout: 30_000 });
}
const setEditor = (page: Page, text: string) => page.evaluate((t) => window.playground.editor.setText(t), text);
const editorWrites = (page: Page) => page.evaluate(() => window.playground.store.get().requests.filter((r) => r.source === 'editor' && r.method !== 'GET').length);

test('Ctrl+Enter in the CEL box evaluates there and in the raw request form does nothing to the editor; in the editor it applies', async ({ page }) => {
  await openFrame(page);
  await setEditor(page, configMapYaml('keys-cm', { a: '1' }));
  await page.getByRole('tab', { name: 'CEL' }).click();
  const expression = page.getByLabel('Expression');
  await expect(page.getByTestId('cel-result')).toContainText('true');
  await expression.fill('1 + 2');
  await expect(page.getByTestId('cel-result')).toContainText('3');
  await page.getByLabel('evaluate as I type').uncheck();
  await expression.fill('40 + 2');
  await expression.press('Control+Enter');
  await expect(page.getByTestId('cel-result')).toContainText('42');
  await expression.press('Control+s');

  await page.getByRole('tab', { name: 'Requests' }).click();
  await page.getByRole('button', { name: 'Raw request' }).click();
  await page.getByLabel('Headers').press('Control+Enter');
  await page.getByLabel('Body').press('Control+s');
  await page.waitForTimeout(1000);
  expect(await editorWrites(page)).toBe(0);
  expect((await shellFetch(page, `${CM}/keys-cm`)).status).toBe(404);

  // in the editor's own section the shortcut still applies
  await page.locator('.monaco-host .view-lines').click();
  await page.keyboard.press('Control+Enter');
  await expect(results(page)).toContainText('201 configmaps/keys-cm applied');
});

test('Patch targets the object shown in the editor, not the one written before', async ({ page }) => {
  await openFrame(page);
  await setEditor(page, configMapYaml('shown-a', { v: 'a' }));
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(results(page)).toContainText('configmaps/shown-a applied');
  await expect(page.getByLabel('Patch target')).toHaveValue('v1 ConfigMap default/shown-a');
  const b = await shellFetch(page, CM, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'shown-b' }, data: { v: 'b' } }) });
  expect(b.status).toBe(201);

  // open shown-b from the resource browser: the editor shows it, and the patch target follows
  const row = page.getByTestId('objects-table').locator('tbody tr', { hasText: 'shown-b' });
  await row.dblclick();
  await expect.poll(() => page.evaluate(() => window.playground.editor.getText())).toContain('name: shown-b');
  await expect(page.getByLabel('Patch target')).toHaveValue('v1 ConfigMap default/shown-b');
  await page.getByLabel('Patch type').selectOption('merge');
  await setEditor(page, 'data:\n  patched: "yes"\n');
  await page.getByRole('button', { name: 'Patch', exact: true }).click();
  await expect(results(page)).toContainText('200 configmaps/shown-b patched');
  expect((await shellFetch(page, `${CM}/shown-b`)).body).toMatchObject({ data: { v: 'b', patched: 'yes' } });
  expect(((await shellFetch(page, `${CM}/shown-a`)).body as { data: Record<string, string> }).data).toEqual({ v: 'a' });

  // a patch body that names its object is that object, whatever the target field says
  await setEditor(page, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shown-a\n  namespace: default\ndata:\n  named: "yes"\n');
  await page.getByRole('button', { name: 'Patch', exact: true }).click();
  await expect(results(page)).toContainText('200 configmaps/shown-a patched');
  expect((await shellFetch(page, `${CM}/shown-a`)).body).toMatchObject({ data: { v: 'a', named: 'yes' } });
});

test('dry-run results are labelled in the editor and in the console', async ({ page }) => {
  await openFrame(page);
  await setEditor(page, configMapYaml('dry-cm', { a: '1' }));
  await page.getByLabel('Dry run').check();
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(results(page)).toHaveText('dry run: 201 configmaps/dry-cm applied (not stored)');
  expect((await shellFetch(page, `${CM}/dry-cm`)).status).toBe(404);
  await page.getByTestId('request-row').filter({ hasText: 'PATCH' }).first().click();
  await expect(page.getByTestId('dry-run-note')).toHaveText('(dry run: the server stored nothing)');
  await page.getByLabel('Dry run').uncheck();
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(results(page)).toHaveText(/^201 configmaps\/dry-cm applied \(resourceVersion \d+\)$/);
});

test('a conflict resolved from the console no longer shows its 409, in the editor or the console', async ({ page }) => {
  await openFrame(page);
  const applied = await page.evaluate(async (cm) => {
    const r = await window.playground.apiFetch(`${cm}/resolved-cm?fieldManager=alice`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/apply-patch+yaml' },
      body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: resolved-cm\n  namespace: default\ndata:\n  k: alice\n',
    });
    return r.status;
  }, CM);
  expect(applied).toBe(201);
  await setEditor(page, configMapYaml('resolved-cm', { k: 'bob' }));
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(results(page)).toContainText('409 configmaps/resolved-cm applied: Apply failed with 1 conflict');
  await page.getByTestId('conflict').getByRole('button', { name: 'Force: take ownership' }).click();
  await expect(page.getByTestId('request-line')).toContainText('200');
  await expect(results(page)).not.toContainText('409');
  await expect(page.getByTestId('conflict-resolved')).toHaveText('200 conflict resolved from the console (force): configmaps/resolved-cm applied');
  // the 409 itself, selected again, says it was resolved instead of offering the resolutions again
  await page.getByTestId('request-row').filter({ hasText: '409' }).click();
  await expect(page.getByTestId('conflict')).toHaveCount(0);
  await expect(page.getByTestId('conflict-resolved-note')).toContainText('This conflict has been resolved: PATCH');
});

test('the hover names the field and its own type (metadata: ObjectMeta), not the kind of another manifest', async ({ page }) => {
  await openFrame(page);
  await setEditor(page, 'apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: fast\nprovisioner: example.com/x\n---\n' + configMapYaml('hover-cm', { a: '1' }));
  await expect(results(page)).toContainText('schema from /openapi/v3 loaded', { timeout: 30_000 });
  const hoverOn = async (text: string, nth: number) => {
    await page.mouse.move(0, 0);
    await page.locator('.monaco-host .view-line').filter({ hasText: text }).nth(nth).locator('span span').first().hover();
    const hover = page.locator('.monaco-hover-content').filter({ visible: true });
    await expect(hover).not.toBeEmpty({ timeout: 15_000 });
    return (await hover.textContent()) ?? '';
  };
  // metadata of the second document (a ConfigMap), after the StorageClass was checked
  expect(await hoverOn('metadata:', 1)).toContain('metadata: ObjectMeta');
  expect(await hoverOn('metadata:', 0)).toContain('metadata: ObjectMeta');
  expect(await hoverOn('provisioner:', 0)).toContain('provisioner: string');
});

test('Copy as curl gives a command for the Node host that works there, and says why not the browser cluster', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openFrame(page);
  await page.evaluate(() => window.playground.store.fetch('/api/v1/namespaces/default/configmaps', { headers: { Accept: 'application/json' } }, 'test'));
  await page.getByTestId('request-row').filter({ hasText: 'test' }).first().click();
  await page.getByRole('button', { name: 'Copy as curl' }).click();
  const command = (await page.getByTestId('curl-command').textContent()) ?? '';
  expect(command).toBe("curl -X GET 'http://127.0.0.1:8080/api/v1/namespaces/default/configmaps' -H 'accept: application/json'");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(command);
  await expect(page.getByTestId('curl-note')).toContainText('for the Node host (npm run serve, http://127.0.0.1:8080)');
  await expect(page.getByTestId('curl-note')).toContainText('answered inside this browser only');

  // run it, outside the browser, against a real `npm run serve` (on a free port instead of 8080)
  const repo = resolve('.'); // Playwright runs from the checkout
  const work = mkdtempSync(join(tmpdir(), 'curl-e2e-'));
  const child = spawn(join(repo, 'node_modules/.bin/tsx'), [join(repo, 'src/hosts/node/main.ts'), '--port', '0', '--kubeconfig', join(work, 'kubeconfig')], { cwd: work });
  try {
    const port = await new Promise<number>((res, rej) => {
      let out = '';
      const timer = setTimeout(() => rej(new Error(`the Node host did not start: ${out}`)), 30_000);
      const onData = (d: Buffer) => {
        out += d;
        const m = /serving cluster "[^"]*" at http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          res(Number(m[1]));
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
    });
    const out = execFileSync('sh', ['-c', `${command.replace('127.0.0.1:8080', `127.0.0.1:${port}`)} -s`], { encoding: 'utf8' });
    expect(JSON.parse(out)).toMatchObject({ kind: 'ConfigMapList', apiVersion: 'v1' });
  } finally {
    child.kill('SIGTERM');
    rmSync(work, { recursive: true, force: true });
  }
});

test('the default CEL example opens within the estimate limit (typed by its schema, as a CRD rule); untyped it is over', async ({ page }) => {
  await openFrame(page);
  await page.getByRole('tab', { name: 'CEL' }).click();
  await expect(page.getByTestId('cel-result')).toContainText('true');
  const cost = page.getByTestId('cel-cost');
  await expect(cost).toContainText('Static estimate');
  await expect(cost).not.toContainText('Over the estimate limit');
  await expect(cost.getByRole('meter', { name: 'estimated cost' })).not.toHaveClass(/over/);
  const request = await page.evaluate(() => window.playground.store.get().requests.filter((r) => r.source === 'cel').at(-1)?.requestBody);
  expect(JSON.parse(request ?? '{}')).toMatchObject({ schemas: { self: { type: 'object' } } });
  // without the schema the variables are untyped and the estimate assumes unbounded sizes
  await page.getByTestId('cel-schema').fill('');
  await expect(cost).toContainText('Over the estimate limit');
  await expect(cost.getByRole('meter', { name: 'estimated cost' })).toHaveClass(/over/);
});
