// ClusterRoleBindings (rbac.authorization.k8s.io/v1): apiGroup defaults, ValidateClusterRoleBinding(+Update),
// printer.

import type { ResourceDefinition } from '../../registry/types.js';
import { nameIsPathSegment } from '../../util/validation.js';
import { builtin } from '../factory.js';
import { bindingColumns, defaultBinding, validateBinding, validateRoleRefChange } from '../common/rbac.js';

export const clusterrolebindings = builtin('rbac.authorization.k8s.io', 'v1', 'clusterrolebindings', {
  nameValidator: nameIsPathSegment,
  allowCreateOnUpdate: true,
  default: defaultBinding,
  validateObject: (obj) => validateBinding(obj, true),
  validateChange: validateRoleRefChange,
  tableColumns: bindingColumns('clusterRoleBinding'),
}) satisfies ResourceDefinition;
