// Typing in the manifest editor (issue 17, the typing target): Monaco owns the text while it is typed in, so
// a keystroke renders nothing of the playground's React tree; whoever needs the text reads it at once, the
// document count follows once typing pauses, and the draft typed in the last moment before the tab closes
// is still the session the next tab opens with.
import { expect, test, type Page } from '@playwright/test';
import { skipWithoutBrowser } from './helpers';

skipWithoutBrowser();

/** Counts React commits through the devtools hook React calls on every commit (production builds too). */
const COUNT_COMMITS = `window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
  supportsFiber: true, renderers: new Map(), commits: 0,
  inject(r) { this.renderers.set(this.renderers.size + 1, r); return this.renderers.size; },
  onCommitFiberRoot() { this.commits++; }, onCommitFiberUnmount() {}, onPostCommitFiberRoot() {}, onScheduleFiberRoot() {}, checkDCE() {},
};`;

const commits = (page: Page) => page.evaluate(() => (window as unknown as { __REACT_DEVTOOLS_GLOBAL_HOOK__: { commits: number } }).__REACT_DEVTOOLS_GLOBAL_HOOK__.commits);

async function openEditor(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByTestId('engine-mode')).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('[data-testid="monaco"][data-ready="true"]')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('schema from /openapi/v3 loaded')).toBeVisible({ timeout: 30_000 });
}

/** Replaces Monaco's text by typing `lines` (Escape closes a suggestion list before each Enter; Shift+Home
 *  selects the auto-indent so the next line starts where typed). */
async function typeLines(page: Page, lines: string[]): Promise<number> {
  await page.locator('.monaco-host .view-lines').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  let keys = 0;
  for (const [i, line] of lines.entries()) {
    if (i > 0) {
      await page.keyboard.press('Escape');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Shift+Home');
    }
    await page.keyboard.type(line);
    keys += line.length;
  }
  await page.keyboard.press('Escape');
  return keys;
}

test('typing in Monaco renders nothing per keystroke; the text is read at once; the document count follows the pause', async ({ page }) => {
  await page.addInitScript({ content: COUNT_COMMITS });
  await openEditor(page);
  await page.waitForTimeout(500);
  const lines = ['a: one', 'b: two', '---', 'c: three', 'd: four'];
  const before = await commits(page);
  const keys = await typeLines(page, lines);
  // read at once, without waiting for the pause: what the actions, share links and kubectl get
  expect(await page.evaluate(() => window.playground.editor.getText())).toBe(lines.join('\n'));
  const during = (await commits(page)) - before;
  // one render per keystroke before (the whole editor section); now none of ours while typing (a commit
  // from elsewhere, such as a panel's own update, may still land)
  expect(during, `${during} React commits for ${keys} keystrokes`).toBeLessThan(5);
  await expect(page.getByTestId('action-results')).toContainText('2 documents');
});

test('the draft typed just before the tab closes is the session the next tab opens with', async ({ context }) => {
  const page = await context.newPage();
  await openEditor(page);
  await typeLines(page, ['kept: typed', 'last: moment']);
  // closed at once: neither the editor's pause nor the session's debounce has run
  await page.close({ runBeforeUnload: true });
  const next = await context.newPage();
  await openEditor(next);
  await expect.poll(() => next.evaluate(() => window.playground.editor.getText())).toBe('kept: typed\nlast: moment');
});
