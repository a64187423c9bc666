// The playground frame against the real service worker: the layout and lazy editor, the editor's actions
// through its buttons, apply conflicts and their three resolutions, the request console (Warning headers,
// raw mode), share links and the theme toggle. Screenshots go to test-results/.
import { expect, test, type Page } from '@playwright/test';
import { openShell, sessionSaved, shellFetch, skipWithoutBrowser } from './helpers';

skipWithoutBrowser();

const CM = '/api/v1/namespaces/default/configmaps';

async function setEditor(page: Page, text: string): Promise<void> {
  await page.evaluate((t) => window.playground.editor.setText(t), text);
}

async function editorText(page: Page): Promise<string> {
  return page.evaluate(() => window.playground.editor.getText());
}

async function openFrame(page: Page, path = '/'): Promise<void> {
  await openShell(page, path);
  await expect(page.locator('[data-testid="monaco"][data-ready="true"]')).toBeVisible({ timeout: 30_000 });
}

function configMapYaml(name: string, data: Record<string, string>, extra = ''): string {
  const lines = Object.entries(data).map(([k, v]) => `  ${k}: "${v}"`);
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: default\n${extra}data:\n${lines.join('\n')}\n`;
}

async function applyAs(page: Page, manager: string, name: string, data: Record<string, string>): Promise<number> {
  const res = await shellFetch(page, `${CM}/${name}?fieldManager=${manager}`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/apply-patch+yaml' },
    body: configMapYaml(name, data),
  });
  return res.status;
}

async function setManager(page: Page, manager: string): Promise<void> {
  await page.getByLabel('Field manager').fill(manager);
}

const results = (page: Page) => page.getByTestId('action-results');

test('the frame loads with the editor lazily, the dock and the top bar', async ({ page }, testInfo) => {
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
  });
  await page.goto('/');
  const html = await (await page.request.get('/')).text();
  // the first paint's scripts: the entry only (no Monaco, no modulepreload of it)
  const entry = [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1]).filter((src) => src !== '/@vite/client');
  expect(entry).toHaveLength(1);
  expect(html).not.toMatch(/monaco|editor\.api/i);
  await expect(page.getByTestId('engine-mode')).toHaveText('service worker');
  await expect(page.locator('[data-testid="monaco"][data-ready="true"]')).toBeVisible({ timeout: 30_000 });
  // Monaco came in a later chunk
  expect(scripts.some((s) => /monaco-view|editor\.api/.test(s))).toBe(true);
  // (under `vite` dev the entry is /src/ui/main.tsx and Monaco /src/ui/editor/monaco-view.tsx: same order)
  expect(scripts.indexOf(entry[0])).toBeLessThan(scripts.findIndex((s) => /monaco-view/.test(s)));

  for (const name of ['Requests', 'Watch timeline', 'Managed fields', 'CEL']) await expect(page.getByRole('tab', { name })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Requests' })).toHaveAttribute('aria-selected', 'true');
  for (const name of ['Create', 'Replace', 'Apply', 'Patch', 'Delete', 'Share', 'Dark theme']) {
    await expect(page.getByRole('button', { name, exact: true })).toBeVisible();
  }
  await expect(page.getByLabel('Field validation')).toBeVisible();
  // the tabs are keyboard-reachable: arrows move between them
  await page.getByRole('tab', { name: 'Requests' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Watch timeline' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: 'Watch timeline' })).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  // the shortcuts popover
  await page.getByRole('button', { name: 'Shortcuts' }).click();
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toContainText('Apply (server-side) every document');
  await page.screenshot({ path: testInfo.outputPath('frame-light.png') });
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toHaveCount(0);
  // YAML validation from the engine's /openapi/v3: a wrong type is marked in the editor
  await expect(page.getByTestId('action-results')).toContainText('schema from /openapi/v3 loaded', { timeout: 20_000 });
  await setEditor(page, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: typed\ndata: 5\n');
  await expect(page.locator('.monaco-host .squiggly-error, .monaco-host .squiggly-warning').first()).toBeVisible({ timeout: 20_000 });
  // a field outside the schema is marked (the server would drop it with a Warning)
  await setEditor(page, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: typed\n');
  await expect(page.locator('.monaco-host .squiggly-warning, .monaco-host .squiggly-error')).toHaveCount(0, { timeout: 20_000 });
  await setEditor(page, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: typed\nbogus: 1\n');
  await expect(page.locator('.monaco-host .squiggly-warning, .monaco-host .squiggly-error')).toHaveCount(1, { timeout: 20_000 });
  await page.locator('.monaco-host .squiggly-warning, .monaco-host .squiggly-error').hover({ force: true });
  await expect(page.locator('.monaco-hover-content').first()).toContainText('Property bogus is not allowed.');
  // completion from the schema: ConfigMap's own fields
  await setEditor(page, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: typed\n');
  await page.locator('.monaco-host .view-lines').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('immu');
  await page.keyboard.press('Control+Space');
  await expect(page.locator('.monaco-host .suggest-widget')).toContainText('immutable', { timeout: 20_000 });
  await page.screenshot({ path: testInfo.outputPath('editor-completion.png') });
});

test('create, apply, patch and delete through the buttons', async ({ page }, testInfo) => {
  await openFrame(page);
  await setManager(page, 'e2e-editor');
  await setEditor(page, configMapYaml('frame-crud', { a: '1' }));
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(results(page)).toContainText('201 configmaps/frame-crud created');
  expect((await shellFetch(page, `${CM}/frame-crud`)).body).toMatchObject({ data: { a: '1' } });

  // the created fields belong to the Update entry of e2e-editor: the apply must force (the Force toggle)
  await setEditor(page, configMapYaml('frame-crud', { a: '2', b: 'x' }));
  await page.getByLabel('Force').check();
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(results(page)).toContainText('200 configmaps/frame-crud applied');
  await page.getByLabel('Force').uncheck();
  expect((await shellFetch(page, `${CM}/frame-crud`)).body).toMatchObject({ data: { a: '2', b: 'x' } });

  // Ctrl+Enter applies too (from Monaco)
  await setEditor(page, configMapYaml('frame-crud', { a: '3', b: 'x' }));
  await page.locator('.monaco-host .view-lines').click();
  await page.keyboard.press('Control+Enter');
  await expect.poll(async () => ((await shellFetch(page, `${CM}/frame-crud`)).body as { data: Record<string, string> }).data.a).toBe('3');

  // Ctrl+S on a manifest with a resourceVersion (read from the server) replaces it
  const live = (await shellFetch(page, `${CM}/frame-crud`)).body as { metadata: { resourceVersion: string } };
  await setEditor(page, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: frame-crud\n  namespace: default\n  resourceVersion: "${live.metadata.resourceVersion}"\ndata:\n  a: "3"\n  b: x\n  r: replaced\n`);
  await page.locator('.monaco-host .view-lines').click();
  await page.keyboard.press('Control+s');
  await expect(results(page)).toContainText('200 configmaps/frame-crud replaced');
  expect((await shellFetch(page, `${CM}/frame-crud`)).body).toMatchObject({ data: { r: 'replaced' } });

  // a JSON merge patch with the body in the editor and the target filled from the last manifest
  await expect(page.getByLabel('Patch target')).toHaveValue('v1 ConfigMap default/frame-crud');
  await page.getByLabel('Patch type').selectOption('merge');
  await setEditor(page, 'data:\n  c: "patched"\n');
  await page.getByRole('button', { name: 'Patch', exact: true }).click();
  await expect(results(page)).toContainText('200 configmaps/frame-crud patched');
  // a JSON patch
  await page.getByLabel('Patch type').selectOption('json');
  await setEditor(page, '- op: remove\n  path: /data/b\n');
  await page.getByRole('button', { name: 'Patch', exact: true }).click();
  await expect(results(page)).toContainText('200 configmaps/frame-crud patched');
  expect((await shellFetch(page, `${CM}/frame-crud`)).body).toMatchObject({ data: { a: '3', c: 'patched' } });
  expect(((await shellFetch(page, `${CM}/frame-crud`)).body as { data: Record<string, string> }).data.b).toBeUndefined();

  // dry run: nothing is deleted
  await setEditor(page, configMapYaml('frame-crud', { a: '3' }));
  await page.getByLabel('Dry run').check();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(results(page)).toContainText('200 configmaps/frame-crud deleted');
  expect((await shellFetch(page, `${CM}/frame-crud`)).status).toBe(200);
  await page.getByLabel('Dry run').uncheck();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  // a real delete asks first (e2e/ui-safety.spec.ts covers the dialog)
  await page.getByRole('dialog', { name: 'Delete ConfigMap default/frame-crud?' }).getByRole('button', { name: 'Delete' }).click();
  await expect.poll(async () => (await shellFetch(page, `${CM}/frame-crud`)).status).toBe(404);

  // multi-document YAML: both documents, one after the other; an unknown kind is reported as kubectl does
  await setEditor(page, `${configMapYaml('multi-a', { x: '1' })}---\n${configMapYaml('multi-b', { y: '2' })}---\napiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n`);
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(results(page)).toContainText('configmaps/multi-a applied');
  await expect(results(page)).toContainText('configmaps/multi-b applied');
  await expect(results(page)).toContainText('document 3: no matches for kind "Widget" in version "example.com/v1"');
  await page.screenshot({ path: testInfo.outputPath('editor-actions.png') });
});

test('a CRD applied from the editor refreshes discovery: its custom resources apply next', async ({ page }) => {
  await openFrame(page);
  await setManager(page, 'crd-author');
  const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: { plural: widgets, singular: widget, kind: Widget, listKind: WidgetList }
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                size: { type: integer }
`;
  // the kind is unknown before the CRD exists
  await setEditor(page, 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w1\nspec:\n  size: 3\n');
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(results(page)).toContainText('no matches for kind "Widget" in version "example.com/v1"');
  await setEditor(page, crd);
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(results(page)).toContainText('customresourcedefinitions/widgets.example.com applied');
  await setEditor(page, 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w1\nspec:\n  size: 3\n');
  await expect
    .poll(async () => {
      await page.getByRole('button', { name: 'Apply', exact: true }).click();
      return results(page).textContent();
    }, { timeout: 20_000 })
    .toMatch(/20[01] widgets\/w1 applied/);
  expect((await shellFetch(page, '/apis/example.com/v1/namespaces/default/widgets/w1')).body).toMatchObject({ spec: { size: 3 } });
  // the editor's schemas were read again: the new kind validates (a string where the CRD says integer)
  await expect(page.locator('.monaco-host .squiggly-warning, .monaco-host .squiggly-error')).toHaveCount(0, { timeout: 20_000 });
  await setEditor(page, 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w1\nspec:\n  size: three\n');
  await expect(page.locator('.monaco-host .squiggly-warning, .monaco-host .squiggly-error')).toHaveCount(1, { timeout: 20_000 });
  await page.locator('.monaco-host .squiggly-warning, .monaco-host .squiggly-error').hover({ force: true });
  await expect(page.locator('.monaco-hover-content').first()).toContainText('Incorrect type. Expected "integer"');
});

test('an apply conflict shows its fields and owners; force, drop and adopt each resolve it', async ({ page }, testInfo) => {
  await openFrame(page);
  await setManager(page, 'bob');
  const conflictPanel = page.getByTestId('conflict');

  // force
  expect(await applyAs(page, 'alice', 'conflict-force', { k: 'alice', other: 'o' })).toBe(201);
  await setEditor(page, configMapYaml('conflict-force', { k: 'bob' }));
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(results(page)).toContainText('409 configmaps/conflict-force applied: Apply failed with 1 conflict: conflict with "alice"');
  await expect(page.getByRole('tab', { name: 'Requests' })).toHaveAttribute('aria-selected', 'true');
  await expect(conflictPanel).toContainText('.data.k owned by alice');
  await page.screenshot({ path: testInfo.outputPath('conflict.png') });
  await conflictPanel.getByRole('button', { name: 'Force: take ownership' }).click();
  await expect(page.getByTestId('request-line')).toContainText('force=true');
  await expect(page.getByTestId('request-line')).toContainText('200');
  const forced = (await shellFetch(page, `${CM}/conflict-force`)).body as { data: Record<string, string>; metadata: { managedFields: { manager: string; fieldsV1: { 'f:data'?: object } }[] } };
  expect(forced.data.k).toBe('bob');
  const bobFields = forced.metadata.managedFields.find((m) => m.manager === 'bob')?.fieldsV1['f:data'];
  const aliceFields = forced.metadata.managedFields.find((m) => m.manager === 'alice')?.fieldsV1['f:data'];
  expect(Object.keys(bobFields ?? {})).toContain('f:k');
  expect(Object.keys(aliceFields ?? {})).not.toContain('f:k');

  // drop the field from my manifest
  expect(await applyAs(page, 'alice', 'conflict-drop', { k: 'alice' })).toBe(201);
  await setEditor(page, configMapYaml('conflict-drop', { k: 'bob', mine: 'm' }));
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(conflictPanel).toContainText('.data.k owned by alice');
  await conflictPanel.getByRole('button', { name: 'Drop the fields from my manifest' }).click();
  await expect(page.getByTestId('request-line')).toContainText('200');
  expect(await editorText(page)).not.toContain('k: bob');
  expect(await editorText(page)).toContain('mine: m');
  expect((await shellFetch(page, `${CM}/conflict-drop`)).body).toMatchObject({ data: { k: 'alice', mine: 'm' } });

  // adopt the server's value and share ownership
  expect(await applyAs(page, 'alice', 'conflict-adopt', { k: 'alice' })).toBe(201);
  await setEditor(page, configMapYaml('conflict-adopt', { k: 'bob' }));
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(conflictPanel).toContainText('.data.k owned by alice');
  await conflictPanel.getByRole('button', { name: "Adopt the server's values (share ownership)" }).click();
  await expect(page.getByTestId('request-line')).toContainText('200');
  expect(await editorText(page)).toContain('k: alice');
  const shared = (await shellFetch(page, `${CM}/conflict-adopt`)).body as { data: Record<string, string>; metadata: { managedFields: { manager: string; fieldsV1: { 'f:data'?: object } }[] } };
  expect(shared.data.k).toBe('alice');
  for (const m of ['alice', 'bob']) {
    expect(Object.keys(shared.metadata.managedFields.find((e) => e.manager === m)?.fieldsV1['f:data'] ?? {})).toContain('f:k');
  }
});

test('the request console lists requests, highlights Warning headers, toggles YAML/JSON and sends raw requests', async ({ page }, testInfo) => {
  await openFrame(page);
  // an unknown field: the server warns (fieldValidation Warn by default)
  await setEditor(page, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: console-warn\nbogus: 1\ndata:\n  a: "1"\n');
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(results(page)).toContainText('201 configmaps/console-warn created');
  const row = page.getByTestId('request-row').filter({ hasText: 'POST' }).first();
  await expect(row).toContainText('/api/v1/namespaces/default/configmaps');
  await expect(row).toContainText('201');
  await expect(row).toContainText('editor');
  await expect(row).toContainText(/\d+ ms/);
  await row.click();
  const warning = page.getByTestId('warning-header');
  await expect(warning).toContainText('299 - "unknown field \\"bogus\\""');
  expect(await warning.evaluate((el) => getComputedStyle(el).fontWeight)).toBe('600');
  await expect(page.locator('.request-detail')).toContainText('kind: ConfigMap');
  await page.getByRole('button', { name: 'JSON', exact: true }).click();
  await expect(page.locator('.request-detail')).toContainText('"kind": "ConfigMap"');
  await page.screenshot({ path: testInfo.outputPath('console-warning.png') });

  // a logged request can be edited as a raw request
  await page.getByRole('button', { name: 'Edit as raw request' }).click();
  const raw = page.getByRole('form', { name: 'Raw request' });
  await expect(raw.getByLabel('Method')).toHaveValue('POST');
  await expect(raw.getByLabel('Path')).toHaveValue(`${CM}?fieldManager=playground`);
  await expect(raw.getByLabel('Body')).toHaveValue(/"name":"console-warn"/);
  // raw mode: any method, path, headers and body
  await raw.getByLabel('Method').selectOption('POST');
  await raw.getByLabel('Path').fill(`${CM}?dryRun=All`);
  await raw.getByLabel('Headers').fill('Content-Type: application/json\nAccept: application/json');
  await raw.getByLabel('Body').fill(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'raw-dry' } }));
  await raw.getByRole('button', { name: 'Send' }).click();
  const rawRow = page.getByTestId('request-row').filter({ hasText: 'dryRun=All' }).first();
  await expect(rawRow).toContainText('201');
  await expect(rawRow).toContainText('console');
  // the filter narrows the list
  await page.getByLabel('Filter requests').fill('dryrun=all');
  await expect(page.getByTestId('request-row')).toHaveCount(1);
  await page.getByLabel('Filter requests').fill('');
  expect((await shellFetch(page, `${CM}/raw-dry`)).status).toBe(404);
  await page.screenshot({ path: testInfo.outputPath('console-raw.png') });
});

test('a share link round-trips the editor text and settings; without one the last session returns', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openFrame(page);
  const text = configMapYaml('shared', { note: 'from a link' });
  await setEditor(page, text);
  await setManager(page, 'sharer');
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(page.getByTestId('share-status')).toHaveText('Share link copied to the clipboard.', { timeout: 30_000 }); // it reads the cluster's objects first
  const url = await page.evaluate(() => navigator.clipboard.readText());
  expect(url).toMatch(/#scenario\/[A-Za-z0-9_-]+$/);
  expect(page.url()).toBe(url);
  // change the session, then open the link in another tab: the link wins
  await setEditor(page, 'session: text\n');
  await sessionSaved(page, 'session: text\n');
  const tab = await context.newPage();
  // every link asks first and opens in a cluster of its own (e2e/ui-safety.spec.ts covers Cancel)
  await openShell(tab, url.slice(url.indexOf('/', 8)));
  await tab.getByRole('dialog', { name: 'Open the shared scenario?' }).getByRole('button', { name: 'Open' }).click();
  await expect(tab.locator('[data-testid="monaco"][data-ready="true"]')).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => editorText(tab)).toBe(text);
  await expect(tab.getByLabel('Field manager')).toHaveValue('sharer');
  await tab.close();
  // no fragment: the last local session (the link's tab saved its text as the session; edit once more)
  await setEditor(page, 'session: text\n# again\n');
  await sessionSaved(page, 'session: text\n# again\n');
  const plain = await context.newPage();
  await openFrame(plain, '/');
  await expect.poll(() => editorText(plain)).toBe('session: text\n# again\n');
});

test('the theme toggle switches light and dark and is remembered', async ({ page }, testInfo) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await openFrame(page);
  const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(await bg()).toBe('rgb(255, 255, 255)');
  const toggle = page.getByRole('button', { name: 'Dark theme' });
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
  expect(await bg()).toBe('rgb(22, 24, 29)');
  await expect(page.locator('.monaco-editor.vs-dark')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('frame-dark.png') });
  await page.reload();
  await expect(page.getByRole('button', { name: 'Dark theme' })).toHaveAttribute('aria-pressed', 'true');
  expect(await bg()).toBe('rgb(22, 24, 29)');
});

test('without the service worker (?engine=page) the editor and the console work the same', async ({ page }) => {
  await openFrame(page, '/?engine=page&cluster=frame-page');
  await expect(page.getByTestId('engine-mode')).toHaveText('in-page engine (requested with ?engine=page)');
  await setEditor(page, configMapYaml('in-page-frame', { a: '1' }));
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(results(page)).toContainText('201 configmaps/in-page-frame applied');
  const row = page.getByTestId('request-row').filter({ hasText: 'PATCH' }).first();
  await expect(row).toContainText('201');
  expect((await shellFetch(page, `${CM}/in-page-frame`)).body).toMatchObject({ data: { a: '1' } });
});
