// Real kubectl 1.33 against the Node host: chunked lists (--chunk-size), and `kubectl replace -f` of the
// manifest as first created (a pod naming its service account, a node with resourceVersion "0").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKubectlEnv, type KubectlEnv } from './kubectl.js';
import { kubectlSuite } from './kubectl-suite.js';

const { found, suite } = kubectlSuite();

const podManifest = (name: string, automount: boolean) => [
  'apiVersion: v1',
  'kind: Pod',
  'metadata:',
  `  name: ${name}`,
  'spec:',
  '  serviceAccountName: builder',
  ...(automount ? [] : ['  automountServiceAccountToken: false']),
  '  containers:',
  '  - name: app',
  '    image: nginx:1.27',
  '',
].join('\n');

suite('kubectl (real-world writes)', () => {
  let k: KubectlEnv;
  beforeAll(async () => {
    k = await startKubectlEnv(found.path!);
  });
  afterAll(async () => {
    await k?.close();
  });

  it('get ns --chunk-size=1 lists every namespace', async () => {
    for (const ns of ['chunk-a', 'chunk-b', 'chunk-c']) await k.kubectl(['create', 'namespace', ns]);
    const all = (await k.kubectl(['get', 'ns', '-o', 'name'])).stdout.trim().split('\n');
    expect(all).toEqual(expect.arrayContaining(['namespace/chunk-a', 'namespace/chunk-b', 'namespace/chunk-c', 'namespace/default']));
    const chunked = await k.kubectl(['get', 'ns', '--chunk-size=1', '-o', 'name']);
    expect(chunked.stdout.trim().split('\n')).toEqual(all);
    // the table output pages too (kubectl asks for Tables chunk by chunk)
    const table = await k.kubectl(['get', 'ns', '--chunk-size=1', '--no-headers', '-o', 'custom-columns=NAME:.metadata.name']);
    expect(table.stdout.trim().split('\n')).toEqual(all.map((n) => n.replace('namespace/', '')));
  });

  it('get configmaps -A --chunk-size=2 lists every object of a namespaced kind', async () => {
    for (const ns of ['chunk-a', 'chunk-b']) {
      for (const name of ['one', 'two', 'three']) await k.kubectl(['create', 'configmap', name, '-n', ns, '--from-literal=a=1']);
    }
    const all = (await k.kubectl(['get', 'configmaps', '-A', '--no-headers', '-o', 'custom-columns=NS:.metadata.namespace,NAME:.metadata.name'])).stdout;
    const chunked = (await k.kubectl(['get', 'configmaps', '-A', '--chunk-size=2', '--no-headers', '-o', 'custom-columns=NS:.metadata.namespace,NAME:.metadata.name'])).stdout;
    expect(chunked).toBe(all);
    // (besides the root-CA ConfigMap every namespace holds)
    expect(chunked.trim().split('\n').filter((l) => l.startsWith('chunk-') && !/\skube-root-ca\.crt$/.test(l))).toHaveLength(6);
    const one = (await k.kubectl(['get', 'configmaps', '-n', 'chunk-a', '--chunk-size=1', '-o', 'name'])).stdout;
    expect(one.replace('configmap/kube-root-ca.crt\n', '')).toBe('configmap/one\nconfigmap/three\nconfigmap/two\n');
  });

  it('replace -f right after create -f of a pod naming its service account and mounting no token', async () => {
    await k.kubectl(['create', 'serviceaccount', 'builder']);
    const manifest = podManifest('sa-pod', false);
    expect((await k.kubectl(['create', '-f', '-'], { input: manifest })).stdout).toBe('pod/sa-pod created\n');
    const replaced = await k.kubectl(['replace', '-f', '-'], { input: manifest });
    expect(replaced.stdout).toBe('pod/sa-pod replaced\n');
    const pod = JSON.parse((await k.kubectl(['get', 'pod', 'sa-pod', '-o', 'json'])).stdout);
    expect(pod.spec.priority).toBe(0);
    expect(pod.spec.tolerations.map((t: { key: string }) => t.key)).toEqual(['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']);
  });

  it('replace -f of a pod whose token was mounted on create fails as on a real server', async () => {
    const manifest = podManifest('token-pod', true);
    await k.kubectl(['create', '-f', '-'], { input: manifest });
    const pod = JSON.parse((await k.kubectl(['get', 'pod', 'token-pod', '-o', 'json'])).stdout);
    expect(pod.spec.volumes[0].name).toMatch(/^kube-api-access-[a-z0-9]{5}$/);
    const replaced = await k.kubectl(['replace', '-f', '-'], { input: manifest, allowFail: true });
    expect(replaced.code).not.toBe(0);
    expect(replaced.stderr).toContain('The Pod "token-pod" is invalid: spec: Forbidden: pod updates may not change fields other than');
  });

  it('replace of a node with resourceVersion "0" is an unconditional update', async () => {
    await k.kubectl(['create', '-f', '-'], { input: 'apiVersion: v1\nkind: Node\nmetadata:\n  name: rv0-node\n' });
    const node = JSON.parse((await k.kubectl(['get', 'node', 'rv0-node', '-o', 'json'])).stdout);
    expect(node.spec.taints).toEqual([{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]);
    const replaced = await k.kubectl(['replace', '-f', '-'], {
      input: 'apiVersion: v1\nkind: Node\nmetadata:\n  name: rv0-node\n  resourceVersion: "0"\n  labels:\n    zone: a\n',
    });
    expect(replaced.stdout).toBe('node/rv0-node replaced\n');
    const after = JSON.parse((await k.kubectl(['get', 'node', 'rv0-node', '-o', 'json'])).stdout);
    expect(after.metadata.labels).toEqual({ zone: 'a' });
  });

  it('replace of a CRD succeeds: kubectl sends the current resourceVersion when the manifest has none', async () => {
    const crd = [
      'apiVersion: apiextensions.k8s.io/v1',
      'kind: CustomResourceDefinition',
      'metadata:',
      '  name: gadgets.rw.example.com',
      'spec:',
      '  group: rw.example.com',
      '  scope: Namespaced',
      '  names: {plural: gadgets, singular: gadget, kind: Gadget, listKind: GadgetList}',
      '  versions:',
      '  - name: v1',
      '    served: true',
      '    storage: true',
      '    schema: {openAPIV3Schema: {type: object}}',
      '',
    ].join('\n');
    await k.kubectl(['create', '-f', '-'], { input: crd });
    expect((await k.kubectl(['replace', '-f', '-'], { input: crd })).stdout).toBe('customresourcedefinition.apiextensions.k8s.io/gadgets.rw.example.com replaced\n');
    // with an explicit resourceVersion "0" the update is unconditional, which a CRD's strategy refuses
    const zero = await k.kubectl(['replace', '-f', '-'], { input: crd.replace('  name: gadgets.rw.example.com\n', '  name: gadgets.rw.example.com\n  resourceVersion: "0"\n'), allowFail: true });
    expect(zero.code).not.toBe(0);
    expect(zero.stderr).toContain('metadata.resourceVersion: Invalid value: 0x0: must be specified for an update');
  });
});
