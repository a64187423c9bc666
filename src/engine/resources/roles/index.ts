import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const roles = builtin('rbac.authorization.k8s.io', 'v1', 'roles') satisfies ResourceDefinition;
