// Real kubectl 1.33 against the Node host: the foundation's commands.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKubectlEnv, type KubectlEnv } from './kubectl.js';
import { kubectlSuite } from './kubectl-suite.js';

const { found, suite } = kubectlSuite();

suite('kubectl (foundation)', () => {
  let k: KubectlEnv;
  beforeAll(async () => {
    k = await startKubectlEnv(found.path!);
  });
  afterAll(async () => {
    await k?.close();
  });

  it('api-versions lists the served groups', async () => {
    const { stdout } = await k.kubectl(['api-versions']);
    const lines = stdout.trim().split('\n');
    for (const gv of ['v1', 'apps/v1', 'batch/v1', 'autoscaling/v2', 'policy/v1', 'networking.k8s.io/v1', 'discovery.k8s.io/v1', 'events.k8s.io/v1', 'coordination.k8s.io/v1', 'rbac.authorization.k8s.io/v1', 'apiextensions.k8s.io/v1', 'admissionregistration.k8s.io/v1', 'storage.k8s.io/v1', 'scheduling.k8s.io/v1']) {
      expect(lines).toContain(gv);
    }
  });

  it('api-resources shows names, short names, groups, scope and kinds', async () => {
    const { stdout } = await k.kubectl(['api-resources']);
    expect(stdout).toMatch(/^NAME\s+SHORTNAMES\s+APIVERSION\s+NAMESPACED\s+KIND/);
    expect(stdout).toMatch(/\ndeployments\s+deploy\s+apps\/v1\s+true\s+Deployment\n/);
    expect(stdout).toMatch(/\nnamespaces\s+ns\s+v1\s+false\s+Namespace\n/);
    expect(stdout).toMatch(/\ncustomresourcedefinitions\s+crd,crds\s+apiextensions\.k8s\.io\/v1\s+false\s+CustomResourceDefinition\n/);
  });

  it('get namespaces shows the four initial namespaces', async () => {
    const { stdout } = await k.kubectl(['get', 'namespaces', '-o', 'name']);
    expect(stdout.trim().split('\n')).toEqual(['namespace/default', 'namespace/kube-node-lease', 'namespace/kube-public', 'namespace/kube-system']);
  });

  it('create -f with several YAML documents, then get as table, yaml, json and -A', async () => {
    const manifest = [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: settings',
      'data:',
      '  mode: fast',
      '---',
      'apiVersion: v1',
      'kind: Namespace',
      'metadata:',
      '  name: team-a',
      '---',
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: other',
      '  namespace: team-a',
      'data:',
      '  x: "1"',
      '',
    ].join('\n');
    const created = await k.kubectl(['create', '-f', '-'], { input: manifest });
    expect(created.stdout).toBe('configmap/settings created\nnamespace/team-a created\nconfigmap/other created\n');

    const table = await k.kubectl(['get', 'configmaps']);
    expect(table.stdout).toMatch(/^NAME\s+DATA\s+AGE\nkube-root-ca\.crt\s+1\s+\d+s\nsettings\s+1\s+\d+s\n$/);

    const yaml = await k.kubectl(['get', 'configmap', 'settings', '-o', 'yaml']);
    expect(yaml.stdout).toMatch(/^apiVersion: v1\ndata:\n  mode: fast\nkind: ConfigMap\nmetadata:\n/);
    expect(yaml.stdout).toMatch(/\n  name: settings\n  namespace: default\n  resourceVersion: "\d+"\n  uid: [0-9a-f-]{36}\n/);

    const json = JSON.parse((await k.kubectl(['get', 'configmap', 'settings', '-o', 'json'])).stdout);
    expect(json.kind).toBe('ConfigMap');
    expect(json.data).toEqual({ mode: 'fast' });

    const all = await k.kubectl(['get', 'configmaps', '-A']);
    expect(all.stdout).toMatch(/^NAMESPACE\s+NAME\s+DATA\s+AGE\n/);
    expect(all.stdout).toMatch(/\ndefault\s+settings\s+1\s+/);
    expect(all.stdout).toMatch(/\nteam-a\s+other\s+1\s+/);
  });

  it('replace swaps the object and bumps the resourceVersion', async () => {
    await k.kubectl(['create', '-f', '-'], { input: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: r1\ndata:\n  v: "1"\n' });
    const before = JSON.parse((await k.kubectl(['get', 'cm', 'r1', '-o', 'json'])).stdout);
    const out = await k.kubectl(['replace', '-f', '-'], { input: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: r1\ndata:\n  v: "2"\n' });
    expect(out.stdout).toBe('configmap/r1 replaced\n');
    const after = JSON.parse((await k.kubectl(['get', 'cm', 'r1', '-o', 'json'])).stdout);
    expect(after.data).toEqual({ v: '2' });
    expect(Number(after.metadata.resourceVersion)).toBeGreaterThan(Number(before.metadata.resourceVersion));
    expect(after.metadata.uid).toBe(before.metadata.uid);
  });

  it('delete removes the object; a second delete reports NotFound', async () => {
    await k.kubectl(['create', '-f', '-'], { input: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: gone\n' });
    expect((await k.kubectl(['delete', 'configmap', 'gone'])).stdout).toBe('configmap "gone" deleted\n');
    const again = await k.kubectl(['delete', 'configmap', 'gone'], { allowFail: true });
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('Error from server (NotFound): configmaps "gone" not found');
  });

  it('create namespace and create configmap --from-literal (protobuf bodies)', async () => {
    expect((await k.kubectl(['create', 'namespace', 'lit'])).stdout).toBe('namespace/lit created\n');
    expect((await k.kubectl(['create', 'configmap', 'lit-cm', '-n', 'lit', '--from-literal=a=b', '--from-literal=c=d'])).stdout).toBe(
      'configmap/lit-cm created\n',
    );
    const cm = JSON.parse((await k.kubectl(['get', 'cm', 'lit-cm', '-n', 'lit', '-o', 'json', '--show-managed-fields'])).stdout);
    expect(cm.data).toEqual({ a: 'b', c: 'd' });
    expect(cm.metadata.managedFields?.[0]?.manager).toBe('kubectl-create');
  });

  it('explain reads the schema from /openapi/v3', async () => {
    const { stdout } = await k.kubectl(['explain', 'deployment.spec.replicas']);
    expect(stdout).toContain('GROUP:      apps');
    expect(stdout).toContain('KIND:       Deployment');
    expect(stdout).toMatch(/FIELD:\s+replicas <integer>/);
  });

  it('reports the server version', async () => {
    const { stdout } = await k.kubectl(['version', '-o', 'json']);
    expect(JSON.parse(stdout).serverVersion.gitVersion).toBe('v1.33.0');
  });
});
