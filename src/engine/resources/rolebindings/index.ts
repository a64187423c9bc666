import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const rolebindings = builtin('rbac.authorization.k8s.io', 'v1', 'rolebindings') satisfies ResourceDefinition;
