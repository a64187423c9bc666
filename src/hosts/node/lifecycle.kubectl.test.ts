// Real kubectl 1.33 against the Node host: object lifecycle. Cascading deletes (the garbage collector),
// a namespace deleted and waited for (the namespace controller, 5 s after the delete on the real clock),
// a stuck finalizer seen in `get ns -o yaml` and released with `patch`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKubectlEnv, type KubectlEnv } from './kubectl.js';
import { kubectlSuite, until as untilHolds } from './kubectl-suite.js';

const { found, suite } = kubectlSuite();

const owner = (name: string) => `apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}
data:
  role: owner
`;
const dependent = (name: string, ownerName: string, uid: string, block = true) => `apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}
  ownerReferences:
  - apiVersion: v1
    kind: ConfigMap
    name: ${ownerName}
    uid: ${uid}
    blockOwnerDeletion: ${block}
data:
  role: dependent
`;

suite('kubectl (object lifecycle)', () => {
  let k: KubectlEnv;
  beforeAll(async () => {
    k = await startKubectlEnv(found.path!);
  });
  afterAll(async () => {
    await k?.close();
  });

  const uidOf = async (name: string) => (await k.kubectl(['get', 'cm', name, '-o', 'jsonpath={.metadata.uid}'])).stdout;
  const exists = async (name: string) => (await k.kubectl(['get', 'cm', name, '--ignore-not-found', '-o', 'name'])).stdout.trim() !== '';
  const until = (what: () => Promise<boolean>, ms = 10_000) => untilHolds(what, ms, 100);
  async function family(prefix: string) {
    await k.kubectl(['create', '-f', '-'], { input: owner(`${prefix}-owner`) });
    const uid = await uidOf(`${prefix}-owner`);
    await k.kubectl(['create', '-f', '-'], { input: dependent(`${prefix}-child`, `${prefix}-owner`, uid) });
  }

  it('delete --cascade=background: the owner goes, then its dependents', async () => {
    await family('bg');
    const r = await k.kubectl(['delete', 'cm', 'bg-owner', '--cascade=background']);
    expect(r.stdout.trim()).toBe('configmap "bg-owner" deleted');
    await until(async () => !(await exists('bg-child')));
  });

  it('delete --cascade=foreground: waits for the blocking dependents, then the owner is gone', async () => {
    await family('fg');
    const r = await k.kubectl(['delete', 'cm', 'fg-owner', '--cascade=foreground']);
    expect(r.stdout.trim()).toBe('configmap "fg-owner" deleted');
    expect(await exists('fg-owner')).toBe(false);
    expect(await exists('fg-child')).toBe(false);
  });

  it('delete --cascade=orphan: the dependents stay without their owner reference', async () => {
    await family('or');
    const r = await k.kubectl(['delete', 'cm', 'or-owner', '--cascade=orphan']);
    expect(r.stdout.trim()).toBe('configmap "or-owner" deleted');
    expect(await exists('or-owner')).toBe(false);
    const refs = await k.kubectl(['get', 'cm', 'or-child', '-o', 'jsonpath={.metadata.ownerReferences}']);
    expect(refs.stdout).toBe('');
  });

  it('a stuck finalizer: the namespace shows the conditions; patch releases it; delete ns waits until gone', async () => {
    await k.kubectl(['create', 'namespace', 'stuck']);
    await k.kubectl(['create', '-n', 'stuck', '-f', '-'], { input: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: held\n  finalizers: [example.com/hold]\n' });
    await k.kubectl(['create', 'configmap', 'free', '-n', 'stuck', '--from-literal=a=1']);
    const del = await k.kubectl(['delete', 'namespace', 'stuck', '--wait=false']);
    expect(del.stdout.trim()).toBe('namespace "stuck" deleted');
    await until(async () => (await k.kubectl(['get', 'ns', 'stuck', '-o', 'yaml'])).stdout.includes('SomeFinalizersRemain'));
    const yaml = (await k.kubectl(['get', 'ns', 'stuck', '-o', 'yaml'])).stdout;
    expect(yaml).toContain('phase: Terminating');
    expect(yaml).toMatch(/message: 'Some content in the namespace has finalizers remaining: example\.com\/hold\s+in 1 resource instances'\n\s+reason: SomeFinalizersRemain\n\s+status: "True"\n\s+type: NamespaceFinalizersRemaining/);
    expect(yaml).toMatch(/message: 'Some resources are remaining: configmaps\. has 1 resource instances'\n\s+reason: SomeResourcesRemain\n\s+status: "True"\n\s+type: NamespaceContentRemaining/);
    expect((await k.kubectl(['get', 'ns', 'stuck'])).stdout).toMatch(/stuck\s+Terminating/);
    const p = await k.kubectl(['patch', 'configmap', 'held', '-n', 'stuck', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
    expect(p.stdout.trim()).toBe('configmap/held patched');
    const started = Date.now();
    const gone = await k.kubectl(['delete', 'namespace', 'stuck', '--ignore-not-found']);
    expect(gone.code).toBe(0);
    await until(async () => (await k.kubectl(['get', 'ns', 'stuck', '--ignore-not-found', '-o', 'name'])).stdout.trim() === '', 15_000);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('delete namespace waits until the namespace is gone', async () => {
    await k.kubectl(['create', 'namespace', 'tmp']);
    await k.kubectl(['create', 'configmap', 'c', '-n', 'tmp', '--from-literal=a=1']);
    const r = await k.kubectl(['delete', 'namespace', 'tmp']);
    expect(r.stdout.trim()).toBe('namespace "tmp" deleted');
    expect((await k.kubectl(['get', 'ns', 'tmp', '--ignore-not-found', '-o', 'name'])).stdout.trim()).toBe('');
  });

  it('protected namespaces cannot be deleted', async () => {
    const r = await k.kubectl(['delete', 'namespace', 'kube-system'], { allowFail: true });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('Error from server (Forbidden): namespaces "kube-system" is forbidden: this namespace may not be deleted');
  });
});
