// ClusterRoles (rbac.authorization.k8s.io/v1): path-segment names, ValidatePolicyRule. Default table.

import type { ResourceDefinition } from '../../registry/types.js';
import { nameIsPathSegment } from '../../util/validation.js';
import { builtin } from '../factory.js';
import { validateRules } from '../common/rbac.js';

export const clusterroles = builtin('rbac.authorization.k8s.io', 'v1', 'clusterroles', {
  nameValidator: nameIsPathSegment,
  allowCreateOnUpdate: true,
  validateObject: (obj) => validateRules(obj, false),
}) satisfies ResourceDefinition;
