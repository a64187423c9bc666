// Real kubectl 1.33 against the Node host: the write commands (server-side and client-side apply, the
// patch types, scale, label, annotate, set image, diff, server dry run, strict validation).
import { basename } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKubectlEnv, type KubectlEnv } from './kubectl.js';
import { kubectlSuite } from './kubectl-suite.js';

const { found, suite } = kubectlSuite();

const deployment = (name: string, replicas: number, image: string, extra = '') => [
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
  '      - name: app',
  `        image: ${image}`,
  extra,
  '',
].join('\n');

suite('kubectl (writes)', () => {
  let k: KubectlEnv;
  beforeAll(async () => {
    k = await startKubectlEnv(found.path!);
  });
  afterAll(async () => {
    await k?.close();
  });

  const getJson = async (...args: string[]) => JSON.parse((await k.kubectl(['get', ...args, '-o', 'json', '--show-managed-fields'])).stdout);

  it('apply --server-side creates, re-applies, conflicts, and --force-conflicts takes ownership', async () => {
    const first = await k.kubectl(['apply', '--server-side', '-f', '-'], { input: deployment('ssa', 2, 'nginx:1') });
    expect(first.stdout).toBe('deployment.apps/ssa serverside-applied\n');
    let d = await getJson('deployment', 'ssa');
    expect(d.spec.replicas).toBe(2);
    expect(d.metadata.managedFields[0]).toMatchObject({ manager: 'kubectl', operation: 'Apply', apiVersion: 'apps/v1' });
    expect(d.metadata.managedFields[0].fieldsV1['f:spec']['f:template']['f:spec']['f:containers']).toEqual({
      'k:{"name":"app"}': { '.': {}, 'f:image': {}, 'f:name': {} },
    });

    const other = await k.kubectl(['apply', '--server-side', '--field-manager=ops', '-f', '-'], { input: deployment('ssa', 5, 'nginx:1'), allowFail: true });
    expect(other.code).not.toBe(0);
    expect(other.stderr).toContain('error: Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas');
    expect(other.stderr).toContain('Please review the fields above--they currently have other managers.');

    const forced = await k.kubectl(['apply', '--server-side', '--field-manager=ops', '--force-conflicts', '-f', '-'], { input: deployment('ssa', 5, 'nginx:1') });
    expect(forced.stdout).toBe('deployment.apps/ssa serverside-applied\n');
    d = await getJson('deployment', 'ssa');
    expect(d.spec.replicas).toBe(5);
    const managers = d.metadata.managedFields.map((e: any) => [e.manager, e.operation]);
    expect(managers).toEqual([['kubectl', 'Apply'], ['ops', 'Apply']]);
    expect(d.metadata.managedFields[0].fieldsV1['f:spec']['f:replicas']).toBeUndefined();
    expect(d.metadata.managedFields[1].fieldsV1['f:spec']['f:replicas']).toEqual({});
  });

  it('client-side apply: last-applied annotation, then a strategic merge patch', async () => {
    const created = await k.kubectl(['apply', '-f', '-'], { input: deployment('csa', 1, 'nginx:1') });
    expect(created.stdout).toBe('deployment.apps/csa created\n');
    let d = await getJson('deployment', 'csa');
    const last = JSON.parse(d.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']);
    expect(last.spec.replicas).toBe(1);
    expect(d.metadata.managedFields.map((e: any) => [e.manager, e.operation])).toEqual([['kubectl-client-side-apply', 'Update']]);

    const updated = await k.kubectl(['apply', '-f', '-'], { input: deployment('csa', 3, 'nginx:2') });
    expect(updated.stdout).toBe('deployment.apps/csa configured\n');
    d = await getJson('deployment', 'csa');
    expect(d.spec.replicas).toBe(3);
    expect(d.spec.template.spec.containers.map((x: any) => [x.name, x.image])).toEqual([['app', 'nginx:2']]);
    expect(JSON.parse(d.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']).spec.replicas).toBe(3);

    const same = await k.kubectl(['apply', '-f', '-'], { input: deployment('csa', 3, 'nginx:2') });
    expect(same.stdout).toBe('deployment.apps/csa unchanged\n');
  });

  it('client-side apply, then apply --server-side with the same manifest: no conflict (last-applied upgrade)', async () => {
    await k.kubectl(['apply', '-f', '-'], { input: deployment('mig', 2, 'nginx:1') });
    const ssa = await k.kubectl(['apply', '--server-side', '-f', '-'], { input: deployment('mig', 2, 'nginx:1') });
    expect(ssa.stdout).toBe('deployment.apps/mig serverside-applied\n');
    const changed = await k.kubectl(['apply', '--server-side', '-f', '-'], { input: deployment('mig', 3, 'nginx:1') });
    expect(changed.stdout).toBe('deployment.apps/mig serverside-applied\n');
    const d = await getJson('deployment', 'mig');
    expect(d.spec.replicas).toBe(3);
    expect(d.metadata.managedFields.find((e: any) => e.manager === 'kubectl' && e.operation === 'Apply').fieldsV1['f:spec']['f:replicas']).toEqual({});
  });

  it('apply --server-side --dry-run=server changes nothing', async () => {
    await k.kubectl(['apply', '--server-side', '-f', '-'], { input: deployment('dry', 1, 'nginx:1') });
    const before = await getJson('deployment', 'dry');
    const out = await k.kubectl(['apply', '--server-side', '--dry-run=server', '-f', '-'], { input: deployment('dry', 6, 'nginx:1') });
    expect(out.stdout).toBe('deployment.apps/dry serverside-applied (server dry run)\n');
    const after = await getJson('deployment', 'dry');
    expect(after.spec.replicas).toBe(1);
    expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
  });

  it('patch --type=json|merge|strategic', async () => {
    await k.kubectl(['create', '-f', '-'], { input: deployment('pt', 1, 'nginx:1') });
    expect((await k.kubectl(['patch', 'deployment', 'pt', '--type=json', '-p', '[{"op":"replace","path":"/spec/replicas","value":2}]'])).stdout).toBe('deployment.apps/pt patched\n');
    expect((await k.kubectl(['patch', 'deployment', 'pt', '--type=merge', '-p', '{"metadata":{"labels":{"tier":"web"}}}'])).stdout).toBe('deployment.apps/pt patched\n');
    expect((await k.kubectl(['patch', 'deployment', 'pt', '--type=strategic', '-p', '{"spec":{"template":{"spec":{"containers":[{"name":"side","image":"busybox"}]}}}}'])).stdout).toBe('deployment.apps/pt patched\n');
    const d = await getJson('deployment', 'pt');
    expect(d.spec.replicas).toBe(2);
    expect(d.metadata.labels).toEqual({ tier: 'web' });
    expect(d.spec.template.spec.containers.map((x: any) => x.name)).toEqual(['side', 'app']);
    expect(d.metadata.managedFields.map((e: any) => [e.manager, e.operation])).toEqual([['kubectl-create', 'Update'], ['kubectl-patch', 'Update']]);
    const noop = await k.kubectl(['patch', 'deployment', 'pt', '--type=merge', '-p', '{"spec":{"replicas":2}}']);
    expect(noop.stdout).toBe('deployment.apps/pt patched (no change)\n');
    const failed = await k.kubectl(['patch', 'deployment', 'pt', '--type=json', '-p', '[{"op":"test","path":"/spec/replicas","value":9}]'], { allowFail: true });
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toContain('the server rejected our request due to an error in our request');
  });

  it('scale, label, annotate and set image', async () => {
    await k.kubectl(['create', '-f', '-'], { input: deployment('ops', 1, 'nginx:1') });
    expect((await k.kubectl(['scale', 'deployment', 'ops', '--replicas=4'])).stdout).toBe('deployment.apps/ops scaled\n');
    expect((await k.kubectl(['label', 'deployment', 'ops', 'team=blue'])).stdout).toBe('deployment.apps/ops labeled\n');
    expect((await k.kubectl(['annotate', 'deployment', 'ops', 'note=hello'])).stdout).toBe('deployment.apps/ops annotated\n');
    expect((await k.kubectl(['set', 'image', 'deployment/ops', 'app=nginx:2'])).stdout).toBe('deployment.apps/ops image updated\n');
    const d = await getJson('deployment', 'ops');
    expect(d.spec.replicas).toBe(4);
    expect(d.metadata.labels).toEqual({ team: 'blue' });
    expect(d.metadata.annotations).toEqual({ note: 'hello' });
    expect(d.spec.template.spec.containers[0].image).toBe('nginx:2');
    const scaleEntry = d.metadata.managedFields.find((e: any) => e.subresource === 'scale');
    // the manager is the User-Agent's product: kubectl's binary name
    expect(scaleEntry).toEqual({ manager: basename(found.path!), operation: 'Update', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } }, subresource: 'scale' });
    const label2 = await k.kubectl(['label', 'deployment', 'ops', 'team=red'], { allowFail: true });
    expect(label2.code).not.toBe(0);
    expect(label2.stderr).toContain("'team' already has a value (blue), and --overwrite is false");
    const scaled = await k.kubectl(['get', 'deployment', 'ops', '-o', 'jsonpath={.spec.replicas}']);
    expect(scaled.stdout).toBe('4');
  });

  it('diff uses a server dry run and changes nothing', async () => {
    await k.kubectl(['apply', '--server-side', '-f', '-'], { input: deployment('df', 1, 'nginx:1') });
    const before = await getJson('deployment', 'df');
    const same = await k.kubectl(['diff', '-f', '-'], { input: deployment('df', 1, 'nginx:1') });
    expect(same.code).toBe(0);
    expect(same.stdout).toBe('');
    const changed = await k.kubectl(['diff', '-f', '-'], { input: deployment('df', 3, 'nginx:1'), allowFail: true });
    expect(changed.code).toBe(1);
    expect(changed.stdout).toMatch(/^-  replicas: 1$/m);
    expect(changed.stdout).toMatch(/^\+  replicas: 3$/m);
    const after = await getJson('deployment', 'df');
    expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    expect(after.spec.replicas).toBe(1);
  });

  it('create --dry-run=server stores nothing', async () => {
    const out = await k.kubectl(['create', '--dry-run=server', '-o', 'json', '-f', '-'], { input: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dry\ndata:\n  a: "1"\n' });
    const obj = JSON.parse(out.stdout);
    expect(obj.metadata.name).toBe('dry');
    expect(obj.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(obj.metadata.resourceVersion).toBeUndefined();
    const get = await k.kubectl(['get', 'configmap', 'dry'], { allowFail: true });
    expect(get.stderr).toContain('Error from server (NotFound): configmaps "dry" not found');
    const named = await k.kubectl(['create', 'configmap', 'dry2', '--from-literal=a=b', '--dry-run=server']);
    expect(named.stdout).toBe('configmap/dry2 created (server dry run)\n');
  });

  it('create --validate=strict rejects an unknown field; the default warns', async () => {
    const manifest = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: strict\nfoo: bar\ndata:\n  a: "1"\n';
    const strict = await k.kubectl(['create', '--validate=strict', '-f', '-'], { input: manifest, allowFail: true });
    expect(strict.code).not.toBe(0);
    expect(strict.stderr).toContain('Error from server (BadRequest): error when creating "STDIN": ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "foo"');
    // kubectl's default is strict; warn sends fieldValidation=Warn and prints the server's warnings
    const warn = await k.kubectl(['create', '--validate=warn', '-f', '-'], { input: manifest });
    expect(warn.stdout).toBe('configmap/strict created\n');
    expect(warn.stderr).toContain('Warning: unknown field "foo"');
  });
});
