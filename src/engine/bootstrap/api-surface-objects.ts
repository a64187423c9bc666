// Objects of a fresh v1.33 cluster that describe the API surface itself: the Local APIService of every
// built-in group version (the aggregator's autoregistration, with the priorities of kube-apiserver's
// apiVersionPriorities), the mandatory API Priority and Fairness objects (`exempt` and `catch-all`, from the
// apiserver's APF bootstrap; the suggested ones are not created here), and the default ServiceCIDR
// `kubernetes` (the service CIDR controller of the apiserver).

import type { Env } from '../env.js';
import type { JsonObject, KubeObject } from '../object.js';
import { objectKey } from '../registry/keys.js';
import { normalizeLayout } from '../registry/store.js';
import type { SeedObject } from './default-objects.js';

/** group/version -> [groupPriorityMinimum, versionPriority] of the GA group versions a v1.33 server serves. */
const PRIORITIES: [string, string, number, number][] = [
  ['', 'v1', 18000, 1],
  ['admissionregistration.k8s.io', 'v1', 16700, 15],
  ['apiextensions.k8s.io', 'v1', 16700, 15],
  ['apps', 'v1', 17800, 15],
  ['authentication.k8s.io', 'v1', 17700, 15],
  ['authorization.k8s.io', 'v1', 17600, 15],
  ['autoscaling', 'v1', 17500, 15],
  ['autoscaling', 'v2', 17500, 30],
  ['batch', 'v1', 17400, 15],
  ['certificates.k8s.io', 'v1', 17300, 15],
  ['coordination.k8s.io', 'v1', 16500, 15],
  ['discovery.k8s.io', 'v1', 16200, 15],
  ['events.k8s.io', 'v1', 17750, 15],
  ['flowcontrol.apiserver.k8s.io', 'v1', 16100, 21],
  ['networking.k8s.io', 'v1', 17200, 15],
  ['node.k8s.io', 'v1', 16300, 15],
  ['policy', 'v1', 17100, 15],
  ['rbac.authorization.k8s.io', 'v1', 17000, 15],
  ['scheduling.k8s.io', 'v1', 16600, 15],
  ['storage.k8s.io', 'v1', 16800, 15],
];

function entry(manager: string, apiVersion: string, time: string, fieldsV1: JsonObject, subresource?: string) {
  return { manager, operation: 'Update' as const, apiVersion, time, fieldsType: 'FieldsV1' as const, fieldsV1, ...(subresource ? { subresource } : {}) };
}

function apiServices(env: Env, time: string): SeedObject[] {
  const gv = 'apiregistration.k8s.io/v1';
  return PRIORITIES.map(([group, version, gp, vp]) => {
    const name = `${version}.${group}`;
    const spec: Record<string, unknown> = { version, groupPriorityMinimum: gp, versionPriority: vp };
    if (group) spec.group = group;
    const specFields: JsonObject = { 'f:groupPriorityMinimum': {}, 'f:version': {}, 'f:versionPriority': {} };
    if (group) specFields['f:group'] = {};
    const obj: KubeObject = {
      kind: 'APIService',
      apiVersion: gv,
      metadata: {
        name,
        uid: env.ids.uid(),
        creationTimestamp: time,
        labels: { 'kube-aggregator.kubernetes.io/automanaged': 'onstart' },
        managedFields: [
          entry('kube-apiserver', gv, time, { 'f:metadata': { 'f:labels': { '.': {}, 'f:kube-aggregator.kubernetes.io/automanaged': {} } }, 'f:spec': specFields }),
          entry('kube-apiserver', gv, time, { 'f:status': { 'f:conditions': { '.': {}, 'k:{"type":"Available"}': { '.': {}, 'f:lastTransitionTime': {}, 'f:message': {}, 'f:reason': {}, 'f:status': {}, 'f:type': {} } } } }, 'status'),
        ],
      },
      spec,
      status: { conditions: [{ type: 'Available', status: 'True', lastTransitionTime: time, reason: 'Local', message: 'Local APIServices are always available' }] },
    };
    return { key: objectKey('apiregistration.k8s.io', 'apiservices', '', name), object: normalizeLayout(obj) };
  });
}

const EVERYTHING = {
  resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] }],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
};

function flowControl(env: Env, time: string): SeedObject[] {
  const gv = 'flowcontrol.apiserver.k8s.io/v1';
  const meta = (name: string) => ({
    name,
    uid: env.ids.uid(),
    generation: 1,
    creationTimestamp: time,
    annotations: { 'apf.kubernetes.io/autoupdate-spec': 'true' },
  });
  const plc = (name: string, spec: Record<string, unknown>): SeedObject => ({
    key: objectKey('flowcontrol.apiserver.k8s.io', 'prioritylevelconfigurations', '', name),
    object: normalizeLayout({ kind: 'PriorityLevelConfiguration', apiVersion: gv, metadata: meta(name), spec, status: {} }),
  });
  const fs = (name: string, level: string, spec: Record<string, unknown>): SeedObject => ({
    key: objectKey('flowcontrol.apiserver.k8s.io', 'flowschemas', '', name),
    object: normalizeLayout({
      kind: 'FlowSchema',
      apiVersion: gv,
      metadata: meta(name),
      spec: { priorityLevelConfiguration: { name: level }, ...spec },
      status: {
        conditions: [{
          type: 'Dangling', status: 'False', lastTransitionTime: time, reason: 'Found',
          message: `This FlowSchema references the PriorityLevelConfiguration object named "${level}" and it exists`,
        }],
      },
    }),
  });
  return [
    plc('exempt', { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } }),
    plc('catch-all', { type: 'Limited', limited: { nominalConcurrencyShares: 5, lendablePercent: 0, limitResponse: { type: 'Reject' } } }),
    fs('exempt', 'exempt', { matchingPrecedence: 1, rules: [{ subjects: [{ kind: 'Group', group: { name: 'system:masters' } }], ...EVERYTHING }] }),
    fs('catch-all', 'catch-all', {
      matchingPrecedence: 10000,
      distinguisherMethod: { type: 'ByUser' },
      rules: [{ subjects: [{ kind: 'Group', group: { name: 'system:unauthenticated' } }, { kind: 'Group', group: { name: 'system:authenticated' } }], ...EVERYTHING }],
    }),
  ];
}

/** The service CIDR of the cluster (10.96.0.0/12, where the `kubernetes` Service's 10.96.0.1 comes from). */
export const SERVICE_CIDR = '10.96.0.0/12';

function defaultServiceCIDR(env: Env, time: string): SeedObject {
  return {
    key: objectKey('networking.k8s.io', 'servicecidrs', '', 'kubernetes'),
    object: normalizeLayout({
      kind: 'ServiceCIDR',
      apiVersion: 'networking.k8s.io/v1',
      metadata: { name: 'kubernetes', uid: env.ids.uid(), creationTimestamp: time },
      spec: { cidrs: [SERVICE_CIDR] },
      status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: time, reason: '', message: 'Kubernetes Service CIDR is ready' }] },
    }),
  };
}

export function apiSurfaceObjects(env: Env, time: string): SeedObject[] {
  return [...apiServices(env, time), ...flowControl(env, time), defaultServiceCIDR(env, time)];
}
