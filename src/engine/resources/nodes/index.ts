// Nodes (core v1): SetDefaults_NodeStatus, the main checks of ValidateNode, field selector
// spec.unschedulable, the node printer.

import { fieldErr, type FieldError } from '../../errors.js';
import type { KubeObject } from '../../object.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { isQualifiedName, isValidLabelValue } from '../../util/validation.js';
import { builtin } from '../factory.js';
import { a, ageColumn, col, o, str } from '../common/printers.js';

const EFFECTS = ['NoExecute', 'NoSchedule', 'PreferNoSchedule'];

function validateNode(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = o(obj.spec);
  a(spec.taints).forEach((t, i) => {
    const p = `spec.taints[${i}]`;
    for (const m of isQualifiedName(str(t.key))) errs.push(fieldErr.invalid(`${p}.key`, str(t.key), m));
    if (t.value !== undefined) for (const m of isValidLabelValue(str(t.value))) errs.push(fieldErr.invalid(`${p}.value`, str(t.value), m));
    if (!t.effect) errs.push(fieldErr.required(`${p}.effect`, ''));
    else if (!EFFECTS.includes(str(t.effect))) errs.push(fieldErr.notSupported(`${p}.effect`, t.effect, EFFECTS));
  });
  const cidrs = Array.isArray(spec.podCIDRs) ? (spec.podCIDRs as unknown[]).map(String) : [];
  cidrs.forEach((c, i) => {
    if (!/^[0-9a-fA-F.:]+\/[0-9]{1,3}$/.test(c)) errs.push(fieldErr.invalid(`spec.podCIDRs[${i}]`, c, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'));
  });
  if (spec.podCIDR && cidrs.length && spec.podCIDR !== cidrs[0]) {
    errs.push(fieldErr.invalid('spec.podCIDR', spec.podCIDR, 'must match first entry of podCIDRs'));
  }
  return errs;
}

/** The node's pod CIDRs as the internal type holds them (v1 podCIDR converts to a one-entry podCIDRs). */
function podCIDRsOf(spec: Record<string, unknown>): string[] {
  if (Array.isArray(spec.podCIDRs) && spec.podCIDRs.length) return (spec.podCIDRs as unknown[]).map(String);
  return typeof spec.podCIDR === 'string' && spec.podCIDR ? [spec.podCIDR] : [];
}

/** ValidateNodeUpdate: podCIDRs and providerID may go from unset to set only; externalID never changes. */
function validateNodeChange(obj: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = o(obj.spec);
  const prev = o(old.spec);
  const cidrs = podCIDRsOf(spec);
  const oldCidrs = podCIDRsOf(prev);
  const cidrMessage = 'node updates may not change podCIDR except from "" to valid';
  if (oldCidrs.length) {
    if (oldCidrs.length !== cidrs.length) errs.push(fieldErr.forbidden('spec.podCIDRs', cidrMessage));
    else oldCidrs.forEach((c, i) => {
      if (c !== cidrs[i]) errs.push(fieldErr.forbidden('spec.podCIDRs', cidrMessage));
    });
  }
  if (str(prev.providerID) && str(prev.providerID) !== str(spec.providerID)) {
    errs.push(fieldErr.forbidden('spec.providerID', 'node updates may not change providerID except from "" to valid'));
  }
  if (str(prev.externalID) !== str(spec.externalID)) errs.push(fieldErr.forbidden('spec.externalID', 'may not be updated'));
  return errs;
}

function nodeStatus(obj: KubeObject): string {
  const status: string[] = [];
  const ready = a(o(obj.status).conditions).find((c) => c.type === 'Ready');
  if (ready) status.push(ready.status === 'True' ? 'Ready' : 'NotReady');
  if (!status.length) status.push('Unknown');
  if (o(obj.spec).unschedulable === true) status.push('SchedulingDisabled');
  return status.join(',');
}

function nodeRoles(obj: KubeObject): string {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(obj.metadata?.labels ?? {})) {
    if (k.startsWith('node-role.kubernetes.io/')) {
      const role = k.slice('node-role.kubernetes.io/'.length);
      if (role) roles.add(role);
    } else if (k === 'kubernetes.io/role' && v) roles.add(v);
  }
  return [...roles].sort().join(',') || '<none>';
}

const address = (obj: KubeObject, type: string) => str(a(o(obj.status).addresses).find((x) => x.type === type)?.address) || '<none>';
const info = (obj: KubeObject, k: string) => str(o(o(obj.status).nodeInfo)[k]);

export const nodes = builtin('', 'v1', 'nodes', {
  // nodes allow every field, status included, to be set on create (nodeStrategy.PrepareForCreate)
  keepStatusOnCreate: true,
  default: (obj) => {
    const st = o(obj.status);
    if (obj.status !== undefined && st.allocatable === undefined && st.capacity !== undefined) st.allocatable = { ...o(st.capacity) };
  },
  validateObject: (obj) => validateNode(obj),
  validateChange: validateNodeChange,
  selectableFields: (obj) => ({ 'spec.unschedulable': o(obj.spec).unschedulable === true ? 'true' : 'false' }),
  tableColumns: [
    col('Status', 'string', 'The status of the node', (obj) => nodeStatus(obj)),
    col('Roles', 'string', 'The roles of the node', (obj) => nodeRoles(obj)),
    ageColumn(),
    col('Version', 'string', 'Deprecated: KubeletVersion reported by the node. For more information, see https://kubernetes.io/docs/concepts/node/node-status/#info', (obj) => info(obj, 'kubeletVersion')),
    col('Internal-IP', 'string', 'List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/reference/node/node-status/#addresses Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an example. Consumers should assume that addresses can change during the lifetime of a Node. However, there are some exceptions where this may not be possible, such as Pods that inherit a Node\'s address in its own status or consumers of the downward API (status.hostIP).', (obj) => address(obj, 'InternalIP'), 1),
    col('External-IP', 'string', 'List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/reference/node/node-status/#addresses Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an example. Consumers should assume that addresses can change during the lifetime of a Node. However, there are some exceptions where this may not be possible, such as Pods that inherit a Node\'s address in its own status or consumers of the downward API (status.hostIP).', (obj) => address(obj, 'ExternalIP'), 1),
    col('OS-Image', 'string', 'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).', (obj) => info(obj, 'osImage') || '<unknown>', 1),
    col('Kernel-Version', 'string', "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", (obj) => info(obj, 'kernelVersion') || '<unknown>', 1),
    col('Container-Runtime', 'string', 'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).', (obj) => info(obj, 'containerRuntimeVersion') || '<unknown>', 1),
  ],
}) satisfies ResourceDefinition;
