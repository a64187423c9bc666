// Real kubectl 1.33 against the Node host with a validating admission webhook (a local HTTPS server, the
// fixtures' certificate as caBundle) that holds some calls open: a held call delays its own kubectl only;
// other creates, another namespace and a write racing on the same object go on, and the held write lands on
// the newer object once its webhook answers (the webhook is asked again).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startKubectlEnv, type KubectlEnv } from './kubectl.js';
import { kubectlSuite, until } from './kubectl-suite.js';
import { reviewCaBundle, startReviewServer, type Review, type ReviewServer } from './review-server.js';
import { within } from '../../engine/testing/wait.js';

const { found, suite } = kubectlSuite();


suite('kubectl (admission webhook held open)', () => {
  let k: KubectlEnv;
  let server: ReviewServer | undefined;
  const seen: Review[] = [];
  /** Calls held open: answered by the test. */
  const held: { review: Review; release(): void }[] = [];
  /** Whether a call is held rather than answered at once. */
  let hold: (review: Review) => boolean = () => false;

  beforeAll(async () => {
    server = await startReviewServer((review, _path, respond) => {
      seen.push(review);
      const release = () => respond({ allowed: true });
      if (hold(review)) held.push({ review, release });
      else release();
    });
    const url = `${server.base}/validate`;
    k = await startKubectlEnv(found.path!);
    const config = {
      apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'hold' },
      webhooks: [{
        name: 'hold.example.com', clientConfig: { url, caBundle: reviewCaBundle }, sideEffects: 'None', admissionReviewVersions: ['v1'], timeoutSeconds: 30,
        rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
      }],
    };
    expect((await k.kubectl(['apply', '-f', '-'], { input: JSON.stringify(config) })).stdout).toBe('validatingwebhookconfiguration.admissionregistration.k8s.io/hold created\n');
  });
  afterAll(async () => {
    for (const h of held.splice(0)) h.release();
    await k?.close();
    await server?.close();
  });

  it('a create whose webhook call is held does not hold back other creates, another namespace, or reads', async () => {
    hold = (r) => r.request.name === 'slow';
    const slow = k.kubectl(['create', 'configmap', 'slow', '--from-literal=a=1']);
    await until(async () => held.length === 1, 10_000, 20);
    expect((await within('create of another configmap', k.kubectl(['create', 'configmap', 'other', '--from-literal=a=1']), 10_000)).stdout).toBe('configmap/other created\n');
    expect((await within('create of a namespace', k.kubectl(['create', 'namespace', 'two']), 10_000)).stdout).toBe('namespace/two created\n');
    expect((await within('create in it', k.kubectl(['create', 'configmap', 'x', '-n', 'two']), 10_000)).stdout).toBe('configmap/x created\n');
    const get = await k.kubectl(['get', 'configmap', 'slow'], { allowFail: true });
    expect(get.stderr).toBe('Error from server (NotFound): configmaps "slow" not found\n');
    held.shift()!.release();
    expect((await slow).stdout).toBe('configmap/slow created\n');
  });

  it('two labels of one object at once: the held one is asked again on the newer object, and both land', async () => {
    await k.kubectl(['create', 'configmap', 'shared', '--from-literal=a=1']);
    let first = true;
    hold = (r) => {
      if (r.request.name !== 'shared' || !first) return false;
      first = false;
      return true;
    };
    const calls = seen.length;
    const a = k.kubectl(['label', 'configmap', 'shared', 'a=1']);
    await until(async () => held.length === 1, 10_000, 20);
    expect((await within('the other label', k.kubectl(['label', 'configmap', 'shared', 'b=2']), 10_000)).stdout).toBe('configmap/shared labeled\n');
    held.shift()!.release();
    expect((await a).stdout).toBe('configmap/shared labeled\n');
    // the held label's webhook, the other label's, the held label's second attempt
    const updates = seen.slice(calls).map((r) => r.request.object.metadata.labels);
    expect(updates).toEqual([{ a: '1' }, { b: '2' }, { a: '1', b: '2' }]);
    const labels = await k.kubectl(['get', 'configmap', 'shared', '-o', 'jsonpath={.metadata.labels}']);
    expect(JSON.parse(labels.stdout)).toEqual({ a: '1', b: '2' });
  });
});
