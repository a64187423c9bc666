// Who acts, and why a request was refused (the UI of the authorization issue): the header shows the acting
// user as the server's SelfSubjectReview answers; switching to a user with no rights makes every UI request
// carry Impersonate-User, the 403 of listing pods is explained (what was needed, the roles that would allow
// it, the access review, the user's rules) with a suggested RoleBinding opened in the editor, which the
// administrator applies, and the retry succeeds. A service account acts with its groups; the choice
// survives a reload, per cluster. An admission refusal (a quota) names the quota and its numbers.
import { expect, test, type Page } from '@playwright/test';
import { shellFetch, skipWithoutBrowser } from './helpers';

skipWithoutBrowser();

async function openFrame(page: Page, path = '/'): Promise<void> {
  await page.goto(path);
  // a loaded machine may take a while to start the service worker
  await expect(page.getByTestId('engine-mode')).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('[data-testid="monaco"][data-ready="true"]')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('acting-user')).not.toHaveText('…');
}

async function actAsUser(page: Page, name: string, groups = ''): Promise<void> {
  await page.getByRole('button', { name: 'Switch user' }).click();
  const form = page.getByRole('dialog', { name: 'Switch the acting user' });
  await form.getByLabel('a user', { exact: true }).check();
  await form.getByLabel('User name').fill(name);
  await form.getByLabel('Groups').fill(groups);
  await form.getByRole('button', { name: 'Act as this user' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByTestId('acting-user')).toHaveText(name);
}

const bar = (page: Page) => page.getByTestId('acting-user-bar');
const browser = (page: Page) => page.getByTestId('resource-browser');

test('a user with no rights: the 403 of listing pods is explained, the suggested RoleBinding applied as admin makes the retry succeed', async ({ page }, testInfo) => {
  test.slow(); // many steps, on a shared machine
  await openFrame(page);
  // the administrator, as `kubectl auth whoami` would say
  await expect(page.getByTestId('acting-user')).toHaveText('kubernetes-admin');
  await expect(page.getByTestId('acting-groups')).toContainText('system:masters');
  await expect(bar(page)).not.toHaveClass(/impersonating/);

  await actAsUser(page, 'jane', 'team-a');
  await expect(bar(page)).toHaveClass(/impersonating/);
  await expect(bar(page)).toContainText('impersonating');
  await expect(page.getByTestId('acting-groups')).toHaveText('(team-a, system:authenticated)');

  await browser(page).getByTestId('resource-core-pods').click();
  const message = 'pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"';
  await expect(browser(page).getByRole('alert').filter({ hasText: message })).toBeVisible();
  // every UI request carried the impersonation headers
  const listed = await page.evaluate(() =>
    window.playground.store
      .get()
      .requests.filter((r) => r.source === 'browser' && r.path.includes('/namespaces/default/pods'))
      .map((r) => Object.fromEntries(r.requestHeaders)),
  );
  expect(listed.length).toBeGreaterThan(0);
  for (const h of listed) expect(h).toMatchObject({ 'impersonate-user': 'jane', 'impersonate-group': 'team-a' });

  const denial = page.getByTestId('denial').filter({ hasText: 'cannot list resource "pods"' });
  await expect(denial).toHaveCount(1);
  if (!(await denial.evaluate((d) => (d as HTMLDetailsElement).open))) await denial.locator('summary').click();
  await expect(denial.getByTestId('denial-message')).toHaveText(message);
  await expect(denial.getByTestId('denial-needed')).toContainText('verblist');
  await expect(denial.getByTestId('denial-needed')).toContainText('resourcepods');
  await expect(denial.getByTestId('denial-needed')).toContainText('API group"" (core)');
  await expect(denial.getByTestId('denial-needed')).toContainText('namespacedefault');
  await expect(denial.getByTestId('denial-review')).toContainText('SelfSubjectAccessReview as jane: allowed: false');
  const roles = denial.getByTestId('denial-roles');
  await expect(roles).toContainText('A RoleBinding of ClusterRole view to jane would grant it');
  await expect(roles.locator('tbody tr').first()).toContainText('ClusterRole view');
  await expect(roles).toContainText('ClusterRole cluster-admin');
  await denial.getByTestId('denial-rules').locator('summary').click();
  await expect(denial.getByTestId('denial-rules')).toContainText('selfsubjectreviews');
  await page.screenshot({ path: testInfo.outputPath('denied-explained.png') });

  await roles.getByTestId('suggest-binding').click();
  await expect.poll(() => page.evaluate(() => window.playground.editor.getText())).toContain('kind: RoleBinding');
  const suggested = await page.evaluate(() => window.playground.editor.getText());
  expect(suggested).toBe(
    [
      'apiVersion: rbac.authorization.k8s.io/v1',
      'kind: RoleBinding',
      'metadata:',
      '  name: jane-view',
      '  namespace: default',
      'subjects:',
      '- kind: User',
      '  name: jane',
      '  apiGroup: rbac.authorization.k8s.io',
      'roleRef:',
      '  apiGroup: rbac.authorization.k8s.io',
      '  kind: ClusterRole',
      '  name: view',
      '',
    ].join('\n'),
  );
  // not applied by itself
  expect((await shellFetch(page, '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings/jane-view')).status).toBe(404);

  // jane may not bind roles: applying it as jane is refused, and that refusal is explained too
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(page.getByTestId('action-results')).toContainText('403 rolebindings/jane-view applied: rolebindings.rbac.authorization.k8s.io "jane-view" is forbidden: User "jane" cannot patch resource "rolebindings"');

  // as the administrator it applies
  await bar(page).getByRole('button', { name: 'Back to admin' }).click();
  await expect(page.getByTestId('acting-user')).toHaveText('kubernetes-admin');
  await expect(bar(page)).not.toHaveClass(/impersonating/);
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(page.getByTestId('action-results')).toContainText('201 rolebindings/jane-view applied');

  // jane again: the list succeeds, and its denial is gone
  await actAsUser(page, 'jane', 'team-a');
  await browser(page).getByTestId('resource-core-pods').click();
  await expect(browser(page).getByText('No resources found in default namespace.')).toBeVisible();
  await expect(browser(page).getByRole('alert').filter({ hasText: message })).toHaveCount(0);
  await expect(page.getByTestId('denial').filter({ hasText: 'cannot list resource "pods"' })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('retry-allowed.png') });
});

test('a service account acts with its groups; the acting user survives a reload, per cluster', async ({ page }) => {
  test.slow(); // five page loads
  await openFrame(page);
  await page.getByRole('button', { name: 'Switch user' }).click();
  const form = page.getByRole('dialog', { name: 'Switch the acting user' });
  await form.getByLabel('a service account').check();
  await form.getByLabel('Namespace').fill('kube-system');
  await form.getByLabel('Service account name').fill('builder');
  await form.getByRole('button', { name: 'Act as this user' }).click();
  const sa = 'system:serviceaccount:kube-system:builder';
  await expect(page.getByTestId('acting-user')).toHaveText(sa);
  await expect(page.getByTestId('acting-groups')).toHaveText('(system:serviceaccounts, system:serviceaccounts:kube-system, system:authenticated)');
  await expect(bar(page)).toHaveClass(/impersonating/);

  // its requests are authorized as the service account: listing secrets is refused with its name
  const res = await page.evaluate(async () => {
    const r = await window.playground.store.fetch('/api/v1/namespaces/kube-system/secrets', { headers: { Accept: 'application/json' } }, 'test');
    return { status: r.status, body: (await r.json()) as { message: string } };
  });
  expect(res.status).toBe(403);
  expect(res.body.message).toBe(`secrets is forbidden: User "${sa}" cannot list resource "secrets" in API group "" in the namespace "kube-system"`);
  // the suggestion binds the ServiceAccount subject
  const denial = page.getByTestId('denial').filter({ hasText: 'cannot list resource "secrets"' });
  await expect(denial).toBeVisible();
  await denial.getByTestId('suggest-binding').click();
  await expect.poll(() => page.evaluate(() => window.playground.editor.getText())).toContain('- kind: ServiceAccount\n  name: builder\n  namespace: kube-system\n');

  await page.reload();
  await openFrame(page);
  await expect(page.getByTestId('acting-user')).toHaveText(sa);
  await expect(bar(page)).toHaveClass(/impersonating/);

  // another cluster has its own acting user
  await openFrame(page, '/?cluster=other');
  await expect(page.getByTestId('acting-user')).toHaveText('kubernetes-admin');
  await openFrame(page, '/');
  await expect(page.getByTestId('acting-user')).toHaveText(sa);
  await bar(page).getByRole('button', { name: 'Back to admin' }).click();
  await page.reload();
  await openFrame(page);
  await expect(page.getByTestId('acting-user')).toHaveText('kubernetes-admin');
});

test('an admission refusal (an exceeded quota) names the quota and its numbers', async ({ page }) => {
  await openFrame(page);
  const quota = await shellFetch(page, '/api/v1/namespaces/default/resourcequotas', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'no-pods' }, spec: { hard: { pods: '0' } } }),
  });
  expect(quota.status, quota.text).toBe(201);
  await page.evaluate(() =>
    window.playground.editor.setText('apiVersion: v1\nkind: Pod\nmetadata:\n  name: p1\n  namespace: default\nspec:\n  containers:\n  - name: c\n    image: nginx\n'),
  );
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByTestId('action-results')).toContainText('403 pods/p1 created: pods "p1" is forbidden: exceeded quota: no-pods');
  const denial = page.getByTestId('denial').filter({ hasText: 'exceeded quota' });
  await expect(denial).toContainText('refused by ResourceQuota admission');
  await expect(denial.getByTestId('denial-quota')).toHaveText('ResourceQuota no-pods in namespace default would be exceeded:');
  await expect(denial.locator('tbody tr')).toHaveText(['pods100']);
});

test('a ValidatingAdmissionPolicy refusal names the policy, the binding and the expression that refused', async ({ page }) => {
  await openFrame(page);
  const post = async (path: string, body: unknown) => {
    const r = await shellFetch(page, path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    expect(r.status, r.text).toBe(201);
  };
  const ADM = '/apis/admissionregistration.k8s.io/v1';
  await post(`${ADM}/validatingadmissionpolicies`, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'small-configmaps' },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['configmaps'] }] },
      validations: [{ expression: "has(object.metadata.labels) && 'app' in object.metadata.labels", message: 'every ConfigMap needs an app label' }, { expression: 'size(object.data) <= 2' }],
    },
  });
  await post(`${ADM}/validatingadmissionpolicybindings`, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: 'small-configmaps-binding' },
    spec: { policyName: 'small-configmaps', validationActions: ['Deny'], matchResources: { namespaceSelector: {} } },
  });
  const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\n  namespace: default\n  labels:\n    app: x\ndata:\n  a: "1"\n  b: "2"\n  c: "3"\n';
  const message = `configmaps "big" is forbidden: ValidatingAdmissionPolicy 'small-configmaps' with binding 'small-configmaps-binding' denied request: failed expression: size(object.data) <= 2`;
  // the policy takes effect once the engine has compiled it: retry the create until it is refused
  await expect(async () => {
    await page.evaluate((t) => window.playground.editor.setText(t), text);
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await expect(page.getByTestId('action-results')).toContainText(message, { timeout: 2000 });
  }).toPass({ timeout: 30_000 });
  const denial = page.getByTestId('denial').filter({ hasText: 'small-configmaps' });
  await expect(denial).toContainText('refused by a ValidatingAdmissionPolicy');
  await expect(denial.getByTestId('denial-message')).toHaveText(message);
  await expect(denial.getByTestId('denial-policy')).toContainText('policysmall-configmaps');
  await expect(denial.getByTestId('denial-policy')).toContainText('bindingsmall-configmaps-binding (validationActions: Deny)');
  await expect(denial.getByTestId('denial-expression')).toHaveText('size(object.data) <= 2');
  await expect(denial.locator('li[data-refused]')).toHaveText('size(object.data) <= 2');

  // the other validation's message: the marked validation is the one with that message
  await page.evaluate((t) => window.playground.editor.setText(t), text.replace('  labels:\n    app: x\n', ''));
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByTestId('action-results')).toContainText('denied request: every ConfigMap needs an app label');
  const second = page.getByTestId('denial').filter({ has: page.getByTestId('denial-message').filter({ hasText: 'denied request: every ConfigMap needs an app label' }) });
  await expect(second.locator('li[data-refused]')).toContainText("has(object.metadata.labels) && 'app' in object.metadata.labels");
});
