// Server-side apply on the real built-in Deployment schema (v1.33 definitions), with a stand-in for the
// server's defaulting: the managedFields of `kubectl create`, of `kubectl apply --server-side`, of a
// controller writing /status and of an autoscaler, as the real server records them.

import { describe, test } from 'vitest';
import type { KubeObject } from '../object.js';
import { builtins } from '../resources/generated/builtins.js';
import { apply, mf, runCase, scale, update, type Case, type SchemaSet } from './testing/fixture.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The SetDefaults_* the real server applies to a Deployment (the parts these cases touch). */
function defaultDeployment(o: KubeObject): void {
  const spec = (o.spec ??= {}) as Obj;
  spec.replicas ??= 1;
  spec.revisionHistoryLimit ??= 10;
  spec.progressDeadlineSeconds ??= 600;
  spec.strategy ??= {};
  spec.strategy.type ??= 'RollingUpdate';
  if (spec.strategy.type === 'RollingUpdate') {
    spec.strategy.rollingUpdate ??= {};
    spec.strategy.rollingUpdate.maxUnavailable ??= '25%';
    spec.strategy.rollingUpdate.maxSurge ??= '25%';
  }
  const pod = ((spec.template ??= {}).spec ??= {}) as Obj;
  pod.restartPolicy ??= 'Always';
  pod.terminationGracePeriodSeconds ??= 30;
  pod.dnsPolicy ??= 'ClusterFirst';
  pod.securityContext ??= {};
  pod.schedulerName ??= 'default-scheduler';
  for (const c of (pod.containers ?? []) as Obj[]) {
    c.terminationMessagePath ??= '/dev/termination-log';
    c.terminationMessagePolicy ??= 'File';
    c.imagePullPolicy ??= /:[^/]+$/.test(c.image) && !c.image.endsWith(':latest') ? 'IfNotPresent' : 'Always';
    c.resources ??= {};
    for (const p of (c.ports ?? []) as Obj[]) p.protocol ??= 'TCP';
  }
  o.status ??= {}; // a stored Deployment always has a status struct
}

const deployments: SchemaSet = {
  defs: builtins.definitions,
  roots: { default: { $ref: 'io.k8s.api.apps.v1.Deployment' } },
  apiVersion: 'apps/v1',
  defaulting: defaultDeployment,
};

const A = (m: string, at: number | undefined, f: Record<string, unknown>) => mf(m, 'Apply', at, f as never, 'apps/v1');
const U = (m: string, at: number | undefined, f: Record<string, unknown>, sub?: string) => mf(m, 'Update', at, f as never, 'apps/v1', sub);

function nginx(image: string, more: Obj = {}): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'nginx', namespace: 'default', labels: { app: 'nginx' } },
    spec: {
      ...more,
      selector: { matchLabels: { app: 'nginx' } },
      template: { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image }] } },
    },
  };
}

/** What `kubectl create deployment nginx --image=nginx` records. */
const kubectlCreateFields = (withImage: boolean) => ({
  'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
  'f:spec': {
    'f:progressDeadlineSeconds': {},
    'f:replicas': {},
    'f:revisionHistoryLimit': {},
    'f:selector': {},
    'f:strategy': { 'f:rollingUpdate': { '.': {}, 'f:maxSurge': {}, 'f:maxUnavailable': {} }, 'f:type': {} },
    'f:template': {
      'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
      'f:spec': {
        'f:containers': {
          'k:{"name":"nginx"}': {
            '.': {},
            ...(withImage ? { 'f:image': {} } : {}),
            'f:imagePullPolicy': {},
            'f:name': {},
            'f:resources': {},
            'f:terminationMessagePath': {},
            'f:terminationMessagePolicy': {},
          },
        },
        'f:dnsPolicy': {},
        'f:restartPolicy': {},
        'f:schedulerName': {},
        'f:securityContext': {},
        'f:terminationGracePeriodSeconds': {},
      },
    },
  },
});

function web(image: string, ports: Obj[], replicas?: number): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      ...(replicas === undefined ? {} : { replicas }),
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image, ports }] } },
    },
  };
}

const webFields = (ports: Record<string, unknown>, replicas: boolean) => ({
  'f:spec': {
    ...(replicas ? { 'f:replicas': {} } : {}),
    'f:selector': {},
    'f:template': {
      'f:metadata': { 'f:labels': { 'f:app': {} } },
      'f:spec': { 'f:containers': { 'k:{"name":"app"}': { '.': {}, 'f:image': {}, 'f:name': {}, 'f:ports': ports } } },
    },
  },
});
const port80 = { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:name': {} } };
const port443 = { 'k:{"containerPort":443,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:name': {} } };

const withStatus = (o: KubeObject): KubeObject => ({ ...o, status: { observedGeneration: 1, replicas: 2, readyReplicas: 2 } });
const withReplicas = (n: number) => (o: KubeObject): KubeObject => ({ ...o, spec: { ...(o.spec as Obj), replicas: n } });

const cases: Case[] = [
  {
    name: 'kubectl create: the creating Update owns every field it set, defaults included',
    ops: [update('kubectl-create', nginx('nginx'))],
    managed: [U('kubectl-create', 1, kubectlCreateFields(true))],
  },
  {
    name: 'kubectl apply --server-side over kubectl create: the changed image conflicts',
    ops: [
      update('kubectl-create', nginx('nginx')),
      apply('kubectl', nginx('nginx:1.27'), {
        error: {
          code: 409,
          message:
            'Apply failed with 1 conflict: conflict with "kubectl-create" using apps/v1: .spec.template.spec.containers[name="nginx"].image',
          causes: [
            {
              reason: 'FieldManagerConflict',
              message: 'conflict with "kubectl-create" using apps/v1',
              field: '.spec.template.spec.containers[name="nginx"].image',
            },
          ],
        },
      }),
    ],
    managed: [U('kubectl-create', 1, kubectlCreateFields(true))],
  },
  {
    name: 'kubectl apply --force-conflicts takes the image and shares the rest',
    ops: [update('kubectl-create', nginx('nginx')), apply('kubectl', nginx('nginx:1.27'), { force: true })],
    managed: [
      A('kubectl', 2, {
        'f:metadata': { 'f:labels': { 'f:app': {} } },
        'f:spec': {
          'f:selector': {},
          'f:template': {
            'f:metadata': { 'f:labels': { 'f:app': {} } },
            'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': { '.': {}, 'f:image': {}, 'f:name': {} } } },
          },
        },
      }),
      U('kubectl-create', 1, kubectlCreateFields(false)),
    ],
  },
  {
    name: 'apply, controller status, re-apply with a new port, autoscaler, conflict, give up replicas',
    ops: [
      apply('kubectl', web('nginx:1.25', [{ containerPort: 80, name: 'http' }], 2)),
      update('kube-controller-manager', withStatus, { subresource: 'status', resetFields: [['spec'], ['metadata', 'labels']] }),
      apply('kubectl', web('nginx:1.27', [{ containerPort: 80, name: 'http' }, { containerPort: 443, name: 'https' }], 2)),
      update('hpa', withReplicas(5), { resetFields: [['status']] }),
      apply('kubectl', web('nginx:1.27', [{ containerPort: 80, name: 'http' }, { containerPort: 443, name: 'https' }], 2), {
        error: { code: 409, message: 'Apply failed with 1 conflict: conflict with "hpa" using apps/v1: .spec.replicas' },
      }),
      apply('kubectl', web('nginx:1.27', [{ containerPort: 80, name: 'http' }, { containerPort: 443, name: 'https' }])),
    ],
    object: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        replicas: 5,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: {
            containers: [
              {
                name: 'app',
                image: 'nginx:1.27',
                ports: [
                  { containerPort: 80, name: 'http', protocol: 'TCP' },
                  { containerPort: 443, name: 'https', protocol: 'TCP' },
                ],
                terminationMessagePath: '/dev/termination-log',
                terminationMessagePolicy: 'File',
                imagePullPolicy: 'IfNotPresent',
                resources: {},
              },
            ],
            restartPolicy: 'Always',
            terminationGracePeriodSeconds: 30,
            dnsPolicy: 'ClusterFirst',
            securityContext: {},
            schedulerName: 'default-scheduler',
          },
        },
        revisionHistoryLimit: 10,
        progressDeadlineSeconds: 600,
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      },
      status: { observedGeneration: 1, replicas: 2, readyReplicas: 2 },
    },
    managed: [
      A('kubectl', 3, webFields({ ...port80, ...port443 }, false)),
      U('kube-controller-manager', 2, { 'f:status': { 'f:observedGeneration': {}, 'f:readyReplicas': {}, 'f:replicas': {} } }, 'status'),
      U('hpa', 4, { 'f:spec': { 'f:replicas': {} } }),
    ],
  },
  {
    name: 'a port applied without protocol is the defaulted TCP item on the next apply',
    ops: [
      apply('kubectl', web('nginx', [{ containerPort: 80, name: 'http' }])),
      apply('kubectl', web('nginx', [{ containerPort: 80, name: 'web' }])),
    ],
    managed: [A('kubectl', 2, webFields(port80, false))],
  },
  {
    name: 'a port dropped from the config is removed; an UDP port is a different item',
    ops: [
      apply('kubectl', web('nginx', [{ containerPort: 53, name: 'dns' }, { containerPort: 53, protocol: 'UDP', name: 'dnsu' }])),
      apply('kubectl', web('nginx', [{ containerPort: 53, protocol: 'UDP', name: 'dnsu' }])),
    ],
    managed: [
      A('kubectl', 2, webFields({ 'k:{"containerPort":53,"protocol":"UDP"}': { '.': {}, 'f:containerPort': {}, 'f:name': {}, 'f:protocol': {} } }, false)),
    ],
  },
  {
    name: 'reset to default: replicas dropped by its only applier is removed, then defaulted',
    ops: [apply('kubectl', web('nginx', [], 3)), apply('kubectl', web('nginx', []))],
    managed: [
      A('kubectl', 2, {
        'f:spec': {
          'f:selector': {},
          'f:template': { 'f:metadata': { 'f:labels': { 'f:app': {} } }, 'f:spec': { 'f:containers': { 'k:{"name":"app"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } },
        },
      }),
    ],
  },
  ...[1, 2].map((times): Case => ({
    name: `kubectl scale ${times === 1 ? 'once' : 'twice'}: one entry with subresource scale and no time owns replicas`,
    ops: [update('kubectl-create', nginx('nginx')), scale('kubectl', withReplicas(3)), ...(times === 2 ? [scale('kubectl', withReplicas(5))] : [])],
    managed: [
      { manager: 'kubectl', operation: 'Update', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } }, subresource: 'scale' },
      U('kubectl-create', 1, (() => {
        const f = kubectlCreateFields(true) as Obj;
        delete f['f:spec']['f:replicas'];
        return f;
      })()),
    ],
  })),
  {
    name: 'an autoscaler writing /scale takes replicas from the applier, who then conflicts',
    ops: [
      apply('kubectl', web('nginx', [], 2)),
      scale('hpa', withReplicas(4)),
      apply('kubectl', web('nginx', [], 2), {
        error: { code: 409, message: 'Apply failed with 1 conflict: conflict with "hpa" with subresource "scale" using apps/v1: .spec.replicas' },
      }),
    ],
    managed: [
      A('kubectl', 1, {
        'f:spec': {
          'f:selector': {},
          'f:template': { 'f:metadata': { 'f:labels': { 'f:app': {} } }, 'f:spec': { 'f:containers': { 'k:{"name":"app"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } },
        },
      }),
      { manager: 'hpa', operation: 'Update', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } }, subresource: 'scale' },
    ],
  },
];

describe('server-side apply (Deployment)', () => {
  for (const c of cases) test(c.name, () => runCase(c, deployments));
  test('replicas returns to the default after its applier drops it', () => {
    const o = runCase(cases.find((c) => c.name.startsWith('reset to default'))!, deployments)!;
    if ((o.spec as Obj).replicas !== 1) throw new Error(`replicas ${(o.spec as Obj).replicas}`);
  });
});
