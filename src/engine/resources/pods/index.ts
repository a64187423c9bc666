// Pods: SetDefaults_Pod/_PodSpec, the pod strategy's PrepareForCreate (status Pending + QoS class),
// ValidatePodCreate/Update (main checks), field selectors and the kubectl table.

import { rfc3339 } from '../../env.js';
import { fieldErr, forbidden, type FieldError } from '../../errors.js';
import { isPlainObject, type KubeObject } from '../../object.js';
import type { ResourceDefinition, StrategyContext } from '../../registry/types.js';
import { builtin } from '../factory.js';
import { preparePodSubresource, validatePodSubresourceChange } from './subresources.js';
import { canonicalJSON } from '../common/json.js';
import { nameWarning } from '../common/template-warnings.js';
import { defaultPod, newWarnings, podQOS, podWarnings, validatePodSpec, validatePodSpecUpdate } from '../common/pod.js';
import { a, ageColumn, col, int, o, since, str } from '../common/printers.js';

type Obj = Record<string, unknown>;

function podPrepareForCreate(pod: KubeObject, ctx: StrategyContext): void {
  if (!isPlainObject(pod.spec)) pod.spec = {};
  const spec = pod.spec as Obj;
  // mutating admission (src/engine/admission: LimitRanger, Priority, ...) has run before this, as in the
  // real server, so the QoS class sees its effects
  const status: Obj = { phase: 'Pending', qosClass: podQOS(spec) };
  // a pod that still has scheduling gates carries PodScheduled=False/SchedulingGated
  if (Array.isArray(spec.schedulingGates) && spec.schedulingGates.length) {
    status.conditions = [{ type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime: rfc3339(ctx.now), reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates' }];
  }
  pod.status = status;
  // v1.33 populates metadata.generation for pods (1 on create, +1 per spec change)
  (pod.metadata ??= {}).generation = 1;
}

/**
 * The v1 PodStatus conversion keeps podIP/podIPs (and hostIP/hostIPs) in step: a single address given
 * fills the list, a single address that differs from the list's first wins over the list (older kubelets
 * write only podIP), and the single field always reads as the list's first address.
 */
function mirrorIPs(pod: KubeObject): void {
  if (!isPlainObject(pod.status)) return;
  const st = pod.status as Obj;
  for (const [one, many] of [['podIP', 'podIPs'], ['hostIP', 'hostIPs']] as const) {
    const single = str(st[one]);
    const list = a(st[many]);
    if (single && (!list.length || str(list[0].ip) !== single)) st[many] = [{ ip: single }];
    const first = a(st[many])[0];
    // written only when it differs (copy-on-write: the stored status may be shared, frozen)
    if (first && str(first.ip) && st[one] !== str(first.ip)) st[one] = str(first.ip);
  }
}

function validatePod(pod: KubeObject): FieldError[] {
  const errs = validatePodSpec(pod.spec, 'spec', { isPod: true });
  const spec = o(pod.spec);
  if (Array.isArray(spec.schedulingGates) && spec.schedulingGates.length && spec.nodeName) {
    errs.push(fieldErr.forbidden('spec.nodeName', 'cannot be set until all schedulingGates have been cleared'));
  }
  return errs;
}

/** The pod printer's STATUS, READY and RESTARTS logic (simplified where it reads container states). */
function podRowParts(pod: KubeObject, now: number): { ready: string; reason: string; restarts: string } {
  const spec = o(pod.spec);
  const st = o(pod.status);
  let reason = str(st.reason) || str(st.phase);
  for (const c of a(st.conditions)) if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') reason = 'SchedulingGated';
  const initSpecs = new Map(a(spec.initContainers).map((c) => [str(c.name), c]));
  const restartable = (name: string) => initSpecs.get(name)?.restartPolicy === 'Always';
  const total = a(spec.containers).length + a(spec.initContainers).filter((c) => c.restartPolicy === 'Always').length;
  let ready = 0;
  let restarts = 0;
  let sidecarRestarts = 0;
  let lastRestart = 0;
  let lastSidecarRestart = 0;
  let initializing = false;
  const initStatuses = a(st.initContainerStatuses);
  const nInit = a(spec.initContainers).length;
  for (let i = 0; i < initStatuses.length; i++) {
    const c = initStatuses[i];
    const state = o(c.state);
    const term = o(state.terminated);
    const lastTerm = o(o(c.lastState).terminated);
    restarts += int(c.restartCount);
    const finished = Date.parse(str(lastTerm.finishedAt));
    if (!Number.isNaN(finished) && finished > lastRestart) lastRestart = finished;
    if (restartable(str(c.name))) {
      sidecarRestarts += int(c.restartCount);
      if (!Number.isNaN(finished) && finished > lastSidecarRestart) lastSidecarRestart = finished;
    }
    if (state.terminated && int(term.exitCode) === 0) continue;
    if (restartable(str(c.name)) && c.started === true) {
      if (c.ready === true) ready++;
      continue;
    }
    if (state.terminated) {
      reason = str(term.reason) ? `Init:${str(term.reason)}` : int(term.signal) ? `Init:Signal:${int(term.signal)}` : `Init:ExitCode:${int(term.exitCode)}`;
    } else if (str(o(state.waiting).reason) && o(state.waiting).reason !== 'PodInitializing') {
      reason = `Init:${str(o(state.waiting).reason)}`;
    } else {
      reason = `Init:${i}/${nInit}`;
    }
    initializing = true;
    break;
  }
  const initializedTrue = a(st.conditions).some((c) => c.type === 'Initialized' && c.status === 'True');
  if (!initializing || initializedTrue) {
    restarts = sidecarRestarts;
    lastRestart = lastSidecarRestart;
    let hasRunning = false;
    const cs = a(st.containerStatuses);
    for (let i = cs.length - 1; i >= 0; i--) {
      const c = cs[i];
      const state = o(c.state);
      restarts += int(c.restartCount);
      const finished = Date.parse(str(o(o(c.lastState).terminated).finishedAt));
      if (!Number.isNaN(finished) && finished > lastRestart) lastRestart = finished;
      const term = o(state.terminated);
      if (str(o(state.waiting).reason)) reason = str(o(state.waiting).reason);
      else if (state.terminated && str(term.reason)) reason = str(term.reason);
      else if (state.terminated) reason = int(term.signal) ? `Signal:${int(term.signal)}` : `ExitCode:${int(term.exitCode)}`;
      else if (c.ready === true && state.running) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed' && hasRunning) {
      reason = a(st.conditions).some((c) => c.type === 'Ready' && c.status === 'True') ? 'Running' : 'NotReady';
    }
  }
  const phase = str(st.phase);
  if (pod.metadata?.deletionTimestamp && st.reason === 'NodeLost') reason = 'Unknown';
  else if (pod.metadata?.deletionTimestamp && phase !== 'Succeeded' && phase !== 'Failed') reason = 'Terminating';
  let restartsStr = String(restarts);
  if (restarts !== 0 && lastRestart > 0) restartsStr = `${restarts} (${since(new Date(lastRestart).toISOString(), now)} ago)`;
  return { ready: `${ready}/${total}`, reason, restarts: restartsStr };
}

/**
 * The pod strategy's CheckGracefulDelete: every pod delete is graceful; the period comes from the options,
 * else spec.terminationGracePeriodSeconds (else 0); an unscheduled or terminated pod gets 0 (removed at once).
 */
export function podGracePeriod(pod: KubeObject, options: { gracePeriodSeconds?: number }): number {
  const spec = o(pod.spec);
  let period = options.gracePeriodSeconds ?? (typeof spec.terminationGracePeriodSeconds === 'number' ? spec.terminationGracePeriodSeconds : 0);
  if (!str(spec.nodeName)) period = 0;
  const phase = str(o(pod.status).phase);
  if (phase === 'Failed' || phase === 'Succeeded') period = 0;
  if (period < 0) period = 1;
  return period;
}

export const pods = builtin('', 'v1', 'pods', {
  // podStatusStrategy: /status may change labels and annotations but never the owner references
  statusPinnedMetadata: ['ownerReferences'],
  // defaulting and preparation write only what changes: updates (the kubelets' status writes above all)
  // share the unchanged parts of the stored state
  copyOnWrite: true,
  checkGracefulDelete: podGracePeriod,
  default: (obj) => {
    defaultPod(obj);
    mirrorIPs(obj);
  },
  prepareForCreate: podPrepareForCreate,
  prepareForUpdate: (obj, old, ctx) => {
    if (ctx.subresource !== '' && ctx.subresource !== 'resize' && ctx.subresource !== 'ephemeralcontainers') return;
    preparePodSubresource(obj, old, ctx);
    const meta = (obj.metadata ??= {});
    const prev = old.metadata?.generation ?? 0;
    meta.generation = canonicalJSON(obj.spec) === canonicalJSON(old.spec) ? prev : prev + 1;
  },
  validateObject: (obj) => validatePod(obj),
  validateChange: (obj, old) => validatePodSpecUpdate(obj.spec, old.spec),
  validateSubresourceChange: validatePodSubresourceChange,
  warningsOnCreate: (obj) => [...nameWarning(obj, "the Pod's hostname"), ...podWarnings(obj.spec, obj.metadata, '')],
  warningsOnUpdate: (obj, old) => newWarnings(podWarnings(obj.spec, obj.metadata, ''), podWarnings(old.spec, old.metadata, '')),
  selectableFields: (obj) => {
    const spec = o(obj.spec);
    const st = o(obj.status);
    const ips = a(st.podIPs).map((p) => str(p.ip));
    return {
      'spec.nodeName': str(spec.nodeName),
      'spec.restartPolicy': str(spec.restartPolicy),
      'spec.schedulerName': str(spec.schedulerName),
      'spec.serviceAccountName': str(spec.serviceAccountName),
      'spec.hostNetwork': spec.hostNetwork === true ? 'true' : 'false',
      'status.phase': str(st.phase),
      // PodToSelectableFields: the first of status.podIPs
      'status.podIP': ips[0] ?? '',
      'status.nominatedNodeName': str(st.nominatedNodeName),
    };
  },
  tableColumns: [
    col('Ready', 'string', 'The aggregate readiness state of this pod for accepting traffic.', (obj, ctx) => podRowParts(obj, ctx.now).ready),
    col('Status', 'string', 'The aggregate status of the containers in this pod.', (obj, ctx) => podRowParts(obj, ctx.now).reason),
    col('Restarts', 'string', 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.', (obj, ctx) => podRowParts(obj, ctx.now).restarts),
    ageColumn(),
    col('IP', 'string', 'podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.', (obj) => str(a(o(obj.status).podIPs)[0]?.ip) || '<none>', 1),
    col('Node', 'string', 'NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName. Once this field is set, the kubelet for this node becomes responsible for the lifecycle of this pod. This field should not be used to express a desire for the pod to be scheduled on a specific node. https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#nodename', (obj) => str(o(obj.spec).nodeName) || '<none>', 1),
    col('Nominated Node', 'string', 'nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods. This field does not guarantee that the pod will be scheduled on this node. Scheduler may decide to place the pod elsewhere if other nodes become available sooner. Scheduler may also decide to give the resources on this node to a higher priority pod that is created after preemption. As a result, this field may be different than PodSpec.nodeName when the pod is scheduled.', (obj) => str(o(obj.status).nominatedNodeName) || '<none>', 1),
    col('Readiness Gates', 'string', "If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to \"True\" More info: https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates", (obj) => {
      const gates = a(o(obj.spec).readinessGates);
      if (!gates.length) return '<none>';
      const conds = a(o(obj.status).conditions);
      let n = 0;
      for (const g of gates) {
        const c = conds.find((x) => x.type === g.conditionType);
        if (c && c.status === 'True') n++;
      }
      return `${n}/${gates.length}`;
    }, 1),
  ],
}) satisfies ResourceDefinition;
