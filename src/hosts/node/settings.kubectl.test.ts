// Real kubectl 1.33 against the Node host: a corrupt object (the playground's simulation, POSTed with
// `kubectl create --raw`), the errors kubectl shows for it, and its forced removal. kubectl 1.33 has no
// --ignore-store-read-error-with-cluster-breaking-potential flag (it came in 1.34), so the delete option is
// sent with `kubectl delete --raw`. Then --runtime-config: a disabled group is missing from
// `kubectl api-resources` and kubectl no longer knows its resources.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKubectlEnv, type KubectlEnv } from './kubectl.js';
import { kubectlSuite } from './kubectl-suite.js';

const { found, suite } = kubectlSuite();

const held = `apiVersion: v1
kind: ConfigMap
metadata:
  name: broken
  finalizers: [example.com/hold]
data:
  a: "1"
`;

suite('kubectl: a corrupt object and its forced delete (AllowUnsafeMalformedObjectDeletion=true)', () => {
  let k: KubectlEnv;
  beforeAll(async () => {
    k = await startKubectlEnv(found.path!, { featureGates: { AllowUnsafeMalformedObjectDeletion: true } });
  });
  afterAll(async () => {
    await k?.close();
  });

  it('get, list and delete fail with the storage errors; delete --raw with the option removes it despite its finalizer', async () => {
    await k.kubectl(['create', '-f', '-'], { input: held });
    const c = await k.kubectl(['create', '--raw', '/x-playground/corrupt?path=/api/v1/namespaces/default/configmaps/broken', '-f', '-'], { input: '{}' });
    expect(JSON.parse(c.stdout)).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'broken', kind: 'configmaps' } });

    const get = await k.kubectl(['get', 'cm', 'broken'], { allowFail: true });
    expect(get.code).not.toBe(0);
    expect(get.stderr).toMatch(/^Error from server \(InternalError\): Internal error occurred: StorageError: corrupt object, Code: 7, Key: \/configmaps\/default\/broken, ResourceVersion: 0, AdditionalErrorMsg: object not decodable revision=\d+: couldn't get version\/kind; json parse error: unexpected end of JSON input\n$/);
    const list = await k.kubectl(['get', 'cm'], { allowFail: true });
    expect(list.code).not.toBe(0);
    expect(list.stderr).toContain('failed to read one or more configmaps from the storage');
    const other = await k.kubectl(['get', 'cm', '-n', 'kube-system', '-o', 'name']);
    expect(other.stdout).toContain('configmap/kube-root-ca.crt');
    const del = await k.kubectl(['delete', 'cm', 'broken', '--wait=false'], { allowFail: true });
    expect(del.code).not.toBe(0);
    expect(del.stderr).toContain('Internal error occurred: StorageError: corrupt object, Code: 7, Key: /configmaps/default/broken');

    const withOther = await k.kubectl(['delete', '--raw', '/api/v1/namespaces/default/configmaps/broken?ignoreStoreReadErrorWithClusterBreakingPotential=true&gracePeriodSeconds=0'], { allowFail: true });
    expect(withOther.code).not.toBe(0);
    expect(withOther.stderr).toContain('The DeleteOptions "" is invalid: ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: cannot be set together with .gracePeriodSeconds');

    const force = await k.kubectl(['delete', '--raw', '/api/v1/namespaces/default/configmaps/broken?ignoreStoreReadErrorWithClusterBreakingPotential=true']);
    expect(JSON.parse(force.stdout)).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'broken', kind: 'ConfigMap' }, code: 200 });
    const gone = await k.kubectl(['get', 'cm', 'broken'], { allowFail: true });
    expect(gone.stderr).toBe('Error from server (NotFound): configmaps "broken" not found\n');
    expect((await k.kubectl(['get', 'cm', '-o', 'name'])).stdout).toBe('configmap/kube-root-ca.crt\n');
  }, 60_000);

  it('on a readable object the option is refused', async () => {
    await k.kubectl(['create', 'cm', 'fine', '--from-literal=a=1']);
    const r = await k.kubectl(['delete', '--raw', '/api/v1/namespaces/default/configmaps/fine?ignoreStoreReadErrorWithClusterBreakingPotential=true'], { allowFail: true });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('configmaps "fine" is invalid: ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: is exclusively used to delete corrupt object(s), try again by removing this option');
  }, 30_000);
});

suite('kubectl: --runtime-config=batch/v1=false,apps/v1/deployments=false', () => {
  let k: KubectlEnv;
  beforeAll(async () => {
    k = await startKubectlEnv(found.path!, { runtimeConfig: { 'batch/v1': 'false', 'apps/v1/deployments': 'false' } });
  });
  afterAll(async () => {
    await k?.close();
  });

  it('api-resources misses the disabled group and resource; kubectl does not know them', async () => {
    const r = await k.kubectl(['api-resources', '-o', 'name']);
    const names = r.stdout.trim().split('\n');
    expect(names).not.toContain('jobs.batch');
    expect(names).not.toContain('cronjobs.batch');
    expect(names).not.toContain('deployments.apps');
    expect(names).toContain('replicasets.apps');
    expect((await k.kubectl(['api-versions'])).stdout).not.toContain('batch/v1');
    const jobs = await k.kubectl(['get', 'jobs'], { allowFail: true });
    expect(jobs.stderr).toBe('error: the server doesn\'t have a resource type "jobs"\n');
  }, 60_000);
});
