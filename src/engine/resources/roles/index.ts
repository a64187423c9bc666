// Roles (rbac.authorization.k8s.io/v1): path-segment names, ValidatePolicyRule. No printer (default table).

import type { ResourceDefinition } from '../../registry/types.js';
import { nameIsPathSegment } from '../../util/validation.js';
import { builtin } from '../factory.js';
import { validateRules } from '../common/rbac.js';

export const roles = builtin('rbac.authorization.k8s.io', 'v1', 'roles', {
  nameValidator: nameIsPathSegment,
  allowCreateOnUpdate: true,
  validateObject: (obj) => validateRules(obj, true),
}) satisfies ResourceDefinition;
