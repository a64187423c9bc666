// Browser tests against the real service worker (docs/hosts.md 5): Playwright builds the app (with the
// test pages under e2e/pages/), serves it with `vite preview`, and drives Chromium. KUBE_E2E_DEV=1 runs the
// suite against the `vite` dev server instead. Without any Chromium the specs are skipped with a message;
// under CI=true that is an error.
import { defineConfig, devices } from '@playwright/test';
import { findChromium } from './e2e/browser';

const PORT = Number(process.env.KUBE_E2E_PORT ?? 4317);
// inside the checkout (not node_modules/.cache), so worktrees that share node_modules do not share a build
const OUT_DIR = '.e2e-dist';
const browser = findChromium();

if (!browser.launchOptions) {
  if (process.env.CI === 'true') throw new Error(`e2e: ${browser.description}`);
  process.env.KUBE_E2E_SKIP = `e2e skipped: ${browser.description}`;
  console.warn(process.env.KUBE_E2E_SKIP);
}

const serverCommand =
  process.env.KUBE_E2E_DEV === '1'
    ? `npx vite --host 127.0.0.1 --port ${PORT} --strictPort`
    : `npx vite build --outDir ${OUT_DIR} --emptyOutDir --logLevel warn && ` +
      `npx vite preview --outDir ${OUT_DIR} --host 127.0.0.1 --port ${PORT} --strictPort`;

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI === 'true' ? 1 : 0,
  forbidOnly: process.env.CI === 'true',
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    screenshot: 'on',
    trace: 'retain-on-failure',
    serviceWorkers: 'allow',
  },
  projects: [
    {
      name: 'chromium',
      use: { ...devices['Desktop Chrome'], launchOptions: browser.launchOptions ?? {} },
    },
  ],
  webServer: browser.launchOptions
    ? {
        command: serverCommand,
        env: { KUBE_E2E_PAGES: '1' },
        url: `http://127.0.0.1:${PORT}/`,
        reuseExistingServer: false,
        timeout: 180_000,
        stdout: 'pipe',
        stderr: 'pipe',
      }
    : undefined,
});
