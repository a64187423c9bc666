// The terminal's commands against real kubectl 1.33: both run the same command line against the same Node
// host, and stdout, stderr and the exit code must match. Commands that change objects run on twin objects
// (`kube-side-*` for kubectl, `term-side-*` for the terminal) so each side changes its own; reads run on shared
// objects. AGE cells are the only thing normalized (the two sides read a second apart at most).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKubectlEnv, type KubectlEnv } from '../../hosts/node/kubectl.js';
import { runKubectl } from './kubectl.js';
import { ResourceCatalog } from './resources.js';
import { kubectlSuite } from '../../hosts/node/kubectl-suite.js';

const { found, suite } = kubectlSuite();

const KUBE = 'kube-side-';
const TERM = 'term-side-';

function cm(name: string, labels: Record<string, string>, data: Record<string, string>): string {
  return [
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata:',
    `  name: ${name}`,
    '  labels:',
    ...Object.entries(labels).map(([k, v]) => `    ${k}: "${v}"`),
    'data:',
    ...Object.entries(data).map(([k, v]) => `  ${k}: "${v}"`),
  ].join('\n');
}

function deployment(name: string, replicas: number): string {
  return [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    `  name: ${name}`,
    'spec:',
    `  replicas: ${replicas}`,
    '  selector:',
    '    matchLabels:',
    `      app: ${name}`,
    '  template:',
    '    metadata:',
    '      labels:',
    `        app: ${name}`,
    '    spec:',
    '      containers:',
    '      - name: web',
    '        image: nginx:1.27',
  ].join('\n');
}

/**
 * AGE-like cells ("3s", "2m", "5m3s") to one token; also uids and resourceVersions, which differ between twin
 * objects (and only there: shared objects have one of each).
 */
const normalize = (s: string) =>
  s
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uid>')
    .replace(/\b(?:\d+[dhms]){1,4}\b/g, '<age>')
    .replace(/("?resourceVersion"?: )"\d+"/g, '$1"<rv>"')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/g, '<time>');

suite('terminal commands against real kubectl', () => {
  let k: KubectlEnv;
  let catalog: ResourceCatalog | undefined;
  let editor = '';
  const terminal = async (line: string) => {
    const r = await runKubectl(line, {
      fetch: (path, init) => fetch(k.host.url + path, init),
      namespace: 'default',
      editorText: () => editor,
      catalog,
    });
    catalog = r.catalog;
    return r;
  };
  const real = async (line: string, input?: string) => {
    const words = line.split(' ').filter(Boolean);
    const r = await k.kubectl(words, { allowFail: true, input: input ?? '' });
    return { stdout: r.stdout, stderr: r.stderr, code: r.code };
  };
  /** The same command on both sides; `{p}` becomes each side's prefix; the editor holds `manifest({p})`. */
  const same = async (template: string, manifest?: (p: string) => string) => {
    const kubeLine = template.replaceAll('{p}', KUBE);
    const termLine = template.replaceAll('{p}', TERM);
    const want = await real(kubeLine, manifest?.(KUBE));
    editor = manifest?.(TERM) ?? '';
    const got = await terminal(termLine);
    // a command on twin objects names kubectl's twin in kubectl's output; reads of shared objects stay as they are
    // (the kubectl binary here is named kubectl.1.33, and the server names a manager after the binary)
    const side = (s: string) => normalize(template.includes('{p}') || manifest ? s.replaceAll(KUBE, TERM) : s).replaceAll('manager: kubectl.1.33', 'manager: kubectl');
    expect({ stdout: normalize(got.stdout), stderr: normalize(got.stderr), code: got.code }, template).toEqual({ stdout: side(want.stdout), stderr: side(want.stderr), code: want.code });
    return got;
  };

  beforeAll(async () => {
    k = await startKubectlEnv(found.path!);
    const docs = [cm('a', { app: 'web' }, { k: 'a' }), cm('b', { app: 'db' }, { k: 'b' }), deployment('web', 2)];
    for (const p of [KUBE, TERM]) docs.push(cm(`${p}x`, { app: 'x' }, { k: 'x' }), cm(`${p}y`, { app: 'y' }, { k: 'y' }), deployment(`${p}d`, 1));
    await k.kubectl(['create', '-f', '-'], { input: docs.join('\n---\n') + '\n' });
    await k.kubectl(['create', 'namespace', 'other']);
  });
  afterAll(async () => {
    await k?.close();
  });

  it('get: tables, wide, labels, selectors, names, several types, all namespaces, errors', async () => {
    for (const line of [
      'get configmaps',
      'get cm -o wide',
      'get cm --show-labels',
      'get cm -l app=web',
      'get cm a',
      'get cm a b',
      'get cm/a deploy/web',
      'get cm,deploy',
      'get deploy -o wide',
      'get cm nope',
      'get widgets',
      'get cm -n other',
      'get nodes',
      'get ns',
      'get deploy -o name',
      'get cm -l app=none',
      'get cm --field-selector metadata.name=b',
      'get cm -A -l app=web',
      'get clusterroles -l kubernetes.io/bootstrapping=none',
    ]) {
      await same(line);
    }
  });

  it('get -o yaml and -o json print what kubectl prints (managed fields hidden, lists as List)', async () => {
    for (const line of ['get cm a -o yaml', 'get cm a -o json', 'get cm -l app=web -o yaml', 'get deploy web -o yaml']) await same(line);
  });

  it('label, annotate, scale, delete', async () => {
    await same('label cm {p}x tier=front');
    await same('label cm {p}x tier=back');
    await same('label cm {p}x tier=back --overwrite');
    await same('label cm {p}x tier-');
    await same('annotate cm {p}x note=hello');
    await same('scale deploy {p}d --replicas=3');
    await same('scale cm {p}x --replicas=3');
    await same('delete cm {p}y');
    await same('delete cm {p}y');
    await same('get cm {p}x -o yaml');
    // the same managers as kubectl's own commands (kubectl-label, kubectl-annotate, kubectl-scale)
    await same('get cm {p}x -o yaml --show-managed-fields');
    await same('get deploy {p}d -o yaml --show-managed-fields');
  });

  it('apply (client-side then server-side) and create -f', async () => {
    const m1 = (p: string) => cm(`${p}applied`, { app: 'ap' }, { one: '1' });
    const m2 = (p: string) => cm(`${p}applied`, { app: 'ap' }, { one: '1', two: '2' });
    await same('apply -f -', m1);
    await same('apply -f -', m1);
    await same('apply -f -', m2);
    await same('get cm {p}applied -o yaml');
    await same('apply --server-side -f -', (p) => cm(`${p}ssa`, { app: 'ssa' }, { k: 'v' }));
    await same('create -f -', (p) => cm(`${p}created`, { app: 'c' }, { k: 'v' }));
    await same('create -f -', (p) => cm(`${p}created`, { app: 'c' }, { k: 'v' }));
    await same('create namespace {p}ns');
  });

  it('auth can-i and whoami, also as another user', async () => {
    for (const line of ['auth can-i create pods', 'auth can-i list secrets -n kube-system', 'auth whoami', 'auth can-i get pods --as jane', 'auth can-i get pods --as jane --as-group devs', 'auth whoami --as jane --as-group devs', 'get pods --as jane']) {
      await same(line);
    }
  });
});
