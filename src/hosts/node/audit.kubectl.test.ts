// Real kubectl 1.33 against the Node host with --audit-policy-file and --audit-log-path (issue 14 item 5):
// the log holds one audit.k8s.io/v1 Event per line; `kubectl get endpoints` is marked deprecated, a
// forbidden request carries decision forbid, RequestResponse rules record both bodies; the flags' parsing
// and the refusal of an invalid policy file with kube-apiserver's message.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKubectlEnv, type KubectlEnv } from './kubectl.js';
import { auditOptions, loadAuditPolicy } from './audit-log.js';
import { parseArgs, USAGE } from './cli.js';
import type { AuditEvent } from '../../engine/audit/index.js';
import { kubectlSuite } from './kubectl-suite.js';

const { found, suite } = kubectlSuite();

const dir = mkdtempSync(join(tmpdir(), 'audit-suite-'));
const policyFile = join(dir, 'policy.yaml');
const logFile = join(dir, 'audit.log');

const POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: None
  resources: [{group: "", resources: [serviceaccounts]}]
  verbs: [get, list, watch]
- level: None
  userGroups: [system:serviceaccounts]
- level: RequestResponse
  resources: [{group: "", resources: [configmaps]}]
- level: Metadata
`;

function logEvents(): AuditEvent[] {
  return readFileSync(logFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as AuditEvent);
}

/** kubectl's own requests (the controller manager's informers are audited too). */
const byKubectl = (e: AuditEvent) => /^kubectl/.test(e.userAgent ?? '');

/** The events written so far for requests matching `pred`, after the log's writes have landed. */
async function eventsWhere(pred: (e: AuditEvent) => boolean, atLeast = 1): Promise<AuditEvent[]> {
  for (let i = 0; i < 50; i++) {
    const found = logEvents().filter((e) => byKubectl(e) && pred(e));
    if (found.length >= atLeast) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
  return logEvents().filter((e) => byKubectl(e) && pred(e));
}

describe('--audit-policy-file / --audit-log-path flags', () => {
  it('parse, and are in --help', () => {
    const o = parseArgs(['--audit-policy-file', 'p.yaml', '--audit-log-path=-']);
    expect([o.auditPolicyFile, o.auditLogPath]).toEqual(['p.yaml', '-']);
    expect(USAGE).toContain('--audit-policy-file FILE');
    expect(USAGE).toContain('--audit-log-path PATH');
  });

  it('an invalid or missing policy file stops the server with kube-apiserver\'s message; no policy, no events', () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Everything\n');
    expect(() => loadAuditPolicy(bad)).toThrow(
      `loading audit policy file: rules[0].level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse": from file ${bad}`,
    );
    expect(() => loadAuditPolicy(join(dir, 'absent.yaml'))).toThrow(`loading audit policy file: failed to read file path "${join(dir, 'absent.yaml')}": open ${join(dir, 'absent.yaml')}: no such file or directory`);
    expect(auditOptions({ auditLogPath: logFile })).toBeUndefined();
  });
});

suite('kubectl with an audit log', () => {
  let k: KubectlEnv;
  beforeAll(async () => {
    writeFileSync(policyFile, POLICY);
    writeFileSync(logFile, '');
    k = await startKubectlEnv(found.path!, { auth: { bootstrapPolicy: true }, audit: auditOptions({ auditPolicyFile: policyFile, auditLogPath: logFile }) });
  });
  afterAll(async () => {
    await k?.close();
  });

  it('get endpoints: a Metadata event marked k8s.io/deprecated, one JSON Event per line', async () => {
    const r = await k.kubectl(['get', 'endpoints', '-n', 'default']);
    expect(r.stderr).toContain('v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice');
    const [e] = await eventsWhere((e) => e.objectRef?.resource === 'endpoints' && e.verb === 'list');
    expect(e).toMatchObject({
      kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: 'Metadata', stage: 'ResponseComplete',
      requestURI: '/api/v1/namespaces/default/endpoints?limit=500', verb: 'list',
      user: { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] },
      sourceIPs: ['127.0.0.1'],
      objectRef: { resource: 'endpoints', namespace: 'default', apiVersion: 'v1' },
      responseStatus: { metadata: {}, code: 200 },
      annotations: { 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '', 'k8s.io/deprecated': 'true' },
    });
    expect(e.userAgent).toMatch(/^kubectl\.1\.33\/v1\.33\.\d+ |^kubectl\/v1\.33\.\d+ /);
    expect(e.auditID).toMatch(/^[0-9a-f-]{36}$/);
    expect(e.stageTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    for (const line of readFileSync(logFile, 'utf8').split('\n').filter(Boolean)) expect(() => JSON.parse(line)).not.toThrow();
  });

  it('a forbidden request (kubectl --as): decision forbid, the impersonated user, the 403 Status', async () => {
    const r = await k.kubectl(['get', 'secrets', '-n', 'default', '--as', 'jane'], { allowFail: true });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('User "jane" cannot list resource "secrets"');
    const [e] = await eventsWhere((e) => e.objectRef?.resource === 'secrets' && e.impersonatedUser?.username === 'jane');
    expect(e.user.username).toBe('kubernetes-admin');
    expect(e.impersonatedUser).toEqual({ username: 'jane', groups: ['system:authenticated'] });
    expect(e.annotations).toEqual({ 'authorization.k8s.io/decision': 'forbid', 'authorization.k8s.io/reason': '' });
    expect(e.responseStatus).toEqual({
      metadata: {}, status: 'Failure', reason: 'Forbidden', code: 403, details: { kind: 'secrets' },
      message: 'secrets is forbidden: User "jane" cannot list resource "secrets" in API group "" in the namespace "default"',
    });
  });

  it('RequestResponse for configmaps: create records the request and response objects', async () => {
    await k.kubectl(['create', 'configmap', 'audited', '-n', 'default', '--from-literal=k=v']);
    const [e] = await eventsWhere((e) => e.objectRef?.resource === 'configmaps' && e.verb === 'create');
    expect(e.level).toBe('RequestResponse');
    expect(e.objectRef).toEqual({ resource: 'configmaps', namespace: 'default', name: 'audited', apiVersion: 'v1' });
    expect(e.requestObject).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'audited' }, data: { k: 'v' } });
    expect(e.responseObject).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'audited', namespace: 'default' }, data: { k: 'v' } });
    expect((e.responseObject as { metadata: { uid: string } }).metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(e.responseStatus).toEqual({ metadata: {}, code: 201 });
  });

  it('a watch (kubectl get -w): ResponseStarted, then ResponseComplete when kubectl stops', async () => {
    const w = k.spawnKubectl(['get', 'configmaps', '-n', 'default', '-w']);
    const started = await eventsWhere((e) => e.verb === 'watch' && e.objectRef?.resource === 'configmaps' && e.stage === 'ResponseStarted');
    expect(started).toHaveLength(1);
    await w.stop();
    const done = await eventsWhere((e) => e.auditID === started[0].auditID && e.stage === 'ResponseComplete');
    expect(done).toHaveLength(1);
  });
});
