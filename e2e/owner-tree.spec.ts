// The resource browser's owner tree in the browser host: a deployment's ReplicaSet and pods fill in live,
// nested by ownerReferences; failing a pod's container from its row (a simulation, confirmed in the dialog)
// shows CrashLoopBackOff in the tree and the deployment's availability drops.
import { expect, test } from '@playwright/test';
import { openShell, shellFetch, skipWithoutBrowser } from './helpers';

skipWithoutBrowser();

const DEPLOYS = '/apis/apps/v1/namespaces/default/deployments';

test('owner tree: Deployment -> ReplicaSet -> Pods, live; Fail container… shows CrashLoopBackOff', async ({ page }, testInfo) => {
  await openShell(page, '/');
  await expect(page.getByTestId('simulation-status')).toContainText('Simulated cluster');
  const browser = page.getByTestId('resource-browser');
  await browser.getByTestId('owner-tree-toggle').check();
  const tree = browser.getByTestId('owner-tree');
  await expect(tree).toContainText('No workloads or pods in default namespace.');

  const body = JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } } },
  });
  expect((await shellFetch(page, DEPLOYS, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body })).status).toBe(201);

  // the tree fills in: the deployment, its replica set one level down, two pods below that
  const deployment = tree.getByTestId('owner-Deployment-web');
  await expect(deployment).toHaveAttribute('data-depth', '1');
  const rs = tree.locator('[data-kind="ReplicaSet"]');
  await expect(rs).toHaveCount(1);
  await expect(rs).toHaveAttribute('data-depth', '2');
  const pods = tree.locator('[data-kind="Pod"]');
  await expect(pods).toHaveCount(2);
  await expect(pods.first()).toHaveAttribute('data-depth', '3');
  await expect(deployment.getByTestId('owner-summary')).toHaveText('ready 2/2, up-to-date 2, available 2', { timeout: 30_000 });
  await expect(rs.getByTestId('owner-summary')).toHaveText('replicas 2/2, ready 2');
  await expect(pods.first().getByTestId('owner-summary')).toContainText('Running, ready 1/1, restarts 0, on node-');

  // fail the first pod's container, after confirming
  const pod = pods.first();
  const podName = (await pod.getAttribute('data-testid'))!.replace('owner-Pod-', '');
  await pod.getByTestId('tree-fail-container').click();
  const dialog = page.getByRole('dialog', { name: `Fail container nginx of pod default/${podName}?` });
  await expect(dialog).toContainText('The kubelet restarts it with its back-off (10 s doubling to 5 min): CrashLoopBackOff');
  await dialog.getByRole('button', { name: 'Fail (simulation)' }).click();
  await expect(browser.getByRole('status')).toHaveText(`simulation: container "nginx" of pod "${podName}" in namespace "default" now exits with an error (exit code 1) whenever it runs`);
  const failed = tree.getByTestId(`owner-Pod-${podName}`);
  await expect(failed.getByTestId('owner-summary')).toContainText('CrashLoopBackOff, ready 0/1, restarts 1', { timeout: 20_000 });
  await expect(deployment.getByTestId('owner-summary')).toContainText('ready 1/2');
  const p = (await shellFetch(page, `/api/v1/namespaces/default/pods/${podName}`)).body as { metadata: { uid: string }; status: { containerStatuses: { state: { waiting?: { message?: string } } }[] } };
  expect(p.status.containerStatuses[0].state.waiting?.message).toBe(`back-off 10s restarting failed container=nginx pod=${podName}_default(${p.metadata.uid})`);
  await page.screenshot({ path: testInfo.outputPath('owner-tree-crashloop.png') });

  // recover: it runs again after its back-off
  await failed.getByTestId('tree-recover-pod').click();
  await page.getByRole('dialog', { name: `Recover pod default/${podName}?` }).getByRole('button', { name: 'Recover (simulation)' }).click();
  await expect(failed.getByTestId('owner-summary')).toContainText('Running, ready 1/1, restarts 2', { timeout: 20_000 });
  await expect(deployment.getByTestId('owner-summary')).toHaveText('ready 2/2, up-to-date 2, available 2', { timeout: 20_000 });

  // a node row of the flat list: Fail node… and Recover… (asked first)
  await browser.getByTestId('owner-tree-toggle').uncheck();
  await browser.getByTestId('resource-core-nodes').click();
  await browser.getByTestId('objects-table').getByRole('row', { name: /node-3/ }).click();
  await browser.getByTestId('fail-node').click();
  await page.getByRole('dialog', { name: 'Fail node node-3?' }).getByRole('button', { name: 'Fail (simulation)' }).click();
  await expect(browser.getByRole('status')).toHaveText('simulation: the kubelet of node "node-3" stopped posting node status and renewing its lease');
  await browser.getByTestId('recover-node').click();
  await page.getByRole('dialog', { name: 'Recover node node-3?' }).getByRole('button', { name: 'Recover (simulation)' }).click();
  await expect(browser.getByRole('status')).toHaveText('simulation: the kubelet of node "node-3" posts node status and renews its lease again');
});
