// The controllers the engine's controller manager runs by default.
import { garbageCollector } from './garbage-collector.js';
import type { ControllerSpec } from './manager.js';
import { namespaceController } from './namespace.js';
import { clusterRoleAggregationController } from './clusterrole-aggregation.js';
import { serviceAccountController } from './service-account.js';
import { validatingAdmissionPolicyStatusController } from './validating-admission-policy-status.js';
import { resourceQuotaController } from './resource-quota.js';

export { ControllerManager, type Controller, type ControllerContext, type ControllerSpec } from './manager.js';

export const defaultControllers: ControllerSpec[] = [namespaceController, garbageCollector, validatingAdmissionPolicyStatusController, resourceQuotaController];

/** The controllers that go with the bootstrap RBAC policy (their service accounts' roles are part of it). */
export const bootstrapPolicyControllers: ControllerSpec[] = [clusterRoleAggregationController, serviceAccountController];
