// RoleBindings (rbac.authorization.k8s.io/v1): apiGroup defaults, ValidateRoleBinding(+Update), printer.

import type { ResourceDefinition } from '../../registry/types.js';
import { nameIsPathSegment } from '../../util/validation.js';
import { builtin } from '../factory.js';
import { bindingColumns, defaultBinding, validateBinding, validateRoleRefChange } from '../common/rbac.js';

export const rolebindings = builtin('rbac.authorization.k8s.io', 'v1', 'rolebindings', {
  nameValidator: nameIsPathSegment,
  allowCreateOnUpdate: true,
  default: defaultBinding,
  validateObject: (obj) => validateBinding(obj, false),
  validateChange: validateRoleRefChange,
  tableColumns: bindingColumns('roleBinding'),
}) satisfies ResourceDefinition;
