// The storage conformance suite (src/engine/storage/testing) against real IndexedDB in Chromium.
import { writeFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { skipWithoutBrowser } from './helpers';

skipWithoutBrowser();

test('every storage conformance case passes against IndexedDB in Chromium', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  await page.goto('/e2e/pages/storage-conformance.html');
  await page.waitForFunction(() => window.storageConformance?.done === true, undefined, { timeout: 170_000 });
  const state = await page.evaluate(() => window.storageConformance!);
  const resultsFile = testInfo.outputPath('conformance-results.json');
  await writeFile(resultsFile, JSON.stringify(state, null, 2));
  await testInfo.attach('conformance-results.json', { path: resultsFile, contentType: 'application/json' });
  expect(state.fatal).toBeUndefined();
  expect(state.results.length).toBeGreaterThan(10);
  const failures = state.results.filter((r) => !r.ok).map((r) => `${r.name}: ${r.error}`);
  expect(failures).toEqual([]);
  await expect(page.getByRole('status')).toHaveText(`${state.results.length} of ${state.results.length} cases passed`);
});
