// Clusters you can carry (issue 16, item 3, in part): the header's cluster menu creates and switches
// clusters; "Export as kubectl YAML" downloads the user's objects (what every fresh cluster has left out),
// and that file applied from the editor into a new cluster gives the same objects.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { shellFetch, skipWithoutBrowser } from './helpers';

skipWithoutBrowser();

async function openFrame(page: Page, path = '/'): Promise<void> {
  await page.goto(path);
  // a loaded machine may take a while to start the service worker
  await expect(page.getByTestId('engine-mode')).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('[data-testid="monaco"][data-ready="true"]')).toBeVisible({ timeout: 30_000 });
}

async function post(page: Page, path: string, body: unknown): Promise<void> {
  const r = await shellFetch(page, path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  expect(r.status, r.text).toBe(201);
}

test('export a cluster as kubectl YAML, create another cluster, apply the file there: the same objects', async ({ page }) => {
  test.slow(); // four page loads
  await openFrame(page, '/?cluster=source');
  await expect(page.getByTestId('cluster-name')).toHaveText('source');
  await post(page, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
  await post(page, '/api/v1/namespaces/team/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', labels: { app: 'web' } }, data: { a: '1' } });
  await post(page, '/apis/apps/v1/namespaces/team/deployments', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } } },
  });

  await page.getByRole('button', { name: 'Clusters' }).click();
  const menu = page.getByRole('dialog', { name: 'Clusters' });
  const download = page.waitForEvent('download');
  await menu.getByRole('button', { name: 'Export as kubectl YAML' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('cluster-source.yaml');
  const yaml = readFileSync((await file.path())!, 'utf8');
  await expect(menu.getByTestId('cluster-status')).toHaveText('Exported 3 objects to cluster-source.yaml (what every fresh cluster has is left out).');
  expect(yaml).toContain('# Exported from the browser cluster "source"');
  expect(yaml.match(/^kind: .*$/gm)).toEqual(['kind: Namespace', 'kind: ConfigMap', 'kind: Deployment']);
  expect(yaml).not.toContain('resourceVersion');
  expect(yaml).not.toContain('managedFields');
  expect(yaml).not.toContain('status:');

  // a new cluster from the menu: it starts fresh
  await menu.getByLabel('New cluster').fill('copy');
  await menu.getByRole('button', { name: 'Create and switch' }).click();
  await expect(page).toHaveURL(/[?&]cluster=copy/);
  await openFrame(page, '/?cluster=copy');
  await expect(page.getByTestId('cluster-name')).toHaveText('copy');
  expect((await shellFetch(page, '/api/v1/namespaces/team')).status).toBe(404);
  await page.getByRole('button', { name: 'Clusters' }).click();
  await expect(page.getByRole('dialog', { name: 'Clusters' }).getByRole('link', { name: 'source' })).toBeVisible();
  await page.getByRole('dialog', { name: 'Clusters' }).getByRole('button', { name: 'Close' }).click();

  await page.evaluate((t) => window.playground.editor.setText(t), yaml);
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  const results = page.getByTestId('action-results');
  await expect(results).toContainText('namespaces/team applied');
  await expect(results).toContainText('configmaps/cfg applied');
  await expect(results).toContainText('deployments/web applied');
  expect((await shellFetch(page, '/api/v1/namespaces/team/configmaps/cfg')).body).toMatchObject({ metadata: { labels: { app: 'web' } }, data: { a: '1' } });
  expect((await shellFetch(page, '/apis/apps/v1/namespaces/team/deployments/web')).body).toMatchObject({ spec: { replicas: 2 } });

  // switching back: the source cluster kept its objects
  await page.getByRole('button', { name: 'Clusters' }).click();
  await page.getByRole('dialog', { name: 'Clusters' }).getByRole('link', { name: 'source' }).click();
  await openFrame(page, '/?cluster=source');
  expect((await shellFetch(page, '/api/v1/namespaces/team/configmaps/cfg')).status).toBe(200);
});

test('reset and delete ask first: Cancel keeps the cluster; Reset starts it fresh; Delete removes another cluster', async ({ page }) => {
  test.slow(); // several page loads
  await openFrame(page, '/?cluster=other-one');
  await post(page, '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kept' }, data: { a: '1' } });
  await openFrame(page, '/?cluster=resettable');
  await post(page, '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'doomed' }, data: { a: '1' } });

  await page.getByRole('button', { name: 'Clusters' }).click();
  const menu = page.getByRole('dialog', { name: 'Clusters' });
  await menu.getByRole('button', { name: 'Reset…' }).click();
  const confirm = page.getByRole('dialog', { name: 'Reset cluster resettable?' });
  await expect(confirm).toContainText('Every object of cluster resettable and its history');
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(menu.getByTestId('cluster-status')).toHaveText('Reset cancelled: nothing was changed.');
  expect((await shellFetch(page, '/api/v1/namespaces/default/configmaps/doomed')).status).toBe(200);

  await menu.getByRole('button', { name: 'Reset…' }).click();
  await confirm.getByRole('button', { name: 'Reset' }).click();
  await page.waitForLoadState('load');
  await openFrame(page, '/?cluster=resettable');
  await expect.poll(async () => (await shellFetch(page, '/api/v1/namespaces/default/configmaps/doomed')).status, { timeout: 20_000 }).toBe(404);
  expect((await shellFetch(page, '/api/v1/namespaces/default')).status).toBe(200);

  // delete the other cluster from here: it asks, then it is gone from the list and starts fresh if opened
  await page.getByRole('button', { name: 'Clusters' }).click();
  await menu.getByRole('button', { name: 'Delete cluster other-one' }).click();
  const del = page.getByRole('dialog', { name: 'Delete cluster other-one?' });
  await del.getByRole('button', { name: 'Delete' }).click();
  await expect(menu.getByTestId('cluster-status')).toHaveText('Cluster other-one deleted.');
  await expect(menu.getByRole('link', { name: 'other-one' })).toHaveCount(0);
  const other = await page.evaluate(async () => (await fetch('/clusters/other-one/api/v1/namespaces/default/configmaps/kept')).status);
  expect(other).toBe(404);
});
