// What `npm test` (scripts/test-all.mjs) reports about skipped tests: from the JSON reports of vitest and
// Playwright, every skipped test with its reason, grouped per suite and reason.
// A skipped vitest test gives its reason in its title, or in the title of its describe block, as
// `(skipped: <reason>)`; a Playwright test gives it to test.skip(condition, reason).

const SKIP_NOTE = /\s*\(skipped: (.+)\)\s*$/;

/** @typedef {{ name: string, reason: string }} Skipped */

/** Skipped tests of a vitest JSON report (`--reporter=json`); names are relative to `cwd`. */
export function vitestSkipped(report, cwd = '') {
  /** @type {Skipped[]} */
  const out = [];
  for (const file of report.testResults ?? []) {
    const fileName = cwd && file.name.startsWith(`${cwd}/`) ? file.name.slice(cwd.length + 1) : file.name;
    for (const t of file.assertionResults ?? []) {
      if (t.status !== 'skipped' && t.status !== 'pending' && t.status !== 'todo') continue;
      const titles = [...(t.ancestorTitles ?? []), t.title ?? ''];
      const notes = titles.map((x) => SKIP_NOTE.exec(x)?.[1]).filter(Boolean);
      const reason = t.status === 'todo' ? 'todo' : (notes.at(-1) ?? 'no reason given in the test title');
      out.push({ name: `${fileName}: ${titles.map((x) => x.replace(SKIP_NOTE, '')).join(' > ')}`, reason });
    }
  }
  return out;
}

/** Skipped tests of a Playwright JSON report, with the reason given to test.skip(). */
export function playwrightSkipped(report) {
  /** @type {Skipped[]} */
  const out = [];
  const walk = (suite, path) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        const results = t.results ?? [];
        if (t.status !== 'skipped' && !results.some((r) => r.status === 'skipped')) continue;
        const notes = [...(t.annotations ?? []), ...results.flatMap((r) => r.annotations ?? [])];
        const note = notes.find((a) => (a.type === 'skip' || a.type === 'fixme') && a.description);
        out.push({ name: `${spec.file ?? suite.file}: ${[...path, spec.title].join(' > ')}`, reason: note?.description ?? 'no reason given to test.skip()' });
      }
    }
    for (const s of suite.suites ?? []) walk(s, [...path, s.title]);
  };
  // the top-level suites are the spec files
  for (const s of report.suites ?? []) walk(s, []);
  return out;
}

/** Lines listing each suite's skipped tests: per reason its count and up to `examples` names. */
export function formatSkipped(bySuite, examples = 2) {
  const lines = [];
  for (const [suite, list] of bySuite) {
    if (list.length === 0) continue;
    lines.push(`${suite}: ${list.length} skipped`);
    const byReason = new Map();
    for (const s of list) byReason.set(s.reason, [...(byReason.get(s.reason) ?? []), s.name]);
    for (const [reason, names] of [...byReason].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1))) {
      lines.push(`  ${names.length} x ${reason}`);
      for (const n of names.slice(0, examples)) lines.push(`      ${n}`);
      if (names.length > examples) lines.push(`      ... and ${names.length - examples} more`);
    }
  }
  return lines;
}
