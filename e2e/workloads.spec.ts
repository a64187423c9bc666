// The playground's first cluster is simulated: a deployment created in the browser host becomes ready
// (scheduler, simulated nodes, ReplicaSet and Deployment controllers in the service worker's engine); the
// status line says so, and the switch turns the cluster into a bare API server.
import { expect, test } from '@playwright/test';
import { openShell, shellFetch, skipWithoutBrowser } from './helpers';

skipWithoutBrowser();

const DEPLOYS = '/apis/apps/v1/namespaces/default/deployments';

test('a deployment becomes ready in the browser host; the switch says the cluster is simulated', async ({ page }, testInfo) => {
  await openShell(page, '/');
  await expect(page.getByTestId('simulation-status')).toContainText('Simulated cluster');
  await expect(page.getByTestId('simulation-switch')).toBeChecked();
  const body = JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } } },
  });
  const created = await shellFetch(page, DEPLOYS, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
  expect(created.status).toBe(201);
  await expect
    .poll(async () => {
      const d = (await shellFetch(page, `${DEPLOYS}/web`)).body as { status?: { readyReplicas?: number; availableReplicas?: number } };
      return `${d.status?.readyReplicas ?? 0}/${d.status?.availableReplicas ?? 0}`;
    }, { timeout: 30_000 })
    .toBe('3/3');
  const pods = (await shellFetch(page, '/api/v1/namespaces/default/pods?labelSelector=app%3Dweb')).body as { items: { status: { phase: string; podIP?: string }; spec: { nodeName?: string } }[] };
  expect(pods.items.map((p) => p.status.phase)).toEqual(['Running', 'Running', 'Running']);
  expect(pods.items.every((p) => p.spec.nodeName?.startsWith('node-') && p.status.podIP)).toBe(true);
  await page.screenshot({ path: testInfo.outputPath('simulated-deployment.png') });

  // switched off, the cluster is a bare API server: a new pod stays unscheduled
  await page.getByTestId('simulation-switch').uncheck();
  await expect(page.getByTestId('simulation-status')).toContainText('Bare API server');
  await expect
    .poll(async () => {
      const r = await shellFetch(page, '/api/v1/namespaces/default/pods', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { generateName: 'bare-' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } }) });
      return r.status;
    })
    .toBe(201);
  await page.waitForTimeout(3000);
  const bare = (await shellFetch(page, '/api/v1/namespaces/default/pods')).body as { items: { metadata: { name: string }; spec: { nodeName?: string } }[] };
  expect(bare.items.filter((p) => p.metadata.name.startsWith('bare-')).map((p) => p.spec.nodeName ?? '')).toEqual(['']);
});

test('Cluster settings: with the deployment controller unticked a Deployment gets no ReplicaSet; ticked again it does', async ({ page }) => {
  await openShell(page, '/?cluster=default');
  await expect(page.getByTestId('simulation-switch')).toBeChecked();
  const setDeploymentController = async (on: boolean) => {
    await page.getByTestId('cluster-settings').click();
    const dialog = page.getByTestId('cluster-settings-dialog');
    const box = dialog.getByTestId('simulated-controllers').getByRole('checkbox', { name: 'deployment', exact: true });
    await expect(box).toBeEnabled();
    await expect(box).toBeChecked({ checked: !on });
    await box.setChecked(on);
    await dialog.getByRole('button', { name: 'Save and restart' }).click();
    await expect(dialog.getByRole('status').first()).toContainText('Saved');
    await dialog.getByRole('button', { name: 'Close' }).click();
  };
  const body = JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'off' },
    spec: { replicas: 1, selector: { matchLabels: { app: 'off' } }, template: { metadata: { labels: { app: 'off' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
  });
  const replicaSets = async () => ((await shellFetch(page, '/apis/apps/v1/namespaces/default/replicasets?labelSelector=app%3Doff')).body as { items: unknown[] }).items.length;

  await setDeploymentController(false);
  expect((await shellFetch(page, DEPLOYS, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body })).status).toBe(201);
  await page.waitForTimeout(3000);
  expect(await replicaSets()).toBe(0);
  await setDeploymentController(true);
  await expect.poll(replicaSets, { timeout: 30_000 }).toBe(1);
});
