// The start of every kubectl test file: find kubectl 1.33 and a `describe` for the file's suite. Without
// kubectl the suite is skipped with the reason in its name, except on CI, where a missing kubectl fails
// the run rather than passing it with nothing tested.
import { describe } from 'vitest';
import { until as waitUntil } from '../../engine/testing/wait.js';
import { findKubectl } from './kubectl.js';

export function kubectlSuite(): { found: { path?: string; why: string }; suite: (name: string, fn: () => void) => void } {
  const found = findKubectl();
  if (!found.path) {
    if (process.env.CI === 'true') throw new Error(`kubectl suite: ${found.why}`);
    console.warn(`kubectl suite skipped: ${found.why}`);
  }
  const suite = found.path ? describe : (name: string, fn: () => void) => describe.skip(`${name} (skipped: ${found.why})`, fn);
  return { found, suite };
}

/** Polls `what` every `pollMs` until it holds; fails after `ms` (the suites' defaults for kubectl's pace). */
export async function until(what: () => Promise<boolean>, ms = 30_000, pollMs = 200): Promise<void> {
  await waitUntil('the condition', what, { ms, every: pollMs });
}
