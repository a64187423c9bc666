import type { ResourceDefinition } from '../../registry/types.js';
import { builtin } from '../factory.js';

export const clusterrolebindings = builtin('rbac.authorization.k8s.io', 'v1', 'clusterrolebindings') satisfies ResourceDefinition;
