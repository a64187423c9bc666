// Real kubectl 1.33 against the Node host: ValidatingAdmissionPolicies applied with kubectl refuse
// (Deny binding) and warn (Warn binding) on `kubectl create deployment`, with the texts kubectl prints.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKubectlEnv, type KubectlEnv } from './kubectl.js';
import { kubectlSuite } from './kubectl-suite.js';

const { found, suite } = kubectlSuite();

const POLICIES = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: replica-limit
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["deployments"]
  validations:
  - expression: "object.spec.replicas <= 5"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: replica-limit-deny
spec:
  policyName: replica-limit
  validationActions: [Deny]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: replica-advice
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["deployments"]
  validations:
  - expression: "object.spec.replicas >= 2"
    messageExpression: "'deployment ' + object.metadata.name + ' has a single replica'"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: replica-advice-warn
spec:
  policyName: replica-advice
  validationActions: [Warn]
`;

suite('kubectl (ValidatingAdmissionPolicy)', () => {
  let k: KubectlEnv;
  beforeAll(async () => {
    k = await startKubectlEnv(found.path!);
    const applied = await k.kubectl(['apply', '-f', '-'], { input: POLICIES });
    expect(applied.stdout).toBe(
      'validatingadmissionpolicy.admissionregistration.k8s.io/replica-limit created\n' +
        'validatingadmissionpolicybinding.admissionregistration.k8s.io/replica-limit-deny created\n' +
        'validatingadmissionpolicy.admissionregistration.k8s.io/replica-advice created\n' +
        'validatingadmissionpolicybinding.admissionregistration.k8s.io/replica-advice-warn created\n',
    );
  });
  afterAll(async () => {
    await k?.close();
  });

  it('a Deny binding refuses create deployment with replicas > 5', async () => {
    const r = await k.kubectl(['create', 'deployment', 'web', '--image=nginx', '--replicas=7'], { allowFail: true });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `error: failed to create deployment: deployments.apps "web" is forbidden: ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit-deny' denied request: failed expression: object.spec.replicas <= 5\n`,
    );
    expect((await k.kubectl(['get', 'deployment', 'web'], { allowFail: true })).code).toBe(1);
  });

  it('the same refusal under server-side dry run', async () => {
    const r = await k.kubectl(['create', 'deployment', 'web', '--image=nginx', '--replicas=9', '--dry-run=server'], { allowFail: true });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: failed to create deployment: deployments.apps "web" is forbidden: ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit-deny' denied request: failed expression: object.spec.replicas <= 5\n`,
    );
  });

  it('kubectl apply of a manifest prints the Invalid error as kubectl formats it', async () => {
    const manifest = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: big
spec:
  replicas: 6
  selector:
    matchLabels: {app: big}
  template:
    metadata:
      labels: {app: big}
    spec:
      containers:
      - name: app
        image: nginx
`;
    const r = await k.kubectl(['apply', '-f', '-'], { input: manifest, allowFail: true });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `The deployments "big" is invalid: : ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit-deny' denied request: failed expression: object.spec.replicas <= 5\n`,
    );
  });

  it('a Warn binding prints the warning and the deployment is created', async () => {
    const r = await k.kubectl(['create', 'deployment', 'solo', '--image=nginx']);
    expect(r.stdout).toBe('deployment.apps/solo created\n');
    expect(r.stderr).toBe(`Warning: Validation failed for ValidatingAdmissionPolicy 'replica-advice' with binding 'replica-advice-warn': deployment solo has a single replica\n`);
    const ok = await k.kubectl(['create', 'deployment', 'pair', '--image=nginx', '--replicas=2']);
    expect(ok.stderr).toBe('');
  });

  it('kubectl scale is an update of the scale subresource, not matched by a rule on deployments; a rule on deployments/scale sees the Scale', async () => {
    const r = await k.kubectl(['scale', 'deployment', 'pair', '--replicas=8']);
    expect(r.stdout).toBe('deployment.apps/pair scaled\n');
    await k.kubectl(['apply', '-f', '-'], {
      input: `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: scale-limit
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["UPDATE"]
      resources: ["deployments/scale"]
  validations:
  - expression: "object.spec.replicas <= 10"
    messageExpression: "object.kind + ' of ' + request.name + ' may not exceed 10 replicas'"
    reason: Forbidden
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: scale-limit
spec:
  policyName: scale-limit
  validationActions: [Deny]
`,
    });
    const refused = await k.kubectl(['scale', 'deployment', 'pair', '--replicas=12'], { allowFail: true });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `Error from server (Forbidden): deployments.apps "pair" is forbidden: ValidatingAdmissionPolicy 'scale-limit' with binding 'scale-limit' denied request: Scale of pair may not exceed 10 replicas\n`,
    );
  });

  it('the policy status shows the type checking of the status controller', async () => {
    let out = '';
    for (let i = 0; i < 100; i++) {
      out = (await k.kubectl(['get', 'validatingadmissionpolicy', 'replica-limit', '-o', 'jsonpath={.status.observedGeneration}'])).stdout;
      if (out === '1') break;
      await new Promise((res) => setTimeout(res, 100));
    }
    expect(out).toBe('1');
    const got = await k.kubectl(['get', 'validatingadmissionpolicies']);
    expect(got.stdout).toMatch(/^NAME\s+VALIDATIONS\s+PARAMKIND\s+AGE\nreplica-advice\s+1\s+<unset>\s+\S+\nreplica-limit\s+1\s+<unset>\s+\S+\nscale-limit\s+1\s+<unset>\s+\S+\n$/);
  });
});
