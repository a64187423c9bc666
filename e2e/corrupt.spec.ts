// A corrupt object in the playground, against the real service worker (issue 12 item 5): the feature gate
// AllowUnsafeMalformedObjectDeletion is turned on in the cluster settings (a refused gate shows the Node
// host's message first), a ConfigMap is corrupted from the resource browser (a simulation, confirmed in the
// dialog), reading it shows the real corrupt-object error, and the forced delete removes it.
import { expect, test } from '@playwright/test';
import { openShell, shellFetch, skipWithoutBrowser } from './helpers';

skipWithoutBrowser();

const CM = '/api/v1/namespaces/default/configmaps';

test('corrupt a ConfigMap (simulation), see the error, force-delete it', async ({ page }, testInfo) => {
  await openShell(page, '/');

  // the gate, in the cluster settings: an unknown gate is refused with kube-apiserver's message
  await page.getByTestId('cluster-settings').click();
  const settings = page.getByTestId('cluster-settings-dialog');
  await settings.getByLabel('--feature-gates').fill('Bogus=true');
  await settings.getByRole('button', { name: 'Save and restart' }).click();
  await expect(settings.getByTestId('cluster-settings-error')).toHaveText('invalid argument "Bogus=true" for "--feature-gates" flag: unrecognized feature gate: Bogus');
  await settings.getByLabel('--feature-gates').fill('AllowUnsafeMalformedObjectDeletion=true');
  await settings.getByRole('button', { name: 'Save and restart' }).click();
  await expect(settings.getByText('Saved. The API server restarted with these settings.')).toBeVisible();
  await expect(settings.getByTestId('cluster-settings-in-effect')).toContainText('AllowUnsafeMalformedObjectDeletion=true');
  await settings.getByRole('button', { name: 'Close' }).click();

  const created = await shellFetch(page, CM, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ metadata: { name: 'fragile', finalizers: ['example.com/hold'] }, data: { a: '1' } }) });
  expect(created.status).toBe(201);

  const browser = page.getByTestId('resource-browser');
  await browser.getByTestId('resource-core-configmaps').click();
  await browser.getByTestId('objects-table').getByRole('row', { name: /fragile/ }).click();
  await browser.getByTestId('simulate-corruption').click();
  await page.getByRole('dialog', { name: 'Simulate corruption of ConfigMap default/fragile?' }).getByRole('button', { name: 'Corrupt (simulation)' }).click();
  await expect(browser.getByRole('status')).toContainText(
    'Simulation: ConfigMap default/fragile is corrupt. Reading it now fails: 500 Internal error occurred: StorageError: corrupt object, Code: 7, Key: /configmaps/default/fragile',
  );
  await expect(browser.getByRole('alert')).toContainText('failed to read one or more configmaps from the storage');
  const read = await shellFetch(page, `${CM}/fragile`);
  expect(read.status).toBe(500);
  await page.screenshot({ path: testInfo.outputPath('corrupt-object.png') });

  await browser.getByTestId('force-delete').click();
  await page.getByRole('dialog', { name: 'Force delete ConfigMap default/fragile?' }).getByRole('button', { name: 'Force delete' }).click();
  await expect(browser.getByRole('status')).toHaveText('Force-deleted ConfigMap default/fragile');
  expect((await shellFetch(page, `${CM}/fragile`)).status).toBe(404);
  // the collection reads again
  await expect(browser.getByTestId('objects-table')).toContainText('kube-root-ca.crt');
});
