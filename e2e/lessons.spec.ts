// Every lesson walked to its end in Chromium through the real service worker: the lesson starts on its own
// fresh cluster (?cluster=lesson-<id>), each step's actions are run from the Lessons panel (manifests into
// the editor, kubectl commands, scripted requests) and its check, read from the cluster, turns done. A
// screenshot of each lesson's end state is kept in test-results/. A reload resumes the step; the user's own
// cluster is left alone; Restart makes the lesson's cluster fresh again.
import { expect, test, type Page } from '@playwright/test';
import { shellFetch, skipWithoutBrowser } from './helpers';
import { LESSONS } from '../src/ui/lessons/lessons';

skipWithoutBrowser();

async function openLessons(page: Page, path = '/') {
  await page.goto(path);
  await expect(page.getByTestId('engine-mode')).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('[data-testid="monaco"][data-ready="true"]')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('tab', { name: 'Lessons' }).click();
}

async function start(page: Page, title: string, id: string) {
  await page.getByRole('button', { name: `Start lesson: ${title}` }).click();
  await page.waitForURL(`**/?cluster=lesson-${id}&lesson=${id}&step=1`);
  await expect(page.getByTestId('engine-mode')).toHaveText('service worker', { timeout: 30_000 });
  await expect(page.getByTestId('cluster-name')).toHaveText(`lesson-${id}`);
  await expect(page.locator('[data-testid="monaco"][data-ready="true"]')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('lesson-progress')).toHaveText(/^Step 1 of \d+$/);
}

/** Runs the current step's actions in order, each after the previous one has answered. */
async function doStep(page: Page) {
  const items = page.getByTestId('lesson-step').locator('.lesson-actions > li');
  const n = await items.count();
  for (let i = 0; i < n; i++) {
    const item = items.nth(i);
    await item.getByRole('button').first().click();
    await expect(item.getByTestId('lesson-output')).toBeVisible({ timeout: 20_000 });
  }
}

for (const lesson of LESSONS) {
  test(`lesson ${lesson.id}: walked to its end on its own cluster`, async ({ page }, info) => {
    test.setTimeout(150_000);
    await openLessons(page);
    await start(page, lesson.title, lesson.id);
    for (const [i, step] of lesson.steps.entries()) {
      await expect(page.getByTestId('lesson-progress')).toHaveText(`Step ${i + 1} of ${lesson.steps.length}`);
      await expect(page.getByRole('heading', { name: `${i + 1}. ${step.title}` })).toBeVisible();
      await expect(page.getByTestId('lesson-check')).toHaveAttribute('data-done', 'false');
      await doStep(page);
      for (const [j, a] of step.actions.entries()) {
        if (a.kind !== 'manifest' && a.expect) {
          await expect(page.getByTestId('lesson-step').locator('.lesson-actions > li').nth(j).getByTestId('lesson-output')).toContainText(a.expect);
        }
      }
      await expect(page.getByTestId('lesson-check')).toHaveAttribute('data-done', 'true', { timeout: 20_000 });
      await expect(page.getByTestId('lesson-check')).toContainText('Done');
      // the end state: the last step done, with its outputs
      if (i === lesson.steps.length - 1) await page.screenshot({ path: info.outputPath(`lesson-${lesson.id}-end.png`), fullPage: true });
      await page.getByRole('button', { name: 'Next step' }).click();
    }
    await expect(page.getByTestId('lesson-finished')).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`step=${lesson.steps.length + 1}$`));
  });
}

test('lessons: a reload resumes the step, the own cluster is untouched, Restart makes the cluster fresh', async ({ page }) => {
  test.setTimeout(120_000);
  await openLessons(page);
  const mine = await shellFetch(page, '/api/v1/namespaces/default/configmaps', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { color: 'mine' } }),
  });
  expect(mine.status).toBe(201);

  await start(page, 'Server-side apply and conflicts', 'ssa');
  // the lesson's cluster does not have the user's object
  expect((await shellFetch(page, '/api/v1/namespaces/default/configmaps/settings')).status).toBe(404);
  await doStep(page);
  await expect(page.getByTestId('lesson-check')).toHaveAttribute('data-done', 'true');
  await page.getByRole('button', { name: 'Next step' }).click();
  await expect(page).toHaveURL(/step=2$/);

  await page.reload();
  await expect(page.getByTestId('lesson-progress')).toHaveText('Step 2 of 4');
  await expect(page.getByRole('heading', { name: '2. Bob wants another colour: a conflict, then force' })).toBeVisible();

  // Restart: step 1 again on a fresh cluster (the ConfigMap of step 1 is gone)
  await page.getByRole('button', { name: 'Restart' }).click();
  await page.waitForURL(/step=1$/);
  await expect(page.getByTestId('cluster-name')).toHaveText('lesson-ssa');
  await expect(page.getByTestId('lesson-check')).toHaveAttribute('data-done', 'false');
  await expect(page.getByTestId('lesson-check')).toContainText('configmap settings: 404');

  await page.getByRole('button', { name: 'Leave lesson' }).click();
  await page.waitForURL((u) => !u.search.includes('lesson'));
  await expect(page.getByTestId('cluster-name')).toHaveText('default');
  const back = await shellFetch(page, '/api/v1/namespaces/default/configmaps/settings');
  expect((back.body as { data?: Record<string, string> }).data).toEqual({ color: 'mine' });
});
