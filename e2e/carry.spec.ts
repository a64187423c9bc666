// Scenarios and clusters you can carry (issue 16, items 2-4), in Chromium through the real service worker:
// a link carries the acting user and restores it in a fresh browser context; hostile links are refused or
// stay harmless; a link too long for chat apps is offered as a file that the Clusters menu opens; renaming
// a cluster keeps its objects, settings and acting user, and every write the old name accepted meanwhile;
// a cluster exported to a file and imported as another has the same objects, history and settings, and a
// bad file changes nothing; after one visit the panels never opened before load with the network off, and
// a panel whose code cannot be fetched shows its own error with a way to load it again while the rest
// keeps working.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { shellFetch, skipWithoutBrowser } from './helpers';

skipWithoutBrowser();

async function open(page: Page, path: string, mode = 'service worker') {
  await page.goto(path);
  await expect(page.getByTestId('engine-mode')).toContainText(mode, { timeout: 30_000 });
  await expect(page.locator('[data-testid="monaco"][data-ready="true"]')).toBeVisible({ timeout: 30_000 });
}

async function post(page: Page, path: string, body: unknown) {
  const r = await shellFetch(page, path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  expect(r.status, r.text).toBe(201);
}

async function actAs(page: Page, name: string, groups: string) {
  await page.getByRole('button', { name: 'Switch user' }).click();
  const form = page.getByRole('dialog', { name: 'Switch the acting user' });
  await form.getByLabel('a user').check();
  await form.getByLabel('User name').fill(name);
  await form.getByLabel('Groups').fill(groups);
  await form.getByRole('button', { name: 'Act as this user' }).click();
  await expect(page.getByTestId('acting-user')).toHaveText(name);
}

const unique = (p: string) => `${p}-${Date.now().toString(36)}`;
const TEXT = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: carried\n  namespace: team\n';

test('a link carries the acting user: opened in a fresh context, confirmed, the same objects, text, CEL and user', async ({ page, browser }, info) => {
  test.setTimeout(150_000);
  await open(page, `/?cluster=${unique('usr')}`);
  await post(page, '/api/v1/namespaces', { metadata: { name: 'team' } });
  await post(page, '/api/v1/namespaces/team/configmaps', { metadata: { name: 'cfg' }, data: { k: 'v' } });
  await page.evaluate((t) => window.playground.editor.setText(t), TEXT);
  await page.getByRole('tab', { name: 'CEL' }).click();
  await page.getByLabel('Expression', { exact: true }).fill('self.n + 1');
  await page.getByTestId('cel-variables').fill('self:\n  n: 41\n');
  await actAs(page, 'jane', 'team-a, team-b');
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(page.getByTestId('share-status')).toContainText(/Share link (copied|is in the address bar)/, { timeout: 30_000 });
  const link = page.url();

  const other = await browser.newContext();
  const b = await other.newPage();
  await b.goto(link);
  const dialog = b.getByTestId('confirm-dialog');
  await expect(dialog).toBeVisible({ timeout: 30_000 });
  await expect(dialog).toContainText('Acting user: jane (groups team-a, team-b), impersonated in that cluster.');
  await expect(dialog).toContainText('2 cluster objects to create: Namespace team, ConfigMap team/cfg.');
  await b.screenshot({ path: info.outputPath('link-user-confirm.png') });
  await dialog.getByRole('button', { name: 'Open' }).click();
  await b.waitForURL(/cluster=shared-[0-9a-f]{8}/);
  await expect(b).not.toHaveURL(/#scenario/, { timeout: 30_000 });
  // the server sees the link's user (a SelfSubjectReview as the impersonated user)
  await expect(b.getByTestId('acting-user')).toHaveText('jane', { timeout: 30_000 });
  await expect(b.getByTestId('acting-groups')).toContainText('team-a, team-b');
  expect((await shellFetch(b, '/api/v1/namespaces/team/configmaps/cfg')).body).toMatchObject({ data: { k: 'v' } });
  expect(await b.evaluate(() => window.playground.editor.getText())).toBe(TEXT);
  await b.getByRole('tab', { name: 'CEL' }).click();
  await expect(b.getByLabel('Expression', { exact: true })).toHaveValue('self.n + 1');
  // kept for the cluster: a reload acts as jane again
  await b.reload();
  await expect(b.getByTestId('acting-user')).toHaveText('jane', { timeout: 30_000 });
  await other.close();
});

test('a text-only link shows what it loads, asks, and opens in a cluster of its own', async ({ page }) => {
  test.setTimeout(90_000);
  await open(page, `/?cluster=${unique('txt')}`);
  const fragment = await page.evaluate(async () => {
    const b64 = btoa('kind: FromOldLink\n').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    return `#yaml/${b64}`;
  });
  await page.evaluate((f) => (location.hash = f), fragment);
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog).toContainText(/A new cluster, shared-[0-9a-f]{8}/);
  await expect(dialog).toContainText("The editor's text (1 line) and settings.");
  await dialog.getByRole('button', { name: 'Open' }).click();
  await expect(page.getByTestId('cluster-name')).toHaveText(/^shared-[0-9a-f]{8}$/, { timeout: 30_000 });
  await expect.poll(() => page.evaluate(() => window.playground.editor.getText())).toBe('kind: FromOldLink\n');
});

test('hostile links: too long is refused unread; alias-bombed YAML and nesting open harmlessly or are refused', async ({ page }) => {
  test.setTimeout(120_000);
  await open(page, `/?cluster=${unique('hostile')}`);
  // huge: over the decoding budget (1,000,000 characters), refused before any decoding
  await page.evaluate(() => (location.hash = `#scenario/${'A'.repeat(1_000_001)}`));
  await expect(page.getByRole('alert').filter({ hasText: 'shared link' })).toHaveText('The shared link could not be opened: the link is too long (1000001 characters; at most 1000000).');
  // alias bomb in the editor text and the CEL variables: the link opens, the tab stays responsive
  const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]', ...Array.from({ length: 9 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10).fill(`*${String.fromCharCode(97 + i)}`).join(',')}]`)].join('\n') + '\n';
  const hash = await page.evaluate(async (text) => {
    const json = JSON.stringify({ t: text, c: { e: 'size(self.j)', v: `self:\n  ${text.replace(/\n(?=.)/g, '\n  ')}` } });
    const packed = new Uint8Array(await new Response(new Blob([new TextEncoder().encode(json) as BlobPart]).stream().pipeThrough(new CompressionStream('deflate-raw'))).arrayBuffer());
    let bin = '';
    for (const x of packed) bin += String.fromCharCode(x);
    return '#scenario/' + btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }, bomb);
  await page.evaluate((h) => (location.hash = h), hash);
  const dialog = page.getByTestId('confirm-dialog');
  await dialog.getByRole('button', { name: 'Open' }).click();
  await expect(page.getByTestId('cluster-name')).toHaveText(/^shared-[0-9a-f]{8}$/, { timeout: 30_000 });
  await expect.poll(() => page.evaluate(() => window.playground.editor.getText()), { timeout: 30_000 }).toBe(bomb);
  await page.getByRole('tab', { name: 'CEL' }).click();
  await expect(page.getByTestId('cel-evaluator')).toContainText('variables: the YAML expands to more than 200000 values (aliases used over and over)', { timeout: 30_000 });
  // still responsive: a request answers and the page evaluates at once
  const t0 = Date.now();
  expect((await shellFetch(page, '/api/v1/namespaces/default')).status).toBe(200);
  expect(Date.now() - t0).toBeLessThan(5_000);
  // deeply nested JSON in the link is refused with the reason
  const deep = await page.evaluate(async () => {
    let v = '1';
    for (let i = 0; i < 200; i++) v = `[${v}]`;
    const json = `{"t":"","o":[{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"d"},"data":${v}}]}`;
    const packed = new Uint8Array(await new Response(new Blob([new TextEncoder().encode(json) as BlobPart]).stream().pipeThrough(new CompressionStream('deflate-raw'))).arrayBuffer());
    let bin = '';
    for (const x of packed) bin += String.fromCharCode(x);
    return '#scenario/' + btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  });
  await page.evaluate((h) => (location.hash = h), deep);
  await expect(page.getByRole('alert').filter({ hasText: 'shared link' })).toHaveText('The shared link could not be opened: the scenario in the link is nested deeper than 64 levels.');
});

test('a link too long for chat apps says so and offers a file, which Clusters > Import opens', async ({ page }) => {
  test.setTimeout(120_000);
  await open(page, `/?cluster=${unique('long')}`);
  // text that does not compress much
  const noise = await page.evaluate(() => Array.from({ length: 120 }, (_, i) => `k${i}: "${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}"`).join('\n') + '\n');
  await page.evaluate((t) => window.playground.editor.setText(t), noise);
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(page.getByTestId('share-status')).toContainText(/The link is \d+ characters, too long for many chat apps \(more than 2000\): download it as a file instead/, { timeout: 30_000 });
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download link as a file' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('kube-playground-scenario.link.txt');
  const path = await file.path();
  expect(readFileSync(path, 'utf8')).toMatch(/#scenario\/[A-Za-z0-9_-]+\n$/);

  // the recipient opens it from a fresh page
  await page.evaluate(() => window.playground.editor.setText(''));
  await open(page, `/?cluster=${unique('recv')}`);
  await page.getByRole('button', { name: 'Clusters' }).click();
  await page.getByLabel('Import cluster (or a scenario link file)').setInputFiles(path);
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog).toContainText("The editor's text (120 lines) and settings.", { timeout: 30_000 });
  await dialog.getByRole('button', { name: 'Open' }).click();
  await page.waitForURL(/cluster=shared-[0-9a-f]{8}/);
  await expect(page.getByTestId('cluster-name')).toHaveText(/^shared-[0-9a-f]{8}$/, { timeout: 30_000 });
  await expect.poll(() => page.evaluate(() => window.playground.editor.getText()).catch(() => undefined), { timeout: 30_000 }).toBe(noise);
});

test('rename a cluster: its objects, settings and acting user go with it; the old name is free', async ({ page }, info) => {
  test.setTimeout(120_000);
  const from = unique('ren');
  const to = `${from}-new`;
  await open(page, `/?cluster=${from}`);
  await post(page, '/api/v1/namespaces', { metadata: { name: 'kept' } });
  await post(page, '/api/v1/namespaces/kept/configmaps', { metadata: { name: 'cfg' }, data: { a: '1' } });
  const put = await shellFetch(page, '/x-playground/settings', { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ featureGates: 'MutatingAdmissionPolicy=true', runtimeConfig: '' }) });
  expect(put.status, put.text).toBe(200);
  await page.getByTestId('simulation-switch').check();
  await actAs(page, 'ann', 'ops');
  const rv = ((await shellFetch(page, '/api/v1/namespaces/kept/configmaps/cfg')).body as { metadata: { resourceVersion: string } }).metadata.resourceVersion;

  await page.getByRole('button', { name: 'Clusters' }).click();
  const menu = page.getByRole('dialog', { name: 'Clusters' });
  await menu.getByRole('button', { name: 'Rename…' }).click();
  await menu.getByLabel(`New name for ${from}`).fill('Bad Name');
  await menu.getByRole('button', { name: 'Rename', exact: true }).click();
  await expect(page.getByTestId('cluster-status')).toHaveText('Rename refused: "Bad Name" is not a valid cluster name (a lowercase DNS label: a-z, 0-9 and "-").');
  // Writes keep coming while the cluster is renamed (besides the simulated cluster's controllers): every one
  // the old name accepted is noted (localStorage outlives the page's move to the new name).
  await page.evaluate(() => {
    localStorage.removeItem('e2e-rename-writes');
    localStorage.removeItem('e2e-rename-refused');
    localStorage.removeItem('e2e-rename-started');
    void (async () => {
      for (let i = 0; i < 3000 && location.search.includes('ren-'); i++) {
        localStorage.setItem('e2e-rename-started', String(i + 1));
        const r = await window.playground
          .apiFetch('/api/v1/namespaces/kept/configmaps', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ metadata: { name: `w-${i}` } }) })
          .catch(() => undefined);
        if (r?.status !== 201) {
          // the old name is held, then gone: the first refusal ends the writes (a write after the deletion
          // would start a fresh cluster of the old name)
          localStorage.setItem('e2e-rename-refused', `${r?.status} ${await r?.text()}`);
          break;
        }
        localStorage.setItem('e2e-rename-writes', JSON.stringify([...(JSON.parse(localStorage.getItem('e2e-rename-writes') ?? '[]') as string[]), `w-${i}`]));
        await new Promise((res) => setTimeout(res, 5));
      }
    })();
  });
  await expect.poll(() => page.evaluate(() => (JSON.parse(localStorage.getItem('e2e-rename-writes') ?? '[]') as string[]).length)).toBeGreaterThan(2);
  await menu.getByLabel(`New name for ${from}`).fill(to);
  await menu.getByRole('button', { name: 'Rename', exact: true }).click();
  await page.waitForURL(`**/?cluster=${to}`);
  // nothing the old name accepted is lost: the renamed cluster holds every write that was answered 201
  const accepted = await page.evaluate(() => JSON.parse(localStorage.getItem('e2e-rename-writes') ?? '[]') as string[]);
  const held = ((await shellFetch(page, '/api/v1/namespaces/kept/configmaps')).body as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name);
  expect(held.filter((n) => n.startsWith('w-')).sort()).toEqual([...accepted].sort());
  // and the writes did run into the rename: the first write after the hold began was refused, not lost, or
  // it was still held when the page moved to the new name (started, neither accepted nor refused)
  const refused = await page.evaluate(() => localStorage.getItem('e2e-rename-refused'));
  const started = Number(await page.evaluate(() => localStorage.getItem('e2e-rename-started')));
  if (refused === null) expect(started).toBe(accepted.length + 1);
  else expect(refused).toMatch(/^500 [^]*(another connection is upgrading or deleting it|or the cluster was just renamed)/);
  await expect(page.getByTestId('cluster-name')).toHaveText(to, { timeout: 30_000 });
  await expect(page.getByTestId('acting-user')).toHaveText('ann', { timeout: 30_000 });
  await expect(page.getByTestId('simulation-switch')).toBeChecked();
  const cm = await shellFetch(page, '/api/v1/namespaces/kept/configmaps/cfg');
  expect(cm.body).toMatchObject({ data: { a: '1' }, metadata: { resourceVersion: rv } });
  expect((await shellFetch(page, '/x-playground/settings')).body).toMatchObject({ featureGates: 'MutatingAdmissionPolicy=true' });
  await page.screenshot({ path: info.outputPath('renamed.png') });
  // the old database is gone, the menu lists the new name only
  expect(await page.evaluate(async (n) => (await indexedDB.databases()).some((d) => d.name === `kube-cluster-${n}`), from)).toBe(false);
  await page.getByRole('button', { name: 'Clusters' }).click();
  await expect(page.getByRole('dialog', { name: 'Clusters' })).toContainText(`${to} (this one)`);
  await expect(page.getByRole('dialog', { name: 'Clusters' }).getByRole('link', { name: from, exact: true })).toHaveCount(0);
});

test('export a cluster to a file and import it as another: same objects, history and settings; a bad file changes nothing', async ({ page }, info) => {
  test.setTimeout(150_000);
  const source = unique('exp');
  const target = `${source}-imp`;
  await open(page, `/?cluster=${source}`);
  await post(page, '/api/v1/namespaces', { metadata: { name: 'team' } });
  await post(page, '/api/v1/namespaces/team/configmaps', { metadata: { name: 'cfg' }, data: { a: '1' } });
  const first = ((await shellFetch(page, '/api/v1/namespaces/team/configmaps/cfg')).body as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
  const patched = await shellFetch(page, '/api/v1/namespaces/team/configmaps/cfg', { method: 'PATCH', headers: { 'Content-Type': 'application/merge-patch+json' }, body: '{"data":{"a":"2"}}' });
  expect(patched.status).toBe(200);
  expect((await shellFetch(page, '/x-playground/settings', { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ featureGates: '', runtimeConfig: 'batch/v1=false' }) })).status).toBe(200);
  await actAs(page, 'sam', 'dev');

  await page.getByRole('button', { name: 'Clusters' }).click();
  const menu = page.getByRole('dialog', { name: 'Clusters' });
  const download = page.waitForEvent('download');
  await menu.getByRole('button', { name: 'Export cluster', exact: true }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`cluster-${source}.kube-cluster.json`);
  const path = await file.path();
  await expect(page.getByTestId('cluster-status')).toContainText(`Exported cluster ${source} to cluster-${source}.kube-cluster.json`);

  // a bad file: refused with the reason, no cluster made
  const bad = info.outputPath('bad.kube-cluster.json');
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as { history: unknown[] };
  parsed.history.pop();
  const { writeFileSync } = await import('node:fs');
  writeFileSync(bad, JSON.stringify(parsed));
  await menu.getByLabel('Import as').fill(target);
  await menu.getByLabel('Import cluster (or a scenario link file)').setInputFiles(bad);
  await expect(page.getByTestId('cluster-status')).toContainText(/^Import failed, nothing was changed: the file's history has \d+ records; revisions \d+ to \d+ need \d+\.$/);
  expect(await page.evaluate(async (n) => (await indexedDB.databases()).some((d) => d.name === `kube-cluster-${n}`), target)).toBe(false);

  await menu.getByLabel('Import cluster (or a scenario link file)').setInputFiles(path);
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog).toContainText(`A new cluster, ${target}, from "${source}"`);
  await expect(dialog).toContainText('Runtime config: batch/v1=false.');
  await expect(dialog).toContainText('Acting user: sam.');
  await dialog.getByRole('button', { name: 'Import' }).click();
  await page.waitForURL(`**/?cluster=${target}`);
  await expect(page.getByTestId('cluster-name')).toHaveText(target, { timeout: 30_000 });
  await expect(page.getByTestId('acting-user')).toHaveText('sam', { timeout: 30_000 });
  expect((await shellFetch(page, '/api/v1/namespaces/team/configmaps/cfg')).body).toMatchObject({ data: { a: '2' } });
  expect((await shellFetch(page, '/x-playground/settings')).body).toMatchObject({ runtimeConfig: 'batch/v1=false' });
  expect((await shellFetch(page, '/apis/batch/v1')).status).toBe(404);
  // history came along: a watch from the first revision replays the change
  const events = await page.evaluate(async (rv) => {
    const res = await window.playground.apiFetch(`/api/v1/namespaces/team/configmaps?watch=1&resourceVersion=${rv}&timeoutSeconds=1`);
    return (await res.text()).trim().split('\n').map((l) => (JSON.parse(l) as { type: string }).type);
  }, first);
  expect(events[0]).toBe('MODIFIED');
  // the source is untouched
  await open(page, `/?cluster=${source}`);
  expect((await shellFetch(page, '/api/v1/namespaces/team/configmaps/cfg')).status).toBe(200);
});

test('offline after one visit: panels never opened before load, and a panel whose code cannot be fetched shows its own error', async ({ page, context, baseURL, browser }, info) => {
  test.setTimeout(180_000);
  await open(page, '/');
  const manifest = (await (await page.request.get('/build-manifest.json')).json()) as Record<string, { file: string; assets?: string[] }>;
  const files = Object.values(manifest).flatMap((c) => [c.file, ...(c.assets ?? [])]).map((f) => `${baseURL}/${f}`);
  expect(files.some((f) => /worker/.test(f))).toBe(true); // the editor's workers are named too
  await expect.poll(async () => {
    const cached = new Set(await page.evaluate(async () => (await (await caches.open('kube-playground-app-v1')).keys()).map((r) => r.url)));
    return files.filter((f) => !cached.has(f));
  }, { timeout: 60_000 }).toEqual([]);

  await context.setOffline(true);
  const workers: string[] = [];
  page.on('worker', (w) => workers.push(w.url()));
  await page.reload();
  await expect(page.getByTestId('engine-mode')).toHaveText('service worker', { timeout: 30_000 });
  await expect(page.locator('[data-testid="monaco"][data-ready="true"]')).toBeVisible({ timeout: 30_000 });
  // CEL, terminal and lessons: their code was never loaded by a page, only kept by the worker
  await page.getByRole('tab', { name: 'CEL' }).click();
  await page.getByLabel('Expression', { exact: true }).fill('20 + 22');
  await expect(page.getByTestId('cel-result')).toContainText('42', { timeout: 30_000 });
  await page.getByRole('tab', { name: 'Terminal' }).click();
  const input = page.getByLabel('kubectl command');
  await input.fill('get ns kube-system');
  await input.press('Enter');
  await expect(page.locator('.terminal-entry').last().locator('.terminal-stdout')).toContainText('kube-system', { timeout: 30_000 });
  await page.getByRole('tab', { name: 'Lessons' }).click();
  await expect(page.getByRole('button', { name: /^Start lesson: / }).first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('panel-error')).toHaveCount(0);
  await expect.poll(() => workers.some((w) => /yaml-worker/.test(w)), { timeout: 30_000 }).toBe(true);
  await page.screenshot({ path: info.outputPath('offline-panels.png') });
  await context.setOffline(false);

  // a chunk that cannot be fetched (no worker here, and the terminal panel's code refused): that panel's error
  const bare = await browser.newContext({ serviceWorkers: 'block' });
  const p = await bare.newPage();
  const chunk = manifest['src/ui/panels/terminal/index.tsx'].file;
  let refuse = true;
  await p.route(`**/${chunk}`, (route) => (refuse ? route.abort() : route.continue()));
  await open(p, '/', 'in-page engine');
  await p.getByRole('tab', { name: 'Terminal' }).click();
  const failed = p.getByTestId('panel-error');
  await expect(failed).toContainText('The Terminal panel could not be shown', { timeout: 30_000 });
  await expect(failed.getByRole('button', { name: 'Reload this panel' })).toBeVisible();
  await p.screenshot({ path: info.outputPath('panel-error.png') });
  // the rest keeps working
  await p.getByRole('tab', { name: 'Requests' }).click();
  expect((await shellFetch(p, '/api/v1/namespaces/default')).status).toBe(200);
  await expect(p.locator('[data-testid="monaco"][data-ready="true"]')).toBeVisible();
  // once the code can be fetched, the panel loads again without reloading the page
  refuse = false;
  await p.getByRole('tab', { name: 'Terminal' }).click();
  await failed.getByRole('button', { name: 'Reload this panel' }).click();
  await expect(p.getByLabel('kubectl command')).toBeVisible({ timeout: 30_000 });
  await bare.close();
});
