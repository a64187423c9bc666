// PodSecurity on the wire: enforce refuses pods with the real message, warn adds the real Warning header (also
// for workload resources, which are never refused), namespace labels are validated, and tightening a
// namespace's enforce level warns about the pods it already holds.
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/memory/memory-storage.js';
import { testClient, type TestClient } from '../testing/harness.js';

let c: TestClient;
beforeEach(async () => {
  c = await testClient(createMemoryStorage());
});

const label = (l: Record<string, string>) => ({ metadata: { labels: l } });
const ns = async (name: string, labels: Record<string, string>) => {
  const r = await c.req('POST', '/api/v1/namespaces', { metadata: { name, labels } });
  expect(r.status, r.text).toBe(201);
};
const pod = (name: string, spec: Record<string, unknown> = {}, container: Record<string, unknown> = {}) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx', ...container }], ...spec },
});
const RESTRICTED_OK = {
  securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
};
const CONTAINER_OK = { securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } };
const warning = (r: { headers: Headers }) => r.headers.get('warning');

describe('enforce', () => {
  it('restricted refuses a privileged pod with every violation, in the real order and words', async () => {
    await ns('secure', { 'pod-security.kubernetes.io/enforce': 'restricted' });
    const r = await c.req('POST', '/api/v1/namespaces/secure/pods', pod('x', { hostNetwork: true }, { securityContext: { privileged: true }, ports: [{ containerPort: 80, hostPort: 8080 }] }));
    expect(r.status).toBe(403);
    expect(r.body).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Forbidden', code: 403, details: { name: 'x', kind: 'pods' },
      message: 'pods "x" is forbidden: violates PodSecurity "restricted:latest": host namespaces (hostNetwork=true), hostPort (container "c" uses hostPort 8080), privileged (container "c" must not set securityContext.privileged=true), allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    });
    expect((await c.req('GET', '/api/v1/namespaces/secure/pods/x')).status).toBe(404);
  });

  it('restricted admits a pod that meets it; its warn level (defaulted to enforce) has nothing to say', async () => {
    await ns('secure', { 'pod-security.kubernetes.io/enforce': 'restricted' });
    const r = await c.req('POST', '/api/v1/namespaces/secure/pods', pod('ok', RESTRICTED_OK, CONTAINER_OK));
    expect(r.status, r.text).toBe(201);
    expect(warning(r)).toBeNull();
  });

  it('baseline: hostPath volumes, capabilities, sysctls, seLinux, procMount, AppArmor, seccomp Unconfined', async () => {
    await ns('base', { 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/enforce-version': 'v1.33' });
    const r = await c.req('POST', '/api/v1/namespaces/base/pods', pod('b', {
      volumes: [{ name: 'host', hostPath: { path: '/etc' } }],
      securityContext: { sysctls: [{ name: 'kernel.msgmax', value: '1' }], seccompProfile: { type: 'Unconfined' }, seLinuxOptions: { type: 'spc_t', user: 'root' } },
    }, { securityContext: { capabilities: { add: ['NET_ADMIN', 'SYS_TIME', 'CHOWN'] }, procMount: 'Unmasked', appArmorProfile: { type: 'Unconfined' } } }));
    expect(r.body.message).toBe('pods "b" is forbidden: violates PodSecurity "baseline:v1.33": forbidden AppArmor profile (container "c" must not set AppArmor profile type to "Unconfined"), non-default capabilities (container "c" must not include "NET_ADMIN", "SYS_TIME" in securityContext.capabilities.add), hostPath volumes (volume "host"), procMount (container "c" must not set securityContext.procMount to "Unmasked"), seLinuxOptions (pod set forbidden securityContext.seLinuxOptions: type "spc_t"; user may not be set), seccompProfile (pod must not set securityContext.seccompProfile.type to "Unconfined"), forbidden sysctls (kernel.msgmax)');
  });

  it('restricted: volume types, runAsUser=0, explicit runAsNonRoot=false, added capabilities', async () => {
    await ns('secure', { 'pod-security.kubernetes.io/enforce': 'restricted' });
    const r = await c.req('POST', '/api/v1/namespaces/secure/pods', pod('r', {
      volumes: [{ name: 'data', nfs: { server: 'nfs', path: '/x' } }, { name: 'cfg', configMap: { name: 'c' } }],
      securityContext: { runAsNonRoot: false, runAsUser: 0, seccompProfile: { type: 'RuntimeDefault' } },
    }, { securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE', 'NET_RAW'] } } }));
    expect(r.body.message).toBe('pods "r" is forbidden: violates PodSecurity "restricted:latest": unrestricted capabilities (container "c" must not include "NET_RAW" in securityContext.capabilities.add), restricted volume types (volume "data" uses restricted volume type "nfs"), runAsNonRoot != true (pod must not set securityContext.runAsNonRoot=false), runAsUser=0 (pod must not set runAsUser=0)');
  });

  it('namespaces without labels (and privileged ones) admit anything', async () => {
    const r = await c.req('POST', '/api/v1/namespaces/default/pods', pod('p', { hostPID: true }, { securityContext: { privileged: true } }));
    expect(r.status).toBe(201);
    expect(warning(r)).toBeNull();
  });
});

describe('warn', () => {
  it('a pod is admitted with the real warning', async () => {
    await ns('warned', { 'pod-security.kubernetes.io/warn': 'baseline' });
    const r = await c.req('POST', '/api/v1/namespaces/warned/pods', pod('p', {}, { securityContext: { privileged: true } }));
    expect(r.status).toBe(201);
    expect(warning(r)).toBe('299 - "would violate PodSecurity \\"baseline:latest\\": privileged (container \\"c\\" must not set securityContext.privileged=true)"');
  });

  it('workloads are warned about (with the enforce level as warn default), never refused', async () => {
    await ns('secure', { 'pod-security.kubernetes.io/enforce': 'restricted' });
    const dep = {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } },
    };
    const r = await c.req('POST', '/apis/apps/v1/namespaces/secure/deployments', dep);
    expect(r.status).toBe(201);
    expect(warning(r)).toBe('299 - "would violate PodSecurity \\"restricted:latest\\": allowPrivilegeEscalation != false (container \\"web\\" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container \\"web\\" must set securityContext.capabilities.drop=[\\"ALL\\"]), runAsNonRoot != true (pod or container \\"web\\" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container \\"web\\" must set securityContext.seccompProfile.type to \\"RuntimeDefault\\" or \\"Localhost\\")"');
    const cj = { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'cj' }, spec: { schedule: '* * * * *', jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', hostIPC: true, containers: [{ name: 'j', image: 'x', ...CONTAINER_OK }], ...RESTRICTED_OK } } } } } };
    const j = await c.req('POST', '/apis/batch/v1/namespaces/secure/cronjobs', cj);
    expect(j.status, j.text).toBe(201);
    expect(warning(j)).toBe('299 - "would violate PodSecurity \\"restricted:latest\\": host namespaces (hostIPC=true)"');
  });
});

describe('namespace labels', () => {
  it('an invalid level or version is refused with the real 422', async () => {
    const r = await c.req('POST', '/api/v1/namespaces', { metadata: { name: 'bad', labels: { 'pod-security.kubernetes.io/enforce': 'strict', 'pod-security.kubernetes.io/warn-version': '1.30' } } });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe('Namespace "bad" is invalid: [metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted, metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: "1.30": must be "latest" or "v1.x"]');
  });

  it('tightening enforce warns about the existing pods, grouped by violation', async () => {
    for (const name of ['a', 'b', 'c']) await c.req('POST', '/api/v1/namespaces/default/pods', pod(name, {}, { securityContext: { privileged: true } }));
    await c.req('POST', '/api/v1/namespaces/default/pods', pod('h', { hostNetwork: true }));
    const r = await c.req('PATCH', '/api/v1/namespaces/default', label({ 'pod-security.kubernetes.io/enforce': 'baseline' }), { 'Content-Type': 'application/merge-patch+json' });
    expect(r.status).toBe(200);
    expect(warning(r)).toBe([
      '299 - "existing pods in namespace \\"default\\" violate the new PodSecurity enforce level \\"baseline:latest\\""',
      '299 - "a (and 2 other pods): privileged"',
      '299 - "h: host namespaces"',
    ].join(', '));
    // a pod that violates it is refused from now on
    expect((await c.req('POST', '/api/v1/namespaces/default/pods', pod('d', {}, { securityContext: { privileged: true } }))).status).toBe(403);
    // loosening says nothing
    const back = await c.req('PATCH', '/api/v1/namespaces/default', label({ 'pod-security.kubernetes.io/enforce': 'privileged' }), { 'Content-Type': 'application/merge-patch+json' });
    expect(warning(back)).toBeNull();
  });
});
