// The controllers the engine's controller manager runs by default.
import { garbageCollector } from './garbage-collector.js';
import type { ControllerSpec } from './manager.js';
import { namespaceController } from './namespace.js';
import { clusterRoleAggregationController } from './clusterrole-aggregation.js';
import { serviceAccountController } from './service-account.js';
import { validatingAdmissionPolicyStatusController } from './validating-admission-policy-status.js';
import { resourceQuotaController } from './resource-quota.js';
import { deploymentController } from './deployment.js';
import { replicaSetController } from './replicaset.js';
import { endpointSliceController, endpointsController } from './endpoints.js';
import { schedulerController } from './scheduler.js';
import { jobController } from './job.js';
import { statefulSetControllerWith } from './statefulset.js';
import { daemonSetController } from './daemonset.js';
import { cronJobController } from './cronjob.js';
import { nodeSimulation, type NodeSimulationOptions } from './nodes.js';
import { nodeLifecycleController } from './node-lifecycle.js';
import { podGCControllerWith } from './pod-gc.js';

export { ControllerManager, type Controller, type ControllerContext, type ControllerSpec } from './manager.js';

export const defaultControllers: ControllerSpec[] = [namespaceController, garbageCollector, validatingAdmissionPolicyStatusController, resourceQuotaController];

/** The controllers that go with the bootstrap RBAC policy (their service accounts' roles are part of it). */
export const bootstrapPolicyControllers: ControllerSpec[] = [clusterRoleAggregationController, serviceAccountController];

export { defaultNodes, type SimulatedNode, type NodeSimulationOptions } from './nodes.js';

/** The switchable controllers of a simulated cluster (the ones the API's own semantics need always run). */
import type { WorkloadControllerName } from './names.js';
import { WORKLOAD_CONTROLLER_NAMES } from './names.js';
export { WORKLOAD_CONTROLLER_NAMES, type WorkloadControllerName } from './names.js';

export interface WorkloadOptions extends NodeSimulationOptions {
  /** Which workload controllers run: 'all' or a list of names (default 'all'). */
  controllers?: 'all' | WorkloadControllerName[];
  /** The engine's feature gates (read live), for controllers whose behaviour a gate changes. */
  featureGates?: Record<string, boolean>;
  /** --terminated-pod-gc-threshold of the pod garbage collector (default 12500). */
  terminatedPodGCThreshold?: number;
}

/** The controller specs of a simulated cluster: workload controllers, the scheduler and the simulated nodes. */
export function workloadControllers(opts: WorkloadOptions = {}): ControllerSpec[] {
  const on = new Set<string>(opts.controllers === undefined || opts.controllers === 'all' ? WORKLOAD_CONTROLLER_NAMES : opts.controllers);
  const specs: ControllerSpec[] = [];
  if (on.has('deployment')) specs.push(deploymentController);
  if (on.has('replicaset')) specs.push(replicaSetController);
  if (on.has('statefulset')) specs.push(statefulSetControllerWith(opts.featureGates));
  if (on.has('daemonset')) specs.push(daemonSetController);
  if (on.has('job')) specs.push(jobController);
  if (on.has('cronjob')) specs.push(cronJobController);
  if (on.has('endpoints')) specs.push(endpointsController);
  if (on.has('endpointslice')) specs.push(endpointSliceController);
  if (on.has('scheduler')) specs.push(schedulerController);
  if (on.has('nodes')) specs.push(nodeSimulation(opts));
  if (on.has('node-lifecycle')) specs.push(nodeLifecycleController);
  if (on.has('podgc')) specs.push(podGCControllerWith({ terminatedPodGCThreshold: opts.terminatedPodGCThreshold }));
  return specs;
}
