// The audit log in the playground (issue 14 item 5), against the real service worker: the Audit tab lists
// the events the engine wrote under the default policy (writes, not reads), a row opens the whole
// audit.k8s.io/v1 Event, and the cluster settings take an audit policy (a refused one shows the loader's
// message; a saved one applies at once, without restarting the API server).
import { expect, test } from '@playwright/test';
import { configMap, openShell, shellFetch, skipWithoutBrowser } from './helpers';

skipWithoutBrowser();

const CM = '/api/v1/namespaces/default/configmaps';

test('the Audit tab lists write events; the policy is edited in the cluster settings', async ({ page }, testInfo) => {
  await openShell(page, '/');
  const created = await shellFetch(page, CM, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: configMap('audited', { a: '1' }) });
  expect(created.status).toBe(201);
  const read = await shellFetch(page, `${CM}/audited`);
  expect(read.status).toBe(200);

  await page.getByRole('tab', { name: 'Audit' }).click();
  const panel = page.getByTestId('audit-panel');
  await panel.getByTestId('audit-refresh').click();
  await panel.getByTestId('audit-filter').fill('audited');
  const row = panel.getByTestId('audit-row').filter({ hasText: `${CM}` }).filter({ hasText: 'create' });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('ResponseComplete');
  await expect(row).toContainText('kubernetes-admin');
  await expect(row).toContainText('201');
  await expect(row).toContainText('decision=allow');
  // the read is not recorded by the default policy
  await expect(panel.getByTestId('audit-row').filter({ hasText: `${CM}/audited` })).toHaveCount(0);
  await row.getByRole('button').click();
  const json = panel.getByTestId('audit-event-json');
  await expect(json).toContainText('"apiVersion": "audit.k8s.io/v1"');
  await expect(json).toContainText('"level": "RequestResponse"');
  await expect(json).toContainText('"requestObject"');
  await page.screenshot({ path: testInfo.outputPath('audit-panel.png') });

  // a refused policy: the loader's message; an accepted one applies without a restart
  await page.getByTestId('cluster-settings').click();
  const settings = page.getByTestId('cluster-settings-dialog');
  await settings.getByTestId('audit-policy').fill('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Everything\n');
  await settings.getByRole('button', { name: 'Save and restart' }).click();
  await expect(settings.getByTestId('cluster-settings-error')).toHaveText(
    'invalid audit policy: rules[0].level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse"',
  );
  await settings.getByTestId('audit-policy').fill('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n  verbs: [get]\n  resources: [{group: "", resources: [configmaps]}]\n');
  await settings.getByRole('button', { name: 'Save and restart' }).click();
  await expect(settings.getByText('Saved. The audit policy applies now.')).toBeVisible();
  await settings.getByRole('button', { name: 'Close' }).click();

  expect((await shellFetch(page, `${CM}/audited`)).status).toBe(200);
  await panel.getByTestId('audit-refresh').click();
  const get = panel.getByTestId('audit-row').filter({ hasText: `${CM}/audited` });
  await expect(get).toHaveCount(2);
  await expect(get.filter({ hasText: 'RequestReceived' })).toHaveCount(1);
  await expect(get.filter({ hasText: 'ResponseComplete' })).toContainText('200');
});
