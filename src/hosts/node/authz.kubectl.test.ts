// Real kubectl 1.33 against the Node host: who may act. The host serves HTTPS here because kubectl sends
// bearer tokens only over TLS (its kubeconfig carries the administrator's static token).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKubectlEnv, type KubectlEnv } from './kubectl.js';
import { parseTokenFile } from '../../engine/auth/token-file.js';
import { kubectlSuite } from './kubectl-suite.js';

const { found, suite } = kubectlSuite();

const fixtures = join(import.meta.dirname, 'fixtures');
const tls = { cert: readFileSync(join(fixtures, 'test-tls.crt'), 'utf8'), key: readFileSync(join(fixtures, 'test-tls.key'), 'utf8'), certFile: join(fixtures, 'test-tls.crt') };

suite('kubectl (authorization)', () => {
  let k: KubectlEnv;
  beforeAll(async () => {
    const staticTokens = parseTokenFile('jane-secret,jane,1001,"devs,qa"\n');
    k = await startKubectlEnv(found.path!, { auth: { staticTokens, bootstrapPolicy: true } }, { tls });
    // the controller manager starts a moment after the host serves: wait for its service-account and
    // ClusterRole aggregation controllers to have caught up
    for (let i = 0; i < 100; i++) {
      const sa = await k.kubectl(['get', 'serviceaccount', 'default', '-o', 'name'], { allowFail: true });
      const view = await k.kubectl(['get', 'clusterrole', 'view', '-o', 'jsonpath={.rules[*].verbs}'], { allowFail: true });
      if (sa.stdout === 'serviceaccount/default\n' && view.stdout.includes('list')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  afterAll(async () => {
    await k?.close();
  });

  it('auth whoami: the default user is a cluster administrator', async () => {
    const { stdout } = await k.kubectl(['auth', 'whoami']);
    expect(stdout).toBe('ATTRIBUTE   VALUE\nUsername    kubernetes-admin\nGroups      [system:masters system:authenticated]\n');
  });

  it('auth can-i, with and without --as', async () => {
    expect((await k.kubectl(['auth', 'can-i', 'create', 'deployments'])).stdout).toBe('yes\n');
    const no = await k.kubectl(['auth', 'can-i', 'list', 'pods', '--as', 'jane'], { allowFail: true });
    expect(no.code).toBe(1);
    expect(no.stdout).toBe('no\n');
    expect((await k.kubectl(['auth', 'can-i', 'get', '/version', '--as', 'jane'])).stdout).toBe('yes\n');
    expect((await k.kubectl(['auth', 'can-i', 'get', '/metrics', '--as', 'jane'], { allowFail: true })).stdout).toBe('no\n');
  });

  it('auth can-i --list shows the rules of the user in the namespace', async () => {
    const admin = (await k.kubectl(['auth', 'can-i', '--list'])).stdout;
    expect(admin).toMatch(/^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs\n\*\.\*\s+\[\]\s+\[\]\s+\[\*\]\n\s+\[\*\]\s+\[\]\s+\[\*\]\n/);
    const jane = (await k.kubectl(['auth', 'can-i', '--list', '--as', 'jane'])).stdout;
    expect(jane).toMatch(/\nselfsubjectreviews\.authentication\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]\n/);
    expect(jane).toMatch(/\n\s+\[\/version\]\s+\[\]\s+\[get\]\n/);
    expect(jane).not.toMatch(/\*\.\*/);
  });

  it('create role / rolebinding / clusterrole, then the bound user may act', async () => {
    await k.kubectl(['create', 'role', 'pod-reader', '--verb=get,list', '--resource=pods']);
    await k.kubectl(['create', 'rolebinding', 'jane-pods', '--role=pod-reader', '--user=jane']);
    expect((await k.kubectl(['auth', 'can-i', 'list', 'pods', '--as', 'jane'])).stdout).toBe('yes\n');
    expect((await k.kubectl(['auth', 'can-i', 'list', 'pods', '--as', 'jane', '-n', 'kube-system'], { allowFail: true })).stdout).toBe('no\n');
    await k.kubectl(['create', 'clusterrole', 'node-reader', '--verb=get,list', '--resource=nodes']);
    await k.kubectl(['create', 'clusterrolebinding', 'qa-nodes', '--clusterrole=node-reader', '--group=qa']);
    expect((await k.kubectl(['auth', 'can-i', 'list', 'nodes', '--as', 'someone', '--as-group', 'qa'])).stdout).toBe('yes\n');
    const denied = await k.kubectl(['get', 'secrets', '--as', 'jane'], { allowFail: true });
    expect(denied.stderr).toBe('Error from server (Forbidden): secrets is forbidden: User "jane" cannot list resource "secrets" in API group "" in the namespace "default"\n');
  });

  it('a static token from the token file acts as its user', async () => {
    const who = await k.kubectl(['auth', 'whoami', '--token', 'jane-secret']);
    expect(who.stdout).toBe('ATTRIBUTE   VALUE\nUsername    jane\nUID         1001\nGroups      [devs qa system:authenticated]\n');
    const bad = await k.kubectl(['get', 'pods', '--token', 'not-a-token'], { allowFail: true });
    expect(bad.stderr).toBe('error: You must be logged in to the server (Unauthorized)\n');
  });

  it('create token, then requests with --token act as the service account', async () => {
    const token = (await k.kubectl(['create', 'token', 'default', '--duration', '15m'])).stdout.trim();
    expect(token.split('.')).toHaveLength(3);
    const who = await k.kubectl(['auth', 'whoami', '--token', token]);
    expect(who.stdout).toMatch(/^ATTRIBUTE\s+VALUE\nUsername\s+system:serviceaccount:default:default\nUID\s+[0-9a-f-]{36}\nGroups\s+\[system:serviceaccounts system:serviceaccounts:default system:authenticated\]\nExtra: authentication\.kubernetes\.io\/credential-id\s+\[JTI=[0-9a-f-]{36}\]\n$/);
    const denied = await k.kubectl(['get', 'configmaps', '--token', token], { allowFail: true });
    expect(denied.stderr).toBe('Error from server (Forbidden): configmaps is forbidden: User "system:serviceaccount:default:default" cannot list resource "configmaps" in API group "" in the namespace "default"\n');
    await k.kubectl(['create', 'rolebinding', 'sa-pods', '--role=pod-reader', '--serviceaccount=default:default']);
    expect((await k.kubectl(['get', 'pods', '--token', token])).stderr).toBe('No resources found in default namespace.\n');
    const short = await k.kubectl(['create', 'token', 'default', '--duration', '1m'], { allowFail: true });
    expect(short.stderr).toBe('error: failed to create token: TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes\n');
  });

  it('escalation is refused with the real message', async () => {
    await k.kubectl(['create', 'clusterrole', 'role-maker', '--verb=create,get', '--resource=roles,rolebindings']);
    await k.kubectl(['create', 'rolebinding', 'mallory-role-maker', '--clusterrole=role-maker', '--user=mallory']);
    const r = await k.kubectl(['create', 'role', 'grab', '--verb=get,list', '--resource=secrets', '--as', 'mallory'], { allowFail: true });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'Error from server (Forbidden): roles.rbac.authorization.k8s.io "grab" is forbidden: user "mallory" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}\n',
    );
    const bind = await k.kubectl(['create', 'rolebinding', 'grab-admin', '--clusterrole=admin', '--user=mallory', '--as', 'mallory'], { allowFail: true });
    expect(bind.stderr).toMatch(/^error: failed to create rolebinding: rolebindings\.rbac\.authorization\.k8s\.io "grab-admin" is forbidden: user "mallory" \(groups=\["system:authenticated"\]\) is attempting to grant RBAC permissions not currently held:\n/);
    const imp = await k.kubectl(['get', 'pods', '--as', 'bob', '--token', 'jane-secret'], { allowFail: true });
    expect(imp.stderr).toBe('Error from server (Forbidden): users "bob" is forbidden: User "jane" cannot impersonate resource "users" in API group "" at the cluster scope\n');
  });
});
