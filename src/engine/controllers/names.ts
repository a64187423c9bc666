// The names of the simulated cluster's switchable controllers, in a module of their own so that the UI can
// offer them without loading the controllers.
export const WORKLOAD_CONTROLLER_NAMES = ['deployment', 'replicaset', 'statefulset', 'daemonset', 'job', 'cronjob', 'endpoints', 'endpointslice', 'scheduler', 'nodes', 'node-lifecycle', 'podgc'] as const;
export type WorkloadControllerName = (typeof WORKLOAD_CONTROLLER_NAMES)[number];
