// The UI confirms what it destroys and survives what it is given: a delete from the editor or the raw
// console names what will go and asks first (Cancel focused; Cancel and Escape keep everything, checked
// over HTTP), and a share link that is a decompression bomb or garbage shows a clear error while the app
// stays usable.
import { createDeflateRaw } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { openShell, shellFetch, skipWithoutBrowser } from './helpers';

skipWithoutBrowser();

const CM = '/api/v1/namespaces/default/configmaps';

async function openFrame(page: Page, path = '/'): Promise<void> {
  await openShell(page, path);
  await expect(page.locator('[data-testid="monaco"][data-ready="true"]')).toBeVisible({ timeout: 30_000 });
}

async function setEditor(page: Page, text: string): Promise<void> {
  await page.evaluate((t) => window.playground.editor.setText(t), text);
}

async function post(page: Page, path: string, body: unknown): Promise<void> {
  const res = await shellFetch(page, path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status, res.text).toBe(201);
}

const cmYaml = (name: string, namespace = 'default') => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ${namespace}\ndata:\n  a: "1"\n`;
const results = (page: Page) => page.getByTestId('action-results');

/** base64url of deflate-raw of `size` zero bytes, streamed (a decompression bomb: ~1000:1). */
function bomb(size: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const z = createDeflateRaw({ level: 9 });
    const chunks: Buffer[] = [];
    z.on('data', (c: Buffer) => chunks.push(c));
    z.on('end', () => resolve(Buffer.concat(chunks).toString('base64url')));
    z.on('error', reject);
    const block = Buffer.alloc(1024 * 1024);
    let left = size;
    const pump = () => {
      while (left > 0) {
        left -= block.length;
        if (!z.write(block)) return void z.once('drain', pump);
      }
      z.end();
    };
    pump();
  });
}

test('deleting an object from the editor asks first: Cancel and Escape keep it, Delete deletes it', async ({ page }, testInfo) => {
  await openFrame(page);
  await post(page, CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'safety-cm' }, data: { a: '1' } });
  await setEditor(page, cmYaml('safety-cm'));

  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete ConfigMap default/safety-cm?' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('ConfigMap default/safety-cm');
  await expect(dialog).toContainText('This cannot be undone.');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.screenshot({ path: testInfo.outputPath('confirm-delete.png') });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(results(page)).toContainText('Delete cancelled: nothing was deleted.');
  expect((await shellFetch(page, `${CM}/safety-cm`)).status).toBe(200);

  // Escape cancels too, and Enter on the focused Cancel does
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  expect((await shellFetch(page, `${CM}/safety-cm`)).status).toBe(200);
  expect(await page.evaluate(() => window.playground.store.get().requests.filter((r) => r.method === 'DELETE').length)).toBe(0);

  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(results(page)).toContainText('200 configmaps/safety-cm deleted');
  expect((await shellFetch(page, `${CM}/safety-cm`)).status).toBe(404);
});

test('deleting a namespace names everything in it by kind and count, and asks', async ({ page }) => {
  await openFrame(page);
  await post(page, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'safety-ns' } });
  for (const name of ['one', 'two']) await post(page, '/api/v1/namespaces/safety-ns/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
  await post(page, '/api/v1/namespaces/safety-ns/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } });
  // what the cluster adds to every namespace: the default service account and the root CA ConfigMap
  await expect.poll(async () => (await shellFetch(page, '/api/v1/namespaces/safety-ns/serviceaccounts/default')).status, { timeout: 15_000 }).toBe(200);
  await expect.poll(async () => (await shellFetch(page, '/api/v1/namespaces/safety-ns/configmaps/kube-root-ca.crt')).status, { timeout: 15_000 }).toBe(200);
  await setEditor(page, 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: safety-ns\n');

  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete Namespace safety-ns?' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Namespace safety-ns');
  await expect(dialog).toContainText('and everything in it (5 objects): configmaps: 3, secrets: 1, serviceaccounts: 1');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  const ns = await shellFetch(page, '/api/v1/namespaces/safety-ns');
  expect(ns.status).toBe(200);
  expect(ns.body).toMatchObject({ status: { phase: 'Active' } });
  expect((await shellFetch(page, '/api/v1/namespaces/safety-ns/configmaps/one')).status).toBe(200);

  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(results(page)).toContainText('namespaces/safety-ns deleted');
  await expect.poll(async () => (await shellFetch(page, '/api/v1/namespaces/safety-ns/configmaps/one')).status).toBe(404);
});

test('a raw DELETE of a collection names its members and asks; Cancel sends nothing', async ({ page }) => {
  await openFrame(page);
  for (const name of ['raw-a', 'raw-b']) await post(page, CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { safety: 'raw' } } });
  await page.getByRole('button', { name: 'Raw request' }).click();
  const raw = page.getByRole('form', { name: 'Raw request' });
  await raw.getByLabel('Method').selectOption('DELETE');
  await raw.getByLabel('Path').fill(`${CM}?labelSelector=safety%3Draw`);
  await raw.getByRole('button', { name: 'Send' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete 2 configmaps in namespace default?' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('default/raw-a');
  await expect(dialog).toContainText('default/raw-b');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(raw.getByRole('alert')).toHaveText('DELETE cancelled: nothing was sent.');
  expect((await shellFetch(page, `${CM}/raw-a`)).status).toBe(200);
  expect((await shellFetch(page, `${CM}/raw-b`)).status).toBe(200);

  await raw.getByRole('button', { name: 'Send' }).click();
  await dialog.getByRole('button', { name: 'Delete all' }).click();
  await expect.poll(async () => (await shellFetch(page, `${CM}/raw-a`)).status).toBe(404);
  expect((await shellFetch(page, `${CM}/raw-b`)).status).toBe(404);
});

async function expectUsable(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Kubernetes API playground' })).toBeVisible();
  await expect(page.locator('[data-testid="monaco"][data-ready="true"]')).toBeVisible({ timeout: 30_000 });
  const name = `after-${Date.now().toString(36)}`;
  await setEditor(page, cmYaml(name));
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(results(page)).toContainText(`201 configmaps/${name} created`);
  expect((await shellFetch(page, `${CM}/${name}`)).status).toBe(200);
}

test('a decompression-bomb share link shows an error and the app stays usable', async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const packed = await bomb(512 * 1024 * 1024); // 512 MiB of zeros in well under a MiB of link
  expect(packed.length).toBeLessThan(1_000_000);
  const crashed: string[] = [];
  page.on('crash', () => crashed.push('crash'));
  await openShell(page, `/#scenario/${packed}`);
  await expect(page.getByRole('alert').filter({ hasText: 'The shared link could not be opened' })).toHaveText(
    'The shared link could not be opened: the scenario in the link unpacks to more than 4 MiB.',
  );
  await page.screenshot({ path: testInfo.outputPath('bomb-link.png') });
  await expectUsable(page);
  expect(crashed).toEqual([]);
});

test('garbage share links show what is wrong, never a blank page', async ({ page }) => {
  await openShell(page, '/#scenario/not*base64!');
  await expect(page.getByRole('alert').filter({ hasText: 'shared link' })).toHaveText('The shared link could not be opened: the link is not valid base64url.');
  await expectUsable(page);
  // a link changed while the app runs: bad compression, then the wrong shape
  await page.evaluate(() => {
    location.hash = '#scenario/_____wEC';
  });
  await expect(page.getByRole('alert').filter({ hasText: 'shared link' })).toHaveText(
    "The shared link could not be opened: the link's data is not valid compressed (deflate) data.",
  );
  const shape = await new Promise<string>((resolve, reject) => {
    const z = createDeflateRaw();
    const chunks: Buffer[] = [];
    z.on('data', (c: Buffer) => chunks.push(c));
    z.on('end', () => resolve(Buffer.concat(chunks).toString('base64url')));
    z.on('error', reject);
    z.end('{"text":"a"}');
  });
  await page.evaluate((h) => {
    location.hash = h;
  }, `#scenario/${shape}`);
  await expect(page.getByRole('alert').filter({ hasText: 'shared link' })).toHaveText('The shared link could not be opened: the scenario in the link has no editor text.');
  await expectUsable(page);
});

test('a share link over the user\'s own text asks before replacing it; Cancel keeps the text', async ({ page }) => {
  await openFrame(page);
  await setEditor(page, '# my own notes\nkeep: me\n');
  await page.evaluate(async () => {
    const bytes = new TextEncoder().encode(JSON.stringify({ t: 'from: link\n' }));
    const packed = new Uint8Array(await new Response(new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream('deflate-raw'))).arrayBuffer());
    let bin = '';
    for (const b of packed) bin += String.fromCharCode(b);
    location.hash = '#scenario/' + btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  });
  const dialog = page.getByRole('dialog', { name: 'Open the shared scenario?' });
  await expect(dialog).toContainText("It replaces the editor's text (2 lines) with the link's (1 line).");
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect(await page.evaluate(() => window.playground.editor.getText())).toBe('# my own notes\nkeep: me\n');
});
