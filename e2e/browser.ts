// Which Chromium the browser tests and the browser benchmark launch (docs/design.md 9): the system Chromium at
// /usr/bin/chromium when present (these machines: `npx playwright install` cannot download here), else the
// browser Playwright installed itself (`npx playwright install chromium` on a developer's machine).
import { existsSync } from 'node:fs';
import { chromium, type LaunchOptions } from '@playwright/test';

export const SYSTEM_CHROMIUM = '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface ChromiumChoice {
  /** Launch options for Playwright, or undefined when no browser can be found. */
  launchOptions?: LaunchOptions;
  /** Where the browser comes from, or why none was found. */
  description: string;
}

/** CHROMIUM_PATH, when set, names the browser to use (and nothing else is tried). */
export function findChromium(): ChromiumChoice {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    return existsSync(fromEnv)
      ? { launchOptions: { executablePath: fromEnv, args: CHROMIUM_ARGS }, description: `CHROMIUM_PATH=${fromEnv}` }
      : { description: `no Chromium found: CHROMIUM_PATH=${fromEnv} does not exist` };
  }
  if (existsSync(SYSTEM_CHROMIUM)) {
    return { launchOptions: { executablePath: SYSTEM_CHROMIUM, args: CHROMIUM_ARGS }, description: SYSTEM_CHROMIUM };
  }
  let bundled: string | undefined;
  try {
    bundled = chromium.executablePath();
  } catch {
    bundled = undefined;
  }
  if (bundled && existsSync(bundled)) {
    return { launchOptions: { args: CHROMIUM_ARGS }, description: `Playwright's Chromium (${bundled})` };
  }
  return {
    description:
      `no Chromium found: neither ${SYSTEM_CHROMIUM} nor Playwright's own browser` +
      `${bundled ? ` (${bundled})` : ''} exists. Install one (apt-get install chromium, or npx playwright install chromium), ` +
      'or set CHROMIUM_PATH.',
  };
}
