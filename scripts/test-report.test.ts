// What `npm test` prints about skipped tests, from report shapes as vitest 3 and Playwright write them.
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs module without type declarations
import { formatSkipped, playwrightSkipped, vitestSkipped } from './test-report.mjs';

const vitestReport = {
  testResults: [
    {
      name: '/repo/src/engine/cel/conformance.test.ts',
      assertionResults: [
        { ancestorTitles: ['CEL conformance suite'], title: 'basic (43 cases)', status: 'passed' },
        { ancestorTitles: ['CEL conformance suite'], title: 'math_ext/greatest/a (skipped: math extension is not part of the Kubernetes environment)', status: 'skipped' },
        { ancestorTitles: ['CEL conformance suite'], title: 'math_ext/greatest/b (skipped: math extension is not part of the Kubernetes environment)', status: 'skipped' },
        { ancestorTitles: ['CEL conformance suite'], title: 'math_ext/least/c (skipped: math extension is not part of the Kubernetes environment)', status: 'skipped' },
      ],
    },
    {
      name: '/repo/src/hosts/node/reads.kubectl.test.ts',
      assertionResults: [
        // the reason given on the describe block (kubectl missing)
        { ancestorTitles: ['kubectl (reads) (skipped: kubectl 1.33 not found (set KUBECTL))'], title: 'get -w', status: 'skipped' },
        { ancestorTitles: [], title: 'no reason here', status: 'skipped' },
        { ancestorTitles: [], title: 'later', status: 'todo' },
      ],
    },
  ],
};

const playwrightReport = {
  suites: [
    {
      title: 'offline.spec.ts',
      file: 'offline.spec.ts',
      specs: [
        {
          title: 'reload offline',
          file: 'offline.spec.ts',
          tests: [{ status: 'skipped', annotations: [{ type: 'skip', description: 'e2e skipped: no Chromium found' }], results: [{ status: 'skipped' }] }],
        },
        { title: 'passes', file: 'offline.spec.ts', tests: [{ status: 'expected', annotations: [], results: [{ status: 'passed' }] }] },
      ],
      suites: [
        {
          title: 'group',
          file: 'offline.spec.ts',
          specs: [{ title: 'inner', file: 'offline.spec.ts', tests: [{ status: 'skipped', annotations: [], results: [{ status: 'skipped', annotations: [] }] }] }],
        },
      ],
    },
  ],
};

describe('skipped tests in the npm test summary', () => {
  it('takes the reason of a vitest test from its title or its describe block', () => {
    expect(vitestSkipped(vitestReport, '/repo')).toEqual([
      { name: 'src/engine/cel/conformance.test.ts: CEL conformance suite > math_ext/greatest/a', reason: 'math extension is not part of the Kubernetes environment' },
      { name: 'src/engine/cel/conformance.test.ts: CEL conformance suite > math_ext/greatest/b', reason: 'math extension is not part of the Kubernetes environment' },
      { name: 'src/engine/cel/conformance.test.ts: CEL conformance suite > math_ext/least/c', reason: 'math extension is not part of the Kubernetes environment' },
      { name: 'src/hosts/node/reads.kubectl.test.ts: kubectl (reads) > get -w', reason: 'kubectl 1.33 not found (set KUBECTL)' },
      { name: 'src/hosts/node/reads.kubectl.test.ts: no reason here', reason: 'no reason given in the test title' },
      { name: 'src/hosts/node/reads.kubectl.test.ts: later', reason: 'todo' },
    ]);
  });

  it('takes the reason of a Playwright test from its skip annotation', () => {
    expect(playwrightSkipped(playwrightReport)).toEqual([
      { name: 'offline.spec.ts: reload offline', reason: 'e2e skipped: no Chromium found' },
      { name: 'offline.spec.ts: group > inner', reason: 'no reason given to test.skip()' },
    ]);
  });

  it('groups per suite and reason, most frequent first, with a few examples', () => {
    const lines = formatSkipped([
      ['unit and HTTP tests (vitest)', vitestSkipped(vitestReport, '/repo')],
      ['kubectl suite', []],
      ['browser e2e (Playwright)', playwrightSkipped(playwrightReport)],
    ]);
    expect(lines).toEqual([
      'unit and HTTP tests (vitest): 6 skipped',
      '  3 x math extension is not part of the Kubernetes environment',
      '      src/engine/cel/conformance.test.ts: CEL conformance suite > math_ext/greatest/a',
      '      src/engine/cel/conformance.test.ts: CEL conformance suite > math_ext/greatest/b',
      '      ... and 1 more',
      '  1 x kubectl 1.33 not found (set KUBECTL)',
      '      src/hosts/node/reads.kubectl.test.ts: kubectl (reads) > get -w',
      '  1 x no reason given in the test title',
      '      src/hosts/node/reads.kubectl.test.ts: no reason here',
      '  1 x todo',
      '      src/hosts/node/reads.kubectl.test.ts: later',
      'browser e2e (Playwright): 2 skipped',
      '  1 x e2e skipped: no Chromium found',
      '      offline.spec.ts: reload offline',
      '  1 x no reason given to test.skip()',
      '      offline.spec.ts: group > inner',
    ]);
  });
});
