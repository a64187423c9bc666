// Real kubectl 1.33 against the Node host with a validating admission webhook (a local HTTPS server, the
// fixtures' certificate as caBundle) that holds some calls open: a held call delays its own kubectl only;
// other creates, another namespace and a write racing on the same object go on, and the held write lands on
// the newer object once its webhook answers (the webhook is asked again).
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startKubectlEnv, type KubectlEnv } from './kubectl.js';
import { kubectlSuite, until } from './kubectl-suite.js';

const { found, suite } = kubectlSuite();

const fixtures = join(import.meta.dirname, 'fixtures');
const cert = readFileSync(join(fixtures, 'test-tls.crt'), 'utf8');
const key = readFileSync(join(fixtures, 'test-tls.key'), 'utf8');

type Review = { request: Record<string, any> };

/** `p`, or a failure after `ms` (a kubectl stuck behind a global write lock would wait for the held call). */
function within<T>(what: string, p: Promise<T>, ms = 10_000): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`timed out: ${what}`)), ms))]);
}

suite('kubectl (admission webhook held open)', () => {
  let k: KubectlEnv;
  let server: Server;
  const seen: Review[] = [];
  /** Calls held open: answered by the test. */
  const held: { review: Review; release(): void }[] = [];
  /** Whether a call is held rather than answered at once. */
  let hold: (review: Review) => boolean = () => false;

  beforeAll(async () => {
    server = createServer({ cert, key }, (req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const review = JSON.parse(body) as Review;
        seen.push(review);
        const release = () => {
          res.setHeader('Content-Type', 'application/json');
          res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: true } }));
        };
        if (hold(review)) held.push({ review, release });
        else release();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/validate`;
    k = await startKubectlEnv(found.path!);
    const config = {
      apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'hold' },
      webhooks: [{
        name: 'hold.example.com', clientConfig: { url, caBundle: Buffer.from(cert).toString('base64') }, sideEffects: 'None', admissionReviewVersions: ['v1'], timeoutSeconds: 30,
        rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
      }],
    };
    expect((await k.kubectl(['apply', '-f', '-'], { input: JSON.stringify(config) })).stdout).toBe('validatingwebhookconfiguration.admissionregistration.k8s.io/hold created\n');
  });
  afterAll(async () => {
    for (const h of held.splice(0)) h.release();
    await k?.close();
    await new Promise((r) => server?.close(r));
  });

  it('a create whose webhook call is held does not hold back other creates, another namespace, or reads', async () => {
    hold = (r) => r.request.name === 'slow';
    const slow = k.kubectl(['create', 'configmap', 'slow', '--from-literal=a=1']);
    await until(async () => held.length === 1, 10_000, 20);
    expect((await within('create of another configmap', k.kubectl(['create', 'configmap', 'other', '--from-literal=a=1']))).stdout).toBe('configmap/other created\n');
    expect((await within('create of a namespace', k.kubectl(['create', 'namespace', 'two']))).stdout).toBe('namespace/two created\n');
    expect((await within('create in it', k.kubectl(['create', 'configmap', 'x', '-n', 'two']))).stdout).toBe('configmap/x created\n');
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
    expect((await within('the other label', k.kubectl(['label', 'configmap', 'shared', 'b=2']))).stdout).toBe('configmap/shared labeled\n');
    held.shift()!.release();
    expect((await a).stdout).toBe('configmap/shared labeled\n');
    // the held label's webhook, the other label's, the held label's second attempt
    const updates = seen.slice(calls).map((r) => r.request.object.metadata.labels);
    expect(updates).toEqual([{ a: '1' }, { b: '2' }, { a: '1', b: '2' }]);
    const labels = await k.kubectl(['get', 'configmap', 'shared', '-o', 'jsonpath={.metadata.labels}']);
    expect(JSON.parse(labels.stdout)).toEqual({ a: '1', b: '2' });
  });
});
