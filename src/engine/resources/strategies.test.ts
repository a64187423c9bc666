import { describe, expect, it } from 'vitest';
import { fieldErrorString, invalid, isStatusError, type FieldError } from '../errors.js';
import type { Env } from '../env.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition, StrategyContext } from '../registry/types.js';
import { builtinResources } from './index.js';
import { mutatingPlugins, type AdmissionAttributes } from '../admission/index.js';

/**
 * The in-process mutating plugins that change objects, run synchronously as the store would run them (these
 * strategy tests have no namespaces for NamespaceLifecycle to find, and call no webhooks).
 */
const plugins = mutatingPlugins.filter((p) => p.name !== 'NamespaceLifecycle' && p.name !== 'MutatingAdmissionWebhook');
function mutatingAdmission(attrs: AdmissionAttributes, list: typeof plugins): void {
  for (const p of list) if (p.operations.includes(attrs.operation)) void p.admit(attrs);
}

const def = (group: string, plural: string, version = 'v1'): ResourceDefinition => {
  const d = builtinResources.find((r) => r.group === group && r.plural === plural && r.version === version);
  if (!d) throw new Error(plural);
  return d;
};

const NOW = Date.parse('2026-01-01T12:00:00Z');

function ctxWith(objects: Record<string, KubeObject[]> = {}, ints: number[] = [], subresource = ''): StrategyContext {
  let i = 0;
  const env: Env = {
    clock: { now: () => NOW },
    timers: { setTimeout: () => 0, clearTimeout: () => undefined },
    ids: { uid: () => 'uid-1', suffix: (n) => 'x'.repeat(n), int: (max) => (i < ints.length ? ints[i++] : 0) % max },
  };
  return { env, now: NOW, dryRun: false, subresource, list: (group, resource) => objects[`${group}/${resource}`] ?? [] };
}

/** What the generic store does on create: system fields, status reset, default, prepare, validate. */
function create(d: ResourceDefinition, input: KubeObject, ctx = ctxWith()): { obj: KubeObject; errors: string[] } {
  const obj: KubeObject = JSON.parse(JSON.stringify(input));
  obj.metadata = { ...(obj.metadata ?? {}), uid: 'uid-1', creationTimestamp: '2026-01-01T11:55:00Z' };
  if (d.namespaced && !obj.metadata.namespace) obj.metadata.namespace = 'default';
  if (d.subresources.status) obj.status = {};
  d.strategy.default?.(obj, ctx);
  mutatingAdmission({ operation: 'create', object: obj, oldObject: null, def: d, namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '', subresource: '', dryRun: false, ctx }, plugins);
  d.strategy.prepareForCreate?.(obj, ctx);
  const errs: FieldError[] = d.strategy.validate?.(obj, ctx) ?? [];
  return { obj, errors: errs.map(fieldErrorString) };
}

function update(d: ResourceDefinition, obj: KubeObject, old: KubeObject, ctx = ctxWith()): string[] {
  const next: KubeObject = JSON.parse(JSON.stringify(obj));
  next.metadata = { ...next.metadata, resourceVersion: '5' };
  d.strategy.default?.(next, ctx);
  mutatingAdmission({ operation: 'update', object: next, oldObject: old, def: d, namespace: next.metadata.namespace ?? '', name: next.metadata.name ?? '', subresource: ctx.subresource, dryRun: false, ctx }, plugins);
  d.strategy.prepareForUpdate?.(next, old, ctx);
  return (d.strategy.validateUpdate?.(next, old, ctx) ?? []).map(fieldErrorString);
}

const pod = (spec: Record<string, unknown>): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec });

describe('Pod defaulting and admission defaults', () => {
  it('fills the v1.33 defaults of a minimal pod', () => {
    const { obj, errors } = create(def('', 'pods'), pod({ containers: [{ name: 'app', image: 'nginx', ports: [{ containerPort: 80 }] }] }));
    expect(errors).toEqual([]);
    expect(obj.spec).toEqual({
      containers: [{
        name: 'app', image: 'nginx', ports: [{ containerPort: 80, protocol: 'TCP' }],
        imagePullPolicy: 'Always', resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File',
      }],
      enableServiceLinks: true,
      dnsPolicy: 'ClusterFirst',
      restartPolicy: 'Always',
      securityContext: {},
      terminationGracePeriodSeconds: 30,
      schedulerName: 'default-scheduler',
      priority: 0,
      preemptionPolicy: 'PreemptLowerPriority',
      tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ],
    });
    expect(obj.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
    expect(obj.metadata?.generation).toBe(1);
  });

  it('pull policy follows the image tag', () => {
    const policy = (image: string) => (create(def('', 'pods'), pod({ containers: [{ name: 'a', image }] })).obj.spec as { containers: { imagePullPolicy: string }[] }).containers[0].imagePullPolicy;
    expect(policy('nginx:1.27')).toBe('IfNotPresent');
    expect(policy('nginx:latest')).toBe('Always');
    expect(policy('registry.example.com:5000/team/app')).toBe('Always');
    expect(policy('nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef')).toBe('IfNotPresent');
  });

  it('requests default to limits and give the QoS class', () => {
    const { obj } = create(def('', 'pods'), pod({ containers: [{ name: 'a', image: 'x:1', resources: { limits: { cpu: '500m', memory: '128Mi' } } }] }));
    expect((obj.spec as { containers: { resources: unknown }[] }).containers[0].resources).toEqual({ limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '500m', memory: '128Mi' } });
    expect((obj.status as { qosClass: string }).qosClass).toBe('Guaranteed');
  });

  it('rejects missing images and duplicate container names with the real messages', () => {
    const { errors } = create(def('', 'pods'), pod({ containers: [{ name: 'a' }, { name: 'a', image: 'x' }] }));
    expect(errors).toEqual(['spec.containers[0].image: Required value', 'spec.containers[1].name: Duplicate value: "a"']);
    expect(create(def('', 'pods'), pod({ containers: [] })).errors).toEqual(['spec.containers: Required value']);
  });

  it('pod spec updates are limited to the mutable fields', () => {
    const d = def('', 'pods');
    const { obj: old } = create(d, pod({ containers: [{ name: 'a', image: 'x:1' }] }));
    old.metadata!.resourceVersion = '4';
    const imageChange = JSON.parse(JSON.stringify(old));
    imageChange.spec.containers[0].image = 'x:2';
    expect(update(d, imageChange, old)).toEqual([]);
    const bad = JSON.parse(JSON.stringify(old));
    bad.spec.restartPolicy = 'Never';
    const errs = update(d, bad, old);
    expect(errs).toHaveLength(1);
    expect(errs[0]).toMatch(/^spec: Forbidden: pod updates may not change fields other than `spec.containers\[\*\].image`,`spec.initContainers\[\*\].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` \(only additions to existing tolerations\),`spec.terminationGracePeriodSeconds` \(allow it to be set to 1 if it was previously negative\)\n/);
  });

  it('exposes the pod field selectors and table cells', () => {
    const d = def('', 'pods');
    const { obj } = create(d, pod({ nodeName: 'n1', containers: [{ name: 'a', image: 'x' }] }));
    expect(d.strategy.selectableFields!(obj)).toMatchObject({ 'spec.nodeName': 'n1', 'status.phase': 'Pending', 'spec.restartPolicy': 'Always', 'spec.hostNetwork': 'false' });
    const cells = d.tableColumns!.map((c) => c.cell(obj, { now: NOW }));
    expect(d.tableColumns!.map((c) => c.name)).toEqual(['Ready', 'Status', 'Restarts', 'Age', 'IP', 'Node', 'Nominated Node', 'Readiness Gates']);
    expect(cells).toEqual(['0/1', 'Pending', '0', '5m', '<none>', 'n1', '<none>', '<none>']);
  });

  it('an unknown priority class is forbidden', () => {
    try {
      create(def('', 'pods'), pod({ priorityClassName: 'gold', containers: [{ name: 'a', image: 'x' }] }));
      throw new Error('expected an error');
    } catch (e) {
      expect(isStatusError(e) && e.status.code).toBe(403);
      expect(isStatusError(e) && e.status.message).toBe('pods "p" is forbidden: no PriorityClass with name gold was found');
    }
  });
});

const deployment = (extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
  spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } }, ...extra },
});

describe('apps/v1 defaulting and validation', () => {
  it('Deployment defaults', () => {
    const { obj, errors } = create(def('apps', 'deployments'), deployment());
    expect(errors).toEqual([]);
    const spec = obj.spec as Record<string, unknown>;
    expect(spec.replicas).toBe(1);
    expect(spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } });
    expect(spec.revisionHistoryLimit).toBe(10);
    expect(spec.progressDeadlineSeconds).toBe(600);
    expect((spec.template as Record<string, unknown>).metadata).toEqual({ labels: { app: 'web' }, creationTimestamp: null });
    // ObjectMeta keys keep the Go struct order
    expect(Object.keys((spec.template as { metadata: object }).metadata)).toEqual(['creationTimestamp', 'labels']);
    expect((spec.template as { spec: Record<string, unknown> }).spec).toEqual({
      containers: [{ name: 'nginx', image: 'nginx:1.27', imagePullPolicy: 'IfNotPresent', resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' }],
      restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst', securityContext: {}, schedulerName: 'default-scheduler',
    });
  });

  it('selector must match the template labels (exact message)', () => {
    const d = def('apps', 'deployments');
    const { errors } = create(d, deployment({ selector: { matchLabels: { app: 'other' } } }));
    expect(errors).toEqual(['spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`']);
    const e = invalid({ group: 'apps', kind: 'Deployment' }, 'web', create(d, deployment({ selector: undefined })).obj && [{ type: 'FieldValueRequired', field: 'spec.selector', detail: '' }]);
    expect(e.status.message).toBe('Deployment.apps "web" is invalid: spec.selector: Required value');
  });

  it("the rendered map quotes its strings as Go's %#v does (strconv.Quote, not JSON)", () => {
    const dep = deployment({ selector: { matchLabels: { app: 'other' } } });
    (dep.spec as { template: { metadata: { labels: Record<string, string> } } }).template.metadata.labels = { app: 'we\u00adb\x01\u2028' };
    const { errors } = create(def('apps', 'deployments'), dep);
    expect(errors).toContain('spec.template.metadata.labels: Invalid value: map[string]string{"app":"we\\u00adb\\x01\\u2028"}: `selector` does not match template `labels`');
  });

  it('restartPolicy must be Always in controller templates', () => {
    const dep = deployment();
    (dep.spec as { template: { spec: Record<string, unknown> } }).template.spec.restartPolicy = 'Never';
    expect(create(def('apps', 'deployments'), dep).errors).toEqual(['spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"']);
  });

  it('the selector is immutable', () => {
    const d = def('apps', 'deployments');
    const { obj: old } = create(d, deployment());
    const next = deployment({ selector: { matchLabels: { app: 'web2' } } });
    (next.spec as { template: { metadata: { labels: Record<string, string> } } }).template.metadata.labels = { app: 'web2' };
    next.metadata = { ...old.metadata };
    expect(update(d, next, old)).toEqual([
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web2"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
    ]);
  });

  it('maxUnavailable and maxSurge may not both be 0', () => {
    const { errors } = create(def('apps', 'deployments'), deployment({ strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } } }));
    expect(errors).toEqual(['spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: may not be 0 when `maxSurge` is 0']);
  });

  it('StatefulSet and DaemonSet defaults', () => {
    const sts = create(def('apps', 'statefulsets'), { ...deployment(), kind: 'StatefulSet', spec: { ...(deployment().spec as object), serviceName: 'web', volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }] } });
    expect(sts.errors).toEqual([]);
    const s = sts.obj.spec as Record<string, unknown>;
    expect(s.podManagementPolicy).toBe('OrderedReady');
    expect(s.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
    expect(s.persistentVolumeClaimRetentionPolicy).toEqual({ whenDeleted: 'Retain', whenScaled: 'Retain' });
    expect(s.replicas).toBe(1);
    expect(s.revisionHistoryLimit).toBe(10);
    expect(s.volumeClaimTemplates).toEqual([{
      metadata: { name: 'data', creationTimestamp: null }, apiVersion: 'v1', kind: 'PersistentVolumeClaim',
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' }, status: { phase: 'Pending' },
    }]);
    const ds = create(def('apps', 'daemonsets'), { ...deployment(), kind: 'DaemonSet' });
    expect((ds.obj.spec as Record<string, unknown>).updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
    expect((ds.obj.spec as Record<string, unknown>).revisionHistoryLimit).toBe(10);
  });

  it('StatefulSet spec updates are limited', () => {
    const d = def('apps', 'statefulsets');
    const { obj: old } = create(d, { ...deployment(), kind: 'StatefulSet', spec: { ...(deployment().spec as object), serviceName: 'web' } });
    const next = JSON.parse(JSON.stringify(old));
    next.spec.serviceName = 'other';
    expect(update(d, next, old)).toEqual([
      "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ]);
  });

  it('deployment table cells', () => {
    const d = def('apps', 'deployments');
    const { obj } = create(d, deployment());
    obj.status = { readyReplicas: 1, updatedReplicas: 1, availableReplicas: 1 };
    expect(d.tableColumns!.map((c) => [c.name, c.cell(obj, { now: NOW })])).toEqual([
      ['Ready', '1/1'], ['Up-to-date', 1], ['Available', 1], ['Age', '5m'], ['Containers', 'nginx'], ['Images', 'nginx:1.27'], ['Selector', 'app=web'],
    ]);
  });
});

describe('batch/v1', () => {
  const job: KubeObject = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'pi' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'pi', image: 'perl:5.34' }] } } } };

  it('Job defaults and the generated selector from the uid', () => {
    const { obj, errors } = create(def('batch', 'jobs'), job);
    expect(errors).toEqual([]);
    const spec = obj.spec as Record<string, unknown>;
    expect(spec).toMatchObject({ completions: 1, parallelism: 1, backoffLimit: 6, completionMode: 'NonIndexed', suspend: false, podReplacementPolicy: 'TerminatingOrFailed', manualSelector: false });
    expect(spec.selector).toEqual({ matchLabels: { 'batch.kubernetes.io/controller-uid': 'uid-1' } });
    expect((spec.template as { metadata: unknown }).metadata).toEqual({
      creationTimestamp: null,
      labels: { 'batch.kubernetes.io/controller-uid': 'uid-1', 'batch.kubernetes.io/job-name': 'pi', 'controller-uid': 'uid-1', 'job-name': 'pi' },
    });
  });

  it('Job restartPolicy must be OnFailure or Never', () => {
    const j = JSON.parse(JSON.stringify(job));
    delete j.spec.template.spec.restartPolicy;
    expect(create(def('batch', 'jobs'), j).errors).toEqual(['spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"']);
  });

  it('CronJob defaults', () => {
    const { obj, errors } = create(def('batch', 'cronjobs'), { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'c' }, spec: { schedule: '*/5 * * * *', jobTemplate: { spec: job.spec } } });
    expect(errors).toEqual([]);
    expect(obj.spec).toMatchObject({ concurrencyPolicy: 'Allow', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1 });
    expect((obj.spec as { jobTemplate: { metadata: unknown } }).jobTemplate.metadata).toEqual({ creationTimestamp: null });
    expect(create(def('batch', 'cronjobs'), { metadata: { name: 'c' }, spec: { schedule: 'bad', jobTemplate: { spec: job.spec } } }).errors).toEqual([
      'spec.schedule: Invalid value: "bad": expected exactly 5 fields, found 1: [bad]',
    ]);
  });
});

describe('Services', () => {
  const svc = (spec: Record<string, unknown>): KubeObject => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }], ...spec } });

  it('defaults and allocates a cluster IP from 10.96.0.0/12', () => {
    const { obj, errors } = create(def('', 'services'), svc({}), ctxWith({}, [12345]));
    expect(errors).toEqual([]);
    expect(obj.spec).toEqual({
      selector: { app: 'web' },
      ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
      sessionAffinity: 'None',
      type: 'ClusterIP',
      internalTrafficPolicy: 'Cluster',
      clusterIP: '10.96.49.58',
      clusterIPs: ['10.96.49.58'],
      ipFamilyPolicy: 'SingleStack',
      ipFamilies: ['IPv4'],
    });
    expect(obj.status).toEqual({ loadBalancer: {} });
  });

  it('a requested IP that is taken is rejected with the real message', () => {
    const existing = { metadata: { name: 'dns', namespace: 'kube-system', uid: 'u0' }, spec: { clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.10'] } };
    try {
      create(def('', 'services'), svc({ clusterIP: '10.96.0.10' }), ctxWith({ '/services': [existing] }));
      throw new Error('expected an error');
    } catch (e) {
      expect(isStatusError(e) && e.status.code).toBe(422);
      expect(isStatusError(e) && e.status.message).toBe('Service "web" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.0.10"}: failed to allocate IP 10.96.0.10: provided IP is already allocated');
    }
  });

  it('allocates node ports for NodePort services and keeps headless services', () => {
    const { obj } = create(def('', 'services'), svc({ type: 'NodePort' }), ctxWith({}, [7, 100]));
    expect((obj.spec as { ports: { nodePort: number }[] }).ports[0].nodePort).toBe(30100);
    expect((obj.spec as Record<string, unknown>).externalTrafficPolicy).toBe('Cluster');
    const headless = create(def('', 'services'), svc({ clusterIP: 'None' })).obj.spec as Record<string, unknown>;
    expect(headless).toMatchObject({ clusterIP: 'None', clusterIPs: ['None'], ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4'] });
  });

  it('validates names as DNS-1035 labels and keeps the cluster IP on update', () => {
    const d = def('', 'services');
    expect(create(d, { ...svc({}), metadata: { name: '1web' } }).errors[0]).toMatch(/^metadata.name: Invalid value: "1web": a DNS-1035 label must consist of lower case alphanumeric characters/);
    const { obj: old } = create(d, svc({}), ctxWith({}, [5]));
    const next = JSON.parse(JSON.stringify(old));
    delete next.spec.clusterIP;
    delete next.spec.clusterIPs;
    expect(update(d, next, old)).toEqual([]);
    next.spec.clusterIP = '10.96.0.99';
    next.spec.clusterIPs = ['10.96.0.99'];
    expect(update(d, next, old)).toEqual(['spec.clusterIPs[0]: Invalid value: []string{"10.96.0.99"}: may not change once set']);
  });

  it('table cells', () => {
    const d = def('', 'services');
    const { obj } = create(d, svc({ type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }));
    expect(d.tableColumns!.map((c) => c.cell(obj, { now: NOW }))).toEqual(['NodePort', (obj.spec as { clusterIP: string }).clusterIP, '<none>', '80:30080/TCP', '5m', 'app=web']);
  });
});

describe('other core kinds', () => {
  it('Namespace: label, finalizer, phase; DNS-1123 label names', () => {
    const d = def('', 'namespaces');
    const { obj, errors } = create(d, { metadata: { name: 'team-a' } });
    expect(errors).toEqual([]);
    expect(obj.metadata?.labels).toEqual({ 'kubernetes.io/metadata.name': 'team-a' });
    expect(obj.spec).toEqual({ finalizers: ['kubernetes'] });
    expect(obj.status).toEqual({ phase: 'Active' });
    expect(create(d, { metadata: { name: 'a.b' } }).errors).toEqual(['metadata.name: Invalid value: "a.b": must not contain dots']);
    expect(d.strategy.selectableFields!(obj)).toEqual({ 'status.phase': 'Active' });
  });

  it('Secret: type Opaque, stringData folded into data', () => {
    const { obj } = create(def('', 'secrets'), { metadata: { name: 's' }, stringData: { password: 'héllo' } });
    expect(obj.type).toBe('Opaque');
    expect(obj.data).toEqual({ password: 'aMOpbGxv' });
    expect(obj.stringData).toBeUndefined();
    expect(create(def('', 'secrets'), { metadata: { name: 't' }, type: 'kubernetes.io/tls', data: {} }).errors).toEqual(['data[tls.crt]: Required value', 'data[tls.key]: Required value']);
  });

  it('ConfigMap keys and immutability', () => {
    const d = def('', 'configmaps');
    expect(create(d, { metadata: { name: 'c' }, data: { 'a b': 'x' } }).errors).toEqual([
      `data[a b]: Invalid value: "a b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
    ]);
    const { obj: old } = create(d, { metadata: { name: 'c' }, data: { a: '1' }, immutable: true });
    expect(update(d, { ...old, data: { a: '2' } }, old)).toEqual(['data: Forbidden: field is immutable when `immutable` is set']);
  });

  it('PV and PVC defaults', () => {
    const pv = create(def('', 'persistentvolumes'), { metadata: { name: 'pv1' }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' } } });
    expect(pv.errors).toEqual([]);
    expect(pv.obj.spec).toMatchObject({ persistentVolumeReclaimPolicy: 'Retain', volumeMode: 'Filesystem' });
    expect(pv.obj.status).toEqual({ phase: 'Pending', lastPhaseTransitionTime: '2026-01-01T12:00:00Z' });
    const pvc = create(def('', 'persistentvolumeclaims'), { metadata: { name: 'c' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } });
    expect(pvc.errors).toEqual([]);
    expect(pvc.obj.spec).toMatchObject({ volumeMode: 'Filesystem' });
    expect(pvc.obj.status).toEqual({ phase: 'Pending' });
  });

  it('cluster-scoped kinds forbid a namespace', () => {
    expect(create(def('', 'nodes'), { metadata: { name: 'n1', namespace: 'x' } }).errors).toEqual(['metadata.namespace: Forbidden: not allowed on this type']);
  });

  it('RBAC: path-segment names and roleRef immutability', () => {
    const d = def('rbac.authorization.k8s.io', 'rolebindings');
    const rb = { metadata: { name: 'rb' }, roleRef: { kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'jane' }] };
    const { obj, errors } = create(d, rb);
    expect(errors).toEqual([]);
    expect(obj.roleRef).toEqual({ kind: 'ClusterRole', name: 'view', apiGroup: 'rbac.authorization.k8s.io' });
    expect((obj.subjects as unknown[])[0]).toEqual({ kind: 'User', name: 'jane', apiGroup: 'rbac.authorization.k8s.io' });
    expect(update(d, { ...obj, roleRef: { ...(obj.roleRef as object), name: 'edit' } }, obj)).toEqual([
      'roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef',
    ]);
    expect(create(def('rbac.authorization.k8s.io', 'roles'), { metadata: { name: 'a:b' }, rules: [{ verbs: [] }] }).errors).toEqual([
      'rules[0].verbs: Required value: verbs must contain at least one value',
      'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
      'rules[0].resources: Required value: resource rules must supply at least one resource',
    ]);
  });

  it('CRD: stored versions and the name rule', () => {
    const d = def('apiextensions.k8s.io', 'customresourcedefinitions');
    const crd = { metadata: { name: 'widgets.example.com' }, spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }] } };
    const { obj, errors } = create(d, crd);
    expect(errors).toEqual([]);
    expect((obj.spec as { names: unknown }).names).toEqual({ plural: 'widgets', kind: 'Widget', singular: 'widget', listKind: 'WidgetList' });
    expect(obj.status).toEqual({ storedVersions: ['v1'], acceptedNames: { kind: '', plural: '' } });
    expect(create(d, { ...crd, metadata: { name: 'foo' } }).errors).toEqual(['metadata.name: Invalid value: "foo": must be spec.names.plural+"."+spec.group']);
  });
});

describe('zero-valued status fields and smaller kinds', () => {
  it('status fields without omitempty serialize as 0', () => {
    const rs = create(def('apps', 'replicasets'), { ...deployment(), kind: 'ReplicaSet' });
    expect(rs.errors).toEqual([]);
    expect(rs.obj.status).toEqual({ replicas: 0 });
    const ds = create(def('apps', 'daemonsets'), { ...deployment(), kind: 'DaemonSet' });
    expect(ds.obj.status).toEqual({ currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 });
  });

  it('Ingress paths need a pathType', () => {
    const ing = { metadata: { name: 'i' }, spec: { rules: [{ host: 'example.com', http: { paths: [{ path: '/', backend: { service: { name: 'web', port: { number: 80 } } } }] } }] } };
    expect(create(def('networking.k8s.io', 'ingresses'), ing).errors).toEqual(['spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified']);
  });

  it('v1 Events follow the legacy rules', () => {
    const ev = { metadata: { name: 'e', namespace: 'default' }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'other' }, reason: 'Started' };
    expect(create(def('', 'events'), ev).errors).toEqual(['involvedObject.namespace: Invalid value: "other": does not match event.namespace']);
    const v1 = create(def('events.k8s.io', 'events'), { metadata: { name: 'e', namespace: 'default' }, regarding: { kind: 'Pod', name: 'p', namespace: 'default' }, type: 'Normal' });
    expect(v1.errors).toEqual(['eventTime: Required value']);
  });

  it('Endpoints carry the v1.33 deprecation warning text', () => {
    expect(def('', 'endpoints').deprecated).toBe('v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice');
  });
});

describe('every built-in strategy copes with sparse and odd input', () => {
  const inputs: unknown[] = [{}, { spec: null }, { spec: {}, status: null }, { spec: { template: null, containers: 'x', ports: 5 } }, { data: 5, rules: 'x', subsets: [1] }];
  for (const d of builtinResources) {
    it(`${d.plural}.${d.group || 'core'}/${d.version}`, () => {
      for (const input of inputs) {
        const obj = { ...(input as object), metadata: { name: 'x' } } as KubeObject;
        try {
          const { obj: created } = create(d, obj, ctxWith({}, [1, 2, 3]));
          update(d, created, { ...created, metadata: { ...created.metadata, resourceVersion: '1' } });
          d.strategy.selectableFields?.(created);
          for (const c of d.tableColumns ?? []) c.cell(created, { now: NOW });
        } catch (e) {
          // 4xx StatusErrors are acceptable outcomes; crashes are not
          if (!isStatusError(e)) throw e;
        }
      }
    });
  }
});

describe('warnings', () => {
  it('pods and templates warn about deprecated node labels, duplicate env vars and ports', () => {
    const d = def('', 'pods');
    const p = pod({ nodeSelector: { 'beta.kubernetes.io/os': 'linux' }, containers: [{ name: 'a', image: 'x', env: [{ name: 'A', value: '1' }, { name: 'A', value: '2' }], ports: [{ containerPort: 80 }, { containerPort: 80 }] }] });
    const { obj } = create(d, p);
    expect(d.strategy.warningsOnCreate!(obj, ctxWith())).toEqual([
      'spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead',
      'spec.containers[0].env[1]: hides previous definition of "A", which may be dropped when using apply',
      'spec.containers[0].ports[1]: duplicate port definition with spec.containers[0].ports[0]',
    ]);
    expect(d.strategy.warningsOnUpdate!(obj, obj, ctxWith())).toEqual([]);
    const dep = def('apps', 'deployments');
    const withSel = deployment();
    (withSel.spec as { template: { spec: Record<string, unknown> } }).template.spec.nodeSelector = { 'failure-domain.beta.kubernetes.io/zone': 'a' };
    expect(dep.strategy.warningsOnCreate!(create(dep, withSel).obj, ctxWith())).toEqual([
      'spec.template.spec.nodeSelector[failure-domain.beta.kubernetes.io/zone]: deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
    ]);
  });
});

describe('pod container checks', () => {
  it('probes need one handler; resources may not be negative', () => {
    const { errors } = create(def('', 'pods'), pod({ containers: [{ name: 'a', image: 'x', livenessProbe: { periodSeconds: 5 }, resources: { requests: { cpu: '-1' } } }] }));
    expect(errors).toEqual([
      'spec.containers[0].livenessProbe: Required value: must specify a handler type',
      'spec.containers[0].resources.requests[cpu]: Invalid value: "-1": must be greater than or equal to 0',
    ]);
  });
});

describe('workload names', () => {
  it('warn when a workload name is not a DNS label; StatefulSet names must be one', () => {
    const d = def('apps', 'deployments');
    const { obj } = create(d, { ...deployment(), metadata: { name: 'web.v2' } });
    expect(d.strategy.warningsOnCreate!(obj, ctxWith())[0]).toBe(
      'metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]',
    );
    const sts = create(def('apps', 'statefulsets'), { ...deployment(), kind: 'StatefulSet', metadata: { name: 'db.v2' } });
    expect(sts.errors).toEqual(['metadata.name: Invalid value: "db.v2": must not contain dots']);
  });
});

describe('LimitRanger admission on pods', () => {
  it('applies the namespace defaults and annotates the pod', () => {
    const lrDef = def('', 'limitranges');
    const { obj: lr } = create(lrDef, { metadata: { name: 'lr', namespace: 'default' }, spec: { limits: [{ type: 'Container', default: { cpu: '500m' }, defaultRequest: { memory: '64Mi' } }] } });
    expect((lr.spec as { limits: unknown[] }).limits[0]).toEqual({ type: 'Container', default: { cpu: '500m' }, defaultRequest: { memory: '64Mi', cpu: '500m' } });
    const { obj } = create(def('', 'pods'), pod({ containers: [{ name: 'app', image: 'x' }] }), ctxWith({ '/limitranges': [lr] }));
    expect((obj.spec as { containers: { resources: unknown }[] }).containers[0].resources).toEqual({ limits: { cpu: '500m' }, requests: { memory: '64Mi', cpu: '500m' } });
    expect(obj.metadata?.annotations).toEqual({ 'kubernetes.io/limit-ranger': 'LimitRanger plugin set: cpu, memory request for container app; cpu limit for container app' });
    expect((obj.status as { qosClass: string }).qosClass).toBe('Burstable');
  });
});

describe('Job labels', () => {
  it('a job without labels gets its template labels, generated ones included', () => {
    const job = { metadata: { name: 'pi' }, spec: { template: { metadata: { labels: { app: 'pi' } }, spec: { restartPolicy: 'Never', containers: [{ name: 'pi', image: 'perl' }] } } } };
    const { obj } = create(def('batch', 'jobs'), job);
    expect(obj.metadata?.labels).toEqual({ app: 'pi', 'batch.kubernetes.io/controller-uid': 'uid-1', 'batch.kubernetes.io/job-name': 'pi', 'controller-uid': 'uid-1', 'job-name': 'pi' });
  });
});

describe('quantities read back canonical', () => {
  it('pod and template resources, PVC requests', () => {
    const { obj } = create(def('', 'pods'), pod({ containers: [{ name: 'a', image: 'x', resources: { requests: { cpu: 0.5, memory: '1.5Gi' }, limits: { cpu: '1000m' } } }] }));
    expect((obj.spec as { containers: { resources: unknown }[] }).containers[0].resources).toEqual({ requests: { cpu: '500m', memory: '1536Mi' }, limits: { cpu: '1' } });
    const dep = deployment();
    (dep.spec as { template: { spec: { containers: Record<string, unknown>[] } } }).template.spec.containers[0].resources = { limits: { memory: '2000Mi', cpu: 2 } };
    const d = create(def('apps', 'deployments'), dep).obj;
    expect((d.spec as { template: { spec: { containers: { resources: unknown }[] } } }).template.spec.containers[0].resources).toEqual({ limits: { memory: '2000Mi', cpu: '2' } });
    const pvc = create(def('', 'persistentvolumeclaims'), { metadata: { name: 'c' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1000M' } } } }).obj;
    expect((pvc.spec as { resources: unknown }).resources).toEqual({ requests: { storage: '1G' } });
  });
});

describe('status subresource checks', () => {
  it('deployment status counters', () => {
    const d = def('apps', 'deployments');
    const { obj } = create(d, deployment());
    const next = { ...obj, status: { replicas: 1, readyReplicas: 2, availableReplicas: -1 } };
    expect(update(d, next, obj, ctxWith({}, [], 'status'))).toEqual([
      'status.availableReplicas: Invalid value: -1: must be greater than or equal to 0',
      'status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas',
    ]);
  });
});
